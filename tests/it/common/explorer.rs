//! Driving the explorer of every row (static/explore.js) in headless Chromium: waiting
//! for it to settle, reading its count, rows and facets, sorting, choosing, setting
//! ranges, searching, reading back a download, and screenshots at 1280 and 390 px, light
//! and dark.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::json;

use super::webdriver::{self, Session};

/// `n` with thousands grouped, as the explorer writes counts and row numbers.
pub fn group(n: usize) -> String {
    let text = n.to_string();
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i > 0 && (text.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Polls `script` until it returns true, for up to `limit` (a wait for an event, not a
/// speed claim).
pub fn wait_for(session: &Session, script: &str, limit: Duration, what: &str) {
    let started = Instant::now();
    while session.execute(script, vec![]) != json!(true) {
        assert!(started.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits for the explorer to finish loading and answering.
pub fn settled(session: &Session, what: &str) {
    wait_for(
        session,
        "var b = document.getElementById('explore'); return !!document.querySelector('.explore-count') && \
         document.querySelector('.explore-count').textContent !== '' && !b.hasAttribute('aria-busy');",
        Duration::from_secs(120),
        what,
    );
}

pub fn count_text(session: &Session) -> String {
    session
        .execute(
            "return document.querySelector('.explore-count').textContent;",
            vec![],
        )
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The shown rows: each row's number and cell texts.
pub fn shown_rows(session: &Session) -> Vec<Vec<String>> {
    let rows = session.execute(
        "return [].map.call(document.querySelectorAll('.explore-table tbody tr'), function (tr) {\
           return [].map.call(tr.cells, function (td) { return td.textContent; }); });",
        vec![],
    );
    serde_json::from_value(rows).expect("rows")
}

/// The status line of the page table's filter box.
pub fn table_status(session: &Session) -> String {
    session
        .execute(
            "return document.getElementById('table-status').textContent;",
            vec![],
        )
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The page's own table (its first rows): each row's cell texts.
pub fn static_table(session: &Session) -> Vec<Vec<String>> {
    let rows = session.execute(
        "return [].map.call(document.querySelectorAll('table.sortable tbody tr'), function (tr) {\
           return [].map.call(tr.cells, function (td) { return td.textContent; }); });",
        vec![],
    );
    serde_json::from_value(rows).expect("rows")
}

/// A facet's values (as written in the CSV: each checkbox's value) and counts as shown.
pub fn facet(session: &Session, column: &str) -> BTreeMap<String, usize> {
    let entries = session.execute(
        "return [].map.call(document.querySelectorAll('fieldset.explore-facet[data-column=\"' + arguments[0] + '\"] li label'), function (l) {\
           return [document.getElementById(l.htmlFor).value, l.querySelector('.explore-n').textContent]; });",
        vec![json!(column)],
    );
    let entries: Vec<(String, String)> = serde_json::from_value(entries).expect("facet");
    entries
        .into_iter()
        .map(|(v, n)| (v, n.replace(',', "").parse().expect("a count")))
        .collect()
}

/// A facet's values as its labels show them, in their order.
pub fn facet_labels(session: &Session, column: &str) -> Vec<String> {
    let labels = session.execute(
        "return [].map.call(document.querySelectorAll('fieldset.explore-facet[data-column=\"' + arguments[0] + '\"] .explore-value'), function (v) {\
           return v.textContent; });",
        vec![json!(column)],
    );
    serde_json::from_value(labels).expect("labels")
}

pub fn sort_by(session: &Session, title: &str) {
    session.execute(
        "var t = arguments[0]; [].filter.call(document.querySelectorAll('.explore-table thead .sort-button'), function (b) { return b.textContent === t; })[0].click();",
        vec![json!(title)],
    );
    settled(session, "the sort");
}

pub fn choose(session: &Session, column: &str, value: &str) {
    session.execute(
        "var v = arguments[1]; [].filter.call(document.querySelectorAll('fieldset.explore-facet[data-column=\"' + arguments[0] + '\"] input'), function (i) { return i.value === v; })[0].click();",
        vec![json!(column), json!(value)],
    );
    settled(session, "a facet");
}

pub fn set_range(session: &Session, column: &str, from: &str, to: &str) {
    session.execute(
        "var set = document.querySelector('fieldset.explore-range[data-column=\"' + arguments[0] + '\"]');\
         [['.explore-from', arguments[1]], ['.explore-to', arguments[2]]].forEach(function (p) {\
           var i = set.querySelector(p[0]); i.value = p[1]; i.dispatchEvent(new Event('change')); });",
        vec![json!(column), json!(from), json!(to)],
    );
    settled(session, "a range");
}

/// The bytes "Download these rows" gives, read back from its Blob.
pub fn downloaded(session: &Session) -> Vec<u8> {
    session.execute(
        "var a = document.querySelector('.explore-saved'); if (a.href) URL.revokeObjectURL(a.href); a.removeAttribute('href');\
         document.querySelector('.explore-download').click();",
        vec![],
    );
    let encoded = session.execute_async(
        "var done = arguments[arguments.length - 1]; var tries = 0;\
         (function poll() {\
           var a = document.querySelector('.explore-saved');\
           if (!a.getAttribute('href')) { if (tries++ < 600) return setTimeout(poll, 100); return done('timeout'); }\
           fetch(a.href).then(function (r) { return r.arrayBuffer(); }).then(function (buffer) {\
             var bytes = new Uint8Array(buffer), text = '';\
             for (var i = 0; i < bytes.length; i += 8192) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));\
             done(btoa(text)); });\
         })();",
        vec![],
    );
    let encoded = encoded.as_str().expect("base64");
    assert_ne!(encoded, "timeout", "the download never came");
    webdriver::base64_decode(encoded)
}

pub fn screenshots(session: &Session, name: &str) {
    std::fs::create_dir_all(webdriver::screenshot_dir()).unwrap();
    for (width, scheme) in [
        (1280, "light"),
        (390, "light"),
        (1280, "dark"),
        (390, "dark"),
    ] {
        session.set_viewport(width, 900);
        session.emulate(scheme, "screen");
        session.execute(
            "document.getElementById('explore').scrollIntoView();",
            vec![],
        );
        std::fs::write(
            webdriver::screenshot_dir().join(format!("{name}-{width}-{scheme}.png")),
            session.full_page_png(),
        )
        .unwrap();
    }
    session.emulate("light", "screen");
    session.set_viewport(1280, 900);
}

/// Types `text` into the search box and waits for the answer.
pub fn search(session: &Session, text: &str) {
    session.execute(
        "var q = document.getElementById('explore-q'); q.value = arguments[0]; q.dispatchEvent(new Event('input'));\
         document.getElementById('explore').setAttribute('aria-busy', 'true');",
        vec![json!(text)],
    );
    settled(session, "a search");
}
