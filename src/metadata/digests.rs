//! The sizes and SHA-256 digests of a dataset's JSON metadata files (Data Package, CSVW,
//! Croissant), which the DCAT catalog states: computed from the same bytes the writer
//! writes, once per dataset by the writer, and kept with its slim copy after its files are written.

use crate::checksum::Sha256;

use crate::dataset::{Dataset, FileDigest};
use crate::layout::urls;
use crate::site::Site;

/// The metadata file that DCAT distribution `fragment` describes, and its bytes.
fn file(site: &Site, dataset: &Dataset, fragment: &str) -> (String, Vec<u8>) {
    use super::json_file;
    let slug = &dataset.slug;
    match fragment {
        "datapackage" => (
            urls::json_file(slug),
            json_file(&super::datapackage::descriptor(site, dataset)),
        ),
        "csvw" => (
            urls::csvw_file(slug),
            json_file(&super::csvw::table(site, dataset)),
        ),
        _ => (
            urls::croissant_file(slug),
            json_file(&super::croissant::dataset(site, dataset)),
        ),
    }
}

/// The digest of distribution `fragment`'s file: the one recorded when the dataset was
/// slimmed, else computed from the file's bytes.
pub fn digest(site: &Site, dataset: &Dataset, fragment: &str) -> FileDigest {
    let path = match fragment {
        "datapackage" => urls::json_file(&dataset.slug),
        "csvw" => urls::csvw_file(&dataset.slug),
        _ => urls::croissant_file(&dataset.slug),
    };
    if let Some(recorded) = dataset.metadata_digest(&path) {
        return recorded;
    }
    let (path, bytes) = file(site, dataset, fragment);
    of(path, &bytes)
}

/// The size and digest of the file at site-relative `path` holding `bytes`.
pub fn of(path: String, bytes: &[u8]) -> FileDigest {
    FileDigest {
        path,
        bytes: bytes.len() as u64,
        sha256: Sha256::of(bytes),
    }
}
