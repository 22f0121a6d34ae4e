//! One catalogue file read into messages by symbolic id: `[section]` tables give the id's
//! first part (`dataset.download_csv`), a table holding `other` is a message's CLDR plural
//! forms. Each id keeps the line it is on, so a problem with it can be shown there.

use std::collections::BTreeMap;
use std::path::Path;

use crate::diagnostics::Diagnostic;

/// The CLDR plural categories a message may have forms for.
pub const CATEGORIES: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];

/// One message: a text, or a text per plural category (`other` always there).
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    Text(String),
    Plural(BTreeMap<String, String>),
}

impl Message {
    /// Every text of the message (one, or one per plural form).
    pub fn texts(&self) -> Vec<&str> {
        match self {
            Message::Text(text) => vec![text],
            Message::Plural(forms) => forms.values().map(String::as_str).collect(),
        }
    }
}

/// The messages of one file, by id, each with its 1-based line.
#[derive(Debug, Clone, Default)]
pub struct Catalogue {
    pub messages: BTreeMap<String, (Message, u32)>,
}

impl Catalogue {
    /// Reads a catalogue's text; `file` is where problems are shown.
    pub fn parse(text: &str, file: &Path) -> Result<Catalogue, Vec<Diagnostic>> {
        let table: toml::Table = toml::from_str(text).map_err(|e| {
            let (line, column) = e
                .span()
                .map(|s| crate::diagnostics::line_column(text, s.start))
                .unwrap_or((1, 1));
            vec![Diagnostic::error(
                file,
                format!("the message catalogue is not valid TOML: {}", e.message()),
            )
            .at(line, column)
            .with_source_from(text)
            .with_hint("write `id = \"text\"` lines under `[section]` headers, as in the built-in i18n/en.toml (`datapages eject` writes the built-in ones into i18n/)")]
        })?;
        let lines = key_lines(text);
        let mut catalogue = Catalogue::default();
        let mut problems = Vec::new();
        let line_of = |id: &str| lines.get(id).copied().unwrap_or(1);
        flatten(&table, "", &mut |id, value| {
            let line = line_of(&id);
            match message(value) {
                Ok(m) => {
                    catalogue.messages.insert(id, (m, line));
                }
                Err(why) => problems.push(
                    Diagnostic::error(file, format!("message `{id}` {why}"))
                        .at(line as usize, 1)
                        .with_source_from(text)
                        .with_hint("a message is a string, or a table of plural forms (`one`, `other`, …) whose values are strings"),
                ),
            }
        });
        if problems.is_empty() {
            Ok(catalogue)
        } else {
            Err(problems)
        }
    }
}

/// Calls `each` with every message's id and value: nested tables are sections, except
/// a table of plural forms ([`is_plural`]), which is one message.
fn flatten(table: &toml::Table, prefix: &str, each: &mut dyn FnMut(String, &toml::Value)) {
    for (key, value) in table {
        let id = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match value {
            toml::Value::Table(inner) if !is_plural(inner) => flatten(inner, &id, each),
            _ => each(id, value),
        }
    }
}

/// A table of plural forms: an `other` form, and no key that is not a CLDR category.
fn is_plural(table: &toml::Table) -> bool {
    table.contains_key("other") && table.keys().all(|k| CATEGORIES.contains(&k.as_str()))
}

fn message(value: &toml::Value) -> Result<Message, String> {
    match value {
        toml::Value::String(text) => Ok(Message::Text(text.clone())),
        toml::Value::Table(forms) => {
            let mut out = BTreeMap::new();
            for (category, text) in forms {
                if !CATEGORIES.contains(&category.as_str()) {
                    return Err(format!(
                        "has a plural form `{category}`, which is none of CLDR's (zero, one, two, few, many, other)"
                    ));
                }
                let Some(text) = text.as_str() else {
                    return Err(format!(
                        "has a plural form `{category}` that is not a string"
                    ));
                };
                out.insert(category.clone(), text.to_string());
            }
            Ok(Message::Plural(out))
        }
        other => Err(format!("is a {}, not a string", other.type_str())),
    }
}

/// The 1-based line of each `key =` under its `[section]`: a line scan, which is all the
/// flat files of a catalogue need (a key written in a way it misses is shown at line 1).
fn key_lines(text: &str) -> BTreeMap<String, u32> {
    let mut lines = BTreeMap::new();
    let mut section = String::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = header.trim().to_string();
            continue;
        }
        let Some((key, _)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim().trim_matches('"');
        if key.is_empty() || key.starts_with('#') {
            continue;
        }
        let id = if section.is_empty() {
            key.to_string()
        } else {
            format!("{section}.{key}")
        };
        lines.entry(id).or_insert(n as u32 + 1);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_become_ids_and_plural_tables_messages() {
        let text = "top = \"T\"\n[dataset]\nkicker = \"Jeu\"\nrows = { one = \"{n} ligne\", other = \"{n} lignes\" }\n";
        let c = Catalogue::parse(text, Path::new("i18n/fr.toml")).unwrap();
        assert_eq!(c.messages["top"], (Message::Text("T".into()), 1));
        assert_eq!(c.messages["dataset.kicker"].1, 3);
        let Message::Plural(forms) = &c.messages["dataset.rows"].0 else {
            panic!("plural")
        };
        assert_eq!(forms["one"], "{n} ligne");
        assert_eq!(c.messages["dataset.rows"].1, 4);
    }

    #[test]
    fn bad_values_and_syntax_are_located() {
        let problems = Catalogue::parse(
            "[a]\nb = 3\nc = { one = \"x\", other = 2 }\n",
            Path::new("f.toml"),
        )
        .unwrap_err();
        assert_eq!(problems.len(), 2);
        assert_eq!(problems[0].line, Some(2));
        assert!(
            problems[0].message.contains("`a.b` is a integer"),
            "{}",
            problems[0].message
        );
        assert!(
            problems[1].message.contains("`one`")
                || problems[1].message.contains("`other` that is not a string"),
            "{}",
            problems[1].message
        );
        let syntax = Catalogue::parse("a = \n", Path::new("f.toml")).unwrap_err();
        assert_eq!(syntax[0].line, Some(1));
        assert!(syntax[0]
            .message
            .starts_with("the message catalogue is not valid TOML"));
    }
}
