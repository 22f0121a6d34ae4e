//! The reuse record of one dataset: its catalog entry and the problems its load reported,
//! written beside the manifest. The next build takes the dataset from it, without loading
//! it, while its Markdown and CSV are unchanged (`Reuse::recall`).

use serde::{Deserialize, Serialize};

use crate::dataset::entry::CatalogEntry;
use crate::diagnostics::Diagnostic;

/// A dataset's entry and its load's problems (warnings: a dataset with errors has none).
#[derive(Debug, Serialize, Deserialize)]
pub(in crate::build) struct Record {
    pub entry: CatalogEntry,
    pub problems: Vec<Diagnostic>,
    /// Where it was read from in the records file, when it was.
    #[serde(skip)]
    pub at: Option<[u64; 2]>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SiteConfig;
    use crate::layout;
    use crate::site::outputs::Registry;

    /// Every dataset of the bundled site (charts, themes, `related`, quoted cells of other
    /// datasets, prose links) comes back from its record as the very entry it was made of,
    /// problems included.
    #[test]
    fn a_record_gives_back_the_entry_it_was_made_of() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let config = SiteConfig::load(root).unwrap();
        let outputs: Registry = crate::write::built_in_outputs();
        let folder = root.join(layout::CONTENT_DATASETS);
        let mut seen = 0;
        for file in std::fs::read_dir(folder).unwrap() {
            let loaded = crate::dataset::load(root, &file.unwrap().path(), &config, None);
            let dataset = loaded.dataset.unwrap();
            let entry = outputs.entry(&config, &dataset, Vec::new());
            let record = Record {
                entry: entry.clone(),
                problems: vec![Diagnostic::warning("x.md", "a warning").at(3, 1)],
                at: None,
            };
            let text = serde_json::to_string(&record).unwrap();
            let back: Record = serde_json::from_str(&text).unwrap();
            assert_eq!(back.entry, entry);
            assert_eq!(back.problems, record.problems);
            seen += 1;
        }
        assert!(seen >= 4);
    }
}
