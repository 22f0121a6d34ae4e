//! Cells against their column: whether a cell is of the declared type and within its
//! constraints, and how it is shown to a reader. What the author declares is
//! `crate::content::columns`.

pub use crate::content::columns::{ColumnSpec, ColumnType};
use crate::content::iso8601::{is_iso_date, is_iso_datetime};

/// The checks of a cell against its column's type. They live here, beside the rest of
/// the cell checks, while the type itself is part of what authors write (`content`).
impl ColumnType {
    /// Whether one non-empty cell is of this type.
    #[inline]
    pub fn is_valid(self, value: &str) -> bool {
        match self {
            ColumnType::String => true,
            ColumnType::Integer => is_integer(value),
            ColumnType::Number => is_number(value),
            ColumnType::Date => is_iso_date(value),
            ColumnType::Datetime => is_iso_datetime(value),
            ColumnType::Boolean => parse_boolean(value).is_some(),
        }
    }

    /// Checks one non-empty cell; the error says what a valid cell looks like.
    pub fn check(self, value: &str) -> Result<(), &'static str> {
        if self.is_valid(value) {
            Ok(())
        } else {
            Err(match self {
                ColumnType::String => "text",
                ColumnType::Integer => {
                    "a whole number such as 10366 or -12 (no thousands separators)"
                }
                ColumnType::Number => {
                    "a number such as 1.969, 16.0 or 2.5e3 (no thousands separators), or NaN, INF, -INF"
                }
                ColumnType::Date => "an ISO 8601 date: 2021, 2021-04 or 2021-05-21",
                ColumnType::Datetime => {
                    "an ISO 8601 date and time with a zone: 2011-09-19T17:54:28Z or 2011-09-19T19:54:28+02:00"
                }
                ColumnType::Boolean => "true, false, True, False, TRUE, FALSE, 1 or 0",
            })
        }
    }
}

/// A valid number cell that a 64-bit float cannot hold: what most readers of the CSV
/// (pandas, R, JavaScript) turn it into is not what it says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unrepresentable {
    /// Beyond about 1.8e308: read as infinity.
    TooLarge,
    /// Not zero, but closer to zero than about 4.9e-324: read as 0.
    TooSmall,
}

impl Unrepresentable {
    /// Whether the valid number cell `value`, read as `parsed`, is one of these (`INF`,
    /// `-INF` and `NaN` are what they say; `0e-999` is zero).
    pub fn of(value: &str, parsed: f64) -> Option<Unrepresentable> {
        let nonzero_digits = || {
            value
                .bytes()
                .take_while(|b| !matches!(b, b'e' | b'E'))
                .any(|b| matches!(b, b'1'..=b'9'))
        };
        if parsed.is_infinite() && !matches!(value, "INF" | "-INF") {
            Some(Unrepresentable::TooLarge)
        } else if parsed == 0.0 && nonzero_digits() {
            Some(Unrepresentable::TooSmall)
        } else {
            None
        }
    }
}

fn is_integer(value: &str) -> bool {
    let digits = value.strip_prefix(['-', '+']).unwrap_or(value);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `[+-]digits[.digits][e[+-]digits]`, with digits on at least one side of the point, or
/// one of Table Schema's special values `NaN`, `INF`, `-INF` (spelled exactly so).
/// One pass over the bytes, no allocation: this runs for every numeric cell.
fn is_number(value: &str) -> bool {
    if matches!(value, "NaN" | "INF" | "-INF") {
        return true;
    }
    let bytes = value.as_bytes();
    let mut i = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < bytes.len() && bytes[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    let whole = digits(&mut i);
    let mut fraction = 0;
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        fraction = digits(&mut i);
    }
    if whole == 0 && fraction == 0 {
        return false;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == bytes.len()
}

/// How precise a valid date cell is; metadata maps a column to the matching
/// standard type (`year`, `yearmonth`, `date`, `datetime`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DatePrecision {
    Year = 1,
    YearMonth = 2,
    Day = 4,
    DateTime = 8,
}

impl DatePrecision {
    /// The precision of a cell that passed the date check.
    ///
    /// Valid dates are `YYYY`, `YYYY-MM`, `YYYY-MM-DD` or longer with a time, so the length
    /// alone tells (this runs for every date cell).
    pub fn of(value: &str) -> DatePrecision {
        match value.len() {
            ..=4 => DatePrecision::Year,
            5..=7 => DatePrecision::YearMonth,
            8..=10 => DatePrecision::Day,
            _ => DatePrecision::DateTime,
        }
    }

    /// The single precision of a set seen in a column (a bit mask), if there is one.
    pub fn single(mask: u8) -> Option<DatePrecision> {
        [
            DatePrecision::Year,
            DatePrecision::YearMonth,
            DatePrecision::Day,
            DatePrecision::DateTime,
        ]
        .into_iter()
        .find(|p| *p as u8 == mask)
    }
}

/// Frictionless Table Schema's default true and false values.
pub fn parse_boolean(value: &str) -> Option<bool> {
    match value {
        "true" | "True" | "TRUE" | "1" => Some(true),
        "false" | "False" | "FALSE" | "0" => Some(false),
        _ => None,
    }
}

/// How a valid boolean cell is spelled: CSVW's boolean `format` names one true and one
/// false spelling, so a column can only be declared in the spellings it uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum BooleanSpelling {
    /// `true`/`false`: what CSVW reads without a format.
    Lower,
    /// `1`/`0`: also read without a format.
    Digit,
    /// `True`/`False`.
    Title,
    /// `TRUE`/`FALSE`.
    Upper,
}

impl BooleanSpelling {
    /// The spelling of a valid boolean cell; `None` for anything else.
    pub fn of(value: &str) -> Option<BooleanSpelling> {
        match value {
            "true" | "false" => Some(BooleanSpelling::Lower),
            "1" | "0" => Some(BooleanSpelling::Digit),
            "True" | "False" => Some(BooleanSpelling::Title),
            "TRUE" | "FALSE" => Some(BooleanSpelling::Upper),
            _ => None,
        }
    }

    /// The true form and the false form.
    pub fn forms(self) -> (&'static str, &'static str) {
        match self {
            BooleanSpelling::Lower => ("true", "false"),
            BooleanSpelling::Digit => ("1", "0"),
            BooleanSpelling::Title => ("True", "False"),
            BooleanSpelling::Upper => ("TRUE", "FALSE"),
        }
    }

    /// The CSVW `format` (true form, then false form), or `None` when CSVW's default
    /// lexical forms (`true`, `false`, `1`, `0`) already cover it.
    pub fn csvw_format(self) -> Option<&'static str> {
        match self {
            BooleanSpelling::Lower | BooleanSpelling::Digit => None,
            BooleanSpelling::Title => Some("True|False"),
            BooleanSpelling::Upper => Some("TRUE|FALSE"),
        }
    }
}

/// `1234` -> `1,234`: a count as the page prints it.
pub fn thousands(n: u64) -> String {
    if n < 1000 {
        return n.to_string();
    }
    let mut out = String::new();
    group_thousands(&n.to_string(), &mut out);
    out
}

/// Appends a cell as readers see it: integers with thousands separators, decimals kept
/// at the precision the CSV prints (`1.969` stays `1.969`, `16.0` stays `16.0`) up to 15
/// significant digits (`7.0520000000000005` is `7.052`), everything else as is.
/// The output is not escaped; numbers never need it.
pub fn format_cell(column_type: ColumnType, value: &str, out: &mut String) {
    let finite = value.bytes().any(|b| b.is_ascii_digit()) && !value.contains(['e', 'E']);
    if column_type.is_numeric() && finite && column_type.check(value).is_ok() {
        group_thousands(value, out);
    } else if column_type.is_numeric() && column_type.check(value).is_ok() {
        push_scientific(value, out);
    } else {
        out.push_str(value);
    }
}

/// `1.2300000000000001e-05` -> `1.23e-05`: the mantissa without float noise, the exponent
/// as written (also what `NaN` and `INF`, which have no `.`, come out as).
fn push_scientific(value: &str, out: &mut String) {
    let (mantissa, exponent) = value.split_at(value.find(['e', 'E']).unwrap_or(value.len()));
    let (sign, rest) = mantissa.split_at(usize::from(mantissa.starts_with(['-', '+'])));
    match rest
        .split_once('.')
        .and_then(|(whole, fraction)| without_float_noise(whole, fraction))
    {
        Some((whole, fraction)) => {
            out.push_str(sign);
            out.push_str(&whole);
            if !fraction.is_empty() {
                out.push('.');
                out.push_str(&fraction);
            }
        }
        None => out.push_str(mantissa),
    }
    out.push_str(exponent);
}

/// Appends a numeric cell that passed its check, grouped for reading, HTML-safe: the
/// table writer's fast path (no re-check, no intermediate string). Anything else is
/// escaped as text.
pub fn format_number_html(value: &str, out: &mut String) {
    let plain = value
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+'));
    let scientific = || {
        value.contains(['e', 'E'])
            && value
                .bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'))
    };
    if plain && is_number(value) {
        group_thousands(value, out);
    } else if scientific() && is_number(value) {
        push_scientific(value, out);
    } else {
        crate::text::escape_html_into(value, out);
    }
}

/// Significant digits a shown number keeps: a double holds 15 for certain, so the digits
/// past them are how the float was printed (`7.0520000000000005`), not what was measured.
pub const SHOWN_DIGITS: usize = 15;

/// A decimal's digits without the noise past [`SHOWN_DIGITS`] significant digits, as
/// (whole, fraction), rounded half up and trailing zeros of the fraction dropped:
/// `70.19800000000001` -> (`70`, `198`). `None` when nothing is past them, or when rounding
/// would reach the whole part (a long integer part is as written, never noise).
pub fn without_float_noise(whole: &str, fraction: &str) -> Option<(String, String)> {
    let digits: Vec<u8> = whole.bytes().chain(fraction.bytes()).collect();
    let first = digits.iter().position(|&d| d != b'0')?;
    let keep = first + SHOWN_DIGITS;
    if keep >= digits.len() || keep < whole.len() {
        return None;
    }
    let mut kept = digits[..keep].to_vec();
    if digits[keep] >= b'5' {
        let mut at = kept.len();
        loop {
            if at == 0 {
                kept.insert(0, b'1');
                break;
            }
            at -= 1;
            if kept[at] == b'9' {
                kept[at] = b'0';
            } else {
                kept[at] += 1;
                break;
            }
        }
    }
    let whole_len = kept.len() - (keep - whole.len());
    let (new_whole, new_fraction) = kept.split_at(whole_len);
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let fraction = text(new_fraction).trim_end_matches('0').to_string();
    Some((text(new_whole), fraction))
}

/// `-1234567.25` -> `-1,234,567.25`; float noise past [`SHOWN_DIGITS`] significant digits
/// is dropped (`7.0520000000000005` -> `7.052`).
fn group_thousands(value: &str, out: &mut String) {
    let (sign, rest) = match value.strip_prefix(['-', '+']) {
        Some(rest) => (&value[..1], rest),
        None => ("", value),
    };
    let (whole, fraction) = match rest.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (rest, None),
    };
    let cleaned = fraction.and_then(|f| without_float_noise(whole, f));
    let (whole, fraction) = match &cleaned {
        Some((w, f)) => (w.as_str(), (!f.is_empty()).then_some(f.as_str())),
        None => (whole, fraction),
    };
    if sign == "-" {
        out.push('-');
    }
    let len = whole.len();
    let first = match len % 3 {
        0 => 3.min(len),
        n => n,
    };
    out.push_str(&whole[..first]);
    let mut at = first;
    while at < len {
        out.push(',');
        out.push_str(&whole[at..at + 3]);
        at += 3;
    }
    if let Some(fraction) = fraction {
        out.push('.');
        out.push_str(fraction);
    }
}

/// A value of a `minimum`/`maximum` constraint, compared in the column's own terms.
pub fn compare_to_bound(
    column_type: ColumnType,
    cell: &str,
    bound: &toml::Value,
) -> Option<std::cmp::Ordering> {
    match column_type {
        ColumnType::Integer | ColumnType::Number => {
            let cell: f64 = cell.parse().ok()?;
            let bound = match bound {
                toml::Value::Integer(i) => *i as f64,
                toml::Value::Float(f) => *f,
                _ => return None,
            };
            cell.partial_cmp(&bound)
        }
        // Compared as text: right for dates, and for date-times written in one zone.
        ColumnType::Date | ColumnType::Datetime => {
            let bound = match bound {
                toml::Value::Datetime(d) => crate::content::date_string(d),
                toml::Value::String(s) => s.clone(),
                _ => return None,
            };
            Some(cell.cmp(bound.as_str()))
        }
        ColumnType::String | ColumnType::Boolean => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(t: ColumnType, v: &str) -> String {
        let mut out = String::new();
        format_cell(t, v, &mut out);
        out
    }

    #[test]
    fn float_noise_past_fifteen_significant_digits_is_not_shown() {
        for (value, expected) in [
            ("7.0520000000000005", "7.052"),
            ("70.19800000000001", "70.198"),
            ("-70.19800000000001", "-70.198"),
            ("0.30000000000000004", "0.3"),
            ("1234567.0000000002", "1,234,567"),
            ("0.000012300000000000001", "0.0000123"),
            ("9.9999999999999999", "10"),
            ("0.99999999999999999", "1"),
            ("1.2300000000000001e-05", "1.23e-05"),
            ("-4.5600000000000003E+20", "-4.56E+20"),
            ("2.5e3", "2.5e3"),
            ("1.7881845268582712", "1.78818452685827"),
            // At most 15 significant digits: as the CSV prints it.
            ("16.0", "16.0"),
            ("1.969", "1.969"),
            ("0.100000000000000", "0.100000000000000"),
            ("123456789012345.6", "123,456,789,012,346"),
            ("12345678901234.56", "12,345,678,901,234.6"),
            // A long whole part is as written, never noise.
            ("12345678901234567.25", "12,345,678,901,234,567.25"),
        ] {
            assert_eq!(shown(ColumnType::Number, value), expected, "{value}");
            let mut html = String::new();
            format_number_html(value, &mut html);
            assert_eq!(html, expected, "{value}");
        }
        assert_eq!(
            shown(ColumnType::Integer, "12345678901234567"),
            "12,345,678,901,234,567"
        );
    }

    #[test]
    fn boolean_spellings_pair_true_and_false_forms() {
        assert_eq!(BooleanSpelling::of("TRUE"), Some(BooleanSpelling::Upper));
        assert_eq!(BooleanSpelling::of("False"), Some(BooleanSpelling::Title));
        assert_eq!(BooleanSpelling::of("0"), Some(BooleanSpelling::Digit));
        assert_eq!(BooleanSpelling::of("yes"), None);
        assert_eq!(BooleanSpelling::Upper.csvw_format(), Some("TRUE|FALSE"));
        assert_eq!(BooleanSpelling::Title.csvw_format(), Some("True|False"));
        assert_eq!(BooleanSpelling::Lower.csvw_format(), None);
        for value in ["true", "True", "TRUE", "1", "false", "False", "FALSE", "0"] {
            assert!(BooleanSpelling::of(value).is_some(), "{value}");
            assert!(parse_boolean(value).is_some(), "{value}");
        }
    }

    #[test]
    fn the_precision_of_a_valid_date_follows_its_length() {
        for (value, precision) in [
            ("2021", DatePrecision::Year),
            ("2021-04", DatePrecision::YearMonth),
            ("2021-05-21", DatePrecision::Day),
            ("2021-05-21T10:00", DatePrecision::DateTime),
            ("2021-05-21T10:00:00+02:00", DatePrecision::DateTime),
        ] {
            assert!(ColumnType::Date.is_valid(value), "{value}");
            assert_eq!(DatePrecision::of(value), precision, "{value}");
        }
    }

    #[test]
    fn a_datetime_has_a_full_date_a_time_and_a_zone() {
        for value in [
            "2011-09-19T17:54:28Z",
            "2011-09-19T17:54:28.5Z",
            "2011-09-19T19:54:28+02:00",
            "2011-09-19T12:54-05:00",
        ] {
            assert!(ColumnType::Datetime.is_valid(value), "{value}");
        }
        for value in [
            "2011-09-19T17:54:28",
            "2011-09-19",
            "2011-09T17:54Z",
            "2011-02-30T17:54:28Z",
            "2011-09-19 17:54:28Z",
            "2011-09-19T25:00:00Z",
        ] {
            assert!(ColumnType::Datetime.check(value).is_err(), "{value}");
        }
    }

    #[test]
    fn table_schema_special_numbers_are_numbers_as_spelled() {
        for value in ["NaN", "INF", "-INF"] {
            assert!(ColumnType::Number.is_valid(value), "{value}");
            assert_eq!(shown(ColumnType::Number, value), value);
            let mut html = String::new();
            format_number_html(value, &mut html);
            assert_eq!(html, value);
        }
        for value in ["nan", "inf", "-inf", "Infinity", "+INF", "NAN"] {
            assert!(ColumnType::Number.check(value).is_err(), "{value}");
        }
        assert!(ColumnType::Integer.check("INF").is_err());
    }

    #[test]
    fn integers_get_thousands_separators() {
        assert_eq!(shown(ColumnType::Integer, "10366"), "10,366");
        assert_eq!(shown(ColumnType::Integer, "86165"), "86,165");
        assert_eq!(shown(ColumnType::Integer, "999"), "999");
        assert_eq!(shown(ColumnType::Integer, "-1234567"), "-1,234,567");
        assert_eq!(shown(ColumnType::Number, "10366"), "10,366");
    }

    #[test]
    fn decimals_keep_their_printed_precision() {
        assert_eq!(shown(ColumnType::Number, "1.969"), "1.969");
        assert_eq!(shown(ColumnType::Number, "16.0"), "16.0");
        assert_eq!(shown(ColumnType::Number, "0.250"), "0.250");
        assert_eq!(shown(ColumnType::Number, "1234.50"), "1,234.50");
        assert_eq!(shown(ColumnType::Number, "2.5e3"), "2.5e3");
    }

    #[test]
    fn non_numbers_are_shown_as_written() {
        assert_eq!(shown(ColumnType::String, "10366"), "10366");
        assert_eq!(shown(ColumnType::Date, "2021-05-21"), "2021-05-21");
        assert_eq!(shown(ColumnType::Number, "n/a"), "n/a");
    }

    #[test]
    fn integer_and_number_checks() {
        for ok in ["0", "-12", "+7", "10366"] {
            assert!(ColumnType::Integer.check(ok).is_ok(), "{ok}");
        }
        for bad in ["", "1.0", "1,000", "1e3", "-", "twelve"] {
            assert!(ColumnType::Integer.check(bad).is_err(), "{bad}");
        }
        for ok in ["1.969", "16.0", ".5", "5.", "-3e5", "2.5E-3", "10366"] {
            assert!(ColumnType::Number.check(ok).is_ok(), "{ok}");
        }
        for bad in [
            "", ".", "1,5", "1.2.3", "nan", "inf", "e5", "1e", "--1", "1 000",
        ] {
            assert!(ColumnType::Number.check(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn date_checks_follow_iso_8601() {
        for ok in [
            "2021",
            "2021-04",
            "2021-05-21",
            "2024-02-29",
            "2021-05-21T10:30:00Z",
            "2021-05-21T10:30+02:00",
        ] {
            assert!(ColumnType::Date.check(ok).is_ok(), "{ok}");
        }
        for bad in [
            "21",
            "2021-13",
            "2021-02-29",
            "2021-4-1",
            "May 2021",
            "2021-05-21T25:00",
            "2021-05T10:00",
        ] {
            assert!(ColumnType::Date.check(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn boolean_checks_use_frictionless_defaults() {
        assert_eq!(parse_boolean("TRUE"), Some(true));
        assert_eq!(parse_boolean("0"), Some(false));
        assert_eq!(parse_boolean("yes"), None);
    }

    #[test]
    fn bounds_compare_numbers_and_dates() {
        use std::cmp::Ordering::*;
        let zero = toml::Value::Integer(0);
        assert_eq!(
            compare_to_bound(ColumnType::Number, "-0.5", &zero),
            Some(Less)
        );
        assert_eq!(
            compare_to_bound(ColumnType::Integer, "3", &toml::Value::Float(2.5)),
            Some(Greater)
        );
        let day = toml::Value::String("2021-05-21".into());
        assert_eq!(
            compare_to_bound(ColumnType::Date, "2021-06-01", &day),
            Some(Greater)
        );
    }
}
