//! Whether site.toml's `language` is a well-formed BCP 47 language tag (RFC 5646, section
//! 2.1: the syntax, not the registry), as the `lang` of every page, the `@language` of
//! CSVW and JSON-LD and the language of the RDF catalog need it to be.

/// The tags RFC 5646 keeps whole for compatibility (`grandfathered`), lowercase.
const GRANDFATHERED: [&str; 26] = [
    "en-gb-oed",
    "i-ami",
    "i-bnn",
    "i-default",
    "i-enochian",
    "i-hak",
    "i-klingon",
    "i-lux",
    "i-mingo",
    "i-navajo",
    "i-pwn",
    "i-tao",
    "i-tay",
    "i-tsu",
    "sgn-be-fr",
    "sgn-be-nl",
    "sgn-ch-de",
    "art-lojban",
    "cel-gaulish",
    "no-bok",
    "no-nyn",
    "zh-guoyu",
    "zh-hakka",
    "zh-min",
    "zh-min-nan",
    "zh-xiang",
];

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
    let lower = tag.to_ascii_lowercase();
    if GRANDFATHERED.contains(&lower.as_str()) {
        return None;
    }
    let subtags: Vec<&str> = lower.split('-').collect();
    if subtags.iter().any(|s| s.is_empty()) {
        return Some("it has an empty part (two hyphens in a row, or one at an end)".into());
    }
    if let Some(long) = subtags.iter().find(|s| s.len() > 8) {
        return Some(format!("its part `{long}` is longer than 8 characters"));
    }
    if subtags[0] == "x" {
        return private_use(&subtags[1..]);
    }
    langtag(&subtags)
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

fn alpha(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_alphabetic())
}

fn digits(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit())
}

/// `langtag = language ["-" script] ["-" region] *("-" variant) *("-" extension)
/// ["-" privateuse]`, subtags lowercase, none empty or over 8 characters.
fn langtag(subtags: &[&str]) -> Option<String> {
    let language = subtags[0];
    if !alpha(language) || language.len() < 2 {
        return Some(format!(
            "it starts with `{language}`, but the language is 2 or 3 letters (`en`, `deu`), or 4 to 8"
        ));
    }
    let mut rest = &subtags[1..];
    // extlang: up to three 3-letter subtags, after a 2- or 3-letter language only.
    if language.len() <= 3 {
        let mut extlangs = 0;
        while extlangs < 3 && rest.first().is_some_and(|s| s.len() == 3 && alpha(s)) {
            rest = &rest[1..];
            extlangs += 1;
        }
    }
    if rest.first().is_some_and(|s| s.len() == 4 && alpha(s)) {
        rest = &rest[1..]; // script: `Latn`
    }
    let region = |s: &str| (s.len() == 2 && alpha(s)) || (s.len() == 3 && digits(s));
    if rest.first().is_some_and(|s| region(s)) {
        rest = &rest[1..]; // region: `GB`, `419`
    }
    let variant =
        |s: &str| (5..=8).contains(&s.len()) || (s.len() == 4 && s.as_bytes()[0].is_ascii_digit());
    while rest.first().is_some_and(|s| variant(s)) {
        rest = &rest[1..];
    }
    while let Some(singleton) = rest.first().filter(|s| s.len() == 1 && **s != "x") {
        let parts = rest[1..]
            .iter()
            .take_while(|s| (2..=8).contains(&s.len()))
            .count();
        if parts == 0 {
            return Some(format!(
                "its extension `{singleton}` has no part of 2 to 8 characters after it"
            ));
        }
        rest = &rest[1 + parts..];
    }
    match rest.first() {
        None => None,
        Some(&"x") => private_use(&rest[1..]),
        Some(part) => Some(format!(
            "its part `{part}` is not in a place a tag allows (language, then script, region, variants, extensions)"
        )),
    }
}

/// `privateuse = "x" 1*("-" (1*8alphanum))`, after the `x`.
fn private_use(parts: &[&str]) -> Option<String> {
    parts
        .is_empty()
        .then(|| "its private-use part `x` has nothing after it".into())
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
            "zh-yue-HK",
            "de-CH-1901",
            "sl-rozaj-biske",
            "en-US-u-islamcal",
            "en-a-bbb-x-a-ccc",
            "x-whatever",
            "qaa-Qaaa-QM-x-southern",
            "i-klingon",
            "en-GB-oed",
            "tlh",
            "abcdefgh",
        ] {
            assert_eq!(problem(tag), None, "{tag}");
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
            ("englishlanguage", "longer than 8"),
            ("en-gb-x", "nothing after it"),
            ("en-u", "no part of 2 to 8"),
            ("en-gb-us", "`us` is not in a place"),
            ("en-a-b", "`a` has no part"),
            ("abcde-abc", "`abc` is not in a place"),
        ] {
            let found = problem(tag).unwrap_or_else(|| panic!("{tag} passed"));
            assert!(found.contains(why), "{tag}: {found}");
        }
    }
}
