//! Figures and numbers in the prose of a page in another language (#54 item 2): on a
//! French site the figures a page quotes (`cell`, `max`, `min`, `sum`, `count`, `ratio`,
//! a bound figure) are written as node's `Intl.NumberFormat("fr")` writes them, a bound
//! figure is typed in French and one typed the English way fails with both texts,
//! `check --strict` reads the numbers typed by hand in French (`10 366`, `1,79`), the
//! histograms' bin edges are grouped in French and the download's size says `ko`.

use std::path::Path;

use crate::common;
use crate::languages_pages::intl;

/// The sample's front matter with a third column, `share` (a number).
fn front() -> String {
    format!(
        "primary_key = [\"label\"]\n{}[[columns]]\nname = \"share\"\ntitle = \"Share\"\ntype = \"number\"\ndescription = \"A share.\"\n",
        common::SMALL_FRONT
    )
}

/// Three rows the prose quotes, then 80 more: over 1,000 bytes, so its size is in kB.
fn csv() -> String {
    let mut csv =
        String::from("label,value,share\nalpha,10366,1.79\nbeta,2776,-0.5\ngamma,1234567,12.25\n");
    for i in 0..80 {
        csv.push_str(&format!(
            "r{i:02},{},{}\n",
            3000 + i * 17,
            i as f64 / 100.0 + 0.003
        ));
    }
    csv
}

/// The body: a lede quoting figures (the bound one typed as `bound`), and numbers typed
/// by hand in French in the Method.
fn body(bound: &str) -> String {
    format!(
        "\nAlpha a débité {{{{ cell(label=\"alpha\", col=\"value\") }}}} Mo/s, une part de \
         {{{{ cell(label=\"alpha\", col=\"share\") }}}} ; au plus {{{{ max(col=\"value\") }}}}, \
         au moins {{{{ min(col=\"share\") }}}}, en tout {{{{ sum(col=\"value\") }}}} sur \
         {{{{ count() }}}} lignes, un rapport de \
         {{{{ ratio(col=\"value\", a.label=\"alpha\", b.label=\"beta\", digits=2) }}}} ; \
         lié : {{{{ {bound} = cell(label=\"alpha\", col=\"value\") }}}}, brut : \
         {{{{ cell(label=\"alpha\", col=\"value\", format=\"csv\") }}}} ([source](#source-src)).\n\n\
         ## Method\n\nÀ la main : 10 366 Mo/s et 1,79.\n\n## Limits\n\nPeu.\n"
    )
}

/// The small site in `language`, its prose's bound figure typed as `bound`.
fn write_site(root: &Path, language: &str, bound: &str) {
    common::write_small_site(root, &front(), &body(bound), csv().as_bytes());
    let site = root.join("site.toml");
    let text = std::fs::read_to_string(&site).unwrap();
    std::fs::write(site, format!("language = \"{language}\"\n{text}")).unwrap();
}

/// The page of the sample, built.
fn built_page(root: &Path) -> String {
    common::build_root(root);
    std::fs::read_to_string(root.join("public/datasets/sample/index.html")).unwrap()
}

/// The (from, to) edges of each histogram bar's title, for `pattern` (`{from} to under
/// {to}:` in English) split around its two arguments.
fn bin_edges(page: &str, before: &str, middle: &str, after: &str) -> Vec<(String, String)> {
    page.split("<title>")
        .skip(1)
        .filter_map(|t| {
            let t = t.split("</title>").next()?.strip_prefix(before)?;
            let (from, rest) = t.split_once(middle)?;
            let (to, _) = rest.split_once(after)?;
            Some((from.to_string(), to.to_string()))
        })
        .collect()
}

/// What node's `Intl.NumberFormat` writes for the plain number `n` in `language` with
/// `options` (a JSON object of its options).
fn intl_with(language: &str, n: &str, options: &str) -> String {
    let script = "const [lang, n, options] = process.argv.slice(1); \
        console.log(new Intl.NumberFormat(lang, JSON.parse(options)).format(Number(n)));";
    let out = std::process::Command::new("node")
        .args(["-e", script, language, n, options])
        .output()
        .unwrap();
    common::assert_success(&out);
    String::from_utf8(out.stdout)
        .unwrap()
        .trim_end()
        .to_string()
}

/// What node's `Intl.NumberFormat` writes for `n` kilobytes (one decimal) in `language`.
fn intl_kilobytes(language: &str, n: f64) -> String {
    let options = r#"{"style": "unit", "unit": "kilobyte", "minimumFractionDigits": 1, "maximumFractionDigits": 1}"#;
    intl_with(language, &n.to_string(), options)
}

/// The figures of the page in `language`: node's `Intl.NumberFormat` for each of `plain`,
/// the sum (its fifth) at two decimals, as a sum with no `digits` is written (`1,541,429.00`),
/// then the `format="csv"` cell as the CSV has it. `None` without node (outside CI).
fn expected_figures(language: &str, plain: &[&str]) -> Option<Vec<String>> {
    let mut figures = intl(language, plain)?;
    let two_decimals = r#"{"minimumFractionDigits": 2, "maximumFractionDigits": 2}"#;
    figures[4] = intl_with(language, plain[4], two_decimals);
    figures.push("10366".into());
    Some(figures)
}

#[test]
fn figures_bin_edges_and_sizes_on_a_french_page_are_what_cldr_writes() {
    let dir = tempfile::tempdir().unwrap();
    write_site(dir.path(), "fr", "10 366");
    let page = built_page(dir.path());
    let figures = common::figure_texts(&page);
    let csv = csv();
    let values: Vec<i64> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    let (sum, count) = (
        values.iter().sum::<i64>().to_string(),
        values.len().to_string(),
    );
    assert_eq!(values.len(), 83);
    let plain = [
        "10366", "1.79", "1234567", "-0.5", &sum, &count, "3.73", "10366",
    ];
    let english_dir = tempfile::tempdir().unwrap();
    write_site(english_dir.path(), "en", "10,366");
    let english_page = built_page(english_dir.path());
    let english_edges = bin_edges(&english_page, "", " to under ", ":");
    let french_edges = bin_edges(&page, "de ", " à moins de ", "\u{a0}:");
    assert!(english_edges.len() >= 3, "{english_edges:?}");
    assert!(
        english_edges.iter().any(|(from, _)| from.len() >= 4),
        "an edge of thousands, ungrouped in English: {english_edges:?}"
    );
    let Some(english) = expected_figures("en", &plain) else {
        return;
    };
    // The English page's figures are English's (`format="csv"`: the cell as the CSV has it).
    assert_eq!(common::figure_texts(&english_page), english);
    assert!(
        english[4].ends_with(".00"),
        "a sum at two decimals: {english:?}"
    );
    let expected = expected_figures("fr", &plain).unwrap();
    assert_eq!(figures, expected, "the figures in French");
    assert_eq!(figures[0], "10\u{202f}366");
    // Each bin's edges: the English page's, as French writes them.
    let flat: Vec<&str> = english_edges
        .iter()
        .flat_map(|(a, b)| [a.as_str(), b.as_str()])
        .collect();
    let plain_edges: Vec<String> = flat.iter().map(|e| e.replace(',', "")).collect();
    let plain_edges: Vec<&str> = plain_edges.iter().map(String::as_str).collect();
    let cldr_edges = intl("fr", &plain_edges).unwrap();
    let french_flat: Vec<String> = french_edges.into_iter().flat_map(|(a, b)| [a, b]).collect();
    assert_eq!(
        french_flat, cldr_edges,
        "the histograms' bin edges in French"
    );
    // The download's size in CLDR's French unit.
    let kilobytes = csv.len() as f64 / 1000.0;
    assert_ne!(csv.len() % 100, 50, "no tie to round");
    for (language, page) in [("fr", &page), ("en", &english_page)] {
        let size = format!(
            "<span class=\"size\">{}</span>",
            intl_kilobytes(language, kilobytes)
        );
        assert!(page.contains(&size), "{size}");
    }
    assert!(page.contains("\u{202f}ko</span>"), "CLDR's French unit");
}

#[test]
fn a_bound_figure_typed_the_english_way_on_a_french_page_fails_with_both_texts() {
    let dir = tempfile::tempdir().unwrap();
    write_site(dir.path(), "fr", "10,366");
    let out = common::run(&["build", "--root", dir.path().to_str().unwrap()]);
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("the figure reads `10,366` but its cell gives `10\u{202f}366` in the number marks of the page's language"),
        "{text}"
    );
    assert!(text.contains("write the figure as the page's language does, `10\u{202f}366` (a space between the groups of digits)"), "{text}");
    // A bound figure typed with a no-break space, or a narrow one, reads as French too.
    for bound in ["10\u{a0}366", "10\u{202f}366"] {
        write_site(dir.path(), "fr", bound);
        let page = built_page(dir.path());
        assert_eq!(common::figure_texts(&page)[7], "10\u{202f}366", "{bound:?}");
    }
}

#[test]
fn check_strict_reads_numbers_typed_by_hand_in_french() {
    let dir = tempfile::tempdir().unwrap();
    write_site(dir.path(), "fr", "10 366");
    let root = dir.path().to_str().unwrap();
    let strict = || {
        let out = common::run(&["check", "--root", root, "--strict"]);
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let text = strict();
    assert_eq!(
        common::typed_number_warnings(&text),
        [
            "10366 is typed by hand; it equals one cell of the data",
            "1.79 is typed by hand; it equals one cell of the data",
        ],
        "{text}"
    );
    assert!(
        text.contains(r#"paste {{ cell(label="alpha", col="share") }} in its place"#),
        "{text}"
    );
    // The allow-list is read in French too: `10 366 Mo` listed is `10 366 Mo/s` typed.
    let page = dir.path().join("content/datasets/sample.md");
    let md = std::fs::read_to_string(&page).unwrap();
    let listed = md.replacen("+++\n", "+++\nnumbers_not_data = [\"10 366 Mo\"]\n", 1);
    std::fs::write(&page, listed).unwrap();
    let text = strict();
    assert_eq!(
        common::typed_number_warnings(&text),
        ["1.79 is typed by hand; it equals one cell of the data"],
        "{text}"
    );
}
