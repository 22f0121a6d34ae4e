//! Smaller details of real pages (issue #33): a chart titled "CO₂ …" gets a default id
//! the id check accepts; the table's filter status counts the CSV's rows, with their
//! thousands separators, when the page shows only the first of them (headless Chromium).

use crate::common;

use std::time::{Duration, Instant};

use common::webdriver::{self, Driver};
use serde_json::json;

#[test]
fn a_chart_titled_with_a_subscript_gets_an_ascii_id_that_builds() {
    let dir = tempfile::tempdir().unwrap();
    let front = format!(
        "{}[[charts]]\nkind = \"bar\"\ntitle = \"CO₂ by label\"\nx = \"label\"\ny = \"value\"\n",
        common::SMALL_FRONT
    );
    common::write_small_site(
        dir.path(),
        &front,
        common::SMALL_BODY,
        b"label,value\na,1\nb,2\n",
    );
    let check = common::run(&["check", "--root", dir.path().to_str().unwrap()]);
    let text = String::from_utf8_lossy(&check.stderr);
    assert_eq!(check.status.code(), Some(0), "{text}");
    assert!(!text.contains("chart id"), "{text}");
    common::build_root(dir.path());
    let page =
        std::fs::read_to_string(dir.path().join("public/datasets/sample/index.html")).unwrap();
    assert!(
        page.contains("id=\"chart-co2-by-label\""),
        "the anchor is ASCII"
    );
}

#[test]
#[ignore = "full tier: headless Chromium over WebDriver"]
fn the_table_status_counts_the_csv_rows_with_separators() {
    if !webdriver::browser_present() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("label,value\n");
    for n in 0..2284 {
        csv.push_str(&format!("row-{n},{n}\n"));
    }
    common::write_small_site(
        dir.path(),
        common::SMALL_FRONT,
        common::SMALL_BODY,
        csv.as_bytes(),
    );
    common::build_root(dir.path());
    let driver = Driver::start();
    let session = driver.session(&[]);
    session.open(&dir.path().join("public/datasets/sample/index.html"));
    let status = "return document.getElementById('table-status').textContent";
    let wait_for = |want: &str| {
        let started = Instant::now();
        while session.execute(&format!("{status} === '{want}';"), vec![]) != json!(true) {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "status never read {want:?}: {}",
                session.execute(status, vec![])
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    wait_for("The first 1,000 of 2,284 rows");
    let input = session.find("#table-filter");
    session.type_into(&input, "row-1");
    // row-1, row-10..19, row-100..199 among the first 1,000 (the default `table_rows`).
    wait_for("111 of the first 1,000 of 2,284 rows");
}
