//! The flagship CSV reproduces the table of reference document 000 exactly: the same
//! header, rows, figures and identifiers. (The two prose columns are reworded, so they
//! are only checked for presence.)

use crate::common;

use std::path::PathBuf;

/// `../shared/reference/000_*.txt` beside the checkout, where the project keeps it.
fn reference_000() -> Option<PathBuf> {
    let dir = common::bundled_site().join("../shared/reference");
    let found = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("000_"))
        });
    if found.is_none() && std::env::var("CI").as_deref() == Ok("true") {
        panic!(
            "reference document 000 not found in {} (required under CI=true)",
            dir.display()
        );
    }
    found
}

#[test]
fn flagship_csv_reproduces_reference_table() {
    let Some(path) = reference_000() else {
        eprintln!(
            "skipped: reference document 000 (../shared/reference) is not beside this checkout"
        );
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with("Figure\t"))
        .expect("table header in 000");
    let table: Vec<Vec<&str>> = lines[start + 1..start + 12]
        .iter()
        .map(|l| l.split('\t').collect())
        .collect();
    let columns_at = lines
        .iter()
        .position(|l| *l == "Columns")
        .expect("Columns section");
    let names: Vec<&str> = lines[columns_at + 1..]
        .iter()
        .take_while(|l| **l != "License")
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(" (").next().unwrap())
        .collect();

    let csv_path =
        common::bundled_site().join("data/datasets/sata-sas-nvme-measured-throughput.csv");
    let mut reader = csv::Reader::from_path(csv_path).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, names, "CSV header equals the Columns list of 000");
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 11);
    let prose = [
        header.iter().position(|h| h == "population").unwrap(),
        header.iter().position(|h| h == "note").unwrap(),
    ];
    for (row, (reference, ours)) in table.iter().zip(&rows).enumerate() {
        assert_eq!(reference.len(), 17, "reference row {row}");
        assert_eq!(ours.len(), 17, "csv row {row}");
        for (column, (printed, value)) in reference.iter().zip(ours.iter()).enumerate() {
            if prose.contains(&column) {
                assert!(
                    !value.trim().is_empty(),
                    "row {row} column {} is empty",
                    header[column]
                );
                continue;
            }
            let expected = if *printed == "—" {
                String::new()
            } else {
                printed.replace(',', "")
            };
            let expected = if header[column].ends_with("_as_printed") {
                printed.to_string()
            } else {
                expected
            };
            let expected = if *printed == "—" {
                String::new()
            } else {
                expected
            };
            assert_eq!(value, expected, "row {row} column {}", header[column]);
        }
    }
}
