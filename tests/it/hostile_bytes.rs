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
