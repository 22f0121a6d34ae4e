//! Splitting a Markdown file into its TOML front matter and body, and parsing TOML
//! with errors located in the file the author edits (not in the front matter fragment).

use std::path::Path;

use serde::de::DeserializeOwned;

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
    toml::from_str(toml_text).map_err(|err| toml_diagnostic(file, whole_text, toml_offset, &err))
}

fn toml_diagnostic(
    file: &Path,
    whole_text: &str,
    toml_offset: usize,
    err: &toml::de::Error,
) -> Diagnostic {
    let message = err.message().trim().to_string();
    let mut diagnostic = Diagnostic::error(file, describe_toml_message(&message));
    if let Some(span) = err.span() {
        let (line, column) = line_column(whole_text, toml_offset + span.start);
        diagnostic = diagnostic.at(line, column).with_source_from(whole_text);
    }
    if let Some(hint) = hint_for_toml_message(&message) {
        diagnostic = diagnostic.with_hint(hint);
    }
    diagnostic
}

fn describe_toml_message(message: &str) -> String {
    if let Some(name) = backticked(message, "unknown field ") {
        return format!("unknown key `{name}`");
    }
    if let Some(name) = backticked(message, "missing field ") {
        return format!("missing required key `{name}`");
    }
    if let Some(value) = backticked(message, "unknown variant ") {
        return format!("`{value}` is not one of the allowed values");
    }
    format!("invalid TOML: {message}")
}

fn hint_for_toml_message(message: &str) -> Option<String> {
    if let Some(name) = backticked(message, "unknown field ") {
        let expected = expected_names(message);
        return Some(match did_you_mean(name, expected.iter().copied()) {
            Some(near) => format!("did you mean `{near}`?"),
            None if !expected.is_empty() => format!("known keys here: {}", expected.join(", ")),
            None => "remove the key or check its spelling".to_string(),
        });
    }
    if let Some(value) = backticked(message, "unknown variant ") {
        let allowed = expected_names(message);
        return Some(match did_you_mean(value, allowed.iter().copied()) {
            Some(near) => format!("did you mean `{near}`? allowed: {}", allowed.join(", ")),
            None => format!("allowed: {}", allowed.join(", ")),
        });
    }
    if let Some(name) = backticked(message, "missing field ") {
        return Some(format!(
            "add `{name} = …` to the front matter (see docs/content-format.md)"
        ));
    }
    if message.contains("invalid type") || message.contains("expected") {
        return Some("check the value's type against docs/content-format.md".to_string());
    }
    None
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
    }
}
