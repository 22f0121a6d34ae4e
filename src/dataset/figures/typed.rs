//! The numbers a dataset page types by hand: in the headline, kicker, table note, captions
//! and body, outside every figure reference, and not listed under `numbers_not_data`.
//! Found once while the page loads (their count is kept with the dataset, for the line
//! `build` and `serve` print) and again by `check --strict`, which looks each up in the data.

use std::collections::HashSet;

use super::{sources, Field};
use crate::content::figures;
use crate::content::front_matter::SplitFile;
use crate::content::numbers::{self, Typed};
use crate::content::spans::Locator;
use crate::content::DatasetFrontMatter;
use crate::i18n::locale::NumberMarks;

/// A number of the page, placed in the file (a byte offset).
pub struct TypedNumber {
    pub typed: Typed,
    pub at: Option<usize>,
}

/// The numbers typed by hand in the page whose front matter is `front` and whose body is
/// `split`'s, read in the marks of the page's language.
pub fn typed_numbers(
    front: &DatasetFrontMatter,
    split: &SplitFile,
    locator: &Locator,
    marks: &NumberMarks,
) -> Vec<TypedNumber> {
    let allowed: HashSet<String> = front
        .numbers_not_data
        .iter()
        .map(|n| numbers::listed(n, marks).to_lowercase())
        .collect();
    let mut found = Vec::new();
    for source in sources(front, split.body, split.body_offset, locator) {
        let (references, _) = figures::find(source.text);
        let skip: Vec<_> = references.into_iter().map(|r| r.range).collect();
        let typed = match source.field {
            Field::Headline | Field::Kicker => numbers::in_plain(source.text, &skip, marks),
            _ => numbers::in_markdown(source.text, &skip, marks),
        };
        found.extend(
            typed
                .into_iter()
                .filter(|t| !allowed.contains(&t.number) && !allowed.contains(&t.raw))
                .map(|typed| TypedNumber {
                    at: source.offset.map(|o| o + typed.offset),
                    typed,
                }),
        );
    }
    found
}
