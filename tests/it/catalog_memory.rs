//! Memory that grows far less than the catalog: the `datapages build` binary's peak
//! resident memory on 10,000 small datasets stays within [`BOUND_TENTHS`] tenths of its
//! peak on 1,000. Each dataset's files are written as soon as it is loaded; its catalog
//! entry (what listings, feeds and catalogs read of it) goes to the build's temporary file,
//! and memory keeps only its listing (`site::datasets`). History of the bound: git log of
//! this file.

use std::path::Path;
use std::process::Command;

use crate::common;

/// How many times the peak at 1,000 datasets the peak at 10,000 may be, in tenths (x1.5:
/// measured x1.30 in the test profile and x1.40-1.47 in release on two cores while the
/// entries are kept in the temporary file; x2.3 with the entries in memory, x1.72 and x1.86
/// when each was a `Dataset` without its rows in memory; more threads raise both peaks alike).
const BOUND_TENTHS: i64 = 15;

/// Peak resident memory of one `datapages build` of `root`, in KiB, from the kernel's own
/// count for that child (wait4), not from sampling.
#[allow(clippy::zombie_processes)] // reaped by wait4, which also returns its usage
fn build_peak_kib(root: &Path) -> i64 {
    let output = root.join("public");
    let child = Command::new(common::binary())
        .arg("build")
        .arg("--root")
        .arg(root)
        .arg("--output")
        .arg(&output)
        .arg("--no-cache")
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("the datapages binary runs");
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value to be filled in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, with valid pointers to the status and usage.
    let waited = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(waited, child.id() as i32, "wait4 failed");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "the build of {} failed",
        root.display()
    );
    assert!(output.join("datasets/set-00000/index.html").is_file());
    usage.ru_maxrss
}

/// The generated catalog of 10,000 datasets, each with the front matter `front` gives it.
fn ten_thousand_datasets_with(front: impl Fn(usize) -> String) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::catalog::write_catalog(dir.path(), 10_000, "");
    for n in 0..10_000 {
        common::catalog::write_dataset(dir.path(), n, &front(n), &format!("v\n{n}\n"));
    }
    dir
}

#[test]
#[ignore = "full tier: peak memory of builds of 10,000 datasets, against 1,000 or another 10,000"]
fn peak_memory_at_ten_thousand_datasets_stays_within_a_bound_of_that_at_one_thousand() {
    let small = tempfile::tempdir().unwrap();
    let large = tempfile::tempdir().unwrap();
    common::catalog::write_catalog(small.path(), 1_000, "");
    common::catalog::write_catalog(large.path(), 10_000, "");
    let small_kib = build_peak_kib(small.path());
    let large_kib = build_peak_kib(large.path());
    println!("peak RSS: {small_kib} KiB at N=1,000, {large_kib} KiB at N=10,000");
    assert!(
        large_kib * 10 <= BOUND_TENTHS * small_kib,
        "peak RSS grows with the catalog: {small_kib} KiB at N=1,000, {large_kib} KiB at N=10,000"
    );
}

/// Datasets that list others under `related` (their pages show the others' titles, read
/// from their front matter while the datasets load) do not make memory grow either: each
/// one is written as soon as it is loaded and its entry kept in the temporary file like
/// the others. Holding them whole until every title was known took x6.5 the memory of the same catalog without
/// `related` at N=10,000 (350 against 55 MiB on the benchmark workload); holding their
/// entries in memory while the others were stored took x1.53 (35.3 against 23.0 MiB
/// in the test profile), reading all of them back at once for the `related` check too.
/// Now x1.03; the bound is x1.2.
#[test]
#[ignore = "full tier: peak memory of builds of 10,000 datasets, against 1,000 or another 10,000"]
fn a_catalog_whose_datasets_all_list_related_ones_keeps_memory_flat_too() {
    let plain = tempfile::tempdir().unwrap();
    common::catalog::write_catalog(plain.path(), 10_000, "");
    let related = ten_thousand_datasets_with(|n| {
        format!(
            "related = [\"{}\"]\n{}",
            common::catalog::slug((n + 1) % 10_000),
            common::catalog::front_matter(n)
        )
    });
    let plain_kib = build_peak_kib(plain.path());
    let related_kib = build_peak_kib(related.path());
    println!("peak RSS at N=10,000: {plain_kib} KiB, {related_kib} KiB with `related`");
    assert!(
        related_kib * 10 <= 12 * plain_kib,
        "datasets with `related` entries make memory grow: {related_kib} KiB against {plain_kib} KiB"
    );
    let page = std::fs::read_to_string(related.path().join("public/datasets/set-00007/index.html"));
    assert!(
        page.unwrap().contains("Set 8"),
        "set 7's page shows set 8's title"
    );
}

/// A catalog imported without dates warns in every dataset; `build` shows three places of
/// each warning and counts the rest, and holds no more than it shows. Keeping every
/// warning to the end took 8 of 57 MiB at N=10,000 on the benchmark workload (two
/// warnings per dataset); on this catalog, x1.24 the peak of the same catalog without
/// warnings. Now x1.02-1.04 on a quiet machine and up to x1.06 on a busy one: the two
/// catalogs keep slightly different texts (a longer kicker, a description), and the quiet
/// one, which has dates, lost 1 MiB when listings stopped formatting dates to sort them.
/// The bound, x1.10, still fails the build that kept every warning.
#[test]
#[ignore = "full tier: peak memory of builds of 10,000 datasets, against 1,000 or another 10,000"]
fn a_catalog_that_warns_in_every_dataset_keeps_memory_flat_too() {
    let quiet = tempfile::tempdir().unwrap();
    common::catalog::write_catalog(quiet.path(), 10_000, "");
    // Three warnings, as an imported catalog has: no date, a description too short for
    // search engines, a kicker still to write.
    let warning = ten_thousand_datasets_with(|n| {
        common::catalog::front_matter(n)
            .lines()
            .filter(|line| !line.starts_with("updated"))
            .map(|line| match line.starts_with("kicker") {
                true => "kicker = \"TODO: say where it comes from\"\ndescription = \"Short.\"\n"
                    .to_string(),
                false => format!("{line}\n"),
            })
            .collect::<String>()
    });
    let quiet_kib = build_peak_kib(quiet.path());
    let warning_kib = build_peak_kib(warning.path());
    println!("peak RSS at N=10,000: {quiet_kib} KiB, {warning_kib} KiB warning in every dataset");
    assert!(
        warning_kib * 100 <= 110 * quiet_kib,
        "a warning per dataset makes memory grow: {warning_kib} KiB against {quiet_kib} KiB"
    );
    // The build says so once, and counts the rest.
    let output = Command::new(common::binary())
        .args(["build", "--root"])
        .arg(warning.path())
        .env("NO_COLOR", "1")
        .output()
        .expect("the datapages binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(
        stderr.matches("has no `updated` or `created` date").count(),
        3 + 1,
        "{stderr}"
    );
    assert!(
        stderr.contains("0 errors, 30000 warnings in 10000 files"),
        "{stderr}"
    );
}

/// What `build` writes from catalog entries (listings, feed, sitemap, catalog.json, DCAT,
/// and the pages of datasets with `related` entries, written last) is byte for byte what
/// a session that keeps every dataset whole (`serve`'s) writes.
#[test]
fn entries_write_exactly_what_whole_datasets_write() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    common::copy_bundled_site(&root);
    let whole = dir.path().join("whole");
    let entries = dir.path().join("entries");
    let options = |output: &Path| {
        datapages::BuildOptions::new(&root)
            .output(output)
            .scan_cache(false)
            .date("2026-01-02")
    };
    if let Err(error) = datapages::Session::start(&options(&whole), |s| s.commit()) {
        panic!("the session must build:\n{error}");
    }
    if let Err(error) = datapages::build(&options(&entries)) {
        panic!("the bundled site must build:\n{error}");
    }
    let (whole, entries) = (
        common::tree_contents(&whole),
        common::tree_contents(&entries),
    );
    assert_eq!(whole.len(), entries.len());
    for ((a_path, a), (b_path, b)) in whole.iter().zip(&entries) {
        assert_eq!(a_path, b_path);
        assert!(a == b, "{} differs", a_path.display());
    }
}
