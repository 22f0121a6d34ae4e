//! The dataset's citation in three formats: BibTeX, Citation File Format (`.cff`, YAML)
//! and RIS (`.ris`), each shown in the page's "Cite this dataset" block with a copy button
//! and a download the page's script makes from the text shown (a Blob), so a reference
//! manager gets its file without one more file per dataset; `citation_files =
//! true` (site.toml or the dataset's own) also writes the RIS and CFF files beside the
//! CSV, and the page then links those. Each text is made once. Every value is untrusted
//! text, made safe for its format here: one line, the format's special characters escaped
//! or quoted.

use crate::content::{Creator, CreatorKind};
use crate::dataset::Dataset;
use crate::site::Site;

/// The media type of the BibTeX text's download.
pub const BIBTEX_MEDIA_TYPE: &str = "application/x-bibtex";
/// The media type of the RIS text, as file and as download.
pub const RIS_MEDIA_TYPE: &str = "application/x-research-info-systems";
/// The media type of the CFF text.
pub const CFF_MEDIA_TYPE: &str = "application/yaml";

/// Whether the RIS and CFF citations of `dataset` are written as files: its own
/// `citation_files`, else site.toml's (off by default).
pub fn files_on(config: &crate::config::SiteConfig, dataset: &Dataset) -> bool {
    dataset
        .front
        .citation_files
        .unwrap_or(config.citation_files)
}

/// The three citation texts of one dataset, each shown on the page (CFF and RIS also as
/// files with `citation_files`).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Citations {
    pub bibtex: String,
    pub cff: String,
    pub ris: String,
}

/// What every format states, gathered once.
struct Facts {
    key: String,
    /// Whom the files credit, each value one line.
    creators: Vec<Creator>,
    title: String,
    publisher: String,
    /// `YYYY-MM-DD`, when the dataset has a date.
    date: Option<String>,
    version: Option<String>,
    url: String,
    abstract_text: String,
    keywords: Vec<String>,
    license_url: Option<String>,
    /// What the dataset is derived from: its `[[sources]]`.
    sources: Vec<SourceFacts>,
}

/// One source, as CFF `references` lists it.
struct SourceFacts {
    title: String,
    /// Its publisher, credited as its author (CFF wants one); "anonymous" without one.
    publisher: Option<String>,
    url: Option<String>,
}

fn facts(site: &Site, dataset: &Dataset) -> Facts {
    let date = super::updated(site, dataset);
    let year = date.as_deref().map(|d| &d[..d.len().min(4)]);
    Facts {
        key: match year {
            Some(year) => format!("{}-{year}", dataset.slug),
            None => dataset.slug.to_string(),
        },
        creators: super::credit::credited(site, dataset)
            .iter()
            .map(|c| Creator {
                name: one_line(&c.name),
                kind: c.kind,
                orcid: c.orcid.as_deref().map(one_line),
                url: c.url.as_deref().map(one_line),
                affiliation: c.affiliation.as_deref().map(one_line),
            })
            .collect(),
        title: one_line(&dataset.front.title),
        publisher: one_line(&site.config.publisher().name),
        date,
        version: dataset.front.version.as_deref().map(one_line),
        url: one_line(&super::page_url(site, dataset)),
        abstract_text: one_line(dataset.abstract_text()),
        keywords: dataset.front.tags.iter().map(|t| one_line(t)).collect(),
        license_url: dataset.license.url.as_deref().map(one_line),
        sources: dataset
            .front
            .sources
            .iter()
            .map(|source| SourceFacts {
                title: one_line(&source.title),
                publisher: source.publisher.as_deref().map(one_line),
                url: source.url.as_deref().map(one_line),
            })
            .collect(),
    }
}

/// The three texts for one dataset.
pub fn citations(site: &Site, dataset: &Dataset) -> Citations {
    let facts = facts(site, dataset);
    Citations {
        bibtex: bibtex(&facts),
        cff: cff(&facts),
        ris: ris(&facts),
    }
}

/// Collapses every run of whitespace (line breaks included) into one space and replaces
/// characters no text format may carry.
fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        let c = if crate::text::is_forbidden(c) || c.is_control() {
            if c.is_whitespace() {
                ' '
            } else {
                '\u{FFFD}'
            }
        } else {
            c
        };
        if c.is_whitespace() {
            // One space between words; none before the first or after the last.
            space = !out.is_empty();
        } else {
            if space {
                out.push(' ');
                space = false;
            }
            out.push(c);
        }
    }
    out
}

/// A BibTeX field value: the characters TeX treats specially are escaped, so nothing is
/// read as a command. BibTeX, biber and pybtex count braces without regard to
/// backslashes, so a brace is written `\{` or `\}` only where it pairs with another in
/// the text (the pair balances, and LaTeX prints both); a lone brace is
/// `\textbraceleft{}` or `\textbraceright{}`, which holds none that could close the field.
fn tex(text: &str) -> String {
    let lone = lone_braces(text);
    let mut out = String::with_capacity(text.len());
    for (at, c) in text.char_indices() {
        match c {
            '{' if lone.binary_search(&at).is_ok() => out.push_str("\\textbraceleft{}"),
            '}' if lone.binary_search(&at).is_ok() => out.push_str("\\textbraceright{}"),
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '%' | '&' | '$' | '#' | '_' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '@' => out.push_str("{@}"),
            _ => out.push(c),
        }
    }
    out
}

/// The byte offsets of the braces in `text` that pair with no other (a `}` before any
/// open `{`, a `{` never closed), in order.
fn lone_braces(text: &str) -> Vec<usize> {
    let (mut open, mut lone) = (Vec::new(), Vec::new());
    for (at, c) in text.char_indices() {
        match c {
            '{' => open.push(at),
            '}' if open.pop().is_none() => lone.push(at),
            _ => {}
        }
    }
    lone.extend(open);
    lone.sort_unstable();
    lone
}

/// A URL in BibTeX: only the characters that would unbalance the entry are escaped.
fn tex_url(url: &str) -> String {
    url.replace('\\', "%5C")
        .replace('{', "%7B")
        .replace('}', "%7D")
        .replace('%', "\\%")
}

fn bibtex(f: &Facts) -> String {
    let authors: Vec<String> = f.creators.iter().map(bibtex_name).collect();
    let mut fields: Vec<(&str, String)> = vec![
        ("author", authors.join(" and ")),
        ("title", format!("{{{}}}", tex(&f.title))),
    ];
    if let Some(date) = &f.date {
        fields.push(("year", date[..date.len().min(4)].to_string()));
        fields.push(("date", date.clone()));
    }
    if let Some(version) = &f.version {
        fields.push(("version", tex(version)));
    }
    fields.push(("publisher", tex(&f.publisher)));
    fields.push(("howpublished", format!("\\url{{{}}}", tex_url(&f.url))));
    fields.push(("url", tex_url(&f.url)));
    fields.push(("note", "Data set".to_string()));
    let mut out = format!("@misc{{{},\n", f.key);
    for (name, value) in fields {
        out.push_str(&format!("  {name} = {{{value}}},\n"));
    }
    out.push_str("}\n");
    out
}

/// One BibTeX name: a person as "Family, Given"; an organisation in braces, one name and
/// not "last, first". A lone "and" is braced so that it does not split the list, and so is
/// a comma inside the family or given name, which would start another part.
fn bibtex_name(creator: &Creator) -> String {
    match creator.kind {
        CreatorKind::Organization => format!("{{{}}}", tex(&creator.name)),
        CreatorKind::Person => {
            let parts = creator.person_name();
            let part = |text: &str| tex(text).replace(',', "{,}");
            let name = match parts.given {
                Some(given) => format!("{}, {}", part(parts.family), part(given)),
                None => part(parts.family),
            };
            let words: Vec<String> = name
                .split(' ')
                .map(|w| match w.eq_ignore_ascii_case("and") {
                    true => format!("{{{w}}}"),
                    false => w.to_string(),
                })
                .collect();
            words.join(" ")
        }
    }
}

/// A YAML double-quoted scalar: JSON string syntax, which YAML reads the same way.
fn yaml(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_string())
}

fn cff(f: &Facts) -> String {
    let mut out = String::from("cff-version: \"1.2.0\"\n");
    out.push_str("message: \"If you use this dataset, please cite it as below.\"\n");
    out.push_str("type: dataset\n");
    out.push_str(&format!("title: {}\n", yaml(&f.title)));
    out.push_str("authors:\n");
    for creator in &f.creators {
        out.push_str(&cff_author(creator, "  "));
    }
    if let Some(version) = &f.version {
        out.push_str(&format!("version: {}\n", yaml(version)));
    }
    if let Some(date) = &f.date {
        out.push_str(&format!("date-released: {}\n", yaml(date)));
    }
    out.push_str(&format!("url: {}\n", yaml(&f.url)));
    if let Some(license) = &f.license_url {
        out.push_str(&format!("license-url: {}\n", yaml(license)));
    }
    if !f.abstract_text.is_empty() {
        out.push_str(&format!("abstract: {}\n", yaml(&f.abstract_text)));
    }
    if !f.keywords.is_empty() {
        out.push_str("keywords:\n");
        for keyword in &f.keywords {
            out.push_str(&format!("  - {}\n", yaml(keyword)));
        }
    }
    if !f.sources.is_empty() {
        out.push_str("references:\n");
        for source in &f.sources {
            out.push_str("  - type: generic\n");
            out.push_str(&format!("    title: {}\n", yaml(&source.title)));
            let author = source.publisher.as_deref().unwrap_or("anonymous");
            out.push_str(&format!("    authors:\n      - name: {}\n", yaml(author)));
            if let Some(publisher) = &source.publisher {
                out.push_str(&format!(
                    "    publisher:\n      name: {}\n",
                    yaml(publisher)
                ));
            }
            if let Some(url) = &source.url {
                out.push_str(&format!("    url: {}\n", yaml(url)));
            }
        }
    }
    out
}

/// One CFF author, a list item at `indent`: a person (family and given names, ORCID as its
/// address, affiliation, website) or an entity (name, website).
fn cff_author(creator: &Creator, indent: &str) -> String {
    let mut fields: Vec<(&str, String)> = Vec::new();
    match creator.kind {
        CreatorKind::Organization => fields.push(("name", creator.name.clone())),
        CreatorKind::Person => {
            let parts = creator.person_name();
            fields.push(("family-names", parts.family.to_string()));
            if let Some(given) = parts.given {
                fields.push(("given-names", given.to_string()));
            }
            if let Some(orcid) = creator.orcid_url() {
                fields.push(("orcid", orcid));
            }
            if let Some(affiliation) = &creator.affiliation {
                fields.push(("affiliation", affiliation.clone()));
            }
        }
    }
    // CFF wants a URL (`website`); a mailto: address is an `email`.
    if let Some(url) = &creator.url {
        match url.strip_prefix("mailto:") {
            Some(email) => fields.push(("email", email.to_string())),
            None => fields.push(("website", url.clone())),
        }
    }
    let mut out = String::new();
    for (index, (key, value)) in fields.iter().enumerate() {
        let lead = if index == 0 { "- " } else { "  " };
        out.push_str(&format!("{indent}{lead}{key}: {}\n", yaml(value)));
    }
    out
}

fn ris(f: &Facts) -> String {
    let mut lines: Vec<(&str, String)> = vec![("TY", "DATA".to_string())];
    for creator in &f.creators {
        // RIS names read "Family, Given".
        let parts = creator.person_name();
        let name = match (creator.kind, parts.given) {
            (CreatorKind::Person, Some(given)) => format!("{}, {given}", parts.family),
            _ => creator.name.clone(),
        };
        lines.push(("AU", name));
    }
    lines.push(("TI", f.title.clone()));
    if let Some(date) = &f.date {
        lines.push(("PY", date[..date.len().min(4)].to_string()));
        lines.push(("DA", date.replace('-', "/")));
    }
    if let Some(version) = &f.version {
        lines.push(("ET", version.clone()));
    }
    lines.push(("PB", f.publisher.clone()));
    lines.push(("UR", f.url.clone()));
    if !f.abstract_text.is_empty() {
        lines.push(("AB", f.abstract_text.clone()));
    }
    for keyword in &f.keywords {
        lines.push(("KW", keyword.clone()));
    }
    let mut out = String::new();
    for (tag, value) in lines {
        out.push_str(&format!("{tag}  - {value}\r\n"));
    }
    out.push_str("ER  - \r\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The depth of braces as BibTeX, biber and pybtex count them (a backslash changes
    /// nothing): `None` when a `}` closes more than was opened.
    fn bibtex_depth(text: &str) -> Option<i64> {
        text.chars().try_fold(0i64, |depth, c| match c {
            '{' => Some(depth + 1),
            '}' => (depth > 0).then(|| depth - 1),
            _ => Some(depth),
        })
    }

    /// Every string of up to `length` characters from `alphabet`.
    fn strings(alphabet: &[char], length: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..length {
            last = last
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn tex_braces_balance_as_bibtex_counts_them() {
        let hostile = [
            "a}{b \\ 50% & $x #1 _ ~^ @",
            "Smith}, title = \"Injected title\", url = \"https://evil.example/\"",
            "}",
            "{",
            "\\}",
            "\\{",
            "}}{{",
        ];
        let short = strings(&['{', '}', '\\', 'a', ','], 6);
        for text in hostile
            .iter()
            .copied()
            .chain(short.iter().map(String::as_str))
        {
            let escaped = tex(text);
            assert_eq!(bibtex_depth(&escaped), Some(0), "{text:?} -> {escaped}");
        }
        // Braces that pair stay readable; lone ones are named.
        assert_eq!(tex("50% of {braces}"), "50\\% of \\{braces\\}");
        assert_eq!(tex("a}b{"), "a\\textbraceright{}b\\textbraceleft{}");
        assert_eq!(tex("}{"), "\\textbraceright{}\\textbraceleft{}");
        assert_eq!(tex("{{x}"), "\\textbraceleft{}\\{x\\}");
    }

    /// A creator named to close the author field and inject fields: the entry keeps its
    /// own fields, each value balanced, and nothing is closed early.
    #[test]
    fn a_hostile_name_stays_inside_the_author_field() {
        let name = "Smith}, title = \"Injected title\", url = \"https://evil.example/\"";
        let facts = Facts {
            key: "k-2026".into(),
            creators: [CreatorKind::Person, CreatorKind::Organization]
                .into_iter()
                .map(|kind| Creator {
                    name: name.into(),
                    kind,
                    orcid: None,
                    url: None,
                    affiliation: None,
                })
                .collect(),
            title: "A {title".into(),
            publisher: "P}".into(),
            date: Some("2026-01-02".into()),
            version: Some("1}".into()),
            url: "https://example.org/{x}".into(),
            abstract_text: String::new(),
            keywords: Vec::new(),
            license_url: None,
            sources: Vec::new(),
        };
        let entry = bibtex(&facts);
        let lines: Vec<&str> = entry.lines().collect();
        let names: Vec<&str> = lines[1..lines.len() - 1]
            .iter()
            .map(|line| line.trim_start().split(' ').next().unwrap_or_default())
            .collect();
        assert_eq!(
            names,
            [
                "author",
                "title",
                "year",
                "date",
                "version",
                "publisher",
                "howpublished",
                "url",
                "note"
            ],
            "{entry}"
        );
        for line in &lines[1..lines.len() - 1] {
            assert_eq!(bibtex_depth(line), Some(0), "{line}");
        }
        assert_eq!(bibtex_depth(&entry), Some(0), "{entry}");
        // The person's extra commas are braced: one name of two parts, not four.
        assert!(
            lines[1].contains("Smith\\textbraceright{}, title = \"Injected title\"{,} url"),
            "{entry}"
        );
    }

    #[test]
    fn values_are_one_line_without_control_characters() {
        assert_eq!(one_line("a\n b\tc\u{0}d\u{85}"), "a b c\u{FFFD}d");
        for text in [
            "",
            " ",
            "  a  ",
            "\u{85}x\u{2028}y\u{3000}",
            "a\u{0}\u{0} b",
            "x\r\n\r\ny ",
        ] {
            // The same as mapping each character, then joining the words with one space.
            let mapped: String = text
                .chars()
                .map(|c| match c {
                    c if crate::text::is_forbidden(c) || c.is_control() => {
                        if c.is_whitespace() {
                            ' '
                        } else {
                            '\u{FFFD}'
                        }
                    }
                    c => c,
                })
                .collect();
            let words: Vec<&str> = mapped.split_whitespace().collect();
            assert_eq!(one_line(text), words.join(" "), "{text:?}");
        }
    }

    #[test]
    fn urls_cannot_break_out_of_their_braces() {
        assert_eq!(tex_url("https://x/{a}%20"), "https://x/\\%7Ba\\%7D\\%20");
    }
}
