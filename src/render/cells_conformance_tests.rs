//! The conformance corpus of cells (`tests/cells/conformance.json`) read as the build reads
//! it: each cell through the page's table (`RowRenderer`, with the column's missing values
//! and number marks) for the text shown, and as the scan reads a chart's cells for the
//! value (marks to a plain number that passes its type's check, a date through its
//! `format` or as ISO 8601 to its moment in time); each dialect case's line through
//! `CsvDialect`. A case with a `locale` shows a cell read as a number in that language's
//! marks (`i18n::Locale::number` on the table's text), and the corpus's marks of each
//! language are the ones the build gives it. `tests/browser/cells-conformance.test.js` reads
//! the same corpus through the explorer's worker, so the two cannot disagree.

use serde_json::Value;

use super::*;
use crate::content::iso8601::day_position;
use crate::dataset::shown::is_year_column;
use crate::i18n::locale::Locale;

const CORPUS: &str = include_str!("../../tests/cells/conformance.json");

/// The column a case describes (in the terms the page gives the explorer) as front matter
/// declares it: a year column is named `year`.
fn spec_of(column: &Value) -> ColumnSpec {
    let text = |key: &str| column.get(key).and_then(Value::as_str);
    let flag = |key: &str| column.get(key).and_then(Value::as_bool) == Some(true);
    let mut table = toml::Table::new();
    let name = if flag("year") { "year" } else { "value" };
    for (key, value) in [("name", name), ("title", name), ("description", "d")] {
        table.insert(key.into(), value.into());
    }
    for key in ["type", "format", "decimal", "group"] {
        if let Some(value) = text(key) {
            table.insert(key.into(), value.into());
        }
    }
    if let Some(digits) = column.get("digits").and_then(Value::as_i64) {
        table.insert("digits".into(), digits.into());
    }
    if flag("ungrouped") {
        table.insert("grouping".into(), false.into());
    }
    let missing = column.get("missing").and_then(Value::as_array);
    let tokens = missing.into_iter().flatten().filter_map(Value::as_str);
    let list: Vec<toml::Value> = std::iter::once("").chain(tokens).map(Into::into).collect();
    table.insert("missing_values".into(), list.into());
    let spec: ColumnSpec = toml::Value::Table(table).try_into().unwrap();
    assert_eq!(is_year_column(&spec), flag("year"), "{column}");
    spec
}

/// The text of the one `<td>` of `row`, unescaped.
fn cell_text(row: &str) -> String {
    let td = &row[row.find("<td").unwrap()..];
    let inner = &td[td.find('>').unwrap() + 1..td.find("</td>").unwrap()];
    [
        ("&lt;", "<"),
        ("&gt;", ">"),
        ("&quot;", "\""),
        ("&#39;", "'"),
        ("&amp;", "&"),
    ]
    .iter()
    .fold(inner.to_string(), |text, (entity, c)| {
        text.replace(entity, c)
    })
}

/// What the build reads of a cell case: the value (a number, a date's milliseconds since
/// 1970 UTC) and the text the table shows.
fn read_cell(column: &Value, cell: &str) -> (Option<f64>, String) {
    let spec = spec_of(column);
    let marks = match spec.column_type.is_numeric() {
        true => NumberMarks::resolve((spec.decimal, spec.group), (None, None)),
        false => NumberMarks::PLAIN,
    };
    let missing = MissingValues::resolve(&[spec.missing_values.as_deref()]);
    let is_missing = missing.is_missing(cell);
    let renderer = RowRenderer {
        missing: vec![missing],
        marks: vec![marks],
        ..RowRenderer::new(std::slice::from_ref(&spec))
    };
    let mut row = String::new();
    renderer.render(&csv::ByteRecord::from(vec![cell]), 1, &mut row);
    let value = match () {
        _ if is_missing => None,
        _ if spec.column_type.is_time() => moment(&spec, cell).map(|d| (d * 86_400_000.0).round()),
        _ if spec.column_type.is_numeric() => marks
            .plain(cell, &mut String::new())
            .filter(|plain| spec.column_type.check(plain).is_ok())
            .and_then(|plain| plain.parse::<f64>().ok()),
        _ => None,
    };
    (value.filter(|v| v.is_finite()), cell_text(&row))
}

/// Where a date cell lies in time (days since 1970 UTC): through its column's `format` in
/// the shown style, else as ISO 8601 when it passes its type's check.
fn moment(spec: &ColumnSpec, cell: &str) -> Option<f64> {
    let mut shown = String::new();
    match &spec.format {
        Some(format) => DateFormat::compile(format, spec.column_type)
            .is_ok_and(|f| f.canonical(cell, &mut shown))
            .then(|| day_position(&shown))?,
        None => spec
            .column_type
            .check(cell)
            .ok()
            .and_then(|()| day_position(cell)),
    }
}

/// The fields of a dialect case's line.
fn read_line(dialect: &Value, line: &str) -> Vec<String> {
    let delimiter = dialect
        .get("delimiter")
        .and_then(Value::as_str)
        .unwrap_or(",");
    let dialect = CsvDialect {
        delimiter: delimiter.as_bytes()[0],
        skip_initial_space: dialect.get("skip_initial_space") == Some(&Value::Bool(true)),
    };
    // As the table reads it: the dialect's reader, one record.
    let mut reader = dialect.builder().from_reader(line.as_bytes());
    let mut record = csv::ByteRecord::new();
    assert!(dialect.read(&mut reader, &mut record).unwrap());
    let text = |field: &[u8]| String::from_utf8(field.to_vec()).unwrap();
    record.iter().map(text).collect()
}

#[test]
fn the_build_reads_every_cell_of_the_corpus_as_written_down() {
    let corpus: Value = serde_json::from_str(CORPUS).unwrap();
    let cases = corpus["cases"].as_array().unwrap();
    assert!(cases.len() >= 80, "at least 80 cases");
    let mut wrong = Vec::new();
    for case in cases {
        if case["kind"] == "dialect" {
            let line = case["line"].as_str().unwrap();
            let fields = read_line(&case["dialect"], line);
            if serde_json::json!(fields) != case["fields"] {
                wrong.push(format!(
                    "{line:?}: fields {fields:?}, not {}",
                    case["fields"]
                ));
            }
            continue;
        }
        let cell = case["cell"].as_str().unwrap();
        let (value, mut shown) = read_cell(&case["column"], cell);
        if let (Some(tag), Some(_)) = (case["locale"].as_str(), value) {
            shown = Locale::new(tag).number(&shown).into_owned();
        }
        let about = format!("{} {cell:?}", case["column"]);
        if shown != case["shown"] {
            wrong.push(format!("{about}: shown {shown:?}, not {}", case["shown"]));
        }
        if value != case["value"].as_f64() {
            wrong.push(format!("{about}: value {value:?}, not {}", case["value"]));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let locales = cases.iter().filter(|c| c["locale"].is_string()).count();
    assert!(locales >= 30, "at least 30 cases in other languages");
}

#[test]
fn the_corpus_marks_of_each_language_are_the_builds() {
    let corpus: Value = serde_json::from_str(CORPUS).unwrap();
    for (tag, marks) in corpus["marks"].as_object().unwrap() {
        let built = serde_json::to_value(&Locale::new(tag).marks).unwrap();
        assert_eq!(&built, marks, "{tag}");
    }
}
