//! Two datasets with one title warned about (listings, the feed, search results, the
//! browser tab and citations cannot tell them apart: a copied dataset file whose title
//! was not changed, or two years of one series).

use std::path::Path;

use super::Datasets;
use crate::confine;
use crate::content::front_matter;
use crate::content::spans::{Place, Spans};
use crate::diagnostics::{Diagnostic, Diagnostics};

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
