//! The words the chart tests draw with: a language's `[chart]` messages from the built-in
//! catalogue (the repository's `i18n/<language>.toml`), their plural form chosen by CLDR's
//! rules and `{name}` filled in, as the application's message catalogue does.

use std::sync::LazyLock;

use super::Words;
use crate::locale::{Locale, NumberMarks};
use crate::schema::{format_cell, ColumnType};

/// One language's chart messages.
#[derive(Debug)]
pub(super) struct Catalogue {
    locale: Locale,
    chart: toml::Table,
}

impl Catalogue {
    /// The built-in words of `language` (`en` or `fr`).
    pub(super) fn built_in(language: &str) -> Catalogue {
        let text = match language {
            "en" => include_str!("../../../../i18n/en.toml"),
            "fr" => include_str!("../../../../i18n/fr.toml"),
            other => panic!("no built-in catalogue for `{other}` in the chart tests"),
        };
        let mut catalogue: toml::Table = text.parse().expect("a built-in catalogue parses");
        let Some(toml::Value::Table(chart)) = catalogue.remove("chart") else {
            panic!("the built-in catalogue has a [chart] table");
        };
        Catalogue {
            locale: Locale::new(language),
            chart,
        }
    }
}

/// The built-in English words, made once for every test that needs them.
pub(super) fn english() -> &'static Catalogue {
    static WORDS: LazyLock<Catalogue> = LazyLock::new(|| Catalogue::built_in("en"));
    &WORDS
}

impl Words for Catalogue {
    fn marks(&self) -> &NumberMarks {
        &self.locale.marks
    }

    fn say(&self, id: &str, count: Option<u64>, args: &[(&str, &str)]) -> String {
        let key = id.strip_prefix("chart.").expect("a chart message");
        let text = match (&self.chart[key], count) {
            (toml::Value::String(text), _) => text.as_str(),
            (toml::Value::Table(forms), Some(n)) => forms[self.locale.category(&n.to_string())]
                .as_str()
                .expect("a plural form is text"),
            (other, _) => panic!("the message `{id}` is {other:?} and its count {count:?}"),
        };
        let n = count.map(|n| {
            let mut english = String::new();
            format_cell(ColumnType::Number, &n.to_string(), &mut english);
            self.locale.number(&english).into_owned()
        });
        let mut out = String::new();
        let mut rest = text;
        while let Some((before, after)) = rest.split_once('{') {
            let (name, tail) = after.split_once('}').expect("a closed placeholder");
            let value = match (name, &n) {
                ("n", Some(n)) => n.as_str(),
                _ => args
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| *v)
                    .expect(name),
            };
            out.push_str(before);
            out.push_str(value);
            rest = tail;
        }
        out.push_str(rest);
        out
    }
}
