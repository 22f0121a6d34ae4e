//! `data_url`: a site that publishes its big files (the CSV, its Parquet copy, the kept
//! versions) elsewhere writes them into a second folder and names them there everywhere
//! (links, snippets, Data Package, CSVW, Croissant, JSON-LD, DCAT, catalog.json), with size
//! and SHA-256 on the page; the second folder is replaced as `public/` is, a foreign one
//! is refused, and a hostile `data_url` is refused with its place in site.toml.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::common;

/// A URL with characters that are legal in a URL path but mean something in HTML, shells
/// and the snippets' languages (`&`, `;`, `(`, `)`, `!`, `*`, `+`, `,`, `=`, `@`).
pub const DATA_URL: &str = "https://cdn.example.net/bucket/a&b;c(d)!e*f+g,h=i@j/";

/// The kept version and the current one, after common::SMALL_FRONT.
const CHANGES: &str = r#"[[changes]]
date = 2023-01-01
version = "1"
description = "First release."
file = "data/old/sample-v1.csv"
[[changes]]
date = 2024-01-01
version = "2"
description = "Corrections."
"#;

/// A one-dataset site with a Parquet copy and a kept version; `data_url` when given.
pub fn write_site(root: &Path, data_url: Option<&str>) {
    let front = common::SMALL_FRONT.replace(
        "tags = [\"Test tag\"]\n",
        "version = \"2\"\nparquet = true\n",
    );
    common::write_small_site(
        root,
        &(front + CHANGES),
        common::SMALL_BODY,
        b"label,value\na,1\nb,2\nc,3\n",
    );
    std::fs::create_dir_all(root.join("data/old")).unwrap();
    std::fs::write(
        root.join("data/old/sample-v1.csv"),
        "label,value\na,1\nb,20\n",
    )
    .unwrap();
    if let Some(url) = data_url {
        let toml = root.join("site.toml");
        let text = std::fs::read_to_string(&toml).unwrap();
        let line = format!("data_url = {}\n", toml_string(url));
        std::fs::write(
            &toml,
            text.replacen("[author]", &format!("{line}[author]"), 1),
        )
        .unwrap();
    }
}

fn toml_string(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// Builds `root` into `<dir>/public` and `<dir>/public-data`.
pub fn build(root: &Path, dir: &Path) -> Result<(PathBuf, PathBuf), datapages::Error> {
    let (public, data) = (dir.join("public"), dir.join("public-data"));
    let options = datapages::BuildOptions::new(root)
        .output(&public)
        .data_output(&data)
        .date("2024-06-01");
    datapages::build(&options).map(|_| (public, data))
}

fn files_under(dir: &Path) -> Vec<String> {
    let mut all: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            e.path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    all.sort();
    all
}

fn sha256_hex(path: &Path) -> String {
    Sha256::digest(std::fs::read(path).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Every string that a JSON value gives as an address: under a key that holds one (Data
/// Package `path`, CSVW `url`, `contentUrl`, DCAT's URLs, catalog.json's files, `@id`s of
/// nodes that are files), or any value that is an absolute URL.
fn json_urls(value: &serde_json::Value, key: &str, out: &mut Vec<String>) {
    const KEYS: [&str; 8] = [
        "path",
        "url",
        "contentUrl",
        "dcat:downloadURL",
        "dcat:accessURL",
        "csv",
        "parquet",
        "@id",
    ];
    match value {
        serde_json::Value::String(s) if KEYS.contains(&key) || s.starts_with("http") => {
            out.push(s.clone())
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| json_urls(v, key, out)),
        serde_json::Value::Object(map) => map.iter().for_each(|(k, v)| json_urls(v, k, out)),
        _ => {}
    }
}

/// Whether `text` names one of the big files (a CSV or Parquet file, not the metadata).
/// Croissant's `@id`s of file objects are names (`sample.csv`), not addresses; media types
/// (`application/vnd.apache.parquet`) are not files.
fn names_big_file(text: &str) -> bool {
    let text = text.split('#').next().unwrap_or(text);
    let file = text.rsplit('/').next().unwrap_or(text);
    let big = [".csv", ".parquet"].iter().any(|e| file.ends_with(e));
    big && text.contains('/') && !text.contains("media-types") && !text.starts_with("application/")
}

#[test]
fn big_files_go_to_the_data_folder_and_every_url_names_them_there() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    write_site(&root, Some(DATA_URL));
    let (public, data) = build(&root, dir.path()).unwrap_or_else(|e| panic!("{e}"));

    // No big file beside the pages; all of them, and nothing else, in the data folder.
    let pages = files_under(&public);
    assert!(!pages.iter().any(|f| names_big_file(f)), "{pages:?}");
    assert_eq!(
        files_under(&data),
        [
            ".datapages-output",
            "data/datasets/sample.csv",
            "data/datasets/sample.parquet",
            "data/datasets/sample/v1.csv",
        ]
    );
    assert_eq!(
        std::fs::read(data.join("data/datasets/sample.csv")).unwrap(),
        b"label,value\na,1\nb,2\nc,3\n"
    );

    // Every link to a big file in every page, and every URL of one in every metadata
    // file, is under data_url.
    let mut named = Vec::new();
    for file in &pages {
        let path = public.join(file);
        if file.ends_with(".html") {
            let page = common::html(&path);
            for attribute in ["href", "src", "data-data-root"] {
                let selector = format!("[{attribute}]");
                named.extend(common::attributes(&page, &selector, attribute));
            }
            // The JSON-LD and the explorer's meta.
            for script in common::texts(&page, "script[type=\"application/ld+json\"]") {
                json_urls(&serde_json::from_str(&script).unwrap(), "", &mut named);
            }
        } else if file.ends_with(".json") || file.ends_with(".jsonld") {
            let text = std::fs::read_to_string(&path).unwrap();
            json_urls(&serde_json::from_str(&text).unwrap(), "", &mut named);
        } else if file.ends_with(".ttl") {
            let text = std::fs::read_to_string(&path).unwrap();
            named.extend(text.split(['<', '>']).map(str::to_string));
        }
    }
    let big: Vec<&String> = named.iter().filter(|u| names_big_file(u)).collect();
    let wrong: Vec<&&String> = big.iter().filter(|u| !u.starts_with(DATA_URL)).collect();
    assert!(
        wrong.is_empty(),
        "big files named outside data_url: {wrong:?}"
    );
    for want in ["sample.csv", "sample.parquet", "sample/v1.csv"] {
        let url = format!("{DATA_URL}data/datasets/{want}");
        assert!(big.iter().any(|u| **u == url), "{url} is named nowhere");
    }
    let datapackage: serde_json::Value =
        serde_json::from_slice(&std::fs::read(public.join("data/datasets/sample.json")).unwrap())
            .unwrap();
    let resource = &datapackage["resources"][0];
    assert_eq!(
        resource["path"],
        format!("{DATA_URL}data/datasets/sample.csv")
    );
    let csvw: serde_json::Value = serde_json::from_slice(
        &std::fs::read(public.join("data/datasets/sample.csv-metadata.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(csvw["url"], format!("{DATA_URL}data/datasets/sample.csv"));
    // The snippets quote it as it is, in every language.
    let code = common::texts(&page_of(&public), "pre code").join("\n");
    for want in ["sample.csv", "sample.parquet"] {
        let url = format!("{DATA_URL}data/datasets/{want}");
        assert!(code.contains(&url), "no snippet reads {url}:\n{code}");
    }
    let turtle = std::fs::read_to_string(public.join("data/catalog.ttl")).unwrap();
    assert!(turtle.contains(&format!(
        "dcat:downloadURL <{DATA_URL}data/datasets/sample.csv>"
    )));

    // The page states each big file's size and SHA-256, the files' own.
    let page = page_of(&public);
    let csv_sha = sha256_hex(&data.join("data/datasets/sample.csv"));
    let parquet_sha = sha256_hex(&data.join("data/datasets/sample.parquet"));
    let version_sha = sha256_hex(&data.join("data/datasets/sample/v1.csv"));
    assert_eq!(common::texts(&page, "code.sha256"), [csv_sha]);
    assert_eq!(common::texts(&page, "code.parquet-sha256"), [parquet_sha]);
    assert_eq!(common::texts(&page, "code.version-sha256"), [version_sha]);
    let size = common::texts(&page, ".download-main .size");
    assert_eq!(size, ["24 B"]);
    let parquet_bytes = std::fs::metadata(data.join("data/datasets/sample.parquet"))
        .unwrap()
        .len();
    let parquet_line = common::texts(&page, ".download-parquet").join(" ");
    assert!(
        parquet_line.contains(&datapages_size(parquet_bytes)),
        "{parquet_line}"
    );
}

fn page_of(public: &Path) -> scraper::Html {
    common::html(&public.join("datasets/sample/index.html"))
}

/// The page's size of `bytes` ("812 B", "2.1 kB").
fn datapages_size(bytes: u64) -> String {
    match bytes {
        0..1000 => format!("{bytes} B"),
        _ => format!("{:.1} kB", bytes as f64 / 1000.0),
    }
}

#[test]
fn without_data_url_nothing_is_written_elsewhere_and_pages_link_beside_them() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    write_site(&root, None);
    let (public, data) = build(&root, dir.path()).unwrap_or_else(|e| panic!("{e}"));
    assert!(!data.exists());
    assert!(public.join("data/datasets/sample.csv").is_file());
    assert!(public.join("data/datasets/sample/v1.csv").is_file());
    let page = common::html(&public.join("datasets/sample/index.html"));
    let hrefs = common::attributes(&page, "a.button", "href");
    assert_eq!(hrefs, ["../../data/datasets/sample.csv"]);
    assert!(common::attributes(&page, "[data-data-root]", "data-data-root").is_empty());
}

#[test]
fn the_data_folder_is_replaced_whole_and_a_foreign_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    write_site(&root, Some(DATA_URL));
    let (_, data) = build(&root, dir.path()).unwrap_or_else(|e| panic!("{e}"));
    // Parquet off: the next build's data folder no longer holds the copy.
    let md = root.join("content/datasets/sample.md");
    let text = std::fs::read_to_string(&md).unwrap();
    std::fs::write(&md, text.replace("parquet = true\n", "parquet = false\n")).unwrap();
    build(&root, dir.path()).unwrap_or_else(|e| panic!("{e}"));
    assert!(!data.join("data/datasets/sample.parquet").exists());
    assert!(data.join("data/datasets/sample.csv").is_file());
    // No staging folder is left beside it.
    let leftovers: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("staging"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // A folder datapages did not write is never emptied.
    let other = tempfile::tempdir().unwrap();
    let foreign = other.path().join("public-data");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("precious.txt"), "mine").unwrap();
    let options = datapages::BuildOptions::new(&root)
        .output(other.path().join("public"))
        .data_output(&foreign);
    let error = datapages::build(&options).unwrap_err().to_string();
    assert!(error.contains("was not written by datapages"), "{error}");
    assert_eq!(
        std::fs::read_to_string(foreign.join("precious.txt")).unwrap(),
        "mine"
    );
    assert!(!other.path().join("public").exists(), "nothing published");

    // Nor may the two folders overlap.
    let nested = datapages::BuildOptions::new(&root)
        .output(dir.path().join("public"))
        .data_output(dir.path().join("public/data-files"));
    let error = datapages::build(&nested).unwrap_err().to_string();
    assert!(error.contains("overlap"), "{error}");
}

#[test]
fn a_data_url_that_is_not_a_plain_web_address_is_refused_where_it_is_written() {
    for (bad, says) in [
        ("cdn.example.org/", "not an absolute URL"),
        ("javascript:alert(1)//", "scheme"),
        ("ftp://cdn.example.org/", "scheme"),
        ("https://cdn.example.org/?sig=1", "query"),
        ("https://cdn.example.org/a\"b/", "not allowed unescaped"),
        ("https://cdn.example.org/a'b/", "not allowed unescaped"),
        ("https://cdn.example.org/a<b>/", "not allowed unescaped"),
        ("https://cdn.example.org/a`b/", "not allowed unescaped"),
        ("https://cdn.example.org/${x}/", "not allowed unescaped"),
        ("https://cdn.example.org/a b/", "spaces"),
        ("https://user:pw@cdn.example.org/", "password"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("site");
        write_site(&root, Some(bad));
        let problems = common::check_all(&root);
        let located: Vec<_> = problems
            .items()
            .iter()
            .filter(|d| d.message.contains("`data_url`"))
            .collect();
        assert_eq!(located.len(), 1, "{bad}: {problems:?}");
        let problem = located[0];
        assert!(problem.message.contains(says), "{bad}: {}", problem.message);
        assert_eq!(problem.line, Some(3), "{bad}");
        assert!(problem.file.ends_with("site.toml"));
        assert!(build(&root, dir.path()).is_err(), "{bad}");
        assert!(!dir.path().join("public-data").exists(), "{bad}");
    }
}

/// A second dataset, `other`, beside `sample`, with its own `data_url` when given.
fn add_other_dataset(root: &Path, own: Option<&str>) {
    let line = own.map_or(String::new(), |url| {
        format!("data_url = {}\n", toml_string(url))
    });
    let front = common::SMALL_FRONT.replace(
        "title = \"Sample\"\n",
        &format!("title = \"Other\"\n{line}"),
    );
    let front = front.replace(
        "headline = \"A sample dataset\"",
        "headline = \"Another dataset\"",
    );
    std::fs::write(
        root.join("content/datasets/other.md"),
        format!("+++\n{front}+++\n{}", common::SMALL_BODY),
    )
    .unwrap();
    std::fs::write(root.join("data/datasets/other.csv"), "label,value\nx,7\n").unwrap();
}

/// Where a page's download button and the explorer's data root point.
fn csv_links(public: &Path, slug: &str) -> (Vec<String>, Vec<String>) {
    let page = common::html(&public.join(format!("datasets/{slug}/index.html")));
    (
        common::attributes(&page, "a.button", "href"),
        common::attributes(&page, "[data-data-root]", "data-data-root"),
    )
}

/// The URL catalog.json gives the CSV of `slug`.
fn catalog_csv(public: &Path, slug: &str) -> String {
    let text = std::fs::read_to_string(public.join("data/catalog.json")).unwrap();
    let catalog: serde_json::Value = serde_json::from_str(&text).unwrap();
    let items = catalog
        .as_array()
        .or_else(|| catalog["datasets"].as_array())
        .unwrap();
    let item = items.iter().find(|d| d["slug"] == slug).unwrap();
    item["csv"].as_str().unwrap().to_string()
}

#[test]
fn a_dataset_with_its_own_data_url_publishes_only_its_big_files_there() {
    const OWN: &str = "https://big.example.org/other"; // no trailing slash: one is added
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    write_site(&root, None);
    add_other_dataset(&root, Some(OWN));
    let (public, data) = build(&root, dir.path()).unwrap_or_else(|e| panic!("{e}"));

    // Only `other`'s CSV is in the data folder; `sample`'s files stay beside the pages.
    assert_eq!(
        files_under(&data),
        [".datapages-output", "data/datasets/other.csv"]
    );
    assert!(!public.join("data/datasets/other.csv").exists());
    assert!(public.join("data/datasets/sample.csv").is_file());
    assert!(public.join("data/datasets/sample.parquet").is_file());
    assert!(public.join("data/datasets/sample/v1.csv").is_file());

    let other_csv = format!("{OWN}/data/datasets/other.csv");
    assert_eq!(
        csv_links(&public, "other"),
        (vec![other_csv.clone()], vec![format!("{OWN}/")])
    );
    assert_eq!(
        csv_links(&public, "sample"),
        (vec!["../../data/datasets/sample.csv".to_string()], vec![])
    );
    assert_eq!(catalog_csv(&public, "other"), other_csv);
    assert_eq!(
        catalog_csv(&public, "sample"),
        "https://example.org/sub/data/datasets/sample.csv"
    );
    let package = |slug: &str| -> serde_json::Value {
        let path = public.join(format!("data/datasets/{slug}.json"));
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
    };
    assert_eq!(package("other")["resources"][0]["path"], other_csv);
    assert_eq!(package("sample")["resources"][0]["path"], "sample.csv");
    let turtle = std::fs::read_to_string(public.join("data/catalog.ttl")).unwrap();
    assert!(
        turtle.contains(&format!("dcat:downloadURL <{other_csv}>")),
        "{turtle}"
    );
    let code = common::texts(
        &common::html(&public.join("datasets/other/index.html")),
        "pre code",
    );
    assert!(code.join("\n").contains(&other_csv));
}

#[test]
fn a_dataset_s_data_url_wins_over_the_site_s_and_serve_keeps_both_beside() {
    const OWN: &str = "https://big.example.org/other/";
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    write_site(&root, Some(DATA_URL));
    add_other_dataset(&root, Some(OWN));
    let (public, data) = build(&root, dir.path()).unwrap_or_else(|e| panic!("{e}"));
    assert!(data.join("data/datasets/other.csv").is_file());
    assert!(data.join("data/datasets/sample.csv").is_file());
    assert_eq!(
        catalog_csv(&public, "other"),
        format!("{OWN}data/datasets/other.csv")
    );
    assert_eq!(
        catalog_csv(&public, "sample"),
        format!("{DATA_URL}data/datasets/sample.csv")
    );

    // `--data-beside` (what `serve` does): every file beside the pages, linked there.
    let beside = dir.path().join("beside");
    let options = datapages::BuildOptions::new(&root)
        .output(&beside)
        .data_beside(true)
        .date("2024-06-01");
    datapages::build(&options).unwrap_or_else(|e| panic!("{e}"));
    assert!(beside.join("data/datasets/other.csv").is_file());
    assert_eq!(
        csv_links(&beside, "other"),
        (vec!["../../data/datasets/other.csv".to_string()], vec![])
    );
}

#[test]
fn a_dataset_s_hostile_data_url_is_refused_in_its_markdown_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    write_site(&root, None);
    add_other_dataset(&root, Some("javascript:alert(1)//"));
    let problems = common::check_all(&root);
    let located: Vec<_> = (problems.items().iter())
        .filter(|d| d.message.contains("`data_url`"))
        .collect();
    assert_eq!(located.len(), 1, "{problems:?}");
    assert!(located[0].file.ends_with("content/datasets/other.md"));
    assert_eq!(located[0].line, Some(3));
    assert!(build(&root, dir.path()).is_err());
    assert!(!dir.path().join("public-data").exists());
}
