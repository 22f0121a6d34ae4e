//! The page's "Use this data" one-liners (pandas, Polars, R's readr, DuckDB, curl), built
//! from the facts the Data Package states: the columns' types, missing values, delimiter,
//! decimal and group marks and date formats. [`Table`] holds those facts once; each
//! language's text is written from it, every name and URL escaped for that language.

mod languages;
#[cfg(test)]
mod tests;

use std::collections::HashSet;
use std::hash::Hash;

use crate::content::columns::{field_name, row_names_field, NonFinite};
use crate::content::dialect::MissingValues;
use crate::content::number_marks::NumberMarks;
use crate::content::ColumnSpec;
use crate::dataset::schema::ColumnType;
use crate::dataset::Dataset;
use crate::site::Site;

pub use languages::{curl, duckdb, pandas, polars, r};

/// The most columns whose types a snippet spells out: a wider table (10,000 columns) would
/// make each snippet longer than the rest of its page, so it is read from the typed Parquet
/// copy where there is one, and otherwise read with its dialect alone, the types left to
/// the Data Package.
pub const SPELLED_COLUMNS: usize = 200;

/// What a reader's tool needs to know to read one dataset's file with its declared types.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The CSV's absolute URL.
    pub csv_url: String,
    /// The typed Parquet file's absolute URL, when the dataset has one: DuckDB then reads
    /// it instead of the CSV.
    pub parquet_url: Option<String>,
    /// The field delimiter byte (`,` unless declared).
    pub delimiter: u8,
    /// Spaces after a delimiter pad the fields (`skip_initial_space`): pandas is told so;
    /// Polars and DuckDB, which cannot be, read the typed Parquet copy.
    pub skip_initial_space: bool,
    /// The marks most number columns are written with (the dataset's): readers that take
    /// one setting for the whole file (pandas, readr) get these.
    pub marks: NumberMarks,
    pub columns: Vec<Column>,
}

/// One column as the snippets declare it.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The CSV header (R's empty row-names header is `rownames` or another free name,
    /// see `row_names`).
    pub name: String,
    /// The empty first header R's `write.csv` writes: read as text, named by position.
    pub row_names: bool,
    pub kind: Kind,
    /// The cell texts besides the empty one that mean "no value".
    pub missing: Vec<String>,
    /// The column's decimal and group marks (plain for columns that are not numbers).
    pub marks: NumberMarks,
    /// Whose spellings of infinity and not-a-number a number column also takes.
    pub non_finite: Option<NonFinite>,
}

/// A column's type as the readers know it.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    String,
    Integer,
    Number,
    /// The spellings of true (`TRUE`, `1`…) and of false, as the cells write them.
    Boolean {
        trues: Vec<&'static str>,
        falses: Vec<&'static str>,
    },
    /// A calendar date written in this strftime pattern (`%Y-%m-%d` for ISO dates; `%Y`
    /// and `%Y-%m` for years and months, read as their first day).
    Date {
        format: String,
    },
    /// A date and time: ISO 8601 with a zone (`None`), or a pattern without a zone.
    DateTime {
        format: Option<String>,
    },
}

impl Column {
    /// Whether the cells are numbers every reader parses as they are (an integer's decimal
    /// mark never shows).
    fn plain_number(&self) -> bool {
        match self.kind {
            Kind::Integer => self.marks.group.is_none(),
            _ => self.marks.is_plain(),
        }
    }
}

impl Kind {
    /// A boolean written only as `true`/`false` in some case, which every reader parses.
    fn plain_boolean(&self) -> bool {
        match self {
            Kind::Boolean { trues, .. } => trues.iter().all(|t| t.eq_ignore_ascii_case("true")),
            _ => false,
        }
    }
}

/// The Parquet copy's file for `dataset`, when the registry's output of that format is on.
fn parquet_file(site: &Site, dataset: &Dataset) -> Option<String> {
    let output = site
        .outputs
        .iter()
        .find(|o| o.alternate() == Some("parquet"))?;
    match output.is_on(&site.config, dataset) {
        true => output.file_for(&dataset.slug),
        false => None,
    }
}

/// What the "Use this data" note says of a snippet that reads a typed copy instead of the
/// CSV, when one does.
pub fn typed_copy_note(table: &Table) -> Option<&'static str> {
    table
        .parquet_url
        .as_ref()
        .map(|_| "DuckDB: the Parquet file")
}

impl Table {
    /// Whether each column's type is written out ([`SPELLED_COLUMNS`]).
    pub fn spelled(&self) -> bool {
        self.columns.len() <= SPELLED_COLUMNS
    }

    /// The facts of `dataset`, from the same functions the Data Package is written with.
    pub fn of(site: &Site, dataset: &Dataset) -> Table {
        let front = &dataset.front;
        let row_names = row_names_field(&front.columns);
        let columns = front
            .columns
            .iter()
            .enumerate()
            .map(|(index, spec)| column(dataset, index, spec, &row_names))
            .collect();
        let place = dataset.data_place(&site.config);
        Table {
            csv_url: site.outputs.url_of(
                &place,
                &dataset.slug,
                &crate::layout::urls::csv_file(&dataset.slug),
            ),
            parquet_url: parquet_file(site, dataset)
                .map(|path| site.outputs.url_of(&place, &dataset.slug, &path)),
            delimiter: front.field_delimiter(),
            skip_initial_space: front.skip_initial_space,
            marks: NumberMarks::resolve((None, None), (front.decimal, front.group)),
            columns,
        }
    }

    /// The missing-value tokens of every column together, in first-seen order: the
    /// readers that take one list for the file get this (a token one column declares is
    /// then read as missing in the others too; the columns' own lists are usually one).
    pub fn missing_union(&self) -> Vec<&str> {
        first_seen(
            self.columns
                .iter()
                .flat_map(|c| &c.missing)
                .map(String::as_str),
        )
    }

    /// Whether the columns' missing values differ (`NA` no value among notes, Namibia among
    /// country codes): readers that take one list for the whole file would lose values.
    pub fn missing_differs(&self) -> bool {
        let mut columns = self.columns.iter().map(|c| &c.missing);
        let first = columns.next();
        columns.any(|missing| Some(missing) != first)
    }

    /// The not-a-number cells pandas must be told of (it reads `inf` and `INF` itself, but
    /// `NaN`, which every number column may hold, only as a missing value; a text cell
    /// spelled so is then read as missing too, as pandas' defaults do).
    pub fn not_a_number(&self) -> Vec<&'static str> {
        let numbers = self.columns.iter().filter(|c| c.kind == Kind::Number);
        let mut spellings = Vec::new();
        for column in numbers {
            if spellings.is_empty() {
                spellings.push("NaN");
            }
            if column.non_finite == Some(NonFinite::Pandas) && !spellings.contains(&"nan") {
                spellings.push("nan");
            }
        }
        spellings
    }

    /// Whether a number column is written in the file's marks (those pandas and readr are
    /// told); one with other marks is read as text by them.
    fn in_file_marks(&self, column: &Column) -> bool {
        match column.kind {
            // An integer has no decimals: only its group mark matters.
            Kind::Integer => column.marks.group == self.marks.group,
            _ => column.marks == self.marks,
        }
    }
}

/// Each item once, in first-seen order, in one pass (a set remembers what was seen: every
/// column may repeat a list of thousands of tokens).
fn first_seen<T: Eq + Hash + Copy>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut seen = HashSet::new();
    items
        .into_iter()
        .filter(|item| seen.insert(*item))
        .collect()
}

fn column(dataset: &Dataset, index: usize, spec: &ColumnSpec, row_names: &str) -> Column {
    let front = &dataset.front;
    let kind = match spec.column_type {
        ColumnType::String => Kind::String,
        ColumnType::Integer => Kind::Integer,
        ColumnType::Number => Kind::Number,
        ColumnType::Boolean => {
            let spellings = super::boolean_spellings(dataset, index);
            Kind::Boolean {
                trues: spellings.iter().map(|s| s.forms().0).collect(),
                falses: spellings.iter().map(|s| s.forms().1).collect(),
            }
        }
        ColumnType::Date | ColumnType::Datetime => {
            let pattern = super::date_format(dataset, index).map(|(p, _)| p.to_string());
            match super::table_schema_type(dataset, index, spec.column_type) {
                // Bare years are whole numbers in every format (Parquet, Croissant).
                "year" => Kind::Integer,
                "yearmonth" => Kind::Date {
                    format: pattern.unwrap_or_else(|| "%Y-%m".into()),
                },
                "date" => Kind::Date {
                    format: pattern.unwrap_or_else(|| "%Y-%m-%d".into()),
                },
                "datetime" => Kind::DateTime { format: pattern },
                // Weeks, quarters, and dates of mixed precision: no reader's date type.
                _ => Kind::String,
            }
        }
    };
    let missing = MissingValues::resolve(&[
        spec.missing_values.as_deref(),
        front.missing_values.as_deref(),
    ])
    .list()
    .into_iter()
    .filter(|token| !token.is_empty())
    .collect();
    Column {
        name: field_name(&spec.name, row_names).to_string(),
        row_names: spec.is_row_names(),
        kind,
        missing,
        marks: front.number_marks(spec),
        non_finite: spec.non_finite_spelling(),
    }
}

/// A string as a Python literal: double quotes; backslash, quote and control characters
/// escaped; other characters (accents, CJK) as they are, since Python 3 source is UTF-8.
pub fn python_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A string as an R literal: the same escapes as Python's (R reads `\xNN` and `\uNNNN`).
pub fn r_string(text: &str) -> String {
    python_string(text)
}

/// A name as an R argument name: bare when R reads it so, else a string (`"a b" = …`).
pub fn r_name(name: &str) -> String {
    // R's reserved words (`?Reserved`; `...` and `..1` never start with a letter), and `T`.
    const RESERVED: [&str; 20] = [
        "if",
        "else",
        "repeat",
        "while",
        "function",
        "for",
        "next",
        "break",
        "TRUE",
        "FALSE",
        "NULL",
        "Inf",
        "NaN",
        "NA",
        "NA_integer_",
        "NA_real_",
        "NA_character_",
        "NA_complex_",
        "in",
        "T",
    ];
    let mut chars = name.chars();
    let bare = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        && !RESERVED.contains(&name);
    match bare {
        true => name.to_string(),
        false => r_string(name),
    }
}

/// A string as an SQL literal: single quotes, each quote doubled (DuckDB reads backslashes
/// as themselves).
pub fn sql_string(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// A name as an SQL identifier: double quotes, each quote doubled.
pub fn sql_name(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// A word for a POSIX shell: single quotes, each quote closed, escaped and reopened.
pub fn shell_word(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}
