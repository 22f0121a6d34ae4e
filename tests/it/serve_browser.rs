//! Live reload in a real browser: headless Chromium opens a page served by `datapages serve`;
//! the test edits the Markdown and the page shows the new lede without the test reloading
//! it; a broken edit shows the error overlay; the fix removes it. Talks to 127.0.0.1 only,
//! every wait bounded.

use crate::common;

use std::time::{Duration, Instant};

use common::server::Server;
use common::webdriver::{self, Driver, Session};
use serde_json::json;

const FLAGSHIP: &str = "/datasets/sata-sas-nvme-measured-throughput/";
const FLAGSHIP_MD: &str = "content/datasets/sata-sas-nvme-measured-throughput.md";

/// Polls a script in the page until it returns true, for up to `limit`.
fn wait_until(session: &Session, script: &str, limit: Duration, what: &str) {
    let started = Instant::now();
    loop {
        if session.execute(script, vec![]) == json!(true) {
            return;
        }
        assert!(started.elapsed() < limit, "timed out waiting until {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A copy of the bundled site, served, with the flagship page open in headless Chromium.
struct Preview {
    site: tempfile::TempDir,
    server: Server,
    driver: Driver,
    session: Session,
}

/// `None` (after the skip line) when there is no browser.
fn open_flagship() -> Option<Preview> {
    if !webdriver::browser_present() {
        return None;
    }
    let site = tempfile::tempdir().unwrap();
    common::copy_bundled_site(site.path());
    let server = Server::start(site.path());
    let driver = Driver::start();
    let session = driver.session(&[]);
    session.navigate(&server.url(FLAGSHIP));
    Some(Preview {
        site,
        server,
        driver,
        session,
    })
}

#[test]
#[ignore = "full tier: headless Chromium follows serve edits"]
fn the_browser_follows_edits_and_shows_the_error_overlay() {
    let Some(Preview {
        site,
        server: _server,
        driver: _driver,
        session,
    }) = open_flagship()
    else {
        return;
    };
    let lede = "return (document.querySelector('.lede') || {}).textContent || ''";
    assert!(session
        .execute(lede, vec![])
        .as_str()
        .unwrap()
        .contains("10,366"));
    // Give the page's poll a moment to be waiting on the server.
    std::thread::sleep(Duration::from_millis(300));

    let markdown = site.path().join(FLAGSHIP_MD);
    let original = std::fs::read_to_string(&markdown).unwrap();
    // The lede is the first paragraph after the front matter.
    let lede_start = original.rfind("+++\n").unwrap() + 4;
    let (front, body) = original.split_at(lede_start);
    let edited = format!(
        "{front}{}",
        body.replacen(
            "With 128K blocks",
            "Edited in the browser test: with 128K blocks",
            1
        )
    );
    assert_ne!(edited, original);
    std::fs::write(&markdown, &edited).unwrap();
    wait_until(
        &session,
        "return document.querySelector('.lede') !== null && document.querySelector('.lede').textContent.includes('Edited in the browser test')",
        Duration::from_secs(15),
        "the edited lede appears without the test reloading",
    );

    // A broken edit: the overlay names the file and line; the page underneath stays.
    std::fs::write(&markdown, edited.replacen("kicker = ", "kicker = = ", 1)).unwrap();
    wait_until(
        &session,
        "var o = document.getElementById('datapages-error-overlay'); return o !== null && o.textContent.includes('sata-sas-nvme-measured-throughput.md:3:');",
        Duration::from_secs(15),
        "the error overlay shows the file and line",
    );
    let still = session.execute(lede, vec![]);
    assert!(
        still
            .as_str()
            .unwrap()
            .contains("Edited in the browser test"),
        "{still}"
    );

    // The fix removes the overlay and shows the new text.
    let fixed = format!(
        "{front}{}",
        body.replacen(
            "With 128K blocks",
            "Fixed in the browser test: with 128K blocks",
            1
        )
    );
    std::fs::write(&markdown, fixed).unwrap();
    wait_until(
        &session,
        "return document.getElementById('datapages-error-overlay') === null && document.querySelector('.lede') !== null && document.querySelector('.lede').textContent.includes('Fixed in the browser test')",
        Duration::from_secs(15),
        "the overlay goes away and the fixed page shows",
    );
}

#[test]
#[ignore = "full tier: headless Chromium follows serve edits"]
fn a_css_edit_swaps_the_stylesheet_without_a_reload() {
    let Some(Preview {
        site,
        server: _server,
        driver: _driver,
        session,
    }) = open_flagship()
    else {
        return;
    };
    session.execute("window.__notReloaded = true; return true;", vec![]);
    std::thread::sleep(Duration::from_millis(300));
    let css = site.path().join("static/style.css");
    let mut text = std::fs::read_to_string(&css).unwrap();
    text.push_str("\nbody { outline: 3px solid rgb(1, 2, 3); }\n");
    std::fs::write(&css, text).unwrap();
    wait_until(
        &session,
        "return getComputedStyle(document.body).outlineColor === 'rgb(1, 2, 3)'",
        Duration::from_secs(15),
        "the new style applies",
    );
    assert_eq!(
        session.execute("return window.__notReloaded === true", vec![]),
        json!(true),
        "no full reload for CSS"
    );
}
