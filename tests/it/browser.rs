//! The built site in a real browser and real validators: headless Chromium driven over
//! WebDriver (sorting, filtering, a 360 px phone, print, no JavaScript), axe-core run
//! inside that Chromium, and the Nu HTML Checker (vnu) on every generated page.
//!
//! Needs Chromium, ChromeDriver, Java and the npm packages of tests/browser/ (./scripts/test
//! installs them). Without them each test prints "skipped: <tool> not found" and passes,
//! except under CI=true, where it fails. Screenshots of the flagship page go to
//! <target>/browser-screenshots/ for people to look at.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use common::webdriver::{self, file_url, Driver, Session};
use serde_json::{json, Value};

const FLAGSHIP: &str = "sata-sas-nvme-measured-throughput";

/// Chromium is heavy on a two-core machine: browser tests take turns.
static BROWSER: Mutex<()> = Mutex::new(());

fn browser_turn() -> std::sync::MutexGuard<'static, ()> {
    BROWSER
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The bundled site, built, and a headless Chromium session to look at it with.
struct Visit {
    session: Session,
    _driver: Driver,
    output: PathBuf,
    _site: tempfile::TempDir,
    _turn: std::sync::MutexGuard<'static, ()>,
}

/// Builds the site and opens a browser; `None` (after the skip line) without a browser.
fn visit() -> Option<Visit> {
    if !webdriver::browser_present() {
        return None;
    }
    let turn = browser_turn();
    let (site, output) = common::build_bundled();
    let driver = Driver::start();
    let session = driver.session(&[]);
    Some(Visit {
        session,
        _driver: driver,
        output,
        _site: site,
        _turn: turn,
    })
}

fn flagship(output: &Path) -> PathBuf {
    output.join("datasets").join(FLAGSHIP).join("index.html")
}

/// Every dataset page of the output, sorted.
fn dataset_pages(output: &Path) -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(output.join("datasets"))
        .expect("datasets")
        .map(|e| e.expect("entry").path().join("index.html"))
        .filter(|p| p.is_file() && p.parent() != Some(&output.join("datasets")))
        .collect();
    pages.sort();
    pages
}

/// Polls a script until it returns true, for up to 20 seconds (a wait for an event, not a speed claim).
fn wait_for(session: &Session, script: &str, what: &str) {
    let started = Instant::now();
    while session.execute(script, vec![]) != json!(true) {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn text_of(session: &Session, css: &str) -> String {
    session
        .execute(
            "var e = document.querySelector(arguments[0]); return e ? e.textContent.trim() : null;",
            vec![json!(css)],
        )
        .as_str()
        .unwrap_or_else(|| panic!("no element {css}"))
        .to_string()
}

/// The 1-based position of the table column whose header reads `title`.
fn column_position(session: &Session, title: &str) -> usize {
    let index = session.execute(
        "var ths = document.querySelectorAll('#table thead th');\
         for (var i = 0; i < ths.length; i++) { if (ths[i].textContent.trim() === arguments[0]) return i + 1; }\
         return 0;",
        vec![json!(title)],
    );
    let index = index.as_u64().unwrap_or(0) as usize;
    assert!(index > 0, "no column headed {title}");
    index
}

/// The text of column `position` in every table row, in page order.
fn column_cells(session: &Session, position: usize) -> Vec<String> {
    let value = session.execute(
        "var position = arguments[0];\
         return Array.prototype.map.call(document.querySelectorAll('#table tbody tr'), function (tr) {\
           return tr.cells[position - 1].textContent.trim();\
         });",
        vec![json!(position)],
    );
    value
        .as_array()
        .expect("rows")
        .iter()
        .map(|cell| cell.as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
#[ignore = "full tier: headless Chromium over WebDriver, axe-core and the Nu HTML Checker (Java)"]
fn flagship_page_sorts_filters_and_fits_a_phone() {
    let started = Instant::now();
    let Some(visit) = visit() else { return };
    let (session, output) = (&visit.session, &visit.output);
    session.set_viewport(1280, 900);
    session.open(&flagship(output));

    // The chart is inline SVG with a title, drawn without any script.
    let chart_title = text_of(session, "#chart-throughput svg > title");
    assert_eq!(
        chart_title,
        "Cluster throughput by block size and interface"
    );
    assert_eq!(
        session.execute(
            "return document.querySelector('#chart-throughput svg').getAttribute('role');",
            vec![]
        ),
        json!("img")
    );

    // Sorting: numbers sort as numbers, largest first on the first click; empty cells last.
    let position = column_position(session, "Cluster throughput (MB/s)");
    let header = format!("#table thead th:nth-child({position})");
    let button = session.find(&format!("{header} button"));
    session.click(&button);
    assert_eq!(
        session.execute(
            "return document.querySelector(arguments[0]).getAttribute('aria-sort');",
            vec![json!(header)]
        ),
        json!("descending")
    );
    let cells = column_cells(session, position);
    assert_eq!(cells[0], "10,366", "largest first: {cells:?}");
    assert_eq!(
        &cells[..9],
        ["10,366", "7,688", "5,269", "4,566", "4,562", "4,319", "2,832", "2,776", "2,693"]
    );
    assert!(
        cells[9..].iter().all(|c| c == "—"),
        "empty cells last: {cells:?}"
    );
    session.click(&button);
    let ascending = column_cells(session, position);
    assert_eq!(ascending[0], "2,693", "{ascending:?}");
    assert!(
        ascending[9..].iter().all(|c| c == "—"),
        "empty cells stay last: {ascending:?}"
    );
    assert_eq!(
        session.execute(
            "return [].map.call(document.querySelectorAll('#table thead th[aria-sort]'), function (th) { return th.getAttribute('aria-sort'); });",
            vec![]
        ),
        json!(["ascending"]),
        "only the sorted column carries aria-sort"
    );

    // Filtering: typing NVMe leaves exactly the rows that mention it, and says how many.
    let expected = nvme_rows();
    let total = 11;
    let input = session.find("#table-filter");
    session.type_into(&input, "NVMe");
    let status = format!("{} of {total} rows", expected.len());
    wait_for(
        session,
        &format!("return document.getElementById('table-status').textContent === '{status}';"),
        "the filter status",
    );
    let visible = session.execute(
        "return [].filter.call(document.querySelectorAll('#table tbody tr'), function (tr) { return tr.getClientRects().length > 0; })\
           .map(function (tr) { return tr.cells[0].textContent.trim() + ' ' + tr.cells[1].textContent.trim() + ' ' + tr.cells[2].textContent.trim(); });",
        vec![],
    );
    let mut visible: Vec<String> = visible
        .as_array()
        .expect("rows")
        .iter()
        .map(|v| v.as_str().unwrap_or_default().to_string())
        .collect();
    visible.sort();
    let mut expected = expected;
    expected.sort();
    assert_eq!(
        visible, expected,
        "the filter keeps the rows that mention NVMe"
    );
    session.execute(
        "var i = document.getElementById('table-filter'); i.value = ''; i.dispatchEvent(new Event('input'));",
        vec![],
    );
    wait_for(
        session,
        "return document.getElementById('table-status').textContent === 'All 11 rows';",
        "the filter to clear",
    );

    // Screenshots for people, light and dark, wide and phone-sized.
    let shots = webdriver::screenshot_dir();
    session.execute("window.scrollTo(0, 0);", vec![]);
    std::fs::write(shots.join("flagship-1280.png"), session.full_page_png()).expect("write");
    session.emulate("dark", "");
    std::fs::write(
        shots.join("flagship-1280-dark.png"),
        session.full_page_png(),
    )
    .expect("write");
    session.emulate("light", "");

    // A 360 px phone: the body never scrolls sideways; the table scrolls in its own box.
    session.set_viewport(360, 780);
    session.navigate(&file_url(&flagship(output)));
    let overflow = session.execute(
        "var d = document.documentElement; return [d.scrollWidth, d.clientWidth, document.body.scrollWidth, window.innerWidth];",
        vec![],
    );
    assert_eq!(overflow[3], json!(360), "viewport {overflow}");
    assert!(
        overflow[0].as_i64() <= overflow[1].as_i64() && overflow[2].as_i64() <= Some(360),
        "the page overflows sideways at 360 px: {overflow}"
    );
    let scroller = session.execute(
        "var s = document.querySelector('.table-scroll'); return [s.scrollWidth, s.clientWidth];",
        vec![],
    );
    assert!(
        scroller[0].as_i64() > scroller[1].as_i64(),
        "the wide table scrolls inside its section: {scroller}"
    );
    let smallest = session.execute(
        "var sizes = [].map.call(document.querySelectorAll('.chart svg text'), function (t) { return parseFloat(getComputedStyle(t).fontSize); });\
         return Math.min.apply(null, sizes);",
        vec![],
    );
    assert!(
        smallest.as_f64().unwrap_or(0.0) >= 12.0,
        "chart text stays readable at 360 px: {smallest}"
    );
    let chart_width = session.execute(
        "return document.querySelector('#chart-throughput svg').getBoundingClientRect().right;",
        vec![],
    );
    assert!(
        chart_width.as_f64().unwrap_or(999.0) <= 360.0,
        "{chart_width}"
    );
    session.set_viewport(390, 844);
    std::fs::write(shots.join("flagship-390.png"), session.full_page_png()).expect("write");
    session.emulate("dark", "");
    std::fs::write(shots.join("flagship-390-dark.png"), session.full_page_png()).expect("write");
    println!(
        "flagship browser checks and screenshots in {:.1} s; screenshots in {}",
        started.elapsed().as_secs_f64(),
        shots.display()
    );
}

/// Lines of text each cell of column `position` takes (distinct line tops of its text).
fn cell_lines(session: &Session, position: usize) -> Vec<u64> {
    let value = session.execute(
        "var position = arguments[0];\
         return [].map.call(document.querySelectorAll('#table tbody tr'), function (tr) {\
           var range = document.createRange(); range.selectNodeContents(tr.cells[position - 1]);\
           var tops = {}; [].forEach.call(range.getClientRects(), function (r) { if (r.width > 0) tops[Math.round(r.top)] = 1; });\
           return Object.keys(tops).length;\
         });",
        vec![json!(position)],
    );
    value
        .as_array()
        .expect("lines")
        .iter()
        .map(|v| v.as_u64().unwrap_or(0))
        .collect()
}

/// After the table is scrolled fully right: [cell left, cell right, box left, box right,
/// the cell is what is drawn at its centre, its right edge shadow] for the first body row's
/// cell of column `position`.
fn key_cell_after_scrolling_right(session: &Session, position: usize) -> Value {
    session.execute(
        "var s = document.querySelector('.table-scroll'); s.scrollLeft = s.scrollWidth;\
         var td = document.querySelector('#table tbody tr').cells[arguments[0] - 1];\
         td.scrollIntoView({block: 'center', inline: 'nearest'}); s.scrollLeft = s.scrollWidth;\
         var r = td.getBoundingClientRect(), b = s.getBoundingClientRect();\
         var hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);\
         return [r.left, r.right, b.left, b.right, !!hit && td.contains(hit), getComputedStyle(td).boxShadow, s.scrollLeft];",
        vec![json!(position)],
    )
}

#[test]
#[ignore = "full tier: headless Chromium over WebDriver, axe-core and the Nu HTML Checker (Java)"]
fn flagship_table_reads_well_at_any_width() {
    let Some(visit) = visit() else { return };
    let (session, output) = (&visit.session, &visit.output);
    session.set_viewport(1280, 900);
    session.open(&flagship(output));
    wait_for(
        session,
        "return !document.querySelector('.table-tools').hidden;",
        "the table script",
    );

    // Rows stay compact: no body row is taller than three lines of text.
    let rows = session.execute(
        "var td = document.querySelector('#table tbody td'); var cs = getComputedStyle(td);\
         var line = parseFloat(cs.lineHeight), pad = parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom);\
         return {line: line, limit: 3 * line + pad + 2,\
                 heights: [].map.call(document.querySelectorAll('#table tbody tr'), function (tr) { return tr.getBoundingClientRect().height; })};",
        vec![],
    );
    let limit = rows["limit"].as_f64().expect("limit");
    let heights: Vec<f64> = rows["heights"]
        .as_array()
        .expect("heights")
        .iter()
        .map(|h| h.as_f64().unwrap_or(f64::MAX))
        .collect();
    assert_eq!(heights.len(), 11);
    let tallest = heights.iter().cloned().fold(0.0, f64::max);
    assert!(
        tallest <= limit,
        "rows at most three lines ({limit:.1} px): {heights:?}"
    );
    println!(
        "flagship rows at 1280 px: tallest {tallest:.1} px, limit {limit:.1} px (line {})",
        rows["line"]
    );

    // Long text is clamped with a button for the rest; the button opens it.
    let opened = session.execute(
        "var b = document.querySelector('#table .cell-more'); if (!b) return null;\
         var tr = b.closest('tr'); var before = tr.getBoundingClientRect().height; b.click();\
         var after = tr.getBoundingClientRect().height; var state = b.getAttribute('aria-expanded'); b.click();\
         return [before, after, state];",
        vec![],
    );
    assert!(
        opened[1].as_f64() > opened[0].as_f64() && opened[2] == json!("true"),
        "the more button shows the whole cell: {opened}"
    );

    // Dates, numbers and identifiers never break inside.
    for title in [
        "Result date",
        "Figure",
        "Source",
        "Cluster throughput (MB/s)",
        "Drive (as printed)",
    ] {
        let Some(position) = (session.execute(
            "var ths = document.querySelectorAll('#table thead th');\
             for (var i = 0; i < ths.length; i++) { if (ths[i].textContent.trim() === arguments[0]) return i + 1; } return 0;",
            vec![json!(title)],
        ))
        .as_u64()
        .filter(|p| *p > 0) else {
            assert_ne!(title, "Result date", "no date column");
            continue;
        };
        let lines = cell_lines(session, position as usize);
        assert!(
            lines.iter().all(|n| *n <= 1),
            "{title}: every cell on one line: {lines:?}"
        );
    }

    // Empty cells' dashes align with their column: right in a number column.
    let position = column_position(session, "Cluster throughput (MB/s)");
    let align = session.execute(
        "var p = arguments[0] - 1;\
         return [].filter.call(document.querySelectorAll('#table tbody tr'), function (tr) { return tr.cells[p].classList.contains('empty'); })\
           .map(function (tr) { return getComputedStyle(tr.cells[p]).textAlign; });",
        vec![json!(position)],
    );
    assert!(
        align
            .as_array()
            .is_some_and(|a| !a.is_empty() && a.iter().all(|v| v == "right")),
        "{align}"
    );

    // The key columns (the primary key: Figure, Block size, Interface) stay in view, with
    // an edge, after the table is scrolled fully right.
    let keys: Vec<usize> = ["Figure", "Block size (as printed)", "Interface"]
        .iter()
        .map(|t| column_position(session, t))
        .collect();
    for (i, key) in keys.iter().enumerate() {
        let seen = key_cell_after_scrolling_right(session, *key);
        let (left, right, box_left, box_right) = (
            seen[0].as_f64().unwrap_or(-1.0),
            seen[1].as_f64().unwrap_or(-1.0),
            seen[2].as_f64().unwrap_or(0.0),
            seen[3].as_f64().unwrap_or(0.0),
        );
        assert!(seen[6].as_f64() > Some(100.0), "the table scrolled: {seen}");
        assert!(
            left >= box_left - 1.0 && right <= box_right + 1.0 && seen[4] == json!(true),
            "key column {key} in view and on top after scrolling right: {seen}"
        );
        let last = i == keys.len() - 1;
        assert_eq!(
            seen[5] != json!("none"),
            last,
            "the edge is drawn on the last key column only: {seen}"
        );
    }

    // For people: the table scrolled fully right, the key columns still in view.
    std::fs::write(
        webdriver::screenshot_dir().join("flagship-1280-table-scrolled-right.png"),
        session.full_page_png(),
    )
    .expect("write");

    // The author's note comes before the table, the generated line after it.
    let order = session.execute(
        "var note = document.querySelector('#table .table-note'), table = document.querySelector('#table table'), dash = document.querySelector('#table .dash-note');\
         return [!!(note.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING), !!(table.compareDocumentPosition(dash) & Node.DOCUMENT_POSITION_FOLLOWING)];",
        vec![],
    );
    assert_eq!(order, json!([true, true]));
    let caption = text_of(session, "#table caption");
    assert_eq!(
        caption.matches(':').count(),
        1,
        "one colon, the title's: {caption}"
    );

    // A phone: the page never scrolls sideways; the first key column stays in view.
    session.set_viewport(360, 780);
    session.navigate(&file_url(&flagship(output)));
    wait_for(
        session,
        "return !document.querySelector('.table-tools').hidden;",
        "the table script",
    );
    let overflow = session.execute(
        "var d = document.documentElement; return [d.scrollWidth, d.clientWidth];",
        vec![],
    );
    assert!(
        overflow[0].as_i64() <= overflow[1].as_i64(),
        "no sideways scrolling at 360 px: {overflow}"
    );
    let seen = key_cell_after_scrolling_right(session, keys[0]);
    assert!(
        seen[0].as_f64() >= seen[2].as_f64().map(|l| l - 1.0)
            && seen[1].as_f64() <= seen[3].as_f64().map(|r| r + 1.0)
            && seen[4] == json!(true)
            && seen[5] != json!("none"),
        "the key column stays in view at 360 px: {seen}"
    );
    let key_width = seen[1].as_f64().unwrap_or(0.0) - seen[0].as_f64().unwrap_or(0.0);
    assert!(
        key_width < 180.0,
        "the key leaves room at 360 px: {key_width}"
    );
}

#[test]
#[ignore = "full tier: headless Chromium over WebDriver, axe-core and the Nu HTML Checker (Java)"]
fn headlines_listings_and_prose_tables_sit_right_at_1280() {
    let Some(visit) = visit() else { return };
    let (session, output) = (&visit.session, &visit.output);
    session.set_viewport(1280, 900);
    for page in &dataset_pages(output) {
        session.open(page);
        let lines = session.execute(
            "var h = document.querySelector('h1'); return h.getBoundingClientRect().height / parseFloat(getComputedStyle(h).lineHeight);",
            vec![],
        );
        println!("{}: headline {lines} lines", page.display());
        assert!(
            lines.as_f64().unwrap_or(99.0) <= 4.05,
            "{}: the headline runs to {lines} lines",
            page.display()
        );
        // A Markdown table in prose keeps space below it.
        let margin = session.execute(
            "var t = document.createElement('table'); t.innerHTML = '<tr><td>a</td></tr>';\
             document.querySelector('.prose').appendChild(t); return parseFloat(getComputedStyle(t).marginBottom);",
            vec![],
        );
        assert!(margin.as_f64().unwrap_or(0.0) >= 12.0, "{margin}");
    }
    // Home: the Datasets heading lines up with the text column; listings newest first.
    session.open(&output.join("index.html"));
    let edges = session.execute(
        "return [document.getElementById('datasets-heading').getBoundingClientRect().left,\
                 document.querySelector('.dataset-list').getBoundingClientRect().left];",
        vec![],
    );
    assert_eq!(edges[0], edges[1], "{edges}");
    let dates = session.execute(
        "return [].map.call(document.querySelectorAll('.dataset-item time'), function (t) { return t.getAttribute('datetime'); });",
        vec![],
    );
    let dates: Vec<String> = dates
        .as_array()
        .expect("dates")
        .iter()
        .map(|d| d.as_str().unwrap_or_default().to_string())
        .collect();
    let mut newest_first = dates.clone();
    newest_first.sort_by(|a, b| b.cmp(a));
    assert_eq!(dates, newest_first);
    assert_eq!(dates.len(), 4);
}

/// "figure block interface" of every CSV row that mentions NVMe in any cell.
fn nvme_rows() -> Vec<String> {
    let path = common::bundled_site().join(format!("data/datasets/{FLAGSHIP}.csv"));
    let mut reader = csv::Reader::from_path(path).expect("csv");
    reader
        .records()
        .map(|r| r.expect("record"))
        .filter(|r| r.iter().any(|cell| cell.to_lowercase().contains("nvme")))
        .map(|r| {
            let shown = |i: usize| {
                if r[i].is_empty() {
                    "—".to_string()
                } else {
                    r[i].to_string()
                }
            };
            format!("{} {} {}", shown(0), shown(1), shown(2))
        })
        .collect()
}

#[test]
#[ignore = "full tier: headless Chromium over WebDriver, axe-core and the Nu HTML Checker (Java)"]
fn pages_are_complete_without_javascript() {
    let Some(visit) = visit() else { return };
    let (session, output) = (&visit.session, &visit.output);
    session.cdp(
        "Emulation.setScriptExecutionDisabled",
        json!({ "value": true }),
    );
    session.open(&flagship(output));
    let state = session.execute(
        "return {\
           rows: [].filter.call(document.querySelectorAll('#table tbody tr'), function (tr) { return tr.getClientRects().length > 0; }).length,\
           tools: document.querySelector('.table-tools').getClientRects().length,\
           buttons: document.querySelectorAll('#table thead button').length,\
           charts: document.querySelectorAll('.chart svg > title').length\
         };",
        vec![],
    );
    assert_eq!(state["rows"], json!(11), "{state}");
    assert_eq!(
        state["tools"],
        json!(0),
        "no dead filter box without JavaScript: {state}"
    );
    assert_eq!(state["buttons"], json!(0), "{state}");
    assert_eq!(state["charts"], json!(2), "{state}");
    session.open(&output.join("datasets/index.html"));
    let listing = session.execute(
        "return [document.querySelector('.listing-filter').getClientRects().length,\
                 [].filter.call(document.querySelectorAll('.dataset-item'), function (li) { return li.getClientRects().length > 0; }).length];",
        vec![],
    );
    assert_eq!(listing, json!([0, 4]));
}

#[test]
#[ignore = "full tier: headless Chromium over WebDriver, axe-core and the Nu HTML Checker (Java)"]
fn all_datasets_filter_by_text_and_tag() {
    let Some(visit) = visit() else { return };
    let (session, output) = (&visit.session, &visit.output);
    session.open(&output.join("datasets/index.html"));
    let status = "return document.getElementById('listing-status').textContent";
    wait_for(
        session,
        &format!("{status} === 'All 4 datasets';"),
        "the listing filter",
    );
    let shown = "return [].filter.call(document.querySelectorAll('.dataset-item'), function (li) { return li.getClientRects().length > 0; })\
                   .map(function (li) { return li.querySelector('.item-title').textContent.trim(); });";
    let input = session.find("#listing-text");
    session.type_into(&input, "fio");
    wait_for(
        session,
        &format!("{status} === '1 of 4 datasets';"),
        "the text filter",
    );
    assert_eq!(
        session.execute(shown, vec![]),
        json!(["NVMe server: dd and fio runs as printed"])
    );
    session.execute(
        "var i = document.getElementById('listing-text'); i.value = ''; i.dispatchEvent(new Event('input'));",
        vec![],
    );
    let option = session.find("#listing-tag option[value='pcie']");
    session.click(&option);
    wait_for(
        session,
        &format!("{status} === '1 of 4 datasets';"),
        "the tag filter",
    );
    assert_eq!(
        session.execute(shown, vec![]),
        json!(["Theoretical link ceilings"])
    );
    session.type_into(&input, "no such words");
    wait_for(
        session,
        &format!("{status} === '0 of 4 datasets';"),
        "no match",
    );
    assert_eq!(
        session.execute(
            "return document.querySelector('.listing-empty').getClientRects().length;",
            vec![]
        ),
        json!(1),
        "an empty result says so"
    );
}

#[test]
#[ignore = "full tier: headless Chromium over WebDriver, axe-core and the Nu HTML Checker (Java)"]
fn print_shows_the_whole_table_and_link_addresses() {
    let Some(visit) = visit() else { return };
    let (session, output) = (&visit.session, &visit.output);
    session.open(&output.join("datasets/storage-link-payload-ceilings/index.html"));
    // A reader filtered the table, then prints: every row still prints.
    let input = session.find("#table-filter");
    session.type_into(&input, "SATA");
    wait_for(
        session,
        "return / of 13 rows$/.test(document.getElementById('table-status').textContent);",
        "the filter",
    );
    session.emulate("light", "print");
    let printed = session.execute(
        "var s = getComputedStyle(document.querySelector('.table-scroll'));\
         var license = document.querySelector('a[rel=license]');\
         return {\
           overflow: s.overflowX, maxHeight: s.maxHeight,\
           rows: [].filter.call(document.querySelectorAll('#table tbody tr'), function (tr) { return tr.getClientRects().length > 0; }).length,\
           toc: document.querySelector('.toc').getClientRects().length,\
           after: getComputedStyle(license, '::after').content,\
           href: license.getAttribute('href')\
         };",
        vec![],
    );
    assert_eq!(printed["overflow"], json!("visible"), "{printed}");
    assert_eq!(printed["maxHeight"], json!("none"), "{printed}");
    assert_eq!(
        printed["rows"],
        json!(13),
        "the table prints whole: {printed}"
    );
    assert_eq!(printed["toc"], json!(0), "{printed}");
    let after = printed["after"].as_str().unwrap_or_default();
    let href = printed["href"].as_str().unwrap_or_default();
    assert!(
        !href.is_empty() && after.contains(href),
        "links print their address: {printed}"
    );
}

/// Reads the pinned axe-core, or says why the test is skipped.
fn axe_source() -> Option<String> {
    let path = common::browser_package("axe-core/axe.min.js");
    if !common::tool_present("axe-core", path.is_file()) {
        return None;
    }
    Some(std::fs::read_to_string(path).expect("read axe.min.js"))
}

#[test]
#[ignore = "full tier: headless Chromium over WebDriver, axe-core and the Nu HTML Checker (Java)"]
fn axe_finds_no_serious_or_critical_violations() {
    if !webdriver::browser_present() {
        return;
    }
    let Some(axe) = axe_source() else { return };
    let Some(visit) = visit() else { return };
    let (session, output) = (&visit.session, &visit.output);
    let mut pages = vec![
        output.join("index.html"),
        output.join("datasets/index.html"),
    ];
    let slugs = dataset_pages(output);
    assert_eq!(slugs.len(), 4, "{slugs:?}");
    pages.extend(slugs);
    let mut problems = Vec::new();
    let mut runs = 0;
    for (width, scheme) in [(1280, "light"), (1280, "dark"), (360, "light")] {
        session.set_viewport(width, 900);
        session.emulate(scheme, "");
        for page in &pages {
            session.open(page);
            session.execute(&format!("{axe}\n;return typeof axe;"), vec![]);
            let violations = session.execute_async(
                "var done = arguments[arguments.length - 1];\
                 axe.run(document, { resultTypes: ['violations'] }).then(function (r) {\
                   done(r.violations.map(function (v) {\
                     return { id: v.id, impact: v.impact, help: v.help,\
                              nodes: v.nodes.slice(0, 5).map(function (n) { return n.target.join(' '); }) };\
                   }));\
                 }, function (e) { done([{ id: 'axe-error', impact: 'critical', help: String(e), nodes: [] }]); });",
                vec![],
            );
            runs += 1;
            for v in violations.as_array().expect("violations") {
                let impact = v["impact"].as_str().unwrap_or("");
                let line = format!(
                    "{} ({width} px, {scheme}): {impact} {}: {} at {}",
                    page.strip_prefix(output).unwrap_or(page).display(),
                    v["id"].as_str().unwrap_or(""),
                    v["help"].as_str().unwrap_or(""),
                    v["nodes"]
                );
                if impact == "serious" || impact == "critical" {
                    problems.push(line);
                } else {
                    println!("axe, {line}");
                }
            }
        }
    }
    assert!(runs >= 18, "axe ran on {runs} pages");
    assert!(
        problems.is_empty(),
        "axe-core found {} serious or critical violations:\n{}",
        problems.len(),
        problems.join("\n")
    );
    println!("axe-core: no serious or critical violations in {runs} page runs");
}

fn java_present() -> bool {
    let found = Command::new("java")
        .arg("-version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    common::tool_present("java", found)
}

#[test]
#[ignore = "full tier: headless Chromium over WebDriver, axe-core and the Nu HTML Checker (Java)"]
fn vnu_finds_no_errors_in_any_generated_page() {
    if !java_present() {
        return;
    }
    let jar = common::browser_package("vnu-jar/build/dist/vnu.jar");
    if !common::tool_present("vnu.jar", jar.is_file()) {
        return;
    }
    let (_guard, output) = common::build_bundled();
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(output)
        .sort_by_file_name()
        .into_iter()
        .map(|e| e.expect("walk").into_path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("html" | "svg")))
        .collect();
    files.sort();
    let pages = files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .count();
    assert!(pages >= 17, "{pages} pages");
    let mut child = Command::new("java")
        .arg("-jar")
        .arg(&jar)
        .args([
            "--errors-only",
            "--format",
            "json",
            "--stdout",
            "--also-check-svg",
        ])
        .args(&files)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("java runs");
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > Duration::from_secs(180) {
            let _ = child.kill();
            panic!("vnu took longer than 180 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let result = child.wait_with_output().expect("vnu output");
    let report: Value = serde_json::from_slice(&result.stdout).unwrap_or_else(|e| {
        panic!(
            "vnu did not print JSON ({e}):\n{}\n{}",
            String::from_utf8_lossy(&result.stdout),
            String::from_utf8_lossy(&result.stderr)
        )
    });
    let errors: Vec<String> = report["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .filter(|m| m["type"] != json!("info"))
        .map(|m| {
            format!(
                "{}:{}: {}",
                m["url"].as_str().unwrap_or(""),
                m["lastLine"],
                m["message"].as_str().unwrap_or("")
            )
        })
        .collect();
    assert!(
        errors.is_empty(),
        "vnu found {} errors:\n{}",
        errors.len(),
        errors.join("\n")
    );
    println!(
        "vnu: no errors in {pages} pages and {} SVG files ({:.1} s)",
        files.len() - pages,
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn base64_round_trips_known_text() {
    assert_eq!(webdriver::base64_decode("aGVsbG8gd29ybGQ="), b"hello world");
    assert_eq!(webdriver::base64_decode("AAEC/w=="), [0, 1, 2, 255]);
}

/// A wide table keyed by long names (World Bank's shape: "Country name" and 30 years): on
/// a 390 px phone the sticky key column keeps to about a third of the box, its names wrap
/// at spaces, and each key cell's row rule stays level with the rest of its row while
/// the table scrolls sideways (a collapsed border belongs to the table, not the cell).
#[test]
#[ignore = "full tier: headless Chromium over WebDriver"]
fn a_wide_table_keyed_by_long_names_leaves_room_on_a_phone() {
    if !webdriver::browser_present() {
        return;
    }
    let _turn = browser_turn();
    let dir = tempfile::tempdir().unwrap();
    let years: Vec<String> = (1990..2020).map(|y| format!("y{y}")).collect();
    let mut front = String::from(
        "title = \"Wide sample\"\nkicker = \"a test\"\nheadline = \"Thirty years per country\"\ntags = [\"Test tag\"]\nprimary_key = [\"country\"]\n[[sources]]\nid = \"src\"\ntitle = \"A source\"\n[[columns]]\nname = \"country\"\ntitle = \"Country name\"\ntype = \"string\"\ndescription = \"The country.\"\n",
    );
    for year in &years {
        front.push_str(&format!(
            "[[columns]]\nname = \"{year}\"\ntitle = \"{}\"\ntype = \"number\"\ndescription = \"The value that year.\"\n",
            &year[1..]
        ));
    }
    let mut csv = format!("country,{}\n", years.join(","));
    let names = [
        "Congo, Democratic Republic of the",
        "Niger",
        "Saint Vincent and the Grenadines",
        "Micronesia, Federated States of",
    ];
    for name in names {
        let cells: Vec<String> = (0..years.len()).map(|i| format!("{}.5", i * 7)).collect();
        csv.push_str(&format!("\"{name}\",{}\n", cells.join(",")));
    }
    common::write_small_site(dir.path(), &front, common::SMALL_BODY, csv.as_bytes());
    let output = dir.path().join("public");
    common::build_root(dir.path());
    let driver = Driver::start();
    let session = driver.session(&[]);
    session.set_viewport(390, 844);
    session.open(&output.join("datasets/sample/index.html"));
    wait_for(
        &session,
        "return !document.querySelector('.table-tools').hidden;",
        "the table script",
    );
    let seen = session.execute(
        "var s = document.querySelector('.table-scroll'); s.scrollLeft = s.scrollWidth;\
         var rows = Array.from(document.querySelectorAll('#table tbody tr'));\
         var b = s.getBoundingClientRect();\
         var level = rows.every(function (tr) {\
           var k = tr.cells[0].getBoundingClientRect(), v = tr.cells[tr.cells.length - 1].getBoundingClientRect();\
           return Math.abs(k.bottom - v.bottom) < 1 && getComputedStyle(tr.cells[0]).borderBottomStyle !== 'none';\
         });\
         var k = rows[0].cells[0].getBoundingClientRect();\
         return [k.width, b.width, level, getComputedStyle(document.querySelector('#table')).borderCollapse,\
                 document.documentElement.scrollWidth <= document.documentElement.clientWidth];",
        vec![],
    );
    let (key, width) = (
        seen[0].as_f64().unwrap_or(999.0),
        seen[1].as_f64().unwrap_or(0.0),
    );
    assert!(
        key <= width * 0.4,
        "the key column takes {key} of {width} px at 390 px: {seen}"
    );
    assert_eq!(
        seen[2],
        json!(true),
        "row rules level in the key column: {seen}"
    );
    assert_eq!(seen[3], json!("separate"), "{seen}");
    assert_eq!(
        seen[4],
        json!(true),
        "the page never scrolls sideways: {seen}"
    );
    let shots = webdriver::screenshot_dir();
    std::fs::write(shots.join("wide-table-390.png"), session.full_page_png()).expect("write");
    session.emulate("dark", "");
    std::fs::write(
        shots.join("wide-table-390-dark.png"),
        session.full_page_png(),
    )
    .expect("write");
    session.emulate("light", "");
    session.set_viewport(1280, 900);
    std::fs::write(shots.join("wide-table-1280.png"), session.full_page_png()).expect("write");
}

/// The citation downloads the page makes in the browser (`citation_files` off, the
/// default) hold what the RIS and CFF files hold with `citation_files = true`, byte for
/// byte (CR LF line ends of the RIS included), under the file names `<slug>.<extension>`.
#[test]
#[ignore = "full tier: headless Chromium over WebDriver, axe-core and the Nu HTML Checker (Java)"]
fn citation_downloads_made_in_the_browser_equal_the_citation_files() {
    let Some(visit) = visit() else { return };
    let Visit {
        session, output, ..
    } = &visit;
    let files = tempfile::tempdir().unwrap();
    let root = files.path().join("site");
    common::copy_bundled_site(&root);
    let settings = std::fs::read_to_string(root.join("site.toml")).unwrap();
    std::fs::write(
        root.join("site.toml"),
        format!("citation_files = true\n{settings}"),
    )
    .unwrap();
    let with_files = files.path().join("public");
    datapages::build(&datapages::BuildOptions::new(&root).output(&with_files))
        .unwrap_or_else(|e| panic!("{e}"));
    for page in dataset_pages(output) {
        session.open(&page);
        let downloads = session.execute_async(
            r#"var done = arguments[arguments.length - 1];
            var links = Array.from(document.querySelectorAll("a.cite-download"));
            Promise.all(links.map(function (a) {
              return fetch(a.href).then(function (r) { return r.arrayBuffer(); }).then(function (b) {
                return [a.getAttribute("download"), a.href.slice(0, 5), Array.from(new Uint8Array(b))];
              });
            })).then(done, function (e) { done(String(e)); });"#,
            vec![],
        );
        let downloads = downloads
            .as_array()
            .unwrap_or_else(|| panic!("{downloads}"));
        assert_eq!(downloads.len(), 3, "{}", page.display());
        let slug = page
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap();
        for download in downloads {
            let name = download[0].as_str().expect("a download name");
            assert_eq!(download[1], "blob:", "{name}");
            let bytes: Vec<u8> = (download[2].as_array().unwrap().iter())
                .map(|b| b.as_u64().unwrap() as u8)
                .collect();
            if name.ends_with(".bib") {
                assert!(bytes.starts_with(format!("@misc{{{slug}").as_bytes()));
                continue;
            }
            let file = std::fs::read(with_files.join("data/datasets").join(name)).unwrap();
            assert_eq!(bytes, file, "{name}: the download is the file");
        }
    }
}
