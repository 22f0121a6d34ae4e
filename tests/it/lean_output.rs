//! The lean default output (issue #50): a one-table dataset writes its page, its CSV and
//! the Data Package, CSVW and Croissant files and nothing else of its own (the Parquet copy
//! only where `parquet = "auto"` writes one), the DCAT catalog is Turtle only, and each
//! output left out comes back with its setting: `citation_files` (site.toml or the
//! dataset's own), `dcat = ["turtle", "jsonld"]`, `parquet = true`; `dcat` values that are
//! not syntaxes are located errors.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A one-dataset site in `dir` with `settings` before site.toml's own and `front` as the
/// dataset's front matter; built, its output folder.
fn build(dir: &Path, settings: &str, front: &str) -> PathBuf {
    let root = dir.join("site");
    common::write_small_site(&root, front, common::SMALL_BODY, b"label,value\na,1\nb,2\n");
    let toml = std::fs::read_to_string(root.join("site.toml")).unwrap();
    std::fs::write(root.join("site.toml"), format!("{settings}{toml}")).unwrap();
    let output = dir.join("public");
    datapages::build(&datapages::BuildOptions::new(&root).output(&output))
        .unwrap_or_else(|e| panic!("builds:\n{e}"));
    output
}

/// The files of the dataset `sample` (its page and every file named by its slug), and the
/// DCAT catalog files.
fn own_files(output: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut own: BTreeSet<String> = std::fs::read_dir(output.join("data/datasets"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("sample."))
        .collect();
    if output.join("datasets/sample/index.html").is_file() {
        own.insert("page".to_string());
    }
    let catalogs = std::fs::read_dir(output.join("data"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("catalog."))
        .collect();
    (own, catalogs)
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| n.to_string()).collect()
}

const DEFAULT_OWN: [&str; 5] = [
    "page",
    "sample.croissant.json",
    "sample.csv",
    "sample.csv-metadata.json",
    "sample.json",
];

#[test]
fn a_one_table_dataset_writes_five_files_of_its_own_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let output = build(dir.path(), "", common::SMALL_FRONT);
    let (own, catalogs) = own_files(&output);
    assert_eq!(own, set(&DEFAULT_OWN));
    assert_eq!(catalogs, set(&["catalog.json", "catalog.ttl"]));
    // The page still offers every citation format, and links no file that is not there.
    let page = common::html(&output.join("datasets/sample/index.html"));
    assert_eq!(common::texts(&page, "a.cite-download").len(), 3);
    for href in common::attributes(&page, "a[href^='../../data/']", "href") {
        let file = output.join(href.trim_start_matches("../../"));
        assert!(file.is_file(), "{href} links no file");
    }
}

#[test]
fn each_output_left_out_comes_back_with_its_setting() {
    let dir = tempfile::tempdir().unwrap();
    let settings = "citation_files = true\ndcat = [\"turtle\", \"jsonld\"]\nparquet = true\n";
    let output = build(&dir.path().join("site-wide"), settings, common::SMALL_FRONT);
    let (own, catalogs) = own_files(&output);
    let mut all = set(&DEFAULT_OWN);
    all.extend(set(&["sample.cff", "sample.ris", "sample.parquet"]));
    assert_eq!(own, all);
    assert_eq!(
        catalogs,
        set(&["catalog.json", "catalog.jsonld", "catalog.ttl"])
    );
    // The page links the files instead of making them.
    let page = common::html(&output.join("datasets/sample/index.html"));
    assert_eq!(common::texts(&page, "a.cite-download").len(), 1, "BibTeX");
    let home = std::fs::read_to_string(output.join("index.html")).unwrap();
    assert!(home.contains(r#"href="./data/catalog.jsonld""#), "{home}");
    let catalog: serde_json::Value =
        serde_json::from_slice(&std::fs::read(output.join("data/catalog.jsonld")).unwrap())
            .unwrap();
    assert!(catalog["@graph"].as_array().is_some_and(|g| !g.is_empty()));

    // Every JSON output is compact: what serde_json writes without indenting, one line.
    for name in [
        "data/datasets/sample.json",
        "data/datasets/sample.csv-metadata.json",
        "data/datasets/sample.croissant.json",
        "data/catalog.json",
        "data/catalog.jsonld",
    ] {
        let bytes = std::fs::read(output.join(name)).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        let mut compact = serde_json::to_vec(&value).unwrap();
        compact.push(b'\n');
        assert!(bytes == compact, "{name} is not compact JSON");
    }

    // The dataset's own `citation_files` wins over site.toml's, either way.
    let front = format!("citation_files = true\n{}", common::SMALL_FRONT);
    let (own, _) = own_files(&build(&dir.path().join("own-on"), "", &front));
    assert!(
        own.contains("sample.ris") && own.contains("sample.cff"),
        "{own:?}"
    );
    let front = format!("citation_files = false\n{}", common::SMALL_FRONT);
    let output = build(
        &dir.path().join("own-off"),
        "citation_files = true\n",
        &front,
    );
    assert_eq!(own_files(&output).0, set(&DEFAULT_OWN));
}

/// Every `dcat` problem at once, each at its value, saying what to write instead.
#[test]
fn dcat_values_that_are_no_syntax_are_located_errors() {
    for (value, line, says) in [
        (
            r#"["turtle", "rdfxml"]"#,
            1,
            "`rdfxml` is not one of the allowed values",
        ),
        ("[]", 1, "`dcat` lists no syntax"),
        (
            r#"["turtle", "turtle"]"#,
            1,
            "`dcat` names this syntax twice",
        ),
        (r#""turtle""#, 1, "expected a sequence"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        common::write_small_site(root, common::SMALL_FRONT, common::SMALL_BODY, b"a\n1\n");
        let toml = std::fs::read_to_string(root.join("site.toml")).unwrap();
        std::fs::write(root.join("site.toml"), format!("dcat = {value}\n{toml}")).unwrap();
        let said = common::check_all(root).render(false);
        assert!(said.contains(says), "{value}: {said}");
        assert!(
            said.contains(&format!("site.toml:{line}:")),
            "{value}: {said}"
        );
    }
}
