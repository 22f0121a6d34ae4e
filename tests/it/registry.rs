//! The registry of per-dataset outputs: a format added through it alone
//! (`BuildOptions::with_output`) is written beside the CSV, offered on the dataset page and
//! its row pages, named in catalog.json, accepted by the prose-link check, listed as a DCAT
//! distribution and as a Data Package alternate with its size and SHA-256, written again
//! when its dataset changes (an incremental rebuild), and removed with its dataset.

use crate::common;

use std::io::{Read, Write};
use std::path::Path;

use datapages::{BuildOptions, Change, Derived, Distribution, Download, Session};
use serde_json::Value;
use sha2::Digest as _;

/// A dummy format: the CSV's line count as text.
fn line_count(csv: &mut dyn Read, out: &mut dyn Write) -> std::io::Result<()> {
    let mut text = Vec::new();
    csv.read_to_end(&mut text)?;
    let lines = text.iter().filter(|&&b| b == b'\n').count();
    writeln!(out, "{lines} lines")
}

fn options(root: &Path) -> BuildOptions {
    BuildOptions::new(root).with_output(Derived {
        suffix: ".lines.txt",
        media_type: "text/plain",
        distribution: Some(Distribution {
            fragment: "lines",
            title: "Line count",
            description: "How many lines the CSV has.",
            file_type: "TXT",
            conforms_to: None,
        }),
        alternate: Some("lines"),
        download: Some(Download {
            key: "lines",
            label: "Line count",
            name: "as text",
            phrase: "its line count",
            order: 9,
        }),
        catalog_key: Some("lines"),
        make: line_count,
    })
}

fn sha256_hex(bytes: &[u8]) -> String {
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Checks that the output holds the dummy file with `want`, and that the Data Package and
/// both DCAT syntaxes state its size and digest.
fn assert_listed(output: &Path, want: &str) {
    let file = output.join("data/datasets/sample.lines.txt");
    let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    assert_eq!(String::from_utf8_lossy(&bytes), want);
    let hex = sha256_hex(&bytes);

    let package: Value =
        serde_json::from_slice(&std::fs::read(output.join("data/datasets/sample.json")).unwrap())
            .unwrap();
    let alternate = &package["resources"][0]["datapages:lines"];
    assert_eq!(alternate["path"], "sample.lines.txt", "{package:#}");
    assert_eq!(alternate["mediatype"], "text/plain");
    assert_eq!(alternate["format"], "lines");
    assert_eq!(alternate["bytes"], bytes.len() as u64);
    assert_eq!(alternate["hash"], format!("sha256:{hex}"));
    // The built-in alternate is still there beside it.
    assert!(package["resources"][0]["datapages:parquet"].is_object());

    let turtle = std::fs::read_to_string(output.join("data/catalog.ttl")).unwrap();
    // The site's IRIs are written against the file's @base.
    assert!(turtle.contains("@base <https://example.org/sub/> ."));
    let node = "<datasets/sample/#lines>";
    assert!(
        turtle.contains(&format!("dcat:distribution {node}"))
            || turtle.contains(&format!(", {node}")),
        "the dataset does not name the distribution:\n{turtle}"
    );
    for fact in [
        "<data/datasets/sample.lines.txt>",
        "<http://www.iana.org/assignments/media-types/text/plain>",
        &format!("\"{hex}\"^^xsd:hexBinary"),
        &format!("\"{}\"^^xsd:nonNegativeInteger", bytes.len()),
    ] {
        assert!(turtle.contains(fact), "{fact} missing from:\n{turtle}");
    }
    let jsonld = std::fs::read_to_string(output.join("data/catalog.jsonld")).unwrap();
    assert!(jsonld.contains("sample.lines.txt") && jsonld.contains(&hex));

    // The page offers it after the built-in typed copy, with its size and digest.
    let page = common::html(&output.join("datasets/sample/index.html"));
    let offered = common::attributes(&page, ".download .download-hash a[download]", "href");
    assert_eq!(
        offered,
        [
            "../../data/datasets/sample.parquet",
            "../../data/datasets/sample.lines.txt"
        ]
    );
    let block = common::texts(&page, ".download-lines");
    assert_eq!(
        block,
        [format!(
            "Line count: as text · {} B · SHA-256 {hex}",
            bytes.len()
        )]
    );
    // The row pages offer it after the typed copy too.
    let rows = common::html(&output.join("datasets/sample/rows/2/index.html"));
    let offered = common::attributes(&rows, ".row-page-back a[download]", "href");
    assert_eq!(
        offered,
        [
            "../../../../data/datasets/sample.csv",
            "../../../../data/datasets/sample.parquet",
            "../../../../data/datasets/sample.lines.txt"
        ]
    );
    assert!(common::texts(&rows, ".row-page-back")[0].ends_with(" its line count"));

    // catalog.json gives its URL under its key.
    let catalog: Value =
        serde_json::from_slice(&std::fs::read(output.join("data/catalog.json")).unwrap()).unwrap();
    assert_eq!(
        catalog["datasets"][0]["lines"],
        "https://example.org/sub/data/datasets/sample.lines.txt"
    );
}

/// The page's prose links to the dummy file: the link check knows it as a file the site
/// writes.
const LINKING_BODY: &str = "\nThe lede, from [a source](#source-src), counted in [its lines](../../data/datasets/sample.lines.txt).\n\n## Method\n\nCounted.\n\n## Limits\n\nFew.\n";

#[test]
fn an_output_added_to_the_registry_is_written_listed_and_rewritten() {
    let site = tempfile::tempdir().unwrap();
    let root = site.path();
    common::write_small_site(
        root,
        common::SMALL_FRONT,
        LINKING_BODY,
        b"label,value\na,1\nb,2\n",
    );
    // The built-in typed copy too, whatever the table's size, both DCAT syntaxes, and a
    // row page per row.
    let toml = std::fs::read_to_string(root.join("site.toml")).unwrap();
    let settings =
        "parquet = true\ndcat = [\"turtle\", \"jsonld\"]\ntable_rows = 1\nrow_pages = true\n";
    std::fs::write(root.join("site.toml"), format!("{settings}{toml}")).unwrap();
    let output = root.join("public");
    let (mut session, _) = Session::start(&options(root), |staging| staging.commit())
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    assert_listed(&output, "3 lines\n");

    // The CSV grows: the file, the Data Package and the catalog follow.
    std::fs::write(
        root.join("data/datasets/sample.csv"),
        "label,value\na,1\nb,2\nc,3\nd,4\n",
    )
    .unwrap();
    let report = session
        .rebuild([Change::Dataset("sample".into())], |s| s.commit())
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    assert!(!report.full, "a CSV edit is an incremental rebuild");
    assert_listed(&output, "5 lines\n");

    // A build without the format writes no such file: the prose's link to it is an error.
    let plain = tempfile::tempdir().unwrap();
    let problems = datapages::build(&BuildOptions::new(root).output(plain.path().join("out")))
        .expect_err("the link to a file no output writes")
        .render(false);
    let dead =
        "links to `../../data/datasets/sample.lines.txt`, which is not a file this site writes";
    assert!(problems.contains(dead), "{problems}");
    assert!(!plain.path().join("out").exists());

    // The dataset goes: so does its file.
    std::fs::remove_file(root.join("content/datasets/sample.md")).unwrap();
    std::fs::remove_file(root.join("data/datasets/sample.csv")).unwrap();
    session
        .rebuild([Change::Dataset("sample".into())], |s| s.commit())
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    assert!(!output.join("data/datasets/sample.lines.txt").exists());
    assert!(!output.join("data/datasets/sample.csv").exists());
}

/// Every built-in output that the DCAT catalog lists and that is on by default for a small
/// table (the CSV, Data Package, CSVW and Croissant) is a distribution of every dataset of
/// the bundled site,
/// with the size and SHA-256 of the file written, whether its writer states them (the
/// metadata) or the scan does (the CSV, copied byte for byte).
#[test]
fn the_catalog_lists_every_built_in_distribution_of_every_dataset_with_its_file() {
    let (_dir, output) = common::build_bundled();
    let turtle = std::fs::read_to_string(output.join("data/catalog.ttl")).unwrap();
    let folder = output.join("data/datasets");
    let mut slugs: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| name.strip_suffix(".csv-metadata.json").map(str::to_string))
        .collect();
    slugs.sort();
    assert!(slugs.len() >= 4, "{slugs:?}");
    for slug in &slugs {
        for (fragment, file) in [
            ("csv", format!("{slug}.csv")),
            ("datapackage", format!("{slug}.json")),
            ("csvw", format!("{slug}.csv-metadata.json")),
            ("croissant", format!("{slug}.croissant.json")),
        ] {
            let node = format!("datasets/{slug}/#{fragment}>");
            assert!(
                turtle.contains(&format!("{node}\n    a dcat:Distribution")),
                "{slug} has no {fragment} distribution"
            );
            let bytes = std::fs::read(folder.join(&file)).unwrap();
            let facts = [
                format!("\"{}\"^^xsd:nonNegativeInteger", bytes.len()),
                format!("\"{}\"^^xsd:hexBinary", sha256_hex(&bytes)),
            ];
            for fact in facts {
                assert!(turtle.contains(&fact), "{file}: {fact} missing");
            }
        }
    }
}
