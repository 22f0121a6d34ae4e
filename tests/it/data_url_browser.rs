//! A site with `data_url` served from two origins, as it is published (full tier): the
//! pages from one local host, the big files from another that allows other origins
//! (`Access-Control-Allow-Origin: *`, the CORS rule docs/publishing.md gives for a
//! bucket). In headless Chromium the explorer loads every row from the data host, and
//! the pages' host is never asked for a CSV; without the CORS rule the explorer says it
//! could not read the CSV instead of hanging. The Data Package, the CSVW table and the
//! Croissant file, read over HTTP from the pages' host, pass frictionless, csvwvalidate
//! and mlcroissant, which fetch the CSV from its absolute URL on the data host.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use sha2::{Digest, Sha256};

use crate::common;
use common::explorer::{count_text, group, settled, wait_for};
use common::static_host::StaticHost;
use common::webdriver::{self, Driver};

const ROWS: usize = 1_500;

/// The bundled test site of `data_url.rs` with `data_url` on `data`'s host and ROWS rows,
/// built into `<dir>/public` and `<dir>/public-data`.
fn build_two_origin_site(dir: &Path, data: &StaticHost) {
    let root = dir.join("site");
    crate::data_url::write_site(&root, Some(&data.origin_url()));
    let mut csv = String::from("label,value\n");
    for n in 1..=ROWS {
        csv.push_str(&format!("r{n},{}\n", n * 7 % 1000));
    }
    std::fs::write(root.join("data/datasets/sample.csv"), csv).unwrap();
    crate::data_url::build(&root, dir).unwrap_or_else(|e| panic!("{e}"));
}

fn is_big_file(path: &str) -> bool {
    path.ends_with(".csv") || path.ends_with(".parquet")
}

#[test]
#[ignore = "full tier: headless Chromium explores a CSV published on another origin"]
fn the_explorer_loads_every_row_from_the_data_host_and_says_so_when_cors_is_missing() {
    if !webdriver::browser_present() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = StaticHost::start(&dir.path().join("public-data"), true);
    let pages = StaticHost::start(&dir.path().join("public"), false);
    build_two_origin_site(dir.path(), &data);

    let driver = Driver::start();
    let session = driver.session(&[]);
    session.set_viewport(1280, 900);
    session.navigate(&pages.url("/datasets/sample/"));
    let download = session.execute(
        "return document.querySelector('.download a.button').href;",
        vec![],
    );
    let csv_url = data.url("/data/datasets/sample.csv");
    assert_eq!(download, serde_json::json!(csv_url));
    session.click(&session.find(".explore-start"));
    settled(&session, "the rows to load from the data host");
    assert_eq!(count_text(&session), format!("All {} rows", group(ROWS)));

    // The CSV came from the data host, asked by the pages' origin; the pages' host
    // served no big file.
    let asked: Vec<_> = data
        .seen()
        .into_iter()
        .filter(|r| is_big_file(&r.path))
        .collect();
    assert!(
        !asked.is_empty(),
        "the data host was never asked for the CSV"
    );
    let pages_origin = format!("http://127.0.0.1:{}", pages.port);
    for request in &asked {
        assert_eq!(request.path, "/data/datasets/sample.csv");
        assert_eq!(request.origin.as_deref(), Some(pages_origin.as_str()));
    }
    let served_here: Vec<_> = pages
        .seen()
        .into_iter()
        .filter(|r| is_big_file(&r.path))
        .collect();
    assert!(served_here.is_empty(), "{served_here:?}");
    // The file the data host serves is the one whose SHA-256 the page states.
    let (status, _, body) =
        common::server::raw_request(data.port, "GET", "/data/datasets/sample.csv");
    assert_eq!(status, 200);
    let sha: String = Sha256::digest(&body)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let stated = session.execute(
        "return document.querySelector('code.sha256').textContent;",
        vec![],
    );
    assert_eq!(stated, serde_json::json!(sha));

    // A bucket without the CORS rule: the explorer says it could not read the CSV.
    data.cors.store(false, std::sync::atomic::Ordering::SeqCst);
    session.navigate(&pages.url("/datasets/sample/?no-cors"));
    session.click(&session.find(".explore-start"));
    wait_for(
        &session,
        "var p = document.querySelector('#explore .explore-progress'); \
         return !!p && p.textContent.indexOf('could not read the CSV') !== -1;",
        Duration::from_secs(60),
        "the explorer to report the refused CSV",
    );
    let count = session.execute(
        "var c = document.querySelector('.explore-count'); return c ? c.textContent : '';",
        vec![],
    );
    assert!(!count.as_str().unwrap_or("").starts_with("All"), "{count}");
}

/// Runs one validator; its output when it fails.
fn validator(bin: &Path, tool: &str, args: &[&str]) -> Result<(), String> {
    let run = Command::new(bin.join(tool)).args(args).output().unwrap();
    match run.status.success() {
        true => Ok(()),
        false => Err(format!(
            "{tool} {args:?} failed:\n{}{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        )),
    }
}

#[test]
#[ignore = "full tier: frictionless, csvwvalidate and mlcroissant read metadata whose files are on another host"]
fn the_validators_pass_on_metadata_that_names_the_files_on_the_data_host() {
    let bin = common::bundled_site().join("target/validators-venv/bin");
    if !common::tool_present("frictionless", bin.join("frictionless").is_file()) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = StaticHost::start(&dir.path().join("public-data"), true);
    let pages = StaticHost::start(&dir.path().join("public"), false);
    build_two_origin_site(dir.path(), &data);
    let package = pages.url("/data/datasets/sample.json");
    let csvw = pages.url("/data/datasets/sample.csv-metadata.json");
    let croissant = pages.url("/data/datasets/sample.croissant.json");
    let mut failures = Vec::new();
    failures.extend(validator(&bin, "frictionless", &["validate", &package]).err());
    failures.extend(validator(&bin, "csvwvalidate", &[&csvw]).err());
    failures.extend(validator(&bin, "mlcroissant", &["validate", "--jsonld", &croissant]).err());
    // mlcroissant's records: every row, downloaded from the data host.
    let script = format!(
        "import mlcroissant as mlc\nprint(sum(1 for _ in mlc.Dataset({croissant:?}).records('sample')))"
    );
    let records = Command::new(bin.join("python"))
        .args(["-c", &script])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&records.stdout);
    if said.trim() != ROWS.to_string() {
        failures.push(format!(
            "mlcroissant loaded {said:?} records, not {ROWS}:\n{}",
            String::from_utf8_lossy(&records.stderr)
        ));
    }
    common::assert_no_failures(&failures);
    // Each validator read the CSV from the data host, never from the pages' host.
    let csv_reads = data
        .seen()
        .iter()
        .filter(|r| r.path == "/data/datasets/sample.csv")
        .count();
    assert!(
        csv_reads >= 3,
        "the data host served the CSV {csv_reads} times"
    );
    assert!(!pages.seen().iter().any(|r| is_big_file(&r.path)));
}
