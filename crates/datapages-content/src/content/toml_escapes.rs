//! Escapes in TOML basic strings that stand for characters HTML and XML cannot carry
//! (`\u0000`, `\b`, `\f`): TOML accepts them, so the values hold the characters, and
//! only the text says where they were written.

/// Where (byte offset, length) and what the escapes of forbidden characters in TOML basic
/// strings are. Reads strings, comments and literal strings as TOML does, so that a
/// backslash in a comment or a 'literal' is not taken for an escape.
pub fn forbidden_escapes(toml: &str) -> Vec<(usize, usize, char)> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Outside,
        Comment,
        Basic { multi: bool },
        Literal { multi: bool },
    }
    let bytes = toml.as_bytes();
    let quotes_at = |i: usize, quote: u8| bytes[i..].iter().take_while(|b| **b == quote).count();
    let mut found = Vec::new();
    let mut state = State::Outside;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match state {
            State::Outside => {
                state = match b {
                    b'#' => State::Comment,
                    b'"' => State::Basic {
                        multi: quotes_at(i, b'"') >= 3,
                    },
                    b'\'' => State::Literal {
                        multi: quotes_at(i, b'\'') >= 3,
                    },
                    _ => State::Outside,
                };
                i += match state {
                    State::Basic { multi: true } | State::Literal { multi: true } => 3,
                    _ => 1,
                };
            }
            State::Comment => {
                if b == b'\n' {
                    state = State::Outside;
                }
                i += 1;
            }
            State::Basic { multi } | State::Literal { multi } => {
                let quote = if matches!(state, State::Basic { .. }) {
                    b'"'
                } else {
                    b'\''
                };
                if b == quote {
                    // A multi-line string closes at three quotes; up to two more belong to it.
                    let run = quotes_at(i, quote);
                    if !multi || run >= 3 {
                        state = State::Outside;
                        i += if multi { run.min(5) } else { 1 };
                    } else {
                        i += run;
                    }
                } else if b == b'\n' && !multi {
                    state = State::Outside;
                    i += 1;
                } else if b == b'\\' && matches!(state, State::Basic { .. }) {
                    let (length, value) = decode_escape(&toml[i..]);
                    if let Some(c) = value.filter(|c| crate::text::is_forbidden(*c)) {
                        found.push((i, length, c));
                    }
                    i += length;
                } else {
                    i += 1;
                }
            }
        }
    }
    found
}

/// The length of the escape at the start of `text` (which starts with `\`) and the
/// character it stands for, when it stands for one.
fn decode_escape(text: &str) -> (usize, Option<char>) {
    let hex = |digits: usize| {
        text.get(2..2 + digits)
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .and_then(char::from_u32)
            .map(|c| (2 + digits, Some(c)))
    };
    let found = match text.as_bytes().get(1) {
        Some(b'u') => hex(4),
        Some(b'U') => hex(8),
        Some(b'x') => hex(2),
        Some(b'b') => Some((2, Some('\u{8}'))),
        Some(b'f') => Some((2, Some('\u{c}'))),
        Some(b'e') => Some((2, Some('\u{1b}'))),
        Some(_) => text
            .get(1..)
            .and_then(|rest| rest.chars().next())
            .map(|c| (1 + c.len_utf8(), None)),
        None => None,
    };
    found.unwrap_or((1, None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::validate::toml_escapes;
    use std::path::Path;

    fn file() -> &'static Path {
        Path::new("a.md")
    }

    #[test]
    fn escapes_for_forbidden_characters_are_found_in_basic_strings_only() {
        let toml = concat!(
            "a = \"x\\u0000y\" # \\u0001 in a comment\n",
            "b = 'c:\\u0002'\n",
            "c = \"\"\"\nline \\b and \\\\u0003 and \\\"\"\"\"\n",
            "d = \"ok \\t \\n \\u00e9 \\U0001F600\"\n",
            "e = \"\\f\\U0000001b\\u007F\\uFFFE\"\n",
            "f = '''it's \\u0004'''\n",
        );
        assert!(
            toml::from_str::<toml::Table>(toml).is_ok(),
            "the sample is TOML"
        );
        let found: Vec<(usize, char)> = forbidden_escapes(toml)
            .iter()
            .map(|(at, _, c)| (*at, *c))
            .collect();
        let chars: Vec<char> = found.iter().map(|(_, c)| *c).collect();
        assert_eq!(
            chars,
            ['\u{0}', '\u{8}', '\u{c}', '\u{1b}', '\u{7f}', '\u{fffe}']
        );
        assert_eq!(&toml[found[0].0..found[0].0 + 6], "\\u0000");
        let problems = toml_escapes(file(), toml, toml, 0);
        assert_eq!(problems[0].line, Some(1));
        assert_eq!(problems[0].column, Some(7));
        assert!(problems[0]
            .message
            .starts_with("the escape `\\u0000` stands for U+0000 (NUL)"));
        assert_eq!(problems[1].line, Some(4));
    }

    #[test]
    fn parsed_values_agree_with_the_escape_scan() {
        let toml = "a = \"\\u0000\"\nb = '\\u0000'\nc = \"\"\"\\\"\\\"\\\"\\u001b\"\"\"\n";
        let table: toml::Table = toml::from_str(toml).unwrap();
        let forbidden_values = table
            .values()
            .filter(|v| v.as_str().unwrap().chars().any(crate::text::is_forbidden))
            .count();
        assert_eq!(forbidden_escapes(toml).len(), forbidden_values);
    }

    proptest::proptest! {
        /// Any text, TOML or not, is read to its end without a panic, and every escape
        /// found lies inside it and starts with a backslash.
        #[test]
        fn any_text_is_read_safely(text in "[\\\\\"'#\nu0-9a-fA-F\u{0}-\u{7f}é]{0,60}") {
            for (at, length, _) in forbidden_escapes(&text) {
                proptest::prop_assert!(text.get(at..at + length).is_some_and(|e| e.starts_with('\\')));
            }
        }
    }
}
