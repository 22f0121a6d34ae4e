//! Date columns with a `format` (issue #32, item 1): one dataset per spelling real files
//! use, built into a site; the pages show every date in ISO style, profiles compare the
//! dates read, a quarterly line's points lie at each quarter's first day, and **(full
//! tier)** frictionless, csvw and mlcroissant accept the exported descriptors against the
//! untouched CSVs.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;

/// Slug, column type, format, the CSV's `when` cells, and what the page shows for them.
type Case = (
    &'static str,
    &'static str,
    &'static str,
    [&'static str; 3],
    [&'static str; 3],
);

const CASES: &[Case] = &[
    (
        "iso-basic",
        "date",
        "%Y%m%d",
        ["19580329", "19580401", "19600101"],
        ["1958-03-29", "1958-04-01", "1960-01-01"],
    ),
    (
        "month-names",
        "date",
        "%b-%d-%Y",
        ["Jan-1-1995", "Feb-15-1995", "Dec-3-1995"],
        ["1995-01-01", "1995-02-15", "1995-12-03"],
    ),
    (
        "year-month",
        "date",
        "%m/%Y",
        ["03/2019", "04/2019", "12/2019"],
        ["2019-03", "2019-04", "2019-12"],
    ),
    (
        "day-first",
        "date",
        "%d/%m/%Y",
        ["04/03/2019", "25/12/2019", "01/01/2020"],
        ["2019-03-04", "2019-12-25", "2020-01-01"],
    ),
    (
        "month-first",
        "date",
        "%m/%d/%Y",
        ["03/04/2019", "12/25/2019", "01/01/2020"],
        ["2019-03-04", "2019-12-25", "2020-01-01"],
    ),
    (
        "iso-week",
        "date",
        "%G-W%V",
        ["2019-W07", "2019-W08", "2020-W53"],
        ["2019-W07", "2019-W08", "2020-W53"],
    ),
    (
        "quarter",
        "date",
        "%YQ%q",
        ["1974Q1", "1974Q2", "1974Q3"],
        ["1974 Q1", "1974 Q2", "1974 Q3"],
    ),
    (
        "no-seconds-no-zone",
        "datetime",
        "%Y-%m-%d %H:%M",
        ["1995-01-01 13:45", "1995-01-01 14:00", "1995-01-02 09:30"],
        ["1995-01-01T13:45", "1995-01-01T14:00", "1995-01-02T09:30"],
    ),
];

fn front(slug: &str, column_type: &str, format: &str) -> String {
    format!(
        r#"title = "Dates {slug}"
kicker = "a test"
headline = "Dates written as {slug}"
tags = ["Test tag"]
updated = 2026-11-29
version = "1.0.0"
[[sources]]
id = "src"
title = "A source"
[[columns]]
name = "when"
title = "When"
type = "{column_type}"
format = "{format}"
description = "When it was counted."
[[columns]]
name = "value"
title = "Value (units)"
type = "integer"
description = "A value."
[[charts]]
kind = "line"
title = "Value over time"
x = "when"
y = "value"
"#
    )
}

/// A site with one dataset per case, built; returns the temp folder and the output.
fn build_cases() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    let sample = common::SMALL_FRONT.replace(
        "tags = [\"Test tag\"]\n",
        "tags = [\"Test tag\"]\nupdated = 2026-11-29\nversion = \"1.0.0\"\n",
    );
    common::write_small_site(&root, &sample, common::SMALL_BODY, b"label,value\na,1\n");
    for (slug, column_type, format, cells, _) in CASES {
        let csv = format!(
            "when,value\n{},10\n{},20\n{},15\n",
            cells[0], cells[1], cells[2]
        );
        std::fs::write(root.join(format!("data/datasets/{slug}.csv")), csv).unwrap();
        std::fs::write(
            root.join(format!("content/datasets/{slug}.md")),
            format!(
                "+++\n{}+++\n{}",
                front(slug, column_type, format),
                common::SMALL_BODY
            ),
        )
        .unwrap();
    }
    let output = dir.path().join("out");
    datapages::build(&datapages::BuildOptions::new(&root).output(&output))
        .unwrap_or_else(|e| panic!("{e}"));
    (dir, output)
}

fn page(output: &Path, slug: &str) -> String {
    std::fs::read_to_string(output.join(format!("datasets/{slug}/index.html"))).unwrap()
}

#[test]
fn every_spelling_is_shown_in_iso_style_and_profiled_by_its_value() {
    let (_dir, output) = build_cases();
    for (slug, _, _, cells, shown) in CASES {
        let html = page(&output, slug);
        for (cell, shown) in cells.iter().zip(shown) {
            // A cell shown otherwise keeps its written text for the page's filter.
            let td = match cell == shown {
                true => format!("<td>{shown}</td>"),
                false => format!("<td data-v=\"{cell}\">{shown}</td>"),
            };
            assert!(html.contains(&td), "{slug}: {td}");
            if cell != shown {
                assert!(
                    !html.contains(&format!("<td>{cell}</td>")),
                    "{slug}: {cell}"
                );
            }
        }
        // The earliest and latest are the dates' (day-first text would sort 25/12 last).
        let range = format!("from {} to {}", shown[0], shown[2]);
        assert!(html.contains(&range), "{slug}: {range}");
        let package: serde_json::Value = serde_json::from_slice(
            &std::fs::read(output.join(format!("data/datasets/{slug}.json"))).unwrap(),
        )
        .unwrap();
        let field = &package["resources"][0]["schema"]["fields"][0];
        let description = field["description"].as_str().unwrap();
        assert!(
            description.contains("Cells are written in the format"),
            "{slug}"
        );
    }
}

/// The SVG file of dataset `slug`'s chart.
fn chart_svg(output: &Path, slug: &str) -> String {
    std::fs::read_to_string(output.join(format!("data/datasets/{slug}-value-over-time.svg")))
        .unwrap()
}

/// The x of each point of the chart (percent of the width; few points are drawn as dots),
/// with the name each point's title gives it.
fn point_xs(svg: &str) -> Vec<(f64, String)> {
    svg.split("<circle cx=\"")
        .skip(1)
        .map(|rest| {
            let x = rest.split('%').next().unwrap().parse().unwrap();
            let title = rest
                .split("<title>")
                .nth(1)
                .unwrap()
                .split(':')
                .next()
                .unwrap();
            (x, title.to_string())
        })
        .collect()
}

#[test]
fn quarters_weeks_and_months_lie_at_their_first_day_on_a_time_axis() {
    let (_dir, output) = build_cases();
    let svg = |slug: &str| chart_svg(&output, slug);
    // 1974 Q1, Q2, Q3 start on days 0, 90 and 181 of 1974: gaps of 90 and 91 days.
    let points = point_xs(&svg("quarter"));
    let names: Vec<&str> = points.iter().map(|(_, name)| name.as_str()).collect();
    assert_eq!(names, ["1974 Q1", "1974 Q2", "1974 Q3"]);
    let x: Vec<f64> = points.iter().map(|(x, _)| *x).collect();
    let ratio = (x[1] - x[0]) / (x[2] - x[0]);
    assert!((ratio - 90.0 / 181.0).abs() < 0.01, "{x:?}: {ratio}");
    // 2019-W07, W08 (Mondays 11 and 18 February 2019) and 2020-W53 (Monday 28 December 2020).
    let x: Vec<f64> = point_xs(&svg("iso-week"))
        .into_iter()
        .map(|p| p.0)
        .collect();
    let ratio = (x[1] - x[0]) / (x[2] - x[0]);
    assert!((ratio - 7.0 / 686.0).abs() < 0.002, "{x:?}: {ratio}");
    // 2019-03, 2019-04, 2019-12: 1 March, 1 April, 1 December (31 and 275 days on).
    let x: Vec<f64> = point_xs(&svg("year-month"))
        .into_iter()
        .map(|p| p.0)
        .collect();
    let ratio = (x[1] - x[0]) / (x[2] - x[0]);
    assert!((ratio - 31.0 / 275.0).abs() < 0.005, "{x:?}: {ratio}");
}

#[test]
#[ignore = "full tier: needs the Python validators venv (frictionless, csvw, mlcroissant)"]
fn every_spelling_validates_with_frictionless_csvw_and_mlcroissant_against_the_untouched_csv() {
    let Some(site_packages) = common::venv_site_packages(
        &["frictionless", "csvw", "mlcroissant"],
        "the validators venv",
    ) else {
        return;
    };
    let bin = site_packages
        .ancestors()
        .nth(3)
        .expect("the venv")
        .join("bin");
    let (_dir, output) = build_cases();
    for (slug, _, _, cells, _) in CASES {
        // The published CSV is the source file, byte for byte.
        let csv =
            std::fs::read_to_string(output.join(format!("data/datasets/{slug}.csv"))).unwrap();
        assert!(csv.contains(cells[0]), "{slug}");
        let metadata = output.join(format!("data/datasets/{slug}.csv-metadata.json"));
        let result = Command::new(bin.join("csvwvalidate"))
            .arg(&metadata)
            .output()
            .expect("csvwvalidate runs");
        let said = String::from_utf8_lossy(&result.stdout);
        assert!(
            result.status.success() && said.trim() == "OK",
            "{slug}: {said}"
        );
    }
    let report = common::corpus_check(&bin, &output);
    assert_eq!(report["datasets"], CASES.len() + 1, "{report}");
    assert_eq!(report["failures"], serde_json::json!({}), "{report:#}");
}

#[test]
fn new_from_detects_each_spelling_and_says_what_it_assumed_for_ambiguous_dates() {
    let (_dir, site) = crate::scaffold::new_site();
    let csv = site.join("dates.csv");
    std::fs::write(
        &csv,
        "obs_date,count,month,week,quarter,stamp,when,value\n\
         19580329,19580329,03/2019,2019-W07,1974Q1,1995-01-01 13:45,03/04/2019,1\n\
         19580401,19580401,04/2019,2019-W08,1974Q2,1995-01-01 14:00,12/01/2019,2\n\
         19600101,19600101,12/2019,2020-W53,1974Q3,1995-01-02 09:30,01/02/2020,3\n",
    )
    .unwrap();
    let made = crate::scaffold::datapages(&site, &["new", "dates", "--from", "dates.csv"]);
    crate::scaffold::assert_ok(&made, "new --from");
    let said = String::from_utf8_lossy(&made.stdout);
    assert!(
        said.contains("assumed %m/%d/%Y (month first): no day is past 12, it could be %d/%m/%Y"),
        "{said}"
    );
    let page = std::fs::read_to_string(site.join("content/datasets/dates.md")).unwrap();
    let declared = |name: &str| {
        let start = page.find(&format!("name = \"{name}\"")).unwrap();
        let entry = &page[start..];
        entry[..entry.find("[[").unwrap_or(entry.len())].to_string()
    };
    for (name, column_type, format) in [
        ("obs_date", "date", Some("%Y%m%d")),
        // Eight digits in a column not named for dates stay an integer.
        ("count", "integer", None),
        ("month", "date", Some("%m/%Y")),
        ("week", "date", Some("%G-W%V")),
        ("quarter", "date", Some("%YQ%q")),
        ("stamp", "datetime", Some("%Y-%m-%d %H:%M")),
        ("when", "date", Some("%m/%d/%Y")),
    ] {
        let entry = declared(name);
        assert!(
            entry.contains(&format!("type = \"{column_type}\"")),
            "{entry}"
        );
        match format {
            Some(f) => assert!(entry.contains(&format!("format = \"{f}\"")), "{entry}"),
            None => assert!(!entry.contains("format ="), "{entry}"),
        }
    }
    assert!(
        declared("when").contains("TODO: no day is past 12"),
        "{}",
        declared("when")
    );
    // What `new` wrote builds.
    let check = crate::scaffold::datapages(&site, &["check"]);
    let out = String::from_utf8_lossy(&check.stderr);
    assert!(!out.lines().any(|l| l.starts_with("error")), "{out}");
}

/// A dataset of `when` (written in `format`) and `value`, charted as a line, whose body
/// opens with `figures`.
fn dated(format: &str, csv: &str, figures: &str) -> (String, String, String) {
    (
        front("figures", "date", format),
        csv.to_string(),
        format!("\n{figures}\n{}", common::SMALL_BODY),
    )
}

#[test]
fn figures_read_formatted_dates_as_the_table_shows_them_and_compare_them_as_dates() {
    let quarters = dated(
        "%YQ%q",
        "when,value\n1974Q3,15\n1974Q1,10\n1975Q2,30\n1974Q2,20\n1974Q4,25\n1975Q1,28\n",
        "First {{ min(col=\"when\") }}, last {{ max(col=\"when\") }}; \
         {{ cell(when=\"1974Q3\", col=\"value\") }} as written, \
         {{ cell(when=\"1974 Q3\", col=\"value\") }} as shown; \
         {{ cell(value=\"20\", col=\"when\") }}, {{ cell(value=\"20\", col=\"when\", format=\"csv\") }} in the file.",
    );
    // As text, 2019-W9 would be the latest and 2019-W10 the earliest.
    let weeks = dated(
        "%G-W%V",
        "when,value\n2019-W9,1\n2019-W10,2\n2019-W8,3\n",
        "From {{ min(col=\"when\") }} to {{ max(col=\"when\") }}.",
    );
    // As text, 03/04/2019 would be the earliest and 25/12/2018 the latest.
    let days = dated(
        "%d/%m/%Y",
        "when,value\n03/04/2019,1\n04/03/2019,2\n25/12/2018,3\n",
        "From {{ min(col=\"when\") }} to {{ max(col=\"when\") }}; \
         {{ cell(when=\"04/03/2019\", col=\"value\") }}; quarters to \
         {{ max(dataset=\"quarters\", col=\"when\") }}.",
    );
    let cases = [("quarters", &quarters), ("weeks", &weeks), ("days", &days)];
    let list: Vec<(&str, &str, &str, &str)> = cases
        .iter()
        .map(|(slug, (front, csv, body))| (*slug, front.as_str(), csv.as_str(), body.as_str()))
        .collect();
    let (_dir, output) = common::build_cases_with(&list);
    let html = page(&output, "quarters");
    assert_eq!(
        common::figure_texts(&html),
        ["1974 Q1", "1975 Q2", "15", "15", "1974 Q2", "1974Q2"],
        "{html}"
    );
    // The profile's range is the dates', in the shown style.
    assert!(html.contains("from 1974 Q1 to 1975 Q2"), "{html}");
    let html = page(&output, "weeks");
    assert_eq!(common::figure_texts(&html), ["2019-W08", "2019-W10"]);
    assert!(html.contains("from 2019-W08 to 2019-W10"), "{html}");
    let html = page(&output, "days");
    // Another dataset's formatted dates are read as its own table shows them.
    assert_eq!(
        common::figure_texts(&html),
        ["2018-12-25", "2019-04-03", "2", "1975 Q2"]
    );
    assert!(html.contains("from 2018-12-25 to 2019-04-03"), "{html}");
}

#[test]
fn time_axes_of_formatted_dates_are_ticked_in_their_periods_and_style() {
    let (_dir, output) = build_cases();
    let svg = |slug: &str| chart_svg(&output, slug);
    let quarter = svg("quarter");
    assert!(quarter.contains(">1974 Q1</text>"), "{quarter}");
    assert!(!quarter.contains(">1974-"), "{quarter}");
    let week = svg("iso-week");
    // Two years of weeks: ISO week 27 of each year (every second of the 26-week ticks,
    // evenly spaced, to fit a phone).
    assert!(week.contains(">2019-W27</text>"), "{week}");
    assert!(week.contains(">2020-W27</text>"), "{week}");
    assert!(!week.contains(">2020-W01</text>"), "{week}");
    assert!(!week.contains(">2019-07"), "{week}");
    let month = svg("year-month");
    assert!(
        month.contains(">2019-04</text>") && month.contains(">2019-07</text>"),
        "{month}"
    );
    // Months, never the Mondays between them.
    assert!(!month.contains(">2019-03-"), "{month}");
}
