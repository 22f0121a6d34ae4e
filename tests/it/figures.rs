//! Figures in the prose bound to the table (issue #13): a reference renders its cell as the
//! table formats it, computed figures round as asked, a bound figure is checked, the
//! flagship's headline follows its CSV, and no figure of the flagship's headline or lede
//! that equals a table cell is typed by hand.

use crate::common;

use std::collections::HashSet;
use std::path::Path;

const CSV: &[u8] = b"label,value\nalpha,10366\nbeta,2776\ngamma,4566\n";

fn build(root: &Path) -> (std::process::Output, String) {
    let out = root.join("public");
    let output = common::run(&[
        "build",
        "--root",
        root.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
    ]);
    let page = std::fs::read_to_string(out.join("datasets/sample/index.html")).unwrap_or_default();
    (output, page)
}

fn document_of(page: &str) -> scraper::Html {
    scraper::Html::parse_document(page)
}

/// Builds the site (which must succeed): the sample page's HTML and its lede's text.
fn built_lede(root: &Path) -> (String, String) {
    let (output, page) = build(root);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let document = common::html(&root.join("public/datasets/sample/index.html"));
    (page, common::texts(&document, ".lede").join(" "))
}

#[test]
fn references_render_the_formatted_cell_and_computed_figures_round_as_asked() {
    let dir = tempfile::tempdir().unwrap();
    let front = common::SMALL_FRONT.replace(
        "headline = \"A sample dataset\"",
        "headline = 'Alpha reached {{ cell(label=\"alpha\", col=\"value\") }} units'",
    );
    let body = "\nAlpha moved {{ cell(label=\"alpha\", col=\"value\") }} units, \
        {{ ratio(col=\"value\", a.label=\"alpha\", b.label=\"beta\", digits=2) }} times beta and \
        {{ percent_change(col=\"value\", a.label=\"gamma\", b.label=\"beta\", digits=0) }} percent above it; \
        the mean is {{ mean(col=\"value\", digits=1) }} over {{ count() }} rows, \
        {{ 4,566 = max(col=\"value\", label=\"gamma\") }} at most for gamma ([source](#source-src)).\n\n\
        ## Method\n\nCounted; {{ page.title }} stays text, `{{ cell(label=\"alpha\", col=\"value\") }}` too.\n\n## Limits\n\nFew.\n";
    common::write_small_site(dir.path(), &front, body, CSV);
    let (page, lede) = built_lede(dir.path());
    assert!(
        lede.contains("Alpha moved 10,366 units, 3.73 times beta and 64 percent above it; the mean is 5,902.7 over 3 rows, 4,566 at most"),
        "{lede}"
    );
    // A figure over a whole column says so; one over some rows names them.
    assert!(
        page.contains("title=\"mean of Value (units) over 3 rows\">5,902.7</data>"),
        "{page}"
    );
    assert!(
        page.contains(
            "title=\"max of Value (units) over 1 row where label=&quot;gamma&quot;\">4,566</data>"
        ),
        "{page}"
    );
    let document_headline = common::texts(&document_of(&page), "h1").join(" ");
    assert!(
        document_headline.contains("Alpha reached 10,366 units"),
        "headline: {document_headline}"
    );
    assert!(
        page.contains("{{ page.title }} stays text"),
        "other braces stay literal"
    );
    assert!(
        page.contains("<code>{{ cell(label=\"alpha\", col=\"value\") }}</code>"),
        "a reference in a code span stays literal"
    );
    assert!(
        page.contains("<a class=\"figure\" href=\"#row-1\"><data value=\"10366\" title=\"Value (units), row 1 (label=alpha, value=10366)\">10,366</data></a>"),
        "a figure is marked and linked to its row"
    );
    assert!(page.contains("<tr id=\"row-1\">"), "rows carry ids");
    let package: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("public/data/datasets/sample.json")).unwrap(),
    )
    .unwrap();
    let quotes = &package["datapages:quotes"];
    assert_eq!(quotes[0]["field"], "headline", "{quotes}");
    assert_eq!(quotes[0]["rows"], serde_json::json!([1]), "{quotes}");
    assert_eq!(quotes[0]["column"], "value", "{quotes}");
    assert_eq!(quotes[2]["function"], "ratio", "{quotes}");
    assert_eq!(quotes[2]["rows"], serde_json::json!([1, 2]), "{quotes}");
}

#[test]
fn a_bound_figure_that_no_longer_matches_fails_with_both_values() {
    let dir = tempfile::tempdir().unwrap();
    let body = "\nAlpha is {{ 10,366 = cell(label=\"alpha\", col=\"value\") }} ([source](#source-src)).\n\n## Method\n\nCounted.\n\n## Limits\n\nFew.\n";
    common::write_small_site(dir.path(), common::SMALL_FRONT, body, CSV);
    assert!(build(dir.path()).0.status.success());
    let edited = String::from_utf8_lossy(CSV).replace("10366", "10412");
    std::fs::write(dir.path().join("data/datasets/sample.csv"), edited).unwrap();
    let (output, _) = build(dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("the figure reads `10,366` but its cell gives `10,412`"),
        "{stderr}"
    );
    assert!(stderr.contains("content/datasets/sample.md:"), "{stderr}");
}

const FLAGSHIP: &str = "sata-sas-nvme-measured-throughput";

#[test]
fn changing_one_flagship_cell_changes_its_headline_on_the_next_build() {
    let dir = tempfile::tempdir().unwrap();
    common::copy_bundled_site(dir.path());
    let headline = |root: &Path| {
        let output = common::run(&[
            "build",
            "--root",
            root.to_str().unwrap(),
            "--output",
            root.join("public").to_str().unwrap(),
        ]);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let page = common::html(&root.join(format!("public/datasets/{FLAGSHIP}/index.html")));
        common::texts(&page, "h1").join(" | ")
    };
    let before = headline(dir.path());
    assert!(before.contains("delivered 10,366 MB/s with NVMe drives"));
    let csv = dir.path().join(format!("data/datasets/{FLAGSHIP}.csv"));
    let text = std::fs::read_to_string(&csv).unwrap();
    std::fs::write(&csv, text.replace("128K,NVMe,10366,", "128K,NVMe,10412,")).unwrap();
    let after = headline(dir.path());
    assert!(
        after.contains("delivered 10,412 MB/s with NVMe drives"),
        "the headline follows the cell"
    );
    assert!(
        !after.contains("10,366"),
        "no stale figure is left on the page"
    );
}

/// The numbers of `text` standing alone (not inside a word such as CD6 or a date), with
/// thousands separators removed.
fn numbers(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let before = i.checked_sub(1).map(|j| chars[j]);
        if chars[i].is_ascii_digit() && !before.is_some_and(|c| c.is_alphanumeric() || c == '-') {
            let mut j = i;
            while j < chars.len()
                && (chars[j].is_ascii_digit()
                    || (matches!(chars[j], ',' | '.')
                        && chars.get(j + 1).is_some_and(char::is_ascii_digit)))
            {
                j += 1;
            }
            let after = chars.get(j).copied();
            if !after.is_some_and(|c| c.is_alphabetic() || c == '-') {
                found.push(chars[i..j].iter().filter(|c| **c != ',').collect());
            }
            i = j;
        } else {
            i += 1;
        }
    }
    found
}

/// `text` with every `{{ ... }}` taken out.
fn without_references(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        match rest[start..].find("}}") {
            Some(end) => rest = &rest[start + end + 2..],
            None => return out,
        }
    }
    out + rest
}

#[test]
fn no_figure_of_a_bundled_headline_or_lede_equal_to_a_cell_is_typed_by_hand() {
    let root = common::bundled_site();
    let mut typed_by_hand = Vec::new();
    for entry in std::fs::read_dir(root.join("content/datasets")).unwrap() {
        let path = entry.unwrap().path();
        let slug = path.file_stem().unwrap().to_str().unwrap().to_string();
        let source = std::fs::read_to_string(&path).unwrap();
        let csv = std::fs::read_to_string(root.join(format!("data/datasets/{slug}.csv"))).unwrap();
        let mut reader = csv::Reader::from_reader(csv.as_bytes());
        let cells: HashSet<String> = reader
            .records()
            .flat_map(|r| r.unwrap().iter().map(str::to_string).collect::<Vec<_>>())
            .filter(|c| !c.is_empty())
            .collect();
        let (front, body) = source
            .trim_start_matches("+++")
            .split_once("\n+++\n")
            .unwrap();
        let headline_line = front.lines().find(|l| l.starts_with("headline =")).unwrap();
        let lede = body.trim_start().split("\n\n").next().unwrap();
        // Numbers the page declares are not data (`8 KiB`) may equal a cell by chance.
        let not_data: HashSet<String> = front
            .lines()
            .find_map(|l| l.strip_prefix("numbers_not_data = "))
            .map(|list| numbers(list).into_iter().collect())
            .unwrap_or_default();
        for (name, text) in [("headline", headline_line), ("lede", lede)] {
            let typed: Vec<String> = numbers(&without_references(text))
                .into_iter()
                .filter(|n| cells.contains(n) && !not_data.contains(n))
                .collect();
            if !typed.is_empty() {
                typed_by_hand.push(format!("{slug} {name}: {typed:?}"));
            }
        }
    }
    assert!(
        typed_by_hand.is_empty(),
        "table cells typed by hand: {typed_by_hand:#?}"
    );
    assert!(
        numbers("10,366 MB/s on CD6, 6 Gbps, 2021-05-21") == ["10366", "6"],
        "the reader of numbers works"
    );
}

#[test]
fn a_reference_to_another_dataset_renders_its_formatted_cell_and_links_to_its_row() {
    let dir = tempfile::tempdir().unwrap();
    let body = "\nBeta of the other table is {{ cell(dataset=\"other\", label=\"beta\", col=\"value\") }} units, \
        {{ 2,776 = cell(dataset=\"other\", label=\"beta\", col=\"value\") }} when typed, \
        against {{ cell(label=\"alpha\", col=\"value\") }} here ([source](#source-src)).\n\n\
        ## Method\n\nCounted.\n\n## Limits\n\nFew.\n";
    common::write_small_site(dir.path(), common::SMALL_FRONT, body, CSV);
    let other_front = common::SMALL_FRONT.replace("title = \"Sample\"", "title = \"Other\"");
    std::fs::write(
        dir.path().join("content/datasets/other.md"),
        format!("+++\n{other_front}+++\n{}", common::SMALL_BODY),
    )
    .unwrap();
    std::fs::write(dir.path().join("data/datasets/other.csv"), CSV).unwrap();
    let (page, lede) = built_lede(dir.path());
    assert!(
        lede.contains(
            "Beta of the other table is 2,776 units, 2,776 when typed, against 10,366 here"
        ),
        "{lede}"
    );
    assert!(
        page.contains("<a class=\"figure\" href=\"../other/#row-2\"><data value=\"2776\" title=\"other: Value (units), row 2 (label=beta, value=2776)\">2,776</data></a>"),
        "the figure links to the other page's row: {page}"
    );
    assert!(
        page.contains("<a class=\"figure\" href=\"#row-1\">"),
        "own rows stay local"
    );
    let package: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("public/data/datasets/sample.json")).unwrap(),
    )
    .unwrap();
    let quotes = &package["datapages:quotes"];
    assert_eq!(quotes[0]["dataset"], "other", "{quotes}");
    assert_eq!(quotes[0]["rows"], serde_json::json!([2]), "{quotes}");
    assert!(quotes[2].get("dataset").is_none(), "{quotes}");
}

#[test]
fn check_strict_lists_typed_numbers_with_the_reference_to_paste_and_build_counts_them() {
    let dir = tempfile::tempdir().unwrap();
    let front = format!(
        "numbers_not_data = [\"77\"]\nprimary_key = [\"label\"]\n{}",
        common::SMALL_FRONT
    );
    let csv = b"label,value\nalpha,10366\nbeta,2776\ngamma,4566\ndelta,4566\n";
    let body = "\nAlpha is 10,366 units ([source](#source-src)), beta {{ cell(label=\"beta\", col=\"value\") }}.\n\n\
        ## Method\n\nIn May 2021, on 2021-05-21, version 3.0.1 on an R640 Gen4 read `9,999` and \
        [a link](https://example.org/5555), 77 times; then 4,321 by hand, and 4,566 twice. \
        As Lee, *Ozone* 23(4), 117-130, pp. 12-19 and doi:10.5555/x-12.7 say, in the 1990s.\n\n## Limits\n\nFew.\n";
    common::write_small_site(dir.path(), &front, body, csv);
    let root = dir.path().to_str().unwrap();
    let check = common::run(&["check", "--root", root]);
    let text = String::from_utf8_lossy(&check.stderr);
    assert_eq!(check.status.code(), Some(0), "warnings only: {text}");
    assert!(
        text.contains("3 numbers typed by hand; run `datapages check --strict` to list them"),
        "{text}"
    );
    assert!(
        !text.contains("warning: the number"),
        "listed under --strict: {text}"
    );

    let strict = common::run(&["check", "--root", root, "--strict"]);
    assert_eq!(strict.status.code(), Some(1), "--strict fails on them");
    let text = String::from_utf8_lossy(&strict.stderr);
    let source = std::fs::read_to_string(dir.path().join("content/datasets/sample.md")).unwrap();
    let place = |figure: &str| {
        let at = source.find(figure).unwrap();
        let line = source[..at].matches('\n').count() + 1;
        let column = at - source[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
        format!("content/datasets/sample.md:{line}:{column}")
    };
    assert_eq!(
        common::typed_number_warnings(&text),
        [
            "10366 is typed by hand; it equals one cell of the data",
            "4321 is typed by hand and equals no cell of the table or of a related dataset",
            "4566 is typed by hand; ambiguous: 2 cells equal it",
        ],
        "volumes, pages, DOIs, decades, years and listed numbers are not figures: {text}"
    );
    for figure in ["10,366", "4,321", "4,566"] {
        assert!(
            text.contains(&place(figure)),
            "{figure} at its place: {text}"
        );
    }
    assert!(
        text.contains(r#"paste {{ cell(label="alpha", col="value") }} in its place"#),
        "{text}"
    );
    assert!(
        text.contains(r#"({{ cell(label="gamma", col="value") }} is the first)"#),
        "{text}"
    );

    // `build` says how many there are, in one line, and lists none.
    let (output, _) = build(dir.path());
    assert!(output.status.success());
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        printed
            .matches("3 numbers typed by hand; run `datapages check --strict` to list them")
            .count(),
        1,
        "{printed}"
    );
    assert!(!printed.contains("warning: the number"), "{printed}");
}

#[test]
fn figures_in_the_headline_kicker_and_captions_are_marked_up_too() {
    let dir = tempfile::tempdir().unwrap();
    let front = common::SMALL_FRONT
        .replace(
            "headline = \"A sample dataset\"",
            "headline = 'Alpha reached {{ cell(label=\"alpha\", col=\"value\") }} units'",
        )
        .replace(
            "kicker = \"a test\"",
            "kicker = 'beta {{ cell(label=\"beta\", col=\"value\") }}'",
        )
        + "[[charts]]\nkind = \"bar\"\ntitle = \"Values\"\n\
           caption = 'Gamma is {{ cell(label=\"gamma\", col=\"value\") }}.'\nx = \"label\"\ny = \"value\"\n";
    common::write_small_site(dir.path(), &front, common::SMALL_BODY, CSV);
    let (page, _) = built_lede(dir.path());
    let data = |value: &str, row: u64, text: &str| {
        format!(
            "<data value=\"{value}\" title=\"Value (units), row {row} (label={}, value={value})\">{text}</data>",
            ["alpha", "beta", "gamma"][row as usize - 1]
        )
    };
    assert!(
        page.contains(&format!(
            "Alpha reached <span class=\"figure\">{}</span> units</h1>",
            data("10366", 1, "10,366")
        )),
        "the headline marks its figure, without a link: {page}"
    );
    assert!(
        page.contains(&format!(
            "Dataset · beta <span class=\"figure\">{}</span></p>",
            data("2776", 2, "2,776")
        )),
        "the kicker marks its figure"
    );
    assert!(
        page.contains(&format!(
            "Gamma is <a class=\"figure\" href=\"#row-3\">{}</a>.",
            data("4566", 3, "4,566")
        )),
        "the caption marks and links its figure"
    );
    let document = document_of(&page);
    assert_eq!(
        common::texts(&document, "h1").join(""),
        "Alpha reached 10,366 units"
    );
}

/// A numeric cell as the table prints it: thousands grouped in the integer part.
fn as_printed(cell: &str) -> Option<String> {
    let (int, frac) = cell.split_once('.').unwrap_or((cell, ""));
    let digits = int.strip_prefix('-').unwrap_or(int);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let sign = if int.starts_with('-') { "-" } else { "" };
    Some(match frac {
        "" => format!("{sign}{grouped}"),
        _ => format!("{sign}{grouped}.{frac}"),
    })
}

/// Every bundled page's body, sections included: a number of three or more digits typed
/// exactly as its own table or a related table prints a cell is a quotation, and must be a
/// reference or a bound figure. Not counted: numbers the page declares are not data, code,
/// link targets, text in double quotes (the source's own words, quoted) and the two sides
/// of a ratio (`128/150`).
#[test]
fn no_bundled_section_types_a_cell_of_its_own_or_a_related_table_by_hand() {
    let root = common::bundled_site();
    let printed = |slug: &str| -> HashSet<String> {
        let csv = std::fs::read_to_string(root.join(format!("data/datasets/{slug}.csv"))).unwrap();
        csv::Reader::from_reader(csv.as_bytes())
            .records()
            .flat_map(|r| {
                r.unwrap()
                    .iter()
                    .filter_map(|cell| {
                        let printed = as_printed(cell)?;
                        // Long numbers are quoted in arithmetic as the CSV has them, too.
                        let raw = (cell.len() >= 4 && printed != cell).then(|| cell.to_string());
                        Some([Some(printed), raw])
                    })
                    .flatten()
                    .flatten()
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let skipped =
        regex::Regex::new(r#"\{\{.*?\}\}|`[^`]*`|\]\([^)]*\)|"[^"\n]*"|\d+/\d+"#).unwrap();
    let number = regex::Regex::new(r"(?:^|[^\w.,])(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?").unwrap();
    let mut typed_by_hand = Vec::new();
    for entry in std::fs::read_dir(root.join("content/datasets")).unwrap() {
        let path = entry.unwrap().path();
        let slug = path.file_stem().unwrap().to_str().unwrap().to_string();
        let source = std::fs::read_to_string(&path).unwrap();
        let (front, body) = source
            .trim_start_matches("+++")
            .split_once("\n+++\n")
            .unwrap();
        let not_data: HashSet<String> = front
            .lines()
            .find_map(|l| l.strip_prefix("numbers_not_data = "))
            .map(|list| numbers(list).into_iter().collect())
            .unwrap_or_default();
        let related: Vec<String> = front
            .lines()
            .find_map(|l| l.strip_prefix("related = "))
            .map(|list| {
                list.split('"')
                    .skip(1)
                    .step_by(2)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let mut cells = printed(&slug);
        for other in &related {
            cells.extend(printed(other));
        }
        let prose = skipped.replace_all(body, " ");
        for m in number.captures_iter(&prose) {
            let whole = m.get(0).unwrap().as_str();
            let text = whole.trim_start_matches(|c: char| !c.is_ascii_digit());
            let after = prose[m.get(0).unwrap().end()..].chars().next();
            let digits = text.chars().filter(char::is_ascii_digit).count();
            if digits < 3 || after.is_some_and(|c| c.is_alphanumeric()) {
                continue;
            }
            if cells.contains(text) && !not_data.contains(&text.replace(',', "")) {
                typed_by_hand.push(format!("{slug}: {text}"));
            }
        }
    }
    assert!(
        typed_by_hand.is_empty(),
        "cells quoted in the prose but typed by hand: {typed_by_hand:#?}"
    );
    assert_eq!(as_printed("155602").as_deref(), Some("155,602"));
    assert_eq!(as_printed("0.950341").as_deref(), Some("0.950341"));
}

#[test]
fn format_csv_quotes_a_cell_as_the_csv_has_it_and_only_in_cell() {
    let dir = tempfile::tempdir().unwrap();
    let body = "\nAlpha is {{ cell(label=\"alpha\", col=\"value\") }}, or {{ cell(label=\"alpha\", col=\"value\", format=\"csv\") }} \
        in the file ([source](#source-src)).\n\n## Method\n\nCounted.\n\n## Limits\n\nFew.\n";
    common::write_small_site(dir.path(), common::SMALL_FRONT, body, CSV);
    let (_, lede) = built_lede(dir.path());
    assert!(
        lede.contains("Alpha is 10,366, or 10366 in the file"),
        "{lede}"
    );

    let body = body.replace(
        "{{ cell(label=\"alpha\", col=\"value\", format=\"csv\") }}",
        "{{ max(col=\"value\", format=\"csv\") }}",
    );
    common::write_small_site(dir.path(), common::SMALL_FRONT, &body, CSV);
    let (output, _) = build(dir.path());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("`format` takes \"csv\""), "{stderr}");
}

#[test]
fn a_figure_in_a_link_title_or_an_image_alt_stays_inside_the_attribute() {
    let dir = tempfile::tempdir().unwrap();
    let csv = b"label,value\n\"a\"\" onmouseover=\"\"x\",10366\nbeta,2776\n";
    let body = "\nSee [the count](https://example.org/ \"count {{ cell(label=\"beta\", col=\"value\") }}\") \
        and [the label](https://example.org/l \"{{ cell(value=\"10366\", col=\"label\") }}\") \
        ![{{ cell(value=\"10366\", col=\"label\") }}](https://example.org/i.png), \
        from [a source](#source-src).\n\n## Method\n\nCounted.\n\n## Limits\n\nFew.\n";
    common::write_small_site(dir.path(), common::SMALL_FRONT, body, csv);
    let (page, _) = built_lede(dir.path());
    let document = document_of(&page);
    let lede = scraper::Selector::parse(".lede a[href^=\"https://example.org/\"]").unwrap();
    let titles: Vec<Option<&str>> = document
        .select(&lede)
        .map(|a| a.value().attr("title"))
        .collect();
    assert_eq!(
        titles,
        [Some("count 2,776"), Some("a\" onmouseover=\"x")],
        "{page}"
    );
    let image = scraper::Selector::parse(".lede img").unwrap();
    let alts: Vec<Option<&str>> = document
        .select(&image)
        .map(|i| i.value().attr("alt"))
        .collect();
    assert_eq!(alts, [Some("a\" onmouseover=\"x")]);
    let broken = scraper::Selector::parse("[onmouseover], .lede a data, .lede img data").unwrap();
    assert_eq!(document.select(&broken).count(), 0, "{page}");
}

/// pandas' float noise (`7.0520000000000005`) is not shown in the table, the headline, the
/// lede or the column profile, and `digits=N` rounds a quoted cell; the download keeps
/// every byte.
#[test]
fn float_noise_is_not_shown_and_digits_rounds_a_quoted_cell() {
    let dir = tempfile::tempdir().unwrap();
    let csv: &[u8] =
        b"label,value\nalpha,7.0520000000000005\nbeta,70.19800000000001\ngamma,1.7881845268582712\n";
    let front = common::SMALL_FRONT
        .replace("type = \"integer\"", "type = \"number\"")
        .replace(
            "headline = \"A sample dataset\"",
            "headline = 'Beta reached {{ cell(label=\"beta\", col=\"value\") }} units'",
        );
    let body = "\nAlpha is {{ cell(label=\"alpha\", col=\"value\") }}, gamma about \
        {{ cell(label=\"gamma\", col=\"value\", digits=2) }} and, bound, \
        {{ 1.8 = cell(label=\"gamma\", col=\"value\", digits=1) }}; typed as shown, 70.198 \
        ([source](#source-src)).\n\n\
        ## Method\n\nCounted.\n\n## Limits\n\nFew.\n";
    common::write_small_site(dir.path(), &front, body, csv);
    let (page, lede) = built_lede(dir.path());
    assert!(
        lede.contains("Alpha is 7.052, gamma about 1.79 and, bound, 1.8"),
        "{lede}"
    );
    let headline = common::texts(&document_of(&page), "h1").join(" ");
    assert!(headline.contains("Beta reached 70.198 units"), "{headline}");
    let document = document_of(&page);
    let cells = common::texts(&document, "table td");
    for shown in ["7.052", "70.198", "1.78818452685827"] {
        assert!(cells.iter().any(|c| c == shown), "{shown} in {cells:?}");
    }
    // The `<data value>` attributes keep the cell for machines; no text shows the noise.
    let text: String = document.root_element().text().collect();
    for noise in [
        "7.0520000000000005",
        "70.19800000000001",
        "1.7881845268582712",
    ] {
        assert!(!text.contains(noise), "{noise} shown on the page");
    }
    assert!(
        text.contains("from 1.78818452685827 to 70.198"),
        "the profile"
    );
    for listing in ["public/index.html", "public/datasets/index.html"] {
        let listing = std::fs::read_to_string(dir.path().join(listing)).unwrap();
        assert!(listing.contains("Beta reached 70.198 units"), "{listing}");
        assert!(!listing.contains("70.19800000000001"), "{listing}");
    }
    let download = std::fs::read(dir.path().join("public/data/datasets/sample.csv")).unwrap();
    assert_eq!(download, csv, "the download is the CSV, byte for byte");
    // A figure typed as the table shows it equals its cell: no unbacked-number warning.
    let problems = common::check_all(dir.path());
    assert!(
        !problems
            .items()
            .iter()
            .any(|d| d.message.contains("70.198")),
        "{problems:?}"
    );
}

#[test]
fn digits_on_a_text_cell_or_an_unknown_argument_is_an_error_at_its_place() {
    for (figure, said) in [
        (
            "{{ cell(label=\"alpha\", col=\"label\", digits=2) }}",
            "`digits` rounds numbers",
        ),
        (
            "{{ cell(label=\"alpha\", col=\"value\", precision=2) }}",
            "`precision` takes a quoted value",
        ),
        ("{{ count(digits=2) }}", "remove `digits`"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let body = format!(
            "\nAlpha is {figure} ([source](#source-src)).\n\n## Method\n\nCounted.\n\n## Limits\n\nFew.\n"
        );
        common::write_small_site(dir.path(), common::SMALL_FRONT, &body, CSV);
        let problems = common::check_all(dir.path());
        let error = problems
            .items()
            .iter()
            .find(|d| d.severity == datapages::Severity::Error && d.message.contains(said))
            .unwrap_or_else(|| panic!("{figure}: {problems:?}"));
        assert_eq!(
            error.file,
            Path::new("content/datasets/sample.md"),
            "{figure}"
        );
        // Front matter: 18 lines between the two `+++`, then a blank line, then the lede.
        assert_eq!(error.line, Some(21), "{figure}: {error:?}");
        assert!(error.column.is_some(), "{figure}: {error:?}");
    }
}

#[test]
fn a_column_named_with_spaces_is_selected_in_quotes_and_suggested_writable() {
    let csv = b"Country Name,GDP (US$)\nNiger,13.97\nNigeria,477.4\n";
    let front = common::SMALL_FRONT
        .replace("name = \"label\"", "name = \"Country Name\"")
        .replace("name = \"value\"", "name = \"GDP (US$)\"")
        .replace("type = \"integer\"", "type = \"number\"");
    let dir = tempfile::tempdir().unwrap();
    let body = "\nNiger's GDP was {{ cell(\"Country Name\"=\"Niger\", col=\"GDP (US$)\") }} \
        ([source](#source-src)).\n\n## Method\n\nCounted.\n\n## Limits\n\nFew.\n";
    common::write_small_site(dir.path(), &front, body, csv);
    let (_, lede) = built_lede(dir.path());
    assert!(lede.contains("Niger's GDP was 13.97"), "{lede}");

    // The near miss is suggested as it must be written: in quotes.
    let error = first_error(
        &front,
        "Niger's GDP was {{ cell(Country_Name=\"Niger\", col=\"GDP (US$)\") }}",
        csv,
    );
    assert!(error.message.contains("`Country_Name`"), "{error:?}");
    assert_eq!(
        error.hint.as_deref(),
        Some("did you mean `\"Country Name\"`?"),
        "{error:?}"
    );
    assert_eq!(error.line, Some(21), "{error:?}");
}

#[test]
fn did_you_mean_finds_a_value_among_hundreds_of_rows() {
    let mut csv = String::from("label,value\n");
    for i in 0..300 {
        csv.push_str(&format!("Country{i},{i}\n"));
    }
    csv.push_str("Japan,5\n");
    let error = first_error(
        common::SMALL_FRONT,
        "Japan has {{ cell(label=\"Jpan\", col=\"value\") }}",
        csv.as_bytes(),
    );
    assert!(error.message.contains("label=\"Jpan\""), "{error:?}");
    assert_eq!(
        error.hint.as_deref(),
        Some("did you mean `Japan`? no row has label=\"Jpan\""),
        "{error:?}"
    );
}

/// The first error `check` reports for a small site whose lede is `lede`.
fn first_error(front: &str, lede: &str, csv: &[u8]) -> datapages::Diagnostic {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "\n{lede} ([source](#source-src)).\n\n## Method\n\nCounted.\n\n## Limits\n\nFew.\n"
    );
    common::write_small_site(dir.path(), front, &body, csv);
    let problems = common::check_all(dir.path());
    let error = problems
        .items()
        .iter()
        .find(|d| d.severity == datapages::Severity::Error)
        .unwrap_or_else(|| panic!("{problems:?}"));
    error.clone()
}

/// Without a primary key whose first column repeats (`Bergen` on three rows), the reference
/// `check --strict` proposes names the columns that tell the row apart, and pasted as told
/// it resolves to that one row; a row no other column tells apart gets no reference.
#[test]
fn a_proposed_reference_without_a_key_names_exactly_one_row() {
    let dir = tempfile::tempdir().unwrap();
    let front = format!(
        "{}[[columns]]\nname = \"year\"\ntitle = \"Year\"\ntype = \"integer\"\ndescription = \"The year.\"\n",
        common::SMALL_FRONT
    );
    let csv = b"label,value,year\nBergen,190,2020\nBergen,152,2020\nOslo,49,2020\nBergen,212,2021\nOslo,60,2021\nTromso,333,2022\nTromso,333,2022\n";
    let body = "\nBergen had 212 mm ([source](#source-src)), then 152 mm, Tromso 333 mm.\n\n\
        ## Method\n\nRead.\n\n## Limits\n\nFew.\n";
    common::write_small_site(dir.path(), &front, body, csv);
    let root = dir.path().to_str().unwrap();
    let strict = common::run(&["check", "--root", root, "--strict"]);
    let text = String::from_utf8_lossy(&strict.stderr);
    let proposed = r#"{{ cell(label="Bergen", year="2021", col="value") }}"#;
    assert!(
        text.contains(&format!("paste {proposed} in its place")),
        "{text}"
    );
    assert!(
        !text.contains(r#"cell(label="Bergen", col="value")"#),
        "{text}"
    );
    for figure in ["152", "333"] {
        let warning = text
            .lines()
            .skip_while(|l| !l.starts_with(&format!("warning: the number {figure} ")))
            .take_while(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            warning.contains("no other column than `value` tells its row apart")
                && !warning.contains("paste {{"),
            "{figure}: {warning}\n{text}"
        );
    }
    // Pasted as told: the number is no longer typed by hand and the page shows the cell.
    let page = dir.path().join("content/datasets/sample.md");
    let source = std::fs::read_to_string(&page).unwrap();
    std::fs::write(
        &page,
        source.replace("had 212 mm", &format!("had {proposed} mm")),
    )
    .unwrap();
    let again = common::run(&["check", "--root", root, "--strict"]);
    let text = String::from_utf8_lossy(&again.stderr);
    assert!(!text.contains("rows match"), "{text}");
    assert!(!text.contains("number 212"), "{text}");
    assert!(
        !text.contains("error:") && text.contains("0 errors"),
        "{text}"
    );
    let (output, html) = build(dir.path());
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(html.contains("Bergen had <"), "the cell is marked up");
    assert!(html.contains(">212<"), "the one row's cell is shown");
}
