//! Problem locations: the line, the character column of a cell (quote-aware) and the
//! source line of each problem, read back from the file once the scan is over; and the
//! diagnostics for bytes that are not UTF-8 or not CSV.

use std::fs::File;
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use super::problems::PendingProblem;
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
    .with_hint("save the file as UTF-8")
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
