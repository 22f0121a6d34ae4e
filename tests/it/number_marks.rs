//! Numbers as real files write them: decimal commas and group points on a `;` file
//! (tests/fixtures/numbers/), found by `new --from`, checked, shown in the site's style, and
//! published byte for byte. **(full tier)** frictionless, csvw and mlcroissant accept the
//! exported descriptors against the untouched file.

use crate::common;
use crate::scaffold::{assert_ok, datapages, new_site};

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    common::bundled_site()
        .join("tests/fixtures/numbers")
        .join(name)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `new --from` on `file` as `slug` in a fresh site, then `build`: the site's root and what
/// `new` printed.
fn made_and_built(slug: &str, file: &Path) -> (tempfile::TempDir, PathBuf, String) {
    let (dir, site) = new_site();
    let made = datapages(&site, &["new", slug, "--from", file.to_str().unwrap()]);
    assert_ok(&made, "new --from");
    let said = format!("{}{}", text(&made.stdout), text(&made.stderr));
    assert_ok(&datapages(&site, &["build"]), "build");
    (dir, site, said)
}

#[test]
fn decimal_commas_are_found_declared_shown_plainly_and_published_untouched() {
    let source = fixture("european.csv");
    let (_dir, site, said) = made_and_built("prices", &source);
    assert!(
        said.contains("numbers written 1.234,5: decimal comma and group points assumed"),
        "{said}"
    );
    assert!(
        said.contains("whole numbers written 1.234: group points assumed"),
        "{said}"
    );
    let page = std::fs::read_to_string(site.join("content/datasets/prices.md")).unwrap();
    assert!(page.contains("decimal = \",\""), "{page}");
    assert!(page.contains("group = \".\""), "{page}");
    assert!(page.contains("type = \"integer\""), "{page}");
    let html = common::html(&site.join("public/datasets/prices/index.html"));
    let cells = common::table_cells(&html, true);
    for shown in ["1,234,567", "987,654", "12.5", "-0.25", "1,500.75", "0.75"] {
        assert!(cells.iter().any(|c| c == shown), "{shown} in {cells:?}");
    }
    assert_eq!(
        std::fs::read(site.join("public/data/datasets/prices.csv")).unwrap(),
        std::fs::read(&source).unwrap(),
        "the download is the file as it came"
    );
    let package: serde_json::Value = serde_json::from_slice(
        &std::fs::read(site.join("public/data/datasets/prices.json")).unwrap(),
    )
    .unwrap();
    let fields = &package["resources"][0]["schema"]["fields"];
    assert_eq!(fields[2]["decimalChar"], ",", "{fields:#}");
    assert_eq!(fields[2]["groupChar"], ".", "{fields:#}");
    assert_eq!(fields[1]["groupChar"], ".", "{fields:#}");
}

/// The validators' venv `bin/`, or None (skip) when it is missing outside CI.
fn validators() -> Option<PathBuf> {
    let bin = common::bundled_site().join("target/validators-venv/bin");
    let present = bin.join("frictionless").is_file() && bin.join("csvwvalidate").is_file();
    common::tool_present("the validators' venv (frictionless, csvwvalidate)", present)
        .then_some(bin)
}

/// Runs tests/validators/corpus_check.py (frictionless, csvw, mlcroissant with every record
/// loaded) on a built site: the failures, by dataset.
pub(crate) fn standards_failures(bin: &Path, public: &Path) -> serde_json::Value {
    let report = Command::new(bin.join("python3"))
        .arg(common::bundled_site().join("tests/validators/corpus_check.py"))
        .arg(public)
        .output()
        .expect("python runs");
    let report: serde_json::Value = serde_json::from_slice(&report.stdout).unwrap_or_else(|e| {
        panic!(
            "corpus_check.py prints JSON ({e}): {}",
            text(&report.stderr)
        )
    });
    report["failures"].clone()
}

/// frictionless's and csvw's verdict on the `;` file's descriptors, and the numbers
/// frictionless reads from the untouched file. (mlcroissant 1.1.1 reads `text/csv` with
/// commas only, whatever the file's delimiter: no `;` file loads there, marks or not.)
#[test]
#[ignore = "full tier: frictionless, csvwvalidate and mlcroissant (Python venv)"]
fn decimal_commas_validate_with_frictionless_and_csvw() {
    let Some(bin) = validators() else { return };
    let (_dir, site, _) = made_and_built("prices", &fixture("european.csv"));
    let datasets = site.join("public/data/datasets");
    let csvw = Command::new(bin.join("csvwvalidate"))
        .arg(datasets.join("prices.csv-metadata.json"))
        .output()
        .unwrap();
    assert!(
        csvw.status.success() && text(&csvw.stdout).contains("OK"),
        "{}{}",
        text(&csvw.stdout),
        text(&csvw.stderr)
    );
    // frictionless validates the package and reads the numbers the page shows.
    let rows = Command::new(bin.join("python3"))
        .arg("-c")
        .arg(
            "import sys, frictionless\n\
             report = frictionless.validate(sys.argv[1])\n\
             print(report.valid, report.flatten(['type', 'note'])[:5])\n\
             package = frictionless.Package(sys.argv[1])\n\
             rows = package.resources[0].read_rows()\n\
             print([(float(r['Population']), float(r['Share'])) for r in rows])",
        )
        .arg(datasets.join("prices.json"))
        .output()
        .unwrap();
    assert_eq!(
        text(&rows.stdout).trim(),
        "True []\n[(1234567.0, 12.5), (987654.0, -0.25), (12345.0, 1500.75), (1.0, 0.75)]",
        "{}",
        text(&rows.stderr)
    );
}

/// A comma-separated file with quoted decimal commas: every standard's validator accepts
/// the descriptors, mlcroissant included (the column is text there: Croissant cannot
/// declare the marks), with every record loaded.
#[test]
#[ignore = "full tier: frictionless, csvwvalidate and mlcroissant (Python venv)"]
fn quoted_decimal_commas_validate_with_frictionless_csvw_and_mlcroissant() {
    let Some(bin) = validators() else { return };
    let dir = tempfile::tempdir().unwrap();
    // A version and a date: mlcroissant warns without them.
    let front = common::SMALL_FRONT
        .replace(
            "type = \"integer\"",
            "type = \"number\"\ndecimal = \",\"\ngroup = \".\"",
        )
        .replace(
            "tags = [\"Test tag\"]\n",
            "tags = [\"Test tag\"]\nversion = \"1.0.0\"\ncreated = 2025-01-02\n",
        );
    let csv = b"label,value\na,\"1.234,5\"\nb,\"-0,5\"\nc,7\n";
    common::write_small_site(dir.path(), &front, common::SMALL_BODY, csv);
    common::build_root(dir.path());
    let public = dir.path().join("public");
    let cells = common::table_cells(
        &common::html(&public.join("datasets/sample/index.html")),
        true,
    );
    assert_eq!(cells, ["1,234.5", "-0.5", "7"]);
    let failures = standards_failures(&bin, &public);
    assert_eq!(failures, serde_json::json!({}), "{failures:#}");
}

/// What R's `write.csv` writes: row names under an empty first header (`name = ""`),
/// `Inf`, `-Inf`, `NaN` in a number column (`non_finite = "r"`), `NA` in number, text and
/// boolean columns (`missing_values`), `TRUE`/`FALSE`.
#[test]
fn r_numbers_and_na_are_declared_and_shown() {
    let (_dir, site, said) = made_and_built("r-written", &fixture("r-written.csv"));
    assert!(
        said.contains("share -> number (required, R's Inf/-Inf/NaN)"),
        "{said}"
    );
    assert!(said.contains("name -> string (missing: `NA`)"), "{said}");
    let page = std::fs::read_to_string(site.join("content/datasets/r-written.md")).unwrap();
    assert!(page.contains("non_finite = \"r\""), "{page}");
    assert!(page.contains("type = \"boolean\""), "{page}");
    assert!(said.contains("R's row names"), "{said}");
    assert!(page.contains("name = \"\"\ntitle = \"Row name\""), "{page}");
    assert_eq!(
        std::fs::read(site.join("public/data/datasets/r-written.csv")).unwrap(),
        std::fs::read(fixture("r-written.csv")).unwrap(),
        "the download is the file as it came, empty header included"
    );
    let html = common::html(&site.join("public/datasets/r-written/index.html"));
    let cells = common::table_cells(&html, true);
    for shown in ["Inf", "-Inf", "NaN", "2.25", "0.5"] {
        assert!(cells.iter().any(|c| c == shown), "{shown} in {cells:?}");
    }
    let package: serde_json::Value = serde_json::from_slice(
        &std::fs::read(site.join("public/data/datasets/r-written.json")).unwrap(),
    )
    .unwrap();
    let fields = &package["resources"][0]["schema"]["fields"];
    assert_eq!(
        fields[3]["datapages:nonFinite"]["-Inf"], "-INF",
        "{fields:#}"
    );
    assert_eq!(fields[1]["missingValues"], serde_json::json!(["", "NA"]));
    // The empty header is read by position: a named field, the header row skipped.
    assert_eq!(fields[0]["name"], "rownames");
    let dialect = &package["resources"][0]["dialect"];
    assert_eq!(
        *dialect,
        serde_json::json!({"commentRows": [1], "header": false})
    );
}

/// The R file's descriptors pass frictionless, csvw and mlcroissant (every record loaded,
/// `NA` read as empty in every column) against the untouched file, empty header included.
#[test]
#[ignore = "full tier: frictionless, csvwvalidate and mlcroissant (Python venv)"]
fn r_numbers_validate_with_frictionless_csvw_and_mlcroissant() {
    let Some(bin) = validators() else { return };
    let (_dir, site, _) = made_and_built("r-written", &fixture("r-written.csv"));
    let failures = standards_failures(&bin, &site.join("public"));
    assert_eq!(failures, serde_json::json!({}), "{failures:#}");
}

/// An unquoted decimal comma in a `,`-separated file splits the number in two: `new --from`
/// and `check` both say so at the row, name the number and the two ways out.
#[test]
fn an_unquoted_decimal_comma_is_named_in_the_ragged_row_hint() {
    let (dir, site) = new_site();
    let source = dir.path().join("prices.csv");
    let new_from = |csv: &str| {
        std::fs::write(&source, csv).unwrap();
        datapages(
            &site,
            &["new", "prices", "--from", source.to_str().unwrap()],
        )
    };
    let says_decimal_comma = |said: &str| {
        for part in [
            "row has 3 fields, the header has 2",
            "decimal comma (`1,5`, fields 2 and 3)",
            "Quote them (`\"1,5\"`)",
            "`delimiter = \";\"` and `decimal = \",\"`",
        ] {
            assert!(said.contains(part), "{part} in {said}");
        }
    };
    let made = new_from("item,price\napple,2\npear,1,5\n");
    assert!(!made.status.success(), "a ragged row is an error");
    says_decimal_comma(&text(&made.stderr));

    // The same row reaching `check` through a page made from a good file.
    assert_ok(&new_from("item,price\napple,2\npear,1.5\n"), "new --from");
    let csv = site.join("data/datasets/prices.csv");
    std::fs::write(&csv, "item,price\napple,2\npear,1,5\nplum,3\n").unwrap();
    let checked = datapages(&site, &["check"]);
    assert!(!checked.status.success());
    says_decimal_comma(&text(&checked.stderr));
}

const MARKED_FRONT: &str = r#"title = "Marked numbers"
kicker = "a test"
headline = "Numbers in decimal commas"
tags = ["Test tag"]
updated = 2026-11-29
version = "1.0.0"
delimiter = ";"
decimal = ","
group = "."
[[sources]]
id = "src"
title = "A source"
[[columns]]
name = "name"
title = "Name"
type = "string"
description = "A name."
[[columns]]
name = "year"
title = "Year"
type = "integer"
description = "The year."
[[columns]]
name = "amount"
title = "Amount (units)"
type = "number"
description = "An amount."
[[columns]]
name = "share"
title = "Share"
type = "number"
digits = 1
description = "A share."
[[charts]]
kind = "line"
title = "Amount by year"
x = "year"
y = "amount"
[[charts]]
kind = "dot"
title = "Amount by share"
x = "share"
y = "amount"
"#;

#[test]
fn figures_charts_and_years_read_numbers_as_the_table_shows_them() {
    let csv = "name;year;amount;share\na;2001;1.234,5;0,26\nb;1999;2,25;0,51\nc;2010;10;0,74\n";
    let body = format!(
        "\nA has {{{{ cell(name=\"a\", col=\"amount\") }}}}, in all {{{{ sum(col=\"amount\") }}}}, \
         on average {{{{ mean(col=\"amount\") }}}}, at most {{{{ max(col=\"amount\") }}}}; \
         a share of {{{{ cell(name=\"a\", col=\"share\") }}}} (highest {{{{ max(col=\"share\") }}}}); \
         the last year is {{{{ max(col=\"year\") }}}} (mean {{{{ mean(col=\"year\") }}}}), a's is {{{{ cell(name=\"a\", col=\"year\") }}}}.\n{}",
        common::SMALL_BODY
    );
    let (_dir, output) = common::build_cases_with(&[("marked", MARKED_FRONT, csv, body.as_str())]);
    let html = std::fs::read_to_string(output.join("datasets/marked/index.html")).unwrap();
    assert_eq!(
        common::figure_texts(&html),
        ["1,234.5", "1,246.75", "415.58", "1,234.5", "0.3", "0.7", "2010", "2003.33", "2001"],
        "{html}"
    );
    // Years: no group mark in the table, the profile, or the chart's ticks.
    let document = scraper::Html::parse_document(&html);
    let cells = common::table_cells(&document, true);
    assert!(cells.iter().any(|c| c == "2001"), "{cells:?}");
    assert!(!cells.iter().any(|c| c == "2,001"), "{cells:?}");
    assert!(html.contains("from 1999 to 2010"), "{html}");
    assert!(html.contains("mean 2003"), "{html}");
    let svg = |name: &str| {
        std::fs::read_to_string(output.join(format!("data/datasets/marked-{name}.svg"))).unwrap()
    };
    let by_year = svg("amount-by-year");
    assert!(by_year.contains(">2005</text>"), "{by_year}");
    assert!(!by_year.contains(">2,0"), "{by_year}");
    // The x column's `digits`: ticks and each point's text at one decimal.
    let by_share = svg("amount-by-share");
    assert!(by_share.contains("0.3: 1,234.5"), "{by_share}");
    assert!(!by_share.contains("0.26"), "{by_share}");
    assert!(by_share.contains(">0.5</text>"), "{by_share}");
}
