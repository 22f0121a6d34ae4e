//! Costs that must grow linearly with their input (hostile sites made them quadratic):
//! each case runs at two sizes and compares peak memory and CPU time of the larger run
//! against the smaller one's times the factor (see `common::measure`), never a clock bound.

use crate::common;

use std::fmt::Write as _;
use std::path::Path;

use common::measure::{assert_linear, run_measured, Measured};

const FACTOR: i64 = 4;

/// The small site of `common`, with one row.
fn small_site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::write_small_site(
        dir.path(),
        common::SMALL_FRONT,
        common::SMALL_BODY,
        b"label,value\na,1\n",
    );
    dir
}

fn check(root: &Path) -> Measured {
    run_measured(root, &["check", "--no-cache"])
}

/// A header with `n` columns that the front matter does not document: one error each,
/// quoting only the part of the header line it points at.
fn header_errors(n: usize) -> Measured {
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("label,value");
    for i in 0..n {
        let _ = write!(csv, ",undocumented_{i}");
    }
    csv.push_str("\na,1");
    csv.push_str(&",x".repeat(n));
    csv.push('\n');
    common::write_small_site(
        dir.path(),
        common::SMALL_FRONT,
        common::SMALL_BODY,
        csv.as_bytes(),
    );
    let run = check(dir.path());
    assert_eq!(
        run.code,
        Some(1),
        "{}",
        &run.stderr[..run.stderr.len().min(2000)]
    );
    assert_eq!(
        run.stderr
            .matches("is in the CSV but not documented")
            .count(),
        n,
        "every column is reported"
    );
    run
}

#[test]
#[ignore = "full tier: memory and CPU comparison of runs on inputs 4x apart (GNU time)"]
fn header_errors_grow_linearly() {
    if !common::measure::can_measure() {
        return;
    }
    let small = header_errors(5_000);
    let large = header_errors(20_000);
    assert!(
        large.stderr.len() < 20_000 * 1_000,
        "each error is a few lines"
    );
    assert_linear("undocumented columns", &small, &large, FACTOR);
}

/// A `missing_values` list of `n` tokens, on a table whose cells are all checked
/// against it.
fn missing_values(n: usize) -> Measured {
    let dir = tempfile::tempdir().unwrap();
    let mut list = String::from("missing_values = [\"\"");
    for i in 0..n {
        let _ = write!(list, ", \"m{i}\"");
    }
    list.push_str("]\n");
    let mut csv = String::from("label,value\n");
    for i in 0..2_000 {
        let _ = writeln!(csv, "row {i},m{}", i % (n + 1));
    }
    common::write_small_site(
        dir.path(),
        &format!("{list}{}", common::SMALL_FRONT),
        common::SMALL_BODY,
        csv.as_bytes(),
    );
    let run = check(dir.path());
    assert!(run.code == Some(0) || run.code == Some(1), "{}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    run
}

#[test]
#[ignore = "full tier: memory and CPU comparison of runs on inputs 4x apart (GNU time)"]
fn a_long_missing_values_list_grows_linearly() {
    if !common::measure::can_measure() {
        return;
    }
    let small = missing_values(5_000);
    let large = missing_values(20_000);
    assert_linear("missing_values", &small, &large, FACTOR);
}

/// A build of 50 columns that share a dataset-wide `missing_values` list of `n` tokens:
/// the "Use this data" snippets list the union of every column's tokens (200 columns of
/// 6,000 tokens took 41 s when each was looked up in the list so far).
fn missing_values_build(n: usize) -> Measured {
    let dir = tempfile::tempdir().unwrap();
    let mut front = String::from("missing_values = [\"\"");
    for i in 0..n {
        let _ = write!(front, ", \"m{i}\"");
    }
    front.push_str("]\n");
    front.push_str(common::SMALL_FRONT);
    let mut header = String::from("label,value");
    for c in 0..48 {
        let _ = write!(
            front,
            "[[columns]]\nname = \"c{c}\"\ntitle = \"C{c}\"\ntype = \"string\"\ndescription = \"A column.\"\n"
        );
        let _ = write!(header, ",c{c}");
    }
    let csv = format!("{header}\na,1{}\n", ",m1".repeat(48));
    common::write_small_site(dir.path(), &front, common::SMALL_BODY, csv.as_bytes());
    let run = run_measured(dir.path(), &["build", "--no-cache"]);
    assert_eq!(
        run.code,
        Some(0),
        "{}",
        &run.stderr[..run.stderr.len().min(2000)]
    );
    run
}

#[test]
#[ignore = "full tier: memory and CPU comparison of builds on inputs 4x apart (GNU time)"]
fn a_long_missing_values_list_builds_in_linear_time() {
    if !common::measure::can_measure() {
        return;
    }
    let small = missing_values_build(1_000);
    let large = missing_values_build(4_000);
    assert_linear("missing_values, build", &small, &large, FACTOR);
}

/// A site of `n` plain pages: every page carries the navigation.
fn plain_pages(n: usize) -> (Measured, u64) {
    let dir = small_site();
    for i in 0..n {
        std::fs::write(
            dir.path().join(format!("content/page-{i:05}.md")),
            format!("+++\ntitle = \"Page number {i}\"\n+++\n\nText of page {i}.\n"),
        )
        .unwrap();
    }
    let run = run_measured(dir.path(), &["build", "--no-cache"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let page = std::fs::read_to_string(dir.path().join("public/page-00000/index.html")).unwrap();
    assert!(page.contains("Text of page 0."));
    let bytes = walkdir::WalkDir::new(dir.path().join("public"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.metadata().unwrap().len())
        .sum();
    (run, bytes)
}

#[test]
#[ignore = "full tier: memory and CPU comparison of runs on inputs 4x apart (GNU time)"]
fn plain_pages_grow_linearly() {
    if !common::measure::can_measure() {
        return;
    }
    let (small, small_bytes) = plain_pages(1_000);
    let (large, large_bytes) = plain_pages(4_000);
    println!("output: {small_bytes} bytes at 1,000 pages, {large_bytes} at 4,000");
    assert!(
        large_bytes <= FACTOR as u64 * small_bytes + 1_000_000,
        "the output grew faster than the pages: {small_bytes} -> {large_bytes} bytes"
    );
    assert_linear("plain pages", &small, &large, FACTOR);
}

/// `new --from` a CSV of `n` columns, then `check` of the page it wrote.
fn wide_new(n: usize) -> (Measured, Measured) {
    let dir = small_site();
    let mut csv = String::new();
    for i in 0..n {
        let _ = write!(csv, "{}col_{i}", if i == 0 { "" } else { "," });
    }
    csv.push('\n');
    for row in 0..3 {
        for i in 0..n {
            let _ = write!(csv, "{}{}", if i == 0 { "" } else { "," }, row * n + i);
        }
        csv.push('\n');
    }
    let from = dir.path().join("wide.csv");
    std::fs::write(&from, csv).unwrap();
    let new = run_measured(
        dir.path(),
        &["new", "wide", "--from", from.to_str().unwrap()],
    );
    assert_eq!(new.code, Some(0), "{}", new.stderr);
    let check = check(dir.path());
    assert!(
        check.code == Some(0),
        "{}",
        &check.stderr[..check.stderr.len().min(3000)]
    );
    (new, check)
}

#[test]
#[ignore = "full tier: memory and CPU comparison of runs on inputs 4x apart (GNU time)"]
fn new_and_check_on_a_wide_file_grow_linearly() {
    if !common::measure::can_measure() {
        return;
    }
    let (small_new, small_check) = wide_new(10_000);
    let (large_new, large_check) = wide_new(40_000);
    assert_linear("new --from, wide", &small_new, &large_new, FACTOR);
    assert_linear("check, wide", &small_check, &large_check, FACTOR);
}
