//! What may name a dataset: its [`Slug`], and the one set of slug rules that `check`
//! applies to each page's file name and `new` to the slug it is given, so `new` never
//! writes a page that `check` then refuses.

use std::path::Path;
use std::sync::Arc;

use crate::content::markdown::slugify;
use crate::content::validate::MAX_NAME_BYTES;
use crate::layout;

/// A dataset's slug: the name of its page `content/datasets/<slug>.md` without `.md`, read
/// once where the page is found ([`Slug::of_file`], whose load reports the rule it breaks)
/// and carried as it by the dataset, its entry (the reuse record) and its summary. Shared:
/// a clone copies no text. Reads as the `str` it is wherever one is asked for.
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct Slug(Arc<str>);

impl Slug {
    /// The slug of the page `markdown_file`, even when it is not a valid one (its load
    /// says so, [`slug_problem`]).
    pub fn of_file(markdown_file: &Path) -> Slug {
        let stem = markdown_file.file_stem().and_then(|s| s.to_str());
        Slug::from(stem.unwrap_or_default())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Slug {
    fn from(slug: &str) -> Slug {
        Slug(slug.into())
    }
}

impl std::ops::Deref for Slug {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Slug {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether a slug is lowercase letters, digits and single hyphens.
pub fn is_valid_slug(slug: &str) -> bool {
    !slug.is_empty()
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !slug.starts_with('-')
        && !slug.ends_with('-')
        && !slug.contains("--")
}

/// Why a name cannot be a dataset's slug.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlugProblem {
    /// Not lowercase letters, digits and single hyphens.
    Shape,
    /// The folder of the listing pages past the first (`datasets/page/2/`).
    ListingPages,
    /// Longer (in bytes) than the file names made from it can carry.
    TooLong(usize),
}

/// The first rule `slug` breaks, if any.
pub fn slug_problem(slug: &str) -> Option<SlugProblem> {
    if !is_valid_slug(slug) {
        Some(SlugProblem::Shape)
    } else if slug == layout::LISTING_PAGES {
        Some(SlugProblem::ListingPages)
    } else if slug.len() > MAX_NAME_BYTES {
        Some(SlugProblem::TooLong(slug.len()))
    } else {
        None
    }
}

impl SlugProblem {
    /// What is wrong with `slug`; the slug is quoted only when it is short and valid
    /// enough to be read (a message never carries 10,000 bytes of a name).
    pub fn message(self, slug: &str) -> String {
        match self {
            SlugProblem::Shape => format!(
                "`{}` is not a valid dataset slug",
                crate::text::quoted_in_message(slug)
            ),
            SlugProblem::ListingPages => {
                format!("the dataset slug `{slug}` is taken by the pages of All datasets")
            }
            SlugProblem::TooLong(bytes) => format!(
                "the dataset slug is {bytes} bytes long; at most {MAX_NAME_BYTES} fit the file names made from it"
            ),
        }
    }

    /// What to do: rename the file when `file` (a page that is there, as `check` finds
    /// it), else choose another slug (one `new` is asked to make).
    pub fn hint(self, slug: &str, file: bool) -> String {
        match self {
            SlugProblem::Shape => {
                let suggestion = slugify(slug);
                match (file, suggestion.is_empty()) {
                    (true, false) => format!(
                        "rename the file to {suggestion}.md: lowercase letters, digits and hyphens"
                    ),
                    (false, false) => {
                        format!("use lowercase letters, digits and hyphens, e.g. {suggestion}")
                    }
                    _ => "use lowercase letters, digits and hyphens, e.g. rainfall-2024".into(),
                }
            }
            SlugProblem::ListingPages => format!(
                "{}: datasets/{slug}/2/ is the second page of All datasets",
                if file {
                    "rename the file"
                } else {
                    "choose another slug"
                }
            ),
            SlugProblem::TooLong(_) if file => format!(
                "rename the file (and its CSV) to a slug of at most {MAX_NAME_BYTES} characters"
            ),
            SlugProblem::TooLong(_) => {
                format!("choose a slug of at most {MAX_NAME_BYTES} characters")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_lowercase_words_and_hyphens() {
        assert!(is_valid_slug("sata-sas-nvme-measured-throughput"));
        assert!(is_valid_slug("a1"));
        let slug = Slug::of_file(Path::new("content/datasets/rain-2024.md"));
        assert_eq!(
            (slug.as_str(), &*slug.to_string()),
            ("rain-2024", "rain-2024")
        );
        let bad = Slug::of_file(Path::new("content/datasets/Bad_Name.md"));
        assert_eq!(bad, "Bad_Name".into());
        for bad in ["", "A", "a_b", "-a", "a-", "a--b", "a b", "é"] {
            assert!(!is_valid_slug(bad), "{bad}");
            assert_eq!(slug_problem(bad), Some(SlugProblem::Shape), "{bad}");
        }
    }

    #[test]
    fn reserved_and_long_slugs_are_refused() {
        assert_eq!(slug_problem("page"), Some(SlugProblem::ListingPages));
        assert_eq!(slug_problem("pages"), None);
        assert_eq!(slug_problem(&"s".repeat(MAX_NAME_BYTES)), None);
        let long = "s".repeat(MAX_NAME_BYTES + 1);
        let problem = slug_problem(&long).unwrap();
        assert_eq!(problem, SlugProblem::TooLong(201));
        assert!(problem.message(&long).contains("201 bytes"));
        assert!(problem.hint(&long, false).starts_with("choose a slug"));
        assert!(SlugProblem::Shape
            .hint("My Table", false)
            .ends_with("e.g. my-table"));
        assert!(SlugProblem::Shape
            .hint("Bad_Name", true)
            .starts_with("rename the file to bad-name.md"));
    }
}
