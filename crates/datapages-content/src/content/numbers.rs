//! The numbers a text types by hand, with their byte offsets, for the unbacked-number
//! check: Markdown is read through pulldown-cmark's events, so numbers in code spans, code
//! blocks, link targets and raw HTML are never seen; numbers that are not data (years,
//! dates, times, versions, identifiers glued to letters, ordinals, decades, DOIs, bare
//! URLs, and the volumes, issues and pages of references) are left out by rule. A number
//! is read in the marks of the page's language (`10 366` and `1,79` on a French page).

use std::ops::Range;

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use crate::locale::{is_space_mark, NumberMarks};

/// One number of the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Typed {
    /// Byte offset of its first digit in the text searched.
    pub offset: usize,
    /// The number without thousands separators, with a decimal point (`10366`, `0.985`;
    /// `1.79` for `1,79` typed on a French page).
    pub number: String,
    /// The number with the letters glued after it, lowercase (`7373mib`, `128k`); where
    /// the language groups with a space, else the word after one space (`10366mo` for
    /// `10 366 Mo/s`, and `2et` for `2 et 3`: it is only compared with the allow-list's
    /// entries and with cells' texts).
    pub raw: String,
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// The numbers of a plain text (a headline, a kicker), outside the ranges of `skip`, read
/// in `marks`.
pub fn in_plain(text: &str, skip: &[Range<usize>], marks: &NumberMarks) -> Vec<Typed> {
    let mut found = Vec::new();
    scan(text, 0..text.len(), skip, marks, &mut found);
    found
}

/// The numbers of Markdown `text`, in its text events only (not code, not link targets,
/// not HTML), outside the ranges of `skip`, read in `marks`.
pub fn in_markdown(text: &str, skip: &[Range<usize>], marks: &NumberMarks) -> Vec<Typed> {
    let mut found = Vec::new();
    let mut in_code = 0usize;
    for (event, range) in
        Parser::new_ext(text, crate::content::markdown::options()).into_offset_iter()
    {
        match event {
            Event::Start(Tag::CodeBlock(_)) => in_code += 1,
            Event::End(TagEnd::CodeBlock) => in_code = in_code.saturating_sub(1),
            Event::Text(_) if in_code == 0 => scan(text, range, skip, marks, &mut found),
            _ => {}
        }
    }
    found
}

/// The numbers in `text[range]`, read with the characters around them.
fn scan(
    text: &str,
    range: Range<usize>,
    skip: &[Range<usize>],
    marks: &NumberMarks,
    found: &mut Vec<Typed>,
) {
    let bytes = text.as_bytes();
    let mut i = range.start;
    while i < range.end {
        if !bytes[i].is_ascii_digit() || skip.iter().any(|s| s.contains(&i)) {
            i += 1;
            continue;
        }
        let before = text[..i].chars().next_back();
        let end = number_end(text, i, marks);
        let number_text = &text[i..end];
        let rest = &text[end..];
        // Letters glued after it: a unit (`MiB`, `K`) or an ordinal suffix.
        let glued: String = rest
            .chars()
            .take_while(|c| c.is_alphabetic())
            .collect::<String>()
            .to_lowercase();
        let next = end
            + rest
                .find(|c: char| !c.is_alphabetic())
                .unwrap_or(rest.len());
        let start = i;
        i = next.max(end);
        // A bare URL or a DOI is an address, not a figure: none of its digits is read; nor
        // are a reference's volume, issue and pages.
        if let Some(token_end) = address_end(text, start).or_else(|| citation_end(text, start)) {
            i = token_end.max(i);
            continue;
        }
        let number = plain(number_text, marks);
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            || not_data(text, start, number_text, rest, &glued)
            || number.matches('.').count() >= 2
        {
            // A date or time goes on to its end, so its parts are not read again.
            if rest.starts_with(['-', ':']) && rest[1..].starts_with(|c: char| c.is_ascii_digit()) {
                i = end;
                while i < bytes.len()
                    && (bytes[i].is_ascii_digit() || matches!(bytes[i], b'-' | b':'))
                {
                    i += 1;
                }
            }
            continue;
        }
        let unit = match glued.is_empty() {
            true => spaced_unit(rest, marks),
            false => glued,
        };
        found.push(Typed {
            offset: start,
            raw: format!("{number}{unit}"),
            number,
        });
    }
}

/// The end of the number whose first digit is at `start`: digits, with `,` or `.` between
/// digits, and, where the language groups with a space (French), a space, no-break space
/// or narrow no-break space before exactly three more digits (`10 366`).
fn number_end(text: &str, start: usize, marks: &NumberMarks) -> usize {
    let bytes = text.as_bytes();
    let spaces = marks.group_is_space();
    let mut end = start;
    loop {
        match bytes.get(end) {
            Some(b) if b.is_ascii_digit() => end += 1,
            Some(b',' | b'.') if bytes.get(end + 1).is_some_and(u8::is_ascii_digit) => end += 1,
            _ => {
                let space = text[end..]
                    .chars()
                    .next()
                    .filter(|c| spaces && is_space_mark(*c));
                match space {
                    Some(c) if three_digits(&bytes[end + c.len_utf8()..]) => end += c.len_utf8(),
                    _ => return end,
                }
            }
        }
    }
}

/// The unit after one space in a language that groups with a space, lowercase (`mo` after
/// `10 366 Mo/s`): there a unit is typed after a space, and an allow-list entry is read
/// without its spaces ([`listed`]), so `24 Go` listed is `24go` and must meet `24 Go`
/// typed. Empty elsewhere, and where no letter follows the space.
fn spaced_unit(rest: &str, marks: &NumberMarks) -> String {
    let mut chars = rest.chars();
    match chars.next() {
        Some(c) if marks.group_is_space() && is_space_mark(c) => chars
            .take_while(|c| c.is_alphabetic())
            .collect::<String>()
            .to_lowercase(),
        _ => String::new(),
    }
}

/// Whether `bytes` start with exactly three digits (a group of a number).
fn three_digits(bytes: &[u8]) -> bool {
    bytes.len() >= 3
        && bytes[..3].iter().all(u8::is_ascii_digit)
        && !bytes.get(3).is_some_and(u8::is_ascii_digit)
}

/// A number as typed (`10,366`; `10 366` or `1,79` in French; `1.234,5` in German) as a
/// plain number (`10366`, `1.79`, `1234.5`). In English a comma is a group mark. Elsewhere
/// the language's decimal mark is the decimal point, and a group mark (or a space where
/// the language groups with one) is dropped where three digits follow it; a point that is
/// not the language's mark is a decimal point, as an English reader would take it.
fn plain(number: &str, marks: &NumberMarks) -> String {
    if marks.is_english() {
        return number.chars().filter(|c| *c != ',').collect();
    }
    let group = marks.group.chars().next();
    let decimal = marks.decimal.chars().next();
    let mut out = String::with_capacity(number.len());
    for (at, c) in number.char_indices() {
        let grouping = Some(c) == group || (marks.group_is_space() && is_space_mark(c));
        match c {
            _ if c.is_ascii_digit() => out.push(c),
            _ if grouping && three_digits(&number.as_bytes()[at + c.len_utf8()..]) => {}
            _ if Some(c) == decimal || c == '.' => out.push('.'),
            _ => {}
        }
    }
    out
}

/// An entry of `numbers_not_data` as the numbers it lists are read: without group marks
/// (and the spaces a language that groups with one types for them), with a decimal point.
pub fn listed(entry: &str, marks: &NumberMarks) -> String {
    if marks.is_english() {
        return entry.replace(',', "");
    }
    let group = marks.group.chars().next();
    let decimal = marks.decimal.chars().next();
    entry
        .chars()
        .filter(|c| Some(*c) != group && !(marks.group_is_space() && is_space_mark(*c)))
        .map(|c| if Some(c) == decimal { '.' } else { c })
        .collect()
}

/// The end of the word around `at` (delimited by white space, brackets and quotes) when
/// that word is an address: a URL (`https://…`, `www.…`) or a DOI (`doi:…`,
/// `10.1234/abc.5`).
fn address_end(text: &str, at: usize) -> Option<usize> {
    let delimiter =
        |c: char| c.is_whitespace() || matches!(c, '(' | ')' | '<' | '>' | '"' | '[' | ']');
    let start = text[..at].rfind(delimiter).map_or(0, |i| {
        i + text[i..].chars().next().map_or(1, char::len_utf8)
    });
    let end = text[at..].find(delimiter).map_or(text.len(), |i| at + i);
    let word = &text[start..end];
    let lower = word.to_ascii_lowercase();
    let doi = lower.match_indices("10.").any(|(i, _)| {
        let registrant = &lower[i + 3..];
        let digits = registrant.bytes().take_while(u8::is_ascii_digit).count();
        digits >= 4
            && registrant[digits..].starts_with('/')
            && (i == 0 || !lower.as_bytes()[i - 1].is_ascii_digit())
    });
    let url = lower.contains("://") || lower.starts_with("www.") || lower.starts_with("doi:");
    (doi || url).then_some(end)
}

/// The end of a reference's volume, issue and pages starting at `start`: a volume with its
/// issue (`23(4)`, then `, 117-130` or `:117-130`), or pages after `p.`, `pp.` or `vol.`
/// (`pp. 12-19`, `p. 7`, `vol. 3`).
fn citation_end(text: &str, start: usize) -> Option<usize> {
    let digits = |from: usize| from + text[from..].bytes().take_while(u8::is_ascii_digit).count();
    // `12-19` or `12–19` from `from`: the end of the range, or of the single number.
    let pages = |from: usize| {
        let end = digits(from);
        let rest = &text[end..];
        let dash = rest
            .strip_prefix('-')
            .or_else(|| rest.strip_prefix('–'))
            .filter(|r| r.starts_with(|c: char| c.is_ascii_digit()));
        match dash {
            Some(after) => digits(text.len() - after.len()),
            None => end,
        }
    };
    let previous_word = text[..start].trim_end();
    let abbreviation = previous_word.strip_suffix('.').is_some_and(|before| {
        let word = before.rsplit(|c: char| !c.is_alphabetic()).next();
        word.is_some_and(|w| matches!(w.to_lowercase().as_str(), "p" | "pp" | "vol"))
    });
    if abbreviation && text[start..].starts_with(|c: char| c.is_ascii_digit()) {
        return Some(pages(start));
    }
    // A volume: digits, then the issue in brackets right after them.
    let volume_end = digits(start);
    let issue = text[volume_end..].strip_prefix('(')?;
    let issue_digits = issue.bytes().take_while(u8::is_ascii_digit).count();
    let close = volume_end + 1 + issue_digits;
    if issue_digits == 0 || !text[close..].starts_with(')') {
        return None;
    }
    let after = close + 1;
    let rest = &text[after..];
    let gap = rest.len() - rest.trim_start_matches([',', ':', ' ']).len();
    if gap > 0 && text[after + gap..].starts_with(|c: char| c.is_ascii_digit()) {
        return Some(pages(after + gap));
    }
    Some(after)
}

/// Whether the number at `start` is not data: a year, an ISO date, a day of a date, a
/// time, a power of ten (`10⁹`), an ordinal, a decade (`1990s`). (A version, two
/// decimal points, is told from the number read.)
fn not_data(text: &str, start: usize, number: &str, rest: &str, glued: &str) -> bool {
    let digits_only = number.bytes().all(|b| b.is_ascii_digit());
    let value: u32 = if digits_only {
        number.parse().unwrap_or(u32::MAX)
    } else {
        u32::MAX
    };
    let month_word = |word: &str| {
        let word = word.to_lowercase();
        MONTHS.iter().any(|m| word.starts_with(m))
    };
    let next_word = rest.trim_start().split(|c: char| !c.is_alphabetic()).next();
    let previous_word = text[..start]
        .trim_end()
        .rsplit(|c: char| !c.is_alphabetic())
        .next();
    (digits_only && glued.is_empty() && (1900..=2100).contains(&value))
        || (digits_only && number.len() == 4 && rest.starts_with('-'))
        || (digits_only
            && (1..=31).contains(&value)
            && glued.is_empty()
            && (next_word.is_some_and(month_word) || previous_word.is_some_and(month_word)))
        || rest.starts_with(':')
        || rest.starts_with(['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'])
        || (digits_only && matches!(glued, "st" | "nd" | "rd" | "th"))
        || (digits_only && glued == "s" && number.len() == 4 && number.ends_with('0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn en() -> NumberMarks {
        NumberMarks::english()
    }

    fn numbers(found: Vec<Typed>) -> Vec<String> {
        found.into_iter().map(|t| t.raw).collect()
    }

    #[test]
    fn data_numbers_are_found_and_the_rest_left_out() {
        let text = "10,366 MB/s and 7373MiB/s at 64% on 21 May 2021 (2021-05-21, 14:26:45) \
                    with HCIBench 2.5.3, 2.26 × 10⁹ bytes, v1.2, R640, PM1733, Gen4, x4, 128K, the 99th run and 0.985.";
        assert_eq!(
            numbers(in_plain(text, &[], &en())),
            ["10366", "7373mib", "64", "2.26", "128k", "0.985"]
        );
    }

    #[test]
    fn dois_bare_urls_and_decades_are_not_figures() {
        let text = "See 10.1234/abc.5 (doi:10.5555/x-12.7), https://example.org/t/2024/7.5.html \
                    and www.x.org/p?id=38; in the 1990s and 2000s, 12.5 ppm of 40 samples.";
        assert_eq!(numbers(in_plain(text, &[], &en())), ["12.5", "40"]);
        let markdown = "A DOI <https://doi.org/10.1234/abc.5>, [a link](https://x.org/9) \
                        and https://x.org/a_1_b/31 bare; 7 runs in the 1980s.\n";
        assert_eq!(numbers(in_markdown(markdown, &[], &en())), ["7"]);
        // A number that only looks like the start of one stays a figure.
        assert_eq!(
            numbers(in_plain("10.5 and 10.123/4 and 310s", &[], &en())),
            ["10.5", "10.123", "4", "310s"]
        );
    }

    #[test]
    fn volumes_issues_and_pages_of_references_are_not_figures() {
        let text = "Smith (1999). Ozone. J. Air 23(4), 117-130; Doe, Atmos. 41(2):55–61; \
                    Roe, Stats, pp. 12-19, p. 7 and vol. 3; then 18 sites (4 lost) and 6.5 (mean).";
        assert_eq!(numbers(in_plain(text, &[], &en())), ["18", "4", "6.5"]);
        let markdown = "1. Lee, *Nature* 12(3), 45-67.\n2. 14 stations.\n";
        assert_eq!(numbers(in_markdown(markdown, &[], &en())), ["14"]);
    }

    #[test]
    fn code_link_targets_and_skipped_ranges_are_not_read() {
        let text = "Read `42 ms` and [12 runs](https://x.org/77) and {{ cell(a=\"5\") }} then 9.\n\n```\n31\n```\n";
        let skip = text.find("{{").unwrap()..text.find("}}").unwrap() + 2;
        let found = in_markdown(text, std::slice::from_ref(&skip), &en());
        assert_eq!(numbers(found.clone()), ["12", "9"]);
        assert_eq!(&text[found[1].offset..found[1].offset + 1], "9");
    }

    #[test]
    fn numbers_are_read_in_the_marks_of_the_page_language() {
        let fr = NumberMarks::of("fr");
        let text =
            "10 366 Mo/s, 10\u{a0}366, 10\u{202f}366 et 1,79 ; 2 et 3 ; 12 3456 ; v2.5.3 ; 1.5";
        let found = in_plain(text, &[], &fr);
        let read: Vec<&str> = found.iter().map(|t| t.number.as_str()).collect();
        assert_eq!(
            read,
            ["10366", "10366", "10366", "1.79", "2", "3", "12", "3456", "1.5"]
        );
        assert_eq!(found[0].raw, "10366mo");
        assert_eq!(&text[found[1].offset..found[1].offset + 2], "10");
        let de = NumberMarks::of("de");
        let read: Vec<String> = in_markdown("1.234,5 und 1.234.567 und 2.5.3 und 0,25\n", &[], &de)
            .into_iter()
            .map(|t| t.number)
            .collect();
        assert_eq!(read, ["1234.5", "1234567", "0.25"]);
        // A unit typed after a space is the one an allow-list entry names with its space.
        for entry in ["24 Go", "24\u{202f}Go", "24Go"] {
            let typed = in_plain(&format!("{entry} de mémoire"), &[], &fr);
            assert_eq!(typed[0].raw, listed(entry, &fr).to_lowercase(), "{entry}");
        }
        // In English a space parts two numbers, and a comma groups.
        assert_eq!(
            numbers(in_plain("10 366 and 1,79", &[], &en())),
            ["10", "366", "179"]
        );
    }
}
