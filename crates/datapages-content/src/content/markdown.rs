//! Markdown bodies: rendered with pulldown-cmark and cut into the lede, the intro and
//! the author's `## ` sections, so templates can place each part where the page needs it.

use std::borrow::Cow;
use std::collections::HashSet;
use std::ops::Range;

use pulldown_cmark::{html, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// Ids the generated parts of a dataset page use; author headings never take them.
pub const RESERVED_IDS: &[&str] = &[
    "top", "main", "contents", "download", "charts", "table", "columns", "license", "sources",
    "lede",
];

/// A Markdown body cut into the parts a page places separately.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Body {
    /// The first paragraph, as HTML (without the `<p>`), shown under the headline.
    pub lede_html: String,
    /// The first paragraph as plain text, for descriptions in metadata.
    pub lede_text: String,
    /// Any other blocks before the first `## ` heading.
    pub intro_html: String,
    /// The `## ` sections, in the author's order.
    pub sections: Vec<Section>,
    /// Every link destination in the body, for checks (source anchors, relative links).
    pub links: Vec<String>,
    /// Where each of `links` starts in the Markdown (its `[`), for located errors.
    #[serde(skip)]
    pub link_offsets: Vec<usize>,
    /// The ids of the body's headings below `## ` (explicit `{#id}` ones included); the
    /// sections' ids are in `sections`.
    #[serde(skip)]
    pub heading_ids: Vec<String>,
}

/// One `## ` section of the body.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Section {
    /// Stable anchor id derived from the heading text.
    pub id: String,
    /// The heading as plain text.
    pub title: String,
    /// The section's content as HTML, without its heading.
    pub html: String,
    /// 1-based line of the heading in the Markdown body.
    pub line: usize,
    /// The section's first paragraph as plain text, for summaries in metadata.
    pub summary_text: String,
}

impl Body {
    /// The section whose heading is `title` (ignoring case), if any.
    pub fn section(&self, title: &str) -> Option<&Section> {
        self.sections
            .iter()
            .find(|s| s.title.eq_ignore_ascii_case(title))
    }
}

/// What happens to HTML written in Markdown (`[markdown] raw_html` in site.toml).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RawHtml {
    /// Passed through as written: authors are trusted, as in CommonMark.
    #[default]
    Keep,
    /// Shown as text, for sites that publish prose from people they do not trust.
    Escape,
}

/// The Markdown extensions every reader of the prose uses.
pub fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_STRIKETHROUGH
}

/// The events of `markdown` as every renderer here reads them: raw HTML escaped when the
/// site asks for it, and characters HTML cannot carry replaced (pulldown-cmark's own
/// escaping lets them through).
fn events(markdown: &str, raw_html: RawHtml) -> impl Iterator<Item = (Event<'_>, Range<usize>)> {
    Parser::new_ext(markdown, options())
        .into_offset_iter()
        .map(move |(event, range)| {
            let event = match event {
                Event::Html(html) | Event::InlineHtml(html) if raw_html == RawHtml::Escape => {
                    Event::Text(html)
                }
                Event::Text(text) => Event::Text(safe_text(text)),
                Event::Code(text) => Event::Code(safe_text(text)),
                Event::Html(html) => Event::Html(safe_text(html)),
                Event::InlineHtml(html) => Event::InlineHtml(safe_text(html)),
                other => other,
            };
            (event, range)
        })
}

fn safe_text(text: CowStr<'_>) -> CowStr<'_> {
    match crate::text::replace_forbidden(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(replaced) => CowStr::from(replaced),
    }
}

/// Renders Markdown to HTML in one piece (plain pages, notes, license text).
pub fn to_html(markdown: &str, raw_html: RawHtml) -> String {
    let mut ids = IdAllocator::new(&[]);
    let events: Vec<Event> = events(markdown, raw_html).map(|(e, _)| e).collect();
    let mut out = String::new();
    html::push_html(&mut out, assign_heading_ids(events, &mut ids).into_iter());
    out
}

/// Renders inline Markdown (one paragraph) without the surrounding `<p>`.
pub fn to_inline_html(markdown: &str, raw_html: RawHtml) -> String {
    let rendered = to_html(markdown, raw_html);
    strip_paragraph(rendered.trim()).to_string()
}

/// A link or an image of the Markdown whose address runs code or reads the reader's files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DangerousLink {
    /// Byte offset of the link or image in the Markdown.
    pub at: usize,
    /// Its scheme, lowercase: `javascript`.
    pub scheme: String,
    /// An image (`![alt](…)`) rather than a link.
    pub image: bool,
}

/// The links and images of `markdown` whose scheme runs code or reads the reader's files
/// (`javascript:`, `vbscript:`, `data:`, `file:`; an image may be a `data:image/…`).
pub fn dangerous_links(markdown: &str) -> Vec<DangerousLink> {
    Parser::new_ext(markdown, options())
        .into_offset_iter()
        .filter_map(|(event, range)| {
            let (url, image) = match &event {
                Event::Start(Tag::Link { dest_url, .. }) => (dest_url, false),
                Event::Start(Tag::Image { dest_url, .. }) => (dest_url, true),
                _ => return None,
            };
            let scheme = crate::text::url_scheme(url)
                .filter(|scheme| crate::text::is_dangerous_scheme(scheme))?;
            let inline_image = image && scheme == "data" && is_image_data(url);
            (!inline_image).then_some(DangerousLink {
                at: range.start,
                scheme,
                image,
            })
        })
        .collect()
}

/// Whether a `data:` address holds an image (`data:image/png;base64,…`), which an `<img>`
/// shows and never runs.
fn is_image_data(url: &str) -> bool {
    let cleaned: String = url
        .trim_start()
        .chars()
        .filter(|c| !c.is_whitespace())
        .take("data:image/".len())
        .collect();
    cleaned.eq_ignore_ascii_case("data:image/")
}

/// The HTML of one paragraph without its `<p>` (several paragraphs are left whole).
fn strip_paragraph(html: &str) -> &str {
    html.strip_prefix("<p>")
        .and_then(|s| s.strip_suffix("</p>"))
        .filter(|inner| !inner.contains("<p>"))
        .unwrap_or(html)
}

/// Renders a dataset body and cuts it into lede, intro and sections.
pub fn split_body(markdown: &str, raw_html: RawHtml) -> Body {
    let mut ids = IdAllocator::new(RESERVED_IDS);
    let events: Vec<(Event, Range<usize>)> = events(markdown, raw_html).collect();

    let mut body = Body::default();
    let mut depth = 0usize;
    let mut current: Vec<Event> = Vec::new();
    let mut in_section = false;
    let mut in_heading = false;
    let mut heading_text = String::new();
    let mut heading_line = 0;
    let mut lede_done = false;
    let mut in_lede = false;
    // Rendered in one piece: an image's alt text is the events up to its end.
    let mut lede: Vec<Event> = Vec::new();
    let mut summary_state = SummaryState::Done;

    for (event, range) in events {
        if let Event::Start(Tag::Link { dest_url, .. }) = &event {
            body.links.push(dest_url.to_string());
            body.link_offsets.push(range.start);
        }
        match &event {
            Event::Start(Tag::Heading {
                level: HeadingLevel::H2,
                ..
            }) if depth == 0 => {
                flush(&mut body, &mut current, in_section);
                in_section = true;
                in_heading = true;
                heading_text.clear();
                heading_line = markdown[..range.start].matches('\n').count() + 1;
                depth += 1;
                continue;
            }
            Event::End(TagEnd::Heading(HeadingLevel::H2)) if in_heading && depth == 1 => {
                in_heading = false;
                depth -= 1;
                let title = heading_text.trim().to_string();
                body.sections.push(Section {
                    id: ids.allocate(&title),
                    title,
                    html: String::new(),
                    line: heading_line,
                    summary_text: String::new(),
                });
                summary_state = SummaryState::Waiting;
                continue;
            }
            _ => {}
        }
        if in_heading {
            if let Event::Text(text) | Event::Code(text) = &event {
                heading_text.push_str(text);
            }
            continue;
        }
        let starts_lede = !in_section
            && !lede_done
            && depth == 0
            && matches!(event, Event::Start(Tag::Paragraph));
        if starts_lede {
            in_lede = true;
        }
        match &event {
            Event::Start(_) => depth += 1,
            Event::End(_) => depth = depth.saturating_sub(1),
            _ => {}
        }
        if in_lede {
            match &event {
                Event::Start(Tag::Paragraph) if depth == 1 => {}
                Event::End(TagEnd::Paragraph) if depth == 0 => {
                    in_lede = false;
                    lede_done = true;
                    html::push_html(&mut body.lede_html, lede.drain(..));
                }
                other => {
                    if let Event::Text(t) | Event::Code(t) = other {
                        body.lede_text.push_str(t);
                    } else if matches!(other, Event::SoftBreak | Event::HardBreak) {
                        body.lede_text.push(' ');
                    }
                    lede.push(other.clone());
                }
            }
            continue;
        }
        if let Some(section) = body.sections.last_mut().filter(|_| in_section) {
            summary_state = summary_state.next(&event, depth, &mut section.summary_text);
        }
        current.push(event);
    }
    flush(&mut body, &mut current, in_section);
    for section in &mut body.sections {
        let trimmed = section.html.trim().to_string();
        section.html = trimmed;
    }
    body.intro_html = body.intro_html.trim().to_string();
    body.lede_html = body.lede_html.trim().to_string();
    body.lede_text = body.lede_text.trim().to_string();
    body
}

/// Where the capture of a section's first paragraph stands.
#[derive(Clone, Copy, PartialEq)]
enum SummaryState {
    Waiting,
    Capturing,
    Done,
}

impl SummaryState {
    /// Advances on one event; `depth` is the nesting after the event.
    fn next(self, event: &Event, depth: usize, text: &mut String) -> SummaryState {
        match (self, event) {
            (SummaryState::Waiting, Event::Start(Tag::Paragraph)) if depth == 1 => {
                SummaryState::Capturing
            }
            (SummaryState::Capturing, Event::End(TagEnd::Paragraph)) if depth == 0 => {
                let trimmed = text.trim().to_string();
                *text = trimmed;
                SummaryState::Done
            }
            (SummaryState::Capturing, Event::Text(t) | Event::Code(t)) => {
                text.push_str(t);
                self
            }
            (SummaryState::Capturing, Event::SoftBreak | Event::HardBreak) => {
                text.push(' ');
                self
            }
            _ => self,
        }
    }
}

/// Renders the collected events into the open section, or into the intro before any section.
fn flush(body: &mut Body, events: &mut Vec<Event>, in_section: bool) {
    if events.is_empty() {
        return;
    }
    let mut ids = IdAllocator::new(RESERVED_IDS);
    for section in &body.sections {
        ids.taken.insert(section.id.clone());
    }
    let taken_events = assign_heading_ids(std::mem::take(events), &mut ids);
    for event in &taken_events {
        if let Event::Start(Tag::Heading { id: Some(id), .. }) = event {
            body.heading_ids.push(id.to_string());
        }
    }
    let target = match (in_section, body.sections.last_mut()) {
        (true, Some(section)) => &mut section.html,
        _ => &mut body.intro_html,
    };
    html::push_html(target, taken_events.into_iter());
}

/// Gives every heading without an explicit id one derived from its text.
fn assign_heading_ids<'a>(events: Vec<Event<'a>>, ids: &mut IdAllocator) -> Vec<Event<'a>> {
    let mut out = Vec::with_capacity(events.len());
    let mut index = 0;
    while index < events.len() {
        if let Event::Start(Tag::Heading {
            level,
            id: None,
            classes,
            attrs,
        }) = &events[index]
        {
            let mut text = String::new();
            for event in &events[index + 1..] {
                match event {
                    Event::End(TagEnd::Heading(_)) => break,
                    Event::Text(t) | Event::Code(t) => text.push_str(t),
                    _ => {}
                }
            }
            out.push(Event::Start(Tag::Heading {
                level: *level,
                id: Some(CowStr::from(ids.allocate(&text))),
                classes: classes.clone(),
                attrs: attrs.clone(),
            }));
        } else {
            out.push(events[index].clone());
        }
        index += 1;
    }
    out
}

/// Hands out unique, stable anchor ids.
struct IdAllocator {
    taken: HashSet<String>,
}

impl IdAllocator {
    fn new(reserved: &[&str]) -> Self {
        IdAllocator {
            taken: reserved.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn allocate(&mut self, text: &str) -> String {
        let base = match slugify(text) {
            s if s.is_empty() => "section".to_string(),
            s => s,
        };
        let mut candidate = base.clone();
        let mut n = 2;
        while self.taken.contains(&candidate) {
            candidate = format!("{base}-{n}");
            n += 1;
        }
        self.taken.insert(candidate.clone());
        candidate
    }
}

/// Lowercase ASCII letters and digits joined by single hyphens: stable ids and URL parts.
pub fn slugify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_hyphen = false;
    for c in text.chars() {
        if c.is_alphanumeric() {
            if pending_hyphen && !out.is_empty() {
                out.push('-');
            }
            pending_hyphen = false;
            out.extend(c.to_lowercase());
        } else {
            pending_hyphen = true;
        }
    }
    out
}

/// [`slugify`] in ASCII: accented letters and small digits folded first (`CO₂` -> `co2`,
/// [`crate::text::fold`]), other characters outside ASCII dropped. Empty when nothing is
/// left. A chart's default id: the id check accepts exactly these.
pub fn ascii_slug(text: &str) -> String {
    let folded: String = text
        .chars()
        .map(|c| crate::text::fold(c).map_or(c.to_string(), str::to_string))
        .collect();
    let slug: String = slugify(&folded)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let parts: Vec<&str> = slug.split('-').filter(|p| !p.is_empty()).collect();
    parts.join("-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_slugs_fold_accents_and_small_digits_and_drop_the_rest() {
        assert_eq!(ascii_slug("CO₂ at Mauna Loa (ppm)"), "co2-at-mauna-loa-ppm");
        assert_eq!(ascii_slug("Température moyenne"), "temperature-moyenne");
        assert_eq!(
            ascii_slug("Throughput (MB/s)"),
            slugify("Throughput (MB/s)")
        );
        assert_eq!(ascii_slug("温度 by year"), "by-year");
        assert_eq!(ascii_slug("温度"), "");
    }

    const BODY: &str = "The *first* paragraph\nis the lede.\n\nA second intro paragraph.\n\n## Method\n\nHow it was done.\n\n### Detail\n\nMore.\n\n## What the MB/s column misses\n\nA [source](#source-a).\n\n## Limits\n\nWhat it misses.\n";

    #[test]
    fn cuts_lede_intro_and_sections_in_order() {
        let body = split_body(BODY, RawHtml::Keep);
        assert_eq!(body.lede_html, "The <em>first</em> paragraph\nis the lede.");
        assert_eq!(body.lede_text, "The first paragraph is the lede.");
        assert_eq!(body.intro_html, "<p>A second intro paragraph.</p>");
        let titles: Vec<&str> = body.sections.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["Method", "What the MB/s column misses", "Limits"]);
        assert_eq!(body.sections[1].id, "what-the-mb-s-column-misses");
        assert_eq!(body.sections[0].line, 6);
        assert!(body.sections[0]
            .html
            .contains("<h3 id=\"detail\">Detail</h3>"));
        assert!(!body.sections[0].html.contains("Method"));
        assert_eq!(body.links, ["#source-a"]);
        assert_eq!(body.sections[0].summary_text, "How it was done.");
        assert_eq!(body.sections[1].summary_text, "A source.");
    }

    #[test]
    fn headings_never_take_reserved_or_repeated_ids() {
        let body = split_body(
            "Lede.\n\n## Table\n\nx\n\n## Notes\n\ny\n\n## Notes\n\nz\n",
            RawHtml::Keep,
        );
        let ids: Vec<&str> = body.sections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["table-2", "notes", "notes-2"]);
    }

    #[test]
    fn a_body_without_paragraphs_has_no_lede() {
        let body = split_body("## Method\n\nText.\n", RawHtml::Keep);
        assert_eq!(body.lede_html, "");
        assert_eq!(body.sections.len(), 1);
    }

    #[test]
    fn tables_footnotes_and_strikethrough_are_enabled() {
        let html = to_html(
            "| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~ new[^1]\n\n[^1]: note\n",
            RawHtml::Keep,
        );
        assert!(html.contains("<table>"));
        assert!(html.contains("<del>old</del>"));
        assert!(html.contains("footnote"));
    }

    #[test]
    fn slugify_makes_stable_ids() {
        assert_eq!(
            slugify("What the MB/s column misses"),
            "what-the-mb-s-column-misses"
        );
        assert_eq!(slugify("  Storage throughput "), "storage-throughput");
        assert_eq!(slugify("NVMe"), "nvme");
        assert_eq!(slugify("PCIe 4.0"), "pcie-4-0");
    }

    #[test]
    fn inline_html_drops_the_paragraph() {
        assert_eq!(to_inline_html("a *b*", RawHtml::Keep), "a <em>b</em>");
    }

    #[test]
    fn raw_html_is_kept_or_escaped_as_the_site_says() {
        let markdown = "A <b onclick=\"x()\">bold</b> claim.\n\n<script>alert(1)</script>\n";
        let kept = to_html(markdown, RawHtml::Keep);
        assert!(kept.contains("<b onclick=\"x()\">bold</b>"), "{kept}");
        assert!(kept.contains("<script>alert(1)</script>"), "{kept}");
        let escaped = to_html(markdown, RawHtml::Escape);
        assert!(
            !escaped.contains("<b") && !escaped.contains("<script"),
            "{escaped}"
        );
        assert!(
            escaped.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{escaped}"
        );
        let body = split_body(markdown, RawHtml::Escape);
        assert!(
            body.lede_html.contains("&lt;b onclick"),
            "{}",
            body.lede_html
        );
    }

    #[test]
    fn characters_html_cannot_carry_never_reach_the_html() {
        let markdown = "Lede \u{1b}[31m with `co\u{0}de`.\n\n## Method\n\nx\u{7}y <i>\u{8}</i>\n";
        let body = split_body(markdown, RawHtml::Keep);
        let all = format!("{}{}", body.lede_html, body.sections[0].html);
        assert!(!all.chars().any(crate::text::is_forbidden), "{all:?}");
        assert!(all.contains("Lede \u{fffd}[31m"), "{all:?}");
        assert!(!to_html(markdown, RawHtml::Keep)
            .chars()
            .any(crate::text::is_forbidden));
    }

    #[test]
    fn dangerous_links_are_found_where_they_are() {
        let markdown = "See [a](https://x.org), [b](JavaScript:alert(1)) and <vbscript:x>.\n\n[c]: data:text/html,x\n\nAnd [ref][c].";
        let found = dangerous_links(markdown);
        let schemes: Vec<&str> = found.iter().map(|l| l.scheme.as_str()).collect();
        assert_eq!(schemes, ["javascript", "vbscript", "data"]);
        assert_eq!(&markdown[found[0].at..found[0].at + 3], "[b]");
        assert!(found.iter().all(|l| !l.image));
    }

    #[test]
    fn an_image_in_the_lede_keeps_its_alt_text() {
        let body = split_body("See ![a *b*](x.png \"t\") here.\n", RawHtml::Keep);
        assert_eq!(
            body.lede_html,
            "See <img src=\"x.png\" alt=\"a b\" title=\"t\" /> here."
        );
    }

    #[test]
    fn images_from_code_addresses_are_found_too() {
        let markdown = "![a](x.png) ![b](javascript:alert(1)) ![c](<JaVa\tScript:x>)\n\n![d](data:image/png;base64,AAAA) ![e](data:text/html,x) ![f][r]\n\n[r]: vbscript:x\n";
        let found = dangerous_links(markdown);
        let summary: Vec<(&str, bool)> =
            found.iter().map(|l| (l.scheme.as_str(), l.image)).collect();
        assert_eq!(
            summary,
            [
                ("javascript", true),
                ("javascript", true),
                ("data", true),
                ("vbscript", true)
            ]
        );
        assert_eq!(&markdown[found[0].at..found[0].at + 4], "![b]");
    }
}
