//! Column profiles: the figures of every bundled column (in each Data Package's
//! `datapages:profile` and on the page) equal what Python's `csv` and `statistics` compute
//! from the same CSV files, independently of datapages (tests/profiles/expected.py).

use crate::common;

use std::process::Command;

use common::{build_bundled, bundled_site, html, texts, tool_present};

#[test]
fn every_bundled_column_profile_matches_an_independent_count() {
    let (_guard, output) = build_bundled();
    let mut packages = Vec::new();
    for entry in std::fs::read_dir(output.join("data/datasets")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.ends_with(".json") && !name.contains(".croissant") && !name.contains("-metadata") {
            packages.push(path);
        }
    }
    packages.sort();
    assert!(packages.len() >= 4, "{packages:?}");
    let python = Command::new("python3")
        .arg(bundled_site().join("tests/profiles/expected.py"))
        .args(&packages)
        .output();
    let Ok(python) = python else {
        if tool_present("python3", false) {
            unreachable!()
        }
        return;
    };
    assert!(
        python.status.success(),
        "profiles differ from Python's:\n{}{}",
        String::from_utf8_lossy(&python.stdout),
        String::from_utf8_lossy(&python.stderr)
    );
}

#[test]
fn the_columns_section_shows_each_column_with_its_profile() {
    let (_guard, output) = build_bundled();
    let page = html(&output.join("datasets/sata-sas-nvme-measured-throughput/index.html"));
    let items = texts(&page, ".column-list > li");
    assert_eq!(items.len(), 17);
    let profiles = texts(&page, ".column-list > li .profile");
    assert_eq!(profiles.len(), 17);
    assert!(
        profiles.iter().all(|p| p.contains(" with a value")),
        "{profiles:?}"
    );
    let titles = texts(&page, ".column-list .column-title");
    assert!(
        titles.iter().any(|t| t == "Cluster throughput (MB/s)"),
        "{titles:?}"
    );
    // Nine rows: too few values for a histogram (fewer than histogram_min_values, 50).
    assert!(texts(&page, ".column-list svg.histogram").is_empty());
}

/// A small site whose `value` column holds 1, 2, ..., `rows`, with `site_toml` added.
fn counted_site(dir: &std::path::Path, rows: u64, site_toml: &str) -> std::path::PathBuf {
    let mut csv = String::from("label,value\n");
    for n in 1..=rows {
        csv.push_str(&format!("row {n},{n}\n"));
    }
    common::write_small_site(dir, common::SMALL_FRONT, common::SMALL_BODY, csv.as_bytes());
    let toml = std::fs::read_to_string(dir.join("site.toml")).unwrap();
    std::fs::write(dir.join("site.toml"), format!("{site_toml}\n{toml}")).unwrap();
    common::build_root(dir);
    dir.join("public/datasets/sample/index.html")
}

/// A number column's histogram is drawn from `histogram_min_values` values on (50 unless
/// site.toml says otherwise; 0: always); below it the profile keeps its range and mean.
#[test]
fn a_histogram_is_drawn_from_enough_values() {
    for (rows, site_toml, drawn) in [
        (49, "", false),
        (50, "", true),
        (9, "histogram_min_values = 0", true),
        (60, "histogram_min_values = 61", false),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let page = html(&counted_site(dir.path(), rows, site_toml));
        let profiles = texts(&page, ".column-list > li .profile");
        assert!(
            profiles[1].contains(&format!("from 1 to {rows}")) && profiles[1].contains("mean"),
            "{rows} rows, {site_toml:?}: {profiles:?}"
        );
        // Every histogram is an image with a title, and each bar says its range and count.
        let svgs = texts(&page, ".column-list svg.histogram[role=img] > title");
        assert_eq!(svgs.len(), usize::from(drawn), "{rows} rows, {site_toml:?}");
        if drawn {
            let title = format!("Histogram of Value (units): values from 1 to {rows}");
            assert!(svgs[0].starts_with(&title), "{svgs:?}");
            let bars = texts(&page, ".column-list svg.histogram path > title");
            let counted: u64 = (bars.iter())
                .map(|b| b.rsplit(": ").next().unwrap().split(' ').next().unwrap())
                .map(|n| n.parse::<u64>().unwrap())
                .sum();
            assert_eq!(counted, rows, "{bars:?}");
        }
    }
}

#[test]
fn a_single_value_reads_as_all_and_a_cut_value_ends_in_an_ellipsis() {
    let dir = tempfile::tempdir().unwrap();
    let long = format!("{} {}", "x".repeat(50), "y".repeat(50));
    let csv = format!("label,value\n{long},6200\n{long},6200\nshort,6200\n");
    common::write_small_site(
        dir.path(),
        common::SMALL_FRONT,
        common::SMALL_BODY,
        csv.as_bytes(),
    );
    common::build_root(dir.path());
    let page = html(&dir.path().join("public/datasets/sample/index.html"));
    let profiles = texts(&page, ".column-list > li .profile");
    let value = &profiles[1];
    assert!(value.contains("all 6,200"), "{value}");
    assert!(
        !value.contains("from 6,200 to 6,200") && !value.contains("mean"),
        "{value}"
    );
    let label = &profiles[0];
    let cut: String = long.chars().take(79).collect();
    assert!(
        label.contains(&format!("most common: {cut}… (2)")),
        "{label}"
    );
}
