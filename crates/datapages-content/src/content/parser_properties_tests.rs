//! Property tests of the hand-written parsers of what authors write: the front-matter
//! split, the `{{ cell(...) }}` figures, ISO 8601 day numbers, language tags, a date
//! column's `format`, number marks and TOML escapes. Whatever the bytes, none panics, and what each
//! returns points inside the text it was given or reads back as it was written.

use std::path::Path;

use proptest::prelude::*;

use super::columns::ColumnType;
use super::date_format::DateFormat;
use super::number_marks::{DecimalMark, GroupMark, NumberMarks};
use super::{figures, front_matter, iso8601, language_tag, toml_escapes};

/// Text made mostly of the characters these parsers look for, so that the cases reach
/// past the first refusal; plus any character now and then.
fn syntax_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => prop::sample::select(vec![
            "+++", "\n", "{{", "}}", "cell(", "col=", "\"", "'", "=", ",", ")", "(", "\\", "#",
            "-", "T", ":", "Z", "%Y", "%m", "%d", "%q", "%G", "-W%V", "%%", "\r", "\u{feff}",
            "2021", "12", "99999999999999999999", "é", " ",
        ])
        .prop_map(String::from),
        1 => any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn the_front_matter_split_points_inside_the_file(text in syntax_text()) {
        if let Ok(split) = front_matter::split(Path::new("a.md"), &text) {
            prop_assert!(split.body_offset <= text.len());
            prop_assert_eq!(&text[split.body_offset..], split.body);
        }
    }

    #[test]
    fn figures_are_found_inside_the_text(text in syntax_text()) {
        for found in [figures::find(&text), figures::find_in_markdown(&text)] {
            let (references, errors) = found;
            for reference in references {
                prop_assert!(reference.range.end <= text.len());
                prop_assert!(text.is_char_boundary(reference.range.start));
                prop_assert!(text[reference.range.clone()].starts_with("{{"));
            }
            for error in errors {
                prop_assert!(error.offset <= text.len());
            }
        }
    }

    #[test]
    fn any_text_gives_a_day_number_or_none(text in syntax_text()) {
        let _ = iso8601::day_number(&text);
        let _ = iso8601::day_position(&text);
        let _ = iso8601::is_iso_date(&text);
        let _ = iso8601::is_iso_datetime(&text);
        let _ = iso8601::coverage_problem(&text);
    }

    #[test]
    fn a_date_reads_back_as_the_day_it_is(days in -1_000_000i64..1_000_000) {
        let (year, month, day) = iso8601::civil_from_days(days);
        prop_assume!((0..=9999).contains(&year));
        let text = format!("{year:04}-{month:02}-{day:02}");
        prop_assert!(iso8601::is_iso_date(&text), "{} is a date", text);
        prop_assert_eq!(iso8601::day_number(&text), Some(days));
    }

    #[test]
    fn any_text_is_a_language_tag_or_says_why_not(text in syntax_text()) {
        match language_tag::problem(&text) {
            Some(problem) => prop_assert!(!problem.is_empty()),
            // Pages write an accepted tag into `lang="..."` and metadata as it is.
            None => prop_assert!(
                !text.is_empty() && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'),
                "{:?} accepted", text
            ),
        }
    }

    /// Tag-shaped text: ICU4X decides, and a refusal that names a part names one of the
    /// tag's own (the longest start ICU4X reads, then the part after it).
    #[test]
    fn a_refused_tag_names_a_part_it_has(text in "[a-zA-Z0-9]{1,9}(-[a-zA-Z0-9]{0,9}){0,6}") {
        let read = text.parse::<icu_locale_core::Locale>().is_ok();
        let problem = language_tag::problem(&text);
        prop_assert_eq!(problem.is_none(), read, "{:?}: {:?}", text, problem);
        if let Some((_, after)) = problem.as_deref().and_then(|p| p.split_once('`')) {
            let named = after.split('`').next().unwrap_or_default();
            prop_assert!(text.split('-').any(|part| part == named), "{:?}: {:?}", text, problem);
        }
    }

    #[test]
    fn any_pattern_compiles_or_is_refused_and_reads_any_cell(
        pattern in syntax_text(),
        cell in syntax_text(),
    ) {
        for column_type in [ColumnType::Date, ColumnType::Datetime] {
            if let Ok(format) = DateFormat::compile(&pattern, column_type) {
                let _ = format.parse(&cell);
                let _ = format.example();
                let _ = format.regex();
            }
        }
    }

    #[test]
    fn a_date_in_a_format_reads_as_its_iso_day(days in -200_000i64..200_000, which in 0usize..6) {
        const MONTHS: [&str; 12] = [
            "January", "February", "March", "April", "May", "June", "July", "August",
            "September", "October", "November", "December",
        ];
        let (year, month, day) = iso8601::civil_from_days(days);
        prop_assume!((1000..=9999).contains(&year));
        let name = MONTHS[month as usize - 1];
        let (pattern, cell) = match which {
            0 => ("%d/%m/%Y", format!("{day:02}/{month:02}/{year}")),
            1 => ("%Y%m%d", format!("{year}{month:02}{day:02}")),
            2 => ("%B %d, %Y", format!("{name} {day:02}, {year}")),
            3 => ("%b %d %Y", format!("{} {day:02} {year}", &name[..3])),
            4 => ("%d.%m.%Y", format!("{day:02}.{month:02}.{year}")),
            _ => ("%Y/%m/%d", format!("{year}/{month:02}/{day:02}")),
        };
        let format = DateFormat::compile(pattern, ColumnType::Date)
            .expect("a pattern of the docs compiles");
        let read = format.parse(&cell);
        prop_assert!(read.is_some(), "{} reads as {}", cell, pattern);
        let mut shown = String::new();
        format.write(&read.expect("read"), &mut shown);
        prop_assert_eq!(shown, format!("{year:04}-{month:02}-{day:02}"));
    }

    #[test]
    fn a_number_written_in_any_marks_reads_back_as_its_plain_number(
        whole in 0u64..10_000_000_000_000_000,
        fraction in proptest::option::of("[0-9]{1,6}"),
        exponent in proptest::option::of(-30i32..30),
        (negative, decimal, group) in (any::<bool>(), 0usize..2, 0usize..7),
    ) {
        let marks = NumberMarks { decimal: DECIMALS[decimal], group: GROUPS[group] };
        prop_assume!(!marks.clash());
        let sign = if negative { "-" } else { "" };
        let tail = fraction.as_ref().map_or(String::new(), |f| format!(".{f}"))
            + &exponent.map_or(String::new(), |e| format!("e{e}"));
        let written = format!("{sign}{}{}", grouped(whole, marks.group), tail.replacen('.', marks.decimal.as_str(), 1));
        let mut out = String::new();
        let expected = format!("{sign}{whole}{tail}");
        let plain = marks.plain(&written, &mut out);
        prop_assert_eq!(plain, Some(expected.as_str()), "{:?} in {:?}", written, marks);
    }

    #[test]
    fn any_cell_in_any_marks_is_refused_or_left_without_marks(
        cell in syntax_text(),
        (decimal, group) in (0usize..2, 0usize..7),
    ) {
        let marks = NumberMarks { decimal: DECIMALS[decimal], group: GROUPS[group] };
        let mut out = String::new();
        if let Some(plain) = marks.plain(&cell, &mut out) {
            // Left as a plain number: no comma, one decimal point at most, no group mark.
            if !marks.is_plain() {
                prop_assert!(!plain.contains(','), "{:?} -> {:?}", cell, plain);
                prop_assert!(plain.matches('.').count() <= 1, "{:?} -> {:?}", cell, plain);
                let group = marks.group.map_or(".", GroupMark::as_str);
                prop_assert!(group == "." || !plain.contains(group), "{:?} -> {:?}", cell, plain);
            }
        }
    }

    #[test]
    fn toml_escapes_are_found_inside_the_text(text in syntax_text()) {
        for (offset, length, _) in toml_escapes::forbidden_escapes(&text) {
            prop_assert!(offset + length <= text.len());
        }
    }
}

const DECIMALS: [DecimalMark; 2] = [DecimalMark::Point, DecimalMark::Comma];
const GROUPS: [Option<GroupMark>; 7] = [
    None,
    Some(GroupMark::Comma),
    Some(GroupMark::Point),
    Some(GroupMark::Space),
    Some(GroupMark::NoBreakSpace),
    Some(GroupMark::NarrowNoBreakSpace),
    Some(GroupMark::Apostrophe),
];

/// `n` with `group` between each three digits of it (`1234567` -> `1,234,567`).
fn grouped(n: u64, group: Option<GroupMark>) -> String {
    let digits = n.to_string();
    let Some(group) = group else {
        return digits;
    };
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push_str(group.as_str());
        }
        out.push(c);
    }
    out
}
