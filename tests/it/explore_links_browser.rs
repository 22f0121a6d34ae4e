//! A table without a declared key, shaped like nycflights13's flights (issue 52, item 9):
//! `year` is 2013 on every row and six columns repeat their values. The page's sticky
//! first column is only one that tells the rows apart (the fast tier reads the built
//! page's style). **(full tier)** In headless Chromium: a link with the explorer's view
//! state (`#explore?…`) opens the explorer in that view and brings it into sight, also
//! when it is followed on the page itself (only the fragment changes); at 390 px the
//! facets start closed, so the first result is on the first screen; at 1280 px they
//! start open; a foreign key's link (`#explore?k.<column>=<value>`, issue 53) filters
//! exactly, shows each key with a button that clears it, and the URL follows.

use crate::common;

use std::fmt::Write as _;

use common::explorer::{count_text, screenshots, settled, wait_for};
use common::server::Server;
use common::webdriver::{self, Driver, Session};
use serde_json::json;
use std::time::Duration;

const ROWS: usize = 120;
const CARRIERS: [&str; 6] = ["AA", "B6", "DL", "EV", "UA", "WN"];
const ORIGINS: [&str; 3] = ["EWR", "JFK", "LGA"];

/// The sample's front matter: `first` is the first column's declaration (name and type),
/// `unique` adds `unique = true` to it.
fn front(first: (&str, &str), unique: bool) -> String {
    let mut front = String::from(
        "title = \"Flights\"\nkicker = \"a test\"\nheadline = \"Departures without a key\"\n\
         [[sources]]\nid = \"src\"\ntitle = \"A source\"\n",
    );
    let columns = [
        first,
        ("month", "integer"),
        ("day", "integer"),
        ("carrier", "string"),
        ("origin", "string"),
        ("dest", "string"),
        ("hour", "integer"),
        ("distance", "number"),
    ];
    for (name, kind) in columns {
        let _ = write!(
            front,
            "[[columns]]\nname = \"{name}\"\ntitle = \"{name}\"\ntype = \"{kind}\"\ndescription = \"The {name}.\"\n"
        );
        if unique && name == first.0 {
            front.push_str("unique = true\n");
        }
    }
    front
}

/// The rows, their first cell given by `first(row)`.
fn csv(first: impl Fn(usize) -> String) -> String {
    let mut csv = String::new();
    for row in 0..ROWS {
        let _ = writeln!(
            csv,
            "{},{},{},{},{},D{},{},{}.5",
            first(row),
            row % 4 + 1,
            row % 5 + 1,
            CARRIERS[row % 6],
            ORIGINS[row % 3],
            row % 8,
            row % 10 + 5,
            row * 13 % 997
        );
    }
    csv
}

/// The flights-shaped site: `year` first, 2013 on every row, no key.
fn flights() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let header = "year,month,day,carrier,origin,dest,hour,distance\n";
    let body = header.to_string() + &csv(|_| "2013".into());
    let front = front(("year", "integer"), false);
    common::write_small_site(dir.path(), &front, common::SMALL_BODY, body.as_bytes());
    dir
}

/// The built page's sticky columns: the `nth-child` of each `position:sticky` rule of the
/// table's style, and the headers marked `key`.
fn sticky(root: &std::path::Path) -> (Vec<String>, usize) {
    common::build_root(root);
    let page = std::fs::read_to_string(root.join("public/datasets/sample/index.html")).unwrap();
    let rules = page
        .split("#table tr>:nth-child(")
        .skip(1)
        .filter(|rule| rule.contains("){position:sticky"))
        .map(|rule| rule.split(')').next().unwrap_or("").to_string())
        .collect();
    let keys = page
        .split("<th scope=\"col\" class=\"")
        .skip(1)
        .filter(|th| th.split('"').next().unwrap_or("").ends_with(" key"))
        .count();
    (rules, keys)
}

#[test]
fn only_a_column_that_tells_the_rows_apart_stays_in_view() {
    // `year`, 2013 on every row: nothing stays in view, no header is a key.
    let dir = flights();
    assert_eq!(sticky(dir.path()), (vec![], 0));

    // A first column of text whose values are all distinct (the scan's profile says so).
    let dir = tempfile::tempdir().unwrap();
    let body = "flight,month,day,carrier,origin,dest,hour,distance\n".to_string()
        + &csv(|row| format!("F{row}"));
    let front_matter = front(("flight", "string"), false);
    common::write_small_site(
        dir.path(),
        &front_matter,
        common::SMALL_BODY,
        body.as_bytes(),
    );
    assert_eq!(sticky(dir.path()), (vec!["1".to_string()], 1));

    // A text column that repeats one value is no key; numbers declared `unique` are.
    let repeats = body.replacen("F1,", "F0,", 1);
    common::write_small_site(
        dir.path(),
        &front_matter,
        common::SMALL_BODY,
        repeats.as_bytes(),
    );
    assert_eq!(sticky(dir.path()), (vec![], 0));
    let numbers = "flight,month,day,carrier,origin,dest,hour,distance\n".to_string()
        + &csv(|row| (1000 + row).to_string());
    let front_matter = front(("flight", "integer"), true);
    common::write_small_site(
        dir.path(),
        &front_matter,
        common::SMALL_BODY,
        numbers.as_bytes(),
    );
    assert_eq!(sticky(dir.path()), (vec!["1".to_string()], 1));

    // A declared key stays in view, wherever it is.
    let keyed = format!("primary_key = [\"carrier\", \"origin\"]\n{front_matter}");
    common::write_small_site(dir.path(), &keyed, common::SMALL_BODY, numbers.as_bytes());
    assert_eq!(sticky(dir.path()), (vec!["4".to_string()], 2));
}

/// Waits until the explorer says `want` rows, and is not busy.
fn counted(session: &Session, want: &str) {
    wait_for(
        session,
        &format!(
            "var c = document.querySelector('.explore-count'); return !!c && c.textContent === {} && \
             !document.getElementById('explore').hasAttribute('aria-busy');",
            json!(want)
        ),
        Duration::from_secs(60),
        want,
    );
}

/// Whether the explorer's box is on the screen.
fn in_sight(session: &Session) -> serde_json::Value {
    session.execute(
        "var r = document.getElementById('explore').getBoundingClientRect();\
         return r.top >= -1 && r.top < innerHeight;",
        vec![],
    )
}

#[test]
#[ignore = "full tier: headless Chromium follows links to views of the explorer"]
fn a_link_with_the_view_opens_the_explorer_in_that_view() {
    if !webdriver::browser_present() {
        return;
    }
    let site = flights();
    let server = Server::start(site.path());
    let driver = Driver::start();
    let session = driver.session(&[]);
    session.set_viewport(1280, 900);

    // A fresh load of a link: the view, in sight.
    session
        .navigate(&server.url("/datasets/sample/?fresh#explore?f.carrier=AA&sort=distance.desc"));
    counted(&session, &format!("{} of {ROWS} rows", ROWS / 6));
    assert_eq!(in_sight(&session), json!(true), "the explorer in sight");
    let first = session.execute(
        "return document.querySelector('.explore-table tbody tr td:nth-child(5)').textContent;",
        vec![],
    );
    assert_eq!(first, json!("AA"));

    // The page without a view, then a link to one followed on it: only the fragment changes.
    session.navigate(&server.url("/datasets/sample/"));
    let closed = session.execute(
        "return document.querySelector('.explore-panel').hidden && scrollY === 0;",
        vec![],
    );
    assert_eq!(closed, json!(true), "closed without a view");
    session.execute("location.hash = '#explore?f.origin=JFK';", vec![]);
    counted(&session, &format!("{} of {ROWS} rows", ROWS / 3));
    assert_eq!(in_sight(&session), json!(true), "the explorer in sight");

    // Another view followed while the explorer is open: its search box and ranges show it.
    session.execute(
        "window.scrollTo(0, 0); location.hash = '#explore?q=EWR&r.hour=5~9';",
        vec![],
    );
    counted(&session, &format!("{} of {ROWS} rows", ROWS / 6));
    let shown = session.execute(
        "var s = document.querySelector('.explore-range[data-column=hour]');\
         return [document.getElementById('explore-q').value, s.querySelector('.explore-from').value,\
                 s.querySelector('.explore-to').value, document.querySelectorAll('.explore-facet input:checked').length];",
        vec![],
    );
    assert_eq!(shown, json!(["EWR", "5", "9", 0]));
    assert_eq!(in_sight(&session), json!(true), "the explorer in sight");
    assert_eq!(count_text(&session), format!("{} of {ROWS} rows", ROWS / 6));
}

#[test]
#[ignore = "full tier: headless Chromium opens the explorer at 390 and 1280 px"]
fn on_a_phone_the_facets_start_closed_and_the_first_result_is_on_the_first_screen() {
    if !webdriver::browser_present() {
        return;
    }
    let site = flights();
    let server = Server::start(site.path());
    let driver = Driver::start();
    let session = driver.session(&[]);
    let opened = |width: i64| {
        session.set_viewport(width, 844);
        session.navigate(&server.url(&format!("/datasets/sample/?w={width}#explore")));
        settled(&session, "the rows to load");
        session.execute(
            "var d = document.querySelector('.explore-facets').closest('details');\
             var row = document.querySelector('.explore-table tbody tr').getBoundingClientRect();\
             var sticky = Array.from(document.querySelectorAll('#table th, #table td'))\
               .filter(function (c) { return getComputedStyle(c).left !== 'auto'; }).length;\
             return [document.querySelectorAll('fieldset.explore-facet').length, d.open,\
                     row.top >= 0 && row.bottom <= innerHeight, sticky];",
            vec![],
        )
    };
    let phone = opened(390);
    assert!(
        phone[0].as_u64().unwrap_or(0) >= 6,
        "six facets or more: {phone}"
    );
    assert_eq!(
        [&phone[1], &phone[2], &phone[3]],
        [&json!(false), &json!(true), &json!(0)],
        "at 390 px: {phone}"
    );
    // On a wide screen they start open (the first result may be further down).
    let wide = opened(1280);
    assert_eq!(
        [&wide[1], &wide[3]],
        [&json!(true), &json!(0)],
        "at 1280 px: {wide}"
    );
    // A view that chose values opens them, even on a phone.
    session.set_viewport(390, 844);
    session.navigate(&server.url("/datasets/sample/?chosen#explore?f.carrier=DL"));
    settled(&session, "the chosen view");
    let open = session.execute(
        "return document.querySelector('.explore-facets').closest('details').open;",
        vec![],
    );
    assert_eq!(open, json!(true));
    session.navigate(&server.url("/datasets/sample/?shots#explore"));
    settled(&session, "the rows to load");
    screenshots(&session, "explore-facets-closed");
}

#[test]
#[ignore = "full tier: headless Chromium opens the explorer on exact keys and clears them"]
fn a_key_link_filters_exactly_and_each_key_can_be_cleared() {
    if !webdriver::browser_present() {
        return;
    }
    let site = flights();
    let server = Server::start(site.path());
    let driver = Driver::start();
    let session = driver.session(&[]);
    session.set_viewport(1280, 900);
    // As a foreign key's link writes it (`D3` with its `3` percent-encoded): three keys, one
    // on a column of nearly all distinct values (no facet).
    session.navigate(
        &server.url("/datasets/sample/?keys#explore?k.distance=247.5&k.carrier=B6&k.dest=D%33"),
    );
    counted(&session, &format!("1 of {ROWS} rows"));
    let keys = "return Array.from(document.querySelectorAll('.explore-key')).map(function (p) {\
                return [p.querySelector('.explore-key-value').textContent,\
                        p.querySelector('button').getAttribute('aria-label'),\
                        p.querySelector('button').textContent]; });";
    assert_eq!(
        session.execute(keys, vec![]),
        json!([
            [
                "distance = 247.5",
                "Clear filters: distance = 247.5",
                "\u{d7}"
            ],
            ["carrier = B6", "Clear filters: carrier = B6", "\u{d7}"],
            ["dest = D3", "Clear filters: dest = D3", "\u{d7}"]
        ])
    );
    // Cleared one by one: the rows and the URL follow, focus goes to the search box.
    session.execute(
        "document.querySelectorAll('.explore-key button')[0].click();",
        vec![],
    );
    counted(&session, &format!("{} of {ROWS} rows", ROWS / 24));
    let after = session.execute(
        "return [location.hash, document.activeElement.id, document.querySelectorAll('.explore-key').length];",
        vec![],
    );
    assert_eq!(
        after,
        json!(["#explore?k.carrier=B6&k.dest=D3", "explore-q", 2])
    );
    session.execute("document.querySelector('.explore-reset').click();", vec![]);
    wait_for(
        &session,
        "return document.querySelectorAll('.explore-key').length === 0 && location.hash === '#explore';",
        Duration::from_secs(30),
        "the keys cleared",
    );
}
