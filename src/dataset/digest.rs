//! The size and SHA-256 of one output file of a dataset as written.

/// The size and SHA-256 of one output file of a dataset, as written (the catalogs state
/// them; kept in its entry so the catalog need not make the file again).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileDigest {
    /// The output path, site-relative (`datasets/<slug>.json`).
    pub path: String,
    pub bytes: u64,
    pub sha256: crate::checksum::Sha256,
}
