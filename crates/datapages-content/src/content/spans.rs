//! Where each key and value of a TOML text is, read from the parser (never by searching
//! the text): a small index from key paths such as `columns[3].type` or
//! `charts[0].filter.kind[1]` to byte offsets in the file the author edits.
//!
//! `toml_edit` (the parser under `toml`) keeps the span of every key, value and table
//! header, so the index is one walk over the parsed document.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::ops::Range;
use std::path::Path;

use toml_edit::{ImDocument, Item, Table, Value};

use crate::diagnostics::{line_column, Diagnostic};

/// The spans of one TOML text, by key path, as offsets into the whole file.
#[derive(Debug, Clone, Default)]
pub struct Spans {
    places: HashMap<String, At>,
}

/// What the index knows of one key path: where its key and its value start, and the
/// value decoded when it is a string (for the checks that read it with its place).
#[derive(Debug, Clone, Default)]
struct At {
    key: Option<usize>,
    value: Option<usize>,
    string: Option<String>,
}

impl Spans {
    /// Indexes `toml_text`, which starts at byte `offset` of the whole file. A text that
    /// does not parse gives an empty index: the typed parse reports its error.
    pub fn parse(toml_text: &str, offset: usize) -> Spans {
        match ImDocument::parse(toml_text) {
            Ok(document) => Spans::of_document(&document, offset),
            Err(_) => Spans::default(),
        }
    }

    /// Indexes a document already parsed (its text starts at byte `offset` of the whole
    /// file), so that the typed values can be read from the same parse.
    pub fn of_document(document: &ImDocument<&str>, offset: usize) -> Spans {
        let mut spans = Spans::default();
        spans.table(&mut String::new(), document.as_table(), offset);
        spans
    }

    /// Where the key at `path` starts (`columns[2].pattern` -> the `p` of `pattern`).
    pub fn key(&self, path: &str) -> Option<usize> {
        self.places.get(path)?.key
    }

    /// Where the value at `path` starts: its opening quote or bracket, or the `[[…]]`
    /// header of an entry of an array of tables (`charts[1]`).
    pub fn value(&self, path: &str) -> Option<usize> {
        self.places.get(path)?.value
    }

    /// The string at `path` and where its value starts.
    pub fn string(&self, path: &str) -> Option<(&str, usize)> {
        let at = self.places.get(path)?;
        Some((at.string.as_deref()?, at.value?))
    }

    /// The paths of the entries of the array at `path`: `tags[0]`, `tags[1]`, ….
    pub fn entries<'a>(&'a self, path: &'a str) -> impl Iterator<Item = String> + 'a {
        (0..)
            .map(move |n| format!("{path}[{n}]"))
            .take_while(|entry| self.value(entry).is_some())
    }

    // The walk keeps one path buffer, a child's name pushed on and cut off again, so
    // that each key path is allocated once, as the index's key.

    fn table(&mut self, path: &mut String, table: &Table, offset: usize) {
        for (name, item) in table.iter() {
            let parent = path.len();
            push_key(path, name);
            let key = table.key(name).and_then(|k| k.span());
            match item {
                Item::Value(value) => self.value_of(path, key, value, offset),
                Item::Table(child) => {
                    self.record(path, key, child.span(), offset);
                    self.table(path, child, offset);
                }
                Item::ArrayOfTables(array) => {
                    self.record(path, key, array.span(), offset);
                    for (n, child) in array.iter().enumerate() {
                        let array_path = path.len();
                        push_index(path, n);
                        self.record(path, None, child.span(), offset);
                        self.table(path, child, offset);
                        path.truncate(array_path);
                    }
                }
                Item::None => {}
            }
            path.truncate(parent);
        }
    }

    fn value_of(
        &mut self,
        path: &mut String,
        key: Option<Range<usize>>,
        value: &Value,
        offset: usize,
    ) {
        let at = self.record(path, key, value.span(), offset);
        match value {
            Value::String(text) => {
                if let Some(at) = at {
                    at.string = Some(text.value().clone());
                }
            }
            Value::Array(array) => {
                for (n, element) in array.iter().enumerate() {
                    let parent = path.len();
                    push_index(path, n);
                    self.value_of(path, None, element, offset);
                    path.truncate(parent);
                }
            }
            Value::InlineTable(table) => {
                for (name, element) in table.iter() {
                    let parent = path.len();
                    push_key(path, name);
                    let key = table.key(name).and_then(|k| k.span());
                    self.value_of(path, key, element, offset);
                    path.truncate(parent);
                }
            }
            _ => {}
        }
    }

    /// Notes the key's and the value's starts at `path` (the first value's start when a
    /// path is seen twice); nothing when neither is known.
    fn record(
        &mut self,
        path: &str,
        key: Option<Range<usize>>,
        value: Option<Range<usize>>,
        offset: usize,
    ) -> Option<&mut At> {
        if key.is_none() && value.is_none() {
            return None;
        }
        let at = self.places.entry(path.to_string()).or_default();
        if let Some(key) = key {
            at.key = Some(offset + key.start);
        }
        if let Some(value) = value {
            at.value.get_or_insert(offset + value.start);
        }
        Some(at)
    }
}

/// The path of `key` inside the table at `parent`: `parent.key`, the key quoted when it
/// is not a bare TOML key (so `filter."a.b"` never reads as `filter.a.b`).
pub fn child_path(parent: &str, key: &str) -> String {
    let mut path = parent.to_string();
    push_key(&mut path, key);
    path
}

/// Appends `.key` to `path` (`key` alone at the root), quoted as [`child_path`] says.
fn push_key(path: &mut String, key: &str) {
    let bare = !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !path.is_empty() {
        path.push('.');
    }
    if bare {
        path.push_str(key);
    } else {
        // Debug quoting: `"a.b"`, with `"` and `\` escaped.
        let _ = write!(path, "{key:?}");
    }
}

/// Appends `[n]` to `path`.
fn push_index(path: &mut String, n: usize) {
    let _ = write!(path, "[{n}]");
}

/// An error located at byte `offset` of `text`, with its line shown.
pub fn error_at(
    file: &Path,
    text: &str,
    offset: usize,
    message: impl Into<std::borrow::Cow<'static, str>>,
) -> Diagnostic {
    let (line, column) = line_column(text, offset);
    Diagnostic::error(file, message)
        .at(line, column)
        .with_source_from(text)
}

/// Problems in one file's front matter, located by the spans of its TOML.
pub struct Locator<'a> {
    pub file: &'a Path,
    /// The whole file, front matter and body.
    pub text: &'a str,
    pub spans: Spans,
}

impl Locator<'_> {
    /// An error at byte `at` of the file, or in the file as a whole when the place is
    /// not known.
    pub fn error(
        &self,
        message: impl Into<std::borrow::Cow<'static, str>>,
        at: Option<usize>,
    ) -> Diagnostic {
        match at {
            Some(offset) => error_at(self.file, self.text, offset, message),
            None => Diagnostic::error(self.file, message),
        }
    }

    /// Where the key at `path` starts.
    pub fn key(&self, path: &str) -> Option<usize> {
        self.spans.key(path)
    }

    /// Where the value at `path` starts.
    pub fn value(&self, path: &str) -> Option<usize> {
        self.spans.value(path)
    }

    /// The place of the value at `path`, kept for checks made after the text is gone.
    pub fn place_of_value(&self, path: &str) -> Option<Place> {
        self.value(path).map(|offset| Place::of(self.text, offset))
    }
}

/// A place in a file with the text of its line, for a problem found once the file's
/// text is no longer at hand (the checks across datasets).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Place {
    line: usize,
    column: usize,
    source_line: Option<String>,
}

impl Place {
    /// The place of byte `offset` of `text`.
    pub fn of(text: &str, offset: usize) -> Place {
        let located = error_at(Path::new(""), text, offset, "");
        let (line, column) = line_column(text, offset);
        Place {
            line,
            column,
            source_line: located.source_line,
        }
    }

    /// `diagnostic`, pointing here.
    pub fn locate(&self, diagnostic: Diagnostic) -> Diagnostic {
        let mut located = diagnostic.at(self.line, self.column);
        located.source_line = self.source_line.clone();
        located
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "+++\ntitle = \"t\" # a title\ntags = [\"a\", \"b\"]\n\n[[columns]]\nname = \"x\"\ndescription = \"pattern\"\n\n[[columns]]\nname = \"y\"\npattern = \"[\"\n\n[[charts]]\nid = \"value\"\ny = \"value\"\nfilter = { kind = [\"A\", \"B\"], \"a.b\" = \"c\" }\n+++\n";

    fn spans() -> Spans {
        let end = TEXT.rfind("+++").unwrap();
        Spans::parse(&TEXT[4..end], 4)
    }

    fn at(offset: Option<usize>) -> (usize, usize) {
        line_column(TEXT, offset.expect("the path is indexed"))
    }

    #[test]
    fn keys_and_values_are_found_by_path() {
        let spans = spans();
        assert_eq!(at(spans.key("title")), (2, 1));
        assert_eq!(at(spans.value("title")), (2, 9));
        assert_eq!(at(spans.value("tags[1]")), (3, 14));
        assert_eq!(at(spans.key("columns[1].pattern")), (11, 1));
        assert_eq!(at(spans.value("columns[1]")), (9, 1));
        assert_eq!(at(spans.value("charts[0].y")), (15, 5));
        assert_eq!(at(spans.key("charts[0].filter.kind")), (16, 12));
        assert_eq!(at(spans.value("charts[0].filter.kind[1]")), (16, 25));
        assert_eq!(at(spans.value("charts[0].filter.\"a.b\"")), (16, 39));
        assert_eq!(spans.key("columns[0].pattern"), None);
        let (text, offset) = spans.string("columns[0].description").unwrap();
        assert_eq!((text, line_column(TEXT, offset)), ("pattern", (7, 15)));
        let tags: Vec<String> = spans.entries("tags").collect();
        assert_eq!(tags, ["tags[0]", "tags[1]"]);
        assert_eq!(spans.entries("columns").count(), 2);
    }

    #[test]
    fn a_text_that_does_not_parse_has_no_spans() {
        let spans = Spans::parse("title = = 1\n", 0);
        assert_eq!(spans.key("title"), None);
    }

    #[test]
    fn places_keep_their_line() {
        let place = Place::of(TEXT, TEXT.find("y = ").unwrap());
        let d = place.locate(Diagnostic::error("a.md", "m"));
        assert_eq!((d.line, d.column), (Some(15), Some(1)));
        assert_eq!(d.source_line.as_deref(), Some("y = \"value\""));
    }
}
