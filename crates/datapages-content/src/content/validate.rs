//! Checks on what authors write that go beyond its types: characters HTML and XML cannot
//! carry, link schemes, `temporal_coverage`, and names longer than file systems hold.
//! Each problem points at the character or value at fault, in the file the author edits.
//!
//! Positions come from the parser: the values are read with their places from the TOML's
//! span index (`super::spans`), read from the same parse as the typed values.

use std::ops::Range;
use std::path::Path;

use super::iso8601;
use super::markdown::{dangerous_links, slugify};
use super::spans::{error_at, Locator};
use super::toml_escapes::forbidden_escapes;
use crate::diagnostics::{Diagnostic, Severity};
use crate::text::{describe_char, forbidden_chars, link_url_problem, web_url_problem};

/// Longest dataset slug or tag slug, in bytes: file names are made of them plus a suffix
/// (`<slug>.csv-metadata.json`, `<slug>-<chart>.svg`), and file systems hold 255.
pub const MAX_NAME_BYTES: usize = 200;

/// Longest file name most file systems hold, in bytes.
const FILE_NAME_BYTES: usize = 255;

/// Forbidden characters reported one by one per file region; the rest are counted.
const CHARACTERS_SHOWN: usize = 5;

/// The part of a file a character was found in, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Region {
    FrontMatter,
    Markdown,
    SiteToml,
}

impl Region {
    fn name(self) -> &'static str {
        match self {
            Region::FrontMatter => "the front matter",
            Region::Markdown => "the Markdown",
            Region::SiteToml => "site.toml",
        }
    }
}

/// Every character of `text[range]` that HTML and XML cannot carry, each located.
pub fn forbidden_characters(
    file: &Path,
    text: &str,
    range: Range<usize>,
    region: Region,
) -> Vec<Diagnostic> {
    let Some(part) = text.get(range.clone()) else {
        return Vec::new();
    };
    let found: Vec<(usize, char)> = forbidden_chars(part).collect();
    let nuls = found.iter().filter(|(_, c)| *c == '\0').count();
    let hint = if nuls >= 10 {
        "the file looks like UTF-16: save it as UTF-8"
    } else {
        "delete it: most editors do not show it (it often comes with text pasted from another program)"
    };
    let mut problems: Vec<Diagnostic> = found
        .iter()
        .take(CHARACTERS_SHOWN)
        .map(|(offset, c)| {
            let message = format!(
                "{} holds {}, a character HTML and XML cannot carry",
                region.name(),
                describe_char(*c)
            );
            error_at(file, text, range.start + offset, message).with_hint(hint)
        })
        .collect();
    if found.len() > CHARACTERS_SHOWN {
        problems.push(Diagnostic::error(
            file,
            format!(
                "{} more such characters in {} not shown",
                found.len() - CHARACTERS_SHOWN,
                region.name()
            ),
        ));
    }
    problems
}

/// Escapes in TOML strings (`\u0000`, `\b`, `\f`) that stand for characters HTML and XML
/// cannot carry. `toml_text` starts at byte `toml_offset` of `whole_text`.
pub fn toml_escapes(
    file: &Path,
    whole_text: &str,
    toml_text: &str,
    toml_offset: usize,
) -> Vec<Diagnostic> {
    forbidden_escapes(toml_text)
        .into_iter()
        .map(|(at, length, c)| {
            let escape = &toml_text[at..at + length];
            let message = format!(
                "the escape `{escape}` stands for {}, a character HTML and XML cannot carry",
                describe_char(c)
            );
            error_at(file, whole_text, toml_offset + at, message)
                .with_hint("remove it from the string")
        })
        .collect()
}

/// Locates problems with the values of a TOML text, by their spans.
struct Located<'a> {
    locator: &'a Locator<'a>,
    problems: Vec<Diagnostic>,
}

impl Located<'_> {
    /// A URL published as a link: http, https or mailto.
    fn link_url(&mut self, path: &str, what: &str) {
        let Some((url, at)) = self.locator.spans.string(path) else {
            return;
        };
        if let Some(problem) = link_url_problem(url) {
            let d = self.locator.error(
                format!("{what} cannot be published as a link: {problem}"),
                Some(at),
            );
            self.problems.push(
                d.with_hint("write an address that starts with https://, http:// or mailto:"),
            );
        }
    }

    /// `data_url` (site.toml's or a dataset's): where big files are published.
    fn data_url(&mut self) {
        let Some((data_url, at)) = self.locator.spans.string("data_url") else {
            return;
        };
        if let Some((problem, hint)) = super::site_values::data_url_problem(data_url) {
            let d = self.locator.error(problem, Some(at));
            self.problems.push(d.with_hint(hint));
        }
    }

    /// Markdown in a string value: its links must not run code.
    fn markdown_links(&mut self, path: &str, what: &str) {
        let Some((markdown, at)) = self.locator.spans.string(path) else {
            return;
        };
        if let Some(link) = dangerous_links(markdown).first() {
            let scheme = &link.scheme;
            let (verb, hint) = if link.image {
                ("shows an image from", IMAGE_HINT)
            } else {
                ("links to", LINK_HINT)
            };
            let d = self.locator.error(
                format!("{what} {verb} a `{scheme}:` address, which pages never publish"),
                Some(at),
            );
            self.problems.push(d.with_hint(hint));
        }
    }
}

const LINK_HINT: &str = "link to an https:// address or to a page of the site";

const IMAGE_HINT: &str = "show an image file of the site (static/) or one at an https:// address";

/// A text a reader meets first (listings, the feed, search results and the browser tab
/// show it whole or cut it), with the length in characters past which it stops being read
/// at a glance.
struct Glance {
    key: &'static str,
    limit: usize,
    text: fn(&super::DatasetFrontMatter) -> &str,
    why: &'static str,
    hint: &'static str,
}

const GLANCES: [Glance; 3] = [
    Glance {
        key: "title",
        limit: 120,
        text: |front| &front.title,
        why: "the browser tab, listings and search results cut it",
        hint: "shorten the title; the kicker and the headline carry the rest",
    },
    Glance {
        key: "kicker",
        limit: 160,
        text: |front| &front.kicker,
        why: "a kicker is one line of context above the headline",
        hint: "keep the kicker to a few words; move the rest into the lede",
    },
    Glance {
        key: "headline",
        limit: 280,
        text: |front| &front.headline,
        why: "listings, the feed and search results show it whole",
        hint: "state one finding; move the detail into the lede",
    },
];

/// Warnings for a title, kicker or headline longer than its `GLANCES` limit, measured as
/// readers see them (quoted figures in place: call this once they are), at the value.
pub fn glance_lengths(locator: &Locator, front: &super::DatasetFrontMatter) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    for glance in &GLANCES {
        let (key, limit) = (glance.key, glance.limit);
        let chars = (glance.text)(front).chars().count();
        if chars > limit {
            let message = format!(
                "the {key} is {chars} characters (at most {limit} read at a glance): {}",
                glance.why
            );
            let d = locator.error(message, locator.value(key));
            problems.push(d.with_severity(Severity::Warning).with_hint(glance.hint));
        }
    }
    problems
}

/// The checks of a dataset's front matter (`toml_text` at `toml_offset` in the file),
/// beyond what the types check; `slug` names its chart files (the slug's own rules are
/// `dataset::slug_problem`). Values and places come from `locator`.
pub fn dataset_front_matter(
    locator: &Locator,
    toml_text: &str,
    toml_offset: usize,
    slug: &str,
) -> Vec<Diagnostic> {
    let file = locator.file;
    let mut located = Located {
        locator,
        problems: toml_escapes(file, locator.text, toml_text, toml_offset),
    };
    let spans = &locator.spans;
    if let Some((coverage, at)) = spans.string("temporal_coverage") {
        if let Some(problem) = iso8601::coverage_problem(coverage) {
            let d = locator.error(
                format!("`temporal_coverage` is not an ISO 8601 date or interval: {problem}"),
                Some(at),
            );
            located.problems.push(d.with_hint(
                "write a date (2021, 2021-05, 2021-05-21), a date-time (2021-05-21T10:00:00Z) or an interval of them (2021-05-21/2021-06-30, `..` for an open end)",
            ));
        }
    }
    located.data_url();
    for tag in spans.entries("tags") {
        let Some((tag, at)) = spans.string(&tag) else {
            continue;
        };
        let bytes = slugify(tag).len();
        if bytes > MAX_NAME_BYTES {
            let d = locator.error(
                format!("the tag's page name would be {bytes} bytes long; at most {MAX_NAME_BYTES} fit a file name"),
                Some(at),
            );
            located.problems.push(d.with_hint("shorten the tag"));
        }
    }
    located.link_url("license.url", "the license `url`");
    located.markdown_links("license.text", "the license `text`");
    for source in spans.entries("sources") {
        let what = match spans.string(&format!("{source}.id")) {
            Some((id, _)) => format!("the `url` of source `{id}`"),
            None => "a source `url`".to_string(),
        };
        located.link_url(&format!("{source}.url"), &what);
    }
    for creator in spans.entries("creators") {
        located.link_url(&format!("{creator}.url"), "a creator's `url`");
    }
    located.problems.extend(super::creators::problems(locator));
    for theme in spans.entries("themes") {
        let Some((iri, at)) = spans.string(&format!("{theme}.iri")) else {
            continue;
        };
        if let Some(problem) = web_url_problem(iri) {
            let d = located.locator.error(
                format!("a theme's `iri` must be the http(s) address of a concept: {problem}"),
                Some(at),
            );
            located.problems.push(d.with_hint(
                "name a concept of a theme vocabulary, e.g. \"http://publications.europa.eu/resource/authority/data-theme/TECH\"",
            ));
        }
    }
    located.markdown_links("table_note", "`table_note`");
    for key in spans.entries("foreign_keys") {
        located.markdown_links(&format!("{key}.misses.reason"), "a foreign key's `reason`");
    }
    for chart in spans.entries("charts") {
        located.markdown_links(&format!("{chart}.caption"), "a chart `caption`");
        let given_id = spans.string(&format!("{chart}.id"));
        let Some((named, at)) = given_id.or_else(|| spans.string(&format!("{chart}.title"))) else {
            continue;
        };
        let id = match given_id {
            Some((id, _)) => id.to_string(),
            None => slugify(named),
        };
        let file_name = format!("{slug}-{id}.svg");
        if file_name.len() > FILE_NAME_BYTES && slug.len() <= MAX_NAME_BYTES {
            let d = locator.error(
                format!(
                    "chart `{id}` would be written to a file name of {} bytes; file systems hold {FILE_NAME_BYTES}",
                    file_name.len()
                ),
                Some(at),
            );
            located
                .problems
                .push(d.with_hint("give the chart a shorter `id`"));
        }
    }
    located.problems
}

/// The checks of `site.toml` beyond its types: escapes, `base_url`, `language`, and the
/// URLs of the author, the publisher and the default license.
/// `locator` holds the whole file and its spans, read with its values.
pub fn site_settings_located(locator: &Locator) -> Vec<Diagnostic> {
    let (file, text) = (locator.file, locator.text);
    let mut located = Located {
        locator,
        problems: toml_escapes(file, text, text, 0),
    };
    if let Some((base_url, at)) = locator.spans.string("base_url") {
        if let Some((problem, hint)) = super::site_values::base_url_problem(base_url) {
            let d = locator.error(problem, Some(at));
            located.problems.push(d.with_hint(hint));
        }
    }
    located.data_url();
    if let Some((language, at)) = locator.spans.string("language") {
        if let Some(problem) = super::language_tag::problem(language) {
            let message = format!("`language` is not a language tag: {problem}");
            let d = locator.error(message, Some(at));
            located
                .problems
                .push(d.with_hint(super::site_values::LANGUAGE_HINT));
        }
    }
    located.link_url("author.url", "the author's `url`");
    located.link_url("publisher.url", "the publisher's `url`");
    located.link_url("license.url", "the license `url`");
    located.markdown_links("license.text", "the license `text`");
    located.problems
}

/// Links and images in a Markdown body (at `body_offset` in `whole_text`) that would run
/// code.
pub fn markdown_body_links(
    file: &Path,
    whole_text: &str,
    body: &str,
    body_offset: usize,
) -> Vec<Diagnostic> {
    dangerous_links(body)
        .into_iter()
        .map(|link| {
            let (what, hint) = if link.image {
                ("the image comes from", IMAGE_HINT)
            } else {
                ("the link goes to", LINK_HINT)
            };
            let scheme = &link.scheme;
            let message = format!("{what} a `{scheme}:` address, which pages never publish");
            error_at(file, whole_text, body_offset + link.at, message).with_hint(hint)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::spans::Spans;

    fn file() -> &'static Path {
        Path::new("a.md")
    }

    fn site_settings(file: &Path, text: &str) -> Vec<Diagnostic> {
        site_settings_located(&Locator {
            file,
            text,
            spans: Spans::parse(text, 0),
        })
    }

    #[test]
    fn forbidden_characters_are_located_exactly() {
        let text = "+++\ntitle = \"a\u{1b}b\"\n+++\nbody é\u{0}\n";
        let found = forbidden_characters(file(), text, 0..text.len(), Region::FrontMatter);
        let places: Vec<(Option<u32>, Option<u32>)> =
            found.iter().map(|d| (d.line, d.column)).collect();
        assert_eq!(places, [(Some(2), Some(11)), (Some(4), Some(7))]);
        assert_eq!(
            found[0].message,
            "the front matter holds U+001B (ESC), a character HTML and XML cannot carry"
        );
    }

    #[test]
    fn many_characters_are_counted_and_utf16_is_named() {
        let text = "\u{0}a".repeat(30);
        let found = forbidden_characters(file(), &text, 0..text.len(), Region::Markdown);
        assert_eq!(found.len(), CHARACTERS_SHOWN + 1);
        assert!(found[0].hint.as_deref().unwrap().contains("UTF-16"));
        assert!(found[CHARACTERS_SHOWN].message.starts_with("25 more"));
    }

    fn front_problems(toml: &str, slug: &str) -> Vec<Diagnostic> {
        let text = format!("+++\n{toml}+++\nBody\n");
        let toml_text = &text[4..4 + toml.len()];
        let locator = Locator {
            file: file(),
            text: &text,
            spans: Spans::parse(toml_text, 4),
        };
        dataset_front_matter(&locator, toml_text, 4, slug)
    }

    #[test]
    fn front_matter_values_are_checked_where_they_are() {
        let problems = front_problems(
            "title = \"t\"\ntemporal_coverage = \"2021-13\"\n[license]\nname = \"x\"\nurl = \"javascript:alert(1)\"\n[[sources]]\nid = \"a\"\nurl = \" JAVASCRIPT:x\"\n[[sources]]\nid = \"b\"\nurl = \"https://example.org/\"\n",
            "sample",
        );
        let summary: Vec<(Option<u32>, &str)> =
            problems.iter().map(|d| (d.line, &*d.message)).collect();
        assert_eq!(summary.len(), 3, "{summary:?}");
        assert_eq!(summary[0].0, Some(3));
        assert!(summary[0].1.contains("`2021-13` is not a date"));
        assert_eq!(summary[1].0, Some(6));
        assert!(summary[1]
            .1
            .starts_with("the license `url` cannot be published as a link"));
        assert_eq!(summary[2].0, Some(9));
        assert!(summary[2].1.starts_with("the `url` of source `a`"));
        assert_eq!(problems[0].column, Some(21));
    }

    /// Each text past its limit warns at its value; at the limit it does not. Characters,
    /// not bytes, are counted.
    #[test]
    fn texts_read_at_a_glance_warn_when_long() {
        let glance = |title: &str, kicker: &str, headline: &str| {
            let toml = format!(
                "title = \"{title}\"\nkicker = \"{kicker}\"\nheadline = \"{headline}\"\ncolumns = []\n"
            );
            let text = format!("+++\n{toml}+++\nBody\n");
            let locator = Locator {
                file: file(),
                text: &text,
                spans: Spans::parse(&text[4..4 + toml.len()], 4),
            };
            let front: crate::content::DatasetFrontMatter = toml::from_str(&toml).unwrap();
            glance_lengths(&locator, &front)
                .into_iter()
                .map(|d| (d.line, d.column, d.severity, d.message))
                .collect::<Vec<_>>()
        };
        let at_limit = glance(&"é".repeat(120), &"k".repeat(160), &"h".repeat(280));
        assert!(at_limit.is_empty(), "{at_limit:?}");
        let over = glance(&"é".repeat(121), &"k".repeat(161), &"h".repeat(281));
        let places: Vec<_> = over.iter().map(|(l, c, s, _)| (*l, *c, *s)).collect();
        let warning = crate::diagnostics::Severity::Warning;
        assert_eq!(
            places,
            [
                (Some(2), Some(9), warning),
                (Some(3), Some(10), warning),
                (Some(4), Some(12), warning)
            ]
        );
        assert!(over[0]
            .3
            .starts_with("the title is 121 characters (at most 120"));
        assert!(over[2].3.starts_with("the headline is 281 characters"));
    }

    #[test]
    fn long_names_are_refused() {
        let long_tag = "t".repeat(MAX_NAME_BYTES + 1);
        let problems = front_problems(&format!("tags = [\"ok\", \"{long_tag}\"]\n"), "sample");
        assert_eq!(problems.len(), 1);
        assert_eq!((problems[0].line, problems[0].column), (Some(2), Some(15)));
        let problems = front_problems(
            &format!("[[charts]]\ntitle = \"{}\"\n", "c ".repeat(40)),
            &"s".repeat(MAX_NAME_BYTES),
        );
        assert!(problems[0].message.contains("file name of"), "{problems:?}");
        assert!(front_problems(
            &format!("tags = [\"{}\"]\n", "t".repeat(MAX_NAME_BYTES)),
            "s"
        )
        .is_empty());
    }

    #[test]
    fn markdown_in_values_and_bodies_may_not_link_to_code() {
        let problems = front_problems(
            "table_note = \"See [x](javascript:alert(1)).\"\n[[charts]]\ntitle = \"c\"\ncaption = \"[y](https://ok.example/)\"\n",
            "s",
        );
        assert_eq!(problems.len(), 1);
        assert!(problems[0]
            .message
            .starts_with("`table_note` links to a `javascript:` address"));
        let text = "+++\n+++\nLede [a](#x) and [b](data:text/html,x).\n";
        let problems = markdown_body_links(file(), text, &text[8..], 8);
        assert_eq!((problems[0].line, problems[0].column), (Some(3), Some(18)));
    }

    #[test]
    fn site_urls_are_checked() {
        let text = "title = \"t\"\nbase_url = \"example.org\"\n[author]\nname = \"a\"\nurl = \"ftp://x\"\n[publisher]\nname = \"p\"\nurl = \"mailto:p@example.org\"\n";
        let problems = site_settings(Path::new("site.toml"), text);
        let lines: Vec<Option<u32>> = problems.iter().map(|d| d.line).collect();
        assert_eq!(lines, [Some(2), Some(5)], "{problems:?}");
        for bad in ["", "javascript:alert(1)", "ftp://x", "https://x.org/?a=1"] {
            let text = format!("base_url = \"{bad}\"\n");
            assert_eq!(
                site_settings(Path::new("site.toml"), &text).len(),
                1,
                "{bad}"
            );
        }
        assert!(
            site_settings(Path::new("site.toml"), "base_url = \"https://x.org/sub\"\n").is_empty()
        );
    }

    #[test]
    fn base_url_credentials_and_language_are_located() {
        let check = |text: &str| site_settings(Path::new("site.toml"), text);
        let problems = check("title = \"t\"\nbase_url = \"https://u:p@x.org/\"\n");
        assert_eq!((problems[0].line, problems[0].column), (Some(2), Some(12)));
        assert!(problems[0]
            .hint
            .as_deref()
            .unwrap()
            .contains("remove the `user:pass@`"));
        let problems = check("title = \"t\"\nlanguage = \"en\\\"><x\"\n");
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!((problems[0].line, problems[0].column), (Some(2), Some(12)));
        assert!(problems[0]
            .message
            .starts_with("`language` is not a language tag"));
        assert!(problems[0].hint.as_deref().unwrap().contains("en-GB"));
        assert!(check("language = \"sr-Latn-RS\"\n").is_empty());
    }
}
