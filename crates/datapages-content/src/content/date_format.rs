//! A `date` or `datetime` column's `format`: a strftime-style pattern (what Frictionless
//! Table Schema's `format` uses) compiled once, then matched against each cell without
//! allocating. A matched cell is rewritten in the one style pages show (ISO 8601:
//! `2019-03-04`, `2019-03`, `2019-W07`, `1995-01-01T13:45`, and `1974 Q1` for a quarter),
//! which is also what charts place, profiles compare and bounds are checked against.
//!
//! Directives: `%Y` year (4 digits), `%m` month (1 or 2 digits, exactly 2 right beside
//! another number, as in `%Y%m%d`), `%d` day (the same),
//! `%b` month abbreviation (`Jan`), `%B` month name (`January`, either case), `%H` hour,
//! `%M` minute, `%S` second (1 or 2 digits each), `%z` zone (`Z`, `+02:00`, `+0200`),
//! `%G` ISO week-numbering year with `%V` ISO week (`%G-W%V`), `%q` quarter (1 to 4),
//! `%%` a percent sign. Every other character stands for itself.

use std::fmt::Write as _;

use crate::content::columns::ColumnType;
use crate::content::iso8601;

/// What a format's cells are: the precision shown, placed and exported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateKind {
    Year,
    YearMonth,
    Day,
    /// An ISO week (`%G-W%V`), placed at its Monday.
    Week,
    /// A quarter (`%Y Q%q`), placed at its first day.
    Quarter,
    /// A date and a time; the zone only when the format has `%z`.
    DateTime {
        seconds: bool,
        zone: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Item {
    Literal(char),
    Year,
    Month,
    MonthAbbr,
    MonthName,
    Day,
    Hour,
    Minute,
    Second,
    Zone,
    IsoYear,
    IsoWeek,
    Quarter,
}

/// A compiled `format`.
#[derive(Debug, Clone, PartialEq)]
pub struct DateFormat {
    items: Vec<Item>,
    /// Per item: a number right beside another number takes exactly two digits
    /// (`%Y%m%d`: `19580329`, never `1958032`).
    two_digits: Vec<bool>,
    kind: DateKind,
}

/// Why a `format` cannot be used, with what to write instead.
#[derive(Debug, Clone, PartialEq)]
pub struct FormatProblem {
    pub message: String,
    pub hint: String,
}

/// Spellings of dates real files use, in order of preference (month first before day
/// first, as pandas and readr read `03/04/2019`): what `new --from` tries, and what the
/// hint of a date column whose cells are not ISO suggests.
pub const COMMON_FORMATS: &[(&str, ColumnType)] = &[
    ("%Y%m%d", ColumnType::Date),
    ("%m/%d/%Y", ColumnType::Date),
    ("%d/%m/%Y", ColumnType::Date),
    ("%d.%m.%Y", ColumnType::Date),
    ("%m-%d-%Y", ColumnType::Date),
    ("%d-%m-%Y", ColumnType::Date),
    ("%b-%d-%Y", ColumnType::Date),
    ("%d-%b-%Y", ColumnType::Date),
    ("%b %d, %Y", ColumnType::Date),
    ("%B %d, %Y", ColumnType::Date),
    ("%d %b %Y", ColumnType::Date),
    ("%d %B %Y", ColumnType::Date),
    ("%m/%Y", ColumnType::Date),
    ("%b %Y", ColumnType::Date),
    ("%B %Y", ColumnType::Date),
    ("%G-W%V", ColumnType::Date),
    ("%YQ%q", ColumnType::Date),
    ("%Y Q%q", ColumnType::Date),
    ("%Y-Q%q", ColumnType::Date),
    ("%Y-%m-%d %H:%M", ColumnType::Datetime),
    ("%Y-%m-%d %H:%M:%S", ColumnType::Datetime),
    ("%m/%d/%Y %H:%M", ColumnType::Datetime),
    ("%d/%m/%Y %H:%M", ColumnType::Datetime),
    ("%m/%d/%Y %H:%M:%S", ColumnType::Datetime),
    ("%d/%m/%Y %H:%M:%S", ColumnType::Datetime),
];

/// The first of [`COMMON_FORMATS`] for `column_type` that reads every one of `cells`.
pub fn common_format_of<'a>(
    cells: impl Iterator<Item = &'a str> + Clone,
    column_type: ColumnType,
) -> Option<&'static str> {
    COMMON_FORMATS
        .iter()
        .filter(|(_, t)| *t == column_type)
        .find(|(pattern, t)| {
            DateFormat::compile(pattern, *t)
                .is_ok_and(|f| cells.clone().all(|c| f.parse(c).is_some()))
        })
        .map(|(pattern, _)| *pattern)
}

const DIRECTIVES_HINT: &str = "use %Y %m %d %b %B for dates, %H %M %S %z for times, %G-W%V for ISO weeks, %q for quarters, %% for a percent sign";

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// One parsed cell.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DateValue {
    pub year: i32,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    /// Minutes east of UTC, when the cell states its zone.
    pub offset: Option<i32>,
    pub week: u32,
    pub quarter: u32,
}

impl DateFormat {
    /// Compiles `pattern` for a column of `column_type` (`date` or `datetime`).
    pub fn compile(pattern: &str, column_type: ColumnType) -> Result<DateFormat, FormatProblem> {
        let items = directives(pattern)?;
        let kind = kind_of(pattern, &items)?;
        let is_datetime = matches!(kind, DateKind::DateTime { .. });
        if column_type == ColumnType::Datetime && !is_datetime {
            return Err(problem(
                format!("the format {pattern:?} has no time, but the column is a datetime"),
                "add %H:%M (and %S, %z), or declare type = \"date\"",
            ));
        }
        if column_type == ColumnType::Date && is_datetime {
            return Err(problem(
                format!("the format {pattern:?} has a time, but the column is a date"),
                "declare type = \"datetime\", or leave the time out of the format",
            ));
        }
        let numeric = |i: Option<&Item>| i.is_some_and(|i| !matches!(i, Item::Literal(_)));
        let two_digits = (0..items.len())
            .map(|n| {
                numeric(items.get(n))
                    && (numeric(items.get(n + 1)) || n > 0 && numeric(items.get(n - 1)))
            })
            .collect();
        Ok(DateFormat {
            items,
            two_digits,
            kind,
        })
    }

    /// What the format's cells are.
    pub fn kind(&self) -> DateKind {
        self.kind
    }

    /// The cell parsed, if it matches the format and is a real date.
    pub fn parse(&self, cell: &str) -> Option<DateValue> {
        let mut value = DateValue {
            month: 1,
            day: 1,
            ..DateValue::default()
        };
        let mut rest = cell;
        for (item, &two) in self.items.iter().zip(&self.two_digits) {
            let number = |text, low, high, into: &mut u32| number(text, two, low, high, into);
            rest = match item {
                Item::Literal(c) => rest.strip_prefix(*c)?,
                Item::Year | Item::IsoYear => {
                    let (n, r) = digits(rest, 4, 4)?;
                    value.year = n as i32;
                    r
                }
                Item::Month => number(rest, 1, 12, &mut value.month)?,
                Item::Day => number(rest, 1, 31, &mut value.day)?,
                Item::Hour => number(rest, 0, 23, &mut value.hour)?,
                Item::Minute => number(rest, 0, 59, &mut value.minute)?,
                Item::Second => number(rest, 0, 60, &mut value.second)?,
                Item::IsoWeek => number(rest, 1, 53, &mut value.week)?,
                Item::Quarter => {
                    let (n, r) = digits(rest, 1, 1)?;
                    value.quarter = (1..=4).contains(&n).then_some(n)?;
                    r
                }
                Item::MonthAbbr | Item::MonthName => {
                    let full = *item == Item::MonthName;
                    let (month, r) = month_name(rest, full)?;
                    value.month = month;
                    r
                }
                Item::Zone => {
                    let (offset, r) = zone(rest)?;
                    value.offset = Some(offset);
                    r
                }
            };
        }
        if !rest.is_empty() {
            return None;
        }
        let real = match self.kind {
            DateKind::Week => value.week <= iso8601::weeks_in_year(i64::from(value.year)),
            _ => value.day <= iso8601::days_in_month(value.year.max(0) as u32, value.month),
        };
        real.then_some(value)
    }

    /// Clears `out` and writes the cell in the shown style; false (and `out` empty) when
    /// the cell does not match. No allocation once `out` has room.
    pub fn canonical(&self, cell: &str, out: &mut String) -> bool {
        out.clear();
        match self.parse(cell) {
            Some(value) => {
                self.write(&value, out);
                true
            }
            None => false,
        }
    }

    /// Writes a parsed value in the shown style (digits pushed one by one: this runs for
    /// every formatted cell).
    pub fn write(&self, v: &DateValue, out: &mut String) {
        push_digits(out, v.year.max(0) as u32, 4);
        match self.kind {
            DateKind::Year => {}
            DateKind::YearMonth => {
                out.push('-');
                push_digits(out, v.month, 2);
            }
            DateKind::Day => push_day(out, v),
            DateKind::Week => {
                out.push_str("-W");
                push_digits(out, v.week, 2);
            }
            DateKind::Quarter => {
                out.push_str(" Q");
                push_digits(out, v.quarter, 1);
            }
            DateKind::DateTime { seconds, .. } => {
                push_day(out, v);
                out.push('T');
                push_digits(out, v.hour, 2);
                out.push(':');
                push_digits(out, v.minute, 2);
                if seconds {
                    out.push(':');
                    push_digits(out, v.second, 2);
                }
                match v.offset {
                    Some(0) => out.push('Z'),
                    Some(m) => {
                        out.push(if m < 0 { '-' } else { '+' });
                        push_digits(out, m.unsigned_abs() / 60, 2);
                        out.push(':');
                        push_digits(out, m.unsigned_abs() % 60, 2);
                    }
                    None => {}
                }
            }
        }
    }

    /// 4 March 2019, 13:45 UTC written in this format: what a hint shows.
    pub fn example(&self) -> String {
        let mut out = String::new();
        for item in &self.items {
            let _ = match item {
                Item::Literal(c) => write!(out, "{c}"),
                Item::Year | Item::IsoYear => write!(out, "2019"),
                Item::Month => write!(out, "03"),
                Item::MonthAbbr => write!(out, "Mar"),
                Item::MonthName => write!(out, "March"),
                Item::Day => write!(out, "04"),
                Item::Hour => write!(out, "13"),
                Item::Minute => write!(out, "45"),
                Item::Second => write!(out, "00"),
                Item::Zone => write!(out, "+01:00"),
                Item::IsoWeek => write!(out, "10"),
                Item::Quarter => write!(out, "1"),
            };
        }
        out
    }

    /// Whether Python's `strptime` (what Frictionless reads `format` with) reads every
    /// directive: not weeks without a weekday, not quarters.
    pub fn strptime_reads(&self) -> bool {
        !matches!(self.kind, DateKind::Week | DateKind::Quarter)
    }

    /// A regular expression every matching cell matches (anchored by its reader: Table
    /// Schema's `pattern` and CSVW's string `format` match whole values).
    pub fn regex(&self) -> String {
        let mut out = String::new();
        for item in &self.items {
            match item {
                Item::Literal(c) => out.push_str(&regex::escape(&c.to_string())),
                Item::Year | Item::IsoYear => out.push_str("[0-9]{4}"),
                Item::Month => out.push_str("(0?[1-9]|1[0-2])"),
                Item::Day => out.push_str("(0?[1-9]|[12][0-9]|3[01])"),
                Item::Hour => out.push_str("([01]?[0-9]|2[0-3])"),
                Item::Minute => out.push_str("[0-5]?[0-9]"),
                Item::Second => out.push_str("([0-5]?[0-9]|60)"),
                Item::Zone => out.push_str("(Z|[+-][0-9]{2}(:?[0-9]{2})?)"),
                Item::IsoWeek => out.push_str("(0?[1-9]|[1-4][0-9]|5[0-3])"),
                Item::Quarter => out.push_str("[1-4]"),
                Item::MonthAbbr | Item::MonthName => {
                    let names: Vec<String> = MONTHS
                        .iter()
                        .flat_map(|m| {
                            let m = if *item == Item::MonthAbbr { &m[..3] } else { m };
                            [m.to_string(), m.to_lowercase(), m.to_uppercase()]
                        })
                        .collect();
                    let _ = write!(out, "({})", names.join("|"));
                }
            }
        }
        out
    }

    /// The CSVW date or date-time format of this pattern, where CSVW's fixed list has one
    /// that reads the same cells (its `d` and `M` take one or two digits, as `%d` and `%m`
    /// do here; `yyyyMMdd` is the one fixed-width form).
    pub fn csvw_format(&self) -> Option<String> {
        let day_part = |items: &[Item]| -> Option<String> {
            let (first, separator, second) = match items {
                [Item::Year, Item::Literal('-'), Item::Month, Item::Literal('-'), Item::Day] => {
                    return Some("yyyy-MM-dd".into())
                }
                [Item::Year, Item::Month, Item::Day] => return Some("yyyyMMdd".into()),
                [Item::Day, Item::Literal(s), Item::Month, Item::Literal(t), Item::Year]
                    if s == t =>
                {
                    ("d", s, "M")
                }
                [Item::Month, Item::Literal(s), Item::Day, Item::Literal(t), Item::Year]
                    if s == t =>
                {
                    ("M", s, "d")
                }
                _ => return None,
            };
            matches!(separator, '-' | '/' | '.')
                .then(|| format!("{first}{separator}{second}{separator}yyyy"))
        };
        match self.kind {
            DateKind::Day => day_part(&self.items),
            DateKind::DateTime { seconds, zone } => {
                let at = self.items.iter().position(|i| *i == Item::Hour)?;
                let (date, time) = self.items.split_at(at.checked_sub(1)?);
                let date = day_part(date)?;
                let separator = match time.first()? {
                    Item::Literal('T') if date == "yyyy-MM-dd" => 'T',
                    Item::Literal(' ') => ' ',
                    _ => return None,
                };
                let mut expected = vec![
                    Item::Literal(separator),
                    Item::Hour,
                    Item::Literal(':'),
                    Item::Minute,
                ];
                if seconds {
                    expected.extend([Item::Literal(':'), Item::Second]);
                }
                if zone {
                    expected.push(Item::Zone);
                }
                (time == expected.as_slice()).then(|| {
                    let clock = if seconds { "HH:mm:ss" } else { "HH:mm" };
                    let zone = if zone { "XXX" } else { "" };
                    format!("{date}{separator}{clock}{zone}")
                })
            }
            _ => None,
        }
    }
}

/// `-MM-DD` after the year.
fn push_day(out: &mut String, v: &DateValue) {
    out.push('-');
    push_digits(out, v.month, 2);
    out.push('-');
    push_digits(out, v.day, 2);
}

/// `n` in `width` digits, zero-padded (the lowest `width` digits when longer).
fn push_digits(out: &mut String, n: u32, width: u32) {
    for place in (0..width).rev() {
        let digit = (n / 10u32.pow(place)) % 10;
        out.push(char::from(b'0' + digit as u8));
    }
}

/// `min..=max` ASCII digits at the start of `text`, as a number, and the rest.
fn digits(text: &str, min: usize, max: usize) -> Option<(u32, &str)> {
    let len = text
        .bytes()
        .take(max)
        .take_while(u8::is_ascii_digit)
        .count();
    if len < min {
        return None;
    }
    let n = text.as_bytes()[..len]
        .iter()
        .fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
    Some((n, &text[len..]))
}

/// One or two digits (two when `two`) in `low..=high` into `into`, and the rest.
fn number<'a>(text: &'a str, two: bool, low: u32, high: u32, into: &mut u32) -> Option<&'a str> {
    let (n, rest) = digits(text, if two { 2 } else { 1 }, 2)?;
    *into = (low..=high).contains(&n).then_some(n)?;
    Some(rest)
}

/// An English month name (or its first three letters) in any case, and the rest.
fn month_name(text: &str, full: bool) -> Option<(u32, &str)> {
    MONTHS.iter().zip(1..).find_map(|(name, n)| {
        let name = if full { name } else { &name[..3] };
        let head = text.get(..name.len())?;
        head.eq_ignore_ascii_case(name)
            .then(|| (n, &text[name.len()..]))
    })
}

/// `Z`, `±hh:mm`, `±hhmm` or `±hh`: minutes east of UTC, and the rest.
fn zone(text: &str) -> Option<(i32, &str)> {
    if let Some(rest) = text.strip_prefix('Z') {
        return Some((0, rest));
    }
    let sign = match text.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let (hours, rest) = digits(&text[1..], 2, 2)?;
    let rest_after_colon = rest.strip_prefix(':').unwrap_or(rest);
    let (minutes, rest) = match digits(rest_after_colon, 2, 2) {
        Some(found) => found,
        None if rest_after_colon.len() == rest.len() => (0, rest),
        None => return None,
    };
    (hours <= 23 && minutes <= 59).then_some((sign * (hours * 60 + minutes) as i32, rest))
}

/// A problem with a `format`, and what to write instead.
fn problem(message: String, hint: &str) -> FormatProblem {
    FormatProblem {
        message,
        hint: hint.to_string(),
    }
}

/// The directives and literal characters of `pattern`, each directive at most once.
fn directives(pattern: &str) -> Result<Vec<Item>, FormatProblem> {
    let mut items = Vec::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            items.push(Item::Literal(c));
            continue;
        }
        let item = match chars.next() {
            Some('Y') => Item::Year,
            Some('m') => Item::Month,
            Some('b') => Item::MonthAbbr,
            Some('B') => Item::MonthName,
            Some('d') => Item::Day,
            Some('H') => Item::Hour,
            Some('M') => Item::Minute,
            Some('S') => Item::Second,
            Some('z') => Item::Zone,
            Some('G') => Item::IsoYear,
            Some('V') => Item::IsoWeek,
            Some('q') => Item::Quarter,
            Some('%') => Item::Literal('%'),
            Some(other) => {
                return Err(problem(
                    format!("unknown directive `%{other}` in the format {pattern:?}"),
                    DIRECTIVES_HINT,
                ))
            }
            None => {
                return Err(problem(
                    format!("the format {pattern:?} ends with a lone `%`"),
                    "write `%%` for a percent sign",
                ))
            }
        };
        if item != Item::Literal('%') && items.contains(&item) {
            return Err(problem(
                format!("the format {pattern:?} has a directive twice"),
                "each of %Y %m %d %H %M %S … may appear once",
            ));
        }
        items.push(item);
    }
    Ok(items)
}

/// What a pattern's cells are (a year, a month, a day, a quarter, a week or a date and
/// time), from its directives; a combination that states no single kind is a problem.
fn kind_of(pattern: &str, items: &[Item]) -> Result<DateKind, FormatProblem> {
    let has = |i: Item| items.contains(&i);
    let month = [Item::Month, Item::MonthAbbr, Item::MonthName]
        .iter()
        .filter(|m| has(**m))
        .count();
    let time = has(Item::Hour) || has(Item::Minute) || has(Item::Second) || has(Item::Zone);
    let kind = if has(Item::IsoYear) || has(Item::IsoWeek) {
        if !(has(Item::IsoYear) && has(Item::IsoWeek)) || has(Item::Year) || month > 0 {
            return Err(problem(
                format!("the format {pattern:?} mixes an ISO week with other parts"),
                "an ISO week is written with %G and %V only, as in \"%G-W%V\"",
            ));
        }
        DateKind::Week
    } else if !has(Item::Year) {
        return Err(problem(
            format!("the format {pattern:?} has no year"),
            "add %Y (four digits), or %G-W%V for an ISO week",
        ));
    } else if has(Item::Quarter) {
        if month > 0 || has(Item::Day) {
            return Err(problem(
                format!("the format {pattern:?} has a quarter and a month or day"),
                "a quarter is written with %Y and %q only, as in \"%YQ%q\"",
            ));
        }
        DateKind::Quarter
    } else if month > 1 {
        return Err(problem(
            format!("the format {pattern:?} has the month twice"),
            "use one of %m, %b and %B",
        ));
    } else if has(Item::Day) && month == 0 {
        return Err(problem(
            format!("the format {pattern:?} has a day but no month"),
            "add %m, %b or %B",
        ));
    } else if time {
        if !(has(Item::Day) && has(Item::Hour) && has(Item::Minute)) {
            return Err(problem(
                format!("the format {pattern:?} has part of a time"),
                "a date and time needs %Y, a month, %d, %H and %M (%S and %z may follow)",
            ));
        }
        DateKind::DateTime {
            seconds: has(Item::Second),
            zone: has(Item::Zone),
        }
    } else if has(Item::Day) {
        DateKind::Day
    } else if month == 1 {
        DateKind::YearMonth
    } else {
        DateKind::Year
    };
    Ok(kind)
}

#[cfg(test)]
#[path = "date_format_tests.rs"]
mod tests;
