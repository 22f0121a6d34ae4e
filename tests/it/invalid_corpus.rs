//! Runs every case of `tests/fixtures/invalid/`: a small site with one kind of mistake and an
//! `expected.toml` naming the exit codes and the text (file:line:column, message, hint) the
//! user must see. For each case, `check` and `build` run as a user would run them; a failing
//! build must leave a previous `public/` byte-for-byte as it was, and nothing may panic.

use crate::common;

use std::path::{Path, PathBuf};

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expected {
    build_exit: i32,
    check_exit: i32,
    strict_exit: Option<i32>,
    messages: Vec<String>,
    /// Text `check --strict` must print besides (the warnings `check` only counts).
    #[serde(default)]
    strict_messages: Vec<String>,
    /// Text that must not be printed: follow-on errors, a correct link quoted instead of
    /// the bad one.
    #[serde(default)]
    absent: Vec<String>,
}

fn corpus() -> Vec<PathBuf> {
    let dir = common::bundled_site().join("tests/fixtures/invalid");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the invalid corpus exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.join("expected.toml").is_file())
        .collect();
    cases.sort();
    cases
}

/// A pre-existing output folder with known content, standing in for the last good build.
fn seed_public(public: &Path) {
    std::fs::create_dir_all(public.join("datasets/sample")).unwrap();
    std::fs::write(public.join("index.html"), "<p>previous build</p>").unwrap();
    std::fs::write(
        public.join("datasets/sample/index.html"),
        "<p>previous page</p>",
    )
    .unwrap();
    std::fs::write(public.join("removed-dataset.csv"), "a,b\n1,2\n").unwrap();
    // Datapages' own output carries its marker; without it a build refuses to replace it.
    std::fs::write(public.join(".datapages-output"), "previous build\n").unwrap();
}

fn stderr_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn assert_no_panic(case: &str, step: &str, output: &std::process::Output) {
    let stderr = stderr_of(output);
    assert!(
        !stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"),
        "{case}: {step} panicked:\n{stderr}"
    );
    assert!(
        output.status.code().is_some(),
        "{case}: {step} was killed by a signal"
    );
}

#[test]
fn every_invalid_case_reports_its_problem_and_loses_nothing() {
    let cases = corpus();
    assert!(cases.len() >= 40, "the corpus has {} cases", cases.len());
    let mut failures = Vec::new();
    for case_dir in &cases {
        let case = case_dir.file_name().unwrap().to_string_lossy().into_owned();
        let expected: Expected =
            toml::from_str(&std::fs::read_to_string(case_dir.join("expected.toml")).unwrap())
                .unwrap();
        let work = tempfile::tempdir().unwrap();
        common::copy_tree(case_dir, work.path());
        let root = work.path().to_str().unwrap();

        let sources_before = common::tree_contents(work.path());
        let check = common::run(&["check", "--root", root]);
        assert_no_panic(&case, "check", &check);
        let check_text = stderr_of(&check);
        if check.status.code() != Some(expected.check_exit) {
            failures.push(format!(
                "{case}: check exited {:?}, expected {}\n{check_text}",
                check.status.code(),
                expected.check_exit
            ));
        }
        for message in &expected.messages {
            if !check_text.contains(message.as_str()) {
                failures.push(format!(
                    "{case}: check output lacks {message:?}:\n{check_text}"
                ));
            }
        }
        for text in &expected.absent {
            if check_text.contains(text.as_str()) {
                failures.push(format!(
                    "{case}: check output has {text:?}, which it must not:\n{check_text}"
                ));
            }
        }
        if let Some(strict) = expected.strict_exit {
            let result = common::run(&["check", "--root", root, "--strict"]);
            assert_no_panic(&case, "check --strict", &result);
            if result.status.code() != Some(strict) {
                failures.push(format!(
                    "{case}: check --strict exited {:?}, expected {strict}",
                    result.status.code()
                ));
            }
            let strict_text = stderr_of(&result);
            for message in &expected.strict_messages {
                if !strict_text.contains(message.as_str()) {
                    failures.push(format!(
                        "{case}: check --strict output lacks {message:?}:\n{strict_text}"
                    ));
                }
            }
        }

        let public = work.path().join("public");
        seed_public(&public);
        let before = common::tree_contents(&public);
        let build = common::run(&["build", "--root", root]);
        assert_no_panic(&case, "build", &build);
        let build_text = stderr_of(&build);
        if build.status.code() != Some(expected.build_exit) {
            failures.push(format!(
                "{case}: build exited {:?}, expected {}\n{build_text}",
                build.status.code(),
                expected.build_exit
            ));
        }
        if expected.build_exit != 0 {
            if common::tree_contents(&public) != before {
                failures.push(format!("{case}: a failed build changed public/"));
            }
            for message in &expected.messages {
                if !build_text.contains(message.as_str()) {
                    failures.push(format!("{case}: build output lacks {message:?}"));
                }
            }
            if !build_text.contains("was left as it was") {
                failures.push(format!("{case}: build does not say the output was kept"));
            }
        } else if public.join("removed-dataset.csv").exists() {
            failures.push(format!("{case}: a successful build kept a stale file"));
        }
        let leftovers: Vec<String> = std::fs::read_dir(work.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("staging") || n.contains(".old-"))
            .collect();
        if !leftovers.is_empty() {
            failures.push(format!("{case}: leftover folders {leftovers:?}"));
        }
        let mut sources_after = common::tree_contents(work.path());
        // The output and datapages' own cache (the scan cache, the reuse manifest of a
        // successful build) are not sources.
        sources_after
            .retain(|(p, _)| !p.starts_with("public") && !p.starts_with(".datapages-cache"));
        if sources_after != sources_before {
            failures.push(format!("{case}: the source files were modified"));
        }
    }
    common::assert_no_failures(&failures);
}

#[test]
fn diagnostics_show_the_line_and_a_caret() {
    let case = common::bundled_site().join("tests/fixtures/invalid/type-integer");
    let result = common::run(&["check", "--root", case.to_str().unwrap()]);
    let text = stderr_of(&result);
    assert!(
        text.contains("error: `value` is declared integer, but \"20.5\" is not"),
        "{text}"
    );
    assert!(text.contains("--> data/datasets/sample.csv:3:6"), "{text}");
    assert!(text.contains("3 | beta,20.5,src-a"), "{text}");
    assert!(text.contains("  |      ^"), "{text}");
    assert!(text.contains("= hint: write a whole number"), "{text}");
    assert!(text.contains("1 error, 0 warnings in 1 file"), "{text}");
    assert!(!text.contains("\x1b["), "no colour when not on a terminal");
}

#[test]
fn the_bundled_site_checks_clean() {
    let result = common::run(&[
        "check",
        "--root",
        common::bundled_site().to_str().unwrap(),
        "--strict",
    ]);
    assert_eq!(result.status.code(), Some(0), "{}", stderr_of(&result));
    assert_eq!(
        String::from_utf8_lossy(&result.stdout).trim(),
        "No problems found."
    );
}

#[test]
fn usage_errors_exit_with_2() {
    let result = common::run(&["check", "--no-such-flag"]);
    assert_eq!(result.status.code(), Some(2));
    let result = common::run(&["frobnicate"]);
    assert_eq!(result.status.code(), Some(2));
}

#[test]
fn quirky_but_valid_csv_builds() {
    let dir = tempfile::tempdir().unwrap();
    common::write_small_site(
        dir.path(),
        common::SMALL_FRONT,
        common::SMALL_BODY,
        b"\xef\xbb\xbflabel,value\r\n\"a, \"\"quoted\"\"\nlabel\",10366\r\n<script>alert(1)</script>,\r\n",
    );
    let result = common::run(&["build", "--root", dir.path().to_str().unwrap()]);
    assert!(result.status.success(), "{}", stderr_of(&result));
    let page =
        std::fs::read_to_string(dir.path().join("public/datasets/sample/index.html")).unwrap();
    assert!(
        page.contains("<td>a, &quot;quoted&quot;\nlabel</td><td>10,366</td>"),
        "{page}"
    );
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!page.contains("<script>alert"));
    let download = std::fs::read(dir.path().join("public/data/datasets/sample.csv")).unwrap();
    assert!(
        download.starts_with(b"\xef\xbb\xbf"),
        "the download keeps the file byte for byte"
    );
}
