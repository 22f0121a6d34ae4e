//! Pages with a byte budget (#50 item 2): no page of a built site is over 256 kB of HTML,
//! whatever its table's width and length. A wide and long table (1,000 rows x 60 columns,
//! with twelve long line charts, built once with and once without row pages), a table of
//! giant cells (100 kB each) and a table of 3,000 columns are built; every HTML file is
//! measured, and each dataset page says how many rows it shows, which is the number of rows
//! its table holds.

use crate::common;

use std::fmt::Write as _;
use std::path::Path;

/// The page budget, `dataset::budget::PAGE_BYTES`.
const PAGE_BYTES: u64 = 256_000;

fn column(matter: &mut String, name: &str, kind: &str) {
    write!(
        matter,
        "[[columns]]\nname = \"{name}\"\ntitle = \"Column {name}\"\ntype = \"{kind}\"\ndescription = \"Generated column {name}.\"\n"
    )
    .unwrap();
}

/// Writes dataset `slug`: `id` (an integer key) and `columns - 1` number columns, `rows`
/// rows, `extra` added to the front matter.
fn write_numbers(root: &Path, slug: &str, columns: usize, rows: usize, extra: &str) {
    let mut matter = format!("title = \"{slug}\"\nkicker = \"generated\"\nheadline = \"A generated table\"\nprimary_key = [\"id\"]\n{extra}[[sources]]\nid = \"gen\"\ntitle = \"Generated\"\n");
    column(&mut matter, "id", "integer");
    for c in 1..columns {
        column(&mut matter, &format!("c{c}"), "number");
    }
    let mut csv = String::from("id");
    for c in 1..columns {
        write!(csv, ",c{c}").unwrap();
    }
    csv.push('\n');
    for row in 0..rows {
        write!(csv, "{row}").unwrap();
        for c in 1..columns {
            write!(csv, ",{}.{}", (row * 7919 + c * 104_729) % 100_000, c % 10).unwrap();
        }
        csv.push('\n');
    }
    write_dataset(root, slug, &matter, &csv);
}

fn write_dataset(root: &Path, slug: &str, matter: &str, csv: &str) {
    std::fs::write(
        root.join(format!("content/datasets/{slug}.md")),
        format!("+++\n{matter}+++\n\nGenerated, from [the generator](#source-gen).\n\n## Method\n\nGenerated.\n\n## Limits\n\nNot real data.\n"),
    )
    .unwrap();
    std::fs::write(root.join(format!("data/datasets/{slug}.csv")), csv).unwrap();
}

fn write_site(root: &Path, settings: &str) {
    std::fs::create_dir_all(root.join("content/datasets")).unwrap();
    std::fs::create_dir_all(root.join("data/datasets")).unwrap();
    std::fs::write(
        root.join("site.toml"),
        format!("title = \"Budget\"\nbase_url = \"https://example.org/\"\n{settings}[author]\nname = \"Tester\"\n[license]\nname = \"CC0 1.0\"\n"),
    )
    .unwrap();
    let charts: String = (1..=12)
        .map(|n| format!("[[charts]]\nkind = \"line\"\nid = \"line{n}\"\ntitle = \"Line {n}\"\nx = \"id\"\ny = \"c{n}\"\n"))
        .collect();
    write_numbers(root, "wide-long", 60, 1_000, &charts);
    write_numbers(root, "very-wide", 3_000, 20, "");
    // Giant cells: 100 kB of text each, escaped characters among them.
    let mut matter = String::from("title = \"giant\"\nkicker = \"generated\"\nheadline = \"Giant cells\"\n[[sources]]\nid = \"gen\"\ntitle = \"Generated\"\n");
    column(&mut matter, "id", "integer");
    column(&mut matter, "text", "string");
    let mut csv = String::from("id,text\n");
    for row in 0..20 {
        let cell = format!("<&\"{row}\"> ").repeat(10_000);
        writeln!(csv, "{row},\"{}\"", cell.replace('"', "\"\"")).unwrap();
    }
    write_dataset(root, "giant", &matter, &csv);
}

/// Every `.html` file under `public`, with its size.
fn pages(public: &Path) -> Vec<(String, u64)> {
    let mut found = Vec::new();
    let mut stack = vec![public.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "html") {
                let size = std::fs::metadata(&path).unwrap().len();
                found.push((path.display().to_string(), size));
            }
        }
    }
    found
}

/// The number the page's "Showing the first N of M rows" sentence states, and the rows its
/// table holds.
fn stated_and_held(public: &Path, slug: &str) -> (String, usize) {
    let page = common::html(&public.join(format!("datasets/{slug}/index.html")));
    let note = common::texts(&page, "p.table-truncated:not(.table-columns-note)").join(" ");
    (note, common::texts(&page, "#table tbody tr").len())
}

fn assert_within_budget(public: &Path) {
    let pages = pages(public);
    assert!(pages.len() > 5, "{pages:?}");
    let over: Vec<_> = pages
        .iter()
        .filter(|(_, size)| *size > PAGE_BYTES)
        .collect();
    assert!(over.is_empty(), "pages over {PAGE_BYTES} bytes: {over:?}");
}

#[test]
fn every_page_stays_within_256_kb_and_says_how_many_rows_it_shows() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    write_site(&root, "");
    common::build_root(&root);
    let public = root.join("public");
    assert_within_budget(&public);

    // 1,000 rows x 60 columns is about 1.5 MB of rows: the page shows the first that fit.
    let (note, held) = stated_and_held(&public, "wide-long");
    assert!(held > 20 && held < 1_000, "{held} rows");
    assert_eq!(
        note,
        format!("Showing the first {held} of 1,000 rows, as many as fit the page. Explore or download all.")
    );
    let page = std::fs::read_to_string(public.join("datasets/wide-long/index.html")).unwrap();
    // The explorer knows how many rows the static table holds.
    assert!(
        page.contains(&format!("\"shown_rows\":{held}")),
        "explorer meta"
    );
    // The first charts inline, those past the charts' share as images of their files.
    let document = common::html(&public.join("datasets/wide-long/index.html"));
    let inline = common::texts(&document, "figure.chart > svg").len();
    assert!(inline > 0, "the first charts are inline");
    assert_eq!(
        inline + common::attributes(&document, "figure.chart > img.chart-file", "src").len(),
        12
    );
    assert!(
        !common::attributes(&document, "figure.chart > img.chart-file", "src").is_empty(),
        "a chart past the share is an image"
    );
    for src in common::attributes(&document, "img.chart-file", "src") {
        let file = public.join("datasets/wide-long").join(&src);
        assert!(file.is_file(), "{src} is the chart's file");
    }

    // Giant cells are cut at 1,000 characters (the CSV holds them whole).
    let (_, held) = stated_and_held(&public, "giant");
    assert!(held > 0, "at least one row of giant cells");
    let document = common::html(&public.join("datasets/giant/index.html"));
    let cells = common::texts(&document, "#table tbody td:nth-child(2)");
    assert!(
        cells
            .iter()
            .all(|c| c.chars().count() == 1_001 && c.ends_with('…')),
        "{:?}",
        cells.first().map(|c| c.len())
    );

    // 3,000 columns: the Columns section stops listing within its share, and says so.
    let document = common::html(&public.join("datasets/very-wide/index.html"));
    let more = common::texts(&document, ".column-summary .column-more");
    assert_eq!(more.len(), 1, "{more:?}");
    let listed = common::texts(&document, ".column-summary li:not(.column-more)").len();
    assert!(
        more[0].starts_with(&format!(
            "{} more columns",
            common::explorer::group(3_000 - 50 - listed)
        )),
        "{more:?} after {listed}"
    );
}

#[test]
fn row_pages_stay_within_the_budget_and_cover_every_row() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    write_site(&root, "row_pages = true\n");
    common::build_root(&root);
    let public = root.join("public");
    assert_within_budget(&public);
    // Pages of as many rows as fit on average: every row on one page, in order.
    let mut rows = Vec::new();
    let mut page = 1;
    loop {
        let path = match page {
            1 => public.join("datasets/wide-long/index.html"),
            n => public.join(format!("datasets/wide-long/rows/{n}/index.html")),
        };
        if !path.is_file() {
            break;
        }
        let document = common::html(&path);
        rows.extend(common::attributes(&document, "#table tbody tr", "id"));
        page += 1;
    }
    assert!(page > 3, "several row pages");
    let want: Vec<String> = (1..=1_000).map(|n| format!("row-{n}")).collect();
    let first_wrong = rows.iter().zip(&want).position(|(a, b)| a != b);
    assert_eq!(
        (rows.len(), first_wrong),
        (1_000, None),
        "every row once, in order"
    );
}

/// A dataset page whose own text leaves less room than a page of rows (long prose beside
/// row pages): it shows the rows that fit, or none, and says that the rest of the first
/// page's rows are in the CSV, where "the others are on pages" would lose them; row page
/// 2 still starts after the first page's rows.
#[test]
fn a_first_page_cut_by_long_prose_says_where_its_other_rows_are() {
    for (paragraphs, shown_some) in [(60, true), (125, false)] {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("site");
        write_site(&root, "row_pages = true\n");
        let path = root.join("content/datasets/wide-long.md");
        let text = std::fs::read_to_string(&path).unwrap();
        let prose = "The method, told at length so that the page is mostly prose. ".repeat(30);
        let long = format!("## Method\n\n{}", format!("{prose}\n\n").repeat(paragraphs));
        std::fs::write(&path, text.replacen("## Method\n\nGenerated.", &long, 1)).unwrap();
        common::build_root(&root);
        let public = root.join("public");
        let (note, held) = stated_and_held(&public, "wide-long");
        let second = common::html(&public.join("datasets/wide-long/rows/2/index.html"));
        let rows_2 = common::attributes(&second, "#table tbody tr", "id");
        let per_page: usize = rows_2[0]
            .strip_prefix("row-")
            .unwrap()
            .parse::<usize>()
            .unwrap()
            - 1;
        assert!(
            held < per_page,
            "{paragraphs} paragraphs: {held} of {per_page} rows shown"
        );
        assert_eq!(held > 0, shown_some, "{note}");
        let stated = match held {
            0 => format!("No row fits beside this page's text: rows 1–{per_page} are in the CSV"),
            n => format!("Showing rows 1–{n} of 1,000, as many as fit the page; rows {}–{per_page} are in the CSV", n + 1),
        };
        assert!(note.starts_with(&stated), "{note}");
        assert!(!note.contains("The others are on pages"), "{note}");
    }
}

/// Prose that leaves no room for the rest of the page within the 256 kB budget is told to
/// the author (one warning with its size and what to do); prose that fits is not.
#[test]
fn prose_too_long_for_the_page_budget_is_a_warning() {
    for (paragraphs, warned) in [(30, false), (140, true)] {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("site");
        write_site(&root, "");
        let path = root.join("content/datasets/wide-long.md");
        let text = std::fs::read_to_string(&path).unwrap();
        let prose = "The method, told at length so that the page is mostly prose. ".repeat(30);
        let long = format!("## Method\n\n{}", format!("{prose}\n\n").repeat(paragraphs));
        std::fs::write(&path, text.replacen("## Method\n\nGenerated.", &long, 1)).unwrap();
        let found: Vec<String> = (common::check_all(&root).items().iter())
            .filter(|d| d.message.starts_with("the page's prose is"))
            .map(|d| format!("{} / {}", d.message, d.hint.as_deref().unwrap_or_default()))
            .collect();
        assert_eq!(found.len(), usize::from(warned), "{paragraphs}: {found:?}");
        if warned {
            assert!(
                found[0].starts_with("the page's prose is 258 kB of HTML: with the rest of the page it cannot stay within the 256 kB page budget"),
                "{found:?}"
            );
            assert!(found[0].contains("a plain page (content/<name>.md)"));
        }
    }
}
