//! Datasets' titles: read from another dataset's front matter while the datasets load
//! ([`TitleReader`]), and two datasets with one title warned about (listings, the feed,
//! search results, the browser tab and citations cannot tell them apart: a copied dataset
//! file whose title was not changed, or two years of one series).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use super::Datasets;
use crate::confine;
use crate::content::front_matter;
use crate::content::spans::{Place, Spans};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::layout;

/// The titles of datasets, each read from its front matter once, on demand, while the
/// datasets load in parallel: a page that lists others under `related` shows their titles,
/// and so is written as soon as it is loaded, before the others are. A draft the build
/// leaves out, or a page whose front matter cannot be read, has none (as it has no place
/// among the loaded datasets; its own load reports why).
#[derive(Debug)]
pub struct TitleReader {
    /// The site folder, resolved; `None` when it cannot be.
    root: Option<PathBuf>,
    /// Whether the build includes drafts (`--drafts`).
    drafts: bool,
    read: Mutex<HashMap<Box<str>, Option<String>>>,
}

impl TitleReader {
    pub fn new(root: &Path, drafts: bool) -> TitleReader {
        TitleReader {
            root: confine::canonical_root(root).ok(),
            drafts,
            read: Mutex::default(),
        }
    }

    /// The title of dataset `slug`, as its load will give it.
    pub fn title(&self, slug: &str) -> Option<String> {
        let known = || self.read.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(title) = known().get(slug) {
            return title.clone();
        }
        // Read without holding the lock: other datasets load meanwhile.
        let title = self.read_title(slug);
        known().insert(slug.into(), title.clone());
        title
    }

    fn read_title(&self, slug: &str) -> Option<String> {
        /// What a title needs of the front matter.
        #[derive(serde::Deserialize)]
        struct Head {
            title: String,
            #[serde(default)]
            draft: bool,
        }
        if !crate::dataset::is_valid_slug(slug) {
            return None;
        }
        let markdown = layout::dataset_markdown(slug);
        let path = confine::resolve_file(self.root.as_deref()?, &markdown).ok()?;
        let text = std::fs::read_to_string(path).ok()?;
        let split = front_matter::split(&markdown, &text).ok()?;
        let (toml, offset) = (split.front_matter, split.front_matter_offset);
        let head: Head = front_matter::parse_toml(&markdown, &text, toml, offset).ok()?;
        (self.drafts || !head.draft).then_some(head.title)
    }
}

/// Warns at the `title` of every dataset whose title (spaces around it aside) another
/// dataset has too. Sorting indexes by title costs a millisecond at 10,000 datasets and
/// holds 4 bytes each: this runs at every `serve` edit, and at the end of a build's load,
/// where its memory peaks.
pub fn check_duplicate_titles(root: &Path, datasets: &Datasets, diagnostics: &mut Diagnostics) {
    let title = |i: u32| datasets.summary(i as usize).title.trim();
    let Ok(count) = u32::try_from(datasets.len()) else {
        return;
    };
    let mut by_title: Vec<u32> = (0..count).collect();
    // Stable: a group keeps the datasets' order (by slug).
    by_title.sort_by(|&a, &b| title(a).cmp(title(b)));
    let canonical_root = confine::canonical_root(root).ok();
    for group in by_title.chunk_by(|&a, &b| title(a) == title(b)) {
        if group.len() < 2 {
            continue;
        }
        for &this in group {
            let Some(&other) = group.iter().find(|&&i| i != this) else {
                continue;
            };
            let (this, other) = (
                datasets.summary(this as usize),
                datasets.summary(other as usize),
            );
            let more = match group.len() - 2 {
                0 => String::new(),
                1 => " and 1 more dataset".to_string(),
                n => format!(" and {n} more datasets"),
            };
            let message = format!(
                "the title \"{}\" is also the title of {}{more}: listings, the feed and search results cannot tell them apart",
                crate::text::quoted_in_message(this.title.trim()),
                other.markdown_path.display()
            );
            let warning = Diagnostic::warning(&this.markdown_path, message).with_hint(
                "give each dataset a title of its own: say what differs (the year, the place, the unit)",
            );
            let place = canonical_root
                .as_deref()
                .and_then(|root| title_place(root, &this.markdown_path));
            diagnostics.push(match place {
                Some(place) => place.locate(warning),
                None => warning,
            });
        }
    }
}

/// Where the `title` value of the Markdown file `file` (relative to the site root) is,
/// read again: the load kept no place for it, and a shared title is rare.
fn title_place(canonical_root: &Path, file: &Path) -> Option<Place> {
    let path = confine::resolve_file(canonical_root, file).ok()?;
    let text = std::fs::read_to_string(path).ok()?;
    let split = front_matter::split(file, &text).ok()?;
    let spans = Spans::parse(split.front_matter, split.front_matter_offset);
    Some(Place::of(&text, spans.value("title")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(root: &Path, slug: &str, front: &str) {
        let path = root.join(layout::dataset_markdown(slug));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, format!("+++\n{front}\n+++\nProse.\n")).unwrap();
    }

    #[test]
    fn a_title_is_read_from_the_front_matter_as_the_load_gives_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        page(
            root,
            "a",
            "title = \"  A \\\"quoted\\\" title \"\nkicker = \"k\"\n[[columns]]\nname = \"x\"",
        );
        page(root, "draft", "title = \"Draft\"\ndraft = true");
        page(root, "broken", "title = ");
        let reader = TitleReader::new(root, false);
        assert_eq!(reader.title("a").as_deref(), Some("  A \"quoted\" title "));
        assert_eq!(reader.title("draft"), None, "a draft left out has no title");
        assert_eq!(reader.title("broken"), None);
        assert_eq!(reader.title("missing"), None);
        assert_eq!(reader.title("../a"), None, "not a slug: nothing is read");
        assert_eq!(
            TitleReader::new(root, true).title("draft").as_deref(),
            Some("Draft")
        );
        // Read once: a later edit is not seen by this build.
        page(root, "a", "title = \"Renamed\"");
        assert_eq!(reader.title("a").as_deref(), Some("  A \"quoted\" title "));
    }
}
