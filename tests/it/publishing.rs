//! Publishing conveniences: `build --base-url` for deploy previews, `draft = true` datasets
//! (left out of `build` and `check` unless `--drafts`, built by `serve`), and `serve`
//! refusing a folder without site.toml.

use crate::common;

use std::path::Path;

use common::server::Server;

const DRAFT: &str = "storage-link-payload-ceilings";

/// The bundled site with one dataset, named in two others' `related`, marked a draft.
fn site_with_draft(root: &Path) {
    common::copy_bundled_site(root);
    let page = root.join(format!("content/datasets/{DRAFT}.md"));
    let text = std::fs::read_to_string(&page).unwrap();
    let text = text.replacen("+++\n", "+++\ndraft = true\n", 1);
    std::fs::write(&page, text).unwrap();
}

fn prose_links_it(path: &Path) -> bool {
    ["nvme-server-dd-fio", "sata-sas-nvme-measured-throughput"]
        .iter()
        .any(|slug| path.ends_with(format!("datasets/{slug}/index.html")))
}

fn all_text(dir: &Path) -> String {
    common::tree_contents(dir)
        .into_iter()
        .map(|(path, bytes)| format!("{}\n{}\n", path.display(), String::from_utf8_lossy(&bytes)))
        .collect()
}

#[test]
fn a_draft_is_left_out_of_build_everywhere_and_links_to_it_warn() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    site_with_draft(&root);
    let output = dir.path().join("out");
    let report = datapages::build(&datapages::BuildOptions::new(&root).output(&output))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.datasets, 3);
    assert!(!output.join("datasets").join(DRAFT).exists());
    // Listings, tag pages, feed, sitemap, catalogs, metadata: nowhere. (Two pages' prose
    // links to it by hand; those are the author's links, not generated ones.)
    let leaked: Vec<_> = common::tree_contents(&output)
        .into_iter()
        .filter(|(path, bytes)| {
            String::from_utf8_lossy(bytes).contains(DRAFT) && !prose_links_it(path)
        })
        .map(|(path, _)| path)
        .collect();
    assert!(leaked.is_empty(), "the draft's slug leaked into {leaked:?}");
    let related: Vec<(String, Option<u32>)> = report
        .warnings
        .items()
        .iter()
        .filter(|d| d.message.contains("a draft"))
        .map(|d| (d.file.display().to_string(), d.line))
        .collect();
    // Each page's `related` entry and its prose link to the draft's page, at their lines.
    let expected: Vec<(String, Option<u32>)> =
        ["nvme-server-dd-fio", "sata-sas-nvme-measured-throughput"]
            .iter()
            .flat_map(|slug| {
                let file = format!("content/datasets/{slug}.md");
                let text = std::fs::read_to_string(root.join(&file)).unwrap();
                let line_of = |start: &str, holding: &str| {
                    text.lines()
                        .position(|l| l.starts_with(start) && l.contains(holding))
                        .map(|i| i as u32 + 1)
                };
                [
                    (file.clone(), line_of("related = ", DRAFT)),
                    (file, line_of("", &format!("](../{DRAFT}/)"))),
                ]
            })
            .collect();
    assert!(
        expected.iter().all(|(_, line)| line.is_some()),
        "{expected:?}"
    );
    assert_eq!(related, expected);
    let checked = common::check_all(&root);
    assert_eq!(
        checked
            .items()
            .iter()
            .filter(|d| d.message.contains("a draft"))
            .count(),
        4
    );
}

#[test]
fn drafts_flag_builds_the_draft_and_a_broken_draft_does_not_stop_a_build() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    site_with_draft(&root);
    let output = dir.path().join("out");
    let options = datapages::BuildOptions::new(&root)
        .output(&output)
        .drafts(true);
    let report = datapages::build(&options).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.datasets, 4);
    assert!(output
        .join("datasets")
        .join(DRAFT)
        .join("index.html")
        .is_file());
    assert!(report
        .warnings
        .items()
        .iter()
        .all(|d| !d.message.contains("a draft")));
    // A draft's CSV errors are not the published site's errors (a published page quotes
    // one of its cells, which stays readable)...
    let csv = root.join(format!("data/datasets/{DRAFT}.csv"));
    let mut text = std::fs::read_to_string(&csv).unwrap();
    text.push_str("PCIe,9.0,not a number,GT/s,,,,,,\n");
    std::fs::write(&csv, text).unwrap();
    datapages::build(&datapages::BuildOptions::new(&root).output(&output))
        .unwrap_or_else(|e| panic!("{e}"));
    // ...but they are when the draft is built.
    assert!(datapages::build(&options).is_err());
}

#[test]
fn base_url_overrides_site_toml_and_is_checked_like_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    common::copy_bundled_site(&root);
    let output = dir.path().join("out");
    let out = common::run(&[
        "build",
        "--root",
        root.to_str().unwrap(),
        "--output",
        output.to_str().unwrap(),
        "--base-url",
        "https://preview.example.org/pr-7",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sitemap = std::fs::read_to_string(output.join("sitemap.xml")).unwrap();
    assert!(sitemap.contains("<loc>https://preview.example.org/pr-7/datasets/</loc>"));
    let site_toml = std::fs::read_to_string(root.join("site.toml")).unwrap();
    let configured = site_toml
        .lines()
        .find_map(|l| l.strip_prefix("base_url = \""))
        .and_then(|l| l.strip_suffix('"'))
        .unwrap();
    assert!(!all_text(&output).contains(configured));
    let out = common::run(&[
        "build",
        "--root",
        root.to_str().unwrap(),
        "--base-url",
        "javascript:alert(1)",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("`base_url` must be an absolute http(s) address"));
    let options = datapages::BuildOptions::new(&root)
        .output(&output)
        .base_url("/relative/");
    match datapages::build(&options) {
        Err(datapages::Error::Problems(d)) => {
            assert!(
                d.items().iter().any(|d| d.file == Path::new("--base-url")),
                "{d:?}"
            )
        }
        other => panic!("a relative --base-url must be refused: {other:?}"),
    }
}

#[test]
fn serve_builds_drafts() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    site_with_draft(&root);
    let server = Server::start(&root);
    let (status, _, _) = server.raw("GET", &format!("/datasets/{DRAFT}/"));
    assert_eq!(status, 200);
}

#[test]
fn serve_without_site_toml_refuses_to_start() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(common::binary())
        .current_dir(dir.path())
        .args(["serve", "--port", "0"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("holds no site.toml"), "{stderr}");
    assert!(stderr.contains("datapages init"), "{stderr}");
    assert!(!out.stdout.iter().any(|_| true), "nothing may be served");
}
