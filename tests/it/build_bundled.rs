//! The bundled site builds, and its flagship page is the page reference document 000 describes.

use crate::common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use common::{build_bundled, bundled_site, html, texts};
use scraper::Selector;

const FLAGSHIP: &str = "sata-sas-nvme-measured-throughput";

fn flagship_page(output: &Path) -> PathBuf {
    output.join("datasets").join(FLAGSHIP).join("index.html")
}

#[test]
fn flagship_sections_come_in_the_documented_order() {
    let (_guard, output) = build_bundled();
    let page = html(&flagship_page(&output));
    let headings = texts(&page, "article.dataset h2");
    assert_eq!(
        headings,
        [
            "Method",
            "What the MB/s column misses",
            "Limits",
            "Charts",
            "Table",
            "Columns",
            "License",
            "Sources",
            "Cite this dataset"
        ]
    );
    // Kicker, headline, lede, download block, then the sections, in document order.
    let text = std::fs::read_to_string(flagship_page(&output)).unwrap();
    let order = [
        "class=\"kicker\">Dataset · one three-node cluster per interface · testing ended 21 May 2021<",
        "<h1",
        "class=\"lede\"",
        "Download CSV",
        "id=\"method\"",
        "id=\"what-the-mb-s-column-misses\"",
        "id=\"limits\"",
        "id=\"charts\"",
        "id=\"table\"",
        "id=\"columns\"",
        "id=\"license\"",
        "id=\"sources\"",
    ];
    let positions: Vec<usize> = order
        .iter()
        .map(|needle| {
            text.find(needle)
                .unwrap_or_else(|| panic!("missing {needle}"))
        })
        .collect();
    assert!(
        positions.windows(2).all(|w| w[0] < w[1]),
        "out of order: {positions:?}"
    );
}

#[test]
fn flagship_table_has_the_reference_shape_and_formatting() {
    let (_guard, output) = build_bundled();
    let page = html(&flagship_page(&output));
    let headers = texts(&page, "#table thead th");
    assert_eq!(headers.len(), 17);
    assert_eq!(headers[3], "Cluster throughput (MB/s)");
    assert_eq!(headers[0], "Figure");
    assert_eq!(headers[16], "Source");
    let rows = Selector::parse("#table tbody tr").unwrap();
    assert_eq!(page.select(&rows).count(), 11);
    let cells = texts(&page, "#table tbody td");
    assert_eq!(cells.len(), 11 * 17);
    assert!(
        cells.iter().any(|c| c == "10,366"),
        "10366 is shown as 10,366"
    );
    assert!(
        cells.iter().any(|c| c == "1.969"),
        "decimals keep their precision"
    );
    assert!(
        cells.iter().any(|c| c == "16.0"),
        "16.0 keeps its trailing zero"
    );
    assert!(cells.iter().any(|c| c == "—"), "empty cells show a dash");
    assert!(
        !texts(&page, "#table .dash-note").is_empty(),
        "the dash is explained under the table"
    );
    assert!(
        common::table_cells(&page, true).len() > 30,
        "numeric columns are marked for right alignment"
    );
    let style = texts(&page, "style").concat();
    assert!(
        style.contains("{text-align:right;font-variant-numeric:tabular-nums lining-nums}"),
        "{style}"
    );
}

#[test]
fn flagship_table_cells_equal_the_csv_cells() {
    let (_guard, output) = build_bundled();
    let page = html(&flagship_page(&output));
    let cells = texts(&page, "#table tbody td");
    let mut reader = csv::Reader::from_path(
        bundled_site()
            .join("data/datasets")
            .join(format!("{FLAGSHIP}.csv")),
    )
    .unwrap();
    let numeric_columns: HashSet<usize> = [3, 4, 5, 6, 7, 8, 9, 10].into_iter().collect();
    let mut index = 0;
    for record in reader.records() {
        for (column, value) in record.unwrap().iter().enumerate() {
            let shown = &cells[index];
            let expected = if value.is_empty() {
                "—".to_string()
            } else if numeric_columns.contains(&column) {
                group(value)
            } else {
                value.split_whitespace().collect::<Vec<_>>().join(" ")
            };
            assert_eq!(shown, &expected, "row cell {index}, column {column}");
            index += 1;
        }
    }
    assert_eq!(index, cells.len());
}

fn group(value: &str) -> String {
    let (whole, fraction) = value
        .split_once('.')
        .map(|(w, f)| (w, Some(f)))
        .unwrap_or((value, None));
    let mut out = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if let Some(f) = fraction {
        out.push('.');
        out.push_str(f);
    }
    out
}

#[test]
fn flagship_download_block_counts_and_links() {
    let (_guard, output) = build_bundled();
    let page = html(&flagship_page(&output));
    let counts = texts(&page, ".download .counts");
    assert_eq!(counts, ["11 rows · 17 columns · CSV"]);
    let meta = texts(&page, ".download-meta").join(" ");
    assert!(
        meta.contains(&format!("File /data/datasets/{FLAGSHIP}.csv")),
        "{meta}"
    );
    for expected in [
        "JSON metadata",
        "All datasets",
        "Storage throughput",
        "SATA",
        "SAS",
        "NVMe",
        "Theoretical link ceilings",
    ] {
        assert!(
            meta.contains(expected),
            "download block lacks {expected}: {meta}"
        );
    }
    let size = texts(&page, ".download .size");
    let bytes = std::fs::metadata(bundled_site().join(format!("data/datasets/{FLAGSHIP}.csv")))
        .unwrap()
        .len();
    assert_eq!(size, [format!("{:.1} kB", bytes as f64 / 1000.0)]);
}

#[test]
fn download_is_the_source_csv_byte_for_byte() {
    let (_guard, output) = build_bundled();
    for entry in std::fs::read_dir(bundled_site().join("data/datasets")).unwrap() {
        let source = entry.unwrap().path();
        let name = source.file_name().unwrap();
        let copy = output.join("data/datasets").join(name);
        assert_eq!(
            std::fs::read(&source).unwrap(),
            std::fs::read(&copy).unwrap(),
            "{}",
            copy.display()
        );
    }
}

#[test]
fn json_metadata_agrees_with_the_csv() {
    let (_guard, output) = build_bundled();
    let json: serde_json::Value = serde_json::from_slice(
        &std::fs::read(output.join(format!("data/datasets/{FLAGSHIP}.json"))).unwrap(),
    )
    .unwrap();
    let csv_path = bundled_site().join(format!("data/datasets/{FLAGSHIP}.csv"));
    let mut reader = csv::Reader::from_path(&csv_path).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let rows = reader.records().count();
    let resource = &json["resources"][0];
    assert_eq!(resource["rows"], rows as u64);
    assert_eq!(resource["columns"], header.len() as u64);
    assert_eq!(
        resource["bytes"],
        std::fs::metadata(&csv_path).unwrap().len()
    );
    assert_eq!(resource["path"], format!("{FLAGSHIP}.csv"));
    let fields: Vec<&str> = resource["schema"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(fields, header);
    assert_eq!(
        resource["schema"]["fields"][3]["title"],
        "Cluster throughput (MB/s)"
    );
    assert_eq!(json["name"], FLAGSHIP);
    assert_eq!(
        json["keywords"],
        serde_json::json!(["Storage throughput", "SATA", "SAS", "NVMe"])
    );
    assert_eq!(json["sources"].as_array().unwrap().len(), 4);
    assert!(json["licenses"][0]["title"].as_str().unwrap().len() > 5);
    assert!(json["description"].as_str().unwrap().contains("10,366"));
}

#[test]
fn sources_are_anchored_and_cited_cells_link_to_them() {
    let (_guard, output) = build_bundled();
    let page = html(&flagship_page(&output));
    let ids: HashSet<String> = page
        .select(&Selector::parse("#sources li").unwrap())
        .filter_map(|li| li.value().id().map(String::from))
        .collect();
    for id in [
        "source-pt-science-0921",
        "source-pt-report-0921",
        "source-kioxia-faq-2021",
        "source-pt-infographic-0921",
    ] {
        assert!(ids.contains(id), "missing anchor {id}");
    }
    let links: Vec<String> = page
        .select(&Selector::parse("#table tbody td a").unwrap())
        .map(|a| a.value().attr("href").unwrap().to_string())
        .collect();
    assert_eq!(
        links.len(),
        11,
        "every row's source cell links to its source"
    );
    assert!(links
        .iter()
        .all(|l| l == "#source-pt-science-0921" || l == "#source-kioxia-faq-2021"));
    let sources = texts(&page, "#sources li").join("\n");
    assert!(
        sources.contains("(Principled Technologies, September 2021) (accessed 2026-10-11)"),
        "{sources}"
    );
    let columns = texts(&page, "#columns li");
    assert_eq!(columns.len(), 17);
    assert!(
        columns[3]
            .starts_with("Cluster throughput (MB/s) cluster_throughput_mb_s (number, MB/s): "),
        "{}",
        columns[3]
    );
}

/// Every relative link and asset of every page points at a file that exists, and every
/// in-page anchor points at an element that exists: the site works under any sub-path.
#[test]
fn every_relative_link_resolves_in_the_output() {
    let (_guard, output) = build_bundled();
    let checked = common::assert_local_links_resolve(&output);
    assert!(checked > 100, "only {checked} links checked");
}

#[test]
fn index_tags_and_plain_pages_exist() {
    let (_guard, output) = build_bundled();
    let all = html(&output.join("datasets/index.html"));
    let titles = texts(&all, ".dataset-item .item-title");
    assert_eq!(titles.len(), 4, "{titles:?}");
    assert!(titles.contains(&"Theoretical link ceilings".to_string()));
    let meta = texts(&all, ".item-meta").join("\n");
    assert!(meta.contains("11 rows × 17 columns"), "{meta}");
    let tag = html(&output.join("tags/nvme/index.html"));
    assert_eq!(texts(&tag, "h1"), ["NVMe"]);
    assert!(texts(&tag, ".dataset-item .item-title").len() >= 3);
    let home = html(&output.join("index.html"));
    assert!(
        !texts(&home, ".intro p").is_empty(),
        "home page intro from content/_index.md"
    );
    assert!(output.join("about/index.html").is_file());
    assert!(output.join("404.html").is_file());
    assert!(output.join("style.css").is_file(), "static/ is copied");
}

#[test]
fn build_prints_a_summary_and_the_output_size() {
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("out");
    let result = common::run(&[
        "build",
        "--root",
        bundled_site().to_str().unwrap(),
        "--output",
        output.to_str().unwrap(),
    ]);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let stdout = String::from_utf8_lossy(&result.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines[0].starts_with("Built "), "{stdout}");
    // The host report (#50 item 5): the output's files, bytes and largest file, and no
    // host limit broken.
    assert!(
        lines[1].starts_with("Output: ")
            && lines[1].contains(" files, ")
            && lines[1].contains("; largest "),
        "{stdout}"
    );
    assert!(lines[0].contains(" pages, 4 datasets ("), "{stdout}");
    assert!(
        lines[0].contains(" rows)") && lines[0].ends_with(" ms"),
        "{stdout}"
    );
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(
        stderr.trim().is_empty(),
        "the bundled site builds without warnings: {stderr}"
    );
}

#[test]
fn help_lists_subcommands_and_examples() {
    let result = common::run(&["--help"]);
    let text = String::from_utf8_lossy(&result.stdout);
    for expected in ["build", "check", "Examples:", "--root"] {
        assert!(text.contains(expected), "{text}");
    }
    let result = common::run(&["build", "--help"]);
    let text = String::from_utf8_lossy(&result.stdout);
    assert!(
        text.contains("--output") && text.contains("--root"),
        "{text}"
    );
}

#[test]
fn two_builds_are_byte_identical() {
    let (_a, first) = build_bundled();
    let (_b, second) = build_bundled();
    assert_eq!(
        common::tree_contents(&first),
        common::tree_contents(&second)
    );
}

/// The flagship's grouped bar chart is inline SVG before the table, and a file beside the CSV.
#[test]
fn flagship_charts_are_inline_and_standalone() {
    let (_guard, output) = build_bundled();
    let text = std::fs::read_to_string(flagship_page(&output)).unwrap();
    let page = html(&flagship_page(&output));
    let figures = texts(&page, "#charts figure .chart-title");
    assert_eq!(
        figures,
        [
            "Cluster throughput by block size and interface",
            "Latency at the same points"
        ]
    );
    let chart = text.find("id=\"chart-throughput\"").expect("the chart");
    assert!(
        chart < text.find("id=\"table\"").unwrap(),
        "charts come before the table"
    );
    let svg = &text[chart..text[chart..].find("</svg>").unwrap() + chart];
    assert!(svg.contains(
        "<title id=\"dpc-throughput-title\">Cluster throughput by block size and interface</title>"
    ));
    assert!(
        svg.contains("<desc id="),
        "a text alternative lists the values"
    );
    assert!(svg.contains("128K, NVMe: 10,366"), "{svg}");
    assert!(
        svg.contains(">Cluster throughput (MB/s)</text>"),
        "the value axis names its unit"
    );
    assert!(svg.contains(">Block size (as printed) · Interface</text>"));
    // The page's chart takes its colours and dark variant from the site's stylesheet;
    // the chart's own file (read alone) carries them.
    assert!(!svg.contains("<style>"), "no style repeated per chart");
    let css = std::fs::read_to_string(output.join("style.css")).unwrap();
    assert!(css.contains("svg.dpc{") && css.contains("prefers-color-scheme:dark){svg.dpc{"));
    assert_eq!(
        svg.matches("<rect x=").count(),
        9,
        "nine measured cluster bars"
    );
    assert!(
        !svg.contains("6,200"),
        "the filter leaves the vendor rating out"
    );
    assert!(
        text.contains("href=\"#table\""),
        "the chart links to the table"
    );

    let file = output.join(format!("data/datasets/{FLAGSHIP}-throughput.svg"));
    let standalone = std::fs::read_to_string(&file).unwrap();
    assert!(standalone.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns="));
    assert!(standalone.contains("class=\"h\">Cluster throughput by</text>"));
    assert!(standalone.contains("class=\"h\">block size and interface</text>"));
    assert!(
        standalone.contains("<style>svg.dpc{") && standalone.contains("prefers-color-scheme:dark")
    );
    let mut reader = quick_xml::Reader::from_str(&standalone);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("the standalone SVG is not well-formed XML: {e}"),
        }
    }
    for (slug, id) in [
        ("storage-link-payload-ceilings", "sata-sas-lane"),
        ("storage-link-payload-ceilings", "pcie-x4"),
        ("nvme-server-dd-fio", "dd-rate"),
        ("vsan-consumer-kit-iometer", "read-iops"),
    ] {
        assert!(
            output
                .join(format!("data/datasets/{slug}-{id}.svg"))
                .is_file(),
            "{slug}-{id}.svg"
        );
    }
}

/// Every page names its icon (an empty `data:` one), so that no browser asks the host for
/// `/favicon.ico`: a 404 on every page view otherwise.
#[test]
fn every_page_names_an_icon_and_asks_for_no_favicon() {
    let (_guard, output) = build_bundled();
    let mut pages = 0;
    for entry in walkdir::WalkDir::new(&output) {
        let path = entry.unwrap().into_path();
        if path.extension().is_some_and(|e| e == "html") {
            let text = std::fs::read_to_string(&path).unwrap();
            let head = &text[..text.find("</head>").unwrap_or(text.len())];
            assert!(
                head.contains("<link rel=\"icon\" href=\"data:,\">"),
                "{}",
                path.display()
            );
            pages += 1;
        }
    }
    assert!(pages > 10, "only {pages} pages");
}
