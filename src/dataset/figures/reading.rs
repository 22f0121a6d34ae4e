//! How the figures read one column's cells, as the table shows them: a date column with
//! a `format` in the shown style (`03/04/2019` -> `2019-04-03`, `1974Q1` -> `1974 Q1`) and
//! compared as dates, a number column with marks as a plain number (`1.234,5` -> `1234.5`).
//! Built from the front matter of the table quoted (its own or another dataset's).

use std::borrow::Cow;

use crate::content::date_format::DateFormat;
use crate::content::iso8601;
use crate::content::number_marks::NumberMarks;
use crate::content::DatasetFrontMatter;
use crate::dataset::schema::ColumnSpec;

/// A condition's value, as written and, in a date column with a `format`, in the shown
/// style (read through the `format` when it matches, else taken as already shown).
#[derive(Debug, Clone)]
pub struct Condition {
    written: String,
    shown: Option<String>,
}

/// One column's reading.
#[derive(Debug, Clone, Default)]
pub struct Reading {
    /// A date column's `format` (none: ISO 8601 as written).
    format: Option<DateFormat>,
    /// A number column's marks.
    marks: NumberMarks,
    /// A date or date-time column: its extremes are the earliest and latest.
    time: bool,
}

/// The reading of each column of `front`, in order.
pub fn of_columns(front: &DatasetFrontMatter) -> Vec<Reading> {
    front
        .columns
        .iter()
        .map(|c| Reading::new(c, front.number_marks(c)))
        .collect()
}

impl Reading {
    /// The reading of `column`, whose numbers are written with `marks`.
    pub fn new(column: &ColumnSpec, marks: NumberMarks) -> Reading {
        Reading {
            format: column
                .format
                .as_deref()
                .and_then(|f| DateFormat::compile(f, column.column_type).ok()),
            marks,
            time: column.column_type.is_time(),
        }
    }

    /// Whether the column holds dates or date-times.
    pub fn is_time(&self) -> bool {
        self.time
    }

    /// `cell` as the table shows it before grouping: a formatted date in the shown style,
    /// a number with marks as a plain number; any other cell (and one that does not read)
    /// as written.
    pub fn read<'a>(&self, cell: &'a str) -> Cow<'a, str> {
        if self.format.is_none() && self.marks.is_plain() {
            return Cow::Borrowed(cell);
        }
        let mut out = String::new();
        if let Some(format) = &self.format {
            if format.canonical(cell, &mut out) {
                return Cow::Owned(out);
            }
            return Cow::Borrowed(cell);
        }
        match self.marks.plain(cell, &mut out) {
            Some(plain) => Cow::Owned(plain.to_string()),
            None => Cow::Borrowed(cell),
        }
    }

    /// Where a date cell lies in time (days since 1970-01-01 UTC), read through the
    /// column's `format`; `None` for a cell that is not a date.
    pub fn moment(&self, cell: &str) -> Option<f64> {
        match &self.format {
            Some(_) => iso8601::day_position(&self.read(cell)),
            None => iso8601::day_position(cell),
        }
    }

    /// A condition's value `wanted` as [`Reading::meets`] compares cells with it, worked
    /// out once per figure rather than once per row.
    pub fn condition(&self, wanted: &str) -> Condition {
        Condition {
            written: wanted.to_string(),
            shown: self.format.as_ref().map(|format| {
                let mut out = String::new();
                match format.canonical(wanted, &mut out) {
                    true => out,
                    false => wanted.to_string(),
                }
            }),
        }
    }

    /// Whether `cell` meets `condition`: the same text as in the file, or, in a date column
    /// with a `format`, the same date however either is written (`1974Q1` and `1974 Q1`).
    pub fn meets(&self, cell: &str, condition: &Condition) -> bool {
        cell == condition.written
            || condition
                .shown
                .as_deref()
                .is_some_and(|shown| *self.read(cell) == *shown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::number_marks::{DecimalMark, GroupMark};

    fn column(column_type: &str, format: Option<&str>) -> ColumnSpec {
        let format = format.map_or(String::new(), |f| format!("format = \"{f}\"\n"));
        toml::from_str(&format!(
            "name = \"v\"\ntitle = \"V\"\ntype = \"{column_type}\"\ndescription = \"d\"\n{format}"
        ))
        .unwrap()
    }

    #[test]
    fn formatted_dates_read_in_the_shown_style_and_compare_as_dates() {
        let weeks = Reading::new(&column("date", Some("%G-W%V")), NumberMarks::PLAIN);
        assert_eq!(weeks.read("2019-W7"), "2019-W07");
        assert!(weeks.moment("2019-W10") > weeks.moment("2019-W9"));
        let days = Reading::new(&column("date", Some("%d/%m/%Y")), NumberMarks::PLAIN);
        assert_eq!(days.read("03/04/2019"), "2019-04-03");
        assert!(days.moment("03/04/2019") > days.moment("04/03/2019"));
        let quarters = Reading::new(&column("date", Some("%YQ%q")), NumberMarks::PLAIN);
        assert_eq!(quarters.read("1974Q1"), "1974 Q1");
        let meets = |cell: &str, wanted: &str| quarters.meets(cell, &quarters.condition(wanted));
        assert!(meets("1974Q1", "1974Q1"));
        assert!(meets("1974Q1", "1974 Q1"));
        assert!(!meets("1974Q1", "1974Q2"));
        let iso = Reading::new(&column("date", None), NumberMarks::PLAIN);
        assert_eq!(iso.read("2019-03-04"), "2019-03-04");
        assert!(iso.moment("2019-03-04").is_some());
    }

    #[test]
    fn numbers_with_marks_read_as_plain_numbers() {
        let marks = NumberMarks {
            decimal: DecimalMark::Comma,
            group: Some(GroupMark::Point),
        };
        let reading = Reading::new(&column("number", None), marks);
        assert_eq!(reading.read("1.234,5"), "1234.5");
        assert_eq!(reading.read("7"), "7");
        assert!(!reading.is_time());
    }
}
