//! The explorer (static/explore.js and its worker) in headless Chromium against hostile
//! names and cells (full tier): a column named after every `Object.prototype` member, each
//! as a facet and as a link key (`#explore?f.constructor=x`, `r.__proto__=…`,
//! `sort=toString.desc`), and a 10 MB cell, which the table shows cut (two lines and
//! "more", as the page's own table) and a facet lists with a cut label; and the hostile
//! names fixture of tests/it/hostile_bytes.rs opened by a link choosing two facets. The worker's own
//! checks (growth with the cell, every split of rows across chunks) run in Node in the
//! fast tier (tests/browser/explore-worker.test.js, `explore::the_worker_passes_its_node_tests`).

use crate::common;

use std::fmt::Write as _;

use common::explorer::{count_text, screenshots, settled};
use common::server::Server;
use common::webdriver::{self, Driver};
use serde_json::json;

/// `Object.getOwnPropertyNames(Object.prototype)` in Chromium, sorted (the test checks
/// the browser's list is this one).
const PROTOTYPE: [&str; 12] = [
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
    "__proto__",
    "constructor",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "toString",
    "valueOf",
];

const ROWS: usize = 12;

/// Characters of the giant cell.
const GIANT: usize = 10 * 1024 * 1024;

/// The giant cell's text: words, quotes and line breaks.
fn giant() -> String {
    let unit = "Words \"quoted\", and a line\nbreak. ";
    unit.repeat(GIANT / unit.len() + 1)[..GIANT].to_string()
}

/// Two datasets: `sample`, whose columns are named after every `Object.prototype` member
/// (column `i` holds `x` where `(row + i) % 3 == 0`, else `y`); `giant`, whose `note`
/// holds `a`, `b` and, on the third row, the giant cell.
fn site() -> tempfile::TempDir {
    let head = "kicker = \"a test\"\nheadline = \"Hostile names and cells\"\n\
                [[sources]]\nid = \"src\"\ntitle = \"A source\"\n";
    let column = |name: &str| {
        format!("[[columns]]\nname = \"{name}\"\ntitle = \"Column {name}\"\ntype = \"string\"\ndescription = \"A value.\"\n")
    };
    let mut front = format!("title = \"Prototype names\"\n{head}");
    let mut csv = PROTOTYPE.join(",") + "\n";
    for name in PROTOTYPE {
        front.push_str(&column(name));
    }
    for row in 0..ROWS {
        let cells: Vec<&str> = (0..PROTOTYPE.len())
            .map(|i| if (row + i) % 3 == 0 { "x" } else { "y" })
            .collect();
        let _ = writeln!(csv, "{}", cells.join(","));
    }
    let dir = tempfile::tempdir().unwrap();
    common::write_small_site(dir.path(), &front, common::SMALL_BODY, csv.as_bytes());

    let front = format!(
        "title = \"A giant cell\"\n{head}{}{}",
        column("label"),
        column("note")
    );
    let mut csv = String::from("label,note\n");
    for row in 0..ROWS {
        let note = match row {
            2 => format!("\"{}\"", giant().replace('"', "\"\"")),
            _ if row % 2 == 0 => "a".to_string(),
            _ => "b".to_string(),
        };
        let _ = writeln!(csv, "row {row},{note}");
    }
    std::fs::write(dir.path().join("data/datasets/giant.csv"), csv).unwrap();
    std::fs::write(
        dir.path().join("content/datasets/giant.md"),
        format!("+++\n{front}+++\n{}", common::SMALL_BODY),
    )
    .unwrap();
    dir
}

#[test]
#[ignore = "full tier: headless Chromium explores columns named after Object.prototype and a 10 MB cell"]
fn prototype_names_and_a_giant_cell_neither_break_nor_flood_the_explorer() {
    if !webdriver::browser_present() {
        return;
    }
    let site = site();
    let server = Server::start(site.path());
    let driver = Driver::start();
    let session = driver.session(&[]);
    session.set_viewport(1280, 900);
    session.navigate(&server.url("/datasets/sample/"));
    let names = session.execute(
        "return Object.getOwnPropertyNames(Object.prototype).sort();",
        vec![],
    );
    assert_eq!(names, json!(PROTOTYPE), "the browser's Object.prototype");

    // Each name as a link key: a facet choice, a range and a sort, each on a fresh load.
    for (i, name) in PROTOTYPE.iter().enumerate() {
        for (k, (key, matched)) in [
            (format!("f.{name}=x"), ROWS / 3),
            (format!("r.{name}=1~2&sort={name}.desc"), ROWS),
        ]
        .into_iter()
        .enumerate()
        {
            // A query of its own, so that each link loads the page afresh.
            let url = format!("/datasets/sample/?load={i}-{k}#explore?{key}");
            session.navigate(&server.url(&url));
            settled(&session, &key);
            let want = match matched == ROWS {
                true => format!("All {ROWS} rows"),
                false => format!("{matched} of {ROWS} rows"),
            };
            assert_eq!(count_text(&session), want, "{key}");
        }
    }

    session.navigate(&server.url("/datasets/sample/?all#explore"));
    settled(&session, "the rows to load");
    let facets = session.execute(
        "return document.querySelectorAll('fieldset.explore-facet').length;",
        vec![],
    );
    assert_eq!(facets, json!(PROTOTYPE.len()), "every column a facet");

    // The giant value among note's values with a cut label and no box to choose; the giant
    // cell cut to 1,000 characters, two lines and "more".
    session.navigate(&server.url("/datasets/giant/#explore"));
    settled(&session, "the giant cell to load");
    let seen = session.execute(
        "var note = document.querySelector('fieldset.explore-facet[data-column=\"note\"]');\
         var labels = [].map.call(note.querySelectorAll('.explore-value'), function (v) { return v.textContent.length; });\
         var boxes = [].map.call(note.querySelectorAll('input'), function (b) { return [b.disabled, b.hasAttribute('value')]; });\
         var cell = document.querySelectorAll('.explore-table tbody tr')[2].lastChild;\
         var clamp = cell.querySelector('.cell-clamp');\
         return [labels, boxes, clamp.textContent.length, clamp.textContent.slice(-1),\
                 !!cell.querySelector('button.cell-more[aria-label=\"Whole text of this cell\"]'),\
                 clamp.getBoundingClientRect().height < 80];",
        vec![],
    );
    assert_eq!(
        seen,
        json!([
            [1, 1, 100],
            [[false, true], [false, true], [true, false]],
            1000,
            "\u{2026}",
            true,
            true
        ])
    );
    screenshots(&session, "explore-giant-cell");
    // "more" opens the cut text.
    let opened = session.execute(
        "var cell = document.querySelectorAll('.explore-table tbody tr')[2].lastChild;\
         cell.querySelector('button.cell-more').click();\
         return [cell.querySelector('button.cell-more').getAttribute('aria-expanded'),\
                 cell.querySelector('.cell-clamp').getBoundingClientRect().height > 80];",
        vec![],
    );
    assert_eq!(opened, json!(["true", true]));

    // The hostile names fixture (tests/it/hostile_bytes.rs), opened by a link choosing two
    // of its facets: `constructor` McLaren (rows 1, 3, 5) and `__proto__` x (1, 4, 6).
    let names = tempfile::tempdir().unwrap();
    common::write_small_site(
        names.path(),
        crate::hostile_bytes::NAMES_FRONT,
        common::SMALL_BODY,
        crate::hostile_bytes::NAMES_CSV.as_bytes(),
    );
    let names_server = Server::start(names.path());
    session.navigate(
        &names_server.url("/datasets/sample/#explore?f.constructor=McLaren&f.__proto__=x"),
    );
    settled(&session, "the hostile names");
    assert_eq!(count_text(&session), "1 of 6 rows");
    assert_eq!(
        webdriver::axe_serious(&session),
        Vec::<String>::new(),
        "axe-core"
    );
}
