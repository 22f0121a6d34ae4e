//! What may name a dataset: the one set of slug rules that `check` applies to each page's
//! file name and `new` to the slug it is given, so `new` never writes a page that `check`
//! then refuses.

use crate::content::markdown::slugify;
use crate::content::validate::MAX_NAME_BYTES;
use crate::layout;

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
