//! A catalog of 10,000 datasets (one tiny row each, built in-process in seconds): no listing
//! page over 500 kB, every dataset reachable from All datasets' pages, the feed of the
//! configured length, and a sitemap index (the URL limit lowered through the hidden
//! `_sitemap_urls` setting, so that 10,000 datasets pass it as 60,000 URLs would pass the
//! protocol's 50,000) whose children are all listed and whose every URL is a file.

use std::collections::BTreeSet;
use std::path::Path;

use crate::common;

const DATASETS: usize = 10_000;
const PAGE_LIMIT: u64 = 500_000;
use common::catalog::{write_catalog, BASE};

fn build(root: &Path) -> std::path::PathBuf {
    let output = root.join("public");
    let options = datapages::BuildOptions::new(root)
        .output(&output)
        .scan_cache(false);
    if let Err(error) = datapages::build(&options) {
        panic!("the catalog must build:\n{error}");
    }
    output
}

fn html_files(output: &Path) -> Vec<std::path::PathBuf> {
    walkdir::WalkDir::new(output)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "html"))
        .map(|e| e.into_path())
        .collect()
}

/// Every `<loc>` of an XML file.
fn locs(xml: &str) -> Vec<String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut out = Vec::new();
    let mut in_loc = false;
    loop {
        match reader.read_event().unwrap() {
            quick_xml::events::Event::Start(e) if e.name().as_ref() == b"loc" => in_loc = true,
            quick_xml::events::Event::End(e) if e.name().as_ref() == b"loc" => in_loc = false,
            quick_xml::events::Event::Text(t) if in_loc => {
                out.push(t.unescape().unwrap().into_owned())
            }
            quick_xml::events::Event::Eof => break,
            _ => {}
        }
    }
    out
}

fn root_element(xml: &str) -> String {
    let mut reader = quick_xml::Reader::from_str(xml);
    loop {
        match reader.read_event().unwrap() {
            quick_xml::events::Event::Start(e) => {
                return String::from_utf8(e.name().as_ref().to_vec()).unwrap()
            }
            quick_xml::events::Event::Eof => panic!("no root element"),
            _ => {}
        }
    }
}

/// The output file a sitemap URL names.
fn file_of(output: &Path, url: &str) -> std::path::PathBuf {
    let relative = url.strip_prefix(BASE).unwrap_or_else(|| panic!("{url}"));
    if relative.is_empty() || relative.ends_with('/') {
        output.join(relative).join("index.html")
    } else {
        output.join(relative)
    }
}

#[test]
#[ignore = "full tier: builds and checks a catalog of 10,000 datasets"]
fn ten_thousand_datasets_make_bounded_pages_a_short_feed_and_a_sitemap_index() {
    let dir = tempfile::tempdir().unwrap();
    write_catalog(
        dir.path(),
        DATASETS,
        "feed_entries = 30\n_sitemap_urls = 4000\n",
    );
    let output = build(dir.path());

    // No page over 500 kB.
    let pages = html_files(&output);
    for page in &pages {
        let size = std::fs::metadata(page).unwrap().len();
        assert!(size <= PAGE_LIMIT, "{} is {size} bytes", page.display());
    }

    // Every dataset is reachable from All datasets by following rel="next".
    let link = scraper::Selector::parse(".dataset-list .item-title a").unwrap();
    let next = scraper::Selector::parse("a[rel=next]").unwrap();
    let mut reached = BTreeSet::new();
    let mut folder = String::from("datasets/");
    let mut listing_pages = 0;
    loop {
        let html = std::fs::read_to_string(output.join(&folder).join("index.html")).unwrap();
        let doc = scraper::Html::parse_document(&html);
        for a in doc.select(&link) {
            let href = a.value().attr("href").unwrap();
            reached.insert(href.rsplit('/').nth(1).unwrap().to_string());
        }
        listing_pages += 1;
        let Some(a) = doc.select(&next).next() else {
            break;
        };
        let href = a.value().attr("href").unwrap();
        // Links are relative to the page's folder.
        let depth = folder.matches('/').count();
        let target = href.strip_prefix(&"../".repeat(depth)).unwrap();
        folder = target.to_string();
    }
    assert_eq!(listing_pages, 100, "100 datasets a page by default");
    let all: BTreeSet<String> = (0..DATASETS).map(|n| format!("set-{n:05}")).collect();
    assert_eq!(reached, all);
    // The home page shows the latest 20; the search index holds them all.
    let home =
        scraper::Html::parse_document(&std::fs::read_to_string(output.join("index.html")).unwrap());
    assert_eq!(home.select(&link).count(), 20);
    // The split search index: its docs files list them all, and no file a page loads
    // (the index's files, pages, scripts, style) is over 1 MB (#50 item 3).
    let mut listed = 0;
    for entry in std::fs::read_dir(output.join("data/search")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("docs-") {
            let docs: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            listed += docs.as_array().unwrap().len();
        }
    }
    assert_eq!(listed, DATASETS);
    let mut loaded = html_files(&output);
    loaded.extend(
        std::fs::read_dir(output.join("data/search"))
            .unwrap()
            .map(|e| e.unwrap().path()),
    );
    loaded.extend(["listing.js", "explore.js", "table.js", "style.css"].map(|f| output.join(f)));
    for path in loaded {
        let size = std::fs::metadata(&path).unwrap().len();
        assert!(size <= 1_000_000, "{} is {size} bytes", path.display());
    }
    let catalog: serde_json::Value =
        serde_json::from_slice(&std::fs::read(output.join("data/catalog.json")).unwrap()).unwrap();
    assert_eq!(catalog["datasets"].as_array().unwrap().len(), DATASETS);

    // The DCAT catalog comes in pages of 1,000 datasets, each page bounded (harvesters
    // follow their Hydra links; tests/it/harvest.rs walks them with rdflib).
    let mut in_catalog = 0;
    for page in 1..=10 {
        let path = match page {
            1 => output.join("data/catalog.ttl"),
            n => output.join(format!("data/catalog/{n}.ttl")),
        };
        let ttl = std::fs::read_to_string(&path).unwrap();
        assert!(
            ttl.len() < 10_000_000,
            "{} is {} bytes",
            path.display(),
            ttl.len()
        );
        in_catalog += ttl.matches("\n    a dcat:Dataset ;").count();
    }
    assert_eq!(in_catalog, DATASETS);
    assert!(!output.join("data/catalog/11.ttl").exists());

    // The feed holds the configured number of entries.
    let feed = std::fs::read_to_string(output.join("feed.xml")).unwrap();
    assert_eq!(feed.matches("<entry>").count(), 30);
    // They are the newest 30, newest first, ties by slug; the home page shows the newest
    // 20 in listing order (ties by title, then slug). Worked out from the dates
    // `write_catalog` gives, not from the build.
    let date = |n: usize| (2000 + n % 25, 1 + n % 12, 1 + n % 28);
    let mut by_date: Vec<usize> = (0..DATASETS).collect();
    by_date.sort_by(|&a, &b| date(b).cmp(&date(a)).then(a.cmp(&b)));
    let slug = |n: &usize| format!("set-{n:05}");
    let expected: Vec<String> = by_date[..30].iter().map(slug).collect();
    let in_feed: Vec<String> = feed
        .split("<entry>")
        .skip(1)
        .map(|entry| {
            let id = entry.split("<id>").nth(1).unwrap().split("</id>").next();
            id.unwrap()
                .trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(in_feed, expected);
    // The home page lists in the same order: titles read "Set 9" before "Set 10".
    let on_home: Vec<String> = home
        .select(&link)
        .map(|a| {
            a.value()
                .attr("href")
                .unwrap()
                .rsplit('/')
                .nth(1)
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(on_home, by_date[..20].iter().map(slug).collect::<Vec<_>>());

    // The sitemap is an index; every child is listed and exists; every URL is a file, and
    // the URLs cover every page.
    let index = std::fs::read_to_string(output.join("sitemap.xml")).unwrap();
    assert_eq!(root_element(&index), "sitemapindex");
    let children = locs(&index);
    let on_disk: BTreeSet<String> = std::fs::read_dir(&output)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("sitemap-"))
        .collect();
    let listed: BTreeSet<String> = children
        .iter()
        .map(|u| u.strip_prefix(BASE).unwrap().to_string())
        .collect();
    assert_eq!(listed, on_disk);
    assert!(children.len() >= 3, "{children:?}");
    let mut urls = BTreeSet::new();
    for child in &children {
        let xml = std::fs::read_to_string(file_of(&output, child)).unwrap();
        assert_eq!(root_element(&xml), "urlset");
        let found = locs(&xml);
        assert!(found.len() <= 4000);
        for url in found {
            assert!(file_of(&output, &url).is_file(), "{url} is not a file");
            assert!(urls.insert(url.clone()), "{url} listed twice");
        }
    }
    let expected: BTreeSet<String> = pages
        .iter()
        .filter(|p| !p.ends_with("404.html"))
        .map(|p| {
            let relative = p
                .strip_prefix(&output)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            format!("{BASE}{}", relative.trim_end_matches("index.html"))
        })
        .collect();
    assert_eq!(urls, expected);
}

/// A warning every dataset shares is shown in full at its first places by `build`, the
/// rest counted on one line; `check` lists every one.
#[test]
fn a_warning_every_dataset_shares_is_folded_by_build_and_listed_by_check() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    let datasets = 40;
    write_catalog(&root, datasets, "");
    for n in 0..datasets {
        let undated: String = common::catalog::front_matter(n)
            .lines()
            .filter(|line| !line.starts_with("updated"))
            .map(|line| format!("{line}\n"))
            .collect();
        common::catalog::write_dataset(&root, n, &undated, &format!("v\n{n}\n"));
    }
    // One dataset with a warning of its own, last in file order.
    let last = root.join(format!(
        "content/datasets/{}.md",
        common::catalog::slug(datasets - 1)
    ));
    let text = std::fs::read_to_string(&last).unwrap();
    std::fs::write(&last, text.replace("\n## Limits\n\nL.\n", "\n")).unwrap();
    let root_arg = root.to_str().unwrap();
    let output = dir.path().join("public");
    let built = common::run(&[
        "build",
        "--root",
        root_arg,
        "--output",
        output.to_str().unwrap(),
    ]);
    assert!(built.status.success());
    let stderr = String::from_utf8_lossy(&built.stderr);
    let undated = "the dataset has no `updated` or `created` date";
    assert_eq!(
        stderr.matches(&format!("warning: {undated}")).count(),
        3,
        "{stderr}"
    );
    let more = datasets - 3;
    assert!(
        stderr.contains(&format!(
            "note: the same warning in {more} more places: {undated}\n"
        )),
        "{stderr}"
    );
    for shown in 0..3 {
        assert!(stderr.contains(&common::catalog::slug(shown)), "{stderr}");
    }
    assert!(!stderr.contains(&common::catalog::slug(3)), "{stderr}");
    assert!(
        stderr.contains("warning: the page has no `## Limits` section"),
        "{stderr}"
    );
    assert!(stderr.contains(&format!(
        "0 errors, {} warnings in {datasets} files",
        datasets + 1
    )));
    let checked = common::run(&["check", "--root", root_arg]);
    let stderr = String::from_utf8_lossy(&checked.stderr);
    assert_eq!(
        stderr.matches(&format!("warning: {undated}")).count(),
        datasets,
        "{stderr}"
    );
    assert!(!stderr.contains("note:"), "{stderr}");
}

/// Datasets that share a title (spaces around it aside) are each warned about at their
/// `title` value, naming another; a title of its own is not.
#[test]
fn datasets_sharing_a_title_are_warned_about_at_each_title() {
    let dir = tempfile::tempdir().unwrap();
    write_catalog(dir.path(), 5, "");
    // Datasets 1, 3 and 4 are all "Set 1"; 4 has spaces around it and a comment line above.
    for (n, title) in [(3, "\"Set 1\""), (4, "\"  Set 1 \"")] {
        let front = common::catalog::front_matter(n).replace(
            &format!("title = \"Set {n}\"\n"),
            &format!("# copied\ntitle = {title}\n"),
        );
        common::catalog::write_dataset(dir.path(), n, &front, &format!("v\n{n}\n"));
    }
    let found: Vec<(String, Option<u32>, Option<u32>, String)> = common::check_all(dir.path())
        .into_iter()
        .filter(|d| d.message.contains("is also the title of"))
        .map(|d| {
            (
                d.file.display().to_string(),
                d.line,
                d.column,
                d.message.to_string(),
            )
        })
        .collect();
    let file = |n: usize| format!("content/datasets/{}.md", common::catalog::slug(n));
    let places: Vec<(String, Option<u32>, Option<u32>)> = found
        .iter()
        .map(|(f, l, c, _)| (f.clone(), *l, *c))
        .collect();
    assert_eq!(
        places,
        [
            (file(1), Some(2), Some(9)),
            (file(3), Some(3), Some(9)),
            (file(4), Some(3), Some(9)),
        ],
        "{found:#?}"
    );
    // Each names another of the three, and counts the rest.
    assert!(found[0]
        .3
        .contains(&format!("also the title of {} and 1 more dataset", file(3))));
    assert!(found[1]
        .3
        .contains(&format!("also the title of {} and 1 more dataset", file(1))));
    assert!(
        found[0].3.starts_with("the title \"Set 1\""),
        "{}",
        found[0].3
    );
}
