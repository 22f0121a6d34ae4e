//! Where the quotes of one CSV record open and close, read back from the file: the lines a
//! row spans because a quoted cell ran over line ends, and the place of a quote that is
//! never closed. The CSV reader accepts both silently (a quoted cell may hold line ends, and
//! a quote left open takes the rest of the file as one cell); these are the facts the
//! messages need to say which quote to fix.

use std::fs::File;
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::Path;

/// A quote that opened a cell which ran over at least one line end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenQuote {
    /// Line ends between the record's first line and the quote's line.
    pub lines_down: u64,
    /// The 1-based character column of the quote on its line.
    pub column: usize,
}

/// What one record's quotes did, from the record's first byte to its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RecordQuotes {
    /// Line ends inside the record (in quoted cells): 0 for a record on one line.
    pub lines_spanned: u64,
    /// The last quote whose cell ran over a line end, if any.
    pub multiline_quote: Option<OpenQuote>,
    /// The file ended inside that quoted cell: the quote was never closed.
    pub unclosed: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before the record's first byte: line ends here are blank lines the reader skips.
    StartRecord,
    StartField,
    InField,
    InQuoted,
    /// A quote inside a quoted cell: it closes the cell unless another quote follows.
    QuoteInQuoted,
}

/// Follows the quotes of `bytes` as the CSV reader does (RFC 4180, doubled quotes, no escape
/// character), stopping at the end of the first record.
#[derive(Clone, Copy)]
struct Walker {
    state: State,
    delimiter: u8,
    quotes: RecordQuotes,
    /// Line ends so far, and the character column the next byte starts.
    lines: u64,
    column: usize,
    /// Where the current quoted cell opened, and whether it has crossed a line end.
    opened: Option<OpenQuote>,
    crossed: bool,
    done: bool,
}

impl Walker {
    fn new(delimiter: u8) -> Walker {
        Walker {
            state: State::StartRecord,
            delimiter,
            quotes: RecordQuotes::default(),
            lines: 0,
            column: 1,
            opened: None,
            crossed: false,
            done: false,
        }
    }

    /// Walks `bytes`; returns how many it used (all, unless the record ended in them).
    fn walk(&mut self, bytes: &[u8]) -> usize {
        for (used, &byte) in bytes.iter().enumerate() {
            let line_end = byte == b'\n' || byte == b'\r';
            self.state = match (self.state, byte) {
                (State::StartRecord, b'\n' | b'\r') => State::StartRecord,
                (State::StartRecord | State::StartField, b'"') => {
                    self.opened = Some(OpenQuote {
                        lines_down: self.lines,
                        column: self.column,
                    });
                    self.crossed = false;
                    State::InQuoted
                }
                (State::InQuoted, b'"') => State::QuoteInQuoted,
                (State::InQuoted, _) => {
                    if line_end && !self.crossed {
                        self.crossed = true;
                        self.quotes.multiline_quote = self.opened;
                    }
                    State::InQuoted
                }
                (State::QuoteInQuoted, b'"') => State::InQuoted,
                (_, b'\n' | b'\r') => {
                    self.done = true;
                    return used;
                }
                (_, b) if b == self.delimiter => State::StartField,
                _ => State::InField,
            };
            if self.state == State::StartRecord {
                // Blank lines before the record: the reader's line for the record is the
                // line of its first byte, so they count for nothing.
            } else if byte == b'\n' {
                self.lines += 1;
                self.column = 1;
                self.quotes.lines_spanned += 1;
            } else if byte & 0xC0 != 0x80 {
                // Not a UTF-8 continuation byte: a new character.
                self.column += 1;
            }
        }
        bytes.len()
    }

    fn finish(mut self) -> RecordQuotes {
        self.quotes.unclosed = !self.done && self.state == State::InQuoted;
        if self.quotes.unclosed {
            // A line end that ends the file starts no line.
            if self.column == 1 && self.lines > 0 {
                self.quotes.lines_spanned -= 1;
            }
            self.quotes.multiline_quote = self.opened;
        }
        self.quotes
    }
}

/// The quotes of the record that starts at byte `start` of the file at `path`. Reads only
/// that record (to the end of the file when a quote is never closed).
pub fn record_quotes(path: &Path, start: u64, delimiter: u8) -> Option<RecordQuotes> {
    let mut file = BufReader::new(File::open(path).ok()?);
    file.seek(SeekFrom::Start(start)).ok()?;
    let mut walker = Walker::new(delimiter);
    while !walker.done {
        let buffer = file.fill_buf().ok()?;
        if buffer.is_empty() {
            break;
        }
        let used = walker.walk(buffer);
        file.consume(used);
    }
    Some(walker.finish())
}

/// [`record_quotes`] over bytes in memory.
#[cfg(test)]
fn quotes_of(bytes: &[u8]) -> RecordQuotes {
    let mut walker = Walker::new(b',');
    walker.walk(bytes);
    walker.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_on_one_line_spans_nothing() {
        assert_eq!(quotes_of(b"1,\"a,b\",c\n2,x\n"), RecordQuotes::default());
        assert_eq!(
            quotes_of(b"1,\"say \"\"hi\"\"\"\n"),
            RecordQuotes::default()
        );
    }

    #[test]
    fn a_quoted_line_end_is_found_with_the_quote_that_opened_it() {
        let quotes = quotes_of(b"1,\"two\nlines\",\"\xc3\xa9\"\n2,x\n");
        assert_eq!(quotes.lines_spanned, 1);
        assert_eq!(
            quotes.multiline_quote,
            Some(OpenQuote {
                lines_down: 0,
                column: 3
            })
        );
        assert!(!quotes.unclosed);
    }

    #[test]
    fn a_quote_never_closed_takes_the_rest_of_the_file() {
        // The reader places a record after `\r\n` at its `\n`: that counts for nothing.
        let quotes = quotes_of(b"\n1,2\r\n");
        assert_eq!(quotes, RecordQuotes::default());
        let quotes = quotes_of(b"\n1,x,\"x\n2,y\n3,z\n");
        assert!(quotes.unclosed);
        assert_eq!(quotes.lines_spanned, 2);
        assert_eq!(
            quotes.multiline_quote,
            Some(OpenQuote {
                lines_down: 0,
                column: 5
            })
        );
        // Closed by the last byte: not unclosed.
        assert!(!quotes_of(b"1,\"x\n2,y\"").unclosed);
    }

    #[test]
    fn a_quote_inside_an_unquoted_cell_is_text() {
        let quotes = quotes_of(b"1,5\" screen,x\n2,y\n");
        assert_eq!(quotes, RecordQuotes::default());
    }

    #[test]
    fn reads_one_record_from_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        std::fs::write(&path, "a,b\n1,\"x\n2,y\n3,z\n").unwrap();
        let quotes = record_quotes(&path, 4, b',').unwrap();
        assert!(quotes.unclosed);
        assert_eq!(quotes.multiline_quote.unwrap().column, 3);
        let first = record_quotes(&path, 0, b',').unwrap();
        assert_eq!(first, RecordQuotes::default());
    }
}
