//! "Cite this dataset": the BibTeX, RIS and CFF the dataset page shows (what its copy
//! buttons copy and its downloads hold) parse with real parsers (bibtexparser, the CFF
//! 1.2.0 JSON schema, rispy and a strict line check, run by
//! tests/validators/citation_check.py in the validators' venv) and say what the page says;
//! by default no citation file is written (each download is made in the browser from the
//! text shown), and `citation_files = true` writes the RIS and CFF files, byte for byte the
//! texts the page shows, and links them; the SHA-256 next to the download is the file's;
//! the change history is on the page and in the Data Package. Hostile titles and authors
//! stay one parseable value and the page stays well-formed.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The venv's python with the citation parsers, or None (skip) outside CI.
fn python() -> Option<PathBuf> {
    venv_python(
        "import bibtexparser, rispy, yaml, jsonschema",
        "bibtexparser/rispy in the validators' venv",
    )
}

/// The venv's python when `imports` runs in it, or None (skip) outside CI.
fn venv_python(imports: &str, what: &str) -> Option<PathBuf> {
    let venv = std::env::var_os("DATAPAGES_VALIDATORS")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::bundled_site().join("target/validators-venv"));
    let python = venv.join("bin/python3");
    let present = python.is_file()
        && Command::new(&python)
            .args(["-c", imports])
            .output()
            .is_ok_and(|o| o.status.success());
    common::tool_present(what, present).then_some(python)
}

/// The citation in `format` (`bibtex`, `ris`, `cff`) the dataset page shows, as its
/// download holds it: the element's text, with CR LF line ends where the block says so
/// (`data-newline`, as the page's script writes them).
fn page_citation(output: &Path, slug: &str, format: &str) -> String {
    let page = common::html(&output.join(format!("datasets/{slug}/index.html")));
    let selector = scraper::Selector::parse(&format!("#cite-{format}")).expect("selector");
    let code = scraper::Selector::parse("pre").expect("selector");
    let shown: Vec<String> = page
        .select(&selector)
        .map(|details| {
            let text: String = details.select(&code).flat_map(|pre| pre.text()).collect();
            match details.value().attr("data-newline") {
                Some("crlf") => text.replace('\n', "\r\n"),
                _ => text,
            }
        })
        .collect();
    assert_eq!(shown.len(), 1, "{slug}: one {format} block");
    shown[0].clone()
}

/// The BibTeX the dataset page shows.
fn page_bibtex(output: &Path, slug: &str) -> String {
    page_citation(output, slug, "bibtex")
}

/// Parses the three texts the page of `slug` shows; where the RIS and CFF files are
/// written (`citation_files`), each must be the page's text byte for byte.
fn check(python: &Path, output: &Path, slug: &str) -> Value {
    let scratch = tempfile::tempdir().expect("temp");
    let mut paths = Vec::new();
    for (format, extension) in [("bibtex", "bib"), ("cff", "cff"), ("ris", "ris")] {
        let text = page_citation(output, slug, format);
        let file = output.join(format!("data/datasets/{slug}.{extension}"));
        if let Ok(written) = std::fs::read_to_string(&file) {
            assert_eq!(
                written, text,
                "{slug}.{extension}: the file is the page's text"
            );
        }
        let path = scratch.path().join(format!("{slug}.{extension}"));
        std::fs::write(&path, text).expect("write the downloaded text");
        paths.push(path);
    }
    let script = common::bundled_site().join("tests/validators/citation_check.py");
    let result = Command::new(python)
        .arg(script)
        .args(&paths)
        .output()
        .expect("python runs");
    assert!(
        result.status.success(),
        "citation_check.py failed: {}",
        String::from_utf8_lossy(&result.stderr)
    );
    serde_json::from_slice(&result.stdout).expect("JSON")
}

/// Asserts the three parsed files are valid and name `title`, `version` and `url`.
fn assert_valid(report: &Value, title: &str, version: Option<&str>, url: &str) {
    let bib = &report["bib"];
    assert_eq!(bib["entries"], 1, "{bib:#}");
    assert_eq!(bib["failed"], serde_json::json!([]), "{bib:#}");
    assert_eq!(bib["type"], "misc");
    assert_eq!(bib["fields"]["url"], url, "{bib:#}");
    let cff = &report["cff"];
    assert_eq!(cff["errors"], serde_json::json!([]), "CFF schema: {cff:#}");
    assert_eq!(cff["data"]["title"], title);
    assert_eq!(cff["data"]["url"], url);
    assert_eq!(cff["data"]["type"], "dataset");
    let ris = &report["ris"];
    assert_eq!(ris["strict_errors"], serde_json::json!([]), "{ris:#}");
    let entries = ris["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 1, "{ris:#}");
    assert_eq!(entries[0]["type_of_reference"], "DATA");
    assert_eq!(entries[0]["title"], title);
    assert_eq!(entries[0]["urls"], serde_json::json!([url]), "{ris:#}");
    if let Some(version) = version {
        assert_eq!(cff["data"]["version"], version);
        assert_eq!(bib["fields"]["version"], version);
        assert_eq!(entries[0]["edition"], version);
    }
}

#[test]
fn bundled_citations_parse_and_match_the_page() {
    let Some(python) = python() else { return };
    let (_guard, output) = common::build_bundled();
    let mut checked = 0;
    for entry in std::fs::read_dir(output.join("datasets")).expect("datasets") {
        let page_path = entry.expect("entry").path().join("index.html");
        if !page_path.is_file() {
            continue;
        }
        let slug = page_path
            .parent()
            .and_then(|p| p.file_name())
            .and_then(|n| n.to_str())
            .expect("slug")
            .to_string();
        let package: Value = serde_json::from_slice(
            &std::fs::read(output.join(format!("data/datasets/{slug}.json"))).expect("json"),
        )
        .expect("package");
        let title = package["title"].as_str().expect("title");
        let url = package["homepage"].as_str().expect("homepage");
        let report = check(&python, &output, &slug);
        assert_valid(&report, title, package["version"].as_str(), url);

        let page = common::html(&page_path);
        // The citations' abstract is the lede, the page's summary; the metadata files'
        // description goes on with Method.
        let lede = common::texts(&page, ".dataset-head .lede").concat();
        assert!(lede.len() > 50, "{slug}: {lede}");
        assert_eq!(report["cff"]["data"]["abstract"], lede.as_str(), "{slug}");
        assert_eq!(
            report["ris"]["entries"][0]["abstract"],
            lede.as_str(),
            "{slug}"
        );
        let description = package["description"].as_str().expect("description");
        assert!(
            description.starts_with(&format!("{lede} Method: ")),
            "{description}"
        );
        // Each format on the page with its download made there, and no citation file.
        let shown = common::texts(&page, ".cite-format pre");
        assert_eq!(shown.len(), 3, "{slug}");
        assert!(shown[0].starts_with(&format!("@misc{{{slug}")), "{shown:?}");
        for extension in ["bib", "ris", "cff"] {
            let file = output.join(format!("data/datasets/{slug}.{extension}"));
            assert!(!file.exists(), "{}", file.display());
            let link = format!("a.cite-download[data-file-name='{slug}.{extension}']");
            assert_eq!(common::texts(&page, &link).len(), 1, "{slug}: {link}");
        }
        // The SHA-256 next to the size is the download's.
        let csv = std::fs::read(output.join(format!("data/datasets/{slug}.csv"))).expect("csv");
        let digest: String = Sha256::digest(&csv)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            common::texts(&page, ".download .sha256"),
            [digest],
            "{slug}"
        );
        // The change history: on the page and in the Data Package.
        let changes = package["changes"]
            .as_array()
            .expect("changes in the Data Package");
        assert_eq!(changes[0]["description"], "First publication.");
        assert_eq!(changes[0]["version"], package["version"]);
        let listed = common::texts(&page, ".change-list li");
        assert_eq!(listed.len(), changes.len(), "{slug}");
        assert!(listed[0].contains(changes[0]["date"].as_str().expect("date")));
        checked += 1;
    }
    assert_eq!(checked, 4);
}

/// Builds a one-dataset site with `front` in `dir`; returns its output folder.
fn build_small(dir: &Path, front: &str) -> PathBuf {
    let root = dir.join("site");
    common::write_small_site(&root, front, common::SMALL_BODY, b"label,value\na,1\n");
    let output = dir.join("public");
    let options = datapages::BuildOptions::new(&root)
        .output(&output)
        .scan_cache(false);
    if let Err(error) = datapages::build(&options) {
        panic!("builds:\n{error}");
    }
    output
}

#[test]
fn hostile_titles_stay_one_value_in_every_format() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().expect("temp");
    let title = r#"50% of {braces} & $dollars \ back_slash # ~^ @misc{x, "quoted" -- ER - end"#;
    let front = common::SMALL_FRONT.replace(
        "title = \"Sample\"",
        &format!(
            "title = {}\nversion = \"2.0 \\\"beta\\\"\"\ncreated = 2026-01-02",
            toml::Value::String(title.to_string())
        ),
    ) + "[[changes]]\ndate = 2026-01-02\ndescription = \"Line one.\"\n";
    let output = build_small(dir.path(), &front);
    let report = check(&python, &output, "sample");
    assert_valid(
        &report,
        title,
        Some("2.0 \"beta\""),
        "https://example.org/sub/datasets/sample/",
    );
    let bib_title = report["bib"]["fields"]["title"].as_str().expect("title");
    assert!(
        bib_title.contains("50\\% of \\{braces\\} \\& \\$dollars"),
        "{bib_title}"
    );
}

/// A title and creators written to break out of the page's markup and each format's
/// syntax: closing tags, a script, an attribute, an HTML comment, quotes, RIS and YAML
/// line starts.
const HOSTILE_FRONT: &str = r#"title = "</code></pre></details><script>alert(1)</script> & \"q\" 'a' <!-- ER  - : #"
creators = [
  { name = "Evil\"><img src=x onerror=alert(2)>, Eve" },
  { name = "</a><a href=javascript:alert(3)>Org\nTY  - JOUR", kind = "organization" },
]
"#;

/// By default the page offers each format with a download made from its text and writes
/// no citation file; `citation_files = true` (the dataset's own, then site.toml's) brings
/// the RIS and CFF files back, linked from the page and byte for byte the page's texts.
/// With hostile titles and creators the page stays well-formed: no element, attribute or
/// link comes from them, and each text reads back as the front matter gave it.
#[test]
fn citation_files_come_back_with_their_setting_and_equal_the_page_text() {
    let dir = tempfile::tempdir().expect("temp");
    let hostile = common::SMALL_FRONT.replace("title = \"Sample\"\n", HOSTILE_FRONT);
    let title = "</code></pre></details><script>alert(1)</script> & \"q\" 'a' <!-- ER - : #";
    for (setting, files) in [("", false), ("citation_files = true\n", true)] {
        let front = format!("{setting}{hostile}");
        let output = build_small(&dir.path().join(format!("{files}")), &front);
        let page = common::html(&output.join("datasets/sample/index.html"));
        // Well-formed: the block has its three formats, no script or image came in, every
        // link is the page's own.
        assert_eq!(common::texts(&page, "details.cite-format").len(), 3);
        // Scripts that run (not the JSON-LD and data blocks, which hold the title as data).
        let scripts = scraper::Selector::parse("script").expect("selector");
        for script in page.select(&scripts) {
            let runs = !script
                .value()
                .attr("type")
                .is_some_and(|t| t.contains("json"));
            let text: String = script.text().collect();
            assert!(!(runs && text.contains("alert(")), "{text}");
        }
        assert!(common::texts(&page, "img").is_empty());
        let hrefs = scraper::Selector::parse("a[href]").expect("selector");
        for link in page.select(&hrefs) {
            let href = link.value().attr("href").unwrap_or_default();
            assert!(!href.contains("javascript"), "{href}");
        }
        let ris = page_citation(&output, "sample", "ris");
        assert!(ris.contains(&format!("TI  - {title}\r\n")), "{ris}");
        assert_eq!(ris.matches("\nER  - ").count(), 1, "{ris}");
        assert_eq!(ris.lines().filter(|l| l.starts_with("TY  - ")).count(), 1);
        for extension in ["ris", "cff"] {
            let file = output.join(format!("data/datasets/sample.{extension}"));
            let link = format!("a[href='../../data/datasets/sample.{extension}'][download]");
            let linked = common::texts(&page, &link).len();
            let made = format!("a.cite-download[data-file-name='sample.{extension}']");
            let offered = common::texts(&page, &made).len();
            match files {
                true => {
                    let written = std::fs::read_to_string(&file).expect("citation file");
                    let format = if extension == "ris" { "ris" } else { "cff" };
                    assert_eq!(written, page_citation(&output, "sample", format));
                    assert_eq!((linked, offered), (1, 0), "{extension}");
                }
                false => {
                    assert!(!file.exists(), "{}", file.display());
                    assert_eq!((linked, offered), (0, 1), "{extension}");
                }
            }
        }
        if let Some(python) = python() {
            let report = check(&python, &output, "sample");
            assert_valid(
                &report,
                title,
                None,
                "https://example.org/sub/datasets/sample/",
            );
        }
    }
}

/// Front matter crediting a person with an ORCID iD and an organisation, derived from a
/// source with a publisher; the site's author is "Tester".
const CREDITED: &str = "creators = [\n  { name = \"Doe, Jane\", orcid = \"0000-0002-1825-0097\", affiliation = \"Example University\" },\n  { name = \"Gapminder Foundation\", kind = \"organization\", url = \"https://www.gapminder.org/\" },\n]\n";

#[test]
fn creators_are_credited_everywhere_and_the_site_author_publishes() {
    let dir = tempfile::tempdir().expect("temp");
    let front = common::SMALL_FRONT
        .replace("title = \"Sample\"", &format!("title = \"Sample\"\n{CREDITED}"))
        .replace(
            "title = \"A source\"",
            "title = \"A source\"\npublisher = \"Source House\"\nurl = \"https://example.org/source\"",
        );
    let output = build_small(dir.path(), &front);
    let page = common::html(&output.join("datasets/sample/index.html"));
    let citation = common::texts(&page, ".citation").join(" ");
    assert!(
        citation.starts_with("Cite as: Doe, Jane; Gapminder Foundation"),
        "{citation}"
    );
    assert!(!citation.contains("Tester ("), "{citation}");

    // JSON-LD: a Person identified by the ORCID iD, an Organization, the source as
    // isBasedOn; the site's author stays the publisher.
    let script = common::texts(&page, "script[type='application/ld+json']").join("");
    let json_ld: Value = serde_json::from_str(&script).expect("JSON-LD");
    let creators = json_ld["creator"].as_array().expect("creator list");
    assert_eq!(creators.len(), 2, "{json_ld:#}");
    assert_eq!(creators[0]["@type"], "Person");
    assert_eq!(creators[0]["@id"], "https://orcid.org/0000-0002-1825-0097");
    assert_eq!(creators[0]["name"], "Jane Doe");
    assert_eq!(creators[0]["familyName"], "Doe");
    assert_eq!(creators[0]["affiliation"]["name"], "Example University");
    assert_eq!(creators[1]["@type"], "Organization");
    assert_eq!(creators[1]["name"], "Gapminder Foundation");
    assert_eq!(json_ld["publisher"]["name"], "Tester");
    assert_eq!(json_ld["isBasedOn"][0]["name"], "A source");
    assert_eq!(json_ld["isBasedOn"][0]["url"], "https://example.org/source");

    // Croissant and the Data Package credit the same creators.
    let croissant: Value = serde_json::from_slice(
        &std::fs::read(output.join("data/datasets/sample.croissant.json")).expect("croissant"),
    )
    .expect("croissant JSON");
    assert_eq!(croissant["creator"], json_ld["creator"]);
    let package: Value = serde_json::from_slice(
        &std::fs::read(output.join("data/datasets/sample.json")).expect("package"),
    )
    .expect("package JSON");
    let roles: Vec<(&str, &str)> = package["contributors"]
        .as_array()
        .expect("contributors")
        .iter()
        .map(|c| {
            (
                c["title"].as_str().unwrap_or_default(),
                c["roles"][0].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        roles,
        [
            ("Jane Doe", "creator"),
            ("Gapminder Foundation", "creator"),
            ("Tester", "publisher")
        ]
    );
    // DCAT: both creators, the person as their ORCID iD.
    let turtle = std::fs::read_to_string(output.join("data/catalog.ttl")).expect("ttl");
    assert!(
        turtle.contains("dct:creator <https://orcid.org/0000-0002-1825-0097>"),
        "{turtle}"
    );
    assert!(
        turtle.contains("foaf:name \"Gapminder Foundation\""),
        "{turtle}"
    );

    // The citation files parse and name the creators, never the site's author.
    let Some(python) = python() else { return };
    let report = check(&python, &output, "sample");
    assert_valid(
        &report,
        "Sample",
        None,
        "https://example.org/sub/datasets/sample/",
    );
    let bib_author = report["bib"]["fields"]["author"].as_str().expect("author");
    assert_eq!(bib_author, "Doe, Jane and {Gapminder Foundation}");
    let cff = &report["cff"]["data"];
    assert_eq!(cff["authors"][0]["family-names"], "Doe");
    assert_eq!(cff["authors"][0]["given-names"], "Jane");
    assert_eq!(
        cff["authors"][0]["orcid"],
        "https://orcid.org/0000-0002-1825-0097"
    );
    assert_eq!(cff["authors"][1]["name"], "Gapminder Foundation");
    assert_eq!(cff["references"][0]["title"], "A source");
    assert_eq!(cff["references"][0]["authors"][0]["name"], "Source House");
    let ris = &report["ris"]["entries"][0];
    assert_eq!(
        ris["authors"],
        serde_json::json!(["Doe, Jane", "Gapminder Foundation"])
    );
    // The site's author stays the publisher.
    assert_eq!(report["bib"]["fields"]["publisher"], "Tester");
    assert_eq!(ris["publisher"], "Tester");
}

/// What pybtex (strict: BibTeX's own brace counting) reads of the page's BibTeX, with
/// datapages' escapes undone by tests/validators/bibtex_roundtrip.py.
fn pybtex_reads(python: &Path, output: &Path) -> Value {
    let scratch = tempfile::tempdir().expect("temp");
    let bib = scratch.path().join("sample.bib");
    std::fs::write(&bib, page_bibtex(output, "sample")).expect("write the copied BibTeX");
    let script = common::bundled_site().join("tests/validators/bibtex_roundtrip.py");
    let result = Command::new(python)
        .arg(script)
        .arg(&bib)
        .output()
        .expect("python runs");
    assert!(
        result.status.success(),
        "pybtex refused the BibTeX:\n{}\n{}",
        page_bibtex(output, "sample"),
        String::from_utf8_lossy(&result.stderr)
    );
    serde_json::from_slice(&result.stdout).expect("JSON")
}

/// The hostile fixtures' BibTeX through a real BibTeX parser: a creator named to close the
/// author field and add a title and a URL, lone braces in a title and an organisation,
/// every TeX special character. pybtex reads one entry with datapages' fields only, and
/// each value, once the escapes are undone, is the text the front matter gave.
#[test]
#[ignore = "full tier: pybtex from the validators' venv"]
fn hostile_values_read_back_through_pybtex() {
    let Some(python) = venv_python("import pybtex", "pybtex in the validators' venv") else {
        return;
    };
    let fields = [
        "date",
        "howpublished",
        "note",
        "publisher",
        "title",
        "url",
        "version",
        "year",
    ];
    let dir = tempfile::tempdir().expect("temp");
    let names = dir.path().join("names");
    std::fs::create_dir_all(&names).expect("mkdir");
    let output = crate::hostile_bytes::build_names(&names);
    let read = pybtex_reads(&python, &output);
    assert_eq!(read["entries"], 1, "{read:#}");
    let mut names: Vec<&str> = read["fields"]
        .as_object()
        .expect("fields")
        .keys()
        .map(String::as_str)
        .collect();
    names.sort_unstable();
    assert_eq!(names, fields, "no field but datapages' own: {read:#}");
    assert_eq!(read["fields"]["title"], "Hostile names } {");
    assert_eq!(read["fields"]["year"], "2026");
    assert_eq!(
        read["fields"]["url"],
        "https://example.org/sub/datasets/sample/"
    );
    assert_eq!(
        read["authors"],
        serde_json::json!([
            [
                "title = \"Injected title\", url = \"https://evil.example/\"",
                "Smith}"
            ],
            ["", "Org } of {braces} {"]
        ])
    );

    // Every TeX special character and braces paired and not, in the title and version.
    let title = r#"50% of {braces} & $dollars \ back_slash # ~^ @misc{x, "quoted" -- } {{ and"#;
    let front = common::SMALL_FRONT.replace(
        "title = \"Sample\"",
        &format!(
            "title = {}\nversion = \"2.0 }} {{\"\ncreated = 2026-01-02",
            toml::Value::String(title.to_string())
        ),
    );
    let output = build_small(dir.path(), &front);
    let read = pybtex_reads(&python, &output);
    assert_eq!(read["entries"], 1, "{read:#}");
    assert_eq!(read["fields"]["title"], title, "{read:#}");
    assert_eq!(read["fields"]["version"], "2.0 } {", "{read:#}");
    assert_eq!(
        read["authors"],
        serde_json::json!([["", "Tester"]]),
        "{read:#}"
    );
}
