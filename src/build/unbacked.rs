//! `check`'s typed-number warnings: every number the prose types by hand (headline,
//! kicker, table note, captions, body) that no reference produces or binds and that the
//! author did not list under `numbers_not_data`. One that equals no cell of the dataset's
//! CSV, of a dataset it relates to or of one it quotes is unbacked; one that equals a cell
//! comes with the `{{ cell(...) }}` reference to paste (built from the row's primary key)
//! or, when several cells equal it, says how many. Each page's numbers are collected first
//! (a handful), then each CSV is streamed once looking for them: memory stays flat in rows.
//! `build` and `serve` only count them ([`count`]): no CSV is read for that.

mod cells;

use std::path::Path;

use rayon::prelude::*;

use crate::confine;
use crate::content::front_matter;
use crate::content::numbers::Typed;
use crate::content::spans::{error_at, Locator};
use crate::content::DatasetFrontMatter;
use crate::dataset::entry::CatalogEntry;
use crate::dataset::figures::{typed_numbers, TypedNumber};
use crate::dataset::scan::Matches;
use crate::diagnostics::{plural, Diagnostic, Severity};
use crate::i18n::locale::NumberMarks;
use crate::site::Site;
use cells::Table;

/// The line `build` and `serve` print when the prose types numbers by hand:
/// "12 numbers typed by hand; run `datapages check --strict` to list them".
pub fn typed_by_hand_line(count: usize) -> Option<String> {
    (count > 0).then(|| {
        format!(
            "{count} {} typed by hand; run `datapages check --strict` to list them",
            plural(count, "number", "numbers")
        )
    })
}

/// The warnings of every dataset of `site`.
pub fn check(root: &Path, site: &Site) -> Vec<Diagnostic> {
    let Ok(root) = confine::canonical_root(root) else {
        return Vec::new();
    };
    // In parallel: each dataset's page is parsed again and its CSV streamed, a tenth of
    // a `check` of 10,000 datasets on one thread; the order stays the site's.
    (0..site.datasets.len())
        .into_par_iter()
        .flat_map_iter(|index| match site.datasets.entry(index) {
            Ok(dataset) => check_dataset(&root, site, &dataset),
            Err(e) => vec![crate::site::datasets::read_back_problem(&e)],
        })
        .collect()
}

/// How many warnings [`check`] gives for `site`: the numbers its pages type by hand, as
/// counted when they loaded (no file is read again).
pub fn count(site: &Site) -> usize {
    (0..site.datasets.len())
        .map(|index| site.datasets.summary(index).typed_numbers as usize)
        .sum()
}

/// A dataset page's typed numbers, with its text and primary key.
struct Page {
    text: String,
    found: Vec<TypedNumber>,
    primary_key: Vec<String>,
}

impl Page {
    /// The Markdown file `file` read again, its numbers read in `marks`; `None` when it
    /// cannot be read or parsed (that was reported when it loaded).
    fn read(root: &Path, file: &Path, marks: &NumberMarks) -> Option<Page> {
        let text = confine::resolve_file(root, file)
            .ok()
            .and_then(|path| std::fs::read_to_string(path).ok())?;
        let split = front_matter::split(file, &text).ok()?;
        // One parse gives the values and the places of the keys.
        let (front, spans) = front_matter::parse_toml_with_spans::<DatasetFrontMatter>(
            file,
            &text,
            split.front_matter,
            split.front_matter_offset,
        )
        .ok()?;
        let locator = Locator {
            file,
            text: &text,
            spans,
        };
        let found = typed_numbers(&front, &split, &locator, marks);
        let primary_key = front.primary_key.to_vec();
        Some(Page {
            text,
            found,
            primary_key,
        })
    }
}

fn check_dataset(root: &Path, site: &Site, dataset: &CatalogEntry) -> Vec<Diagnostic> {
    let file = dataset.markdown_path.as_path();
    let marks = &site.words.locale.marks;
    let Some(page) = Page::read(root, file, marks) else {
        return Vec::new();
    };
    if page.found.is_empty() {
        return Vec::new();
    }
    let numbers: Vec<Typed> = page.found.iter().map(|f| f.typed.clone()).collect();
    // The scan that checked the CSV looked for these numbers (unless it was recalled from
    // a scan that looked for others): the file is read again only then.
    let scanned = dataset
        .typed_cells
        .as_ref()
        .and_then(|t| t.matches_for(&numbers, &page.primary_key));
    let mut matches = match scanned {
        Some(found) => found.to_vec(),
        None => {
            let mut matches = vec![Matches::default(); numbers.len()];
            // A CSV that cannot be read was reported when it loaded.
            let own = Table {
                csv: &dataset.csv_path,
                dialect: dataset.dialect,
                key: &page.primary_key,
                dataset: None,
            };
            let _ = cells::count(&own, &numbers, |_| true, &mut matches);
            matches
        }
    };
    // Numbers no cell of the page's own table equals are looked for in the others.
    let unmatched: Vec<bool> = matches.iter().map(|m| m.count == 0).collect();
    if unmatched.iter().any(|u| *u) {
        let others = dataset
            .related
            .iter()
            .chain(&dataset.read_datasets)
            .filter(|slug| **slug != *dataset.slug)
            .collect::<std::collections::BTreeSet<_>>();
        for slug in others {
            let Some(other) = site.entry(slug) else {
                continue;
            };
            let key = Page::read(root, &other.markdown_path, marks)
                .map(|p| p.primary_key)
                .unwrap_or_default();
            let table = Table {
                csv: &other.csv_path,
                dialect: other.dialect,
                key: &key,
                dataset: Some(slug.as_str()),
            };
            let _ = cells::count(&table, &numbers, |n| unmatched[n], &mut matches);
        }
    }
    identify_rows(site, dataset, &mut matches);
    page.found
        .iter()
        .zip(&matches)
        .map(|(f, m)| warning(file, &page.text, f, m))
        .collect()
}

/// The columns that tell apart each first hit's row, in a table that declares no key
/// (`cells::identify`): one more pass over each table with such hits.
fn identify_rows(site: &Site, dataset: &CatalogEntry, matches: &mut [Matches]) {
    let mut hits: Vec<&mut crate::dataset::scan::Hit> = matches
        .iter_mut()
        .filter_map(|m| m.first.as_mut())
        .filter(|hit| !hit.row.is_empty())
        .collect();
    while let Some(slug) = hits.first().map(|hit| hit.dataset.clone()) {
        let (these, rest): (Vec<_>, Vec<_>) = hits.into_iter().partition(|hit| hit.dataset == slug);
        hits = rest;
        let mut these = these;
        let entry = match &slug {
            None => Some(std::borrow::Cow::Borrowed(dataset)),
            Some(slug) => site.entry(slug.as_str()),
        };
        let Some(entry) = entry else {
            continue;
        };
        let table = Table {
            csv: &entry.csv_path,
            dialect: entry.dialect,
            key: &[],
            dataset: slug.as_deref(),
        };
        // A table that cannot be read was reported when it loaded; its hits name no row.
        if cells::identify(&table, &mut these).is_err() {
            these.iter_mut().for_each(|hit| hit.key.clear());
        }
    }
}

fn warning(file: &Path, text: &str, f: &TypedNumber, matches: &Matches) -> Diagnostic {
    let number = &f.typed.number;
    let (message, hint) = match (matches.count, &matches.first) {
        (n, Some(hit)) if hit.key.is_empty() => (
            match n {
                1 => format!("the number {number} is typed by hand; it equals one cell of the data"),
                _ => format!("the number {number} is typed by hand; ambiguous: {n} cells equal it"),
            },
            format!(
                "the table declares no `primary_key` and no other column than `{}` tells its row apart \
                 (another row has the same values in all of them), so no `cell(...)` names it alone: \
                 declare a `primary_key` of columns that tell the rows apart, or compute it (max, min, mean, sum, count); \
                 if it is not data, list it in `numbers_not_data`",
                hit.column
            ),
        ),
        (1, Some(hit)) => (
            format!("the number {number} is typed by hand; it equals one cell of the data"),
            format!(
                "paste {} in its place, so the page follows the data; \
                 if it is not data, list it in `numbers_not_data`",
                hit.reference()
            ),
        ),
        (n, Some(hit)) if n > 1 => (
            format!("the number {number} is typed by hand; ambiguous: {n} cells equal it"),
            format!(
                "quote the cell it comes from, naming its row ({} is the first), \
                 or compute it (max, min, mean, sum, count); \
                 if it is not data, list it in `numbers_not_data`",
                hit.reference()
            ),
        ),
        _ => (
            format!(
                "the number {number} is typed by hand and equals no cell of the table or of a related dataset"
            ),
            "quote it from its cell ({{ cell(...) }}) or bind it ({{ 12 = cell(...) }}); \
             if it is not data, list it in `numbers_not_data`"
                .to_string(),
        ),
    };
    let d = match f.at {
        Some(at) => error_at(file, text, at, message),
        None => Diagnostic::error(file, message),
    };
    Diagnostic {
        severity: Severity::Warning,
        ..d
    }
    .with_hint(hint)
}
