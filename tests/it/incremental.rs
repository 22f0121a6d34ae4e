//! Incremental rebuilds through `build::Session`, as `serve` uses them: an edit re-renders
//! exactly the affected outputs and leaves every other file untouched; removals delete
//! outputs; failures write nothing; templates rebuild everything.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use datapages::{BuildOptions, Change, Session};

fn start(root: &Path) -> Session {
    let options = BuildOptions::new(root);
    match Session::start(&options, |staging| staging.commit()) {
        Ok((session, _)) => session,
        Err(d) => panic!("{}", d.render(false)),
    }
}

/// Every file under `root` with what `read` makes of it, in name order.
fn each_file<T>(root: &Path, read: impl Fn(&Path) -> T) -> Vec<(PathBuf, T)> {
    walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            (
                e.path().strip_prefix(root).unwrap().to_path_buf(),
                read(e.path()),
            )
        })
        .collect()
}

/// Modification times of every output file, to see which ones a rebuild touched.
fn mtimes(output: &Path) -> Vec<(PathBuf, SystemTime)> {
    each_file(output, |p| p.metadata().unwrap().modified().unwrap())
}

fn touched(before: &[(PathBuf, SystemTime)], after: &[(PathBuf, SystemTime)]) -> BTreeSet<String> {
    after
        .iter()
        .filter(|(path, time)| {
            before
                .iter()
                .find(|(p, _)| p == path)
                .is_none_or(|(_, t)| t != time)
        })
        .map(|(p, _)| p.display().to_string())
        .collect()
}

#[test]
fn an_edit_rewrites_exactly_what_depends_on_it() {
    let site = tempfile::tempdir().unwrap();
    common::copy_bundled_site(site.path());
    let mut session = start(site.path());
    let output = site.path().join("public");
    let before = mtimes(&output);
    std::thread::sleep(std::time::Duration::from_millis(20));

    let markdown = site
        .path()
        .join("content/datasets/vsan-consumer-kit-iometer.md");
    let text = std::fs::read_to_string(&markdown).unwrap();
    std::fs::write(
        &markdown,
        text.replacen("\n## Method", "\nAn added intro paragraph.\n\n## Method", 1),
    )
    .unwrap();
    let report = session
        .rebuild([Change::Dataset("vsan-consumer-kit-iometer".into())], |s| {
            s.commit()
        })
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    assert!(!report.full);
    // Its page, its 5 tag pages, home and All datasets; nothing relates to it. The CSV
    // did not change, so its copy stays; catalog.json, the search index and the sitemap
    // state nothing an intro paragraph changes, so they stay too.
    assert_eq!(report.pages, 8, "{report:?}");
    let changed = touched(&before, &mtimes(&output));
    let expected: BTreeSet<String> = [
        "datasets/vsan-consumer-kit-iometer/index.html",
        "data/datasets/vsan-consumer-kit-iometer.json",
        "data/datasets/vsan-consumer-kit-iometer.csv-metadata.json",
        "data/datasets/vsan-consumer-kit-iometer.croissant.json",
        "tags/storage-throughput/index.html",
        "tags/vsan/index.html",
        "tags/nvme/index.html",
        "tags/sata/index.html",
        "tags/home-lab/index.html",
        "index.html",
        "datasets/index.html",
        "data/catalog.ttl",
        "feed.xml",
        "robots.txt",
    ]
    .into_iter()
    .map(String::from)
    .chain(
        std::fs::read_dir(output.join("data/datasets"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("vsan-consumer-kit-iometer-") && n.ends_with(".svg"))
            .map(|n| format!("data/datasets/{n}")),
    )
    .collect();
    assert_eq!(changed, expected);
    let page =
        std::fs::read_to_string(output.join("datasets/vsan-consumer-kit-iometer/index.html"))
            .unwrap();
    assert!(page.contains("An added intro paragraph."));
    assert!(report
        .urls
        .contains(&"/datasets/vsan-consumer-kit-iometer/".to_string()));
    assert!(report
        .summary()
        .starts_with("content/datasets/vsan-consumer-kit-iometer.md changed: re-rendered 8 pages"));

    // An edit of the CSV is copied; so is an unchanged CSV whose copy went missing.
    let csv = site
        .path()
        .join("data/datasets/vsan-consumer-kit-iometer.csv");
    let published = output.join("data/datasets/vsan-consumer-kit-iometer.csv");
    let mut bytes = std::fs::read(&csv).unwrap();
    bytes.extend_from_slice(b"\n");
    std::fs::write(&csv, &bytes).unwrap();
    session
        .rebuild(
            [Change::DataFile(
                "data/datasets/vsan-consumer-kit-iometer.csv".into(),
            )],
            |s| s.commit(),
        )
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    assert_eq!(std::fs::read(&published).unwrap(), bytes);
    std::fs::remove_file(&published).unwrap();
    session
        .rebuild([Change::Dataset("vsan-consumer-kit-iometer".into())], |s| {
            s.commit()
        })
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    assert_eq!(std::fs::read(&published).unwrap(), bytes);
}

#[test]
fn a_title_change_reaches_the_pages_that_link_to_it() {
    let site = tempfile::tempdir().unwrap();
    common::copy_bundled_site(site.path());
    let mut session = start(site.path());
    let markdown = site
        .path()
        .join("content/datasets/storage-link-payload-ceilings.md");
    let text = std::fs::read_to_string(&markdown).unwrap();
    std::fs::write(
        &markdown,
        text.replacen(
            "title = \"Theoretical link ceilings\"",
            "title = \"Link ceilings, in theory\"",
            1,
        ),
    )
    .unwrap();
    let report = session
        .rebuild(
            [Change::Dataset("storage-link-payload-ceilings".into())],
            |s| s.commit(),
        )
        .unwrap();
    let output = site.path().join("public");
    for related in ["sata-sas-nvme-measured-throughput", "nvme-server-dd-fio"] {
        let page =
            std::fs::read_to_string(output.join(format!("datasets/{related}/index.html"))).unwrap();
        assert!(
            page.contains("Link ceilings, in theory"),
            "{related} shows the new title"
        );
        assert!(report.urls.contains(&format!("/datasets/{related}/")));
    }
}

#[test]
fn removals_delete_outputs_and_failures_write_nothing() {
    let site = tempfile::tempdir().unwrap();
    common::copy_bundled_site(site.path());
    let mut session = start(site.path());
    let output = site.path().join("public");

    // Removing a dataset that others relate to fails (they name it), and writes nothing.
    let markdown = site
        .path()
        .join("content/datasets/storage-link-payload-ceilings.md");
    let text = std::fs::read_to_string(&markdown).unwrap();
    std::fs::remove_file(&markdown).unwrap();
    let before = common::tree_contents(&output);
    let error = session
        .rebuild(
            [Change::Dataset("storage-link-payload-ceilings".into())],
            |s| s.commit(),
        )
        .unwrap_err();
    assert!(error
        .render(false)
        .contains("`related` names `storage-link-payload-ceilings`, which is not a dataset"));
    assert_eq!(
        common::tree_contents(&output),
        before,
        "a failed rebuild writes nothing"
    );

    // Put it back: the pending change is retried with the next one and succeeds.
    std::fs::write(&markdown, &text).unwrap();
    session.rebuild([], |s| s.commit()).unwrap();

    // A dataset nobody relates to can go: its page, downloads, charts and lone tags go too.
    std::fs::remove_file(site.path().join("content/datasets/nvme-server-dd-fio.md")).unwrap();
    for other in [
        "sata-sas-nvme-measured-throughput",
        "storage-link-payload-ceilings",
        "vsan-consumer-kit-iometer",
    ] {
        let path = site.path().join(format!("content/datasets/{other}.md"));
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("\"nvme-server-dd-fio\", ", "")
            .replace(", \"nvme-server-dd-fio\"", "");
        std::fs::write(&path, text).unwrap();
    }
    let report = session
        .rebuild([Change::Dataset("nvme-server-dd-fio".into())], |s| {
            s.commit()
        })
        .unwrap();
    assert!(!output.join("datasets/nvme-server-dd-fio").exists());
    assert!(!output.join("data/datasets/nvme-server-dd-fio.csv").exists());
    assert!(
        !output.join("tags/fio").exists(),
        "a tag with no datasets left loses its page"
    );
    assert!(report
        .urls
        .contains(&"/datasets/nvme-server-dd-fio/".to_string()));
    let leftovers: Vec<String> = walkdir::WalkDir::new(&output)
        .into_iter()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("nvme-server-dd-fio") || n.contains(".partial-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn templates_rebuild_everything_and_static_files_are_copied() {
    let site = tempfile::tempdir().unwrap();
    common::copy_bundled_site(site.path());
    let mut session = start(site.path());
    std::fs::write(site.path().join("static/extra.txt"), "new static file").unwrap();
    let report = session
        .rebuild([Change::Static(PathBuf::from("extra.txt"))], |s| s.commit())
        .unwrap();
    assert_eq!(report.pages, 0);
    assert_eq!(
        std::fs::read_to_string(site.path().join("public/extra.txt")).unwrap(),
        "new static file"
    );
    let report = session
        .rebuild([Change::Templates], |s| s.commit())
        .unwrap();
    assert!(report.full);
    assert!(report.pages > 10);
}

#[test]
fn a_csv_edit_re_renders_the_figures_its_pages_quote() {
    let site = tempfile::tempdir().unwrap();
    common::copy_bundled_site(site.path());
    let mut session = start(site.path());
    let slug = "sata-sas-nvme-measured-throughput";
    let csv = site.path().join(format!("data/datasets/{slug}.csv"));
    let text = std::fs::read_to_string(&csv).unwrap();
    std::fs::write(
        &csv,
        text.replacen("128K,NVMe,10366,", "128K,NVMe,10412,", 1),
    )
    .unwrap();
    let report = session
        .rebuild([Change::Dataset(slug.into())], |s| s.commit())
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    assert!(
        report.urls.contains(&format!("/datasets/{slug}/")),
        "{report:?}"
    );
    let page = common::html(
        &site
            .path()
            .join(format!("public/datasets/{slug}/index.html")),
    );
    let headline = common::texts(&page, "h1").join(" ");
    assert!(
        headline.contains("delivered 10,412 MB/s with NVMe"),
        "{headline}"
    );
    let lede = common::texts(&page, ".lede").join(" ");
    assert!(lede.contains("moved 10,412 MB/s"), "{lede}");
    let summary = report.summary();
    assert!(
        summary.contains(&format!("{slug} headline: 10,366 -> 10,412")),
        "the terminal line names the changed figures: {summary}"
    );
}

#[test]
fn a_csv_edit_re_renders_the_pages_of_other_datasets_that_quote_it() {
    let site = tempfile::tempdir().unwrap();
    let csv = "label,value\nalpha,10366\nbeta,2776\n";
    let body = "\nBeta of the other table is {{ cell(dataset=\"other\", label=\"beta\", col=\"value\") }} units ([source](#source-src)).\n\n## Method\n\nCounted.\n\n## Limits\n\nFew.\n";
    common::write_small_site(site.path(), common::SMALL_FRONT, body, csv.as_bytes());
    let other_front = common::SMALL_FRONT.replace("title = \"Sample\"", "title = \"Other\"");
    std::fs::write(
        site.path().join("content/datasets/other.md"),
        format!("+++\n{other_front}+++\n{}", common::SMALL_BODY),
    )
    .unwrap();
    let relative = "data/datasets/other.csv";
    std::fs::write(site.path().join(relative), csv).unwrap();
    let mut session = start(site.path());
    let output = site.path().join("public");
    let before = mtimes(&output);
    std::fs::write(site.path().join(relative), csv.replace("2776", "2777")).unwrap();
    let report = session
        .rebuild([Change::DataFile(PathBuf::from(relative))], |s| s.commit())
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    let written = touched(&before, &mtimes(&output));
    for file in ["datasets/sample/index.html", "data/datasets/sample.json"] {
        assert!(
            written.contains(file),
            "{file} is written again: {written:?}"
        );
    }
    let page = common::html(&output.join("datasets/sample/index.html"));
    let lede = common::texts(&page, ".lede").join(" ");
    assert!(lede.contains("other table is 2,777 units"), "{lede}");
    let summary = report.summary();
    assert!(
        summary.contains("sample body: 2,776 -> 2,777"),
        "the terminal line names the changed figure: {summary}"
    );
}

/// Every file under `root`, with its bytes.
fn tree(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    each_file(root, |p| std::fs::read(p).unwrap())
}

#[test]
fn after_edits_the_served_output_is_byte_identical_to_a_clean_build() {
    // `serve` keeps each dataset's part of the DCAT catalog and the digests of its
    // metadata files between rebuilds: after a title, a lede and a cell change, every
    // file (catalogs included) must be what a clean build writes.
    let site = tempfile::tempdir().unwrap();
    common::copy_bundled_site(site.path());
    let mut session = start(site.path());
    let markdown = site.path().join("content/datasets/nvme-server-dd-fio.md");
    let text = std::fs::read_to_string(&markdown).unwrap();
    let edited = text.replacen("title = \"", "title = \"Edited: ", 1);
    assert_ne!(edited, text, "the title is found");
    std::fs::write(&markdown, edited).unwrap();
    session
        .rebuild([Change::Dataset("nvme-server-dd-fio".into())], |s| {
            s.commit()
        })
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    let csv_relative = "data/datasets/vsan-consumer-kit-iometer.csv";
    let csv = std::fs::read_to_string(site.path().join(csv_relative)).unwrap();
    assert!(csv.contains(",257,"), "the cell is found");
    std::fs::write(
        site.path().join(csv_relative),
        csv.replace(",257,", ",258,"),
    )
    .unwrap();
    session
        .rebuild([Change::DataFile(PathBuf::from(csv_relative))], |s| {
            s.commit()
        })
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    let clean = tempfile::tempdir().unwrap();
    let options = BuildOptions::new(site.path()).output(clean.path().join("public"));
    datapages::build(&options).unwrap_or_else(|d| panic!("{}", d.render(false)));
    let served = tree(&site.path().join("public"));
    let built = tree(&clean.path().join("public"));
    let names = |t: &[(PathBuf, Vec<u8>)]| t.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(&served), names(&built), "the same files");
    for ((path, a), (_, b)) in served.iter().zip(&built) {
        assert!(a == b, "{} differs from a clean build", path.display());
    }
}

/// Every file of a clean build of `root` (into a folder of its own) with its bytes.
fn clean_build(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = tempfile::tempdir().unwrap();
    let options = BuildOptions::new(root).output(dir.path().join("public"));
    datapages::build(&options).unwrap_or_else(|d| panic!("{}", d.render(false)));
    tree(&dir.path().join("public"))
}

/// Replaces `from` with `to` in the Markdown of set `n` of a generated catalog; its slug.
fn edit_catalog_dataset(root: &Path, n: usize, from: &str, to: &str) -> String {
    let slug = common::catalog::slug(n);
    let markdown = root.join(format!("content/datasets/{slug}.md"));
    let text = std::fs::read_to_string(&markdown).unwrap();
    let edited = text.replace(from, to);
    assert_ne!(edited, text, "{from:?} is found");
    std::fs::write(&markdown, edited).unwrap();
    slug
}

#[test]
fn an_edit_that_moves_no_dataset_rewrites_only_the_listing_pages_that_show_it() {
    // 30 datasets, 4 per page: All datasets has 8 pages, tag "All" 8, "Even"/"Odd" 4 each.
    let site = tempfile::tempdir().unwrap();
    common::catalog::write_catalog(site.path(), 30, "paginate_by = 4\n");
    let mut session = start(site.path());
    let output = site.path().join("public");
    let before = mtimes(&output);
    std::thread::sleep(std::time::Duration::from_millis(20));
    let slug = edit_catalog_dataset(
        site.path(),
        7,
        "headline = \"Set number 7\"",
        "headline = \"Set number 7, edited\"",
    );
    session
        .rebuild([Change::Dataset(slug.clone())], |s| s.commit())
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    let written = touched(&before, &mtimes(&output));
    let listing_pages: Vec<&String> = written
        .iter()
        .filter(|f| {
            f.starts_with("datasets/page/") || f.starts_with("tags/") || *f == "datasets/index.html"
        })
        .collect();
    // One page of All datasets, one of "All", one of "Odd": where set 7 is listed.
    assert_eq!(listing_pages.len(), 3, "{listing_pages:?}");
    for file in &listing_pages {
        let html = std::fs::read_to_string(output.join(file)).unwrap();
        assert!(
            html.contains("Set number 7, edited"),
            "{file} shows the edit"
        );
    }
    // And the whole output is what a clean build writes.
    let clean = tempfile::tempdir().unwrap();
    let options = BuildOptions::new(site.path()).output(clean.path().join("public"));
    datapages::build(&options).unwrap_or_else(|d| panic!("{}", d.render(false)));
    assert_eq!(tree(&output), tree(&clean.path().join("public")));
}

#[test]
fn an_edit_rewrites_only_the_dcat_page_that_holds_its_dataset() {
    // 21 datasets, 10 a DCAT page (1,000 by default): 3 pages per syntax.
    let site = tempfile::tempdir().unwrap();
    common::catalog::write_catalog(site.path(), 21, "_dcat_page_datasets = 10\n");
    let mut session = start(site.path());
    let output = site.path().join("public");
    let before = mtimes(&output);
    std::thread::sleep(std::time::Duration::from_millis(20));
    // Set 15 is the 16th in slug order: page 2.
    let slug = edit_catalog_dataset(site.path(), 15, "title = \"", "title = \"Edited ");
    session
        .rebuild([Change::Dataset(slug.clone())], |s| s.commit())
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    let written = touched(&before, &mtimes(&output));
    let catalog_pages: BTreeSet<&str> = written
        .iter()
        .map(String::as_str)
        .filter(|f| {
            f.starts_with("data/catalog.") && !f.ends_with(".json")
                || f.starts_with("data/catalog/")
        })
        .collect();
    assert_eq!(
        catalog_pages,
        BTreeSet::from(["data/catalog/2.ttl"]),
        "{written:?}"
    );
    let clean = || clean_build(site.path());
    assert!(
        tree(&output) == clean(),
        "served output differs from a clean build"
    );

    // Removing the datasets of pages 2 and 3 leaves one page, and no page folder.
    let removed: Vec<String> = (10..21).map(common::catalog::slug).collect();
    for slug in &removed {
        std::fs::remove_file(site.path().join(format!("content/datasets/{slug}.md"))).unwrap();
    }
    session
        .rebuild(removed.iter().map(|s| Change::Dataset(s.clone())), |s| {
            s.commit()
        })
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    assert!(!output.join("data/catalog").exists());
    assert!(
        tree(&output) == clean(),
        "served output differs from a clean build"
    );
}

#[test]
fn catalog_json_search_index_and_sitemap_are_rewritten_only_when_their_bytes_change() {
    let site = tempfile::tempdir().unwrap();
    common::catalog::write_catalog(site.path(), 12, "");
    let mut session = start(site.path());
    let output = site.path().join("public");
    // The split search index is one entry: any of its files.
    let lists = ["data/catalog.json", "data/search/", "sitemap.xml"];
    let clean = || clean_build(site.path());
    // Each edit, and which of the three files it must rewrite.
    let edits: [(usize, &str, &str, &[&str]); 5] = [
        // Limits are in no entry of the three.
        (2, "## Limits\n\nL.", "## Limits\n\nLess.", &[]),
        // The lede is the description, which the search index states (its first 300
        // characters).
        (3, "A lede from", "An edited lede from", &lists[1..2]),
        // The title is in the catalog's and the search index's entries.
        (4, "title = \"Set 4\"", "title = \"Set four\"", &lists[..2]),
        // The date is in all three.
        (5, "updated = 2005-06-06", "updated = 2024-06-06", &lists),
        // The CSV's digest and size are in the catalog only (below: the CSV is edited).
        (6, "", "", &lists[..1]),
    ];
    for (n, from, to, rewritten) in edits {
        let before = mtimes(&output);
        std::thread::sleep(std::time::Duration::from_millis(20));
        let change = if from.is_empty() {
            let slug = common::catalog::slug(n);
            std::fs::write(
                site.path().join(format!("data/datasets/{slug}.csv")),
                "v\n1234\n",
            )
            .unwrap();
            Change::DataFile(PathBuf::from(format!("data/datasets/{slug}.csv")))
        } else {
            Change::Dataset(edit_catalog_dataset(site.path(), n, from, to))
        };
        session
            .rebuild([change], |s| s.commit())
            .unwrap_or_else(|d| panic!("{}", d.render(false)));
        let written = touched(&before, &mtimes(&output));
        let listed: Vec<&str> = lists
            .iter()
            .copied()
            .filter(|f| {
                written
                    .iter()
                    .any(|w| w == f || (f.ends_with('/') && w.starts_with(f)))
            })
            .collect();
        assert_eq!(listed, rewritten, "edit of set {n}: {written:?}");
        assert!(
            tree(&output) == clean(),
            "edit of set {n}: served output differs from a clean build"
        );
    }
}

#[test]
fn tag_and_page_changes_reach_every_page_and_file_that_shows_them() {
    // 9 datasets, 2 a page: a tag that gains or loses a dataset gains or loses a page.
    let site = tempfile::tempdir().unwrap();
    common::catalog::write_catalog(site.path(), 9, "paginate_by = 2\n");
    let mut session = start(site.path());
    let output = site.path().join("public");
    let clean = || clean_build(site.path());
    let page = site.path().join("content/notes.md");
    let steps = [
        "a tag gains a dataset",
        "a new tag",
        "a page is added",
        "the page is removed",
    ];
    for what in steps {
        let change = match what {
            // Set 2 joins "Odd": 5 Odd datasets, 3 pages instead of 2.
            "a tag gains a dataset" => Change::Dataset(edit_catalog_dataset(
                site.path(),
                2,
                "tags = [\"Even\", \"All\"]",
                "tags = [\"Even\", \"Odd\", \"All\"]",
            )),
            // A new tag on set 4 alone.
            "a new tag" => Change::Dataset(edit_catalog_dataset(
                site.path(),
                4,
                "tags = [\"Even\", \"All\"]",
                "tags = [\"Even\", \"All\", \"Fresh\"]",
            )),
            "a page is added" => {
                std::fs::write(&page, "+++\ntitle = \"Notes\"\n+++\n\nSome notes.\n").unwrap();
                Change::Page(PathBuf::from("content/notes.md"))
            }
            _ => {
                std::fs::remove_file(&page).unwrap();
                Change::Page(PathBuf::from("content/notes.md"))
            }
        };
        session
            .rebuild([change], |s| s.commit())
            .unwrap_or_else(|d| panic!("{what}: {}", d.render(false)));
        let (served, built) = (tree(&output), clean());
        let differing: Vec<_> = served
            .iter()
            .filter(|f| !built.contains(f))
            .map(|f| f.0.display().to_string())
            .chain(
                built
                    .iter()
                    .filter(|f| !served.contains(f))
                    .map(|f| format!("(clean) {}", f.0.display())),
            )
            .collect();
        assert!(
            differing.is_empty(),
            "{what}: served output differs from a clean build: {differing:?}"
        );
    }
    let sitemap = std::fs::read_to_string(output.join("sitemap.xml")).unwrap();
    assert!(sitemap.contains("tags/fresh/") && sitemap.contains("tags/odd/page/3/"));
    assert!(!sitemap.contains("notes/"));
}
