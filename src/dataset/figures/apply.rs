//! Putting resolved figures into the texts: plain text in the headline and kicker,
//! Markdown-escaped text in the table note and captions, and in the body a private-use
//! marker that survives Markdown and becomes, in the HTML, a `<data>` linked to the
//! quoted row (`mark_body`) and, in the plain-text summaries, just the figure.

use std::ops::Range;

use super::Quoted;
use crate::content::markdown::{self, RawHtml};
use crate::content::Body;
use crate::text::escape_html_into;

const OPEN: char = '\u{E000}';
const MID: char = '\u{E001}';
const CLOSE: char = '\u{E002}';

/// How a text takes its figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Texts {
    Plain,
    Markdown,
    /// Markdown whose figures are marked up after rendering (`mark_body`).
    Marked,
    /// Plain text whose figures are marked up after escaping (`plain_html`).
    MarkedPlain,
}

/// `text` with each resolved reference replaced; figures are appended to `quoted` (their
/// marker index is their position there). A failed reference keeps its source text.
pub fn apply(
    text: &str,
    resolved: &[(Range<usize>, Option<Quoted>)],
    how: Texts,
    quoted: &mut Vec<Quoted>,
) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (range, figure) in resolved {
        out.push_str(&text[at..range.start]);
        at = range.end;
        let Some(figure) = figure else {
            out.push_str(&text[range.clone()]);
            continue;
        };
        match how {
            Texts::Plain => out.push_str(&figure.text),
            Texts::Markdown => push_escaped_markdown(&figure.text, &mut out),
            Texts::Marked | Texts::MarkedPlain => {
                out.push(OPEN);
                out.push_str(&quoted.len().to_string());
                out.push(MID);
                match how {
                    Texts::Marked => push_escaped_markdown(&figure.text, &mut out),
                    _ => out.push_str(&figure.text),
                }
                out.push(CLOSE);
            }
        }
        quoted.push(figure.clone());
    }
    out.push_str(&text[at..]);
    out
}

/// The HTML of a plain text (headline, kicker) with its figures marked up but not
/// linked (a heading holds no link).
pub fn plain_html(text: &str, resolved: &[(Range<usize>, Option<Quoted>)]) -> String {
    let mut list = Vec::new();
    let marked = apply(text, resolved, Texts::MarkedPlain, &mut list);
    let mut html = String::with_capacity(marked.len());
    escape_html_into(&marked, &mut html);
    markup(&html, &list, 0, false)
}

/// The HTML of Markdown `text` (a chart caption) with its figures marked up and linked.
pub fn markdown_html(
    text: &str,
    resolved: &[(Range<usize>, Option<Quoted>)],
    raw_html: RawHtml,
    shown_rows: u64,
) -> String {
    let mut list = Vec::new();
    let marked = apply(text, resolved, Texts::Marked, &mut list);
    markup(
        &markdown::to_html(&marked, raw_html),
        &list,
        shown_rows,
        true,
    )
}

fn push_escaped_markdown(text: &str, out: &mut String) {
    for c in text.chars() {
        if c.is_ascii_punctuation() && !matches!(c, ',' | '.' | '-' | '+' | '%' | '/' | ':') {
            out.push('\\');
        }
        out.push(c);
    }
}

/// Replaces the markers of `body`: `<data>` in the HTML (a link to the row when the page
/// shows it), the bare figure in the plain text.
pub fn mark_body(body: &mut Body, quoted: &[Quoted], shown_rows: u64) {
    body.lede_html = markup(&body.lede_html, quoted, shown_rows, true);
    body.intro_html = markup(&body.intro_html, quoted, shown_rows, true);
    body.lede_text = strip(&body.lede_text);
    for section in &mut body.sections {
        section.html = markup(&section.html, quoted, shown_rows, true);
        section.title = strip(&section.title);
        section.summary_text = strip(&section.summary_text);
    }
}

/// Where a marker stands in the HTML.
#[derive(Clone, Copy, Default)]
struct Place {
    /// Inside a tag, so in an attribute's value (a link's `title`, an image's `alt`),
    /// where only text may go.
    in_tag: bool,
    /// Inside a link's text, where another link may not go.
    in_link: bool,
}

/// Each marker as `f(index, figure text, where it stands)`.
fn replace(text: &str, mut f: impl FnMut(Option<usize>, &str, Place, &mut String)) -> String {
    if !text.contains(OPEN) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 256);
    let mut rest = text;
    let mut place = Place::default();
    let mut links: usize = 0;
    while let Some(start) = rest.find(OPEN) {
        let before = &rest[..start];
        // Attribute values have `<` and `>` escaped, so the last of them says where we are.
        if let Some(last) = before.rfind(['<', '>']) {
            place.in_tag = before.as_bytes()[last] == b'<';
        }
        let opened = before.matches("<a ").count() + before.matches("<a>").count();
        links = (links + opened).saturating_sub(before.matches("</a>").count());
        place.in_link = links > 0;
        out.push_str(before);
        let after = &rest[start + OPEN.len_utf8()..];
        let (Some(mid), Some(close)) = (after.find(MID), after.find(CLOSE)) else {
            out.push_str(after);
            return out;
        };
        let index = after[..mid].parse::<usize>().ok();
        f(index, &after[mid + MID.len_utf8()..close], place, &mut out);
        rest = &after[close + CLOSE.len_utf8()..];
    }
    out.push_str(rest);
    out
}

fn strip(text: &str) -> String {
    replace(text, |_, figure, _, out| out.push_str(figure))
}

fn markup(html: &str, quoted: &[Quoted], shown_rows: u64, link: bool) -> String {
    replace(html, |index, figure, place, out| {
        // In an attribute the figure is text, escaped as the attribute's text was.
        let Some(q) = index.and_then(|i| quoted.get(i)).filter(|_| !place.in_tag) else {
            out.push_str(figure);
            return;
        };
        let link = link && !place.in_link;
        let row = (q.rows.len() == 1 || q.function != "cell")
            .then(|| q.rows.first().copied())
            .flatten()
            .filter(|r| link && *r <= q.shown_rows.unwrap_or(shown_rows));
        let page = q
            .dataset
            .as_ref()
            .map(|slug| format!("../{slug}/"))
            .unwrap_or_default();
        match row {
            Some(r) => out.push_str(&format!("<a class=\"figure\" href=\"{page}#row-{r}\">")),
            None => out.push_str("<span class=\"figure\">"),
        }
        out.push_str("<data value=\"");
        escape_html_into(&q.value, out);
        out.push_str("\" title=\"");
        escape_html_into(&q.title, out);
        out.push_str("\">");
        out.push_str(figure);
        out.push_str("</data>");
        out.push_str(if row.is_some() { "</a>" } else { "</span>" });
    })
}

#[cfg(test)]
mod tests {
    use super::super::Field;
    use super::*;

    fn quoted(text: &str) -> Quoted {
        Quoted {
            field: Field::Body,
            line: 1,
            function: "cell",
            text: text.into(),
            value: "10366".into(),
            column: Some("x".into()),
            rows: vec![9],
            title: "X, row 9 (a=<b>)".into(),
            dataset: None,
            shown_rows: None,
            from_draft: false,
        }
    }

    #[test]
    fn markers_become_data_in_html_and_figures_in_text() {
        let mut list = Vec::new();
        let source = "moved {{ cell() }} MB/s";
        let marked = apply(
            source,
            &[(6..18, Some(quoted("10,366")))],
            Texts::Marked,
            &mut list,
        );
        let html = markup(&format!("<p>{marked}</p>"), &list, 11, true);
        assert_eq!(
            html,
            "<p>moved <a class=\"figure\" href=\"#row-9\"><data value=\"10366\" title=\"X, row 9 (a=&lt;b&gt;)\">10,366</data></a> MB/s</p>"
        );
        assert_eq!(strip(&marked), "moved 10,366 MB/s");
        assert!(markup(&marked, &list, 5, true).contains("<span class=\"figure\">"));
        let plain = apply(
            source,
            &[(6..18, Some(quoted("10,366")))],
            Texts::Plain,
            &mut list,
        );
        assert_eq!(plain, "moved 10,366 MB/s");
        let html = plain_html(source, &[(6..18, Some(quoted("10,366")))]);
        assert_eq!(
            html,
            "moved <span class=\"figure\"><data value=\"10366\" title=\"X, row 9 (a=&lt;b&gt;)\">10,366</data></span> MB/s"
        );
    }

    #[test]
    fn figures_in_link_titles_and_image_alts_stay_text() {
        let source = "[a](https://x.org \"t {{ cell() }}\") ![{{ cell() }}](i.png) b {{ cell() }}";
        let figure = || Some(quoted("<1\">"));
        let resolved = [(21..33, figure()), (38..50, figure()), (61..73, figure())];
        let html = markdown_html(source, &resolved, RawHtml::Keep, 11);
        assert_eq!(
            html,
            "<p><a href=\"https://x.org\" title=\"t &lt;1&quot;&gt;\">a</a> <img src=\"i.png\" alt=\"&lt;1&quot;&gt;\" /> b <a class=\"figure\" href=\"#row-9\"><data value=\"10366\" title=\"X, row 9 (a=&lt;b&gt;)\">&lt;1\"&gt;</data></a></p>\n"
        );
        // In a link's text the figure is marked up but not linked: no link in a link.
        let html = markdown_html(
            "[see {{ cell() }}](https://x.org)",
            &[(5..17, figure())],
            RawHtml::Keep,
            11,
        );
        assert_eq!(
            html,
            "<p><a href=\"https://x.org\">see <span class=\"figure\"><data value=\"10366\" title=\"X, row 9 (a=&lt;b&gt;)\">&lt;1\"&gt;</data></span></a></p>\n"
        );
    }
}
