//! The explorer on a French site (#54 item 2), in headless Chromium (full tier): opened,
//! every text node and every `aria-label`, `title` and `placeholder` in it holds no string
//! of the English catalogue; numbers show French marks (a narrow no-break space between
//! groups, a decimal comma; years as written), each expected text computed here from the
//! CSV the test writes; a range typed the French way (`1 000,5`) and a search for a number
//! typed as shown (`2 693`, with a space or U+202F) or plain (`2693`) find the rows the CSV
//! gives. Without Chromium it prints "skipped: …" and passes (except under CI=true).

use crate::common;

use common::explorer::{count_text, search, set_range, settled, shown_rows, static_table};
use common::server::Server;
use common::webdriver::{self, Driver, Session};
use serde_json::json;

const ROWS: usize = 200;

const FRONT: &str = r#"title = "Échantillon"
kicker = "un test"
headline = "Un échantillon à explorer"
[[sources]]
id = "src"
title = "Une source"
[[columns]]
name = "label"
title = "Libellé"
type = "string"
description = "Vingt libellés."
[[columns]]
name = "amount"
title = "Montant"
type = "number"
digits = 1
description = "Un montant, parfois négatif."
[[columns]]
name = "count"
title = "Effectif"
type = "integer"
description = "Un effectif."
[[columns]]
name = "year"
title = "Année"
type = "integer"
description = "Une année."
"#;

/// One row: its cells as the CSV writes them and as a French page shows them.
struct Row {
    written: [String; 4],
    shown: [String; 4],
    amount: f64,
}

/// `value` at `digits` decimals in French marks (groups of three with U+202F, a comma),
/// written here without the explorer's code.
fn french(value: f64, digits: usize) -> String {
    let text = format!("{value:.digits$}");
    let (sign, text) = text
        .strip_prefix('-')
        .map_or(("", text.as_str()), |t| ("-", t));
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let mut out = sign.to_string();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    if !fraction.is_empty() {
        out.push(',');
        out.push_str(fraction);
    }
    out
}

fn rows() -> Vec<Row> {
    (0..ROWS)
        .map(|i| {
            let amount = ((i * 7919) % 50_000) as f64 / 4.0 - 2500.0;
            let count = match i {
                17 => 2693,
                117 => 12_693,
                _ => 1000 + i * 211,
            };
            let label = format!("étiquette {}", i % 20);
            let year = (1900 + i).to_string();
            Row {
                written: [
                    label.clone(),
                    amount.to_string(),
                    count.to_string(),
                    year.clone(),
                ],
                shown: [label, french(amount, 1), french(count as f64, 0), year],
                amount,
            }
        })
        .collect()
}

/// The literal pieces of every English message (arguments and link targets left out).
fn english_pieces() -> Vec<String> {
    let catalogue: toml::Table = toml::from_str(include_str!("../../i18n/en.toml")).unwrap();
    let mut texts = Vec::new();
    for section in catalogue.values().filter_map(toml::Value::as_table) {
        for message in section.values() {
            match message {
                toml::Value::String(text) => texts.push(text.clone()),
                toml::Value::Table(forms) => {
                    texts.extend(forms.values().filter_map(|f| f.as_str().map(String::from)))
                }
                _ => {}
            }
        }
    }
    let argument = regex::Regex::new(r"\{[a-z_]+\}|\]\([a-z_]+\)|[\[\]]").unwrap();
    let mut pieces: Vec<String> = texts
        .iter()
        .flat_map(|t| {
            argument
                .split(t)
                .map(|p| p.trim().to_string())
                .collect::<Vec<_>>()
        })
        .filter(|p| p.chars().filter(|c| c.is_alphabetic()).count() >= 2)
        .collect();
    pieces.sort();
    pieces.dedup();
    pieces
}

/// Every text node and every `aria-label`, `title` and `placeholder` in the explorer.
fn explorer_texts(session: &Session) -> Vec<String> {
    let texts = session.execute(
        "var out = [], box = document.getElementById('explore');\
         var walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);\
         while (walk.nextNode()) { if (walk.currentNode.parentNode.tagName !== 'SCRIPT') out.push(walk.currentNode.textContent.trim()); }\
         box.querySelectorAll('*').forEach(function (e) { ['aria-label', 'title', 'placeholder'].forEach(function (a) {\
           if (e.hasAttribute(a)) out.push(e.getAttribute(a)); }); });\
         return out.filter(function (t) { return t !== ''; });",
        vec![],
    );
    serde_json::from_value(texts).expect("texts")
}

/// The count line the French catalogue gives for `matched` of the rows.
fn french_count(matched: usize) -> String {
    if matched == ROWS {
        format!("Les {ROWS} lignes")
    } else {
        format!("{matched} sur {ROWS} lignes")
    }
}

#[test]
#[ignore = "full tier: headless Chromium opens the explorer on a French site"]
fn the_explorer_on_a_french_site_speaks_french_and_reads_french_numbers() {
    if !webdriver::browser_present() {
        return;
    }
    let rows = rows();
    let mut csv = String::from("label,amount,count,year\n");
    for row in &rows {
        csv.push_str(&row.written.join(","));
        csv.push('\n');
    }
    let site = tempfile::tempdir().unwrap();
    common::write_small_site(site.path(), FRONT, common::SMALL_BODY, csv.as_bytes());
    let toml = site.path().join("site.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("language = \"fr\"\n{text}")).unwrap();
    let server = Server::start(site.path());
    let driver = Driver::start();
    let session = driver.session(&[]);
    session.set_viewport(1280, 900);
    session.navigate(&server.url("/datasets/sample/"));
    // The page's own table, as the build wrote it in French (src/render), before the
    // explorer replaces it.
    let table = static_table(&session);
    session.click(&session.find(".explore-start"));
    settled(&session, "the rows to load");
    assert_eq!(count_text(&session), french_count(ROWS));

    // No English: each piece of an English message of two words or more is in no text,
    // and no text is a one-word piece ("Row", "from", "to").
    let texts = explorer_texts(&session);
    let joined = texts.join("\n");
    let english: Vec<String> = english_pieces()
        .into_iter()
        .filter(|piece| {
            if piece.contains(' ') {
                joined.contains(piece.as_str())
            } else {
                texts.iter().any(|t| t == piece)
            }
        })
        .collect();
    assert!(
        english.is_empty(),
        "English in the explorer: {english:?}\n{texts:#?}"
    );
    for word in [
        "Ligne",
        "de",
        "à",
        "Valeurs",
        "Intervalles",
        "Pages des lignes explorées",
    ] {
        assert!(texts.iter().any(|t| t == word), "{word} in {texts:?}");
    }
    assert!(
        texts.iter().any(|t| t == "et 8 autres valeurs"),
        "the facet's rest: {texts:?}"
    );

    // The cells in French marks: the first page, row numbers first.
    let shown = shown_rows(&session);
    assert_eq!(shown.len(), 50);
    for (i, cells) in shown.iter().enumerate() {
        let mut want = vec![(i + 1).to_string()];
        want.extend(rows[i].shown.iter().cloned());
        assert_eq!(cells, &want, "row {}", i + 1);
    }
    // The explorer and the page's table, one written by the worker and one by the build,
    // show each cell alike.
    assert!(
        table.len() >= 50,
        "{} rows in the page's table",
        table.len()
    );
    for (i, cells) in shown.iter().enumerate() {
        assert_eq!(cells[1..], table[i][..], "row {}: explorer and page", i + 1);
    }
    // The ranges' inputs take text (French marks), their placeholders in French marks.
    let inputs = session.execute(
        "return [].map.call(document.querySelectorAll('fieldset.explore-range[data-column=\"amount\"] input'), function (i) {\
           return [i.type, i.getAttribute('inputmode'), i.placeholder]; });",
        vec![],
    );
    let (low, high) = rows.iter().fold((f64::MAX, f64::MIN), |(l, h), r| {
        (l.min(r.amount), h.max(r.amount))
    });
    // As the explorer's words write a number: its shortest decimals, in French marks.
    let plain = |v: f64| french(v, v.to_string().split_once('.').map_or(0, |(_, f)| f.len()));
    assert_eq!(
        inputs,
        json!([
            ["text", "decimal", plain(low)],
            ["text", "decimal", plain(high)]
        ])
    );

    // A range typed the French way, grouped with a space, then plain.
    for (from, to, (a, b)) in [
        ("1 000,5", "", (1000.5, f64::MAX)),
        ("-12,5", "100,25", (-12.5, 100.25)),
        ("-12.5", "100.25", (-12.5, 100.25)),
    ] {
        set_range(&session, "amount", from, to);
        let matched = rows
            .iter()
            .filter(|r| r.amount >= a && r.amount <= b)
            .count();
        assert!(matched > 0 && matched < ROWS, "{from}~{to}");
        assert_eq!(count_text(&session), french_count(matched), "{from}~{to}");
    }
    set_range(&session, "amount", "", "");
    assert_eq!(count_text(&session), french_count(ROWS));

    // A number searched as shown (a space or U+202F between groups) or plain; a negative
    // amount with decimals as shown, typed with a space.
    let amount = rows
        .iter()
        .map(|r| r.shown[1].clone())
        .find(|a| a.starts_with('-') && a.contains('\u{202f}') && a.contains(','))
        .unwrap();
    let typed = amount.replace('\u{202f}', " ");
    for (query, word) in [
        ("2 693", "2\u{202f}693"),
        ("2\u{202f}693", "2\u{202f}693"),
        ("2693", "2693"),
        (typed.as_str(), amount.as_str()),
    ] {
        search(&session, query);
        let matched = rows
            .iter()
            .filter(|r| r.written.iter().chain(&r.shown).any(|c| c.contains(word)))
            .count();
        assert!(matched > 0 && matched < ROWS, "{query}");
        assert_eq!(count_text(&session), french_count(matched), "{query}");
    }
}
