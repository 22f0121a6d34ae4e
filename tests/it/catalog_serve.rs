//! `serve`'s incremental rebuilds on paginated listings: an edit reaches the page of All
//! datasets and of the tag it appears on, and pages a shorter listing no longer has go
//! (child sitemaps too); a dataset slug `page` would take a listing page's folder.

use std::path::Path;

use datapages::{BuildOptions, Change, Session};

fn write_dataset(root: &Path, n: usize, title: &str) {
    let front = format!(
        "title = \"{title}\"\nkicker = \"k\"\nheadline = \"h\"\ntags = [\"Shared\"]\nupdated = 2020-01-{:02}\n[[sources]]\nid = \"s\"\ntitle = \"S\"\n[[columns]]\nname = \"v\"\ntitle = \"V\"\ntype = \"integer\"\ndescription = \"A value.\"\n",
        n + 1
    );
    std::fs::write(
        root.join(format!("content/datasets/d{n}.md")),
        format!("+++\n{front}+++\n\nA lede from [S](#source-s).\n\n## Method\n\nM.\n\n## Limits\n\nL.\n"),
    )
    .unwrap();
    std::fs::write(root.join(format!("data/datasets/d{n}.csv")), b"v\n1\n").unwrap();
}

/// The folders and site.toml, with `settings` at the top level.
fn write_site(root: &Path, settings: &str) {
    std::fs::create_dir_all(root.join("content/datasets")).unwrap();
    std::fs::create_dir_all(root.join("data/datasets")).unwrap();
    std::fs::write(
        root.join("site.toml"),
        format!("title = \"T\"\nbase_url = \"https://example.org/\"\n{settings}[author]\nname = \"A\"\n[license]\nname = \"CC0 1.0\"\n"),
    )
    .unwrap();
}

#[test]
fn edits_reach_paginated_listings_and_shorter_listings_lose_pages() {
    let site = tempfile::tempdir().unwrap();
    let root = site.path();
    write_site(root, "paginate_by = 2\n_sitemap_urls = 10\n");
    for n in 0..5 {
        write_dataset(root, n, &format!("Set {n}"));
    }
    let mut session = match Session::start(&BuildOptions::new(root), |s| s.commit()) {
        Ok((session, _)) => session,
        Err(d) => panic!("{}", d.render(false)),
    };
    let out = root.join("public");
    let read = |p: &str| std::fs::read_to_string(out.join(p)).unwrap();
    // Newest first: d4 d3 | d2 d1 | d0.
    assert!(read("datasets/page/3/index.html").contains("Set 0"));
    assert!(read("tags/shared/page/3/index.html").contains("Set 0"));
    // 12 URLs (home, 3 + 3 listing pages, 5 datasets) over a limit of 10: an index.
    assert!(read("sitemap.xml").contains("<sitemapindex"));
    assert!(out.join("sitemap-2.xml").is_file());

    write_dataset(root, 0, "Renamed zero");
    session
        .rebuild([Change::Dataset("d0".into())], |s| s.commit())
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    assert!(read("datasets/page/3/index.html").contains("Renamed zero"));
    assert!(read("tags/shared/page/3/index.html").contains("Renamed zero"));

    std::fs::remove_file(root.join("content/datasets/d0.md")).unwrap();
    std::fs::remove_file(root.join("data/datasets/d0.csv")).unwrap();
    session
        .rebuild([Change::Dataset("d0".into())], |s| s.commit())
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    assert!(!out.join("datasets/page/3").exists());
    assert!(!out.join("tags/shared/page/3").exists());
    assert!(read("datasets/page/2/index.html").contains("Set 1"));
    assert!(!read("datasets/page/2/index.html").contains("rel=\"next\""));
    // 9 URLs now: one sitemap, and the children of the index are gone.
    assert!(read("sitemap.xml").contains("<urlset"));
    assert!(!out.join("sitemap-1.xml").exists());
    assert!(!out.join("sitemap-2.xml").exists());
}

#[test]
fn a_dataset_slug_page_is_refused_at_its_file() {
    let site = tempfile::tempdir().unwrap();
    let root = site.path();
    write_site(root, "");
    write_dataset(root, 0, "Set 0");
    std::fs::rename(
        root.join("content/datasets/d0.md"),
        root.join("content/datasets/page.md"),
    )
    .unwrap();
    std::fs::rename(
        root.join("data/datasets/d0.csv"),
        root.join("data/datasets/page.csv"),
    )
    .unwrap();
    let problems = match datapages::check(&BuildOptions::new(root)) {
        Err(datapages::Error::Problems(problems)) => problems,
        other => panic!("a dataset named `page` must be refused: {other:?}"),
    };
    let refusal = problems
        .into_iter()
        .find(|d| d.message.contains("slug `page`"))
        .expect("the refusal");
    assert_eq!(refusal.file, Path::new("content/datasets/page.md"));
    assert!(refusal.hint.is_some_and(|h| h.contains("rename the file")));
}
