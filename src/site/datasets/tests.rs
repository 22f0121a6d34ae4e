//! Datasets kept whole and stored: listings, lookups and read-back agree.

use super::*;
use crate::config::SiteConfig;

/// Each bundled dataset, slimmed and stored, reads back as the very slim copy it was;
/// its listing says what the slim copy says.
#[test]
fn a_stored_dataset_reads_back_as_its_slim_copy() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = SiteConfig::load(root).unwrap();
    let store = RecordStore::new().expect("a temporary file");
    let folder = root.join(layout::CONTENT_DATASETS);
    let mut slims = Vec::new();
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        let loaded = crate::dataset::load(root, &path, &config, None);
        slims.push(loaded.dataset.unwrap().slim(Vec::new()));
    }
    assert!(slims.len() >= 4);
    let expected: Vec<String> = {
        let mut sorted: Vec<&Dataset> = slims.iter().collect();
        sorted.sort_by(|a, b| a.slug.cmp(&b.slug));
        sorted.iter().map(|d| format!("{d:?}")).collect()
    };
    let listings: Vec<(String, String, usize, Option<String>)> = {
        let mut sorted: Vec<&Dataset> = slims.iter().collect();
        sorted.sort_by(|a, b| a.slug.cmp(&b.slug));
        sorted
            .iter()
            .map(|d| {
                let tags = d.front.tags.join(",");
                (
                    d.front.title.to_string(),
                    tags,
                    d.column_count(),
                    d.updated(),
                )
            })
            .collect()
    };
    // Half of them as taken from a reuse record (whose warnings do not matter here).
    let warning = crate::diagnostics::Diagnostic::warning("x", "w");
    let held = slims
        .into_iter()
        .rev()
        .enumerate()
        .map(|(n, d)| match n % 2 {
            0 => Held::keep(d, Some(&store)),
            _ => {
                let record = SlimRecord::of(&d, PathBuf::new(), std::slice::from_ref(&warning));
                let bytes = serde_json::to_vec(&record.unwrap()).unwrap();
                Held::keep_with(d, Some(bytes), Some(&store))
            }
        })
        .collect::<Vec<_>>();
    assert!(held.iter().all(|h| matches!(h, Held::Stored(_))));
    let datasets = Datasets::new(held, Some(store.clone()), config.license.clone());
    let back: Vec<String> = datasets.iter().map(|d| format!("{d:?}")).collect();
    assert_eq!(back, expected);
    for (i, (title, tags, columns, updated)) in listings.iter().enumerate() {
        let listing = datasets.listing(i);
        assert_eq!(listing.title, title);
        assert_eq!(listing.tags.iter().collect::<Vec<_>>().join(","), *tags);
        assert_eq!(listing.columns, *columns);
        assert_eq!(listing.updated(), *updated);
        assert_eq!(datasets.position(listing.slug), Some(i));
    }
    assert!(store.read_failure().is_none());
}

/// A dataset that is not slim, or given no store, stays whole; a slim copy whose files
/// are still to be written reads back as one, with the CSV path its page names.
#[test]
fn whole_datasets_stay_whole_and_waiting_ones_read_back_waiting() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = SiteConfig::load(root).unwrap();
    let store = RecordStore::new().expect("a temporary file");
    let path = root.join(layout::dataset_markdown("storage-link-payload-ceilings"));
    let load = || {
        crate::dataset::load(root, &path, &config, None)
            .dataset
            .unwrap()
    };
    assert!(matches!(Held::keep(load(), Some(&store)), Held::Whole(_)));
    let slim = load().slim(Vec::new());
    assert!(matches!(Held::keep(slim, None), Held::Whole(_)));
    let pending = load().slim_for_later();
    let expected = format!("{pending:?}");
    assert!(pending.files_pending() && !pending.csv_display.as_os_str().is_empty());
    let held = vec![Held::keep(pending, Some(&store))];
    assert!(matches!(held[0], Held::Stored(_)));
    let datasets = Datasets::new(held, Some(store), config.license.clone());
    assert_eq!(datasets.pending(), vec![0]);
    let back = datasets.get(0).unwrap();
    assert!(back.files_pending());
    assert_eq!(format!("{back:?}"), expected);

    // A record that does not read back is an error to the caller and to the build.
    let mut damaged = datasets;
    if let Held::Stored(stored) = &mut damaged.held[0] {
        stored.at = 1 << 40;
    }
    let failed = damaged.get(0).unwrap_err();
    assert!(failed.0.contains("cannot read back"), "{failed}");
    assert_eq!(damaged.iter().count(), 0);
    let store = damaged.store.as_ref().unwrap();
    assert!(store.read_failure().is_some());
}
