//! The site search (issue #33): the index states each dataset's headline, description and
//! column names besides its title, slug and tags, so a word only in a description finds
//! its dataset in headless Chromium (the page served, so the split index loads: #50 item
//! 3), as do pieces inside a word and two words at once; titles list in reading order
//! ("a10" before "Zimmerman").

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::server::Server;
use common::webdriver::{self, Driver};
use serde_json::json;

/// A site of three undated datasets: "Zimmerman", "a10" and "Air readings", whose
/// description alone says "ozone" and whose CSV alone has a column `ppm_weekly`.
fn site(root: &Path) {
    common::write_small_site(
        root,
        &common::SMALL_FRONT.replacen("Sample", "Zimmerman", 1),
        common::SMALL_BODY,
        b"label,value\nalpha,1\n",
    );
    let add = |slug: &str, front: String, body: &str, csv: &str| {
        std::fs::write(
            root.join(format!("content/datasets/{slug}.md")),
            format!("+++\n{front}+++\n{body}"),
        )
        .unwrap();
        std::fs::write(root.join(format!("data/datasets/{slug}.csv")), csv).unwrap();
    };
    add(
        "a10",
        common::SMALL_FRONT.replacen("Sample", "a10", 1),
        common::SMALL_BODY,
        "label,value\nbeta,2\n",
    );
    let front = common::SMALL_FRONT
        .replacen("Sample", "Air readings", 1)
        .replacen("\"value\"", "\"ppm_weekly\"", 1);
    add(
        "air",
        front,
        "\nWeekly ozone readings at one station, from [a source](#source-src).\n\n## Method\n\nCounted.\n\n## Limits\n\nFew.\n",
        "label,ppm_weekly\ngamma,3\n",
    );
}

fn listed_titles(page: &Path) -> Vec<String> {
    common::texts(&common::html(page), ".dataset-item .item-title")
}

#[test]
fn titles_list_case_and_accents_ignored_with_numbers_by_value() {
    let dir = tempfile::tempdir().unwrap();
    site(dir.path());
    common::build_root(dir.path());
    let out = dir.path().join("public");
    let titles = listed_titles(&out.join("datasets/index.html"));
    assert_eq!(titles, ["a10", "Air readings", "Zimmerman"]);
    // The docs file lists each dataset in listing order; its searched text is in the
    // shards, filed under each three-character piece of each word.
    let docs: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("data/search/docs-0.json")).unwrap())
            .unwrap();
    assert_eq!(docs[1]["slug"], "air", "{docs}");
    let shards = std::fs::read_dir(out.join("data/search"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect::<String>();
    assert!(
        shards.contains("\"ozone\"") && shards.contains("\"ppm_weekly\""),
        "{shards}"
    );
}

#[test]
#[ignore = "full tier: headless Chromium over WebDriver"]
fn a_word_only_in_a_description_or_a_column_name_finds_its_dataset() {
    if !webdriver::browser_present() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    site(dir.path());
    let server = Server::start(dir.path());
    let driver = Driver::start();
    let session = driver.session(&[]);
    session.navigate(&server.url("/datasets/"));
    let status = "return document.getElementById('listing-status').textContent";
    let shown = "return [].filter.call(document.querySelectorAll('.dataset-item'), function (li) { return li.getClientRects().length > 0; })\
                   .map(function (li) { return li.querySelector('.item-title').textContent.trim(); });";
    let wait_for = |script: &str, what: &str| {
        let started = Instant::now();
        while session.execute(script, vec![]) != json!(true) {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "timed out waiting for {what}: {}",
                session.execute(status, vec![])
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    wait_for(
        &format!("{status} === 'All 3 datasets';"),
        "the listing filter",
    );
    let page_text = session.execute("return document.body.textContent;", vec![]);
    assert!(
        !page_text.as_str().unwrap().to_lowercase().contains("ozone"),
        "the word is not on the listing page"
    );
    let input = session.find("#listing-text");
    // Whole words, and (as with the whole index) pieces inside a word, of one, two and
    // more characters, and two words at once: each loads the manifest and its shards.
    for (word, found) in [
        ("ozone", "Air readings"),
        ("ppm_weekly", "Air readings"),
        ("zimm", "Zimmerman"),
        ("zon", "Air readings"),
        ("eekl", "Air readings"),
        ("pm", "Air readings"),
        ("a1", "a10"),
        ("OZONE station", "Air readings"),
    ] {
        session.execute(
            "var i = document.getElementById('listing-text'); i.value = ''; i.dispatchEvent(new Event('input'));",
            vec![],
        );
        session.type_into(&input, word);
        wait_for(&format!("{status} === '1 of 3 datasets';"), word);
        assert_eq!(session.execute(shown, vec![]), json!([found]), "{word}");
    }
}
