//! The size and SHA-256 of one output file of a dataset as written, and what a dataset
//! knows of its Parquet copy's.

use super::Dataset;

/// The size and SHA-256 of one output file of a dataset, as written (the catalogs state
/// them; kept in its entry so the catalog need not make the file again).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileDigest {
    /// The output path, site-relative (`datasets/<slug>.json`).
    pub path: String,
    pub bytes: u64,
    pub sha256: crate::checksum::Sha256,
}

impl Dataset {
    /// Notes the size and SHA-256 of the Parquet copy just written, which its page and
    /// metadata list (the same file's bytes whenever it is written again).
    pub fn note_parquet(&self, digest: FileDigest) {
        let _ = self.parquet_digest.set(digest);
    }

    /// The Parquet copy's size and SHA-256 as written; `None` when the dataset has none
    /// (`parquet = false`) or it is not written yet.
    pub fn parquet_file(&self) -> Option<FileDigest> {
        self.parquet_digest.get().filter(|_| self.parquet).cloned()
    }

    /// Whether this dataset's Parquet copy, made from the same CSV, has the same bytes as
    /// `other`'s: the same columns (names, types, words, formats, marks, missing values),
    /// delimiter, dataset-wide missing values and marks.
    pub fn same_parquet(&self, other: &Dataset) -> bool {
        let (a, b) = (&self.front, &other.front);
        self.parquet == other.parquet
            && a.columns == b.columns
            && a.delimiter == b.delimiter
            && a.skip_initial_space == b.skip_initial_space
            && a.missing_values == b.missing_values
            && a.decimal == b.decimal
            && a.group == b.group
    }
}
