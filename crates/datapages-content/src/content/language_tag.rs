//! Whether site.toml's `language` is a well-formed language tag, as the `lang` of every
//! page, the `@language` of CSVW and JSON-LD, the language of the RDF catalog and the
//! theme's words and number marks (ICU4X, `i18n::locale`) need it to be: ICU4X's own
//! parser (`icu_locale_core`, Unicode's BCP 47 locale identifiers) decides, so a tag the
//! build accepts is one the theme reads; this file only puts its refusal in words.

use icu_locale_core::{Locale, ParseError};

/// The longest starts of a refused tag parsed again to find its part out of place (a
/// bound, so that a long tag costs a linear time).
const LOCATED_PARTS: usize = 32;

/// Why `tag` is not a well-formed language tag, in words, if it is not.
pub fn problem(tag: &str) -> Option<String> {
    if tag.is_empty() {
        return Some("it is empty".into());
    }
    if let Some(bad) = tag
        .chars()
        .find(|c| !c.is_ascii_alphanumeric() && *c != '-')
    {
        return Some(format!(
            "it holds {}, but a tag is letters, digits and hyphens",
            describe(bad)
        ));
    }
    let error = Locale::try_from_str(tag).err()?;
    let parts: Vec<&str> = tag.split('-').collect();
    if parts.iter().any(|s| s.is_empty()) {
        return Some("it has an empty part (two hyphens in a row, or one at an end)".into());
    }
    if error == ParseError::InvalidLanguage {
        return Some(format!(
            "it starts with `{}`, but the language is 2 or 3 letters (`en`, `deu`)",
            parts[0]
        ));
    }
    if error == ParseError::DuplicatedExtension {
        return Some("it has an extension twice (the same one-letter part twice)".into());
    }
    // The part after the longest start that is a tag by itself.
    let good = (1..parts.len())
        .rev()
        .take(LOCATED_PARTS)
        .find(|&n| Locale::try_from_str(&parts[..n].join("-")).is_ok());
    Some(match good.map(|n| parts[n]) {
        None => format!("it is not a language tag ({error})"),
        Some(x) if x.eq_ignore_ascii_case("x") => {
            "its private-use part `x` has nothing after it".into()
        }
        Some(part) if part.len() == 1 => {
            format!("its extension `{part}` has no part of 2 to 8 characters after it")
        }
        Some(part) => format!(
            "its part `{part}` is not in a place a tag allows (language, then script, region, variants, extensions, private use)"
        ),
    })
}

fn describe(c: char) -> String {
    if c == ' ' {
        "a space".into()
    } else if c.is_control() {
        crate::text::describe_char(c)
    } else {
        format!("`{c}`")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_tags_pass() {
        for tag in [
            "en",
            "EN-gb",
            "deu",
            "zh-Hant-TW",
            "sr-Latn-RS",
            "es-419",
            "de-CH-1901",
            "sl-rozaj-biske",
            "en-US-u-islamcal",
            "en-a-bbb-x-a-ccc",
            "qaa-Qaaa-QM-x-southern",
            "tlh",
        ] {
            assert_eq!(problem(tag), None, "{tag}");
        }
    }

    /// RFC 5646's forms that ICU4X does not read, so neither could the theme:
    /// grandfathered tags, extended language subtags, a tag of private use alone,
    /// languages of 4 to 8 letters.
    #[test]
    fn tags_the_theme_cannot_read_are_refused() {
        for tag in [
            "i-klingon",
            "en-GB-oed",
            "zh-yue-HK",
            "x-whatever",
            "abcd",
            "abcdefgh",
        ] {
            assert!(problem(tag).is_some(), "{tag}");
        }
    }

    #[test]
    fn malformed_tags_say_why() {
        for (tag, why) in [
            ("", "empty"),
            ("en_GB", "`_`"),
            ("en GB", "a space"),
            ("en\"><script>", "`\"`"),
            ("e", "2 or 3 letters"),
            ("12", "2 or 3 letters"),
            ("en--gb", "empty part"),
            ("en-", "empty part"),
            ("englishlanguage", "2 or 3 letters"),
            ("en-gb-x", "nothing after it"),
            ("en-u", "no part of 2 to 8"),
            ("en-gb-us", "`us` is not in a place"),
            ("en-a-b", "`a` has no part"),
            ("en-abc", "`abc` is not in a place"),
            ("en-a-bbb-a-ccc", "an extension twice"),
        ] {
            let found = problem(tag).unwrap_or_else(|| panic!("{tag} passed"));
            assert!(found.contains(why), "{tag}: {found}");
        }
    }
}
