//! One CSV cell as the typed value of its Parquet column: which Parquet type each declared
//! column gets, and the cell read through the same readers the scan checked it with
//! (missing values, `non_finite` spellings, decimal and group marks, a date `format`). A
//! cell that means "no value", or that does not read, is a null.

use crate::content::date_format::{DateFormat, DateKind};
use crate::content::dialect::MissingValues;
use crate::content::iso8601;
use crate::content::number_marks::NumberMarks;
use crate::dataset::schema::{parse_boolean, ColumnSpec, ColumnType};

/// The Parquet type of one column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `integer`, and a `date` column of bare years (`1948`): INT64.
    Integer,
    /// `number`: DOUBLE (`NaN`, `INF`, `-INF` as the IEEE values).
    Number,
    /// `boolean`: BOOLEAN.
    Boolean,
    /// A `date` column of whole days (ISO `YYYY-MM-DD`, or a `format` of days): INT32
    /// with the DATE logical type (days since 1970-01-01).
    Date,
    /// A `datetime` column: INT64 TIMESTAMP in microseconds; adjusted to UTC (`true`)
    /// when the cells state their zone (ISO cells always do; a `format` with `%z`),
    /// else the wall-clock time as written (`false`).
    Timestamp { utc: bool },
    /// Anything else: BYTE_ARRAY with the STRING logical type, the cell as written
    /// (strings, enums, dates of years, months, weeks or quarters, mixed precisions).
    Text,
}

/// Integers a 64-bit column cannot hold are published as text rather than rounded.
const INT64_LIMIT: f64 = 9.2e18;

/// How one column's cells are read.
#[derive(Debug, Clone)]
pub struct CellReader {
    pub kind: Kind,
    missing: MissingValues,
    marks: NumberMarks,
    non_finite: Option<crate::content::columns::NonFinite>,
    format: Option<DateFormat>,
    /// A buffer for a cell rewritten on the way (marks, a date in ISO style).
    scratch: String,
}

/// One cell's value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    Null,
    Integer(i64),
    Number(f64),
    Boolean(bool),
    Date(i32),
    Timestamp(i64),
    /// The cell as written: the caller copies its bytes.
    Text,
}

impl CellReader {
    /// The reader of `column`, whose standard type (Table Schema's, as the metadata
    /// states it: `date`, `year`, `string`…) is `schema_type` and whose largest
    /// magnitude, when it holds numbers, is `magnitude`.
    pub fn new(
        column: &ColumnSpec,
        schema_type: &str,
        magnitude: Option<f64>,
        marks: NumberMarks,
        missing: MissingValues,
    ) -> CellReader {
        let format = column
            .format
            .as_deref()
            .and_then(|f| DateFormat::compile(f, column.column_type).ok());
        let kind = match (column.column_type, schema_type) {
            (ColumnType::Integer, _) if magnitude.is_some_and(|m| m >= INT64_LIMIT) => Kind::Text,
            (ColumnType::Integer, _) => Kind::Integer,
            (ColumnType::Number, _) => Kind::Number,
            (ColumnType::Boolean, _) => Kind::Boolean,
            (ColumnType::Date, "date") => Kind::Date,
            // A column of bare years is a whole number in every format (Croissant's
            // `sc:Integer`, Table Schema's `year`, the snippets' integers).
            (ColumnType::Date, "year") => Kind::Integer,
            (ColumnType::Datetime, "datetime") => Kind::Timestamp {
                utc: match format.as_ref().map(DateFormat::kind) {
                    Some(DateKind::DateTime { zone, .. }) => zone,
                    _ => true,
                },
            },
            _ => Kind::Text,
        };
        CellReader {
            kind,
            missing,
            marks,
            non_finite: column.non_finite_spelling(),
            format,
            scratch: String::new(),
        }
    }

    /// The value of `cell`: null when it is empty, a declared missing value, or does
    /// not read as the column's type.
    pub fn read(&mut self, cell: &str) -> Value {
        if self.missing.is_missing(cell) {
            return Value::Null;
        }
        let read = match self.kind {
            Kind::Text => Some(Value::Text),
            Kind::Integer => self
                .plain(cell)
                .and_then(|n| n.parse().ok())
                .map(Value::Integer),
            Kind::Number => {
                let cell = self.non_finite.map_or(cell, |spelling| spelling.read(cell));
                match cell {
                    "NaN" => Some(Value::Number(f64::NAN)),
                    "INF" => Some(Value::Number(f64::INFINITY)),
                    "-INF" => Some(Value::Number(f64::NEG_INFINITY)),
                    _ => self
                        .plain(cell)
                        .and_then(|n| n.parse().ok())
                        .map(Value::Number),
                }
            }
            Kind::Boolean => parse_boolean(cell).map(Value::Boolean),
            Kind::Date => {
                let iso = self.iso(cell);
                iso.and_then(iso8601::day_number)
                    .and_then(|d| i32::try_from(d).ok())
                    .map(Value::Date)
            }
            Kind::Timestamp { .. } => self
                .iso(cell)
                .and_then(timestamp_micros)
                .map(Value::Timestamp),
        };
        read.unwrap_or(Value::Null)
    }

    /// A number cell without its marks (`1.234,5` -> `1234.5`).
    fn plain<'a>(&'a mut self, cell: &'a str) -> Option<&'a str> {
        self.marks.plain(cell, &mut self.scratch)
    }

    /// A date cell in ISO style: read through the column's `format`, else as written.
    fn iso<'a>(&'a mut self, cell: &'a str) -> Option<&'a str> {
        match &self.format {
            Some(format) => format
                .canonical(cell, &mut self.scratch)
                .then_some(self.scratch.as_str()),
            None => Some(cell),
        }
    }
}

/// Microseconds since 1970-01-01T00:00:00 of an ISO 8601 date-time
/// (`2011-09-19T17:54:28.5+02:00`): in UTC when it states a zone, else as written.
pub fn timestamp_micros(text: &str) -> Option<i64> {
    let (date, time) = text.split_once('T')?;
    let days = iso8601::day_number(date)?;
    let (clock, offset_minutes) = match time.strip_suffix('Z') {
        Some(clock) => (clock, 0),
        None => match time.rfind(['+', '-']) {
            Some(at) => {
                let (clock, zone) = time.split_at(at);
                let (h, m) = zone[1..].split_once(':')?;
                let minutes = number(h)? * 60 + number(m)?;
                (
                    clock,
                    if zone.starts_with('-') {
                        -minutes
                    } else {
                        minutes
                    },
                )
            }
            None => (time, 0),
        },
    };
    let (whole, fraction) = clock.split_once('.').unwrap_or((clock, ""));
    let mut parts = whole.split(':');
    let hours = number(parts.next()?)?;
    let minutes = parts.next().map_or(Some(0), number)?;
    let seconds = parts.next().map_or(Some(0), number)?;
    if parts.next().is_some() || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Microseconds: the first six digits of the fraction.
    let mut micros = 0i64;
    for place in 0..6 {
        let digit = fraction
            .as_bytes()
            .get(place)
            .map_or(0, |b| i64::from(b - b'0'));
        micros = micros * 10 + digit;
    }
    let seconds_of_day = (hours * 60 + minutes - offset_minutes) * 60 + seconds;
    days.checked_mul(86_400)?
        .checked_add(seconds_of_day)?
        .checked_mul(1_000_000)?
        .checked_add(micros)
}

/// Digits only, as a whole number.
fn number(text: &str) -> Option<i64> {
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::number_marks::{DecimalMark, GroupMark};

    fn column(column_type: &str, extra: &str) -> ColumnSpec {
        toml::from_str(&format!(
            "name = \"v\"\ntitle = \"V\"\ntype = \"{column_type}\"\ndescription = \"d\"\n{extra}"
        ))
        .unwrap()
    }

    fn reader(column_type: &str, extra: &str, schema_type: &str) -> CellReader {
        let missing = MissingValues::resolve(&[Some(&["NA".to_string()])]);
        let c = column(column_type, extra);
        CellReader::new(&c, schema_type, None, NumberMarks::PLAIN, missing)
    }

    #[test]
    fn numbers_read_with_their_spellings_and_marks() {
        let mut n = reader("number", "non_finite = \"pandas\"", "number");
        assert_eq!(n.read("1.5"), Value::Number(1.5));
        assert_eq!(n.read("inf"), Value::Number(f64::INFINITY));
        assert_eq!(n.read("-INF"), Value::Number(f64::NEG_INFINITY));
        assert!(matches!(n.read("nan"), Value::Number(x) if x.is_nan()));
        assert_eq!(n.read("NA"), Value::Null);
        assert_eq!(n.read(""), Value::Null);
        let marks = NumberMarks {
            decimal: DecimalMark::Comma,
            group: Some(GroupMark::Point),
        };
        let c = column("number", "");
        let mut comma = CellReader::new(&c, "number", None, marks, MissingValues::default());
        assert_eq!(comma.read("1.234,5"), Value::Number(1234.5));
        let mut i = reader("integer", "", "integer");
        assert_eq!(i.read("-12"), Value::Integer(-12));
        assert_eq!(i.read("x"), Value::Null);
    }

    #[test]
    fn huge_integers_stay_text() {
        let c = column("integer", "");
        let r = CellReader::new(
            &c,
            "integer",
            Some(1e20),
            NumberMarks::PLAIN,
            Default::default(),
        );
        assert_eq!(r.kind, Kind::Text);
    }

    #[test]
    fn dates_and_times_read_as_days_and_microseconds() {
        let mut d = reader("date", "", "date");
        assert_eq!(d.kind, Kind::Date);
        assert_eq!(d.read("1970-01-02"), Value::Date(1));
        let mut f = reader("date", "format = \"%d/%m/%Y\"", "date");
        assert_eq!(f.read("02/01/1970"), Value::Date(1));
        let mut years = reader("date", "", "year");
        assert_eq!(years.kind, Kind::Integer);
        assert_eq!(years.read("1948"), Value::Integer(1948));
        assert_eq!(
            reader("date", "format = \"%G-W%V\"", "string").kind,
            Kind::Text
        );
        let mut t = reader("datetime", "", "datetime");
        assert_eq!(t.kind, Kind::Timestamp { utc: true });
        assert_eq!(t.read("1970-01-01T01:00:00+01:00"), Value::Timestamp(0));
        assert_eq!(
            t.read("1970-01-01T00:00:01.25Z"),
            Value::Timestamp(1_250_000)
        );
        assert_eq!(timestamp_micros("1969-12-31T23:59Z"), Some(-60_000_000));
        let local = reader("datetime", "format = \"%Y-%m-%d %H:%M\"", "datetime");
        assert_eq!(local.kind, Kind::Timestamp { utc: false });
        assert_eq!(timestamp_micros("1970-01-01T00:00:0x"), None);
    }

    #[test]
    fn booleans_take_every_spelling() {
        let mut b = reader("boolean", "", "boolean");
        assert_eq!(b.read("TRUE"), Value::Boolean(true));
        assert_eq!(b.read("0"), Value::Boolean(false));
        assert_eq!(b.read("NA"), Value::Null);
    }
}
