//! Each language's one-liner from a [`Table`]: pandas and readr take the file's settings
//! (delimiter, marks, missing values) once and a type per column; Polars and DuckDB read a
//! column they cannot parse directly (dates in another format, numbers with other marks)
//! as text and convert it in the same statement.

use super::{python_string, r_name, r_string, shell_word, sql_name, sql_string};
use super::{Kind, Table};
use crate::content::number_marks::{DecimalMark, NumberMarks};

/// `import pandas as pd` and one `pd.read_csv` call with every column's dtype.
pub fn pandas(table: &Table) -> String {
    let mut args = vec![python_string(&table.csv_url)];
    if table.delimiter != b',' {
        args.push(format!("sep={}", python_string(&delimiter(table))));
    }
    if table.skip_initial_space {
        args.push("skipinitialspace=True".into());
    }
    if !table.spelled() {
        return wide_python(table, "pandas as pd", "pd", args);
    }
    let mut dtypes = Vec::new();
    let (mut dates, mut formats, mut zoned) = (Vec::new(), Vec::new(), Vec::new());
    for column in table.columns.iter().filter(|c| !c.row_names) {
        let name = python_string(&column.name);
        let dtype = match &column.kind {
            Kind::String => "string",
            Kind::Integer if table.in_file_marks(column) => "Int64",
            Kind::Number if table.in_file_marks(column) => "float64",
            Kind::Integer | Kind::Number => "string",
            Kind::Boolean { .. } => "boolean",
            Kind::Date { format } => {
                formats.push(format!("{name}: {}", python_string(format)));
                dates.push(name);
                continue;
            }
            // ISO 8601 with zones, which may differ from row to row: read as text, then
            // converted to UTC (`parse_dates` leaves mixed offsets as text).
            Kind::DateTime { format: None } => {
                zoned.push(format!("{name}: \"datetime64[ns, UTC]\""));
                "string"
            }
            Kind::DateTime {
                format: Some(format),
            } => {
                formats.push(format!("{name}: {}", python_string(format)));
                dates.push(name);
                continue;
            }
        };
        dtypes.push(format!("{name}: {}", python_string(dtype)));
    }
    args.push(format!("dtype={{{}}}", dtypes.join(", ")));
    if !dates.is_empty() {
        args.push(format!("parse_dates=[{}]", dates.join(", ")));
        args.push(format!("date_format={{{}}}", formats.join(", ")));
    }
    args.push(format!("na_values={}", pandas_missing(table)));
    args.push("keep_default_na=False".into());
    if table.marks.decimal != DecimalMark::Point {
        args.push(format!(
            "decimal={}",
            python_string(table.marks.decimal.as_str())
        ));
    }
    if let Some(group) = table.marks.group {
        args.push(format!("thousands={}", python_string(group.as_str())));
    }
    let mut line = format!("import pandas as pd\ndf = pd.read_csv({})", args.join(", "));
    if !zoned.is_empty() {
        line.push_str(&format!(".astype({{{}}})", zoned.join(", ")));
    }
    line
}

/// pandas' `na_values`: one list for every column (the empty cell, the declared missing
/// values, `NaN`), or, when the columns' missing values differ, each column's own list.
fn pandas_missing(table: &Table) -> String {
    let with_nan = |missing: Vec<&str>| {
        let mut all = vec![""];
        for token in missing.into_iter().chain(table.not_a_number()) {
            if !all.contains(&token) {
                all.push(token);
            }
        }
        let quoted: Vec<String> = all.into_iter().map(python_string).collect();
        format!("[{}]", quoted.join(", "))
    };
    if !table.missing_differs() {
        return with_nan(table.missing_union());
    }
    let columns: Vec<String> = (table.columns.iter().filter(|c| !c.row_names))
        .map(|c| {
            let own = c.missing.iter().map(String::as_str).collect();
            format!("{}: {}", python_string(&c.name), with_nan(own))
        })
        .collect();
    format!("{{{}}}", columns.join(", "))
}

/// `import polars as pl` and one `pl.read_csv` call, with `.with_columns(…)` converting
/// the columns read as text.
pub fn polars(table: &Table) -> String {
    // Polars has no `skipinitialspace`, and takes one list of missing values for the whole
    // file: padded fields, or columns whose missing values differ, are read from the typed
    // Parquet copy, or else by pandas, which can be told both.
    if table.skip_initial_space || table.missing_differs() {
        return match &table.parquet_url {
            Some(url) => format!(
                "import polars as pl\ndf = pl.read_parquet({})",
                python_string(url)
            ),
            None => format!(
                "import polars as pl\n{}\ndf = pl.from_pandas(df)",
                pandas(table)
            ),
        };
    }
    let mut args = vec![python_string(&table.csv_url)];
    if table.delimiter != b',' {
        args.push(format!("separator={}", python_string(&delimiter(table))));
    }
    if !table.spelled() {
        return wide_python(table, "polars as pl", "pl", args);
    }
    let mut schema = Vec::new();
    let mut conversions = Vec::new();
    for column in &table.columns {
        let name = python_string(&column.name);
        let col = format!("pl.col({name})");
        let (read, convert) = match &column.kind {
            Kind::String => ("pl.String", None),
            Kind::Integer if column.plain_number() => ("pl.Int64", None),
            Kind::Number if column.plain_number() => ("pl.Float64", None),
            Kind::Integer => (
                "pl.String",
                Some(format!(
                    "{}.cast(pl.Int64)",
                    polars_plain(&col, integer_marks(column.marks))
                )),
            ),
            Kind::Number => (
                "pl.String",
                Some(format!(
                    "{}.cast(pl.Float64)",
                    polars_plain(&col, column.marks)
                )),
            ),
            kind @ Kind::Boolean { .. } if kind.plain_boolean() => ("pl.Boolean", None),
            Kind::Boolean { trues, .. } => {
                let trues: Vec<String> = trues.iter().map(|t| python_string(t)).collect();
                (
                    "pl.String",
                    Some(format!("{col}.is_in([{}])", trues.join(", "))),
                )
            }
            Kind::Date { format } if format == "%Y-%m-%d" => ("pl.Date", None),
            Kind::Date { format } => {
                let (text, format) = match whole_date(format) {
                    Some((suffix, format)) => {
                        (format!("({col} + {})", python_string(suffix)), format)
                    }
                    None => (col.clone(), format.clone()),
                };
                (
                    "pl.String",
                    Some(format!("{text}.str.to_date({})", python_string(&format))),
                )
            }
            Kind::DateTime { format: None } => (
                "pl.String",
                Some(format!("{col}.str.to_datetime(time_zone=\"UTC\")")),
            ),
            Kind::DateTime {
                format: Some(format),
            } => (
                "pl.String",
                Some(format!("{col}.str.to_datetime({})", python_string(format))),
            ),
        };
        schema.push(format!("{name}: {read}"));
        conversions.extend(convert);
    }
    // Polars (2.1) keeps a quoted header's doubled quotes (`a ""q""`): such names are
    // given again, as the CSV means them.
    if table.columns.iter().any(|c| c.name.contains('"')) {
        let names: Vec<String> = table
            .columns
            .iter()
            .map(|c| python_string(&c.name))
            .collect();
        args.push(format!("new_columns=[{}]", names.join(", ")));
    }
    args.push(format!("schema_overrides={{{}}}", schema.join(", ")));
    // Polars (2.1) compares `null_values` with a quoted cell's text before its doubled
    // quotes are undone: a token holding `"` is given as the CSV writes it.
    let missing: Vec<String> = table
        .missing_union()
        .into_iter()
        .map(|token| python_string(&token.replace('"', "\"\"")))
        .collect();
    if !missing.is_empty() {
        args.push(format!("null_values=[{}]", missing.join(", ")));
    }
    let mut line = format!("import polars as pl\ndf = pl.read_csv({})", args.join(", "));
    if !conversions.is_empty() {
        line.push_str(&format!(".with_columns({})", conversions.join(", ")));
    }
    line
}

/// A Polars expression turning a number written in `marks` into a plain one.
fn polars_plain(col: &str, marks: NumberMarks) -> String {
    let mut out = col.to_string();
    if let Some(group) = marks.group {
        out.push_str(&format!(
            ".str.replace_all({}, \"\", literal=True)",
            python_string(group.as_str())
        ));
    }
    if marks.decimal != DecimalMark::Point {
        out.push_str(&format!(
            ".str.replace({}, \".\", literal=True)",
            python_string(marks.decimal.as_str())
        ));
    }
    out
}

/// An integer's marks: its group mark only (it has no decimals).
fn integer_marks(marks: NumberMarks) -> NumberMarks {
    NumberMarks {
        group: marks.group,
        ..NumberMarks::PLAIN
    }
}

/// A date pattern without a day (or month) completed to a whole date for the readers that
/// need one (Polars, DuckDB): the text appended to each cell and the pattern then read.
/// `None` when the pattern names a day.
fn whole_date(format: &str) -> Option<(&'static str, String)> {
    let has = |directives: &[&str]| directives.iter().any(|d| format.contains(d));
    if has(&["%d", "%e", "%j"]) {
        return None;
    }
    match has(&["%m", "%b", "%B", "%h"]) {
        true => Some(("|01", format!("{format}|%d"))),
        false => Some(("|01|01", format!("{format}|%m|%d"))),
    }
}

/// One DuckDB `SELECT`: the Parquet file when there is one, else `read_csv` with every
/// column's type and the file's missing values.
pub fn duckdb(table: &Table) -> String {
    if let Some(url) = &table.parquet_url {
        return format!("SELECT * FROM read_parquet({});", sql_string(url));
    }
    if table.skip_initial_space {
        // DuckDB's CSV reader has no option to skip the padding, and a quote after it
        // breaks its sniffer: said, rather than a query that fails.
        return "-- DuckDB cannot skip the spaces that pad this CSV's fields, and the site \
                publishes no Parquet copy of it (parquet = false): read it with pandas \
                (skipinitialspace=True)"
            .to_string();
    }
    if !table.spelled() {
        return format!(
            "-- the types of the {} columns: see the Data Package\nSELECT * FROM read_csv({}, header = true, delim = {}, quote = '\"');",
            table.columns.len(),
            sql_string(&table.csv_url),
            sql_string(&delimiter(table)),
        );
    }
    let mut columns = Vec::new();
    let mut replaced = Vec::new();
    for column in &table.columns {
        let name = sql_name(&column.name);
        let cell = duckdb_cell(&name, &column.missing);
        let (read, convert) = match &column.kind {
            Kind::String => ("VARCHAR", None),
            Kind::Integer if column.plain_number() => ("BIGINT", None),
            Kind::Number if column.plain_number() => ("DOUBLE", None),
            Kind::Integer => (
                "VARCHAR",
                Some(format!(
                    "CAST({} AS BIGINT)",
                    sql_plain(&cell, integer_marks(column.marks))
                )),
            ),
            Kind::Number => (
                "VARCHAR",
                Some(format!(
                    "CAST({} AS DOUBLE)",
                    sql_plain(&cell, column.marks)
                )),
            ),
            Kind::Boolean { .. } => ("BOOLEAN", None),
            Kind::Date { format } if format == "%Y-%m-%d" => ("DATE", None),
            Kind::Date { format } => {
                let (text, format) = match whole_date(format) {
                    Some((suffix, format)) => (format!("{cell} || {}", sql_string(suffix)), format),
                    None => (cell.clone(), format.clone()),
                };
                (
                    "VARCHAR",
                    Some(format!(
                        "CAST(strptime({text}, {}) AS DATE)",
                        sql_string(&format)
                    )),
                )
            }
            Kind::DateTime { format: None } => ("TIMESTAMPTZ", None),
            Kind::DateTime {
                format: Some(format),
            } => (
                "VARCHAR",
                Some(format!("strptime({cell}, {})", sql_string(format))),
            ),
        };
        // A cell with its own missing values is read as text and typed once they are NULL.
        let (read, convert) = match convert {
            None if cell != name && read == "VARCHAR" => (read, Some(cell)),
            None if cell != name => ("VARCHAR", Some(format!("CAST({cell} AS {read})"))),
            convert => (read, convert),
        };
        columns.push(format!("{}: '{read}'", sql_string(&column.name)));
        if let Some(expression) = convert {
            replaced.push(format!("{expression} AS {name}"));
        }
    }
    let missing: Vec<String> = std::iter::once("")
        .chain(table.missing_union())
        .filter(|token| !token.contains('"'))
        .map(sql_string)
        .collect();
    let replace = match replaced.is_empty() {
        true => String::new(),
        false => format!(" REPLACE ({})", replaced.join(", ")),
    };
    format!(
        "SELECT *{replace} FROM read_csv({}, header = true, delim = {}, quote = '\"', columns = {{{}}}, nullstr = [{}]);",
        sql_string(&table.csv_url),
        sql_string(&delimiter(table)),
        columns.join(", "),
        missing.join(", "),
    )
}

/// A column's cell in DuckDB's SQL: the column itself, or, when the column takes missing
/// values holding the quote (which DuckDB refuses in `nullstr`), NULL for those.
fn duckdb_cell(name: &str, missing: &[String]) -> String {
    let quoted: Vec<String> = missing
        .iter()
        .filter(|token| token.contains('"'))
        .map(|token| sql_string(token))
        .collect();
    match quoted.is_empty() {
        true => name.to_string(),
        false => format!(
            "(CASE WHEN {name} IN ({}) THEN NULL ELSE {name} END)",
            quoted.join(", ")
        ),
    }
}

/// An SQL expression turning a number written in `marks` into a plain one.
fn sql_plain(name: &str, marks: NumberMarks) -> String {
    let mut out = name.to_string();
    if let Some(group) = marks.group {
        out = format!("replace({out}, {}, '')", sql_string(group.as_str()));
    }
    if marks.decimal != DecimalMark::Point {
        out = format!(
            "replace({out}, {}, '.')",
            sql_string(marks.decimal.as_str())
        );
    }
    out
}

/// `library(readr)` and one `read_csv` (or `read_delim`) call with `col_types`.
pub fn r(table: &Table) -> String {
    let mut args = vec![r_string(&table.csv_url)];
    let function = match table.delimiter {
        b',' => "read_csv",
        _ => {
            args.push(format!("delim = {}", r_string(&delimiter(table))));
            "read_delim"
        }
    };
    if table.skip_initial_space {
        // Said even where it is readr's default (read_csv, not read_delim).
        args.push("trim_ws = TRUE".into());
    }
    let mut types = Vec::new();
    let columns = match table.spelled() {
        true => &table.columns[..],
        false => &[],
    };
    for column in columns.iter().filter(|c| !c.row_names) {
        let grouped = column.marks.group.is_some();
        let reader = match &column.kind {
            Kind::String => "col_character()".to_string(),
            Kind::Integer | Kind::Number if !table.in_file_marks(column) => {
                "col_character()".to_string()
            }
            Kind::Integer | Kind::Number if grouped => "col_number()".to_string(),
            Kind::Integer => "col_integer()".to_string(),
            Kind::Number => "col_double()".to_string(),
            Kind::Boolean { .. } => "col_logical()".to_string(),
            Kind::Date { format } if format == "%Y-%m-%d" => "col_date()".to_string(),
            Kind::Date { format } => format!("col_date(format = {})", r_string(format)),
            Kind::DateTime { format: None } => "col_datetime()".to_string(),
            Kind::DateTime {
                format: Some(format),
            } => format!("col_datetime(format = {})", r_string(format)),
        };
        types.push(format!("{} = {reader}", r_name(&column.name)));
    }
    let mut note = String::new();
    match table.spelled() {
        true => args.push(format!("col_types = cols({})", types.join(", "))),
        false => {
            note = format!(
                "# the types of the {} columns: see the Data Package\n",
                table.columns.len()
            )
        }
    }
    let missing: Vec<String> = std::iter::once("")
        .chain(table.missing_union())
        .map(r_string)
        .collect();
    args.push(format!("na = c({})", missing.join(", ")));
    if !table.marks.is_plain() {
        let mut locale = format!("decimal_mark = {}", r_string(table.marks.decimal.as_str()));
        if let Some(group) = table.marks.group {
            locale.push_str(&format!(", grouping_mark = {}", r_string(group.as_str())));
        }
        args.push(format!("locale = locale({locale})"));
    }
    format!(
        "library(readr)\n{note}df <- {function}({})",
        args.join(", ")
    )
}

/// `curl -O <url>`: the CSV as published, byte for byte.
pub fn curl(table: &Table) -> String {
    format!("curl -O {}", shell_word(&table.csv_url))
}

/// pandas or Polars on a table too wide to spell out ([`Table::spelled`]): the typed
/// Parquet copy, or else the CSV with its delimiter (`args`), the types left to the Data
/// Package.
fn wide_python(table: &Table, import: &str, module: &str, args: Vec<String>) -> String {
    match &table.parquet_url {
        Some(url) => format!("import {import}\ndf = {module}.read_parquet({})", python_string(url)),
        None => format!(
            "import {import}\n# the types of the {} columns: see the Data Package\ndf = {module}.read_csv({})",
            table.columns.len(),
            args.join(", ")
        ),
    }
}

/// The delimiter as text (a tab is a tab character; each language escapes it).
fn delimiter(table: &Table) -> String {
    char::from(table.delimiter).to_string()
}
