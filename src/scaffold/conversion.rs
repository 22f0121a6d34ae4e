//! What `new --from` says about the files it converted (a `.gz` file decompressed, the
//! sheets of a workbook written as CSV): in the printed report, and in the drafted page's
//! Method section, so that a reader knows the published CSV is not the file received
//! (the file and sheet it came from are named; the workbook itself is not published).

use std::fmt::Write as _;

use super::sources::{Conversion, Source, Sources};
use crate::text::visible_line as shown;

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

/// The Method section's paragraph on the conversion, when the table was converted.
/// `published` is its CSV in the site.
pub fn method_note(source: &Source, published: &str) -> Option<String> {
    let mut note = String::new();
    match &source.conversion {
        None => return None,
        Some(Conversion::Gunzip) => {
            let _ = writeln!(
                note,
                "`{published}` is {} as received, decompressed (gzip); its bytes are unchanged.",
                literal(&file_name(source))
            );
        }
        Some(Conversion::Sheet { sheet, changes, .. }) => {
            let _ = writeln!(
                note,
                "`{published}` is the sheet \"{}\" of the workbook {}, written as CSV by \
                 datapages: each cell as its value (a formula as the value the workbook \
                 saved with it), dates in ISO 8601, whole numbers without decimals.{}",
                literal(sheet),
                literal(&file_name(source)),
                match changes.len() {
                    0 => " Nothing else was changed.".to_string(),
                    _ => " Changed on the way:".to_string(),
                }
            );
            if !changes.is_empty() {
                note.push('\n');
            }
            for change in changes {
                let _ = writeln!(note, "- {}", literal(change));
            }
        }
    }
    Some(format!(
        "The published table was converted from the file received:\n\n{note}"
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

/// The report's lines on the conversion of one table: what it is, every change (cells
/// named).
pub fn report(report: &mut String, source: &Source, published: &str) {
    match &source.conversion {
        None => {}
        Some(Conversion::Gunzip) => {
            let _ = writeln!(
                report,
                "Decompressed {} (gzip) into {published}; the Method section says so.",
                file_name(source),
            );
        }
        Some(Conversion::Sheet {
            sheet,
            rows,
            changes,
        }) => {
            let _ = writeln!(
                report,
                "Converted sheet \"{}\" of {} ({rows} rows) into {published}{}",
                shown(sheet),
                file_name(source),
                if changes.is_empty() { "." } else { ":" }
            );
            for change in changes {
                let _ = writeln!(report, "  {}", shown(change));
            }
        }
    }
}

/// The report's lines on the sheets skipped, and on the workbooks, which are not
/// published (the Method section names the file and sheet each table came from).
pub fn report_skipped(report: &mut String, sources: &Sources) {
    for skipped in &sources.skipped {
        let _ = writeln!(report, "Skipped {}.", shown(skipped));
    }
    let mut books: Vec<String> = (sources.tables.iter())
        .filter(|s| matches!(s.conversion, Some(Conversion::Sheet { .. })))
        .map(file_name)
        .collect();
    books.dedup();
    for book in books {
        let _ = writeln!(
            report,
            "Not published: {book} itself (its sheets are, as CSV); link to it from the text \
             if readers should have the workbook."
        );
    }
}
