//! `check`'s unbacked-number warnings: every number the prose types by hand (headline,
//! kicker, table note, captions, body) that no reference produces or binds, that the
//! author did not list under `numbers_not_data`, and that equals no cell of the dataset's
//! CSV, of a dataset it relates to or of one it quotes. Each page's numbers are collected
//! first (a handful), then each CSV is streamed once looking for them: memory stays flat
//! in rows.

use std::collections::HashSet;
use std::path::Path;

use rayon::prelude::*;

use crate::confine;
use crate::content::figures;
use crate::content::front_matter;
use crate::content::numbers::{self, Typed};
use crate::content::spans::{error_at, Locator};
use crate::content::DatasetFrontMatter;
use crate::dataset::figures::{sources, Field};
use crate::dataset::Dataset;
use crate::diagnostics::{Diagnostic, Severity};
use crate::site::Site;

/// The warnings of every dataset of `site`.
pub fn check(root: &Path, site: &Site) -> Vec<Diagnostic> {
    let Ok(root) = confine::canonical_root(root) else {
        return Vec::new();
    };
    // In parallel: each dataset's page is parsed again and its CSV streamed, a tenth of
    // a `check` of 10,000 datasets on one thread; the order stays the site's.
    (0..site.datasets.len())
        .into_par_iter()
        .filter_map(|index| site.datasets.get(index))
        .flat_map_iter(|dataset| check_dataset(&root, site, &dataset))
        .collect()
}

/// A number of the page, placed in the file.
struct Found {
    typed: Typed,
    at: Option<usize>,
}

fn check_dataset(root: &Path, site: &Site, dataset: &Dataset) -> Vec<Diagnostic> {
    let file = dataset.markdown_path.as_path();
    let Some(text) = confine::resolve_file(root, file)
        .ok()
        .and_then(|path| std::fs::read_to_string(path).ok())
    else {
        return Vec::new();
    };
    let Ok(split) = front_matter::split(file, &text) else {
        return Vec::new();
    };
    // One parse gives the values and the places of the keys.
    let Ok((front, spans)) = front_matter::parse_toml_with_spans::<DatasetFrontMatter>(
        file,
        &text,
        split.front_matter,
        split.front_matter_offset,
    ) else {
        return Vec::new();
    };
    let locator = Locator {
        file,
        text: &text,
        spans,
    };
    let allowed: HashSet<String> = front
        .numbers_not_data
        .iter()
        .map(|n| n.replace(',', "").to_lowercase())
        .collect();
    let mut found = Vec::new();
    for source in sources(&front, split.body, split.body_offset, &locator) {
        let (references, _) = figures::find(source.text);
        let skip: Vec<_> = references.into_iter().map(|r| r.range).collect();
        let typed = match source.field {
            Field::Headline | Field::Kicker => numbers::in_plain(source.text, &skip),
            _ => numbers::in_markdown(source.text, &skip),
        };
        found.extend(
            typed
                .into_iter()
                .filter(|t| !allowed.contains(&t.number) && !allowed.contains(&t.raw))
                .map(|typed| Found {
                    at: source.offset.map(|o| o + typed.offset),
                    typed,
                }),
        );
    }
    if found.is_empty() {
        return Vec::new();
    }
    let mut backed = vec![false; found.len()];
    let others = dataset
        .front
        .related
        .iter()
        .chain(&dataset.quoted_datasets)
        .filter_map(|slug| site.dataset(slug));
    // Whether every number is backed once `table`'s cells are looked at.
    let mut mark = |table: &Dataset| {
        // A CSV that cannot be read was reported when it loaded.
        let delimiter = table.front.field_delimiter();
        let _ = mark_cells(&table.csv_path, delimiter, &found, &mut backed);
        backed.iter().all(|b| *b)
    };
    if !mark(dataset) {
        for table in others {
            if mark(&table) {
                break;
            }
        }
    }
    found
        .iter()
        .zip(backed)
        .filter(|(_, backed)| !backed)
        .map(|(f, _)| warning(file, &text, f))
        .collect()
}

fn warning(file: &Path, text: &str, f: &Found) -> Diagnostic {
    let message = format!(
        "the number {} is typed by hand and equals no cell of the table or of a related dataset",
        f.typed.number
    );
    let d = match f.at {
        Some(at) => error_at(file, text, at, message),
        None => Diagnostic::error(file, message),
    };
    Diagnostic {
        severity: Severity::Warning,
        ..d
    }
    .with_hint(
        "quote it from its cell ({{ cell(...) }}) or bind it ({{ 12 = cell(...) }}); \
         if it is not data, list it in `numbers_not_data`",
    )
}

/// Streams `csv`, marking the numbers of `found` that equal one of its cells (as numbers,
/// or as the text with a unit glued on, case ignored).
fn mark_cells(
    csv: &Path,
    delimiter: u8,
    found: &[Found],
    backed: &mut [bool],
) -> Result<(), csv::Error> {
    let values: Vec<Option<f64>> = found.iter().map(|f| as_shown(&f.typed.number)).collect();
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .from_path(csv)?;
    let mut record = csv::StringRecord::new();
    while reader.read_record(&mut record)? {
        for cell in record.iter() {
            let cell = cell.trim();
            if cell.is_empty() || !cell.bytes().any(|b| b.is_ascii_digit()) {
                continue;
            }
            let number = as_shown(&cell.replace(',', ""));
            let lower = cell.to_lowercase();
            for (n, f) in found.iter().enumerate() {
                if !backed[n] && ((number.is_some() && number == values[n]) || lower == f.typed.raw)
                {
                    backed[n] = true;
                }
            }
        }
    }
    Ok(())
}

/// A number's value as the page shows it: to 15 significant digits, so a figure typed as
/// the table shows it (`7.052`) equals the cell pandas wrote as `7.0520000000000005`. Only
/// texts long enough to hold more digits are rounded.
fn as_shown(text: &str) -> Option<f64> {
    let value = text.parse::<f64>().ok()?;
    if text.len() <= crate::dataset::schema::SHOWN_DIGITS || !value.is_finite() {
        return Some(value);
    }
    format!("{value:.14e}").parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_figure_typed_as_shown_equals_a_cell_with_float_noise() {
        assert_eq!(as_shown("7.052"), as_shown("7.0520000000000005"));
        assert_eq!(as_shown("70.198"), as_shown("70.19800000000001"));
        assert_ne!(as_shown("7.05"), as_shown("7.0520000000000005"));
        assert_eq!(as_shown("12"), Some(12.0));
        assert_eq!(as_shown("x"), None);
    }
}
