//! Splitting a Markdown file into its TOML front matter and body, and parsing TOML
//! with errors located in the file the author edits (not in the front matter fragment).

use std::ops::Range;
use std::path::Path;

use serde::de::DeserializeOwned;

use super::spans::Spans;
use super::toml_document;
use crate::diagnostics::{did_you_mean, line_column, Diagnostic};

/// A Markdown file cut at its `+++` fences.
#[derive(Debug, Clone, PartialEq)]
pub struct SplitFile<'a> {
    /// The TOML between the fences.
    pub front_matter: &'a str,
    /// Byte offset of `front_matter` in the whole file, to locate TOML errors.
    pub front_matter_offset: usize,
    /// Everything after the closing fence.
    pub body: &'a str,
    /// Byte offset of `body` in the whole file.
    pub body_offset: usize,
}

/// Cuts `text` into front matter and body. The file must start with a `+++` line
/// (after an optional UTF-8 byte order mark) and have a closing `+++` line.
pub fn split<'a>(file: &Path, text: &'a str) -> Result<SplitFile<'a>, Diagnostic> {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let rest = &text[start..];
    let first_line_end = rest.find('\n').map(|i| i + 1).unwrap_or(rest.len());
    if rest[..first_line_end].trim_end() != "+++" {
        return Err(Diagnostic::error(file, "the file does not start with front matter")
            .at(1, 1)
            .with_source_from(text)
            .with_hint("start the file with a line `+++`, the TOML front matter, and another `+++` line"));
    }
    let front_start = start + first_line_end;
    let mut offset = front_start;
    for line in text[front_start..].split_inclusive('\n') {
        if line.trim_end() == "+++" {
            return Ok(SplitFile {
                front_matter: &text[front_start..offset],
                front_matter_offset: front_start,
                body: &text[offset + line.len()..],
                body_offset: offset + line.len(),
            });
        }
        offset += line.len();
    }
    Err(Diagnostic::error(file, "the front matter is never closed")
        .at(1, 1)
        .with_source_from(text)
        .with_hint("end the front matter with a line that holds only `+++`"))
}

/// Parses TOML into `T`, turning a failure into a diagnostic located in `whole_text`
/// (`toml_offset` is where the TOML starts in it).
pub fn parse_toml<T: DeserializeOwned>(
    file: &Path,
    whole_text: &str,
    toml_text: &str,
    toml_offset: usize,
) -> Result<T, Diagnostic> {
    toml_document::parse(toml_text)
        .and_then(toml_document::deserialize)
        .map_err(|err| toml_diagnostic(file, whole_text, toml_offset, err.message(), err.span()))
}

/// [`parse_toml`] and the spans of the text's keys and values ([`Spans`]), both read
/// from one parse of the text.
pub fn parse_toml_with_spans<T: DeserializeOwned>(
    file: &Path,
    whole_text: &str,
    toml_text: &str,
    toml_offset: usize,
) -> Result<(T, Spans), Diagnostic> {
    toml_document::parse(toml_text)
        .and_then(|document| {
            let spans = Spans::of_document(&document, toml_offset);
            Ok((toml_document::deserialize(document)?, spans))
        })
        .map_err(|err| toml_diagnostic(file, whole_text, toml_offset, err.message(), err.span()))
}

/// The diagnostic for a TOML error: the crate's `message`, at `span` of the TOML text.
pub(super) fn toml_diagnostic(
    file: &Path,
    whole_text: &str,
    toml_offset: usize,
    message: &str,
    span: Option<Range<usize>>,
) -> Diagnostic {
    let message = message.trim();
    let problem = TomlProblem::read(message);
    let mut diagnostic = Diagnostic::error(file, problem.describe(message));
    if let Some(span) = &span {
        let (line, column) = line_column(whole_text, toml_offset + span.start);
        diagnostic = diagnostic.at(line, column).with_source_from(whole_text);
    }
    let table = span
        .as_ref()
        .and_then(|span| table_above(&whole_text[toml_offset..], span.start));
    let hint = match (&problem, table) {
        // site.toml is not front matter: name the file the key belongs in.
        (TomlProblem::MissingKey { name }, _) if file.ends_with("site.toml") => Some(format!(
            "add `{name} = …` to site.toml (see docs/reference.md)"
        )),
        // A top-level key written below a table header belongs to that table in TOML.
        (TomlProblem::UnknownKey { name, known }, Some(table))
            if did_you_mean(name, known.iter().copied()).is_none() =>
        {
            let known = problem.hint().unwrap_or_default();
            Some(format!(
                "{known}; TOML reads every key below `{table}` as part of that table: if `{name}` is meant for the page, move it above the first `[...]` line"
            ))
        }
        _ => problem.hint(),
    };
    if let Some(hint) = hint {
        diagnostic = diagnostic.with_hint(hint);
    }
    diagnostic
}

/// The header line (`[license]`, `[[columns]]`) of the table that the text at `offset` of
/// the TOML `text` is in, when it is in one.
fn table_above(text: &str, offset: usize) -> Option<&str> {
    text.get(..offset)?
        .lines()
        .map(str::trim)
        .rfind(|line| line.starts_with('['))
        .map(|line| line.split('#').next().unwrap_or(line).trim_end())
}

/// What a TOML error says, read once from its message.
///
/// `toml::de::Error` has a span but no kind: serde's `unknown_field`, `missing_field`,
/// `unknown_variant` and `invalid_type` reach it only as formatted English. So the words
/// are read here and nowhere else, and the tests below pin the exact texts the crate
/// writes today: an upgrade that rewords them fails those tests, not the users' messages.
#[derive(Debug, PartialEq)]
enum TomlProblem<'a> {
    /// "unknown field `kickr`, expected one of `title`, `kicker`"
    UnknownKey { name: &'a str, known: Vec<&'a str> },
    /// "missing field `title`"
    MissingKey { name: &'a str },
    /// "unknown variant `bars`, expected one of `bar`, `line`"
    UnknownValue {
        value: &'a str,
        allowed: Vec<&'a str>,
    },
    /// "invalid type: integer `3`, expected a string", and the syntax errors that name
    /// what they expected ("invalid string\nexpected `\"`, `'`").
    Unexpected,
    /// Anything else ("duplicate key `title` in document root", "invalid date-time").
    Other,
}

impl<'a> TomlProblem<'a> {
    fn read(message: &'a str) -> TomlProblem<'a> {
        if let Some(name) = backticked(message, "unknown field ") {
            return TomlProblem::UnknownKey {
                name,
                known: expected_names(message),
            };
        }
        if let Some(name) = backticked(message, "missing field ") {
            return TomlProblem::MissingKey { name };
        }
        if let Some(value) = backticked(message, "unknown variant ") {
            return TomlProblem::UnknownValue {
                value,
                allowed: expected_names(message),
            };
        }
        if message.contains("invalid type") || message.contains("expected") {
            return TomlProblem::Unexpected;
        }
        TomlProblem::Other
    }

    /// The message users see; `message` is the crate's own, shown when not rewritten.
    fn describe(&self, message: &str) -> String {
        match self {
            TomlProblem::UnknownKey { name, .. } => format!("unknown key `{name}`"),
            TomlProblem::MissingKey { name } => format!("missing required key `{name}`"),
            TomlProblem::UnknownValue { value, .. } => {
                format!("`{value}` is not one of the allowed values")
            }
            TomlProblem::Unexpected | TomlProblem::Other => format!("invalid TOML: {message}"),
        }
    }

    fn hint(&self) -> Option<String> {
        Some(match self {
            TomlProblem::UnknownKey { name, known } => {
                match did_you_mean(name, known.iter().copied()) {
                    Some(near) => format!("did you mean `{near}`?"),
                    None if !known.is_empty() => format!("known keys here: {}", known.join(", ")),
                    None => "remove the key or check its spelling".to_string(),
                }
            }
            TomlProblem::UnknownValue { value, allowed } => {
                match did_you_mean(value, allowed.iter().copied()) {
                    Some(near) => format!("did you mean `{near}`? allowed: {}", allowed.join(", ")),
                    None => format!("allowed: {}", allowed.join(", ")),
                }
            }
            TomlProblem::MissingKey { name } => {
                format!("add `{name} = …` to the front matter (see docs/content-format.md)")
            }
            TomlProblem::Unexpected => {
                "check the value's type against docs/content-format.md".to_string()
            }
            TomlProblem::Other => return None,
        })
    }
}

/// The backticked names after "expected" in a serde message.
fn expected_names(message: &str) -> Vec<&str> {
    message
        .split_once("expected")
        .map(|(_, list)| list.split('`').skip(1).step_by(2).collect())
        .unwrap_or_default()
}

/// The first `name` in "prefix`name`…", if the message has that prefix.
fn backticked<'a>(message: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = message.strip_prefix(prefix)?.strip_prefix('`')?;
    rest.split('`').next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Front {
        title: String,
        kicker: Option<String>,
    }

    /// The diagnostic for front matter that does not parse as `T`.
    fn toml_error<T: DeserializeOwned + std::fmt::Debug>(text: &str) -> Diagnostic {
        let split = split(Path::new("a.md"), text).unwrap();
        parse_toml::<T>(
            Path::new("a.md"),
            text,
            split.front_matter,
            split.front_matter_offset,
        )
        .unwrap_err()
    }

    #[test]
    fn a_page_key_below_a_table_is_explained() {
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct WithTable {
            title: String,
            created: Option<String>,
            license: Option<Inner>,
        }
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Inner {
            id: String,
        }
        let text = "+++\ntitle = \"x\"\n[license] # the data's\nid = \"CC0-1.0\"\ncreated = \"2024\"\n+++\n";
        let err = toml_error::<WithTable>(text);
        assert_eq!(err.message, "unknown key `created`");
        assert_eq!(err.line, Some(5));
        assert_eq!(
            err.hint.as_deref(),
            Some("known keys here: id; TOML reads every key below `[license]` as part of that table: if `created` is meant for the page, move it above the first `[...]` line")
        );
        // At the top level, or a near miss, the hint stays what it was.
        let err = toml_error::<WithTable>("+++\ntitel = \"x\"\n+++\n");
        assert_eq!(err.hint.as_deref(), Some("did you mean `title`?"));
    }

    #[test]
    fn splits_front_matter_and_body() {
        let text = "+++\ntitle = \"x\"\n+++\n\nBody\n";
        let split = split(Path::new("a.md"), text).unwrap();
        assert_eq!(split.front_matter, "title = \"x\"\n");
        assert_eq!(split.body, "\nBody\n");
        assert_eq!(&text[split.body_offset..], split.body);
    }

    #[test]
    fn accepts_crlf_and_bom() {
        let text = "\u{feff}+++\r\ntitle = \"x\"\r\n+++\r\nBody";
        let split = split(Path::new("a.md"), text).unwrap();
        assert_eq!(split.front_matter, "title = \"x\"\r\n");
        assert_eq!(split.body, "Body");
    }

    #[test]
    fn missing_fences_are_errors() {
        assert!(split(Path::new("a.md"), "title = 1\n").is_err());
        let err = split(Path::new("a.md"), "+++\ntitle = 1\n").unwrap_err();
        assert!(err.message.contains("never closed"));
    }

    #[test]
    fn toml_errors_are_located_in_the_whole_file() {
        let text = "+++\ntitle = \"x\"\nkicker = = 3\n+++\n";
        let err = toml_error::<Front>(text);
        assert_eq!(err.line, Some(3), "{err:?}");
        assert!(err.source_line.as_deref().unwrap().contains("kicker"));
    }

    #[test]
    fn unknown_keys_suggest_the_near_miss() {
        let text = "+++\ntitle = \"x\"\nkickr = \"y\"\n+++\n";
        let err = toml_error::<Front>(text);
        assert_eq!(err.message, "unknown key `kickr`");
        assert_eq!(err.hint.as_deref(), Some("did you mean `kicker`?"));
        assert_eq!(err.line, Some(3));
    }

    #[test]
    fn unknown_values_list_the_allowed_ones() {
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct Shape {
            kind: crate::content::ChartKind,
        }
        let text = "+++\nkind = \"bars\"\n+++\n";
        let err = toml_error::<Shape>(text);
        assert_eq!(err.message, "`bars` is not one of the allowed values");
        assert_eq!(
            err.hint.as_deref(),
            Some("did you mean `bar`? allowed: bar, grouped-bar, line, dot")
        );
        assert_eq!(err.line, Some(2));
    }

    #[test]
    fn missing_keys_are_named() {
        let text = "+++\nkicker = \"y\"\n+++\n";
        let err = toml_error::<Front>(text);
        assert_eq!(err.message, "missing required key `title`");
        assert!(err
            .hint
            .as_deref()
            .unwrap_or_default()
            .contains("front matter"));
        let text = "kicker = \"y\"\n";
        let err = parse_toml::<Front>(Path::new("site.toml"), text, text, 0).unwrap_err();
        assert_eq!(
            err.hint.as_deref(),
            Some("add `title = …` to site.toml (see docs/reference.md)")
        );
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Shapes {
        title: String,
        count: Option<u32>,
        date: Option<toml::value::Datetime>,
        kind: Option<crate::content::ChartKind>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Empty {}

    /// The crate's own message for `toml`, and what the user sees: message and hint.
    fn shape<T: DeserializeOwned + std::fmt::Debug>(
        toml: &str,
    ) -> (String, String, Option<String>) {
        let crate_message = toml::from_str::<T>(toml).unwrap_err().message().to_string();
        let seen = toml_error::<T>(&format!("+++\n{toml}+++\n"));
        (
            crate_message,
            seen.message.into_owned(),
            seen.hint.map(std::borrow::Cow::into_owned),
        )
    }

    // One test per message shape read or passed on: each pins the toml crate's exact
    // words (first) and what users see (then). A change in the crate's words fails here.

    #[test]
    fn unknown_field_message() {
        let (words, message, hint) = shape::<Shapes>("title = \"x\"\ntitel = 1\n");
        assert_eq!(
            words,
            "unknown field `titel`, expected one of `title`, `count`, `date`, `kind`"
        );
        assert_eq!(message, "unknown key `titel`");
        assert_eq!(hint.as_deref(), Some("did you mean `title`?"));
        let (_, _, hint) = shape::<Shapes>("title = \"x\"\nzzz = 1\n");
        assert_eq!(
            hint.as_deref(),
            Some("known keys here: title, count, date, kind")
        );
        let (words, message, hint) = shape::<Empty>("x = 1\n");
        assert_eq!(words, "unknown field `x`, there are no fields");
        assert_eq!(message, "unknown key `x`");
        assert_eq!(
            hint.as_deref(),
            Some("remove the key or check its spelling")
        );
    }

    #[test]
    fn wrong_type_message() {
        let (words, message, hint) = shape::<Shapes>("title = 3\n");
        assert_eq!(words, "invalid type: integer `3`, expected a string");
        assert_eq!(
            message,
            "invalid TOML: invalid type: integer `3`, expected a string"
        );
        assert_eq!(
            hint.as_deref(),
            Some("check the value's type against docs/content-format.md")
        );
        let (words, _, _) = shape::<Shapes>("title = \"x\"\ncount = \"2\"\n");
        assert_eq!(words, "invalid type: string \"2\", expected u32");
    }

    #[test]
    fn missing_field_message() {
        let (words, message, hint) = shape::<Shapes>("count = 1\n");
        assert_eq!(words, "missing field `title`");
        assert_eq!(message, "missing required key `title`");
        assert_eq!(
            hint.as_deref(),
            Some("add `title = …` to the front matter (see docs/content-format.md)")
        );
    }

    #[test]
    fn duplicate_key_message() {
        let (words, message, hint) = shape::<Shapes>("title = \"a\"\ntitle = \"b\"\n");
        assert_eq!(words, "duplicate key `title` in document root");
        assert_eq!(
            message,
            "invalid TOML: duplicate key `title` in document root"
        );
        assert_eq!(hint, None);
    }

    #[test]
    fn invalid_date_message() {
        let (words, message, hint) = shape::<Shapes>("title = \"a\"\ndate = 2021-13-01\n");
        assert_eq!(words, "invalid date-time\nvalue is out of range");
        assert_eq!(
            message,
            "invalid TOML: invalid date-time\nvalue is out of range"
        );
        assert_eq!(hint, None);
    }

    #[test]
    fn unknown_variant_message() {
        let (words, message, _) = shape::<Shapes>("title = \"a\"\nkind = \"bars\"\n");
        assert_eq!(
            words,
            "unknown variant `bars`, expected one of `bar`, `grouped-bar`, `line`, `dot`"
        );
        assert_eq!(message, "`bars` is not one of the allowed values");
    }

    #[test]
    fn syntax_error_message() {
        let (words, message, hint) = shape::<Shapes>("title = = 1\n");
        assert_eq!(words, "invalid string\nexpected `\"`, `'`");
        assert_eq!(message, "invalid TOML: invalid string\nexpected `\"`, `'`");
        assert_eq!(
            hint.as_deref(),
            Some("check the value's type against docs/content-format.md")
        );
    }
}
