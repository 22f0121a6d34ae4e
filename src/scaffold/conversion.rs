//! What `new --from` says about the files it converted (a `.gz` file decompressed, the
//! sheets of a workbook written as CSV): in the printed report, and in the drafted page's
//! Method section, so that a reader knows the published CSV is not the file received.
//! The workbooks themselves are kept beside the tables.

use std::fmt::Write as _;

use super::sources::{Conversion, Source, Sources};
use super::{Contents, PlannedFile};
use crate::text::visible_line as shown;

/// Plans a copy of each workbook read beside the dataset's tables
/// (`data/datasets/<slug>.xlsx`, or `<slug>-<name>.xlsx` for several); returns where.
pub fn keep_workbooks(slug: &str, sources: &Sources, files: &mut Vec<PlannedFile>) -> Vec<String> {
    let mut kept = Vec::new();
    for book in &sources.workbooks {
        let extension = book
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        let path = match sources.workbooks.len() {
            1 => format!("{}/{slug}.{extension}", crate::layout::DATA_DATASETS),
            _ => {
                let stem = book.file_stem().unwrap_or_default().to_string_lossy();
                let name = super::sources::table_name(&stem);
                format!("{}/{slug}-{name}.{extension}", crate::layout::DATA_DATASETS)
            }
        };
        files.push(PlannedFile {
            path: path.clone(),
            contents: Contents::CopyOf(book.clone()),
        });
        kept.push(path);
    }
    kept
}

fn file_name(source: &Source) -> String {
    shown(
        &source
            .original
            .file_name()
            .unwrap_or_default()
            .to_string_lossy(),
    )
    .into_owned()
}

/// Text as Markdown shows it literally, on one line: every ASCII punctuation character
/// escaped with a backslash (a name may hold `*`, `<` or a backtick).
fn literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in shown(text).chars() {
        if c.is_ascii_punctuation() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The Method section's paragraph on the conversion, when a table was converted.
/// `published` gives each table's CSV in the site.
pub fn method_note(
    sources: &Sources,
    published: impl Fn(&Source) -> String,
    kept: &[String],
) -> Option<String> {
    let mut note = String::new();
    for source in &sources.tables {
        match &source.conversion {
            None => {}
            Some(Conversion::Gunzip) => {
                let _ = writeln!(
                    note,
                    "- `{}` is {} as received, decompressed (gzip); its bytes are unchanged.",
                    published(source),
                    literal(&file_name(source))
                );
            }
            Some(Conversion::Sheet { sheet, changes, .. }) => {
                let _ = writeln!(
                    note,
                    "- `{}` is the sheet \"{}\" of the workbook {}, written as CSV by \
                     datapages: each cell as its value (a formula as the value the workbook \
                     saved with it), dates in ISO 8601, whole numbers without decimals.{}",
                    published(source),
                    literal(sheet),
                    literal(&file_name(source)),
                    match changes.len() {
                        0 => " Nothing else was changed.".to_string(),
                        _ => " Changed on the way:".to_string(),
                    }
                );
                for change in changes {
                    let _ = writeln!(note, "  - {}", literal(change));
                }
            }
        }
    }
    if note.is_empty() {
        return None;
    }
    for skipped in &sources.skipped {
        let _ = writeln!(note, "- Not published: {}.", literal(skipped));
    }
    for path in kept {
        let _ = writeln!(note, "- The workbook as received is kept as `{path}`.");
    }
    Some(format!(
        "The published tables were converted from the files received:\n\n{note}"
    ))
}

/// The page with `note` after the Method section's placeholder.
pub fn with_method_note(page: &str, note: &str) -> String {
    const AFTER: &str =
        "TODO: how the figures were obtained: sources, instruments, selection, processing.\n";
    match page.split_once(AFTER) {
        Some((before, after)) => format!("{before}{AFTER}\n{note}{after}"),
        None => format!("{page}\n{note}"),
    }
}

/// The report's lines on the conversions: what each converted table is, every change
/// (cells named), every sheet skipped and every workbook kept.
pub fn report(
    report: &mut String,
    sources: &Sources,
    published: impl Fn(&Source) -> String,
    kept: &[String],
) {
    for source in &sources.tables {
        match &source.conversion {
            None => {}
            Some(Conversion::Gunzip) => {
                let _ = writeln!(
                    report,
                    "Decompressed {} (gzip) into {}; the Method section says so.",
                    file_name(source),
                    published(source)
                );
            }
            Some(Conversion::Sheet {
                sheet,
                rows,
                changes,
            }) => {
                let _ = writeln!(
                    report,
                    "Converted sheet \"{}\" of {} ({rows} rows) into {}{}",
                    shown(sheet),
                    file_name(source),
                    published(source),
                    if changes.is_empty() { "." } else { ":" }
                );
                for change in changes {
                    let _ = writeln!(report, "  {}", shown(change));
                }
            }
        }
    }
    for skipped in &sources.skipped {
        let _ = writeln!(report, "Skipped {}.", shown(skipped));
    }
    for path in kept {
        let _ = writeln!(
            report,
            "Kept the workbook as {path}, beside the tables: the page does not offer it \
             for download yet (link to it from the text if readers should have it)."
        );
    }
}
