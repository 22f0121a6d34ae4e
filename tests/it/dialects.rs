//! Real-world CSV dialects: `datetime` columns (ISO 8601 with time and zone) and `NaN`,
//! `INF`, `-INF` in number columns, checked cell by cell and exported to the Data Package
//! and CSVW, which frictionless and csvwvalidate accept.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn validators() -> Option<PathBuf> {
    let bin = common::bundled_site().join("target/validators-venv/bin");
    let present = bin.join("frictionless").is_file() && bin.join("csvwvalidate").is_file();
    common::tool_present("frictionless and csvwvalidate", present).then_some(bin)
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// Builds the small site with its `value` column of `value_type` and these CSV bytes, checks
/// the type the Data Package and CSVW state, and runs frictionless and csvwvalidate on them.
fn build_and_validate(value_type: &str, csv: &[u8], csvw_datatype: &str) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    let front =
        common::SMALL_FRONT.replace("type = \"integer\"", &format!("type = \"{value_type}\""));
    common::write_small_site(&root, &front, common::SMALL_BODY, csv);
    let output = dir.path().join("out");
    datapages::build(&datapages::BuildOptions::new(&root).output(&output))
        .unwrap_or_else(|e| panic!("{e}"));
    let package = output.join("data/datasets/sample.json");
    assert_eq!(
        json(&package)["resources"][0]["schema"]["fields"][1]["type"],
        value_type
    );
    let csvw = output.join("data/datasets/sample.csv-metadata.json");
    assert_eq!(
        json(&csvw)["tableSchema"]["columns"][1]["datatype"],
        csvw_datatype
    );
    validate(&package, &csvw);
}

/// Runs frictionless on the Data Package and csvwvalidate on the CSVW metadata.
fn validate(package: &Path, csvw: &Path) {
    let Some(bin) = validators() else { return };
    let report = Command::new(bin.join("frictionless"))
        .args(["validate", "--json"])
        .arg(package)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&report.stdout).unwrap();
    assert_eq!(report["valid"], true, "{report:#}");
    let csvw = Command::new(bin.join("csvwvalidate"))
        .arg(csvw)
        .output()
        .unwrap();
    assert!(
        csvw.status.success(),
        "{}",
        String::from_utf8_lossy(&csvw.stdout)
    );
}

#[test]
fn datetime_columns_are_exported_and_validate() {
    build_and_validate(
        "datetime",
        b"label,value\na,2011-09-19T17:54:28Z\nb,2011-09-19T19:54:28+02:00\nc,\n",
        "datetime",
    );
}

#[test]
fn nan_and_infinities_are_numbers_as_table_schema_spells_them() {
    build_and_validate(
        "number",
        b"label,value\na,1.5\nb,NaN\nc,INF\nd,-INF\n",
        "number",
    );
}

#[test]
fn a_datetime_without_a_zone_is_an_error_at_its_cell() {
    let dir = tempfile::tempdir().unwrap();
    common::write_small_site(
        dir.path(),
        &common::SMALL_FRONT.replace("type = \"integer\"", "type = \"datetime\""),
        common::SMALL_BODY,
        b"label,value\na,2011-09-19T17:54:28Z\nb,2011-09-19T17:54:28\n",
    );
    let problems = common::check_all(dir.path());
    let errors: Vec<_> = problems
        .items()
        .iter()
        .filter(|d| d.severity == datapages::Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1, "{problems:?}");
    assert_eq!(errors[0].file, Path::new("data/datasets/sample.csv"));
    assert_eq!(errors[0].line, Some(3));
    assert!(
        errors[0].message.contains("date and time with a zone")
            || errors[0]
                .hint
                .as_deref()
                .unwrap_or_default()
                .contains("zone"),
        "{:?}",
        errors[0]
    );
}

/// `;`-separated (a comma inside an unquoted field), `NA` declared missing for the dataset,
/// `n/a` for one column only, pandas' `inf`/`-inf`/`nan` in a `pandas_numbers` column,
/// date-times with zones.
const SEMICOLON_CSV: &[u8] = b"label;value;at;growth\n\
Smith, J.;1.5;2011-09-19T17:54:28Z;inf\n\
b;NA;NA;-inf\n\
c;2.5;2011-09-19T19:54:28+02:00;n/a\n\
d;3;;nan\n";

/// The small site's front matter with a `;` delimiter (line 6), `NA` missing for the
/// dataset (line 7), a `number` value, and two more columns and a chart.
fn semicolon_front() -> String {
    let head = common::SMALL_FRONT
        .replace(
            "tags = [\"Test tag\"]\n",
            "tags = [\"Test tag\"]\ndelimiter = \";\"\nmissing_values = [\"\", \"NA\"]\n",
        )
        .replace("type = \"integer\"", "type = \"number\"");
    head + r#"[[columns]]
name = "at"
title = "Measured at"
type = "datetime"
description = "When."
[[columns]]
name = "growth"
title = "Growth"
type = "number"
description = "Growth, as pandas wrote it."
missing_values = ["", "n/a"]
pandas_numbers = true
[[charts]]
id = "values"
kind = "bar"
title = "Values"
x = "label"
y = "value"
"#
}

#[test]
fn a_semicolon_file_with_declared_missing_values_builds_exports_and_validates() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    common::write_small_site(&root, &semicolon_front(), common::SMALL_BODY, SEMICOLON_CSV);
    let output = dir.path().join("out");
    datapages::build(&datapages::BuildOptions::new(&root).output(&output))
        .unwrap_or_else(|e| panic!("{e}"));
    let download = std::fs::read(output.join("data/datasets/sample.csv")).unwrap();
    assert_eq!(download, SEMICOLON_CSV, "the download is the author's file");

    let package = output.join("data/datasets/sample.json");
    let resource = &json(&package)["resources"][0];
    assert_eq!(resource["dialect"]["delimiter"], ";");
    assert_eq!(
        resource["schema"]["missingValues"],
        serde_json::json!(["", "NA"])
    );
    let fields = &resource["schema"]["fields"];
    assert_eq!(fields[3]["missingValues"], serde_json::json!(["", "n/a"]));
    assert!(
        fields[1].get("missingValues").is_none(),
        "the schema's list applies"
    );
    assert_eq!(fields[3]["datapages:nonFinite"]["inf"], "INF");
    assert_eq!(fields[2]["type"], "datetime");
    // The profile counts declared missing values as empty cells.
    assert_eq!(fields[2]["datapages:profile"]["empty"], 2, "{fields:#}");

    let csvw = output.join("data/datasets/sample.csv-metadata.json");
    let table = json(&csvw);
    assert_eq!(table["dialect"]["delimiter"], ";");
    let columns = &table["tableSchema"]["columns"];
    // The dataset's list applies to every column without its own, text ones included.
    assert_eq!(columns[0]["null"], serde_json::json!(["", "NA"]));
    assert_eq!(columns[2]["null"], serde_json::json!(["", "NA"]));
    assert_eq!(columns[3]["null"], serde_json::json!(["", "n/a"]));

    // The table shows every missing value as the dash, and reads `;` as the separator.
    let page = std::fs::read_to_string(output.join("datasets/sample/index.html")).unwrap();
    assert_eq!(
        page.matches("<td class=\"empty\">—</td>").count(),
        4,
        "{page}"
    );
    assert!(page.contains("<td>Smith, J.</td>"));
    assert!(!page.contains("<td>NA</td>") && !page.contains("n/a</td>"));

    validate(&package, &csvw);
}

/// The errors of one site, as (line, message) in `file`.
fn errors_in(root: &Path, file: &str) -> Vec<(Option<u32>, String)> {
    common::check_all(root)
        .items()
        .iter()
        .filter(|d| d.severity == datapages::Severity::Error)
        .map(|d| {
            assert_eq!(d.file, Path::new(file), "{d:?}");
            (d.line, d.message.to_string())
        })
        .collect()
}

#[test]
fn a_column_list_replaces_the_datasets_and_undeclared_spellings_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    // `NA` in `growth`, whose own list has only `n/a`; `inf` in `value` without
    // `pandas_numbers`.
    let csv = b"label;value;at;growth\na;inf;NA;NA\n";
    common::write_small_site(dir.path(), &semicolon_front(), common::SMALL_BODY, csv);
    let errors = errors_in(dir.path(), "data/datasets/sample.csv");
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors.iter().all(|(line, _)| *line == Some(2)));
    assert!(errors[0].1.contains("`value`") && errors[0].1.contains("\"inf\""));
    assert!(errors[1].1.contains("`growth`") && errors[1].1.contains("\"NA\""));
}

#[test]
fn missing_values_without_the_empty_cell_and_unknown_delimiters_are_errors_at_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let front = semicolon_front()
        .replace(
            "missing_values = [\"\", \"NA\"]",
            "missing_values = [\"NA\"]",
        )
        .replace("delimiter = \";\"", "delimiter = \";;\"");
    common::write_small_site(dir.path(), &front, common::SMALL_BODY, SEMICOLON_CSV);
    let errors = errors_in(dir.path(), "content/datasets/sample.md");
    let lines: Vec<_> = errors.iter().map(|(line, _)| *line).collect();
    assert_eq!(lines, [Some(6), Some(7)], "{errors:?}");
    assert!(errors[0].1.contains("`delimiter`"));
    assert!(errors[1].1.contains("leaves out \"\""));
}

#[test]
fn figures_quoted_from_a_semicolon_file_read_its_cells() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    let body = common::SMALL_BODY.replace(
        "Counted.",
        "Row c reads {{ cell(label=\"c\", col=\"value\") }}; the mean is {{ mean(col=\"value\", digits=2) }}.",
    );
    common::write_small_site(&root, &semicolon_front(), &body, SEMICOLON_CSV);
    let output = dir.path().join("out");
    datapages::build(&datapages::BuildOptions::new(&root).output(&output))
        .unwrap_or_else(|e| panic!("{e}"));
    let page = common::html(&output.join("datasets/sample/index.html"));
    let text = common::texts(&page, "main p").join("\n");
    // `NA` is missing, so the mean is over 1.5, 2.5 and 3.
    assert!(
        text.contains("Row c reads 2.5; the mean is 2.33."),
        "{text}"
    );
}

/// A list of 10,000 values without `""`: the hint starts the list, never prints it whole.
#[test]
fn the_hint_for_a_long_list_without_the_empty_cell_is_short() {
    let dir = tempfile::tempdir().unwrap();
    let tokens: Vec<String> = (0..10_000).map(|i| format!("\"m{i}\"")).collect();
    let front = semicolon_front().replace(
        "missing_values = [\"\", \"NA\"]",
        &format!("missing_values = [{}]", tokens.join(", ")),
    );
    common::write_small_site(dir.path(), &front, common::SMALL_BODY, SEMICOLON_CSV);
    let diagnostics = common::check_all(dir.path());
    let error = diagnostics
        .items()
        .iter()
        .find(|d| d.message.contains("leaves out \"\""))
        .expect("the error");
    let hint = error.hint.as_deref().unwrap_or_default();
    assert!(hint.len() < 300, "{} bytes: {hint}", hint.len());
    assert!(
        hint.contains("[\"\", \"m0\", \"m1\", \"m2\", …]") && hint.contains("9997 other values"),
        "{hint}"
    );
}
