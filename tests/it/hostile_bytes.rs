//! Hostile bytes never break a file. A site whose CSV cells and chart labels hold every
//! character HTML and XML cannot carry (C0 controls, DEL, C1 controls, U+FFFE, U+FFFF)
//! builds with warnings, and then every XML output is parsed by a real XML parser
//! (Python's expat, which refuses those characters), every JSON output by serde_json,
//! and no HTML, SVG or XML output holds one of them. Where the characters are refused
//! (front matter, Markdown, site.toml), each one is an error at its line and column.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use datapages::Severity;

/// Every character the outputs must never carry, plus tab, line feed and carriage
/// return, which they may.
fn hostile_chars() -> Vec<char> {
    (0..0x20u32)
        .chain(0x7f..=0x9f)
        .chain([0xfffe, 0xffff])
        .filter_map(char::from_u32)
        .collect()
}

/// Whether XML 1.0 forbids `c` (or advises against it): C0 controls other than tab, line
/// feed and carriage return, DEL and the C1 controls, U+FFFE and U+FFFF. Written out here
/// rather than taken from the library, so the test does not trust what it tests.
fn is_forbidden(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{fffe}' | '\u{ffff}')
}

/// A CSV field, quoted so that commas, quotes and line breaks stay inside it.
fn field(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

const FRONT: &str = r#"title = "Hostile <script>alert('t')</script> & \"quotes\""
kicker = "a test"
headline = "Cells with every control character </title>]]>"
tags = ["Tag <b>&", "Other"]
temporal_coverage = "2021-05/.."
updated = 2026-11-30
[[sources]]
id = "src"
title = "A source"
url = "https://example.org/a?b=1&c=<2>"
[[columns]]
name = "label"
title = "Label"
type = "string"
description = "A label holding one hostile character."
[[columns]]
name = "group"
title = "Group"
type = "string"
description = "Two groups, one named with hostile characters."
[[columns]]
name = "value"
title = "Value"
type = "integer"
unit = "m<sup>&</sup>"
description = "A value <b>'bold'</b> & more."
[[charts]]
id = "bars"
kind = "bar"
title = "Values by label"
x = "label"
y = "value"
[[charts]]
id = "groups"
kind = "grouped-bar"
title = "Values by label and group"
x = "label"
y = "value"
series = "group"
[[charts]]
id = "dots"
kind = "dot"
title = "Values as dots"
x = "value"
y = "value"
series = "label"
"#;

/// Rows whose labels and groups hold each hostile character, and one row with all of them.
fn hostile_csv() -> Vec<u8> {
    let mut csv = String::from("label,group,value\n");
    let all: String = hostile_chars().into_iter().collect();
    for (index, c) in hostile_chars().into_iter().enumerate() {
        let group = if index % 2 == 0 {
            format!("A{c}")
        } else {
            "B".into()
        };
        csv.push_str(&format!(
            "{},{},{index}\n",
            field(&format!("r{index}{c}<&>")),
            field(&group)
        ));
    }
    csv.push_str(&format!("{},{},999\n", field(&all), field(&all)));
    csv.into_bytes()
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.expect("walk").into_path())
        .filter(|p| p.is_file())
        .collect()
}

fn extension(path: &Path) -> &str {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
}

/// Parses each file with expat (Python's xml.etree); returns the files it refused, with
/// expat's reason. `None` when Python is not installed.
fn xml_refusals(files: &[PathBuf]) -> Option<Vec<String>> {
    const SCRIPT: &str = "import sys, xml.etree.ElementTree as E\nfor p in sys.argv[1:]:\n    try:\n        E.parse(p)\n    except Exception as e:\n        print(p + ': ' + str(e))\n";
    let output = Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .args(files)
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    Some(
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(str::to_string)
            .collect(),
    )
}

#[test]
fn the_xml_checker_refuses_what_it_must() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.xml");
    std::fs::write(&good, "<a>tab\there &amp; \u{85}</a>").unwrap();
    let mut files = vec![good];
    for bad in [
        "<a>\u{0}</a>",
        "<a>\u{1b}[31m</a>",
        "<a>\u{fffe}</a>",
        "<a><b></a>",
    ] {
        let path = dir.path().join(format!("bad{}.xml", files.len()));
        std::fs::write(&path, bad).unwrap();
        files.push(path);
    }
    let Some(refused) = xml_refusals(&files) else {
        assert!(!common::tool_present("python3", false));
        return;
    };
    assert_eq!(refused.len(), 4, "{refused:?}");
    assert!(
        refused.iter().all(|r| !r.contains("good.xml")),
        "{refused:?}"
    );
}

#[test]
fn hostile_cells_build_into_well_formed_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let csv = hostile_csv();
    common::write_small_site(root, FRONT, common::SMALL_BODY, &csv);

    let diagnostics = common::check_all(root);
    assert!(!diagnostics.has_errors(), "{}", diagnostics.render(false));
    let warnings: Vec<&str> = diagnostics
        .items()
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .map(|d| &*d.message)
        .collect();
    assert!(
        warnings
            .iter()
            .any(|m| m.starts_with("`label` holds U+0000 (NUL)")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|m| m.contains("more character problems")),
        "{warnings:?}"
    );

    let output = root.join("public");
    let options = datapages::BuildOptions::new(root)
        .output(&output)
        .scan_cache(false);
    if let Err(error) = datapages::build(&options) {
        panic!("the site builds with warnings only:\n{error}");
    }

    let files = files_under(&output);
    let markup: Vec<&PathBuf> = files
        .iter()
        .filter(|p| matches!(extension(p), "html" | "svg" | "xml"))
        .collect();
    let xml: Vec<PathBuf> = files
        .iter()
        .filter(|p| matches!(extension(p), "svg" | "xml"))
        .cloned()
        .collect();
    let names: Vec<String> = xml
        .iter()
        .map(|p| p.strip_prefix(&output).unwrap().display().to_string())
        .collect();
    for expected in [
        "feed.xml",
        "sitemap.xml",
        "data/datasets/sample-bars.svg",
        "data/datasets/sample-groups.svg",
        "data/datasets/sample-dots.svg",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} in {names:?}"
        );
    }

    match xml_refusals(&xml) {
        Some(refused) => assert!(refused.is_empty(), "ill-formed XML: {refused:#?}"),
        None => {
            common::tool_present("python3", false);
        }
    }

    for path in &markup {
        let bytes = std::fs::read(path).unwrap();
        let text = String::from_utf8(bytes).expect("outputs are UTF-8");
        if let Some((at, c)) = text.char_indices().find(|(_, c)| is_forbidden(*c)) {
            panic!("{} holds U+{:04X} at byte {at}", path.display(), c as u32);
        }
    }
    let page = std::fs::read_to_string(output.join("datasets/sample/index.html")).unwrap();
    assert!(
        page.contains("<td>r0\u{fffd}&lt;&amp;&gt;</td>"),
        "cells show U+FFFD"
    );
    assert!(
        page.contains("<title id=\"dpc-bars-title\">"),
        "charts are inline"
    );
    assert!(
        page.contains("<h1>Cells with every control character &lt;/title&gt;]]&gt;</h1>"),
        "headlines are escaped"
    );
    assert!(
        page.contains("<title>Hostile &lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt; &amp; &quot;quotes&quot;"),
        "titles are escaped"
    );
    assert!(
        !page.contains("<script>alert('t')</script>"),
        "titles are escaped"
    );
    assert!(
        page.contains(
            "<li id=\"column-value\"><strong class=\"column-title\">Value</strong> <code>value</code> \
             <span class=\"column-type\">(integer, m&lt;sup&gt;&amp;&lt;/sup&gt;)</span>: \
             A value &lt;b&gt;&#39;bold&#39;&lt;/b&gt; &amp; more.\n      <p class=\"profile\">"
        ),
        "the Columns section escapes units and descriptions"
    );

    for path in files.iter().filter(|p| extension(p) == "json") {
        let text = std::fs::read_to_string(path).unwrap();
        if let Err(e) = serde_json::from_str::<serde_json::Value>(&text) {
            panic!("{} is not JSON: {e}", path.display());
        }
    }
    assert_eq!(
        std::fs::read(output.join("data/datasets/sample.csv")).unwrap(),
        csv,
        "the download is the file, byte for byte"
    );
}

/// Loads the site in `root` and returns its errors as `file:line:column message`.
fn errors(root: &Path) -> Vec<String> {
    let diagnostics = common::check_all(root);
    diagnostics
        .items()
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{} {}", d.location(), d.message))
        .collect()
}

#[test]
fn every_hostile_character_in_what_authors_write_is_an_error_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let csv = b"label,value\na,1\n";
    for c in hostile_chars().into_iter().filter(|c| is_forbidden(*c)) {
        let code = c as u32;
        let name = format!("U+{code:04X}");
        // Raw in the title, the kicker (as a TOML escape) and the Markdown body.
        let front = common::SMALL_FRONT
            .replace("title = \"Sample\"", &format!("title = \"Sam{c}ple\""))
            .replace(
                "kicker = \"a test\"",
                &format!("kicker = \"a \\u{code:04X}test\""),
            );
        common::write_small_site(root, &front, common::SMALL_BODY, csv);
        let found = errors(root);
        assert_eq!(
            found.len(),
            1,
            "{name}: the raw title stops the file: {found:?}"
        );
        assert!(
            found[0].starts_with("content/datasets/sample.md:2:13 the front matter holds ")
                && found[0].contains(&name),
            "{name}: {found:?}"
        );

        let front = common::SMALL_FRONT.replace(
            "kicker = \"a test\"",
            &format!("kicker = \"a \\u{code:04X}test\""),
        );
        let body = common::SMALL_BODY.replace("Counted.", &format!("Coun{c}ted."));
        common::write_small_site(root, &front, &body, csv);
        let found = errors(root);
        let expected = [
            format!("content/datasets/sample.md:3:13 the escape `\\u{code:04X}` stands for {name}"),
            format!("content/datasets/sample.md:25:5 the Markdown holds {name}"),
        ];
        assert_eq!(found.len(), 2, "{name}: {found:?}");
        for expected in &expected {
            assert!(
                found.iter().any(|f| f.starts_with(expected.as_str())),
                "{expected} in {found:?}"
            );
        }

        common::write_small_site(root, common::SMALL_FRONT, common::SMALL_BODY, csv);
        let site = std::fs::read_to_string(root.join("site.toml")).unwrap();
        std::fs::write(
            root.join("site.toml"),
            site.replace("Test site", &format!("Test{c} site")),
        )
        .unwrap();
        let found = errors(root);
        assert_eq!(found.len(), 1, "{name}: {found:?}");
        assert!(
            found[0].starts_with(&format!("site.toml:1:14 site.toml holds {name}")),
            "{found:?}"
        );
    }
}

#[test]
fn raw_html_in_markdown_is_kept_or_escaped_as_site_toml_says() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let body = common::SMALL_BODY.replace("Counted.", "Counted <em class=\"x\">by hand</em>.");
    common::write_small_site(root, common::SMALL_FRONT, &body, b"label,value\na,1\n");
    let build = |raw_html: Option<&str>| {
        if let Some(setting) = raw_html {
            let site = std::fs::read_to_string(root.join("site.toml")).unwrap();
            std::fs::write(
                root.join("site.toml"),
                format!("{site}[markdown]\nraw_html = \"{setting}\"\n"),
            )
            .unwrap();
        }
        let result = common::run(&["build", "--root", root.to_str().unwrap()]);
        assert!(
            result.status.success(),
            "{}",
            String::from_utf8_lossy(&result.stderr)
        );
        std::fs::read_to_string(root.join("public/datasets/sample/index.html")).unwrap()
    };
    let kept = build(None);
    assert!(
        kept.contains("Counted <em class=\"x\">by hand</em>."),
        "kept by default"
    );
    let escaped = build(Some("escape"));
    assert!(
        escaped.contains("Counted &lt;em class=\"x\"&gt;by hand&lt;/em&gt;."),
        "escaped on request"
    );
}

/// Names and values built to break each format, snippet, citation and the explorer: R's
/// empty row-names header beside a column named `rownames`, `Object.prototype` members
/// (`constructor`, `__proto__`, `toString`), R's reserved `NA_complex_`, the snippets'
/// hostile name, a name over three lines with a `+++` line; `"` among the missing values;
/// a title and creators with lone braces and a name that closes BibTeX's author field.
/// The citation (pybtex), snippet (pandas, Polars, DuckDB) and explorer (Chromium) tests
/// of the full tier read the same site.
pub const NAMES_FRONT: &str = r#"title = "Hostile names } {"
kicker = "a test"
headline = "Columns named to break readers"
updated = 2026-01-02
version = "1.0.0"
missing_values = ["", "NA", "\""]
creators = [
  { name = 'Smith}, title = "Injected title", url = "https://evil.example/"' },
  { name = "Org } of {braces} {", kind = "organization" },
]
[[sources]]
id = "src"
title = "A source"
[[columns]]
name = ""
title = "Row name"
type = "string"
description = "R's row names."
[[columns]]
name = "rownames"
title = "Row names column"
type = "integer"
description = "A column of the name R's row names are published under."
[[columns]]
name = "constructor"
title = "Constructor"
type = "string"
description = "A repeated value: a facet."
[[columns]]
name = "__proto__"
title = "Proto"
type = "string"
description = "A repeated value: a facet."
[[columns]]
name = "toString"
title = "To string"
type = "integer"
description = "A count."
[[columns]]
name = "NA_complex_"
title = "NA complex"
type = "number"
description = "A measurement."
[[columns]]
name = "naïve \"q\" 'v' \\ x"
title = "Naive"
type = "string"
description = "Quotes of both kinds and a backslash."
[[columns]]
name = "a\n+++\nb"
title = "Fenced"
type = "string"
description = "A name over three lines."
"#;

pub const NAMES_CSV: &str = "\"\",rownames,constructor,__proto__,toString,NA_complex_,\"naïve \"\"q\"\" 'v' \\ x\",\"a\n+++\nb\"\n\
\"1\",1,McLaren,x,1,1.5,\"p \"\"q\"\"\",p\n\
\"2\",2,Ferrari,\"\"\"\",2,NA,NA,q\n\
\"3\",3,McLaren,y,,\"\"\"\",v,NA\n\
\"4\",4,Ferrari,x,4,2.5,w,\"\"\"\"\n\
\"5\",5,McLaren,y,5,3,x,r\n\
\"6\",6,Ferrari,x,6,-1,y,s\n";

/// The names every format publishes, in the CSV's order: R's row names under a name no
/// other column has.
pub const NAMES: [&str; 8] = [
    "rownames_2",
    "rownames",
    "constructor",
    "__proto__",
    "toString",
    "NA_complex_",
    "naïve \"q\" 'v' \\ x",
    "a\n+++\nb",
];

/// The missing cells of each column of [`NAMES_CSV`] (`""`, `NA` and `"`).
pub const NAMES_MISSING: [u64; 8] = [0, 0, 0, 1, 1, 2, 1, 2];

/// The depth of braces as BibTeX, biber and pybtex count them (backslashes change
/// nothing); `None` when a `}` closes more than was opened.
fn bibtex_depth(text: &str) -> Option<i64> {
    text.chars().try_fold(0i64, |depth, c| match c {
        '{' => Some(depth + 1),
        '}' => (depth > 0).then(|| depth - 1),
        _ => Some(depth),
    })
}

/// The hostile names site, built into `dir/public`; returns that folder.
pub fn build_names(dir: &Path) -> PathBuf {
    let root = dir.join("site");
    let front = NAMES_FRONT.replace("updated = ", "parquet = true\nupdated = ");
    common::write_small_site(&root, &front, common::SMALL_BODY, NAMES_CSV.as_bytes());
    let output = dir.join("public");
    let options = datapages::BuildOptions::new(&root)
        .output(&output)
        .scan_cache(false);
    if let Err(error) = datapages::build(&options) {
        panic!("the site builds:\n{error}");
    }
    output
}

#[test]
fn hostile_names_give_one_name_per_column_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let output = build_names(dir.path());
    let data = output.join("data/datasets");
    let json = |name: &str| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(data.join(name)).unwrap()).unwrap()
    };
    let names = |value: &serde_json::Value, key: &str| -> Vec<String> {
        value
            .as_array()
            .unwrap()
            .iter()
            .map(|field| field[key].as_str().unwrap().to_string())
            .collect()
    };
    let package = json("sample.json");
    assert_eq!(
        names(&package["resources"][0]["schema"]["fields"], "name"),
        NAMES
    );
    let csvw = json("sample.csv-metadata.json");
    let csvw_names = names(&csvw["tableSchema"]["columns"], "name");
    assert_eq!(csvw_names[..2], ["rownames_2", "rownames"]);
    let croissant = json("sample.croissant.json");
    let fields = names(&croissant["recordSet"][0]["field"], "name");
    assert_eq!(
        fields,
        NAMES[1..],
        "R's row names are left out of Croissant"
    );
    let page = std::fs::read_to_string(output.join("datasets/sample/index.html")).unwrap();
    let json_ld = page
        .split("<script type=\"application/ld+json\">")
        .nth(1)
        .and_then(|rest| rest.split("</script>").next())
        .unwrap();
    let json_ld: serde_json::Value = serde_json::from_str(json_ld).unwrap();
    assert_eq!(names(&json_ld["variableMeasured"], "propertyID"), NAMES);
    for listed in [csvw_names, fields] {
        let mut unique = listed.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), listed.len(), "{listed:?}");
    }

    // The Parquet copy's schema: one field per column, each named once.
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let file = std::fs::File::open(data.join("sample.parquet")).unwrap();
    let reader = SerializedFileReader::new(file).unwrap();
    let schema = reader.metadata().file_metadata().schema_descr_ptr();
    let parquet_names: Vec<&str> = schema.columns().iter().map(|c| c.name()).collect();
    assert_eq!(parquet_names, NAMES);

    // The R snippet quotes the reserved word; the BibTeX keeps its fields, each balanced.
    let document = scraper::Html::parse_document(&page);
    let text = |selector: &str| -> String {
        let selector = scraper::Selector::parse(selector).unwrap();
        document.select(&selector).next().unwrap().text().collect()
    };
    let r = text("#use-r pre code");
    assert!(r.contains("\"NA_complex_\" = col_double()"), "{r}");
    let bibtex = text("#cite-bibtex pre");
    let lines: Vec<&str> = bibtex.lines().collect();
    let fields: Vec<&str> = lines[1..lines.len() - 1]
        .iter()
        .map(|line| line.trim_start().split(' ').next().unwrap_or_default())
        .collect();
    assert_eq!(
        fields,
        [
            "author",
            "title",
            "year",
            "date",
            "version",
            "publisher",
            "howpublished",
            "url",
            "note"
        ],
        "{bibtex}"
    );
    for line in &lines[1..lines.len() - 1] {
        assert_eq!(bibtex_depth(line), Some(0), "{line}");
    }
    assert!(
        bibtex.contains("title = {{Hostile names \\textbraceright{} \\textbraceleft{}}}"),
        "{bibtex}"
    );
    // Every output well-formed, as for the hostile cells.
    for path in files_under(&output) {
        if extension(&path) == "json" {
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(
                serde_json::from_str::<serde_json::Value>(&text).is_ok(),
                "{}",
                path.display()
            );
        }
    }
    let xml: Vec<PathBuf> = files_under(&output)
        .into_iter()
        .filter(|p| matches!(extension(p), "svg" | "xml"))
        .collect();
    if let Some(refused) = xml_refusals(&xml) {
        assert!(refused.is_empty(), "ill-formed XML: {refused:#?}");
    }
}

/// The hostile names site through the standards' own tools: frictionless validates the
/// Data Package against the CSV, csvw (strict) the CSVW metadata, `mlcroissant validate`
/// the Croissant file. (mlcroissant does not load the records: Croissant 1.0 cannot say
/// that `"` means a missing number, and its reader, pandas, takes only its own defaults.)
#[test]
#[ignore = "full tier: frictionless, csvwvalidate and mlcroissant from the validators' venv"]
fn hostile_names_pass_frictionless_csvw_and_mlcroissant() {
    let bin = common::bundled_site().join("target/validators-venv/bin");
    let present = ["frictionless", "csvwvalidate", "mlcroissant"]
        .iter()
        .all(|tool| bin.join(tool).is_file());
    if !common::tool_present(
        "frictionless, csvwvalidate and mlcroissant (validators venv)",
        present,
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = build_names(dir.path()).join("data/datasets");
    let report = Command::new(bin.join("frictionless"))
        .args(["validate", "--json", "--type", "package"])
        .arg(data.join("sample.json"))
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&report.stdout).unwrap();
    assert_eq!(report["valid"], true, "{report:#}");
    assert_eq!(report["tasks"][0]["stats"]["fields"], NAMES.len() as u64);
    let csvw = Command::new(bin.join("csvwvalidate"))
        .arg(data.join("sample.csv-metadata.json"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&csvw.stdout);
    assert!(
        csvw.status.success() && stdout.trim() == "OK",
        "{stdout}{}",
        String::from_utf8_lossy(&csvw.stderr)
    );
    crate::harvest::assert_croissant_validates(&bin, &data.join("sample.croissant.json"), "sample");
}
