//! docs/reference.md against the parsers: every key serde accepts must be in the
//! reference's tables, and every key there must be one serde accepts.

use std::collections::BTreeSet;

use serde::de::DeserializeOwned;

use crate::config::SiteConfig;
use crate::content::{DatasetFrontMatter, PageFrontMatter};

const PROBE: &str = "zz_not_a_key";

/// The fields serde knows at `path` ("" for the top level, `author`, `columns[]`), read
/// from the "unknown field, expected one of …" error a probe key there gets.
fn fields_at<T: DeserializeOwned + std::fmt::Debug>(path: &str) -> Vec<String> {
    let document = match (path.strip_suffix("[]"), path) {
        (_, "") => format!("{PROBE} = 0\n"),
        (Some(array), _) => format!("{array} = [{{ {PROBE} = 0 }}]\n"),
        (None, table) => format!("{table} = {{ {PROBE} = 0 }}\n"),
    };
    let message = match toml::from_str::<T>(&document) {
        Ok(value) => panic!("{path}: a probe key was accepted: {value:?}"),
        Err(error) => error.message().to_string(),
    };
    let Some((_, expected)) = message.split_once("expected ") else {
        panic!("{path}: not an unknown-field error: {message}");
    };
    assert!(message.contains(PROBE), "{path}: {message}");
    let names: Vec<String> = expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    assert!(!names.is_empty(), "{path}: {message}");
    names
}

/// Every key path of type `T` with its nested tables (`author.name`, `columns[].type`).
fn accepted<T: DeserializeOwned + std::fmt::Debug>(tables: &[&str]) -> BTreeSet<String> {
    let mut keys: BTreeSet<String> = fields_at::<T>("").into_iter().collect();
    for table in tables {
        keys.extend(
            fields_at::<T>(table)
                .into_iter()
                .map(|field| format!("{table}.{field}")),
        );
    }
    keys
}

/// The keys of the tables under the reference's `## <heading…>` section.
fn documented(reference: &str, heading: &str) -> BTreeSet<String> {
    let start = reference
        .find(&format!("\n## {heading}"))
        .unwrap_or_else(|| panic!("docs/reference.md has no `## {heading}` section"));
    let section = &reference[start + 4..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    section
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split_once('`'))
        .map(|(key, _)| key.to_string())
        .collect()
}

fn reference() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/reference.md");
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn assert_same(what: &str, parser: BTreeSet<String>, reference: BTreeSet<String>) {
    let missing: Vec<_> = parser.difference(&reference).collect();
    let unknown: Vec<_> = reference.difference(&parser).collect();
    assert!(
        missing.is_empty() && unknown.is_empty(),
        "{what}: keys the parser accepts but docs/reference.md lacks: {missing:?}; \
         keys docs/reference.md names but the parser does not know: {unknown:?}"
    );
}

#[test]
fn site_toml_keys_match_the_reference() {
    let parser = accepted::<SiteConfig>(&["author", "publisher", "license", "markdown"]);
    assert!(parser.contains("base_url") && parser.contains("author.name"));
    assert_same("site.toml", parser, documented(&reference(), "site.toml"));
}

#[test]
fn dataset_front_matter_keys_match_the_reference() {
    let parser = accepted::<DatasetFrontMatter>(&[
        "license",
        "changes[]",
        "creators[]",
        "sources[]",
        "themes[]",
        "columns[]",
        "charts[]",
        "foreign_keys[]",
    ]);
    assert!(parser.contains("columns[].type") && parser.contains("draft"));
    assert_same(
        "dataset front matter",
        parser,
        documented(&reference(), "Dataset front matter"),
    );
}

#[test]
fn page_front_matter_keys_match_the_reference() {
    let parser = accepted::<PageFrontMatter>(&[]);
    assert_same(
        "page front matter",
        parser,
        documented(&reference(), "Page front matter"),
    );
}

#[test]
fn the_comparison_sees_a_missing_and_an_unknown_key() {
    let reference = "\n## X\n| `title` | string |\n| `nope` | string |\n";
    let documented = documented(reference, "X");
    let parser = accepted::<PageFrontMatter>(&[]);
    assert!(parser.contains("description") && !documented.contains("description"));
    assert!(documented.contains("nope") && !parser.contains("nope"));
}
