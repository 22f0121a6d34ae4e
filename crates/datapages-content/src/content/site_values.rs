//! The values of site.toml that say where and in what language a site is published:
//! `base_url` (an http(s) address with a host, no query, no credentials, a real port) and
//! `language` (a BCP 47 tag, checked by `language_tag`). `check` locates their problems;
//! `--base-url` is held to the same rules.

use crate::text::web_url_problem;

/// How a good `base_url` looks.
pub const BASE_URL_HINT: &str =
    "write where the site is published, e.g. base_url = \"https://example.org/data/\"";

/// Why `base_url` (from site.toml or `--base-url`) cannot be where a site is published,
/// and what to do ([`BASE_URL_HINT`] unless a part of it needs its own words).
pub fn base_url_problem(base_url: &str) -> Option<(String, &'static str)> {
    let (problem, hint) = match web_url_problem(base_url) {
        Some(problem) => (problem, BASE_URL_HINT),
        None if base_url.contains(['?', '#']) => (
            "it has a query or fragment, which page addresses cannot follow".into(),
            BASE_URL_HINT,
        ),
        None => authority_problem(base_url)?,
    };
    Some((
        format!("`base_url` must be an absolute http(s) address with a host: {problem}"),
        hint,
    ))
}

/// How a good `data_url` looks.
pub const DATA_URL_HINT: &str = "write where the big files are published, e.g. data_url = \"https://data.example.org/\" (a bucket or CDN address)";

/// Why `data_url` cannot be where the big files are published: the rules of `base_url`,
/// and no character that would need quoting in a URL (`"`, `'`, `<`, `>`, `\\`, a
/// backtick, braces), since snippets in several languages embed it.
pub fn data_url_problem(data_url: &str) -> Option<(String, &'static str)> {
    let unsafe_character = |c: char| {
        matches!(
            c,
            '"' | '\'' | '<' | '>' | '\\' | '`' | '{' | '}' | '|' | '^' | '$'
        )
    };
    let (problem, hint) = match web_url_problem(data_url) {
        Some(problem) => (problem, DATA_URL_HINT),
        None if data_url.contains(['?', '#']) => (
            "it has a query or fragment, which file addresses cannot follow".into(),
            DATA_URL_HINT,
        ),
        None if data_url.contains(unsafe_character) => (
            "it holds a character that is not allowed unescaped in a URL (one of \" ' < > \\ ` { } | ^ $)".into(),
            "percent-encode the character (e.g. %22 for \"), or choose a path without it",
        ),
        None => authority_problem(data_url)?,
    };
    Some((
        format!("`data_url` must be an absolute http(s) address with a host: {problem}"),
        hint,
    ))
}

/// A user name or password, or a port that is not one, in an address that is otherwise a
/// web address: each would be published in every page's metadata.
fn authority_problem(url: &str) -> Option<(String, &'static str)> {
    let (_, rest) = url.split_once("//")?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.contains('@') {
        return Some((
            "it holds a user name or password (`user:pass@`), which every page's metadata would publish".into(),
            "remove the `user:pass@` part, e.g. base_url = \"https://example.org/data/\": a published address carries no credentials",
        ));
    }
    let port = match authority.strip_prefix('[') {
        Some(bracketed) => bracketed.split_once(']')?.1.strip_prefix(':'),
        None => authority.split_once(':').map(|(_, port)| port),
    };
    let port = port.filter(|p| !p.is_empty())?;
    let valid = port.bytes().all(|b| b.is_ascii_digit())
        && port.parse::<u32>().is_ok_and(|n| (1..=65_535).contains(&n));
    (!valid).then(|| {
        (
            format!("its port `{}` is not a port number from 1 to 65535", crate::text::quoted_in_message(port)),
            "write a port from 1 to 65535 (e.g. base_url = \"https://example.org:8443/\"), or none for the scheme's own",
        )
    })
}

/// How a good `language` looks.
pub const LANGUAGE_HINT: &str = "write a BCP 47 language tag (RFC 5646): the language's 2- or 3-letter code, then optionally script and region, e.g. \"en\", \"en-GB\", \"pt-BR\", \"sr-Latn-RS\"";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_and_ports_are_refused_with_their_own_hint() {
        for (bad, why, hint) in [
            (
                "https://user:pass@x.org/",
                "user name or password",
                "remove the",
            ),
            (
                "https://token@x.org/",
                "user name or password",
                "remove the",
            ),
            ("https://x.org:99999/", "port `99999`", "from 1 to 65535"),
            ("https://x.org:0/", "port `0`", "from 1 to 65535"),
            ("https://x.org:8a/", "port `8a`", "from 1 to 65535"),
            ("https://[::1]:70000/", "port `70000`", "from 1 to 65535"),
        ] {
            let (message, given) = base_url_problem(bad).unwrap_or_else(|| panic!("{bad}"));
            assert!(message.contains(why), "{bad}: {message}");
            assert!(given.contains(hint), "{bad}: {given}");
        }
        for good in [
            "https://x.org:8443/d/",
            "http://[::1]:1111/",
            "https://x.org:/",
        ] {
            assert_eq!(base_url_problem(good), None, "{good}");
        }
        let (_, hint) = base_url_problem("ftp://x.org/").unwrap();
        assert_eq!(hint, BASE_URL_HINT);
    }
}
