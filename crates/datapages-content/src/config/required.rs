//! The keys site.toml must have, all reported in one pass, each with the shape it takes,
//! so that a new site.toml is completed in one edit rather than one build per key.

use std::path::Path;

use crate::content::spans::{Locator, Spans};
use crate::diagnostics::{did_you_mean, Diagnostic};

/// Each required key and the line that would satisfy it.
const REQUIRED: &[(&str, &str)] = &[
    ("title", "title = \"Open measurements\""),
    ("base_url", "base_url = \"https://example.org/\""),
    (
        "author",
        "[author] with name = \"Your name\" (and an optional url)",
    ),
];

/// Every required key site.toml lacks, and an `author` that is not a table with a
/// `name`. A key that a present key looks like a typo of is left to the unknown-key error.
pub(super) fn problems(display: &Path, text: &str) -> Vec<Diagnostic> {
    let Ok(table) = text.parse::<toml::Table>() else {
        return Vec::new();
    };
    let locator = Locator {
        file: display,
        text,
        spans: Spans::parse(text, 0),
    };
    let mut out = Vec::new();
    for (key, example) in REQUIRED {
        let misspelt = did_you_mean(key, table.keys().map(String::as_str)).is_some();
        if !table.contains_key(*key) && !misspelt {
            out.push(
                Diagnostic::error(display, format!("missing required key `{key}`"))
                    .with_hint(format!("add it to site.toml: {example}")),
            );
        }
    }
    match table.get("author") {
        Some(toml::Value::Table(author)) if !author.contains_key("name") => out.push(
            locator
                .error("missing required key `author.name`", locator.key("author"))
                .with_hint("add `name = \"Your name\"` under [author] in site.toml"),
        ),
        Some(toml::Value::String(name)) => out.push(
            locator
                .error(
                    "`author` is a table with a `name`, not a string",
                    locator.value("author"),
                )
                .with_hint(format!(
                    "write it in site.toml as\n[author]\nname = {name:?}"
                )),
        ),
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_missing_key_at_once() {
        let found = problems(Path::new("site.toml"), "language = \"en\"\n");
        let messages: Vec<_> = found.iter().map(|d| &*d.message).collect();
        assert_eq!(
            messages,
            [
                "missing required key `title`",
                "missing required key `base_url`",
                "missing required key `author`"
            ]
        );
        assert!(found[0]
            .hint
            .as_deref()
            .unwrap_or_default()
            .contains("site.toml"));
    }

    #[test]
    fn a_typo_is_left_to_the_unknown_key_error_and_a_string_author_is_located() {
        let text = "title = \"t\"\nbase_ur = \"https://e.org/\"\nauthor = \"Ann\"\n";
        let found = problems(Path::new("site.toml"), text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].line, Some(3));
        assert!(found[0]
            .hint
            .as_deref()
            .unwrap_or_default()
            .contains("name = \"Ann\""));
    }
}
