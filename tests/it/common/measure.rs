//! One run of the binary with what it cost: peak resident memory and CPU time, as the
//! kernel accounts them for that one process (GNU time reads them), never a wall clock.

use std::path::Path;
use std::process::{Command, Stdio};

/// What a run printed and cost.
#[derive(Debug)]
pub struct Measured {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Peak resident set, KiB.
    pub peak_rss_kib: i64,
    /// User and system CPU time, milliseconds.
    pub cpu_ms: i64,
}

/// GNU time, which forks the measured process from its own small one: the kernel counts
/// a child's peak memory from the memory of the process it was forked from, so a test
/// process that holds a hundred megabytes cannot measure its child directly.
const TIME: &str = "/usr/bin/time";

/// Whether runs can be measured (GNU time is there); when not, the test prints
/// "skipped" and passes, except under `CI=true`.
pub fn can_measure() -> bool {
    super::tool_present("GNU time (/usr/bin/time)", Path::new(TIME).is_file())
}

/// Runs `datapages ARGS` in `dir` and measures it.
pub fn run_measured(dir: &Path, args: &[&str]) -> Measured {
    let report = tempfile::NamedTempFile::new().expect("a temporary file");
    let output = Command::new(TIME)
        .arg("--format=%M %U %S")
        .arg("--output")
        .arg(report.path())
        .arg(super::binary())
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("GNU time runs");
    let report = std::fs::read_to_string(report.path()).expect("GNU time's report");
    // The last line: a killed child makes GNU time write a line of its own before it.
    let fields: Vec<f64> = report
        .lines()
        .last()
        .unwrap_or_default()
        .split(' ')
        .map(|f| f.parse().expect("a number"))
        .collect();
    let code = output.status.code();
    Measured {
        code,
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        peak_rss_kib: fields[0] as i64,
        cpu_ms: ((fields[1] + fields[2]) * 1000.0).round() as i64,
    }
}

/// Asserts that `large`, whose input is `factor` times `small`'s, cost at most
/// `factor` times as much plus a margin (linear growth), in memory and in CPU time:
/// quadratic work shows as `factor` squared.
pub fn assert_linear(what: &str, small: &Measured, large: &Measured, factor: i64) {
    let rss_bound = factor * small.peak_rss_kib + 32 * 1024;
    let cpu_bound = 2 * factor * small.cpu_ms + 1000;
    println!(
        "{what}: {} KiB, {} ms CPU at 1x; {} KiB, {} ms CPU at {factor}x (bounds {rss_bound} KiB, {cpu_bound} ms)",
        small.peak_rss_kib, small.cpu_ms, large.peak_rss_kib, large.cpu_ms
    );
    assert!(
        large.peak_rss_kib <= rss_bound,
        "{what}: peak memory grew faster than the input: {} KiB at 1x, {} KiB at {factor}x",
        small.peak_rss_kib,
        large.peak_rss_kib
    );
    assert!(
        large.cpu_ms <= cpu_bound,
        "{what}: CPU time grew faster than the input: {} ms at 1x, {} ms at {factor}x",
        small.cpu_ms,
        large.cpu_ms
    );
}

/// Builds `small` (10,000 or 200,000 rows) and `large` (1,000,000 rows), each measured as
/// its own process; asserts that the large build's peak memory stays within twice the
/// small one's (flat in the row count) and returns what the large build printed.
pub fn build_flat_in_rows(small: &Path, large: &Path) -> String {
    let build = |root: &Path| {
        let run = run_measured(root, &["build", "--root", root.to_str().expect("UTF-8")]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        run
    };
    let small_rss = build(small).peak_rss_kib;
    let large = build(large);
    let peak_rss = large.peak_rss_kib;
    assert!(
        peak_rss <= 2 * small_rss,
        "peak RSS grew with rows: {small_rss} KiB for the small site, {peak_rss} KiB at 1,000,000 rows"
    );
    eprintln!("peak RSS: {small_rss} KiB for the small site; {peak_rss} KiB at 1,000,000 rows");
    large.stdout
}
