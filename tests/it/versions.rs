//! Kept versions of a CSV (`[[changes]]` with `file`): each published unchanged at
//! `data/datasets/<slug>/v<version>.csv` with its size and SHA-256 on the page and in the
//! Data Package, and the row-level comparison of consecutive versions (added, removed,
//! changed rows and the changed columns) checked against counts computed here straight
//! from the fixture files, **(full tier)** against tests/validators/versions_check.py
//! (Python's own csv module), and with the comparison forced to spill sorted runs to disk.
//! Every mistake (missing, outside, hidden file, a version that cannot be a path segment,
//! duplicate keys) is a located error in `check`.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::common;

/// Three kept versions and the current file: rows added, removed and changed (several
/// columns at once), a column added (`note`, in v3), a cell quoted in one version and not
/// in the next (the same value: not a change).
const V1: &str = "id,region,value\n1,North,10\n2,South,20\n3,East,30\n4,West,40\n5,\"North, East\",50\n6,South,60\n7,East,70\n8,West,80\n";
const V2: &str = "id,region,value\n1,North,\"10\"\n3,East,33\n4,Centre,44\n5,\"North, East\",50\n6,South,60\n7,East,70\n8,West,80\n9,North,90\n";
const V3: &str = "id,region,value,note\n1,Far North,10,a\n3,East,33,b\n4,Centre,44,\n6,South,60,c\n7,East,70,d\n8,West,80,e\n9,North,90,f\n10,South,100,g\n11,East,110,h\n";
const CURRENT: &str = "id,region,value,note\n1,Far North,10,a\n3,East,33,b\n4,Centre,44,\n6,South,66,c\n7,East,77,\"d, revised\"\n9,North,90,f\n10,South,100,g\n11,East,110,h\n12,West,120,i\n";

const FRONT: &str = r#"title = "Versions"
kicker = "a test"
headline = "A dataset with kept versions"
version = "4"
primary_key = ["id"]
[[changes]]
date = 2023-01-01
version = "1"
description = "First release."
file = "data/old/sample-v1.csv"
[[changes]]
date = 2023-06-01
version = "2"
description = "Corrections."
file = "data/old/sample-v2.csv"
[[changes]]
date = 2024-01-01
version = "3"
description = "A note column."
file = "data/old/sample-v3.csv"
[[changes]]
date = 2024-06-01
version = "4"
description = "More corrections."
[[sources]]
id = "src"
title = "A source"
[[columns]]
name = "id"
title = "Id"
type = "integer"
description = "The row's key."
[[columns]]
name = "region"
title = "Region"
type = "string"
description = "A region."
[[columns]]
name = "value"
title = "Value"
type = "integer"
description = "A value."
[[columns]]
name = "note"
title = "Note"
type = "string"
description = "A note."
"#;

const KEPT: [(&str, &str); 3] = [("1", V1), ("2", V2), ("3", V3)];

/// The fixture site in `root`, with `front` as its front matter.
fn write_site(root: &Path, front: &str, site_extra: &str) {
    common::write_small_site(root, front, common::SMALL_BODY, CURRENT.as_bytes());
    std::fs::create_dir_all(root.join("data/old")).unwrap();
    for (version, text) in KEPT {
        std::fs::write(root.join(format!("data/old/sample-v{version}.csv")), text).unwrap();
    }
    if !site_extra.is_empty() {
        let toml = root.join("site.toml");
        let site = std::fs::read_to_string(&toml).unwrap();
        std::fs::write(&toml, format!("{site_extra}{site}")).unwrap();
    }
}

/// What changed between two versions, computed here from the files (not by datapages).
#[derive(Debug, PartialEq, Eq, Default)]
struct Expected {
    added: u64,
    removed: u64,
    changed: u64,
    columns: BTreeMap<String, u64>,
    columns_added: Vec<String>,
}

fn rows(text: &str) -> (Vec<String>, HashMap<String, HashMap<String, String>>) {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let mut rows = HashMap::new();
    for record in reader.records() {
        let record = record.unwrap();
        let row: HashMap<String, String> = header
            .iter()
            .cloned()
            .zip(record.iter().map(String::from))
            .collect();
        rows.insert(row["id"].clone(), row);
    }
    (header, rows)
}

fn expected(old: &str, new: &str) -> Expected {
    let (old_header, old_rows) = rows(old);
    let (new_header, new_rows) = rows(new);
    let mut out = Expected {
        columns_added: new_header
            .iter()
            .filter(|c| !old_header.contains(c))
            .cloned()
            .collect(),
        ..Expected::default()
    };
    let common: Vec<&String> = new_header
        .iter()
        .filter(|c| old_header.contains(c))
        .collect();
    for (id, row) in &new_rows {
        match old_rows.get(id) {
            None => out.added += 1,
            Some(before) => {
                let differing: Vec<&&String> =
                    common.iter().filter(|c| before[**c] != row[**c]).collect();
                if !differing.is_empty() {
                    out.changed += 1;
                }
                for column in differing {
                    *out.columns.entry((*column).clone()).or_default() += 1;
                }
            }
        }
    }
    out.removed = old_rows
        .keys()
        .filter(|id| !new_rows.contains_key(*id))
        .count() as u64;
    out
}

fn count(element: scraper::ElementRef, selector: &str) -> u64 {
    let selector = scraper::Selector::parse(selector).unwrap();
    element
        .select(&selector)
        .next()
        .and_then(|e| e.value().attr("data-count"))
        .unwrap_or_else(|| panic!("no {selector:?}"))
        .parse()
        .unwrap()
}

/// What the page states of each kept version: (version, sha256, comparison).
fn page_versions(page: &Path) -> Vec<(String, String, Expected)> {
    let document = common::html(page);
    let item = scraper::Selector::parse("li.version").unwrap();
    let sha = scraper::Selector::parse("code.version-sha256").unwrap();
    let column = scraper::Selector::parse(".column-changed").unwrap();
    let added = scraper::Selector::parse("code.column-added").unwrap();
    document
        .select(&item)
        .map(|li| {
            let version = li.value().attr("data-version").unwrap().to_string();
            let digest = li.select(&sha).next().unwrap().text().collect::<String>();
            let columns = li
                .select(&column)
                .map(|c| {
                    let name = c.value().attr("data-column").unwrap().to_string();
                    (name, c.value().attr("data-count").unwrap().parse().unwrap())
                })
                .collect();
            let stated = Expected {
                added: count(li, ".rows-added"),
                removed: count(li, ".rows-removed"),
                changed: count(li, ".rows-changed"),
                columns,
                columns_added: li.select(&added).map(|c| c.text().collect()).collect(),
            };
            (version, digest, stated)
        })
        .collect()
}

fn build(root: &Path) -> (tempfile::TempDir, PathBuf) {
    let out = tempfile::tempdir().unwrap();
    let output = out.path().join("public");
    datapages::build(
        &datapages::BuildOptions::new(root)
            .output(&output)
            .scan_cache(false),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    (out, output)
}

fn hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Each version compared with the next, the current file last.
fn expected_all() -> Vec<(String, Expected)> {
    let texts = [V1, V2, V3, CURRENT];
    KEPT.iter()
        .enumerate()
        .map(|(i, (version, _))| (version.to_string(), expected(texts[i], texts[i + 1])))
        .collect()
}

fn assert_page_states_the_comparisons(output: &Path) {
    let stated = page_versions(&output.join("datasets/sample/index.html"));
    let want = expected_all();
    assert_eq!(stated.len(), want.len(), "{stated:?}");
    for ((version, digest, comparison), (want_version, want_comparison)) in stated.iter().zip(&want)
    {
        assert_eq!(version, want_version);
        assert_eq!(comparison, want_comparison, "version {version}");
        let published = std::fs::read(output.join(format!("data/datasets/sample/v{version}.csv")))
            .expect("the kept version is published");
        let source = KEPT.iter().find(|(v, _)| v == version).unwrap().1;
        assert_eq!(published, source.as_bytes(), "byte for byte");
        assert_eq!(digest, &hex(&published), "version {version}'s SHA-256");
    }
}

#[test]
fn the_page_states_each_kept_version_and_what_changed_to_the_next() {
    let site = tempfile::tempdir().unwrap();
    write_site(site.path(), FRONT, "");
    let (_out, output) = build(site.path());
    assert_page_states_the_comparisons(&output);
    // The fixture exercises every kind: the test cannot pass on an empty comparison.
    let want = expected_all();
    assert!(want
        .iter()
        .all(|(_, e)| e.added > 0 && e.removed > 0 && e.changed > 0));
    assert!(want.iter().any(|(_, e)| e.columns.len() > 1));
    assert_eq!(want[2].1.columns_added, Vec::<String>::new());
    assert_eq!(want[1].1.columns_added, vec!["note".to_string()]);
    // The quoted "10" of v2 is the same cell as v1's 10.
    assert_eq!(want[0].1.columns.get("value"), Some(&2));

    let package: serde_json::Value =
        serde_json::from_slice(&std::fs::read(output.join("data/datasets/sample.json")).unwrap())
            .unwrap();
    let listed = package["datapages:versions"].as_array().unwrap();
    for (entry, (version, want)) in listed.iter().zip(&want) {
        assert_eq!(entry["version"], version.as_str());
        assert_eq!(entry["then"]["rowsAdded"], want.added);
        assert_eq!(entry["then"]["rowsRemoved"], want.removed);
        assert_eq!(entry["then"]["rowsChanged"], want.changed);
        let published =
            std::fs::read(output.join(format!("data/datasets/sample/v{version}.csv"))).unwrap();
        assert_eq!(entry["sha256"], hex(&published).as_str());
        assert_eq!(entry["bytes"], published.len() as u64);
        assert_eq!(
            entry["path"],
            format!("https://example.org/sub/data/datasets/sample/v{version}.csv").as_str()
        );
    }
    assert_eq!(listed.len(), want.len());
    assert_eq!(listed[2]["next"], "4");

    // JSON-LD lists each kept file as a download of its version.
    let page = common::html(&output.join("datasets/sample/index.html"));
    let script = common::texts(&page, "script[type='application/ld+json']").join("");
    let jsonld: serde_json::Value = serde_json::from_str(&script).unwrap();
    let kept: Vec<&serde_json::Value> = jsonld["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d.get("version").is_some())
        .collect();
    assert_eq!(kept.len(), KEPT.len());
    for (download, (version, text)) in kept.iter().zip(KEPT) {
        assert_eq!(download["version"], version);
        assert_eq!(download["sha256"], hex(text.as_bytes()).as_str());
    }
}

#[test]
fn without_a_primary_key_rows_are_compared_whole_and_counted() {
    let site = tempfile::tempdir().unwrap();
    write_site(
        site.path(),
        &FRONT.replace("primary_key = [\"id\"]\n", ""),
        "",
    );
    let (_out, output) = build(site.path());
    let package: serde_json::Value =
        serde_json::from_slice(&std::fs::read(output.join("data/datasets/sample.json")).unwrap())
            .unwrap();
    // Multisets of whole rows over the columns both versions have, counted here.
    let multiset = |text: &str, columns: &[&str]| {
        let (header, rows) = rows(text);
        let mut counts: HashMap<Vec<String>, i64> = HashMap::new();
        for row in rows.values() {
            let cells = columns
                .iter()
                .filter(|c| header.iter().any(|h| h == *c))
                .map(|c| row[*c].clone())
                .collect();
            *counts.entry(cells).or_default() += 1;
        }
        counts
    };
    let texts = [V1, V2, V3, CURRENT];
    for (i, entry) in package["datapages:versions"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let (_, old_rows) = rows(texts[i]);
        let (new_header, _) = rows(texts[i + 1]);
        let (old_header, _) = rows(texts[i]);
        let common: Vec<&str> = new_header
            .iter()
            .filter(|c| old_header.contains(c))
            .map(String::as_str)
            .collect();
        let (old, new) = (multiset(texts[i], &common), multiset(texts[i + 1], &common));
        let mut added = 0;
        let mut removed = 0;
        for key in old
            .keys()
            .chain(new.keys())
            .collect::<std::collections::HashSet<_>>()
        {
            let (o, n) = (
                old.get(key).copied().unwrap_or(0),
                new.get(key).copied().unwrap_or(0),
            );
            added += (n - o).max(0);
            removed += (o - n).max(0);
        }
        assert!(!old_rows.is_empty());
        assert_eq!(entry["then"]["keyed"], false);
        assert_eq!(entry["then"]["rowsAdded"], added, "version {i}");
        assert_eq!(entry["then"]["rowsRemoved"], removed, "version {i}");
        assert_eq!(entry["then"]["rowsChanged"], 0);
    }
}

/// `check`'s report of the fixture with `front` (and the kept files as given).
fn problems(front: &str, prepare: impl Fn(&Path)) -> String {
    let site = tempfile::tempdir().unwrap();
    write_site(site.path(), front, "");
    prepare(site.path());
    common::check_all(site.path()).render(false)
}

/// The 1-based line and column of the first `needle` in the page's Markdown.
fn place(front: &str, needle: &str) -> String {
    let text = format!("+++\n{front}");
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} in the front matter"));
    let line = text[..at].matches('\n').count() + 1;
    let column = at - text[..at].rfind('\n').map_or(0, |n| n + 1) + 1;
    format!("error: {{}}\n  --> content/datasets/sample.md:{line}:{column}\n")
}

#[test]
fn each_mistake_in_a_kept_version_is_a_located_error() {
    let cases: [(&str, &str, &str, &str); 5] = [
        (
            "data/old/sample-v2.csv",
            "data/old/gone.csv",
            "\"data/old/gone.csv\"",
            "does not exist",
        ),
        (
            "data/old/sample-v2.csv",
            "../outside.csv",
            "\"../outside.csv\"",
            "outside the site folder",
        ),
        (
            "data/old/sample-v2.csv",
            "data/old/.hidden.csv",
            "\"data/old/.hidden.csv\"",
            "hidden",
        ),
        (
            "version = \"2\"",
            "version = \"2/../x\"",
            "\"2/../x\"",
            "cannot name a kept file",
        ),
        (
            "version = \"2\"",
            "version = \".2\"",
            "\".2\"",
            "cannot name a kept file",
        ),
    ];
    for (from, to, needle, message) in cases {
        let front = FRONT.replacen(from, to, 1);
        let report = problems(&front, |root| {
            std::fs::write(root.join("data/old/.hidden.csv"), V2).unwrap();
        });
        let at = place(&front, needle);
        let (before, after) = at.split_once("{}").unwrap();
        let located = report.split(before).skip(1).any(|error| {
            error.contains(after) && error.split(after).next().unwrap().contains(message)
        });
        assert!(located, "{to}: want {message} at {after} in\n{report}");
    }
    // Versions that differ only in case name one file on a case-insensitive file system:
    // an error at the second.
    let front = FRONT
        .replacen("version = \"2\"", "version = \"b\"", 1)
        .replacen("version = \"3\"", "version = \"B\"", 1);
    let report = problems(&front, |_| {});
    let at = place(&front, "\"B\"");
    let (before, after) = at.split_once("{}").unwrap();
    let located = report.split(before).skip(1).any(|error| {
        error.contains(after)
            && error
                .split(after)
                .next()
                .unwrap()
                .contains("differ only in case")
    });
    assert!(located, "want `b` and `B` at {after} in\n{report}");
    // Two rows of v2 with one key: an error at v2's `file`, naming both lines.
    let report = problems(FRONT, |root| {
        let doubled = V2.replace("9,North,90", "3,North,90");
        std::fs::write(root.join("data/old/sample-v2.csv"), doubled).unwrap();
    });
    let at = place(FRONT, "\"data/old/sample-v2.csv\"");
    let (_, after) = at.split_once("{}").unwrap();
    let error = report.split("error: ").nth(1).unwrap_or_default();
    assert!(
        error.contains(after)
            && error.contains("primary key `3`")
            && error.contains("lines 3 and 9"),
        "{report}"
    );
}

/// A generated pair of versions: `rows` rows, every 7th changed, every 11th removed, a
/// tenth as many added.
fn write_large(root: &Path, rows: u64, chunk: Option<usize>) {
    use std::io::Write;
    let extra = chunk.map_or(String::new(), |c| format!("_versions_chunk_rows = {c}\n"));
    let front = FRONT
        .replace("file = \"data/old/sample-v1.csv\"\n", "")
        .replace("file = \"data/old/sample-v3.csv\"\n", "");
    common::write_small_site(root, &front, common::SMALL_BODY, b"");
    let toml = root.join("site.toml");
    let site = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("{extra}{site}")).unwrap();
    std::fs::create_dir_all(root.join("data/old")).unwrap();
    let mut old = std::io::BufWriter::new(
        std::fs::File::create(root.join("data/old/sample-v2.csv")).unwrap(),
    );
    let mut new = std::io::BufWriter::new(
        std::fs::File::create(root.join("data/datasets/sample.csv")).unwrap(),
    );
    writeln!(old, "id,region,value,note").unwrap();
    writeln!(new, "id,region,value,note").unwrap();
    for id in 0..rows {
        writeln!(old, "{id},r{},{id},n", id % 13).unwrap();
        if id % 11 == 0 {
            continue;
        }
        let value = if id % 7 == 0 { id + 1 } else { id };
        let region = if id % 21 == 0 { "changed" } else { "" };
        writeln!(new, "{id},r{}{region},{value},n", id % 13).unwrap();
    }
    for id in rows..rows + rows / 10 {
        writeln!(new, "{id},r,{id},n").unwrap();
    }
}

#[test]
#[ignore = "full tier: two builds diffing 200,000 rows, one spilling sorted runs to disk"]
fn the_spilled_comparison_equals_the_one_in_memory() {
    let rows = 200_000u64;
    let mut packages = Vec::new();
    for chunk in [Some(1_000), None] {
        let site = tempfile::tempdir().unwrap();
        write_large(site.path(), rows, chunk);
        let (_out, output) = build(site.path());
        let package: serde_json::Value = serde_json::from_slice(
            &std::fs::read(output.join("data/datasets/sample.json")).unwrap(),
        )
        .unwrap();
        packages.push(package["datapages:versions"].clone());
    }
    assert_eq!(packages[0], packages[1]);
    let then = &packages[0][0]["then"];
    let removed = (0..rows).filter(|id| id % 11 == 0).count() as u64;
    let changed = (0..rows).filter(|id| id % 11 != 0 && id % 7 == 0).count() as u64;
    let regions = (0..rows).filter(|id| id % 11 != 0 && id % 21 == 0).count() as u64;
    assert_eq!(then["rowsRemoved"], removed);
    assert_eq!(then["rowsAdded"], rows / 10);
    assert_eq!(then["rowsChanged"], changed);
    assert_eq!(then["changedColumns"][0]["column"], "region");
    assert_eq!(then["changedColumns"][0]["count"], regions);
    assert_eq!(then["changedColumns"][1]["count"], changed);
    assert_eq!(then["firstRemoved"][0], "0");
}

#[test]
#[ignore = "full tier: the validators' venv (Python's csv module counts independently)"]
fn python_counts_the_same_changes() {
    let Some(packages) = common::venv_site_packages(&[], "the validators' venv") else {
        return;
    };
    let python = packages.ancestors().nth(3).unwrap().join("bin/python");
    let site = tempfile::tempdir().unwrap();
    write_site(site.path(), FRONT, "");
    let (_out, output) = build(site.path());
    let script = common::bundled_site().join("tests/validators/versions_check.py");
    let result = std::process::Command::new(python)
        .arg(script)
        .arg(site.path().join("content/datasets/sample.md"))
        .arg(site.path())
        .arg(output.join("data/datasets/sample.json"))
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&result.stdout);
    assert!(
        result.status.success(),
        "{printed}{}",
        String::from_utf8_lossy(&result.stderr)
    );
    assert!(printed.contains("3 comparisons agree"), "{printed}");
}

#[test]
fn serve_rebuilds_the_page_when_a_kept_file_changes_and_drops_versions_no_longer_named() {
    use datapages::{BuildOptions, Change, Session};
    let site = tempfile::tempdir().unwrap();
    write_site(site.path(), FRONT, "");
    let options = BuildOptions::new(site.path());
    let (mut session, _) = Session::start(&options, |staging| staging.commit())
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    let output = site.path().join("public");
    assert_page_states_the_comparisons(&output);

    // v2 corrected in place (the same size: a copy kept by size would go unnoticed).
    let corrected = V2.replace("9,North,90", "9,South,90");
    assert_eq!(corrected.len(), V2.len());
    std::fs::write(site.path().join("data/old/sample-v2.csv"), &corrected).unwrap();
    let report = session
        .rebuild([Change::DataFile("data/old/sample-v2.csv".into())], |s| {
            s.commit()
        })
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    assert!(
        report.urls.iter().any(|u| u == "/datasets/sample/"),
        "{report:?}"
    );
    let published = std::fs::read(output.join("data/datasets/sample/v2.csv")).unwrap();
    assert_eq!(published, corrected.as_bytes());
    let stated = page_versions(&output.join("datasets/sample/index.html"));
    assert_eq!(stated[1].1, hex(corrected.as_bytes()));
    assert_eq!(stated[0].2, expected(V1, &corrected));
    assert_eq!(stated[1].2, expected(&corrected, V3));

    // v1 no longer kept: its published file goes.
    let md = site.path().join("content/datasets/sample.md");
    let text = std::fs::read_to_string(&md).unwrap();
    std::fs::write(&md, text.replace("file = \"data/old/sample-v1.csv\"\n", "")).unwrap();
    session
        .rebuild([Change::Dataset("sample".into())], |s| s.commit())
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    assert!(!output.join("data/datasets/sample/v1.csv").exists());
    assert!(output.join("data/datasets/sample/v2.csv").exists());
    assert_eq!(
        page_versions(&output.join("datasets/sample/index.html")).len(),
        2
    );
}

#[test]
#[ignore = "full tier: the validators' venv (frictionless)"]
fn frictionless_accepts_the_data_package_with_its_versions() {
    let Some(bin) = crate::standards::validators() else {
        return;
    };
    let site = tempfile::tempdir().unwrap();
    write_site(site.path(), FRONT, "");
    let (_out, output) = build(site.path());
    let descriptor = output.join("data/datasets/sample.json");
    let package: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&descriptor).unwrap()).unwrap();
    assert_eq!(
        package["datapages:versions"].as_array().map(Vec::len),
        Some(3)
    );
    let report = crate::standards::frictionless(&bin, &descriptor);
    assert_eq!(report["valid"], true, "{report:#}");
}

#[test]
fn serve_publishes_a_kept_file_named_before_it_existed_once_it_appears() {
    use datapages::{BuildOptions, Change, Session};
    let site = tempfile::tempdir().unwrap();
    let root = site.path();
    let without_v3 = FRONT.replace("file = \"data/old/sample-v3.csv\"\n", "");
    write_site(root, &without_v3, "");
    std::fs::remove_file(root.join("data/old/sample-v3.csv")).unwrap();
    let (mut session, _) = Session::start(&BuildOptions::new(root), |staging| staging.commit())
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    let output = root.join("public");
    assert_eq!(
        page_versions(&output.join("datasets/sample/index.html")).len(),
        2
    );

    // The entry first, its file missing: the rebuild fails and names it.
    let md = root.join("content/datasets/sample.md");
    std::fs::write(&md, format!("+++\n{FRONT}+++\n{}", common::SMALL_BODY)).unwrap();
    let failed = session.rebuild([Change::Dataset("sample".into())], |s| s.commit());
    let report = failed.expect_err("a missing kept file fails").render(false);
    assert!(
        report.contains("data/old/sample-v3.csv does not exist"),
        "{report}"
    );

    // Then the file: the page lists all three.
    std::fs::write(root.join("data/old/sample-v3.csv"), V3).unwrap();
    session
        .rebuild([Change::DataFile("data/old/sample-v3.csv".into())], |s| {
            s.commit()
        })
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    assert_page_states_the_comparisons(&output);
}

#[test]
fn a_build_that_reuses_its_previous_output_publishes_a_changed_kept_file() {
    let site = tempfile::tempdir().unwrap();
    let root = site.path();
    write_site(root, FRONT, "");
    common::build_root(root);
    let output = root.join("public");
    assert_page_states_the_comparisons(&output);
    let corrected = V2.replace("9,North,90", "9,South,90");
    std::fs::write(root.join("data/old/sample-v2.csv"), &corrected).unwrap();
    common::build_root(root);
    let published = std::fs::read(output.join("data/datasets/sample/v2.csv")).unwrap();
    assert_eq!(published, corrected.as_bytes());
    let stated = page_versions(&output.join("datasets/sample/index.html"));
    assert_eq!(stated[1].1, hex(corrected.as_bytes()));
    assert_eq!(stated[1].2, expected(&corrected, V3));
}
