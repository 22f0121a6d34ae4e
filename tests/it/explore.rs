//! The explorer of every row, as built (fast tier): a dataset page carries the "Explore"
//! block (hidden until its script runs) with the metadata the worker reads the CSV by —
//! the CSV's URL, dialect, and per column its type, missing values, number marks, date
//! format and digits — and `explore = false` in front matter or site.toml leaves it out.
//! The browser tests are in `explore_browser.rs`.

use crate::common;

use std::path::Path;

const CSV: &[u8] = b"label;value;day\nalpha;1.234,5;03/04/2020\nbeta;NA;\n";

const DIALECT: &str =
    "delimiter = \";\"\ndecimal = \",\"\ngroup = \".\"\nmissing_values = [\"\", \"NA\"]\n";

const COLUMNS: &str = r#"[[columns]]
name = "day"
title = "Day"
type = "date"
format = "%d/%m/%Y"
description = "A day."
"#;

fn front(extra: &str) -> String {
    // SMALL_FRONT's `value` column is an integer; these cells are decimals.
    let base = common::SMALL_FRONT.replace("type = \"integer\"", "type = \"number\"\ndigits = 1");
    format!("{extra}{DIALECT}{base}{COLUMNS}")
}

fn build(front_extra: &str, site_extra: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    common::write_small_site(dir.path(), &front(front_extra), common::SMALL_BODY, CSV);
    if !site_extra.is_empty() {
        let site = dir.path().join("site.toml");
        let text = std::fs::read_to_string(&site).unwrap();
        std::fs::write(&site, format!("{site_extra}{text}")).unwrap();
    }
    common::build_root(dir.path());
    let page =
        std::fs::read_to_string(dir.path().join("public/datasets/sample/index.html")).unwrap();
    (dir, page)
}

fn meta(page: &str) -> serde_json::Value {
    let document = scraper::Html::parse_document(page);
    let selector = scraper::Selector::parse("#explore script.explore-meta").unwrap();
    let script = document
        .select(&selector)
        .next()
        .expect("the explorer's metadata");
    serde_json::from_str(&script.text().collect::<String>()).expect("JSON")
}

#[test]
fn the_page_carries_the_explorer_and_the_csv_dialect() {
    let (dir, page) = build("", "");
    assert!(page.contains("<script src=\"../../explore.js\" defer></script>"));
    assert!(page.contains("<div class=\"explorer\" id=\"explore\" hidden data-root=\"../../\">"));
    let meta = meta(&page);
    assert_eq!(meta["csv"], "data/datasets/sample.csv");
    assert_eq!(meta["rows"], 2);
    assert_eq!(meta["delimiter"], ";");
    assert_eq!(meta.get("quote"), None, "the usual quote is left out");
    assert_eq!(meta["row_pages"], serde_json::Value::Null);
    let columns = meta["columns"].as_array().unwrap();
    let names: Vec<&str> = columns
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["label", "value", "day"]);
    assert_eq!(columns[1]["type"], "number");
    assert_eq!(columns[1]["decimal"], ",");
    assert_eq!(columns[1]["group"], ".");
    assert_eq!(columns[1]["digits"], 1);
    assert_eq!(columns[1]["missing"], serde_json::json!(["NA"]));
    assert_eq!(columns[2]["format"], "%d/%m/%Y");
    assert_eq!(columns[2]["index"], 2);
    // A setting at its usual value is left out (static/explore.js puts it back): the
    // day column has no number marks, `digits`, year or source flags.
    let day: Vec<&str> = columns[2]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(day, ["format", "index", "missing", "name", "title", "type"]);
    // The worker and the page script are in the output, next to table.js.
    for file in [
        "explore.js",
        "explore-worker.js",
        "explore-cells.js",
        "explore-search.js",
        "table.js",
    ] {
        assert!(dir.path().join("public").join(file).is_file(), "{file}");
    }
    // The metadata cannot close its script element.
    assert!(!meta.to_string().is_empty());
    let script_start = page.find("class=\"explore-meta\">").unwrap();
    let script_end = page[script_start..].find("</script>").unwrap();
    assert!(!page[script_start..script_start + script_end].contains('<'));
}

#[test]
fn explore_false_in_front_matter_or_site_toml_leaves_it_out() {
    for (front_extra, site_extra) in [("explore = false\n", ""), ("", "explore = false\n")] {
        let (_dir, page) = build(front_extra, site_extra);
        assert!(!page.contains("explore"), "{front_extra}{site_extra}");
    }
    // The dataset's own setting wins over the site's.
    let (_dir, page) = build("explore = true\n", "explore = false\n");
    assert!(page.contains("id=\"explore\""));
}

#[test]
fn a_csv_over_the_limit_is_offered_as_a_download() {
    let (_dir, page) = build("", "_explore_max_bytes = 40\n");
    assert!(
        page.contains("data-too-large=\"40 B\""),
        "{}",
        &page[page.find("id=\"explore\"").unwrap_or(0)..][..200]
    );
    let (_dir, page) = build("", "");
    assert!(!page.contains("data-too-large"));
}

#[test]
fn a_non_boolean_explore_is_a_located_error() {
    let dir = tempfile::tempdir().unwrap();
    common::write_small_site(
        dir.path(),
        &front("explore = \"yes\"\n"),
        common::SMALL_BODY,
        CSV,
    );
    let problems = common::check_all(dir.path());
    let text = problems.render(false);
    assert!(text.contains("explore"), "{text}");
    assert!(text.contains("sample.md:2"), "{text}");
    check_site_key(dir.path());
}

/// `explore` in site.toml takes a boolean too, and says where it is wrong.
fn check_site_key(root: &Path) {
    let site = root.join("site.toml");
    let text = std::fs::read_to_string(&site).unwrap();
    std::fs::write(&site, format!("explore = 1\n{text}")).unwrap();
    let result = common::run(&["check", "--root", root.to_str().unwrap()]);
    assert!(!result.status.success());
    let printed = String::from_utf8_lossy(&result.stderr);
    assert!(printed.contains("site.toml:1"), "{printed}");
}

/// `node --test` on `file` (under tests/browser/), which must pass `passes` tests; skipped
/// without Node unless CI=true.
fn node_tests(file: &str, passes: usize) {
    let node = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !common::tool_present("node", node) {
        return;
    }
    let out = std::process::Command::new("node")
        .arg("--test")
        .arg(common::bundled_site().join("tests/browser").join(file))
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        report.contains(&format!("# pass {passes}")) && report.contains("# fail 0"),
        "{report}"
    );
}

/// The explorer's worker in Node (tests/browser/explore-worker.test.js, `node --test`):
/// every `Object.prototype` name as a column, a facet and a link key; a giant cell's
/// work in proportion to its size (counted, not timed) and its text cut for the page;
/// rows split across chunks at every place; search by cells as written and as shown.
#[test]
fn the_worker_passes_its_node_tests() {
    node_tests("explore-worker.test.js", 8);
}

/// The conformance corpus of cells (tests/cells/conformance.json) read by the explorer's
/// worker as the build reads it (src/render/cells_conformance_tests.rs reads it the
/// build's way): dates and their formats, number marks, missing values, rounding for
/// display, dialects.
#[test]
fn the_worker_reads_the_cells_of_the_corpus_as_the_build_does() {
    node_tests("cells-conformance.test.js", 2);
}
