//! The date pattern language: each spelling read and shown in ISO style, real dates only
//! (leap years, week 53, quarters 1 to 4), mistakes in a format explained, the exports.

use super::*;
use crate::content::iso8601::day_number;

fn date(pattern: &str) -> DateFormat {
    DateFormat::compile(pattern, ColumnType::Date).expect(pattern)
}

fn shown(format: &DateFormat, cell: &str) -> Option<String> {
    let mut out = String::new();
    format.canonical(cell, &mut out).then_some(out)
}

#[test]
fn each_pattern_reads_its_cells_and_shows_them_in_iso_style() {
    for (pattern, cell, expected) in [
        ("%Y%m%d", "19580329", "1958-03-29"),
        ("%b-%d-%Y", "Jan-1-1995", "1995-01-01"),
        ("%b-%d-%Y", "JAN-01-1995", "1995-01-01"),
        ("%B %d, %Y", "March 4, 2019", "2019-03-04"),
        ("%m/%Y", "03/2019", "2019-03"),
        ("%m/%Y", "3/2019", "2019-03"),
        ("%d/%m/%Y", "04/03/2019", "2019-03-04"),
        ("%m/%d/%Y", "03/04/2019", "2019-03-04"),
        ("%d.%m.%Y", "4.3.2019", "2019-03-04"),
        ("%G-W%V", "2019-W07", "2019-W07"),
        ("%YQ%q", "1974Q1", "1974 Q1"),
        ("%Y Q%q", "1974 Q4", "1974 Q4"),
        ("%Y", "1999", "1999"),
        ("%Y-%m-%d", "2019-03-04", "2019-03-04"),
        ("100%% %Y", "100% 2019", "2019"),
    ] {
        assert_eq!(
            shown(&date(pattern), cell).as_deref(),
            Some(expected),
            "{pattern} {cell}"
        );
    }
    let datetime = |p: &str| DateFormat::compile(p, ColumnType::Datetime).expect(p);
    for (pattern, cell, expected) in [
        ("%Y-%m-%d %H:%M", "1995-01-01 13:45", "1995-01-01T13:45"),
        (
            "%Y-%m-%d %H:%M:%S",
            "1995-01-01 13:45:07",
            "1995-01-01T13:45:07",
        ),
        (
            "%Y-%m-%dT%H:%M%z",
            "1995-01-01T13:45+0200",
            "1995-01-01T13:45+02:00",
        ),
        ("%Y-%m-%dT%H:%M%z", "1995-01-01T13:45Z", "1995-01-01T13:45Z"),
        ("%d/%m/%Y %H:%M", "01/02/1995 7:05", "1995-02-01T07:05"),
    ] {
        assert_eq!(
            shown(&datetime(pattern), cell).as_deref(),
            Some(expected),
            "{pattern} {cell}"
        );
    }
}

#[test]
fn cells_that_do_not_match_or_are_not_real_dates_fail() {
    for (pattern, cell) in [
        ("%Y%m%d", "19580229"),
        ("%Y%m%d", "1958032"),
        ("%Y%m%d", "195803290"),
        ("%Y%m%d", "19581329"),
        ("%d/%m/%Y", "29/02/2019"),
        ("%d/%m/%Y", "31/04/2019"),
        ("%d/%m/%Y", "04-03-2019"),
        ("%d/%m/%Y", "04/03/19"),
        ("%m/%d/%Y", "13/04/2019"),
        ("%b-%d-%Y", "Jna-1-1995"),
        ("%b-%d-%Y", ""),
        ("%G-W%V", "2019-W53"),
        ("%G-W%V", "2019-W00"),
        ("%YQ%q", "1974Q5"),
        ("%YQ%q", "1974Q0"),
        ("%YQ%q", "1974 Q1"),
        ("%m/%Y", "13/2019"),
    ] {
        assert_eq!(shown(&date(pattern), cell), None, "{pattern} {cell}");
    }
    let datetime = DateFormat::compile("%Y-%m-%d %H:%M", ColumnType::Datetime).unwrap();
    for cell in [
        "1995-01-01 24:00",
        "1995-01-01 13:60",
        "1995-01-01T13:45",
        "1995-01-01",
    ] {
        assert_eq!(shown(&datetime, cell), None, "{cell}");
    }
}

#[test]
fn leap_years_follow_the_gregorian_rules() {
    let f = date("%d/%m/%Y");
    assert!(f.parse("29/02/2024").is_some());
    assert!(f.parse("29/02/2000").is_some());
    assert!(f.parse("29/02/1900").is_none());
    assert!(f.parse("29/02/2023").is_none());
}

#[test]
fn week_53_exists_only_in_long_iso_years() {
    let f = date("%G-W%V");
    // 2020 starts on a Wednesday and is a leap year; 2015 and 2026 start on a Thursday.
    for long in ["2020-W53", "2015-W53", "2026-W53", "2004-W53"] {
        assert!(f.parse(long).is_some(), "{long}");
    }
    for short in ["2019-W53", "2021-W53", "2023-W53"] {
        assert!(f.parse(short).is_none(), "{short}");
    }
}

#[test]
fn weeks_and_quarters_lie_at_their_first_day() {
    // 2019-W07 is Monday 11 February 2019; 2020-W01 began on Monday 30 December 2019.
    assert_eq!(day_number("2019-W07"), day_number("2019-02-11"));
    assert_eq!(day_number("2020-W01"), day_number("2019-12-30"));
    assert_eq!(day_number("2020-W53"), day_number("2020-12-28"));
    assert_eq!(day_number("1974 Q1"), day_number("1974-01-01"));
    assert_eq!(day_number("1974 Q3"), day_number("1974-07-01"));
    assert_eq!(day_number("1974 Q5"), None);
    assert_eq!(day_number("2019-W53"), None);
}

#[test]
fn mistakes_in_a_format_are_explained() {
    for (pattern, column_type, says) in [
        ("%Y-%x", ColumnType::Date, "unknown directive `%x`"),
        ("%Y-%m-%", ColumnType::Date, "lone `%`"),
        ("%Y-%Y", ColumnType::Date, "twice"),
        ("%m/%d", ColumnType::Date, "no year"),
        ("%Y-%d", ColumnType::Date, "no month"),
        ("%Y-%m-%b", ColumnType::Date, "month twice"),
        ("%YQ%q-%m", ColumnType::Date, "quarter and a month"),
        ("%Y-W%V", ColumnType::Date, "ISO week"),
        ("%Y-%m-%d %H:%M", ColumnType::Date, "has a time"),
        ("%Y-%m-%d", ColumnType::Datetime, "has no time"),
        ("%Y-%m-%d %H", ColumnType::Datetime, "part of a time"),
    ] {
        let problem = DateFormat::compile(pattern, column_type).expect_err(pattern);
        assert!(
            problem.message.contains(says),
            "{pattern}: {}",
            problem.message
        );
        assert!(!problem.hint.is_empty());
    }
}

#[test]
fn exports_name_the_standards_spellings() {
    assert_eq!(date("%d/%m/%Y").csvw_format().as_deref(), Some("d/M/yyyy"));
    assert_eq!(date("%m/%d/%Y").csvw_format().as_deref(), Some("M/d/yyyy"));
    assert_eq!(date("%Y%m%d").csvw_format().as_deref(), Some("yyyyMMdd"));
    assert_eq!(date("%b-%d-%Y").csvw_format(), None);
    assert_eq!(date("%m/%Y").csvw_format(), None);
    let dt = DateFormat::compile("%Y-%m-%d %H:%M", ColumnType::Datetime).unwrap();
    assert_eq!(dt.csvw_format().as_deref(), Some("yyyy-MM-dd HH:mm"));
    assert!(!date("%G-W%V").strptime_reads());
    assert!(date("%b-%d-%Y").strptime_reads());
    let week = regex::Regex::new(&format!("^(?:{})$", date("%G-W%V").regex())).unwrap();
    assert!(week.is_match("2019-W07") && !week.is_match("2019-W54"));
    let month = regex::Regex::new(&format!("^(?:{})$", date("%b-%d-%Y").regex())).unwrap();
    assert!(month.is_match("Jan-1-1995") && !month.is_match("Jxn-1-1995"));
    assert_eq!(date("%d/%m/%Y").example(), "04/03/2019");
}
