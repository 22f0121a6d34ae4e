//! Which character separates the fields of a CSV file: `new --from` detects it and writes
//! the dataset's `delimiter` when it is not a comma.

use std::io::Read;
use std::path::Path;

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

/// The separator used by the file's first line: the most frequent of comma, semicolon
/// and tab outside double quotes (comma on ties and when there is none: a one-column file).
pub fn detect(path: &Path) -> std::io::Result<Delimiter> {
    let mut head = Vec::new();
    std::fs::File::open(path)?
        .take(HEAD_BYTES)
        .read_to_end(&mut head)?;
    Ok(detect_in(&head))
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
}
