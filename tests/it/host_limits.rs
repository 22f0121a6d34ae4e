//! The host report (#50 item 5): `build` ends with the output's files, bytes and largest
//! file; `check` warns, at the dataset's Markdown file and with what to do, where a file
//! breaks a host's per-file limit (Cloudflare Pages' 25 MiB), before any build (from the
//! CSV's size) and after one (from the output folder); a site within every limit gets no
//! such warning.

use crate::common;

use std::path::Path;

/// A site whose one dataset's CSV is `rows` rows of about 100 bytes.
fn site(root: &Path, rows: usize) {
    let row = format!("{},1\n", "x".repeat(97));
    let mut csv = String::from("label,value\n");
    csv.push_str(&row.repeat(rows));
    common::write_small_site(
        root,
        common::SMALL_FRONT,
        common::SMALL_BODY,
        csv.as_bytes(),
    );
}

fn check(root: &Path) -> String {
    let result = common::run(&["check", "--root", root.to_str().unwrap()]);
    assert!(result.status.success());
    String::from_utf8_lossy(&result.stderr).into_owned()
}

#[test]
fn a_file_over_a_hosts_limit_is_named_by_build_and_check() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // 27 MiB of CSV: over Cloudflare Pages' 25 MiB, under GitHub Pages' 100 MiB.
    site(root, 27 * 1024 * 1024 / 100);
    let warning =
        "public/data/datasets/sample.csv is 28.3 MB: over Cloudflare Pages' 25 MiB per file";
    let before = check(root);
    assert!(before.contains(warning), "{before}");
    assert!(
        before.contains("--> content/datasets/sample.md"),
        "{before}"
    );
    assert!(
        before.contains("split the table into smaller datasets"),
        "{before}"
    );
    assert!(!before.contains("GitHub Pages' 100 MiB"), "{before}");

    let built = common::build_root(root);
    assert!(
        built.contains("Output: ")
            && built.contains("; largest data/datasets/sample.csv (28.3 MB)"),
        "{built}"
    );
    assert!(
        built.contains(
            "Over Cloudflare Pages' 25 MiB per file (1 file); `datapages check` names the files"
        ),
        "{built}"
    );
    // After the build the output itself is measured: the same one warning for the file.
    let after = check(root);
    assert_eq!(after.matches(warning).count(), 1, "{after}");
}

#[test]
fn a_site_within_every_limit_gets_no_host_warning() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    site(root, 1_000);
    let built = common::build_root(root);
    let files = walk(&root.join("public"));
    let bytes: u64 = files.iter().sum();
    assert!(
        built.contains(&format!("Output: {} files, ", files.len())),
        "{built} ({} files, {bytes} bytes)",
        files.len()
    );
    assert!(!built.contains("Over "), "{built}");
    assert!(!check(root).contains("Pages'"));
}

fn walk(dir: &Path) -> Vec<u64> {
    let mut sizes = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            sizes.extend(walk(&entry.path()));
        } else {
            sizes.push(entry.metadata().unwrap().len());
        }
    }
    sizes
}
