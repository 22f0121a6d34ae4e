//! One parse of a TOML text for both its typed values and its spans.
//!
//! `toml::from_str` is `toml_edit`'s parser followed by `toml_edit`'s deserializer; here
//! the two steps are taken apart so that the span index (`super::spans`) is read from
//! the same parsed document as the values. Same parser, same deserializer: the values and
//! the errors (words and spans) are the ones `toml::from_str` gives, which the tests below
//! check on a corpus of broken front matters.

use serde::de::DeserializeOwned;
use toml_edit::de::{Deserializer, Error};
use toml_edit::ImDocument;

/// Parses `toml_text`; a syntax error comes back as the deserializer's error type, as
/// `toml::from_str` reports it.
pub fn parse(toml_text: &str) -> Result<ImDocument<&str>, Error> {
    ImDocument::parse(toml_text).map_err(Error::from)
}

/// The values of a parsed document as `T`.
pub fn deserialize<T: DeserializeOwned>(document: ImDocument<&str>) -> Result<T, Error> {
    T::deserialize(Deserializer::from(document))
}

#[cfg(test)]
mod tests {
    use std::fmt::Debug;
    use std::path::Path;

    use serde::Deserialize;

    use super::*;
    use crate::content::front_matter::{parse_toml, parse_toml_with_spans, toml_diagnostic};
    use crate::content::{DatasetFrontMatter, PageFrontMatter};

    const HEAD: &str = "title = \"t\"\nkicker = \"k\"\nheadline = \"h\"\n";
    const COLUMN: &str =
        "[[columns]]\nname = \"a\"\ntitle = \"A\"\ntype = \"integer\"\ndescription = \"d\"\n";

    /// Dataset front matters: each broken in one way (a few valid ones to compare values).
    fn dataset_corpus() -> Vec<String> {
        let broken = [
            // valid
            format!("{HEAD}{COLUMN}"),
            format!("{HEAD}tags = [\"a\", \"b\"]\nupdated = 2021-05-01\n{COLUMN}"),
            format!("{HEAD}table_rows = \"all\"\n{COLUMN}[[charts]]\nkind = \"bar\"\ntitle = \"c\"\nx = \"a\"\ny = \"a\"\nfilter = {{ a = [\"1\", \"2\"] }}\n"),
            // wrong types
            format!("title = 3\nkicker = \"k\"\nheadline = \"h\"\n{COLUMN}"),
            format!("{HEAD}tags = \"a\"\n{COLUMN}"),
            format!("{HEAD}draft = \"yes\"\n{COLUMN}"),
            format!("{HEAD}table_rows = -3\n{COLUMN}"),
            format!("{HEAD}table_rows = \"some\"\n{COLUMN}"),
            format!("{HEAD}license = \"CC-BY-4.0\"\n{COLUMN}"),
            format!("{HEAD}{COLUMN}required = 1\n"),
            format!("{HEAD}columns = 3\n"),
            // missing keys, top level and nested
            format!("kicker = \"k\"\nheadline = \"h\"\n{COLUMN}"),
            HEAD.to_string(),
            format!("{HEAD}[[columns]]\nname = \"a\"\ntype = \"integer\"\n"),
            format!("{HEAD}[license]\nurl = \"https://x.org\"\n{COLUMN}"),
            format!("{HEAD}[[changes]]\nversion = \"1\"\ndescription = \"d\"\n{COLUMN}"),
            // unknown keys (denied), top level, in tables, inline tables, arrays of tables
            format!("{HEAD}kickr = \"k\"\n{COLUMN}"),
            format!("{HEAD}{COLUMN}typo = 1\n"),
            format!("{HEAD}license = {{ name = \"n\", uri = \"u\" }}\n{COLUMN}"),
            format!("{HEAD}[[sources]]\nid = \"s\"\ntitle = \"t\"\npublishr = \"p\"\n{COLUMN}"),
            // unknown values
            format!("{HEAD}[[columns]]\nname = \"a\"\ntitle = \"A\"\ntype = \"int\"\ndescription = \"d\"\n"),
            format!("{HEAD}{COLUMN}[[charts]]\nkind = \"bars\"\ntitle = \"c\"\nx = \"a\"\ny = \"a\"\n"),
            format!("{HEAD}{COLUMN}[[charts]]\nkind = \"bar\"\ntitle = \"c\"\nx = \"a\"\ny = \"a\"\nfilter = {{ a = 3 }}\n"),
            // bad dates
            format!("{HEAD}updated = 2021-13-01\n{COLUMN}"),
            format!("{HEAD}updated = 2021-02-30\n{COLUMN}"),
            format!("{HEAD}updated = \"2021-05-01\"\n{COLUMN}"),
            format!("{HEAD}updated = 2021-05-01T25:00:00Z\n{COLUMN}"),
            format!("{HEAD}[[changes]]\ndate = 12\ndescription = \"d\"\n{COLUMN}"),
            // duplicate keys and tables
            format!("{HEAD}title = \"again\"\n{COLUMN}"),
            format!("{HEAD}[license]\nname = \"a\"\n[license]\nname = \"b\"\n{COLUMN}"),
            format!("{HEAD}{COLUMN}name = \"b\"\n"),
            format!("{HEAD}license = {{ name = \"a\", name = \"b\" }}\n{COLUMN}"),
            // syntax errors
            format!("{HEAD}kicker = = 3\n{COLUMN}"),
            format!("{HEAD}= 3\n{COLUMN}"),
            format!("{HEAD}tags = [\"a\" \"b\"]\n{COLUMN}"),
            format!("{HEAD}tags = [\"a\",\n{COLUMN}"),
            format!("{HEAD}[[columns]\n"),
            format!("{HEAD}a b = 1\n{COLUMN}"),
            format!("{HEAD}license = {{ name = \"a\",\n}}\n{COLUMN}"),
            // unterminated strings
            format!("{HEAD}description = \"open\n{COLUMN}"),
            format!("{HEAD}description = '''open\n{COLUMN}"),
            format!("{HEAD}description = \"\"\"open\n{COLUMN}"),
            // bad escapes
            format!("{HEAD}description = \"a\\qb\"\n{COLUMN}"),
            format!("{HEAD}description = \"\\uD800\"\n{COLUMN}"),
            format!("{HEAD}description = \"\\u12\"\n{COLUMN}"),
            // arrays of mixed types (TOML 1.0 allows them; the types do not)
            format!("{HEAD}tags = [\"a\", 1]\n{COLUMN}"),
            format!("{HEAD}related = [\"a\", [\"b\"]]\n{COLUMN}"),
            format!("{HEAD}{COLUMN}enum = [\"a\", true]\n"),
            // nested tables where values belong, and values where tables belong
            format!("{HEAD}[tags]\na = 1\n{COLUMN}"),
            format!("{HEAD}[title.sub]\na = 1\n"),
            format!("{HEAD}{COLUMN}[columns.extra]\na = 1\n"),
            format!("{HEAD}[[license]]\nname = \"n\"\n{COLUMN}"),
            format!("{HEAD}sources = {{ id = \"s\", title = \"t\" }}\n{COLUMN}"),
            format!("{HEAD}[charts.a.b]\nc = 1\n{COLUMN}"),
            // numbers out of range, and CRLF line ends
            format!("{HEAD}table_rows = 99999999999999999999\n{COLUMN}"),
            format!("{HEAD}kickr = \"k\"\n{COLUMN}").replace('\n', "\r\n"),
        ];
        broken.to_vec()
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Nested {
        name: String,
        inner: Option<Inner>,
        #[serde(default)]
        list: Vec<Inner>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Inner {
        count: u8,
        when: Option<toml::value::Datetime>,
    }

    /// Checks the one-parse path against `toml::from_str` on `toml`, placed in a file
    /// after a `+++` line: the same value, or the same error words and span, and the
    /// same diagnostic (message, line, column, source line, hint).
    fn same_as_toml_from_str<T: DeserializeOwned + Debug + PartialEq>(toml: &str) -> bool {
        let whole = format!("+++\n{toml}+++\nBody\n");
        let (file, offset) = (Path::new("content/datasets/a.md"), 4);
        let before = toml::from_str::<T>(toml);
        let now = parse(toml).and_then(deserialize::<T>);
        let typed = parse_toml::<T>(file, &whole, toml, offset);
        let spanned = parse_toml_with_spans::<T>(file, &whole, toml, offset).map(|(v, _)| v);
        match (before, now) {
            (Ok(before), Ok(now)) => {
                assert_eq!(before, now, "{toml}");
                assert_eq!(typed.as_ref(), Ok(&before), "{toml}");
                assert_eq!(spanned.as_ref(), Ok(&before), "{toml}");
                false
            }
            (Err(before), Err(now)) => {
                assert_eq!(before.message(), now.message(), "{toml}");
                assert_eq!(before.span(), now.span(), "{toml}");
                let expected =
                    toml_diagnostic(file, &whole, offset, before.message(), before.span());
                assert_eq!(typed.as_ref().err(), Some(&expected), "{toml}");
                assert_eq!(spanned.err(), Some(expected), "{toml}");
                true
            }
            (before, now) => panic!("{toml}\nbefore: {before:?}\nnow: {now:?}"),
        }
    }

    /// Every case of `corpus` as `toml::from_str` read it; all but `valid` of them fail
    /// (so the corpus tests the errors it says it does).
    fn corpus_as_before<T: DeserializeOwned + Debug + PartialEq>(
        corpus: &[impl AsRef<str>],
        valid: usize,
    ) {
        let failed = corpus
            .iter()
            .filter(|toml| same_as_toml_from_str::<T>(toml.as_ref()))
            .count();
        assert_eq!(failed, corpus.len() - valid);
    }

    #[test]
    fn dataset_front_matters_fail_as_toml_from_str_did() {
        corpus_as_before::<DatasetFrontMatter>(&dataset_corpus(), 3);
    }

    #[test]
    fn page_front_matters_fail_as_toml_from_str_did() {
        let corpus = [
            "title = \"t\"\n",
            "title = \"t\"\ndescription = \"d\"\n",
            "description = \"d\"\n",
            "title = 1\n",
            "title = \"t\"\ntitel = \"u\"\n",
            "title = \"t\"\ntitle = \"u\"\n",
            "title = \"t\n",
            "title = \"\\x41\"\n",
            "[title]\na = 1\n",
            "",
        ];
        corpus_as_before::<PageFrontMatter>(&corpus, 2);
    }

    #[test]
    fn nested_tables_fail_as_toml_from_str_did() {
        let corpus = [
            "name = \"n\"\n[inner]\ncount = 3\nwhen = 2021-01-01\n[[list]]\ncount = 1\n",
            "name = \"n\"\n[inner]\ncount = 300\n",
            "name = \"n\"\n[inner]\ncount = -1\n",
            "name = \"n\"\n[inner]\ncont = 3\n",
            "name = \"n\"\n[inner]\nwhen = 2021-01-01\n",
            "name = \"n\"\n[inner]\ncount = 3\nwhen = 2021-01-01T10:00\n",
            "name = \"n\"\n[inner]\ncount = 3\nwhen = 10:61:00\n",
            "name = \"n\"\ninner = { count = 3, count = 4 }\n",
            "name = \"n\"\n[[list]]\ncount = 1\n[[list]]\ncount = \"2\"\n",
            "name = \"n\"\n[[list]]\ncount = 1\n[list.deeper]\nx = 1\n",
            "name = \"n\"\nlist = [{ count = 1 }, 2]\n",
            "name = \"n\"\n[inner]\ncount = 3\n[inner]\ncount = 4\n",
            "name = \"n\"\ninner.count = 3\ninner.extra.deep = 1\n",
        ];
        corpus_as_before::<Nested>(&corpus, 1);
    }

    #[test]
    fn the_spans_are_those_of_a_separate_parse() {
        let toml = format!("{HEAD}tags = [\"a\", \"b\"]\n{COLUMN}");
        let whole = format!("+++\n{toml}+++\n");
        let (_, spans) =
            parse_toml_with_spans::<DatasetFrontMatter>(Path::new("a.md"), &whole, &toml, 4)
                .unwrap();
        let separate = crate::content::spans::Spans::parse(&toml, 4);
        for path in ["title", "tags", "tags[1]", "columns[0]", "columns[0].type"] {
            assert_eq!(spans.key(path), separate.key(path), "{path}");
            assert_eq!(spans.value(path), separate.value(path), "{path}");
            assert!(spans.value(path).is_some(), "{path}");
        }
        assert_eq!(spans.string("tags[1]").map(|(s, _)| s), Some("b"));
    }
}
