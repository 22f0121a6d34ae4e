//! The dataset's citation in three formats: BibTeX, shown in the page's "Cite this dataset"
//! block (copied from there into a `.bib` file in one click), and Citation File Format
//! (`.cff`, YAML) and RIS (`.ris`), written beside the CSV as the files reference managers
//! and repositories import, and linked from the block. Each text is written once. Every
//! value is untrusted text, made safe for its format here: one line, the format's special
//! characters escaped or quoted.

use crate::content::{Creator, CreatorKind};
use crate::dataset::Dataset;
use crate::site::Site;

/// The three citation texts of one dataset: BibTeX for the page, CFF and RIS for files.
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
            None => dataset.slug.clone(),
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
        abstract_text: one_line(&super::description(dataset)),
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

/// A BibTeX field value: the characters TeX treats specially are escaped, so braces
/// always balance and nothing is read as a command.
fn tex(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
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
/// not "last, first". A lone "and" is braced so that it does not split the list.
fn bibtex_name(creator: &Creator) -> String {
    match creator.kind {
        CreatorKind::Organization => format!("{{{}}}", tex(&creator.name)),
        CreatorKind::Person => {
            let parts = creator.person_name();
            let name = match parts.given {
                Some(given) => format!("{}, {given}", parts.family),
                None => parts.family.to_string(),
            };
            let words: Vec<String> = tex(&name)
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

    #[test]
    fn tex_escapes_keep_braces_balanced() {
        let escaped = tex("a}{b \\ 50% & $x #1 _ ~^ @");
        let depth = escaped.chars().fold((0i32, false), |(d, esc), c| match c {
            '\\' if !esc => (d, true),
            '{' if !esc => (d + 1, false),
            '}' if !esc => (d - 1, false),
            _ => (d, false),
        });
        assert_eq!(depth.0, 0, "{escaped}");
        assert!(escaped.contains("\\}\\{"), "{escaped}");
        assert!(escaped.contains("50\\%"), "{escaped}");
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
