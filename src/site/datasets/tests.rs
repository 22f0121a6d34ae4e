//! Datasets: entries sorted by slug and found by it, waiting ones listed, digests recorded
//! and the DCAT parts made again after them.

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
        let entry = outputs.entry(&dataset, Vec::new());
        all.push((dataset, entry));
    }
    assert!(all.len() >= 4);
    all
}

/// Each entry states what its dataset says, whichever way it is held, and the datasets
/// come sorted by slug, each found at its place.
#[test]
fn entries_say_what_their_datasets_say_in_slug_order() {
    let mut expected: Vec<(String, String, usize, Option<String>, String)> = Vec::new();
    let mut held = Vec::new();
    for (n, (dataset, entry)) in bundled().into_iter().rev().enumerate() {
        expected.push((
            dataset.slug.clone(),
            dataset.front.title.to_string(),
            dataset.csv.header.len(),
            dataset.updated(),
            dataset.description(),
        ));
        held.push(match n % 3 {
            0 => Held::entry(entry),
            1 => Held::waiting(entry),
            _ => Held::whole(Arc::new(dataset), entry),
        });
    }
    expected.sort();
    let datasets = Datasets::new(held);
    for (i, (slug, title, columns, updated, description)) in expected.iter().enumerate() {
        let entry = datasets.entry(i);
        assert_eq!(&entry.slug, slug);
        assert_eq!(&entry.title, title);
        assert_eq!(entry.columns, *columns);
        assert_eq!(&entry.updated(), updated);
        assert_eq!(&entry.description, description);
        assert_eq!(datasets.position(slug), Some(i));
    }
    assert_eq!(datasets.position("no-such-dataset"), None);
    let waiting = datasets.pending();
    assert!(!waiting.is_empty());
    let wholes = expected.len() / 3;
    assert_eq!(datasets.wholes().count(), wholes);
    assert_eq!(datasets.to_vec().len(), expected.len());
    for i in waiting {
        assert!(datasets.whole_at(i).is_none());
    }
}

/// Recording a whole dataset's digests changes its entry (in this site only: a rebuild's
/// site started from it keeps its own) and makes its DCAT part again.
#[test]
fn recorded_digests_replace_the_entry_s_and_its_dcat_part() {
    let (dataset, entry) = bundled().remove(0);
    let mut datasets = Datasets::new(vec![Held::whole(Arc::new(dataset), entry)]);
    let made = std::cell::Cell::new(0);
    let part = |datasets: &Datasets| {
        let text = datasets.dcat_part(0, 0, || -> Result<String, ()> {
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
    let before = Datasets::new(datasets.to_vec());
    let digest = FileDigest {
        path: "data/datasets/x.csv".to_string(),
        bytes: 3,
        sha256: crate::checksum::Sha256::of(b"abc"),
    };
    datasets.record_digests(0, vec![digest.clone()]);
    assert_eq!(
        datasets.entry(0).digest("data/datasets/x.csv"),
        Some(&digest)
    );
    assert_eq!(before.entry(0).digest("data/datasets/x.csv"), None);
    assert_eq!(part(&datasets), "part 2");
    assert_eq!(part(&before), "part 1");
}

/// A dataset held as its entry alone keeps no DCAT part: it is made each time asked.
#[test]
fn an_entry_alone_keeps_no_dcat_part() {
    let (_, entry) = bundled().remove(0);
    let datasets = Datasets::new(vec![Held::entry(entry)]);
    let mut made = 0;
    for _ in 0..2 {
        let text = datasets.dcat_part(0, 1, || -> Result<String, ()> {
            made += 1;
            Ok(String::new())
        });
        assert!(text.is_ok());
    }
    assert_eq!(made, 2);
}
