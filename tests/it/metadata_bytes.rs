//! The per-dataset metadata files (Data Package, CSVW, Croissant) and the dataset page's
//! JSON-LD, byte for byte. tests/fixtures/metadata uses every optional key they write (and
//! text that needs escaping); its `expected/` folder holds the bytes the earlier
//! `serde_json::Value` builders wrote, before typed structs replaced them (since then
//! written compact, and the profiles without what another key says). Every JSON file
//! of the fixture and the bundled site also has its keys sorted at every level, as
//! serde_json's map wrote them (what the typed structs' field order must keep).

use crate::common;

use std::path::{Path, PathBuf};

use common::{build_bundled, bundled_site};

fn fixture() -> PathBuf {
    bundled_site().join("tests/fixtures/metadata")
}

/// Builds a copy of the fixture (a build keeps its reuse records in the site's folder,
/// which must not be the source tree).
fn build_fixture() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let site = dir.path().join("site");
    for part in ["content", "data"] {
        common::copy_tree(&fixture().join(part), &site.join(part));
    }
    // With the Parquet copy its small tables would not get by default: the expected files
    // state it.
    let toml = std::fs::read_to_string(fixture().join("site.toml")).expect("site.toml");
    std::fs::write(site.join("site.toml"), format!("parquet = true\n{toml}")).expect("site.toml");
    let output = dir.path().join("public");
    let options = datapages::BuildOptions::new(&site)
        .output(&output)
        .scan_cache(false);
    if let Err(error) = datapages::build(&options) {
        panic!("the metadata fixture must build:\n{error}");
    }
    (dir, output)
}

/// The JSON-LD inside a page's `<script type="application/ld+json">`, with a final newline.
fn page_jsonld(page: &Path) -> String {
    let html = std::fs::read_to_string(page).expect("the dataset page");
    let open = "<script type=\"application/ld+json\">\n";
    let start = html.find(open).expect("a JSON-LD script") + open.len();
    let end = start + html[start..].find("\n</script>").expect("the script's end");
    format!("{}\n", &html[start..end])
}

/// Where two texts first differ, with some text around it (the files are one line each),
/// for a readable failure.
fn first_difference(expected: &str, actual: &str) -> String {
    let at = expected
        .bytes()
        .zip(actual.bytes())
        .position(|(e, a)| e != a)
        .unwrap_or_else(|| expected.len().min(actual.len()));
    let around = |text: &str| -> String {
        let (mut start, mut end) = (at.saturating_sub(60), (at + 60).min(text.len()));
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        while !text.is_char_boundary(end) {
            end += 1;
        }
        text[start..end].to_string()
    };
    format!(
        "byte {at}: expected …{:?}…, got …{:?}…",
        around(expected),
        around(actual)
    )
}

#[test]
fn every_metadata_file_keeps_its_bytes() {
    let (_guard, output) = build_fixture();
    let mut expected: Vec<PathBuf> = std::fs::read_dir(fixture().join("expected"))
        .expect("the expected folder")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    expected.sort();
    assert_eq!(expected.len(), 8, "{expected:?}");
    let mut failures = Vec::new();
    for path in &expected {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let want = std::fs::read_to_string(path).expect("an expected file");
        let got = match name.strip_suffix(".page.jsonld") {
            Some(slug) => page_jsonld(&output.join(format!("datasets/{slug}/index.html"))),
            None => std::fs::read_to_string(output.join("data/datasets").join(&name))
                .unwrap_or_else(|e| format!("cannot read {name}: {e}")),
        };
        if got != want {
            failures.push(format!("{name}: {}", first_difference(&want, &got)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Reading it succeeds only if every object's keys are in sorted (byte) order.
struct KeysSorted;

impl<'de> serde::Deserialize<'de> for KeysSorted {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(KeysSorted)
    }
}

impl<'de> serde::de::Visitor<'de> for KeysSorted {
    type Value = KeysSorted;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("JSON")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self, A::Error> {
        let mut previous: Option<String> = None;
        while let Some(key) = map.next_key::<String>()? {
            if previous.as_ref().is_some_and(|p| *p >= key) {
                return Err(serde::de::Error::custom(format!(
                    "key {key:?} after {previous:?}"
                )));
            }
            map.next_value::<KeysSorted>()?;
            previous = Some(key);
        }
        Ok(KeysSorted)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self, A::Error> {
        while seq.next_element::<KeysSorted>()?.is_some() {}
        Ok(KeysSorted)
    }

    fn visit_str<E>(self, _: &str) -> Result<Self, E> {
        Ok(KeysSorted)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self, E> {
        Ok(KeysSorted)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Self, E> {
        Ok(KeysSorted)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Self, E> {
        Ok(KeysSorted)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self, E> {
        Ok(KeysSorted)
    }

    fn visit_unit<E>(self) -> Result<Self, E> {
        Ok(KeysSorted)
    }
}

/// Every `.json` file under `data/datasets/` of `output` must have every object's keys in
/// sorted order. Returns how many files were read.
fn assert_keys_sorted(output: &Path) -> usize {
    let mut checked = 0;
    for entry in std::fs::read_dir(output.join("data/datasets")).expect("data/datasets") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a JSON file");
        if let Err(error) = serde_json::from_str::<KeysSorted>(&text) {
            panic!("{}: {error}", path.display());
        }
        checked += 1;
    }
    checked
}

#[test]
fn the_key_check_fails_on_unsorted_keys() {
    assert!(
        serde_json::from_str::<KeysSorted>(r#"{"a": [{"b": 1, "c": null}], "d": 1.5}"#).is_ok()
    );
    assert!(serde_json::from_str::<KeysSorted>(r#"{"a": [{"c": 1, "b": 2}]}"#).is_err());
    assert!(serde_json::from_str::<KeysSorted>(r#"{"b": 1, "a": 2}"#).is_err());
}

#[test]
fn every_json_file_has_its_keys_sorted() {
    let (_guard, output) = build_fixture();
    assert_eq!(assert_keys_sorted(&output), 6);
    let (_guard, output) = build_bundled();
    assert!(assert_keys_sorted(&output) >= 12);
}

#[test]
fn croissant_field_ids_are_one_per_column_whatever_the_names() {
    let dir = tempfile::tempdir().unwrap();
    let mut front = common::SMALL_FRONT
        .split("[[columns]]")
        .next()
        .unwrap()
        .to_string();
    for name in ["id", "x/../id", "../cols"] {
        front.push_str(&format!(
            "[[columns]]\nname = \"{name}\"\ntitle = \"T\"\ntype = \"string\"\ndescription = \"Column {name}.\"\n"
        ));
    }
    common::write_small_site(
        dir.path(),
        &front,
        common::SMALL_BODY,
        b"id,x/../id,../cols\na,b,c\n",
    );
    let output = dir.path().join("public");
    let options = datapages::BuildOptions::new(dir.path())
        .output(&output)
        .scan_cache(false);
    if let Err(error) = datapages::build(&options) {
        panic!("the site must build:\n{error}");
    }
    let text = std::fs::read_to_string(output.join("data/datasets/sample.croissant.json")).unwrap();
    let croissant: serde_json::Value = serde_json::from_str(&text).unwrap();
    let record_set = &croissant["recordSet"][0];
    let ids: Vec<&str> = record_set["field"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["@id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["sample/id", "sample/x%2F..%2Fid", "sample/..%2Fcols"]);
    // Resolved as IRIs (dot segments removed), each stays its own and none is the
    // RecordSet's or the file's.
    let base = "https://example.org/sub/data/datasets/";
    let resolved: std::collections::HashSet<String> = ids
        .iter()
        .map(|id| remove_dot_segments(&format!("{base}{id}")))
        .collect();
    assert_eq!(resolved.len(), 3);
    for taken in [record_set["@id"].as_str().unwrap(), "sample.csv"] {
        assert!(!resolved.contains(&remove_dot_segments(&format!("{base}{taken}"))));
    }
}

/// RFC 3986's remove_dot_segments on a whole address (enough for the paths above).
fn remove_dot_segments(address: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for segment in address.split('/') {
        match segment {
            "." => {}
            ".." => {
                out.pop();
            }
            s => out.push(s),
        }
    }
    out.join("/")
}
