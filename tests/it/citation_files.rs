//! "Cite this dataset": the BibTeX, CFF and RIS files beside each CSV parse with real
//! parsers (bibtexparser, the CFF 1.2.0 JSON schema, rispy and a strict line check, run by
//! tests/validators/citation_check.py in the validators' venv) and say what the page says;
//! the page shows the same texts; the SHA-256 next to the download is the file's; the change
//! history is on the page and in the Data Package. Hostile titles stay one parseable value.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The venv's python with the citation parsers, or None (skip) outside CI.
fn python() -> Option<PathBuf> {
    let venv = std::env::var_os("DATAPAGES_VALIDATORS")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::bundled_site().join("target/validators-venv"));
    let python = venv.join("bin/python3");
    let present = python.is_file()
        && Command::new(&python)
            .args(["-c", "import bibtexparser, rispy, yaml, jsonschema"])
            .output()
            .is_ok_and(|o| o.status.success());
    common::tool_present("bibtexparser/rispy in the validators' venv", present).then_some(python)
}

fn check(python: &Path, output: &Path, slug: &str) -> Value {
    let base = output.join("data/datasets").join(slug);
    let script = common::bundled_site().join("tests/validators/citation_check.py");
    let result = Command::new(python)
        .arg(script)
        .arg(base.with_extension("bib"))
        .arg(base.with_extension("cff"))
        .arg(base.with_extension("ris"))
        .output()
        .expect("python runs");
    assert!(
        result.status.success(),
        "citation_check.py failed: {}",
        String::from_utf8_lossy(&result.stderr)
    );
    serde_json::from_slice(&result.stdout).expect("JSON")
}

/// Asserts the three parsed files are valid and name `title`, `version` and `url`.
fn assert_valid(report: &Value, title: &str, version: Option<&str>, url: &str) {
    let bib = &report["bib"];
    assert_eq!(bib["entries"], 1, "{bib:#}");
    assert_eq!(bib["failed"], serde_json::json!([]), "{bib:#}");
    assert_eq!(bib["type"], "misc");
    assert_eq!(bib["fields"]["url"], url, "{bib:#}");
    let cff = &report["cff"];
    assert_eq!(cff["errors"], serde_json::json!([]), "CFF schema: {cff:#}");
    assert_eq!(cff["data"]["title"], title);
    assert_eq!(cff["data"]["url"], url);
    assert_eq!(cff["data"]["type"], "dataset");
    let ris = &report["ris"];
    assert_eq!(ris["strict_errors"], serde_json::json!([]), "{ris:#}");
    let entries = ris["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 1, "{ris:#}");
    assert_eq!(entries[0]["type_of_reference"], "DATA");
    assert_eq!(entries[0]["title"], title);
    assert_eq!(entries[0]["urls"], serde_json::json!([url]), "{ris:#}");
    if let Some(version) = version {
        assert_eq!(cff["data"]["version"], version);
        assert_eq!(bib["fields"]["version"], version);
        assert_eq!(entries[0]["edition"], version);
    }
}

#[test]
fn bundled_citations_parse_and_match_the_page() {
    let Some(python) = python() else { return };
    let (_guard, output) = common::build_bundled();
    let mut checked = 0;
    for entry in std::fs::read_dir(output.join("datasets")).expect("datasets") {
        let page_path = entry.expect("entry").path().join("index.html");
        if !page_path.is_file() {
            continue;
        }
        let slug = page_path
            .parent()
            .and_then(|p| p.file_name())
            .and_then(|n| n.to_str())
            .expect("slug")
            .to_string();
        let package: Value = serde_json::from_slice(
            &std::fs::read(output.join(format!("data/datasets/{slug}.json"))).expect("json"),
        )
        .expect("package");
        let title = package["title"].as_str().expect("title");
        let url = package["homepage"].as_str().expect("homepage");
        let report = check(&python, &output, &slug);
        assert_valid(&report, title, package["version"].as_str(), url);

        let page = common::html(&page_path);
        // The page shows each file's exact text, and links the file.
        let shown = common::texts(&page, ".cite-format pre");
        assert_eq!(shown.len(), 3, "{slug}");
        for (extension, text) in ["bib", "cff", "ris"].iter().zip(&shown) {
            let file =
                std::fs::read_to_string(output.join(format!("data/datasets/{slug}.{extension}")))
                    .expect("citation file");
            let normalised = file.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(&normalised, text, "{slug}.{extension}");
            let link = format!("a[href='../../data/datasets/{slug}.{extension}']");
            assert_eq!(common::texts(&page, &link).len(), 1, "{slug}: {link}");
        }
        // The SHA-256 next to the size is the download's.
        let csv = std::fs::read(output.join(format!("data/datasets/{slug}.csv"))).expect("csv");
        let digest: String = Sha256::digest(&csv)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            common::texts(&page, ".download .sha256"),
            [digest],
            "{slug}"
        );
        // The change history: on the page and in the Data Package.
        let changes = package["changes"]
            .as_array()
            .expect("changes in the Data Package");
        assert_eq!(changes[0]["description"], "First publication.");
        assert_eq!(changes[0]["version"], package["version"]);
        let listed = common::texts(&page, ".change-list li");
        assert_eq!(listed.len(), changes.len(), "{slug}");
        assert!(listed[0].contains(changes[0]["date"].as_str().expect("date")));
        checked += 1;
    }
    assert_eq!(checked, 4);
}

#[test]
fn hostile_titles_stay_one_value_in_every_format() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().expect("temp");
    let root = dir.path().join("site");
    let title = r#"50% of {braces} & $dollars \ back_slash # ~^ @misc{x, "quoted" -- ER - end"#;
    let front = common::SMALL_FRONT.replace(
        "title = \"Sample\"",
        &format!(
            "title = {}\nversion = \"2.0 \\\"beta\\\"\"\ncreated = 2026-01-02",
            toml::Value::String(title.to_string())
        ),
    ) + "[[changes]]\ndate = 2026-01-02\ndescription = \"Line one.\"\n";
    common::write_small_site(&root, &front, common::SMALL_BODY, b"label,value\na,1\n");
    let output = dir.path().join("public");
    let options = datapages::BuildOptions::new(&root)
        .output(&output)
        .scan_cache(false);
    if let Err(error) = datapages::build(&options) {
        panic!("builds:\n{error}");
    }
    let report = check(&python, &output, "sample");
    assert_valid(
        &report,
        title,
        Some("2.0 \"beta\""),
        "https://example.org/sub/datasets/sample/",
    );
    let bib_title = report["bib"]["fields"]["title"].as_str().expect("title");
    assert!(
        bib_title.contains("50\\% of \\{braces\\} \\& \\$dollars"),
        "{bib_title}"
    );
}
