//! Datasets: entries stored or in memory read back alike, listings saying what their
//! entries say, sorted by slug; digests recorded and the DCAT parts made again after them.

use std::path::Path;

use super::*;
use crate::config::SiteConfig;
use crate::layout;

/// The bundled datasets, loaded, with their entries.
fn bundled() -> Vec<(Dataset, CatalogEntry)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = SiteConfig::load(root).unwrap();
    let outputs = super::super::outputs::Registry::default();
    let folder = root.join(layout::CONTENT_DATASETS);
    let mut all = Vec::new();
    for file in std::fs::read_dir(folder).unwrap() {
        let loaded = crate::dataset::load(root, &file.unwrap().path(), &config, None);
        let dataset = loaded.dataset.unwrap();
        let entry = outputs.entry(&config, &dataset, Vec::new());
        all.push((dataset, entry));
    }
    assert!(all.len() >= 4);
    all
}

/// Each entry reads back as it was put, stored or in memory; each listing says what its
/// entry says; the datasets come sorted by slug, each found at its place.
#[test]
fn entries_read_back_as_they_were_and_listings_agree_with_them() {
    let store = Arc::new(EntryStore::new().expect("a temporary file"));
    let mut expected = Vec::new();
    let mut held = Vec::new();
    for (n, (dataset, entry)) in bundled().into_iter().rev().enumerate() {
        expected.push(entry.clone());
        held.push(match n % 2 {
            0 => Held::entry(entry, Some(&store)),
            _ => Held::whole(Arc::new(dataset), entry),
        });
    }
    expected.sort_by(|a, b| a.slug.cmp(&b.slug));
    let datasets = Datasets::new(held, Some(store));
    for (i, entry) in expected.iter().enumerate() {
        assert_eq!(&*datasets.entry(i).unwrap(), entry);
        let summary = datasets.summary(i);
        assert_eq!(summary.slug, entry.slug);
        assert_eq!(&*summary.title, entry.title);
        assert_eq!(summary.columns as usize, entry.columns);
        assert_eq!(summary.updated(), entry.updated());
        assert_eq!(
            summary.description_chars as usize,
            entry.description.chars().count()
        );
        assert_eq!(summary.has_related, !entry.related.is_empty());
        assert_eq!(summary.has_charts, !entry.chart_ids.is_empty());
        assert_eq!(datasets.position(&entry.slug), Some(i));
    }
    assert_eq!(datasets.position("no-such-dataset"), None);
    assert_eq!(datasets.wholes().count(), expected.len() / 2);
    let charted: Vec<_> = datasets
        .entries_where(|d| d.has_charts)
        .map(|e| e.unwrap().slug.clone())
        .collect();
    let expected_charted: Vec<_> = expected
        .iter()
        .filter(|e| !e.chart_ids.is_empty())
        .map(|e| e.slug.clone())
        .collect();
    assert!(!charted.is_empty());
    assert_eq!(charted, expected_charted);
}

/// A stored entry whose store is gone is an error when read, not a missing dataset.
#[test]
fn a_stored_entry_without_its_store_is_an_error() {
    let store = EntryStore::new().expect("a temporary file");
    let (_, entry) = bundled().remove(0);
    let datasets = Datasets::new(vec![Held::entry(entry, Some(&store))], None);
    assert!(datasets.entry(0).is_err());
    let problem = read_back_problem(&datasets.entry(0).unwrap_err());
    assert_eq!(problem.severity, crate::diagnostics::Severity::Error);
}

/// Recording a whole dataset's digests changes its entry (in this site only: a rebuild's
/// site started from it keeps its own) and makes its DCAT part again.
#[test]
fn recorded_digests_replace_the_entry_s_and_its_dcat_part() {
    let (dataset, entry) = bundled().remove(0);
    let mut datasets = Datasets::new(vec![Held::whole(Arc::new(dataset), entry)], None);
    let made = std::cell::Cell::new(0);
    let part = |datasets: &Datasets| {
        let text = datasets.dcat_part(0, 0, || {
            made.set(made.get() + 1);
            Ok(format!("part {}", made.get()))
        });
        text.unwrap().to_string()
    };
    assert_eq!(part(&datasets), "part 1");
    assert_eq!(
        part(&datasets),
        "part 1",
        "kept while the dataset is unchanged"
    );
    let before = Datasets::new(datasets.to_vec(), None);
    let digest = FileDigest {
        path: "data/datasets/x.csv".to_string(),
        bytes: 3,
        sha256: crate::checksum::Sha256::of(b"abc"),
    };
    datasets.record_digests(0, vec![digest.clone()]);
    let path = "data/datasets/x.csv";
    assert_eq!(datasets.entry(0).unwrap().digest(path), Some(&digest));
    assert_eq!(before.entry(0).unwrap().digest(path), None);
    assert_eq!(part(&datasets), "part 2");
    assert_eq!(part(&before), "part 1");
}

/// A dataset held as its entry alone keeps no DCAT part: it is made each time asked.
#[test]
fn an_entry_alone_keeps_no_dcat_part() {
    let (_, entry) = bundled().remove(0);
    let datasets = Datasets::new(vec![Held::entry(entry, None)], None);
    let mut made = 0;
    for _ in 0..2 {
        let text = datasets.dcat_part(0, 1, || {
            made += 1;
            Ok(String::new())
        });
        assert!(text.is_ok());
    }
    assert_eq!(made, 2);
}
