//! `serve`'s incremental rebuilds on paginated listings: an edit reaches the page of All
//! datasets and of the tag it appears on, and pages a shorter listing no longer has go.

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

#[test]
fn edits_reach_paginated_listings_and_shorter_listings_lose_pages() {
    let site = tempfile::tempdir().unwrap();
    let root = site.path();
    std::fs::create_dir_all(root.join("content/datasets")).unwrap();
    std::fs::create_dir_all(root.join("data/datasets")).unwrap();
    std::fs::write(
        root.join("site.toml"),
        "title = \"T\"\nbase_url = \"https://example.org/\"\npaginate_by = 2\n[author]\nname = \"A\"\n[license]\nname = \"CC0 1.0\"\n",
    )
    .unwrap();
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
}
