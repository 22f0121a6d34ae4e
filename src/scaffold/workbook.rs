//! An Excel or OpenDocument workbook (`.xlsx`, `.xlsm`, `.xls`, `.xlsb`, `.ods`) read by
//! `new --from` as one CSV table per non-empty sheet (calamine reads the file).
//!
//! Each cell is written as its value: a formula by the value the workbook cached for it,
//! a whole number without a decimal part (`3`, never `3.0000000002`), other numbers in
//! Rust's shortest round-trip form, dates as ISO 8601 (`2024-01-31`, `2024-01-31T08:30:00`).
//! What cannot be written as a value (an error cell such as `#DIV/0!`, a formula with no
//! cached value) is written empty and named in a message, sheet and cell; a header cell
//! merged across columns names each of them. Nothing is dropped without a message.

use std::fmt::Write as _;
use std::path::Path;

use calamine::{Data, Dimensions, Range, Reader};

use crate::diagnostics::Diagnostic;

/// The extensions read as workbooks.
pub const EXTENSIONS: [&str; 5] = ["xlsx", "xlsm", "xls", "xlsb", "ods"];

/// One sheet as a CSV table.
pub struct Sheet {
    pub name: String,
    pub csv: Vec<u8>,
    pub rows: usize,
    /// What was changed on the way, one line each (cells named in A1 notation).
    pub changes: Vec<String>,
}

/// What the workbook became.
pub struct Converted {
    pub sheets: Vec<Sheet>,
    /// The sheets skipped, with why (an empty sheet).
    pub skipped: Vec<String>,
}

/// Reads every sheet of the workbook at `path`.
pub fn convert(path: &Path) -> Result<Converted, Diagnostic> {
    let unreadable = |e: &dyn std::fmt::Display| {
        Diagnostic::error(path, format!("cannot read the workbook: {e}")).with_hint(
            "save it again from its spreadsheet program (as .xlsx or .ods), or export each \
             sheet as CSV and pass those; nothing was written",
        )
    };
    let mut book = calamine::open_workbook_auto(path).map_err(|e| unreadable(&e))?;
    let mut converted = Converted {
        sheets: Vec::new(),
        skipped: Vec::new(),
    };
    for name in book.sheet_names() {
        let values = book.worksheet_range(&name).map_err(|e| unreadable(&e))?;
        if values.is_empty() || values.used_cells().next().is_none() {
            converted
                .skipped
                .push(format!("sheet {}: empty, skipped", quoted(&name)));
            continue;
        }
        // Formulas are read only to tell an uncached formula from an empty cell.
        let formulas = book
            .worksheet_formula(&name)
            .unwrap_or_else(|_| Range::empty());
        let merged = match &mut book {
            calamine::Sheets::Xlsx(xlsx) => xlsx
                .worksheet_merge_cells(&name)
                .and_then(Result::ok)
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        let sheet = write_sheet(&name, &values, &formulas, &merged).map_err(|e| unreadable(&e))?;
        converted.sheets.push(sheet);
    }
    Ok(converted)
}

/// The sheet as CSV (RFC 4180: quoted where needed, CRLF line ends, UTF-8).
fn write_sheet(
    name: &str,
    values: &Range<Data>,
    formulas: &Range<String>,
    merged: &[Dimensions],
) -> Result<Sheet, csv::Error> {
    let (top, left) = values.start().unwrap_or((0, 0));
    let mut changes = Vec::new();
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new());
    let mut rows = 0;
    for (r, row) in values.rows().enumerate() {
        let at_row = top + r as u32;
        let mut record: Vec<String> = Vec::with_capacity(row.len());
        for (c, cell) in row.iter().enumerate() {
            let at = (at_row, left + c as u32);
            let text = cell_text(cell, at, formulas, &mut changes);
            record.push(text);
        }
        if r == 0 {
            header(&mut record, (top, left), merged, &mut changes);
        } else {
            rows += 1;
        }
        writer.write_record(&record)?;
    }
    for region in merged.iter().filter(|m| m.start.0 > top && m.len() > 1) {
        changes.push(format!(
            "cells {}:{} are merged: their value is written once, in {}, the others empty",
            a1(region.start),
            a1(region.end),
            a1(region.start)
        ));
    }
    let csv = writer.into_inner().map_err(|e| e.into_error())?;
    let changes = changes
        .into_iter()
        .map(|change| format!("sheet {}: {change}", quoted(name)))
        .collect();
    Ok(Sheet {
        name: name.to_string(),
        csv,
        rows,
        changes,
    })
}

/// The header row: a cell merged across columns names each of them, an empty one is
/// named after its column letter, and a name met again gets a number (`Rate 2`).
fn header(
    record: &mut [String],
    (top, left): (u32, u32),
    merged: &[Dimensions],
    changes: &mut Vec<String>,
) {
    for region in merged.iter().filter(|m| m.start.0 <= top && top <= m.end.0) {
        let first = region.start.1.saturating_sub(left) as usize;
        let last = (region.end.1.saturating_sub(left) as usize).min(record.len().saturating_sub(1));
        if first >= record.len() || first == last {
            continue;
        }
        let text = record[first].clone();
        for name in &mut record[first + 1..=last] {
            name.clone_from(&text);
        }
        changes.push(format!(
            "header cell {} is merged across {}:{}: its text {} names each of those {} columns",
            a1(region.start),
            a1((top, region.start.1)),
            a1((top, region.end.1)),
            quoted(&text),
            last - first + 1
        ));
    }
    for (c, name) in record.iter_mut().enumerate() {
        if name.trim().is_empty() {
            let letters = column_letters(left + c as u32);
            changes.push(format!(
                "header cell {} is empty: the column is named {letters}",
                a1((top, left + c as u32))
            ));
            *name = letters;
        }
    }
    let mut seen = std::collections::HashSet::new();
    #[allow(clippy::needless_range_loop)] // renames record[c] while reading it
    for c in 0..record.len() {
        if seen.insert(record[c].clone()) {
            continue;
        }
        let mut n = 2;
        while !seen.insert(format!("{} {n}", record[c])) {
            n += 1;
        }
        let renamed = format!("{} {n}", record[c]);
        changes.push(format!(
            "column {} is named {} again: written as {}",
            column_letters(left + c as u32),
            quoted(&record[c]),
            quoted(&renamed)
        ));
        record[c] = renamed;
    }
}

/// A cell as CSV text; what cannot be written as a value is written empty and listed.
fn cell_text(
    cell: &Data,
    at: (u32, u32),
    formulas: &Range<String>,
    changes: &mut Vec<String>,
) -> String {
    let blank = match cell {
        Data::Empty => true,
        Data::String(text) => text.is_empty(),
        _ => false,
    };
    match cell {
        _ if blank => {
            if formulas.get_value(at).is_some_and(|f| !f.is_empty()) {
                changes.push(format!(
                    "cell {} holds a formula with no cached value: written empty (open and \
                     save the workbook in its program to compute it)",
                    a1(at)
                ));
            }
            String::new()
        }
        Data::Empty => String::new(),
        Data::String(text) => text.clone(),
        Data::Int(n) => n.to_string(),
        Data::Float(x) => number(*x),
        Data::Bool(b) => b.to_string(),
        Data::DateTimeIso(text) | Data::DurationIso(text) => text.clone(),
        Data::DateTime(date) if date.is_duration() => duration(date.as_f64()),
        Data::DateTime(date) => {
            let (y, mo, d, h, mi, s, ms) = date.to_ymd_hms_milli();
            let mut text = if date.as_f64() < 1.0 && date.as_f64() >= 0.0 {
                // A time of day alone (Excel's day 0).
                format!("{h:02}:{mi:02}:{s:02}")
            } else if (h, mi, s, ms) == (0, 0, 0, 0) {
                format!("{y:04}-{mo:02}-{d:02}")
            } else {
                format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}")
            };
            if ms != 0 {
                let _ = write!(text, ".{ms:03}");
            }
            text
        }
        Data::Error(error) => {
            changes.push(format!(
                "cell {} holds the error {error}: written empty",
                a1(at)
            ));
            String::new()
        }
    }
}

/// A number as Rust writes it back exactly: whole numbers without a decimal part.
fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// A duration in days as ISO 8601 (`PT36H30M0S`), to the second.
fn duration(days: f64) -> String {
    let total = (days * 86_400.0).round() as i64;
    let sign = if total < 0 { "-" } else { "" };
    let total = total.abs();
    format!(
        "{sign}PT{}H{}M{}S",
        total / 3600,
        total % 3600 / 60,
        total % 60
    )
}

/// A cell's name in A1 notation, from its (row, column) counted from 0.
pub fn a1((row, column): (u32, u32)) -> String {
    format!("{}{}", column_letters(column), u64::from(row) + 1)
}

/// A column's letters: 0 -> A, 25 -> Z, 26 -> AA.
fn column_letters(column: u32) -> String {
    let mut n = u64::from(column) + 1;
    let mut letters = Vec::new();
    while n > 0 {
        let digit = ((n - 1) % 26) as u8;
        letters.push(b'A' + digit);
        n = (n - 1) / 26;
    }
    letters.reverse();
    String::from_utf8(letters).unwrap_or_default()
}

/// A name as quoted in messages, on one line.
fn quoted(name: &str) -> String {
    format!("\"{}\"", crate::text::visible_line(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_named_in_a1_notation() {
        assert_eq!(a1((0, 0)), "A1");
        assert_eq!(a1((9, 25)), "Z10");
        assert_eq!(a1((0, 26)), "AA1");
        assert_eq!(a1((0, 701)), "ZZ1");
        assert_eq!(a1((0, 702)), "AAA1");
    }

    #[test]
    fn numbers_are_written_back_exactly() {
        assert_eq!(number(3.0), "3");
        assert_eq!(number(-42.0), "-42");
        assert_eq!(number(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(number(2.5), "2.5");
        assert_eq!(number(1e20), "100000000000000000000");
        assert_eq!(number(1e300).len(), 301);
        assert_eq!(duration(1.5), "PT36H0M0S");
    }
}
