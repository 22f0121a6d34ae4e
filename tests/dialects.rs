//! Real-world CSV dialects: `datetime` columns (ISO 8601 with time and zone), checked cell
//! by cell and exported as `datetime` to the Data Package and CSVW, which frictionless and
//! csvwvalidate accept.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The small site's front matter with its `value` column typed `datetime`.
fn front() -> String {
    common::SMALL_FRONT.replace("type = \"integer\"", "type = \"datetime\"")
}

fn validators() -> Option<PathBuf> {
    let bin = common::bundled_site().join("target/validators-venv/bin");
    let present = bin.join("frictionless").is_file() && bin.join("csvwvalidate").is_file();
    common::tool_present("frictionless and csvwvalidate", present).then_some(bin)
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn datetime_columns_are_exported_and_validate() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    common::write_small_site(
        &root,
        &front(),
        common::SMALL_BODY,
        b"label,value\na,2011-09-19T17:54:28Z\nb,2011-09-19T19:54:28+02:00\nc,\n",
    );
    let output = dir.path().join("out");
    datapages::build(&datapages::BuildOptions::new(&root).output(&output))
        .unwrap_or_else(|e| panic!("{e}"));
    let package = output.join("data/datasets/sample.json");
    assert_eq!(
        json(&package)["resources"][0]["schema"]["fields"][1]["type"],
        "datetime"
    );
    let csvw = output.join("data/datasets/sample.csv-metadata.json");
    assert_eq!(
        json(&csvw)["tableSchema"]["columns"][1]["datatype"],
        "datetime"
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
fn a_datetime_without_a_zone_is_an_error_at_its_cell() {
    let dir = tempfile::tempdir().unwrap();
    common::write_small_site(
        dir.path(),
        &front(),
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
