//! The scan cache (`src/dataset/cache.rs`): an unchanged large CSV is not scanned again, and
//! the cache is never trusted when the file, its schema or the flags say otherwise.
//!
//! Whether a build used an entry is observed by editing the entry's row count: a build that
//! recalls it shows the edited count, a build that scans shows the file's.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Longer than the cache's settling time, so the files written before it are remembered.
const SETTLE: Duration = Duration::from_millis(2300);

const ROWS: u64 = 30_000;

fn write_site(root: &Path, v1_description: &str) {
    std::fs::create_dir_all(root.join("content/datasets")).unwrap();
    std::fs::create_dir_all(root.join("data/datasets")).unwrap();
    std::fs::write(
        root.join("site.toml"),
        "title = \"Cache\"\nbase_url = \"https://example.org/\"\n[author]\nname = \"Tester\"\n[license]\nname = \"CC0 1.0\"\n",
    )
    .unwrap();
    let front = format!(
        "title = \"Readings\"\nkicker = \"test\"\nheadline = \"Readings that fill a megabyte\"\nupdated = 2026-11-30\n\
         [[columns]]\nname = \"id\"\ntitle = \"Id\"\ntype = \"integer\"\ndescription = \"Row number.\"\nunique = true\n\
         [[columns]]\nname = \"v1\"\ntitle = \"Reading\"\ntype = \"number\"\ndescription = \"{v1_description}\"\n\
         [[columns]]\nname = \"note\"\ntitle = \"Note\"\ntype = \"string\"\ndescription = \"Padding text.\"\n"
    );
    std::fs::write(
        root.join("content/datasets/readings.md"),
        format!("+++\n{front}+++\n\nGenerated readings.\n\n## Method\n\nA loop.\n\n## Limits\n\nNone real.\n"),
    )
    .unwrap();
}

fn write_csv(root: &Path) -> PathBuf {
    let path = root.join("data/datasets/readings.csv");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    writeln!(out, "id,v1,note").unwrap();
    for i in 0..ROWS {
        writeln!(
            out,
            "{i},{}.{:02},padding text to make the file large enough",
            i % 977,
            i % 100
        )
        .unwrap();
    }
    out.flush().unwrap();
    drop(out);
    assert!(std::fs::metadata(&path).unwrap().len() > 1024 * 1024);
    path
}

fn build(root: &Path, output: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "build",
        "--root",
        root.to_str().unwrap(),
        "--output",
        output.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let _ = std::fs::remove_dir_all(output);
    common::run(&args)
}

/// The row count the page's download block shows.
fn shown_rows(output: &Path) -> String {
    let page = std::fs::read_to_string(output.join("datasets/readings/index.html")).unwrap();
    let at = page
        .find(" rows · ")
        .expect("the download block gives the row count");
    let start = page[..at].rfind(['>', ' ', '(']).map_or(0, |i| i + 1);
    page[start..at].to_string()
}

fn entries(root: &Path) -> Vec<PathBuf> {
    match std::fs::read_dir(root.join(".datapages-cache/scans")) {
        Ok(dir) => dir
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// Rewrites the one entry's row count, so that a build using it shows `rows`.
fn tamper_rows(root: &Path, rows: u64) {
    let found = entries(root);
    assert_eq!(found.len(), 1, "one entry: {found:?}");
    let mut entry: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&found[0]).unwrap()).unwrap();
    entry["summary"]["rows"] = serde_json::json!(rows);
    std::fs::write(&found[0], serde_json::to_vec(&entry).unwrap()).unwrap();
}

fn assert_ok(result: &std::process::Output) {
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
}

#[test]
fn unchanged_files_are_recalled_and_every_change_is_seen() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    let (out, cold) = (dir.path().join("out"), dir.path().join("cold"));
    write_site(&root, "A reading.");
    let csv = write_csv(&root);

    // A file written just now is scanned but not remembered (it could change again within
    // the file system's timestamp granularity).
    assert_ok(&build(&root, &out, &[]));
    assert!(entries(&root).is_empty(), "a fresh file is not cached");

    std::thread::sleep(SETTLE);
    assert_ok(&build(&root, &out, &[]));
    assert_eq!(entries(&root).len(), 1);
    assert_ok(&build(&root, &out, &[]));
    assert_ok(&build(&root, &cold, &["--no-cache"]));
    assert_eq!(
        common::tree_contents(&out),
        common::tree_contents(&cold),
        "a build from the cache writes exactly what a full scan writes"
    );
    assert_eq!(shown_rows(&out), "30,000");

    // The entry is used...
    tamper_rows(&root, 12_345);
    assert_ok(&build(&root, &out, &[]));
    assert_eq!(shown_rows(&out), "12,345", "the build recalled the entry");
    // ...but not with --no-cache, nor by `check --no-cache`.
    assert_ok(&build(&root, &cold, &["--no-cache"]));
    assert_eq!(shown_rows(&cold), "30,000");

    // A change to the schema is a miss.
    write_site(&root, "A reading, described differently.");
    assert_ok(&build(&root, &out, &[]));
    assert_eq!(shown_rows(&out), "30,000", "a schema change scans again");

    // An edit that keeps the size and puts the modification time back is still seen: the
    // status-change time moved. The new content's hash is published.
    std::thread::sleep(SETTLE);
    assert_ok(&build(&root, &out, &[]));
    tamper_rows(&root, 12_345);
    let modified = std::fs::metadata(&csv).unwrap().modified().unwrap();
    let mut bytes = std::fs::read(&csv).unwrap();
    let at = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
    assert_eq!(bytes[at], b'0');
    bytes[at] = b'7'; // id 0 becomes id 7, a duplicate of a later row
    std::fs::write(&csv, &bytes).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&csv)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    assert_eq!(
        std::fs::metadata(&csv).unwrap().modified().unwrap(),
        modified
    );
    let result = build(&root, &out, &[]);
    assert!(
        !result.status.success(),
        "the duplicate id is found: the file was scanned"
    );
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(stderr.contains("repeats the value \"7\""), "{stderr}");

    // A scan that found problems is never remembered, so they are reported every time.
    for path in entries(&root) {
        std::fs::remove_file(path).unwrap();
    }
    std::thread::sleep(SETTLE);
    let check = common::run(&["check", "--root", root.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(1));
    assert!(
        entries(&root).is_empty(),
        "a scan with errors is not cached"
    );
    let again = common::run(&["check", "--root", root.to_str().unwrap()]);
    assert_eq!(
        again.status.code(),
        Some(1),
        "the problem is reported again"
    );

    // Fixed, settled and remembered; then a damaged entry is only a miss.
    bytes[at] = b'0';
    std::fs::write(&csv, &bytes).unwrap();
    std::thread::sleep(SETTLE);
    assert_ok(&build(&root, &out, &[]));
    let found = entries(&root);
    assert_eq!(found.len(), 1);
    std::fs::write(&found[0], b"{ not json").unwrap();
    assert_ok(&build(&root, &out, &[]));
    assert_eq!(shown_rows(&out), "30,000");
    let digest = sha256_of_published(&out);
    assert_ok(&build(&root, &cold, &["--no-cache"]));
    assert_eq!(digest, sha256_of_published(&cold));
}

/// The `hash` the Data Package gives for the published CSV.
fn sha256_of_published(output: &Path) -> String {
    let text = std::fs::read_to_string(output.join("datasets/readings.json"))
        .or_else(|_| std::fs::read_to_string(output.join("data/datasets/readings.json")))
        .expect("the Data Package descriptor");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["resources"][0]["hash"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The cache folder and its entries are the site's own plain files: a symbolic link in
/// their place (committed in a pull request, say) could lead outside the site, so the cache
/// neither writes through it nor reads an entry through it.
#[cfg(unix)]
#[test]
fn the_cache_follows_no_symbolic_link() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    write_site(&root, "A reading.");
    write_csv(&root);
    std::thread::sleep(SETTLE);
    let output = dir.path().join("public");

    std::os::unix::fs::symlink(&outside, root.join(".datapages-cache")).unwrap();
    assert_ok(&build(&root, &output, &[]));
    assert_ok(&build(&root, &output, &[]));
    assert_eq!(
        std::fs::read_dir(&outside).unwrap().count(),
        0,
        "nothing is written through a linked cache folder"
    );

    // A real cache folder whose one entry is replaced by a link to a tampered copy.
    std::fs::remove_file(root.join(".datapages-cache")).unwrap();
    assert_ok(&build(&root, &output, &[]));
    tamper_rows(&root, 7);
    let entry = entries(&root).remove(0);
    let copy = outside.join("entry.json");
    std::fs::rename(&entry, &copy).unwrap();
    std::os::unix::fs::symlink(&copy, &entry).unwrap();
    assert_ok(&build(&root, &output, &[]));
    assert_eq!(
        shown_rows(&output),
        "30,000",
        "the linked entry was not read"
    );
}

/// Runs the binary in `cwd`.
fn run_in(cwd: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(common::binary())
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .expect("the datapages binary runs")
}

/// Every cache is keyed by resolved paths: after a build given the site's absolute path,
/// `check` takes the dataset from the build's record whether the root is absolute,
/// relative, `.` or left out (run inside the site), and builds into new output folders
/// under each spelling recall the scan (its entry's edited row count shows).
#[test]
fn every_spelling_of_the_root_finds_the_caches() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    write_site(&root, "A reading.");
    write_csv(&root);
    std::thread::sleep(SETTLE);
    let absolute = root.to_str().unwrap();
    assert_ok(&run_in(dir.path(), &["build", "--root", absolute]));
    assert_eq!(entries(&root).len(), 1);

    let spellings: [(&Path, &[&str]); 4] = [
        (dir.path(), &["--root", absolute]),
        (dir.path(), &["--root", "site"]),
        (&root, &["--root", "."]),
        (&root, &[]),
    ];
    for (cwd, root_args) in spellings {
        let check = run_in(cwd, &[&["check"], root_args].concat());
        assert_ok(&check);
        let stderr = String::from_utf8_lossy(&check.stderr);
        assert!(
            stderr.contains("1 dataset unchanged since the last build: checked from its records"),
            "check {root_args:?} in {cwd:?} did not use the build's record: {stderr}"
        );
    }

    tamper_rows(&root, 12_345);
    for (n, (cwd, root_args)) in spellings.into_iter().enumerate() {
        let output = dir.path().join(format!("out-{n}"));
        let output_arg = output.to_str().unwrap();
        let args = [&["build", "--output", output_arg], root_args].concat();
        assert_ok(&run_in(cwd, &args));
        assert_eq!(
            shown_rows(&output),
            "12,345",
            "build {root_args:?} in {cwd:?} did not recall the scan"
        );
    }
}
