//! Searching every row in a real browser: a dataset with row pages, served by `datapages
//! serve`, opened in headless Chromium; the filter box's "Search all rows" finds a value that
//! is only on the last row page, showing its progress, Stop stops a search, and Go to page
//! opens any page. Screenshots
//! of the dataset page's row navigation and of a row page go to <target>/browser-screenshots/.
//! Talks to 127.0.0.1 only; every wait is bounded. Without Chromium it prints "skipped: …"
//! and passes (except under CI=true).

use crate::common;

use std::time::{Duration, Instant};

use common::server::Server;
use common::webdriver::{self, Driver, Session};
use serde_json::{json, Value};

const ROWS: u64 = 40_000;
const PER_PAGE: u64 = 100;
/// The one row whose label holds the needle, on the last page.
const NEEDLE_ROW: u64 = 39_950;

fn write_site(root: &std::path::Path) {
    let mut csv = String::from("label,value\n");
    for row in 1..=ROWS {
        let label = if row == NEEDLE_ROW {
            "late-needle".to_string()
        } else {
            format!("item-{row}")
        };
        csv.push_str(&format!("{label},{}\n", row * 7));
    }
    common::write_small_site(
        root,
        &format!(
            "row_pages = true\ntable_rows = {PER_PAGE}\n{}",
            common::SMALL_FRONT
        ),
        common::SMALL_BODY,
        csv.as_bytes(),
    );
}

fn status(session: &Session) -> String {
    common::explorer::table_status(session)
}

/// Polls the status line until `check` accepts it, for up to `limit`; returns it.
fn wait_status(session: &Session, limit: Duration, check: impl Fn(&str) -> bool) -> String {
    let started = Instant::now();
    loop {
        let text = status(session);
        if check(&text) {
            return text;
        }
        assert!(
            started.elapsed() < limit,
            "timed out; the status reads {text:?}"
        );
        std::thread::sleep(Duration::from_millis(40));
    }
}

fn searched(text: &str) -> u64 {
    let number = text
        .split("searched ")
        .nth(1)
        .and_then(|rest| rest.split(" of ").next())
        .unwrap_or("0");
    number.replace(',', "").parse().unwrap_or(0)
}

fn search_for(session: &Session, words: &str) {
    session.execute(
        "var input = document.getElementById('table-filter'); input.value = arguments[0];\
         input.dispatchEvent(new Event('input'));",
        vec![json!(words)],
    );
    session.click(&session.find(".search-all"));
}

#[test]
#[ignore = "full tier: headless Chromium searches 400 row pages"]
fn searching_all_rows_finds_a_late_row_with_progress_and_stop_stops() {
    if !webdriver::browser_present() {
        return;
    }
    let site = tempfile::tempdir().unwrap();
    write_site(site.path());
    let server = Server::start(site.path());
    let driver = Driver::start();
    let session = driver.session(&[]);
    session.set_viewport(1280, 900);
    session.navigate(&server.url("/datasets/sample/"));
    assert_eq!(
        session.execute(
            "var b = document.querySelector('.search-all'); return b && !b.hidden && b.textContent;",
            vec![]
        ),
        json!("Search all 40,000 rows")
    );

    // Found on the last page, with progress along the way.
    search_for(&session, "late-needle");
    let progress = wait_status(&session, Duration::from_secs(20), |s| {
        s.starts_with("Searching")
    });
    assert!(progress.contains(" of 40,000 rows"), "{progress}");
    let done = wait_status(&session, Duration::from_secs(120), |s| {
        s.starts_with("Searched")
    });
    assert_eq!(done, "Searched 40,000 of 40,000 rows: 1 match.");
    let found: Value = session.execute(
        "return Array.prototype.map.call(document.querySelectorAll('#table tbody tr'), function (tr) {\
           return [getComputedStyle(tr).display !== 'none', tr.className, tr.cells[0].textContent, \
                   (tr.querySelector('a.row-link') || {}).href || ''];\
         }).filter(function (r) { return r[0]; });",
        vec![],
    );
    let found = found.as_array().expect("rows");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0][1], "found");
    assert_eq!(found[0][2], "late-needle row 39,950, page 400");
    assert_eq!(
        found[0][3],
        json!(server.url(&format!("/datasets/sample/rows/400/#row-{NEEDLE_ROW}")))
    );
    assert_eq!(
        webdriver::axe_serious(&session),
        Vec::<String>::new(),
        "the found rows"
    );
    std::fs::create_dir_all(webdriver::screenshot_dir()).unwrap();
    std::fs::write(
        webdriver::screenshot_dir().join("row-search-found.png"),
        session.full_page_png(),
    )
    .unwrap();

    // Typing again brings the page's own rows back.
    session.type_into(&session.find("#table-filter"), "x");
    let shown = session.execute(
        "return Array.prototype.filter.call(document.querySelectorAll('#table tbody tr'), function (tr) {\
           return !tr.classList.contains('found') && tr.style.display !== 'none'; }).length;",
        vec![],
    );
    assert_eq!(shown, json!(PER_PAGE));

    // Stop: a search for what no row holds is stopped early and stays stopped.
    search_for(&session, "absent-everywhere");
    wait_status(&session, Duration::from_secs(30), |s| searched(s) >= 1000);
    session.click(&session.find(".search-stop"));
    let stopped = wait_status(&session, Duration::from_secs(20), |s| {
        s.starts_with("Stopped")
    });
    let at = searched(&stopped);
    assert!((1000..ROWS).contains(&at), "{stopped}");
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(status(&session), stopped, "no progress after Stop");
    assert_eq!(
        session.execute(
            "return [document.querySelector('.search-stop').hidden, document.querySelector('.search-all').hidden];",
            vec![]
        ),
        json!([true, false])
    );

    // A row page without the search: its table, its place and the way on.
    session.navigate(&server.url("/datasets/sample/rows/200/"));
    let heading = session.execute("return document.querySelector('h1').textContent;", vec![]);
    assert_eq!(heading, json!("Sample: rows 19,901–20,000"));
    std::fs::write(
        webdriver::screenshot_dir().join("row-page-1280.png"),
        session.full_page_png(),
    )
    .unwrap();

    // Go to page: any page by its number.
    session.type_into(&session.find("#row-jump"), "250");
    session.click(&session.find(".row-jump button"));
    let started = Instant::now();
    while session.execute("return location.pathname;", vec![])
        != json!("/datasets/sample/rows/250/")
    {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "Go to page did not open page 250"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    session.set_viewport(390, 800);
    session.emulate("dark", "screen");
    assert_eq!(
        webdriver::axe_serious(&session),
        Vec::<String>::new(),
        "a row page, 390 px, dark"
    );
    std::fs::write(
        webdriver::screenshot_dir().join("row-page-390-dark.png"),
        session.full_page_png(),
    )
    .unwrap();
}
