//! Problem locations: the line, the character column of a cell (quote-aware) and the
//! source line of each problem, read back from the file once the scan is over; and the
//! diagnostics for bytes that are not UTF-8 or not CSV.

use std::fs::File;
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use super::problems::{ragged_hint, ragged_message, PendingProblem, ProblemKind, RAGGED_HINT};
use super::quoting::{record_quotes, RecordQuotes};
use crate::diagnostics::Diagnostic;

/// The line (from 1) of the record the CSV reader places at byte `offset`: the line ends
/// before it, plus one, counted as the reader counts them (inside quoted fields too). After
/// a `\r\n` the reader places a record at the `\n`, which therefore counts.
pub fn line_at(path: &Path, offset: u64) -> Option<u64> {
    let mut file = BufReader::new(File::open(path).ok()?);
    let mut left = offset + 1;
    let mut lines = 1;
    while left > 0 {
        let buffer = file.fill_buf().ok()?;
        if buffer.is_empty() {
            break;
        }
        let take = buffer
            .len()
            .min(usize::try_from(left).unwrap_or(usize::MAX));
        lines += buffer[..take].iter().filter(|b| **b == b'\n').count() as u64;
        file.consume(take);
        left -= take as u64;
    }
    Some(lines)
}

/// Turns pending problems into diagnostics with the source line and the column of the cell.
pub(super) fn locate(
    path: &Path,
    display: &Path,
    pending: Vec<PendingProblem>,
    delimiter: u8,
) -> Vec<Diagnostic> {
    let mut file = File::open(path).ok().map(BufReader::new);
    pending
        .into_iter()
        .map(|problem| {
            let mut d = Diagnostic::error(PathBuf::from(display), problem.message)
                .with_severity(problem.severity)
                .at_line(problem.line as usize);
            let mut hint = problem.hint;
            if let Some((text, bare_cr)) = file
                .as_mut()
                .and_then(|f| read_line_at(f, problem.record_byte))
            {
                let mut column = problem
                    .field
                    .and_then(|field| field_column(&text, field, delimiter))
                    .unwrap_or(1);
                let quotes = problem
                    .field
                    .is_none()
                    .then(|| record_quotes(path, problem.record_byte, delimiter))
                    .flatten()
                    .filter(|q| q.lines_spanned > 0);
                if let (Some(quotes), None) = (quotes, bare_cr) {
                    if let Some(quote) = quotes.multiline_quote {
                        if quote.lines_down == 0 {
                            column = quote.column;
                        }
                        hint = Some(format!(
                            "this row runs from line {} to line {}: the quote on line {}, \
                             column {}, opens a cell that goes on over the line end. Close \
                             it where the cell ends, and write a quote inside a quoted cell \
                             twice (`\"\"`)",
                            problem.line,
                            problem.line + quotes.lines_spanned,
                            problem.line + quote.lines_down,
                            quote.column
                        ));
                    }
                }
                if let Some(at) = bare_cr.filter(|_| problem.field.is_none()) {
                    // A row of the wrong width: the reader ended it at a carriage return
                    // inside the line.
                    column = text[..at].chars().count() + 1;
                    hint = Some(format!(
                        "line {} holds a bare carriage return (byte 0x0D, at byte offset {} of the \
                         file) that no line feed follows: CSV readers end the row there. Remove \
                         it, or quote the field that holds it",
                        problem.line,
                        problem.record_byte + at as u64
                    ));
                }
                // Shown as a symbol: a raw carriage return would garble the terminal.
                let shown = text.replace('\r', "\u{240d}");
                d = d.at(problem.line as usize, column).with_source_line(shown);
            }
            if let Some(hint) = hint {
                d = d.with_hint(hint);
            }
            d
        })
        .collect()
}

/// A row of the wrong width that a reader other than the scan found (`new --from`),
/// located and explained as the scan's own: the row starting at `byte` on `line`.
pub fn ragged_row(
    path: &Path,
    display: &Path,
    (line, byte): (u64, u64),
    (fields, width): (usize, usize),
    delimiter: u8,
) -> Diagnostic {
    let hint = record_at(path, byte, delimiter)
        .map(|record| ragged_hint(record.iter(), width, delimiter))
        .unwrap_or_else(|| RAGGED_HINT.into());
    let problem = PendingProblem {
        kind: ProblemKind::Ragged,
        severity: ProblemKind::Ragged.severity(),
        line,
        record_byte: byte,
        field: None,
        message: ragged_message(fields, width),
        hint: Some(hint),
    };
    let mut located = locate(path, display, vec![problem], delimiter);
    located.remove(0)
}

/// The record that starts at `byte`, read as the scan reads it (any width).
fn record_at(path: &Path, byte: u64, delimiter: u8) -> Option<csv::ByteRecord> {
    let mut file = File::open(path).ok()?;
    file.seek(SeekFrom::Start(byte)).ok()?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(file);
    let mut record = csv::ByteRecord::new();
    reader.read_byte_record(&mut record).ok()?.then_some(record)
}

/// The error for a file that ends inside a quote opened in the record at `byte`, if that
/// quote took more than its own line (on the last line, the cell reads as written). The
/// line is counted only then (a split scan does not know it).
pub fn unclosed_quote_at_end(
    path: &Path,
    display: &Path,
    byte: u64,
    delimiter: u8,
) -> Option<Diagnostic> {
    let quotes =
        record_quotes(path, byte, delimiter).filter(|q| q.unclosed && q.lines_spanned > 0)?;
    let line = line_at(path, byte)?;
    Some(unclosed_quote(path, display, line, byte, quotes))
}

/// The error for a quote that the file ends inside: the record starting at `record_byte`,
/// on `line`, took the rest of the file as one cell.
pub(super) fn unclosed_quote(
    path: &Path,
    display: &Path,
    line: u64,
    record_byte: u64,
    quotes: RecordQuotes,
) -> Diagnostic {
    let quote = quotes.multiline_quote.unwrap_or(super::quoting::OpenQuote {
        lines_down: 0,
        column: 1,
    });
    let quote_line = line + quote.lines_down;
    let mut d = Diagnostic::error(
        PathBuf::from(display),
        "a quote opened here is never closed",
    )
    .at(quote_line as usize, quote.column)
    .with_hint(format!(
        "the CSV reader took everything from here to the end of the file (line {}) as one \
             cell. Close the quote where the cell ends, and write a quote inside a quoted \
             cell twice (`\"\"`)",
        line + quotes.lines_spanned
    ));
    let source = line_of_record(path, record_byte, quote.lines_down);
    if let Some(text) = source {
        d = d.with_source_line(text.replace('\r', "\u{240d}"));
    }
    d
}

/// The text of the line `lines_down` lines below the first line of the record at `start`.
fn line_of_record(path: &Path, start: u64, lines_down: u64) -> Option<String> {
    let mut file = BufReader::new(File::open(path).ok()?);
    file.seek(SeekFrom::Start(start)).ok()?;
    // Past the line ends the reader skips before a record.
    loop {
        let buffer = file.fill_buf().ok()?;
        let (blank, len) = (
            buffer
                .iter()
                .take_while(|b| matches!(b, b'\r' | b'\n'))
                .count(),
            buffer.len(),
        );
        file.consume(blank);
        if blank < len || len == 0 {
            break;
        }
    }
    let mut line = Vec::new();
    for _ in 0..lines_down {
        line.clear();
        file.read_until(b'\n', &mut line).ok()?;
    }
    let here = file.stream_position().ok()?;
    read_line_at(&mut file, here).map(|(text, _)| text)
}

/// The line from `byte` on, without its line end, and the byte offset in it of a carriage
/// return that does not end it (where the CSV reader ended the record), if any.
fn read_line_at(file: &mut BufReader<File>, byte: u64) -> Option<(String, Option<usize>)> {
    file.seek(SeekFrom::Start(byte)).ok()?;
    let mut raw = Vec::new();
    file.read_until(b'\n', &mut raw).ok()?;
    let text = String::from_utf8_lossy(&raw);
    let text = text.trim_end_matches(['\n', '\r']).to_string();
    let bare_cr = text.find('\r');
    Some((text, bare_cr))
}

/// The 1-based character column where field `field` starts on a CSV line (quote-aware).
fn field_column(line: &str, field: usize, delimiter: u8) -> Option<usize> {
    let delimiter = char::from(delimiter);
    if field == 0 {
        return Some(1);
    }
    let mut in_quotes = false;
    let mut seen = 0;
    for (column, c) in line.chars().enumerate() {
        match c {
            '"' => in_quotes = !in_quotes,
            c if c == delimiter && !in_quotes => {
                seen += 1;
                if seen == field {
                    return Some(column + 2);
                }
            }
            _ => {}
        }
    }
    None
}

/// Byte offset within a record's line of `valid_up_to` bytes into field `index`.
pub(super) fn field_offset(record: &csv::ByteRecord, index: usize, valid_up_to: usize) -> u64 {
    (record.range(index).map_or(0, |r| r.start) + index + valid_up_to) as u64
}

pub(super) fn csv_error(display: &Path, error: &csv::Error) -> Diagnostic {
    let mut d = Diagnostic::error(display, format!("cannot read the CSV: {error}"));
    if let Some(position) = error.position() {
        d = d.at_line(position.line() as usize);
    }
    d
}

pub(super) fn invalid_utf8(display: &Path, line: u64, byte_offset: u64) -> Diagnostic {
    Diagnostic::error(
        display,
        format!("invalid UTF-8 on line {line}, at byte offset {byte_offset}"),
    )
    .at_line(line as usize)
    .with_hint(crate::text::not_utf8_hint(&[]))
}

#[cfg(test)]
mod line_tests {
    use super::line_at;

    #[test]
    fn the_line_of_a_record_counts_line_ends_inside_quotes_and_after_a_cr() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        std::fs::write(&path, "a,b\r\n1,\"x\ny\"\r\n2,z\r\n").unwrap();
        assert_eq!(line_at(&path, 0), Some(1));
        // The reader places the records after a `\r\n` at its `\n`.
        assert_eq!(line_at(&path, 4), Some(2));
        assert_eq!(line_at(&path, 5), Some(2));
        assert_eq!(line_at(&path, 13), Some(4));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_columns_respect_quotes() {
        assert_eq!(field_column("a,\"b,c\",d", 2, b','), Some(9));
        assert_eq!(field_column("a,b", 5, b','), None);
        assert_eq!(field_column("a;\"b;c\";d,e", 2, b';'), Some(9));
    }
}
