//! The typed Parquet copy beside each CSV (`data/datasets/<slug>.parquet`): written by
//! default beside a CSV of at least `parquet_min_bytes` (`parquet = "auto"`), beside every
//! one with `parquet = true`, framed by `PAR1`, listed with its size and SHA-256 on the page and in every
//! metadata file, and gone from all of them with `parquet = false` (site-wide or per
//! dataset; a value of the wrong type is a located error). **(full tier)** pyarrow reads
//! every Parquet of the bundled site, the fixtures and a site of every dialect feature
//! (tests/validators/parquet_check.py: rows, Arrow types and every value against the CSV
//! parsed independently); a 1,000,000-row build with Parquet stays flat in memory.

use crate::common;
use crate::harvest::build_into;
use crate::scaffold::{assert_ok, datapages, new_site};

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// Every reader feature at once: R's row names, `;`, missing values, formatted dates,
/// weeks, date-times with and without zones, decimal commas and group marks, non-finite
/// spellings, booleans, years.
const KINDS_FRONT: &str = r#"title = "Every kind"
kicker = "a test"
headline = "Every kind of column"
delimiter = ";"
missing_values = ["", "NA", "-"]
[[sources]]
id = "src"
title = "A source"
[[columns]]
name = ""
title = "Row"
type = "integer"
description = "R's row names."
[[columns]]
name = "when"
title = "When"
type = "date"
format = "%d/%m/%Y"
description = "A day, written day first."
[[columns]]
name = "week"
title = "Week"
type = "date"
format = "%G-W%V"
description = "An ISO week."
[[columns]]
name = "at"
title = "At"
type = "datetime"
description = "A moment with its zone."
[[columns]]
name = "local"
title = "Local"
type = "datetime"
format = "%Y-%m-%d %H:%M"
description = "A wall-clock time."
[[columns]]
name = "price"
title = "Price (EUR)"
type = "number"
decimal = ","
group = "."
unit = "EUR"
description = "A price in decimal commas."
[[columns]]
name = "ratio"
title = "Ratio"
type = "number"
non_finite = "r"
description = "R's infinities."
[[columns]]
name = "pandas"
title = "Pandas"
type = "number"
pandas_numbers = true
description = "pandas' infinities."
[[columns]]
name = "count"
title = "Count"
type = "integer"
group = "."
description = "A count with group points."
[[columns]]
name = "flag"
title = "Flag"
type = "boolean"
description = "Yes or no."
[[columns]]
name = "year"
title = "Year"
type = "date"
description = "A year."
[[columns]]
name = "day"
title = "Day"
type = "date"
description = "An ISO day."
[[columns]]
name = "name"
title = "Name"
type = "string"
description = "Some text."
"#;

const KINDS_CSV: &str = ";when;week;at;local;price;ratio;pandas;count;flag;year;day;name
1;03/04/2019;2019-W07;2019-04-03T10:00:00+02:00;2019-04-03 10:00;1.234,5;Inf;inf;1.234;TRUE;2019;2019-04-03;\"Smith; J.\"
2;NA;2020-W53;2019-04-03T10:00:00.25Z;NA;-0,5;-Inf;-inf;-;0;2020;NA;NA
3;31/12/1969;-;1969-12-31T23:59:59-05:00;1969-12-31 23:59;12;NaN;nan;12;false;-;1969-12-31;
4;;;;;;;;;;;;ünïcödé
";

/// A site with the bundled sample dataset and [`KINDS_FRONT`].
fn kinds_site(root: &Path, site_extra: &str) {
    common::write_small_site(
        root,
        common::SMALL_FRONT,
        common::SMALL_BODY,
        b"label,value\na,1\nb,\n",
    );
    let toml = root.join("site.toml");
    let site = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("{site_extra}{site}")).unwrap();
    std::fs::write(root.join("data/datasets/kinds.csv"), KINDS_CSV).unwrap();
    std::fs::write(
        root.join("content/datasets/kinds.md"),
        format!("+++\n{KINDS_FRONT}+++\n{}", common::SMALL_BODY),
    )
    .unwrap();
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Every place that lists a dataset's Parquet, as (place, listed): the page, the Data
/// Package, Croissant, the page's JSON-LD, the DCAT catalog and catalog.json.
fn listings(output: &Path, slug: &str) -> Vec<(&'static str, bool)> {
    let data = output.join("data/datasets");
    let page = std::fs::read_to_string(output.join(format!("datasets/{slug}/index.html"))).unwrap();
    let package = read_json(&data.join(format!("{slug}.json")));
    let croissant = read_json(&data.join(format!("{slug}.croissant.json")));
    let dcat = std::fs::read_to_string(output.join("data/catalog.ttl")).unwrap();
    let catalog = read_json(&output.join("data/catalog.json"));
    let entry = catalog["datasets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["slug"] == slug)
        .unwrap()
        .clone();
    let parquet = format!("{slug}.parquet");
    vec![
        ("page", page.contains("download-parquet")),
        ("JSON-LD", page.contains(&format!("\"{parquet}\""))),
        (
            "Data Package",
            package["resources"][0].get("datapages:parquet").is_some(),
        ),
        (
            "Croissant",
            croissant["distribution"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["@id"] == parquet.as_str()),
        ),
        ("DCAT", dcat.contains(&format!("/{parquet}>"))),
        (
            "catalog.json",
            entry
                .get("parquet")
                .and_then(Value::as_str)
                .is_some_and(|url| url.ends_with(&format!("/data/datasets/{parquet}"))),
        ),
    ]
}

#[test]
fn parquet_is_written_framed_and_listed_with_its_digest() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    kinds_site(&root, "parquet = true\n");
    let output = dir.path().join("out");
    datapages::build(&datapages::BuildOptions::new(&root).output(&output))
        .unwrap_or_else(|e| panic!("{e}"));
    for slug in ["sample", "kinds"] {
        let bytes = std::fs::read(output.join(format!("data/datasets/{slug}.parquet"))).unwrap();
        assert!(
            bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"),
            "{slug}"
        );
        for (place, listed) in listings(&output, slug) {
            assert!(listed, "{slug}: {place} lists the Parquet");
        }
        let page = common::html(&output.join(format!("datasets/{slug}/index.html")));
        assert_eq!(
            common::texts(&page, ".download .parquet-sha256"),
            [sha256_hex(&bytes)]
        );
        let package = read_json(&output.join(format!("data/datasets/{slug}.json")));
        let alternate = &package["resources"][0]["datapages:parquet"];
        assert_eq!(alternate["bytes"], bytes.len() as u64);
        assert_eq!(alternate["hash"], format!("sha256:{}", sha256_hex(&bytes)));
        assert_eq!(alternate["mediatype"], "application/vnd.apache.parquet");
    }
}

/// The default, `parquet = "auto"`: a copy beside each CSV of at least `parquet_min_bytes`
/// (100 kB unless set), none beside a smaller one; a dataset's own `"auto"` or `true`
/// overrides site.toml's.
#[test]
fn parquet_auto_writes_a_copy_beside_a_csv_of_parquet_min_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    kinds_site(&root, "");
    let output = dir.path().join("out");
    let build = || {
        datapages::build(&datapages::BuildOptions::new(&root).output(&output))
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let written = |slug: &str| {
        let path = output.join(format!("data/datasets/{slug}.parquet"));
        let listed = listings(&output, slug).iter().all(|(_, listed)| *listed);
        let none = listings(&output, slug).iter().all(|(_, listed)| !listed);
        assert!(listed || none, "{slug}: listed everywhere or nowhere");
        assert_eq!(path.exists(), listed, "{slug}");
        listed
    };
    build();
    // Both CSVs are far below 100 kB; `kinds` gets its copy all the same, as its `-`
    // missing marker is one that Croissant's reader (pandas) does not know.
    assert!(!written("sample") && written("kinds"));
    let page = std::fs::read_to_string(output.join("datasets/sample/index.html")).unwrap();
    assert!(
        page.contains("read_csv("),
        "DuckDB reads the CSV with its types"
    );
    // The threshold moved below the smaller file: both have a copy.
    let (small, large) = (18, KINDS_CSV.len() as u64);
    let toml = root.join("site.toml");
    let site = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("parquet_min_bytes = {small}\n{site}")).unwrap();
    build();
    assert!(
        written("sample") && written("kinds"),
        "{small} and {large} bytes"
    );
    // A dataset's own setting wins: `true` below the threshold, `"auto"` under a site-wide
    // `false`.
    let md = root.join("content/datasets/sample.md");
    let text = std::fs::read_to_string(&md).unwrap();
    std::fs::write(&md, text.replacen("+++\n", "+++\nparquet = true\n", 1)).unwrap();
    let kinds = root.join("content/datasets/kinds.md");
    let kinds_text = std::fs::read_to_string(&kinds).unwrap();
    std::fs::write(
        &kinds,
        kinds_text.replacen("+++\n", "+++\nparquet = \"auto\"\n", 1),
    )
    .unwrap();
    std::fs::write(
        &toml,
        format!("parquet = false\nparquet_min_bytes = {large}\n{site}"),
    )
    .unwrap();
    build();
    assert!(written("sample") && written("kinds"));
}

#[test]
fn parquet_false_writes_no_file_and_lists_none() {
    // Site-wide.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    kinds_site(&root, "parquet = false\n");
    let output = dir.path().join("out");
    datapages::build(&datapages::BuildOptions::new(&root).output(&output))
        .unwrap_or_else(|e| panic!("{e}"));
    for slug in ["sample", "kinds"] {
        assert!(!output
            .join(format!("data/datasets/{slug}.parquet"))
            .exists());
        for (place, listed) in listings(&output, slug) {
            assert!(!listed, "{slug}: {place} lists no Parquet");
        }
    }
    // One dataset: the other keeps its copy.
    let md = root.join("content/datasets/kinds.md");
    let text = std::fs::read_to_string(&md).unwrap();
    std::fs::write(&md, text.replacen("+++\n", "+++\nparquet = false\n", 1)).unwrap();
    let toml = root.join("site.toml");
    let site = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, site.replace("parquet = false\n", "parquet = true\n")).unwrap();
    datapages::build(&datapages::BuildOptions::new(&root).output(&output))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(output.join("data/datasets/sample.parquet").exists());
    assert!(!output.join("data/datasets/kinds.parquet").exists());
    assert!(listings(&output, "sample")
        .iter()
        .all(|(_, listed)| *listed));
    assert!(listings(&output, "kinds").iter().all(|(_, listed)| !listed));
}

#[test]
fn row_pages_link_the_parquet_and_prose_links_need_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    kinds_site(&root, "table_rows = 1\nrow_pages = true\nparquet = true\n");
    let output = dir.path().join("out");
    datapages::build(&datapages::BuildOptions::new(&root).output(&output))
        .unwrap_or_else(|e| panic!("{e}"));
    let row_page = common::html(&output.join("datasets/kinds/rows/2/index.html"));
    let links = common::attributes(&row_page, ".row-page-back a[download]", "href");
    assert_eq!(
        links,
        [
            "../../../../data/datasets/kinds.csv",
            "../../../../data/datasets/kinds.parquet"
        ]
    );
    // With `parquet = false` the row page offers the CSV alone, and prose linking the
    // copy that is no longer written is a located error naming the key.
    let md = root.join("content/datasets/sample.md");
    let text = std::fs::read_to_string(&md).unwrap();
    std::fs::write(
        &md,
        format!("{text}\nSee [the copy](../../data/datasets/kinds.parquet).\n"),
    )
    .unwrap();
    let kinds = root.join("content/datasets/kinds.md");
    let text = std::fs::read_to_string(&kinds).unwrap();
    std::fs::write(&kinds, text.replacen("+++\n", "+++\nparquet = false\n", 1)).unwrap();
    let problems = datapages::build(&datapages::BuildOptions::new(&root).output(&output))
        .expect_err("a link to a Parquet copy that is not written")
        .to_string();
    assert!(
        problems.contains("content/datasets/sample.md:")
            && problems.contains("kinds.parquet")
            && problems.contains("`kinds` turns this file off (`parquet = false`"),
        "{problems}"
    );
    std::fs::write(&md, text_without_link(&md)).unwrap();
    datapages::build(&datapages::BuildOptions::new(&root).output(&output))
        .unwrap_or_else(|e| panic!("{e}"));
    let row_page = common::html(&output.join("datasets/kinds/rows/2/index.html"));
    assert_eq!(
        common::attributes(&row_page, ".row-page-back a[download]", "href"),
        ["../../../../data/datasets/kinds.csv"]
    );
}

fn text_without_link(md: &Path) -> String {
    std::fs::read_to_string(md)
        .unwrap()
        .replace("\nSee [the copy](../../data/datasets/kinds.parquet).\n", "")
}

#[test]
fn parquet_of_the_wrong_type_is_a_located_error() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    kinds_site(&root, "");
    let md = root.join("content/datasets/kinds.md");
    let text = std::fs::read_to_string(&md).unwrap();
    std::fs::write(&md, text.replacen("+++\n", "+++\nparquet = \"no\"\n", 1)).unwrap();
    let problems = common::check_all(&root).render(false);
    assert!(
        problems.contains("content/datasets/kinds.md:2:") && problems.contains("parquet"),
        "{problems}"
    );
    std::fs::write(&md, text).unwrap();
    let toml = root.join("site.toml");
    let site = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("parquet = 0\n{site}")).unwrap();
    let problems = common::check_all(&root).render(false);
    assert!(
        problems.contains("site.toml:1:") && problems.contains("parquet"),
        "{problems}"
    );
}

/// The validators' venv `bin/` with pyarrow, or None (skip).
fn pyarrow() -> Option<PathBuf> {
    let packages = common::venv_site_packages(&["pyarrow"], "pyarrow (validators venv)")?;
    // <venv>/lib/pythonX.Y/site-packages -> <venv>/bin
    Some(packages.parent()?.parent()?.parent()?.join("bin"))
}

/// Runs parquet_check.py on a built site; fails with its failures; returns the report.
fn pyarrow_reads(bin: &Path, root: &Path, output: &Path) -> Value {
    let script = common::bundled_site().join("tests/validators/parquet_check.py");
    let out = Command::new(bin.join("python"))
        .arg(script)
        .arg(root)
        .arg(output)
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "parquet_check.py prints JSON ({e}): {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert_eq!(
        report["failures"],
        serde_json::json!([]),
        "{}",
        root.display()
    );
    report
}

#[test]
#[ignore = "full tier: pyarrow from the validators venv reads every Parquet"]
fn pyarrow_reads_every_parquet_as_the_csv_declares_it() {
    let Some(bin) = pyarrow() else { return };
    let scratch = tempfile::tempdir().unwrap();
    // The bundled site and the metadata and chart fixtures.
    let fixtures = common::bundled_site().join("tests/fixtures");
    let sites = [
        common::bundled_site(),
        fixtures.join("metadata"),
        fixtures.join("charts"),
    ];
    let mut files = 0;
    for (n, site) in sites.iter().enumerate() {
        // Copied with `parquet = true`: their tables are below `parquet_min_bytes`.
        let root = scratch.path().join(format!("site-{n}"));
        match n {
            0 => common::copy_bundled_site(&root),
            _ => common::copy_tree(site, &root),
        }
        let toml = std::fs::read_to_string(root.join("site.toml")).unwrap();
        std::fs::write(root.join("site.toml"), format!("parquet = true\n{toml}")).unwrap();
        let root = &root;
        let output = scratch.path().join(format!("out-{n}"));
        build_into(root, &output);
        let report = pyarrow_reads(&bin, root, &output);
        assert!(report["files"].as_u64().unwrap() > 0, "{}", root.display());
        files += report["files"].as_u64().unwrap();
    }
    // Every dialect feature at once.
    let kinds = scratch.path().join("kinds");
    kinds_site(&kinds, "parquet = true\n");
    build_into(&kinds, &kinds.join("public"));
    let report = pyarrow_reads(&bin, &kinds, &kinds.join("public"));
    assert_eq!(report["files"], 2);
    assert_eq!(report["cells"], 2 * 2 + 13 * 4);
    // Files as R and spreadsheets write them (tests/fixtures/numbers/: `NA`, `Inf`,
    // decimal commas and group points on `;`), declared by `new --from`.
    let (_dir, site) = new_site();
    for (slug, file) in [("prices", "european.csv"), ("measures", "r-written.csv")] {
        let from = common::bundled_site()
            .join("tests/fixtures/numbers")
            .join(file);
        let made = datapages(&site, &["new", slug, "--from", from.to_str().unwrap()]);
        assert_ok(&made, "new --from");
    }
    let toml = std::fs::read_to_string(site.join("site.toml")).unwrap();
    std::fs::write(site.join("site.toml"), format!("parquet = true\n{toml}")).unwrap();
    assert_ok(&datapages(&site, &["build"]), "build");
    let report = pyarrow_reads(&bin, &site, &site.join("public"));
    assert!(report["files"].as_u64().unwrap() >= 2, "{report}");
    println!(
        "pyarrow read {} Parquet files",
        files + 2 + report["files"].as_u64().unwrap()
    );
}

#[test]
#[ignore = "full tier: builds of 10,000 and 1,000,000 rows with and without Parquet, measured by GNU time"]
fn a_million_rows_parquet_is_written_in_flat_memory() {
    let small = tempfile::tempdir().unwrap();
    let large = tempfile::tempdir().unwrap();
    // Both past several row groups: the copy keeps two of them in flight, whatever the
    // row count, where a file of one group (10,000 rows) has none to overlap. Against
    // such a file the bound measured that overlap (20 -> 40 MiB), not growth with rows.
    crate::large::write_site(small.path(), 200_000, "1000");
    crate::large::write_site(large.path(), 1_000_000, "1000");
    if !common::measure::can_measure() {
        return;
    }
    // The bound the row tests use: the large build's peak within twice the small one's.
    common::measure::build_flat_in_rows(small.path(), large.path());
    let parquet = large.path().join("public/data/datasets/synthetic.parquet");
    let bytes = std::fs::metadata(&parquet).unwrap().len();
    let build = |root: &Path| {
        let root_arg = root.to_str().unwrap();
        let run = common::measure::run_measured(root, &["build", "--no-cache", "--root", root_arg]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        run
    };
    let with = build(large.path());
    let toml = large.path().join("site.toml");
    let site = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("parquet = false\n{site}")).unwrap();
    let without = build(large.path());
    assert!(!parquet.exists());
    println!(
        "1,000,000 rows: with Parquet ({bytes} bytes) {} KiB peak, {} ms CPU; without {} KiB, {} ms",
        with.peak_rss_kib, with.cpu_ms, without.peak_rss_kib, without.cpu_ms
    );
}

#[test]
fn serve_rewrites_the_parquet_only_when_the_csv_or_the_columns_change() {
    use datapages::{Change, Session};
    let site = tempfile::tempdir().unwrap();
    common::copy_bundled_site(site.path());
    std::fs::write(site.path().join("site.toml"), {
        let toml = std::fs::read_to_string(site.path().join("site.toml")).unwrap();
        format!("parquet = true\n{toml}")
    })
    .unwrap();
    let options = datapages::BuildOptions::new(site.path());
    let mut session = match Session::start(&options, |staging| staging.commit()) {
        Ok((session, _)) => session,
        Err(d) => panic!("{}", d.render(false)),
    };
    let slug = "vsan-consumer-kit-iometer";
    let parquet = site
        .path()
        .join(format!("public/data/datasets/{slug}.parquet"));
    let markdown = site.path().join(format!("content/datasets/{slug}.md"));
    let modified = || std::fs::metadata(&parquet).unwrap().modified().unwrap();
    let mut edit = |from: &str, to: &str| {
        std::thread::sleep(std::time::Duration::from_millis(20));
        let text = std::fs::read_to_string(&markdown).unwrap();
        assert!(text.contains(from), "{from}");
        std::fs::write(&markdown, text.replacen(from, to, 1)).unwrap();
        session
            .rebuild([Change::Dataset(slug.into())], |s| s.commit())
            .unwrap_or_else(|d| panic!("{}", d.render(false)));
    };
    let first = modified();
    edit("\n## Method", "\nAn added intro paragraph.\n\n## Method");
    assert_eq!(modified(), first, "prose alone keeps the copy");
    edit("One row per profile.", "One row per test profile.");
    assert_ne!(modified(), first, "a column's words are in the copy");
    let bytes = std::fs::read(&parquet).unwrap();
    let needle = b"One row per test profile.";
    assert!(bytes.windows(needle.len()).any(|w| w == needle));
    edit("+++\n", "+++\nparquet = false\n");
    assert!(!parquet.exists(), "turned off, the copy is removed");
}
