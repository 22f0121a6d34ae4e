//! The words and numbers a reader sees on the pages of a site in another language (#54
//! item 2): the bundled site and a `new --from` dataset built in French, every text node
//! and every `aria-label`, `title`, `alt` and `placeholder` of every page read, and none
//! holds a phrase of the English catalogue; the numbers of the table, the Columns section's
//! profiles and the charts are written as CLDR writes them (checked against node's
//! `Intl.NumberFormat` in French and German), never with English group marks.

use crate::common;

use std::collections::HashSet;
use std::path::Path;

use common::{copy_bundled_site, html, run};

/// A CSV with thousands, decimals and negative values, and an empty cell.
const TOWNS: &str = "city,population,change,ratio\n\
Alpha,1234567,-1234.5,0.25\n\
Beta,98765,12.75,-0.5\n\
Gamma,2693,-0.125,1.5\n\
Delta,450,3021.5,12\n\
Epsilon,10366,-7.5,\n";

/// The bundled site in `language` with the dataset `towns` added by `new --from`, built
/// into `root/public`.
fn build_in(root: &Path, language: &str) {
    copy_bundled_site(root);
    let path = root.join("site.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replace("language = \"en\"", &format!("language = \"{language}\""));
    std::fs::write(path, text).unwrap();
    common::unbind_figures(root);
    let from = root.join("towns-source.csv");
    std::fs::write(&from, TOWNS).unwrap();
    let root_arg = root.to_str().unwrap();
    let out = run(&[
        "new",
        "towns",
        "--from",
        from.to_str().unwrap(),
        "--root",
        root_arg,
    ]);
    common::assert_success(&out);
    common::build_root(root);
}

/// The literal parts of a message's texts, between its arguments and links, that a reader
/// would recognise as English: at least two words and ten characters.
fn fragments(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut push = |part: &str| {
        let part = part.trim_matches(|c: char| c.is_whitespace() || ",;:.()·".contains(c));
        if part.len() >= 10 && part.contains(' ') {
            out.push(part.to_string());
        }
    };
    while let Some(at) = rest.find(['{', '[', ']']) {
        push(&rest[..at]);
        let tail = &rest[at..];
        let end = match tail.as_bytes()[0] {
            b'{' => tail.find('}').map_or(1, |e| e + 1),
            b']' => tail.find(')').map_or(1, |e| e + 1),
            _ => 1,
        };
        rest = &tail[end..];
    }
    push(rest);
    out
}

/// Every English phrase of the built-in catalogue a page may show (not the scripts' words,
/// which the scripts write, nor the date patterns) that French writes otherwise: whole
/// texts without arguments, and the literal fragments of the others of two words or more;
/// each with whether it is looked for anywhere in a text (a fragment, or a whole text of
/// three words or more) or as a whole text node or attribute ("Table", "JSON metadata",
/// which the bundled site's English prose also writes).
fn english_phrases() -> Vec<(String, bool)> {
    let read = |language: &str| -> toml::Table {
        let path = common::bundled_site().join(format!("i18n/{language}.toml"));
        toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let (en, fr) = (read("en"), read("fr"));
    let texts = |value: &toml::Value| -> Vec<String> {
        match value {
            toml::Value::String(s) => vec![s.clone()],
            toml::Value::Table(forms) => forms
                .values()
                .filter_map(|v| v.as_str().map(String::from))
                .collect(),
            _ => Vec::new(),
        }
    };
    let mut out = Vec::new();
    for (section, table) in &en {
        if section == "format" || section == "script" {
            continue;
        }
        for (key, value) in table.as_table().unwrap() {
            let french: Vec<String> = texts(&fr[section][key]);
            for text in texts(value) {
                let whole = text.len() > 4 && !text.contains(['{', '[']);
                let parts = match whole {
                    true => {
                        let text = text.trim().to_string();
                        let anywhere = text.split_whitespace().count() >= 3;
                        vec![(text, anywhere)]
                    }
                    false => fragments(&text).into_iter().map(|f| (f, true)).collect(),
                };
                out.extend(
                    parts
                        .into_iter()
                        .filter(|(p, _)| !french.iter().any(|f| f.contains(p.as_str()))),
                );
            }
        }
    }
    out.sort();
    out.dedup();
    for phrase in [
        "rows with a value",
        "distinct values",
        "The value axis starts at zero.",
        "Grouped bar chart",
        "A dash (—) stands for a cell left empty in the CSV.",
    ] {
        assert!(out.iter().any(|(p, _)| p == phrase), "{phrase} in {out:?}");
    }
    out
}

/// The text nodes of a page (outside `<script>` and `<style>`) and the attributes a
/// reader sees or hears (`aria-label`, `title`, `alt`, `placeholder`).
fn seen_texts(document: &scraper::Html) -> Vec<String> {
    let mut out = Vec::new();
    for node in document.tree.nodes() {
        match node.value() {
            scraper::Node::Text(text) => {
                let parent = node
                    .parent()
                    .and_then(|p| p.value().as_element().map(|e| e.name()));
                if !matches!(parent, Some("script" | "style")) && !text.trim().is_empty() {
                    out.push(text.to_string());
                }
            }
            scraper::Node::Element(element) => out.extend(
                ["aria-label", "title", "alt", "placeholder"]
                    .iter()
                    .filter_map(|name| element.attr(name).map(String::from)),
            ),
            _ => {}
        }
    }
    out
}

/// The numbers written in `text` with a mark between digits (`2,693`, `1.5`, `0,25`).
fn marked_numbers(text: &str) -> Vec<&str> {
    let is_part = |c: char| c.is_ascii_digit() || c == ',' || c == '.';
    text.split(|c: char| !is_part(c))
        .map(|t| t.trim_matches(|c: char| !c.is_ascii_digit()))
        .filter(|t| t.contains([',', '.']))
        .collect()
}

/// Whether `text` holds a number written with English marks: a decimal point (`1.5`), or
/// a number the English page writes the same (`2,693`; the French `1,969` is 1.969, which
/// the English page writes `1.969`); numbers in the text of the page's own text cells
/// and headers (`SATA 1.5 Gb/s`, also a chart's category; `99.9th percentile`, also in a
/// profile's histogram title) are the data's words, not ours.
fn english_number(text: &str, english: &HashSet<String>, data: &HashSet<String>) -> bool {
    marked_numbers(text)
        .iter()
        .any(|n| !data.contains(*n) && (n.contains('.') || english.contains(*n)))
}

/// The marked numbers the same site writes in English on the page at `path` (under
/// `public`), for `selectors`.
fn english_numbers(path: &Path, selectors: &[&str]) -> HashSet<String> {
    numbers_of(&html(path), selectors)
}

/// The marked numbers of the texts of `selectors` on `page`.
fn numbers_of(page: &scraper::Html, selectors: &[&str]) -> HashSet<String> {
    let texts = selectors.iter().flat_map(|s| raw_texts(page, s));
    texts
        .flat_map(|t| {
            marked_numbers(&t)
                .into_iter()
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Stand-ins for a selector in [`raw_texts`]: the cells of the tables' number columns and
/// of their other columns ([`common::table_cells`]), which no CSS selector can name.
const NUMBER_CELLS: &str = "number cells";
const TEXT_CELLS: &str = "text cells";

/// The text of every element matching `selector`, trimmed but otherwise as written (the
/// narrow no-break spaces of French numbers kept).
fn raw_texts(document: &scraper::Html, selector: &str) -> Vec<String> {
    match selector {
        NUMBER_CELLS => return common::table_cells(document, true),
        TEXT_CELLS => return common::table_cells(document, false),
        _ => {}
    }
    let selector = scraper::Selector::parse(selector).expect("selector");
    let text = |e: scraper::ElementRef| e.text().collect::<String>().trim().to_string();
    document.select(&selector).map(text).collect()
}

#[test]
fn a_french_site_shows_no_english_phrase_and_no_english_number_on_any_page() {
    let dir = tempfile::tempdir().unwrap();
    build_in(dir.path(), "fr");
    let public = dir.path().join("public");
    let english_dir = tempfile::tempdir().unwrap();
    build_in(english_dir.path(), "en");
    let english_public = english_dir.path().join("public");
    let english = english_phrases();
    let mut pages = 0;
    for entry in walkdir::WalkDir::new(&public) {
        let entry = entry.unwrap();
        if entry.path().extension().is_none_or(|e| e != "html") {
            continue;
        }
        pages += 1;
        let page = html(entry.path());
        for text in seen_texts(&page) {
            let found = |(p, anywhere): &(String, bool)| match anywhere {
                true => text.contains(p.as_str()),
                false => text.trim() == p,
            };
            for phrase in &english {
                assert!(
                    !found(phrase),
                    "{:?} in {text:?} on {}",
                    phrase.0,
                    entry.path().display()
                );
            }
        }
        // Numbers the theme writes: table cells, profiles, charts.
        let selectors = [
            NUMBER_CELLS,
            "p.profile",
            "svg text",
            "svg title",
            "svg desc",
            ".column-summary li",
        ];
        let relative = entry.path().strip_prefix(&public).unwrap();
        let english = english_numbers(&english_public.join(relative), &selectors);
        let data = numbers_of(&page, &[TEXT_CELLS, "th", ".column-title"]);
        for selector in selectors {
            for text in raw_texts(&page, selector) {
                assert!(
                    !english_number(&text, &english, &data),
                    "{selector} {text:?} on {}",
                    entry.path().display()
                );
            }
        }
    }
    assert!(pages > 15, "{pages} pages");
    // The checks above can fail: the English page has both.
    let page = english_public.join("datasets/towns/index.html");
    let english = english_numbers(&page, &[NUMBER_CELLS, "p.profile"]);
    let none = HashSet::new();
    assert!(english_number("de 1,234,567 à 2", &english, &none));
    assert!(english_number("-1,234.5", &english, &none));
    assert!(!english_number("1,5 et 2,75", &english, &none));
    assert!(fragments("{n} rows with a value").contains(&"rows with a value".to_string()));
}

/// Whether node runs (outside CI a test without it is skipped).
pub(crate) fn node_present() -> bool {
    let present = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    common::tool_present("node", present)
}

/// What node's `Intl.NumberFormat` writes for each plain number in `language`; `None`
/// without node (outside CI).
pub(crate) fn intl(language: &str, numbers: &[&str]) -> Option<Vec<String>> {
    if !node_present() {
        return None;
    }
    let script = "const [lang, list] = process.argv.slice(1); \
        const f = new Intl.NumberFormat(lang, { useGrouping: true, maximumFractionDigits: 20 }); \
        console.log(JSON.stringify(JSON.parse(list).map((n) => f.format(Number(n)))));";
    let out = std::process::Command::new("node")
        .args([
            "-e",
            script,
            language,
            &serde_json::to_string(numbers).unwrap(),
        ])
        .output()
        .unwrap();
    common::assert_success(&out);
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

#[test]
fn numbers_in_cells_and_profiles_are_what_cldr_writes_in_french_and_german() {
    for language in ["fr", "de"] {
        let dir = tempfile::tempdir().unwrap();
        build_in(dir.path(), language);
        let page = html(&dir.path().join("public/datasets/towns/index.html"));
        // The CSV's numbers, column by column, as the table shows them.
        let written: Vec<&str> = TOWNS
            .lines()
            .skip(1)
            .flat_map(|l| l.split(',').skip(1).filter(|v| !v.is_empty()))
            .collect();
        let shown = raw_texts(&page, NUMBER_CELLS);
        let Some(cldr) = intl(language, &written) else {
            return;
        };
        assert_eq!(shown, cldr, "{language}: the table's numbers");
        // Each profile's range, from the least value to the greatest.
        let range = |column: &[&str]| -> [String; 2] {
            let mut sorted: Vec<f64> = column.iter().map(|v| v.parse().unwrap()).collect();
            sorted.sort_by(f64::total_cmp);
            [sorted[0].to_string(), sorted[sorted.len() - 1].to_string()]
        };
        let profiles = raw_texts(&page, "p.profile");
        let columns: Vec<Vec<&str>> = (1..4)
            .map(|c| {
                let cells = TOWNS.lines().skip(1).map(|l| l.split(',').nth(c).unwrap());
                cells.filter(|v| !v.is_empty()).collect()
            })
            .collect();
        for (column, profile) in columns.iter().zip(&profiles[1..]) {
            let [min, max] = range(column);
            let cldr = intl(language, &[&min, &max]).unwrap();
            let said = match language {
                "fr" => format!("de {} à {}", cldr[0], cldr[1]),
                _ => format!("von {} bis {}", cldr[0], cldr[1]),
            };
            assert!(
                profile.contains(&said),
                "{language}: {said:?} in {profile:?}"
            );
        }
    }
}

/// static/table.js sorts a column of numbers in the page's marks by value and its filter
/// finds them as the CSV writes them (tests/browser/table-numbers.test.js, in Node);
/// skipped without Node unless CI=true.
#[test]
fn the_table_script_sorts_and_filters_numbers_in_the_page_marks() {
    if !node_present() {
        return;
    }
    let file = common::bundled_site().join("tests/browser/table-numbers.test.js");
    let out = std::process::Command::new("node")
        .arg("--test")
        .arg(file)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("# pass 4"), "{report}");
}

/// A site's own catalogue is an input of every page: changing a message re-renders the
/// pages that show it, where a build would otherwise find nothing changed.
#[test]
fn editing_a_site_catalogue_renders_the_pages_again() {
    let dir = tempfile::tempdir().unwrap();
    build_in(dir.path(), "fr");
    std::fs::create_dir(dir.path().join("i18n")).unwrap();
    let text = "[profile]\nmean = \"valeur moyenne {mean}\"\n";
    std::fs::write(dir.path().join("i18n/fr.toml"), text).unwrap();
    common::build_root(dir.path());
    let page = html(&dir.path().join("public/datasets/towns/index.html"));
    let profiles = raw_texts(&page, "p.profile");
    assert!(
        profiles[1].contains("valeur moyenne 269\u{202f}368"),
        "{profiles:?}"
    );
}
