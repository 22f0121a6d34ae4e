//! What an author writes about a CSV column in `[[columns]]`: its name, words, type and
//! constraints. How cells are checked against them is the dataset's job
//! (`crate::dataset::schema`); this module only says what the front matter holds.

use std::borrow::Cow;
use std::collections::HashSet;

use serde::Deserialize;

use super::number_marks::{DecimalMark, GroupMark};

/// The type a column's cells must parse as. Names follow Frictionless Table Schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ColumnType {
    String,
    Integer,
    Number,
    Date,
    /// ISO 8601 date and time with a zone: `2011-09-19T17:54:28Z`, `…T17:54:28+02:00`.
    Datetime,
    Boolean,
}

impl ColumnType {
    /// A date or a date-time: a point in time, drawn on a time axis.
    pub fn is_time(self) -> bool {
        matches!(self, ColumnType::Date | ColumnType::Datetime)
    }

    /// The name used in front matter and metadata.
    pub fn as_str(self) -> &'static str {
        match self {
            ColumnType::String => "string",
            ColumnType::Integer => "integer",
            ColumnType::Number => "number",
            ColumnType::Date => "date",
            ColumnType::Datetime => "datetime",
            ColumnType::Boolean => "boolean",
        }
    }

    /// Numeric columns are right-aligned with tabular figures.
    pub fn is_numeric(self) -> bool {
        matches!(self, ColumnType::Integer | ColumnType::Number)
    }
}

/// The most decimal places `digits` takes: a double holds 15 significant digits at most.
pub const MAX_DIGITS: i64 = 15;

/// One column as the author documents it in `[[columns]]`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ColumnSpec {
    /// Exactly the CSV header of the column.
    pub name: String,
    /// The table header shown to readers, units included.
    pub title: String,
    #[serde(rename = "type")]
    pub column_type: ColumnType,
    pub description: String,
    pub unit: Option<String>,
    #[serde(default)]
    pub required: bool,
    #[serde(default)]
    pub unique: bool,
    #[serde(rename = "enum")]
    pub enum_values: Option<Vec<String>>,
    pub minimum: Option<toml::Value>,
    pub maximum: Option<toml::Value>,
    pub pattern: Option<String>,
    /// How a `date` or `datetime` column's cells are written, as a strftime-style pattern
    /// (`"%d/%m/%Y"`, `content::date_format`); ISO 8601 when absent.
    pub format: Option<String>,
    /// `"sources"`: every cell is the id of a source of the dataset.
    pub references: Option<String>,
    /// Cell texts that mean "no value" in this column; the dataset's list when absent.
    pub missing_values: Option<Vec<String>>,
    /// The older spelling of `non_finite = "pandas"`.
    #[serde(default)]
    pub pandas_numbers: bool,
    /// A `number` column also takes pandas' (`inf`, `-inf`, `nan`) or R's (`Inf`, `-Inf`,
    /// `NaN`) spellings, read as Table Schema's `INF`, `-INF` and `NaN`.
    pub non_finite: Option<NonFinite>,
    /// The decimal mark of a `number` column (`","`: `1,5`); the dataset's when absent.
    pub decimal: Option<DecimalMark>,
    /// The mark between groups of three digits (`"."`: `1.234,5`); the dataset's when absent.
    pub group: Option<GroupMark>,
    /// Decimal places the column's numbers are shown at, everywhere they are shown
    /// (`crate::dataset::shown`); checked to be 0 to 15 on a numeric column.
    pub digits: Option<i64>,
    /// `false`: the column's numbers are codes or clock times (a flight `1545`, `arr_time`
    /// `1004`), shown as written, without group marks, wherever they are shown. A year
    /// column (named like `year`) is so by default.
    pub grouping: Option<bool>,
}

/// Whose spellings of infinity and not-a-number a `number` column takes besides Table
/// Schema's `INF`, `-INF`, `NaN`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NonFinite {
    /// `inf`, `-inf`, `nan`.
    Pandas,
    /// `Inf`, `-Inf`, `NaN`.
    R,
}

impl NonFinite {
    /// The name used in front matter.
    pub fn as_str(self) -> &'static str {
        match self {
            NonFinite::Pandas => "pandas",
            NonFinite::R => "r",
        }
    }

    /// Each spelling, with Table Schema's for it.
    pub fn spellings(self) -> [(&'static str, &'static str); 3] {
        match self {
            NonFinite::Pandas => [("inf", "INF"), ("-inf", "-INF"), ("nan", "NaN")],
            NonFinite::R => [("Inf", "INF"), ("-Inf", "-INF"), ("NaN", "NaN")],
        }
    }

    /// Table Schema's spelling of `value` when it is one of these; else `value`.
    pub fn read(self, value: &str) -> &str {
        self.spellings()
            .iter()
            .find(|(written, _)| *written == value)
            .map_or(value, |(_, table_schema)| table_schema)
    }
}

/// The name metadata gives R's row names: `write.csv` leaves the first header empty, and
/// Rdatasets publishes the same column as `rownames`.
pub const ROW_NAMES: &str = "rownames";

/// A column's name in metadata: its header, or `row_names` (see [`row_names_field`]) for
/// the empty first header.
pub fn field_name<'a>(name: &'a str, row_names: &'a str) -> &'a str {
    match name.is_empty() {
        true => row_names,
        false => name,
    }
}

/// The name metadata gives R's row names among `columns`: [`ROW_NAMES`], or, when a column
/// already has that name, the first of `rownames_2`, `rownames_3`… that none has, so that
/// no two published columns share a name (columnar formats refuse a file that has two).
pub fn row_names_field(columns: &[ColumnSpec]) -> Cow<'static, str> {
    let row_names = columns.first().is_some_and(ColumnSpec::is_row_names);
    if !row_names || !columns.iter().any(|c| c.name == ROW_NAMES) {
        return Cow::Borrowed(ROW_NAMES);
    }
    let taken: HashSet<&str> = columns.iter().map(|c| c.name.as_str()).collect();
    let mut n = 2;
    loop {
        let name = format!("{ROW_NAMES}_{n}");
        if !taken.contains(name.as_str()) {
            return Cow::Owned(name);
        }
        n += 1;
    }
}

impl ColumnSpec {
    /// Whether the column is R's row names (`name = ""`, the first column only).
    pub fn is_row_names(&self) -> bool {
        self.name.is_empty()
    }

    /// The spellings of infinity and not-a-number the column takes: `non_finite`, or
    /// pandas' for the older `pandas_numbers = true`.
    pub fn non_finite_spelling(&self) -> Option<NonFinite> {
        self.non_finite
            .or(self.pandas_numbers.then_some(NonFinite::Pandas))
    }

    /// Whether cells link to the dataset's sources.
    pub fn references_sources(&self) -> bool {
        self.references.as_deref() == Some("sources")
    }

    /// The decimal places this column's numbers are shown at: `digits` when it is set and
    /// valid (0 to 15, on a numeric column; anything else is an error at the key).
    pub fn shown_digits(&self) -> Option<u32> {
        let digits = self.digits.filter(|d| (0..=MAX_DIGITS).contains(d))?;
        self.column_type.is_numeric().then_some(digits as u32)
    }
}
