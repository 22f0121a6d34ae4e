//! A column's `digits` (#33): one column with `digits = 1` is shown at one decimal place
//! in the table, its profile (range, mean, histogram bins), the prose's figures (unless a
//! figure sets its own `digits=`) and its charts (value ticks, point titles, value
//! labels), while the download keeps the CSV's bytes.

use crate::common;

/// The small site's front matter with `value` a number column at `digits = 1`, figures in
/// the headline, a year column and two charts of `value`.
fn front() -> String {
    common::SMALL_FRONT
        .replace(
            "headline = \"A sample dataset\"",
            r#"headline = "Alpha reads {{ cell(label=\"alpha\", col=\"value\") }}, at most {{ max(col=\"value\") }}""#,
        )
        .replace("type = \"integer\"", "type = \"number\"\ndigits = 1")
        + r#"[[columns]]
name = "year"
title = "Year"
type = "integer"
description = "The year."
[[charts]]
kind = "line"
title = "Values"
x = "year"
y = "value"
[[charts]]
kind = "bar"
title = "Bars"
x = "label"
y = "value"
"#
}

const BODY: &str = "\nThe lede, from [a source](#source-src). Beta is {{ cell(label=\"beta\", col=\"value\") }}, \
the mean {{ mean(col=\"value\") }}, exactly {{ cell(label=\"beta\", col=\"value\", digits=3) }}.\n\n\
## Method\n\nCounted.\n\n## Limits\n\nFew.\n";

const CSV: &[u8] =
    b"label,value,year\nalpha,7.0520000000000005,2001\nbeta,12.3456,2002\ngamma,3,2003\ndelta,25.75,2004\n";

/// Whether `text` is a number written with exactly one decimal place (`1,234.5`).
fn one_decimal(text: &str) -> bool {
    let plain = text.replace(',', "");
    plain.parse::<f64>().is_ok() && plain.split_once('.').is_some_and(|(_, f)| f.len() == 1)
}

/// The texts of every `<text>` and `<title>` of an SVG that read as numbers.
fn svg_numbers(svg: &str) -> Vec<String> {
    let mut found = Vec::new();
    for piece in svg.split('<').skip(1) {
        let Some((tag, text)) = piece.split_once('>') else {
            continue;
        };
        if !(tag.starts_with("text") || tag.starts_with("title")) {
            continue;
        }
        // A point's title is "x: value".
        let value = text.rsplit(": ").next().unwrap_or(text).trim();
        if value.replace(',', "").parse::<f64>().is_ok() {
            found.push(value.to_string());
        }
    }
    found
}

#[test]
fn a_column_with_digits_is_shown_at_one_decimal_everywhere_but_the_download() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    common::write_small_site(&root, &front(), BODY, CSV);
    // Four rows: a histogram only when site.toml asks for one at any count.
    let site_toml = root.join("site.toml");
    let text = std::fs::read_to_string(&site_toml).unwrap();
    std::fs::write(&site_toml, format!("histogram_min_values = 0\n{text}")).unwrap();
    common::build_root(&root);
    let public = root.join("public");
    let page = common::html(&public.join("datasets/sample/index.html"));

    // The table: the value column at one decimal, the year column as written.
    let cells = common::texts(&page, "#table tbody td:nth-child(2)");
    assert_eq!(cells, ["7.1", "12.3", "3.0", "25.8"]);
    let years = common::texts(&page, "#table tbody td:nth-child(3)");
    assert_eq!(years, ["2001", "2002", "2003", "2004"]);

    // The profile: range and mean, and every histogram bin's edges.
    let profile = common::texts(&page, "#column-value .profile").join(" ");
    assert!(profile.contains("from 3.0 to 25.8; mean 12.0"), "{profile}");
    let source = std::fs::read_to_string(public.join("datasets/sample/index.html")).unwrap();
    let profile_html = &source[source.find("id=\"column-value\"").unwrap()..];
    let profile_html = &profile_html[..profile_html.find("</li>").unwrap()];
    let bins: Vec<&str> = profile_html
        .split("<title>")
        .skip(2)
        .map(|t| &t[..t.find(':').unwrap()])
        .collect();
    assert!(!bins.is_empty());
    for bin in &bins {
        let (from, to) = bin.split_once(" to under ").unwrap();
        assert!(one_decimal(from) && one_decimal(to), "{bin}");
    }

    // The figures: the column's digits, unless the figure sets its own.
    let figures = common::texts(&page, "data");
    for expected in ["7.1", "25.8", "12.3", "12.0", "12.346"] {
        assert!(
            figures.iter().any(|f| f == expected),
            "{expected}: {figures:?}"
        );
    }

    // The charts: ticks, point titles and value labels of the value column.
    for chart in ["sample-values.svg", "sample-bars.svg"] {
        let svg = std::fs::read_to_string(public.join("data/datasets").join(chart)).unwrap();
        let numbers: Vec<String> = svg_numbers(&svg)
            .into_iter()
            // The year ticks across: whole years, without a group mark.
            .filter(|n| !["2001", "2002", "2003", "2004"].contains(&n.as_str()))
            .collect();
        assert!(numbers.len() >= 8, "{chart}: {numbers:?}");
        assert!(
            numbers.iter().all(|n| one_decimal(n)),
            "{chart}: {numbers:?}"
        );
        for value in ["7.1", "12.3", "3.0", "25.8"] {
            assert!(
                numbers.iter().any(|n| n == value),
                "{chart}: {value} in {numbers:?}"
            );
        }
    }

    // The download keeps the CSV's bytes.
    assert_eq!(
        std::fs::read(public.join("data/datasets/sample.csv")).unwrap(),
        CSV
    );
}
