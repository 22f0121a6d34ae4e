//! datapages-scan: the one streaming pass over a dataset's CSV file, and the stamp that
//! identifies one version of a file on disk (what the scan cache compares).

pub mod scan;
pub mod stamp;

use datapages_content::{checksum, content, diagnostics, schema, text};
