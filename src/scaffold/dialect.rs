//! Which character separates the fields of a CSV file, and whether spaces pad the fields
//! after it: `new --from` detects both and writes the dataset's `delimiter` when it is not
//! a comma and `skip_initial_space = true` when the fields are padded.

use std::io::Read;
use std::path::Path;

use crate::content::dialect::CsvDialect;

/// A field separator seen in a header line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delimiter {
    Comma,
    Semicolon,
    Tab,
}

impl Delimiter {
    pub fn byte(self) -> u8 {
        match self {
            Delimiter::Comma => b',',
            Delimiter::Semicolon => b';',
            Delimiter::Tab => b'\t',
        }
    }

    /// How the file is described to the author: "comma-separated".
    pub fn describe(self) -> &'static str {
        match self {
            Delimiter::Comma => "comma-separated",
            Delimiter::Semicolon => "semicolon-separated",
            Delimiter::Tab => "tab-separated",
        }
    }

    /// The `delimiter` line of the front matter, when the file needs one.
    pub fn front_matter_line(self) -> Option<&'static str> {
        match self {
            Delimiter::Comma => None,
            Delimiter::Semicolon => Some("delimiter = \";\""),
            Delimiter::Tab => Some("delimiter = \"\\t\"   # tab"),
        }
    }
}

/// How much of the file the header is looked for in.
const HEAD_BYTES: u64 = 64 * 1024;

/// What `new --from` found out about how a file's lines split into fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Detected {
    pub delimiter: Delimiter,
    /// Spaces after the delimiters pad the fields (`10.0,   8.04`).
    pub padded: bool,
}

impl Detected {
    /// The dialect every reader reads the file with.
    pub fn csv_dialect(self) -> CsvDialect {
        CsvDialect {
            delimiter: self.delimiter.byte(),
            skip_initial_space: self.padded,
        }
    }
}

/// The separator used by the file's first line (the most frequent of comma, semicolon
/// and tab outside double quotes; comma on ties and when there is none: a one-column
/// file), and whether the fields of its first 64 KiB are padded with spaces.
pub fn detect(path: &Path) -> std::io::Result<Detected> {
    let mut head = Vec::new();
    std::fs::File::open(path)?
        .take(HEAD_BYTES)
        .read_to_end(&mut head)?;
    let delimiter = detect_in(&head);
    Ok(Detected {
        delimiter,
        padded: padded_in(&head, delimiter.byte()),
    })
}

/// Whether spaces pad the fields of `head`: some column (the header too) starts more
/// than half of its non-empty fields with a space, at least twice (`1, 2` and `3, 4`;
/// Fortran's right-aligned `   8.04`; R's `write.table(sep = ", ")`). One text with a
/// leading space among many is not padding.
pub fn padded_in(head: &[u8], delimiter: u8) -> bool {
    // Per column: (fields starting with a space, non-empty fields).
    let mut counts: Vec<(usize, usize)> = Vec::new();
    let (mut column, mut at_start, mut quoted) = (0, true, false);
    for &byte in head {
        if quoted {
            quoted = byte != b'"';
            continue;
        }
        if byte == delimiter || byte == b'\n' || byte == b'\r' {
            (column, at_start) = (if byte == delimiter { column + 1 } else { 0 }, true);
            continue;
        }
        if at_start {
            if counts.len() <= column {
                counts.resize(column + 1, (0, 0));
            }
            counts[column].0 += usize::from(byte == b' ');
            counts[column].1 += 1;
            at_start = false;
        }
        quoted = byte == b'"';
    }
    counts
        .iter()
        .any(|&(spaced, filled)| spaced >= 2 && spaced * 2 > filled)
}

/// [`detect`] on the first bytes of a file.
pub fn detect_in(head: &[u8]) -> Delimiter {
    let mut counts = [0usize; 3];
    let mut quoted = false;
    for &byte in head {
        match byte {
            b'"' => quoted = !quoted,
            b'\n' | b'\r' if !quoted => break,
            b',' if !quoted => counts[0] += 1,
            b';' if !quoted => counts[1] += 1,
            b'\t' if !quoted => counts[2] += 1,
            _ => {}
        }
    }
    let [comma, semicolon, tab] = counts;
    if comma >= semicolon && comma >= tab {
        Delimiter::Comma
    } else if semicolon >= tab {
        Delimiter::Semicolon
    } else {
        Delimiter::Tab
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_decides() {
        assert_eq!(detect_in(b"a,b,c\n1;2;3;4;5\n"), Delimiter::Comma);
        assert_eq!(detect_in(b"a;b;\"c,d,e\"\r\n"), Delimiter::Semicolon);
        assert_eq!(detect_in(b"a\tb\tc"), Delimiter::Tab);
        assert_eq!(detect_in(b"only\n1\n"), Delimiter::Comma);
        assert_eq!(Delimiter::Comma.front_matter_line(), None);
        assert_eq!(Delimiter::Semicolon.byte(), b';');
    }

    #[test]
    fn padding_is_told_from_a_few_leading_spaces() {
        assert!(padded_in(b"a, b\n1, 2\n3, 4\n", b','));
        assert!(padded_in(b"x,y\n   10.0,   8.04\n    8.0,   6.95\n", b','));
        assert!(padded_in(
            b"name,nat\n\"Usain Bolt\",   \"JAM\"\n\"Yohan Blake\",  \"JAM\"\n",
            b','
        ));
        assert!(!padded_in(b"a,b\n1,2\n3,4\n", b','));
        // A quoted comma and space, one text with a leading space: not padding.
        assert!(!padded_in(b"a,b\n\"x, y\",1\n\"z, w\",2\n", b','));
        assert!(!padded_in(b"a,b\n1, x\n2,y\n3,z\n", b','));
        assert!(!padded_in(b"a;b\n1, 2;3\n", b';'));
    }
}
