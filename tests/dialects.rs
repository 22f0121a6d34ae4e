//! Real-world CSV dialects: `datetime` columns (ISO 8601 with time and zone) and `NaN`,
//! `INF`, `-INF` in number columns, checked cell by cell and exported to the Data Package
//! and CSVW, which frictionless and csvwvalidate accept.

mod common;

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
    let Some(bin) = validators() else { return };
    let report = Command::new(bin.join("frictionless"))
        .args(["validate", "--json"])
        .arg(&package)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&report.stdout).unwrap();
    assert_eq!(report["valid"], true, "{report:#}");
    let csvw = Command::new(bin.join("csvwvalidate"))
        .arg(&csvw)
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
