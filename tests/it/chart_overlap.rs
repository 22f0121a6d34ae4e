//! Every chart, measured in headless Chromium: the bundled site's charts and the hard
//! cases of tests/fixtures/charts (many categories, long labels, close values, negative
//! values, a single point, dates with NaN and INF cells), at 1280 and 390 px, light and
//! dark. tests/browser/chart-overlap.js takes the boxes of every text, mark and line of
//! every chart and reports any two labels that overlap, a label on a mark or crossed by
//! a line (a tick's value and its own gridline excepted), markers that hide each other,
//! and text outside the chart. Screenshots of each chart go to
//! <target>/browser-screenshots/charts/ for people to look at.

use crate::common;

use std::path::{Path, PathBuf};

use common::webdriver::{self, base64_decode, file_url, Driver, Session};
use serde_json::{json, Value};

const OVERLAP_JS: &str = include_str!("../browser/chart-overlap.js");

/// The dataset pages of a built site that have charts, sorted.
pub(crate) fn chart_pages(output: &Path) -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(output.join("datasets"))
        .expect("datasets")
        .map(|e| e.expect("entry").path().join("index.html"))
        .filter(|p| {
            std::fs::read_to_string(p).is_ok_and(|html| {
                html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"dpc\"")
            })
        })
        .collect();
    pages.sort();
    pages
}

fn build_fixture() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = dir.path().join("public");
    let root = common::bundled_site().join("tests/fixtures/charts");
    let options = datapages::BuildOptions::new(root)
        .output(&output)
        .scan_cache(false);
    if let Err(error) = datapages::build(&options) {
        panic!("the chart fixtures must build:\n{error}");
    }
    (dir, output)
}

/// A PNG of one element.
pub(crate) fn element_png(session: &Session, css: &str) -> Vec<u8> {
    let r = session.execute(
        "var r = document.querySelector(arguments[0]).getBoundingClientRect();\
         return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height];",
        vec![json!(css)],
    );
    let n = |i: usize| r[i].as_f64().unwrap_or(0.0);
    let shot = session.cdp(
        "Page.captureScreenshot",
        json!({
            "format": "png",
            "captureBeyondViewport": true,
            "clip": { "x": n(0), "y": n(1), "width": n(2).max(1.0), "height": n(3).max(1.0), "scale": 1 }
        }),
    );
    base64_decode(shot["data"].as_str().expect("screenshot data"))
}

/// Measures every chart of `page` with [`OVERLAP_JS`] at 1280 and 390 px, light and
/// dark, and writes a screenshot of each chart to `shots` as
/// `<prefix>-<id>-<width>-<scheme>.png`. Returns each view with the charts it measured,
/// and the problems found, each naming the page, width and scheme.
/// Calls back once every stylesheet has loaded, the fonts are ready and two frames have
/// been drawn.
const SETTLED_JS: &str = "var done = arguments[arguments.length - 1];\
    function sheets() { return [].every.call(document.querySelectorAll('link[rel=stylesheet]'), \
      function (l) { return l.sheet !== null; }); }\
    function frames() { requestAnimationFrame(function () { requestAnimationFrame(function () { done(true); }); }); }\
    function wait() { if (document.readyState === 'complete' && sheets()) { document.fonts.ready.then(frames); } \
      else { setTimeout(wait, 20); } }\
    wait();";

pub(crate) fn measure_page(
    session: &Session,
    page: &Path,
    prefix: &str,
    shots: &Path,
) -> (Vec<(String, u64)>, Vec<String>) {
    let slug = page
        .parent()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (mut measured, mut problems) = (Vec::new(), Vec::new());
    for width in [1280, 390] {
        for scheme in ["light", "dark"] {
            session.set_viewport(width, 900);
            session.emulate(scheme, "");
            session.navigate(&file_url(page));
            // Measured once the page is laid out with its stylesheet and fonts (the chart
            // style is in style.css): on a loaded machine the first frame can come later.
            session.execute_async(SETTLED_JS, vec![]);
            let result: Value = session.execute(OVERLAP_JS, vec![]);
            let charts = result["charts"].as_u64().unwrap_or(0);
            assert!(
                result["texts"].as_u64().unwrap_or(0) > 0
                    && result["marks"].as_u64().unwrap_or(0) > 0,
                "nothing measured on {slug}: {result}"
            );
            measured.push((format!("{slug} {width} {scheme}"), charts));
            for problem in result["problems"].as_array().into_iter().flatten() {
                problems.push(format!(
                    "{slug} at {width} px, {scheme}: {}",
                    problem.as_str().unwrap_or_default()
                ));
            }
            let ids = session.execute(
                "return [].map.call(document.querySelectorAll('figure.chart'), function (f) { return f.id; });",
                vec![],
            );
            for id in ids
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                let png = element_png(session, &format!("#{id}"));
                let name = format!("{prefix}-{id}-{width}-{scheme}.png");
                std::fs::write(shots.join(name), png).expect("write screenshot");
            }
        }
    }
    (measured, problems)
}

/// The charts a page shows as an image of their SVG file, past the page budget's share of
/// inline charts (`dataset::budget::CHARTS_BYTES`): counted, not measured, by the tests
/// that measure every chart drawn inline.
pub fn charts_as_images(page: &Path) -> u64 {
    let html = std::fs::read_to_string(page).expect("a chart page");
    html.matches("<img class=\"chart-file\"").count() as u64
}

#[test]
#[ignore = "full tier: headless Chromium measures every chart at two widths, light and dark"]
fn no_chart_label_overlaps_a_label_a_mark_or_a_line() {
    if !webdriver::browser_present() {
        return;
    }
    let (_bundled, bundled) = common::build_bundled();
    let (_fixture, fixture) = build_fixture();
    let driver = Driver::start();
    let session = driver.session(&[]);
    let shots = webdriver::screenshot_dir().join("charts");
    std::fs::create_dir_all(&shots).expect("screenshot dir");

    let mut problems: Vec<String> = Vec::new();
    let mut measured: Vec<(String, u64)> = Vec::new();
    for (site, output) in [("bundled", &bundled), ("fixtures", &fixture)] {
        let pages = chart_pages(output);
        assert!(!pages.is_empty(), "no chart pages in the {site} site");
        for page in pages {
            let (views, found) = measure_page(&session, &page, site, &shots);
            measured.extend(views);
            measured.push((
                format!("{} as images", page.display()),
                charts_as_images(&page) * 4,
            ));
            problems.extend(found);
        }
    }
    let charts: u64 = measured.iter().map(|(_, n)| n).sum();
    // Six bundled charts and twelve fixture charts, each at two widths in two schemes
    // (those past the page's share of inline charts counted as the images they are).
    assert_eq!(charts, (6 + 12) * 4, "charts measured: {measured:?}");
    assert!(
        problems.is_empty(),
        "{} chart collisions:\n{}",
        problems.len(),
        problems.join("\n")
    );
    println!(
        "chart overlap: {charts} chart views measured, no collisions; screenshots in {}",
        shots.display()
    );
}
