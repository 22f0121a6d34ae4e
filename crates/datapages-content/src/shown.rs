//! Numbers at a display precision: a column's `digits` (decimal places, as a figure's
//! `digits=`), applied wherever that column's values are shown (table, row pages, profile,
//! figures, charts). Without `digits`, a cell is shown as `crate::dataset::schema::format_cell`
//! writes it; downloads always keep the CSV's bytes.

use super::schema::{format_cell, format_number_html, ColumnSpec};

/// Appends `v` at `digits` decimal places, thousands grouped, never `-0`.
pub fn push_fixed(v: f64, digits: u32, out: &mut String) {
    let mut text = format!("{:.*}", digits as usize, v);
    if text.starts_with('-') && text[1..].bytes().all(|b| b == b'0' || b == b'.') {
        text.remove(0);
    }
    format_cell(super::schema::ColumnType::Number, &text, out);
}

/// `v` at `digits` decimal places, thousands grouped, never `-0`.
pub fn fixed(v: f64, digits: u32) -> String {
    let mut out = String::new();
    push_fixed(v, digits, &mut out);
    out
}

/// A finite number a cell of a numeric column holds, or `None` (text, `NaN`, `INF`).
fn finite(spec: &ColumnSpec, value: &str) -> Option<f64> {
    if !spec.column_type.is_numeric() || spec.column_type.check(value).is_err() {
        return None;
    }
    value.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Whether `spec` is a year column: an `integer` column whose name says year (`year`,
/// `Year`, `yr`, or such a word in it: `birth_year`, `Year of birth`; not `years`, a
/// duration, nor `yearly`). Its
/// values of up to four digits are shown as written, without a group mark (`2001`, never
/// `2,001`), in the table, figures, profiles and chart ticks.
pub fn is_year_column(spec: &ColumnSpec) -> bool {
    spec.column_type == super::schema::ColumnType::Integer
        && spec
            .name
            .split(|c: char| !c.is_ascii_alphabetic())
            .any(|word| matches!(word.to_ascii_lowercase().as_str(), "year" | "yr"))
}

/// Whether `spec`'s numbers are shown without group marks: `grouping = false` (codes,
/// clock times), else a year column's (by default).
pub fn ungrouped(spec: &ColumnSpec) -> bool {
    match spec.grouping {
        Some(grouping) => !grouping && spec.column_type.is_numeric(),
        None => is_year_column(spec),
    }
}

/// How an ungrouped column shows a number: `Years` its years of up to four digits as
/// written; `AsWritten` (`grouping = false`) any plain number as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ungrouped {
    Years,
    AsWritten,
}

impl Ungrouped {
    /// How `spec` shows its numbers, when without group marks.
    pub fn of(spec: &ColumnSpec) -> Option<Ungrouped> {
        match spec.grouping {
            Some(false) if spec.column_type.is_numeric() => Some(Ungrouped::AsWritten),
            Some(_) => None,
            None => is_year_column(spec).then_some(Ungrouped::Years),
        }
    }

    /// `value` as written, when this kind of column shows it so: a year of up to four
    /// digits, or (`AsWritten`) any plain number (`1545`, `-12.50`).
    pub fn shown(self, value: &str) -> Option<&str> {
        let digits = value.strip_prefix('-').unwrap_or(value);
        let plain = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
        match self {
            Ungrouped::Years => (plain && digits.len() <= 4).then_some(value),
            Ungrouped::AsWritten => {
                let (whole, fraction) = digits.split_once('.').unwrap_or((digits, "0"));
                let is_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
                (is_digits(whole) && (fraction.is_empty() || is_digits(fraction))).then_some(value)
            }
        }
    }
}

/// A number of a year column computed for display (a mean: `2,003`) without its group
/// mark when its whole part has at most four digits (`2003`); other columns' as given.
pub fn ungrouped_year(spec: &ColumnSpec, shown: String) -> String {
    let whole = shown.split('.').next().unwrap_or_default();
    let digits = whole.bytes().filter(u8::is_ascii_digit).count();
    match Ungrouped::of(spec) {
        Some(Ungrouped::Years) if digits <= 4 => shown.replace(',', ""),
        Some(Ungrouped::AsWritten) => shown.replace(',', ""),
        _ => shown,
    }
}

/// Appends a cell of `spec`'s column as readers see it: a year of a year column as
/// written, at the column's `digits` when it sets them and the cell is a finite number,
/// else as [`format_cell`] shows it. Not escaped.
pub fn push_cell(spec: &ColumnSpec, value: &str, out: &mut String) {
    let ungrouped = Ungrouped::of(spec);
    if let Some(written) = ungrouped.and_then(|u| u.shown(value)) {
        if spec.shown_digits().is_none() || ungrouped == Some(Ungrouped::Years) {
            out.push_str(written);
            return;
        }
    }
    let start = out.len();
    match spec.shown_digits().zip(finite(spec, value)) {
        Some((digits, v)) => push_fixed(v, digits, out),
        None => format_cell(spec.column_type, value, out),
    }
    if ungrouped == Some(Ungrouped::AsWritten) {
        let shown = out[start..].replace(',', "");
        out.truncate(start);
        out.push_str(&shown);
    }
}

/// A cell of `spec`'s column as readers see it (see [`push_cell`]).
pub fn cell(spec: &ColumnSpec, value: &str) -> String {
    let mut out = String::new();
    push_cell(spec, value, &mut out);
    out
}

/// Appends a numeric cell that passed its check, HTML-safe, at `digits` decimal places
/// when given and the cell is a finite number: the table writer's fast path.
pub fn push_number_html(value: &str, digits: Option<u32>, out: &mut String) {
    let number = digits.and_then(|d| {
        let v = value.parse::<f64>().ok().filter(|v| v.is_finite())?;
        Some((d, v))
    });
    match number {
        Some((digits, v)) => push_fixed(v, digits, out),
        None => format_number_html(value, out),
    }
}

/// Decimal places that show every multiple of `step` exactly (a tick, a histogram bin's
/// edge), at most 6.
pub fn step_decimals(step: f64) -> u32 {
    (0..=6)
        .find(|d| {
            let scaled = step * 10f64.powi(*d as i32);
            (scaled - scaled.round()).abs() < 1e-6
        })
        .unwrap_or(6)
}

/// A value on a grid of `step` (an axis tick, a bin's edge) of a column with `digits`:
/// at the column's decimal places, or more where the step needs them so that neighbours
/// never read the same; without `digits`, the decimals the step needs.
pub fn on_grid(value: f64, step: f64, digits: Option<u32>) -> String {
    let decimals = step_decimals(step).max(digits.unwrap_or(0));
    fixed(value, decimals)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(column_type: &str, digits: Option<i64>) -> ColumnSpec {
        let digits = digits.map_or(String::new(), |d| format!("digits = {d}\n"));
        toml::from_str(&format!(
            "name = \"v\"\ntitle = \"V\"\ntype = \"{column_type}\"\ndescription = \"d\"\n{digits}"
        ))
        .unwrap()
    }

    #[test]
    fn digits_are_decimal_places_as_in_a_figure() {
        let one = spec("number", Some(1));
        for (value, expected) in [
            ("7.0520000000000005", "7.1"),
            ("1234.56", "1,234.6"),
            ("3", "3.0"),
            ("-0.04", "0.0"),
            ("1.25e3", "1,250.0"),
            ("NaN", "NaN"),
            ("INF", "INF"),
        ] {
            assert_eq!(cell(&one, value), expected, "{value}");
            let mut html = String::new();
            push_number_html(value, one.shown_digits(), &mut html);
            assert_eq!(html, expected, "{value}");
        }
        assert_eq!(cell(&spec("integer", Some(2)), "1234"), "1,234.00");
        assert_eq!(cell(&spec("number", Some(0)), "2.5"), "2");
        assert_eq!(cell(&spec("number", Some(0)), "3.5"), "4");
    }

    #[test]
    fn without_digits_a_cell_is_shown_as_printed() {
        let plain = spec("number", None);
        assert_eq!(cell(&plain, "7.0520000000000005"), "7.052");
        assert_eq!(cell(&plain, "16.0"), "16.0");
        let mut html = String::new();
        push_number_html("1234.5", None, &mut html);
        assert_eq!(html, "1,234.5");
    }

    #[test]
    fn years_are_shown_without_group_marks() {
        let year = |name: &str, column_type: &str| ColumnSpec {
            name: name.into(),
            ..spec(column_type, None)
        };
        for name in ["year", "Year", "yr", "birth_year", "Year of birth", "YEAR"] {
            assert!(is_year_column(&year(name, "integer")), "{name}");
            assert_eq!(cell(&year(name, "integer"), "2001"), "2001", "{name}");
        }
        for name in ["yearly_total", "years", "value"] {
            assert!(!is_year_column(&year(name, "integer")), "{name}");
        }
        assert!(!is_year_column(&year("year", "number")));
        assert_eq!(cell(&year("year", "integer"), "12345"), "12,345");
        assert_eq!(cell(&year("value", "integer"), "2001"), "2,001");
        assert_eq!(
            ungrouped_year(&year("year", "integer"), "2,003.5".into()),
            "2003.5"
        );
        assert_eq!(
            ungrouped_year(&year("year", "integer"), "12,003".into()),
            "12,003"
        );
        assert_eq!(
            ungrouped_year(&year("value", "integer"), "2,003".into()),
            "2,003"
        );
    }

    #[test]
    fn grid_values_keep_the_decimals_their_step_needs() {
        assert_eq!(on_grid(50.0, 25.0, Some(1)), "50.0");
        assert_eq!(on_grid(0.25, 0.25, Some(1)), "0.25");
        assert_eq!(on_grid(1000.0, 500.0, None), "1,000");
        assert_eq!(on_grid(0.5, 0.5, None), "0.5");
    }
}
