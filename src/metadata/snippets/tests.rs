//! The snippets' exact text for a table with every kind of column, missing values, a `;`
//! delimiter, decimal commas, a date format and a column name hostile to every language.

use super::*;
use crate::content::number_marks::{DecimalMark, GroupMark};

const HOSTILE: &str = "naïve \"q\" 'a' \\ b";

fn column(name: &str, kind: Kind, marks: NumberMarks) -> Column {
    Column {
        name: name.into(),
        row_names: false,
        kind,
        missing: vec!["NA".into()],
        marks,
        non_finite: None,
    }
}

fn table() -> Table {
    let comma = NumberMarks {
        decimal: DecimalMark::Comma,
        group: None,
    };
    let plain = NumberMarks::PLAIN;
    Table {
        csv_url: "https://example.org/sub/data/datasets/t.csv".into(),
        parquet_url: None,
        delimiter: b';',
        skip_initial_space: false,
        marks: comma,
        columns: vec![
            column("id", Kind::Integer, comma),
            column(HOSTILE, Kind::Number, comma),
            column(
                "ok",
                Kind::Boolean {
                    trues: vec!["TRUE"],
                    falses: vec!["FALSE"],
                },
                plain,
            ),
            column(
                "day",
                Kind::Date {
                    format: "%d/%m/%Y".into(),
                },
                plain,
            ),
            column(
                "iso",
                Kind::Date {
                    format: "%Y-%m-%d".into(),
                },
                plain,
            ),
            column("at", Kind::DateTime { format: None }, plain),
            column("note", Kind::String, plain),
        ],
    }
}

#[test]
fn pandas_declares_every_type_mark_and_missing_value() {
    assert_eq!(
        pandas(&table()),
        "import pandas as pd\n\
         df = pd.read_csv(\"https://example.org/sub/data/datasets/t.csv\", sep=\";\", \
         dtype={\"id\": \"Int64\", \"naïve \\\"q\\\" 'a' \\\\ b\": \"float64\", \"ok\": \"boolean\", \
         \"at\": \"string\", \"note\": \"string\"}, parse_dates=[\"day\", \"iso\"], \
         date_format={\"day\": \"%d/%m/%Y\", \"iso\": \"%Y-%m-%d\"}, \
         na_values=[\"\", \"NA\", \"NaN\"], keep_default_na=False, decimal=\",\")\
         .astype({\"at\": \"datetime64[ns, UTC]\"})"
    );
}

#[test]
fn polars_reads_text_and_converts_what_it_cannot_parse() {
    assert_eq!(
        polars(&table()),
        "import polars as pl\n\
         df = pl.read_csv(\"https://example.org/sub/data/datasets/t.csv\", separator=\";\", \
         new_columns=[\"id\", \"naïve \\\"q\\\" 'a' \\\\ b\", \"ok\", \"day\", \"iso\", \"at\", \"note\"], \
         schema_overrides={\"id\": pl.Int64, \"naïve \\\"q\\\" 'a' \\\\ b\": pl.String, \
         \"ok\": pl.Boolean, \"day\": pl.String, \"iso\": pl.Date, \"at\": pl.String, \
         \"note\": pl.String}, null_values=[\"NA\"])\
         .with_columns(pl.col(\"naïve \\\"q\\\" 'a' \\\\ b\").str.replace(\",\", \".\", literal=True).cast(pl.Float64), \
         pl.col(\"day\").str.to_date(\"%d/%m/%Y\"), \
         pl.col(\"at\").str.to_datetime(time_zone=\"UTC\"))"
    );
}

#[test]
fn duckdb_reads_the_csv_with_its_types_or_the_parquet() {
    let mut table = table();
    assert_eq!(
        duckdb(&table),
        "SELECT * REPLACE (CAST(replace(\"naïve \"\"q\"\" 'a' \\ b\", ',', '.') AS DOUBLE) AS \"naïve \"\"q\"\" 'a' \\ b\", \
         CAST(strptime(\"day\", '%d/%m/%Y') AS DATE) AS \"day\") \
         FROM read_csv('https://example.org/sub/data/datasets/t.csv', header = true, delim = ';', \
         quote = '\"', columns = {'id': 'BIGINT', 'naïve \"q\" ''a'' \\ b': 'VARCHAR', 'ok': 'BOOLEAN', \
         'day': 'VARCHAR', 'iso': 'DATE', 'at': 'TIMESTAMPTZ', 'note': 'VARCHAR'}, nullstr = ['', 'NA']);"
    );
    table.parquet_url = Some("https://example.org/sub/data/datasets/t.parquet".into());
    assert_eq!(
        duckdb(&table),
        "SELECT * FROM read_parquet('https://example.org/sub/data/datasets/t.parquet');"
    );
}

#[test]
fn r_uses_read_delim_col_types_and_the_locale() {
    assert_eq!(
        r(&table()),
        "library(readr)\n\
         df <- read_delim(\"https://example.org/sub/data/datasets/t.csv\", delim = \";\", \
         col_types = cols(id = col_integer(), \"naïve \\\"q\\\" 'a' \\\\ b\" = col_double(), \
         ok = col_logical(), day = col_date(format = \"%d/%m/%Y\"), iso = col_date(), \
         at = col_datetime(), note = col_character()), na = c(\"\", \"NA\"), \
         locale = locale(decimal_mark = \",\"))"
    );
}

#[test]
fn curl_quotes_the_url_for_the_shell() {
    let mut table = table();
    assert_eq!(
        curl(&table),
        "curl -O 'https://example.org/sub/data/datasets/t.csv'"
    );
    table.csv_url = "https://example.org/it's.csv".into();
    assert_eq!(curl(&table), "curl -O 'https://example.org/it'\\''s.csv'");
}

#[test]
fn group_marks_years_and_digit_booleans() {
    let grouped = NumberMarks {
        decimal: DecimalMark::Comma,
        group: Some(GroupMark::Point),
    };
    let table = Table {
        csv_url: "https://example.org/t.csv".into(),
        parquet_url: None,
        delimiter: b'\t',
        skip_initial_space: false,
        marks: grouped,
        columns: vec![
            column("n", Kind::Number, grouped),
            column(
                "y",
                Kind::Date {
                    format: "%Y".into(),
                },
                NumberMarks::PLAIN,
            ),
            column("plain", Kind::Number, NumberMarks::PLAIN),
            column(
                "b",
                Kind::Boolean {
                    trues: vec!["1"],
                    falses: vec!["0"],
                },
                NumberMarks::PLAIN,
            ),
        ],
    };
    let pandas = pandas(&table);
    assert!(pandas.contains("sep=\"\\t\""), "{pandas}");
    assert!(
        pandas.ends_with("decimal=\",\", thousands=\".\")"),
        "{pandas}"
    );
    // A column in other marks than the file's is read as text by pandas and readr.
    assert!(pandas.contains("\"plain\": \"string\""), "{pandas}");
    let polars = polars(&table);
    assert!(
        polars.contains(
            "pl.col(\"n\").str.replace_all(\".\", \"\", literal=True).str.replace(\",\", \".\", literal=True).cast(pl.Float64)"
        ),
        "{polars}"
    );
    assert!(
        polars.contains("(pl.col(\"y\") + \"|01|01\").str.to_date(\"%Y|%m|%d\")"),
        "{polars}"
    );
    assert!(pandas.contains("\"b\": \"boolean\""), "{pandas}");
    assert!(polars.contains("pl.col(\"b\").is_in([\"1\"])"), "{polars}");
    let duckdb = duckdb(&table);
    assert!(
        duckdb.contains("CAST(strptime(\"y\" || '|01|01', '%Y|%m|%d') AS DATE) AS \"y\""),
        "{duckdb}"
    );
    assert!(duckdb.contains("delim = '\t'"), "{duckdb}");
    let r = r(&table);
    assert!(r.contains("n = col_number()"), "{r}");
    assert!(r.contains("plain = col_character()"), "{r}");
    assert!(
        r.contains("locale = locale(decimal_mark = \",\", grouping_mark = \".\")"),
        "{r}"
    );
}

#[test]
fn names_and_strings_are_escaped_for_each_language() {
    assert_eq!(
        python_string("a\"b\\c\nd\u{1}é"),
        "\"a\\\"b\\\\c\\nd\\x01é\""
    );
    assert_eq!(sql_string("it's \\"), "'it''s \\'");
    assert_eq!(sql_name("a\"b"), "\"a\"\"b\"");
    assert_eq!(r_name("speed_mb.s"), "speed_mb.s");
    assert_eq!(r_name("if"), "\"if\"");
    assert_eq!(r_name("2020"), "\"2020\"");
    assert_eq!(r_name("_x"), "\"_x\"");
    assert_eq!(shell_word("a'b"), "'a'\\''b'");
}

/// A table wider than SPELLED_COLUMNS: no snippet lists the columns; pandas, Polars and
/// DuckDB read the Parquet copy, or the CSV with its delimiter and a note on the types.
#[test]
fn a_wide_table_is_read_without_spelling_out_every_column() {
    let mut table = table();
    let one = table.columns[0].clone();
    table.columns = (0..=SPELLED_COLUMNS)
        .map(|i| Column {
            name: format!("c{i}"),
            ..one.clone()
        })
        .collect();
    let count = table.columns.len();
    for text in [pandas(&table), polars(&table), r(&table), duckdb(&table)] {
        assert!(!text.contains("c17"), "{text}");
        assert!(
            text.contains(&format!("the types of the {count} columns")),
            "{text}"
        );
        assert!(text.contains("t.csv") && text.contains(';'), "{text}");
    }
    table.parquet_url = Some("https://example.org/sub/data/datasets/t.parquet".into());
    assert_eq!(
        pandas(&table),
        "import pandas as pd\ndf = pd.read_parquet(\"https://example.org/sub/data/datasets/t.parquet\")"
    );
    assert_eq!(
        polars(&table),
        "import polars as pl\ndf = pl.read_parquet(\"https://example.org/sub/data/datasets/t.parquet\")"
    );
    assert!(duckdb(&table).contains("read_parquet("));
}

/// Every reserved word of R (`?Reserved`) is quoted as an argument name: bare, it is a
/// syntax error (`NA_complex_ = col_double()`).
#[test]
fn r_reserved_words_are_quoted() {
    // As R's `?Reserved` lists them, written out here rather than taken from the code.
    let reserved = "if else repeat while function for next break TRUE FALSE NULL Inf NaN NA \
                    NA_integer_ NA_real_ NA_character_ NA_complex_ in ... ..1 ..2";
    for word in reserved.split_whitespace() {
        assert_eq!(r_name(word), format!("\"{word}\""), "{word}");
    }
    assert_eq!(r_name("NA_complex"), "NA_complex");
}

/// DuckDB refuses a `nullstr` holding the quote character: such a token is left out of
/// it and the columns that take it are read as text, NULL where it is, then typed. Polars
/// compares a quoted cell before its doubled quotes are undone: it is told the token so.
#[test]
fn missing_values_holding_the_quote_are_read_by_duckdb_and_polars() {
    let mut table = table();
    table.delimiter = b',';
    for column in &mut table.columns {
        column.missing = vec!["NA".into(), "\"".into(), "n\"a".into()];
    }
    table.columns.truncate(3);
    table.columns[1].kind = Kind::Integer;
    table.columns[1].marks = NumberMarks::PLAIN;
    table.columns[2].kind = Kind::String;
    let text = duckdb(&table);
    assert!(text.ends_with("nullstr = ['', 'NA']);"), "{text}");
    assert!(
        text.contains(
            "CAST((CASE WHEN \"naïve \"\"q\"\" 'a' \\ b\" IN ('\"', 'n\"a') THEN NULL ELSE \"naïve \"\"q\"\" 'a' \\ b\" END) AS BIGINT) AS \"naïve \"\"q\"\" 'a' \\ b\""
        ),
        "{text}"
    );
    assert!(
        text.contains("(CASE WHEN \"ok\" IN ('\"', 'n\"a') THEN NULL ELSE \"ok\" END) AS \"ok\""),
        "{text}"
    );
    assert!(text.contains("'ok': 'VARCHAR'"), "{text}");
    let polars = polars(&table);
    assert!(
        polars.contains("null_values=[\"NA\", \"\\\"\\\"\", \"n\\\"\\\"a\"]"),
        "{polars}"
    );
    // An integer column read as text, its missing values set to NULL, then cast.
    assert!(
        text.contains("CAST((CASE WHEN \"id\" IN ('\"', 'n\"a') THEN NULL ELSE \"id\" END) AS BIGINT) AS \"id\""),
        "{text}"
    );
}

/// A token that counts its comparisons and hashes.
#[derive(Clone, Copy)]
struct Counted<'a>(u32, &'a std::cell::Cell<u64>);

impl PartialEq for Counted<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.1.set(self.1.get() + 1);
        self.0 == other.0
    }
}

impl Eq for Counted<'_> {}

impl std::hash::Hash for Counted<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.1.set(self.1.get() + 1);
        self.0.hash(state);
    }
}

/// The union of every column's missing values is linear in the tokens: 200 columns of
/// 6,000 tokens took 41 s when each token was looked up in the list so far.
#[test]
fn the_union_of_missing_values_grows_linearly() {
    let work = |tokens: u32| {
        let operations = std::cell::Cell::new(0);
        // Each of 20 columns lists the same tokens, as a dataset-wide list gives them.
        let items = (0..20).flat_map(|_| (0..tokens).map(|t| Counted(t, &operations)));
        let union = first_seen(items);
        assert_eq!(union.len(), tokens as usize);
        assert!(union.iter().enumerate().all(|(n, t)| t.0 == n as u32));
        operations.get()
    };
    let (small, large) = (work(1_000), work(4_000));
    assert!(
        large <= 5 * small,
        "4x the tokens cost {large} operations against {small}"
    );
    let mut table = table();
    table.columns[0].missing = vec!["NA".into(), "x".into()];
    table.columns[1].missing = vec!["x".into(), "y".into(), "NA".into()];
    assert_eq!(table.missing_union(), ["NA", "x", "y"]);
}

#[test]
fn padded_fields_are_skipped_by_every_snippet() {
    let padded = Table {
        skip_initial_space: true,
        ..table()
    };
    assert!(
        pandas(&padded).contains(", skipinitialspace=True,"),
        "{}",
        pandas(&padded)
    );
    assert!(r(&padded).contains(", trim_ws = TRUE"), "{}", r(&padded));
    // Polars and DuckDB have no such option: pandas, or a note, without a copy…
    let polars_code = polars(&padded);
    assert!(polars_code.contains("pl.from_pandas(df)"), "{polars_code}");
    assert!(
        polars_code.contains("skipinitialspace=True"),
        "{polars_code}"
    );
    assert!(duckdb(&padded).starts_with("-- DuckDB cannot skip"));
    // …the typed Parquet copy with one.
    let copied = Table {
        parquet_url: Some("https://example.org/t.parquet".into()),
        ..padded
    };
    assert!(polars(&copied).contains("pl.read_parquet(\"https://example.org/t.parquet\")"));
    assert!(duckdb(&copied).contains("read_parquet("));
    assert!(!pandas(&table()).contains("skipinitialspace"));
}

#[test]
fn columns_with_their_own_missing_values_keep_each_others_values() {
    // `NA` is no value among notes but Namibia among country codes.
    let plain = NumberMarks::PLAIN;
    let mut code = column("code", Kind::String, plain);
    code.missing.clear();
    let mut t = Table {
        csv_url: "https://example.org/t.csv".into(),
        parquet_url: None,
        delimiter: b',',
        skip_initial_space: false,
        marks: plain,
        columns: vec![code, column("note", Kind::String, plain)],
    };
    assert!(t.missing_differs());
    assert!(pandas(&t)
        .contains(r#"na_values={"code": [""], "note": ["", "NA"]}, keep_default_na=False"#));
    // Polars takes one list for the whole file: the Parquet copy, else pandas.
    assert!(polars(&t).contains("pl.from_pandas(df)"), "{}", polars(&t));
    t.parquet_url = Some("https://example.org/t.parquet".into());
    assert_eq!(
        polars(&t),
        "import polars as pl\ndf = pl.read_parquet(\"https://example.org/t.parquet\")"
    );
    // One list when every column has the same.
    t.columns[0].missing = vec!["NA".into()];
    assert!(!t.missing_differs());
    assert!(pandas(&t).contains(r#"na_values=["", "NA"], keep_default_na=False"#));
}
