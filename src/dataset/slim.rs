//! What a full build keeps of a dataset once its own files are written: the small part that
//! listings, the feed, the sitemap, the catalogs and other datasets' pages read.

use super::Dataset;

/// The size and SHA-256 of one metadata file of a dataset, as written (the DCAT catalog
/// states them; kept so the catalog need not render the file again).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileDigest {
    /// The output path, site-relative (`datasets/<slug>.json`).
    pub path: String,
    pub bytes: u64,
    /// Lowercase hex.
    pub sha256: String,
}

impl Dataset {
    /// This dataset without what only its own page and files need (prose HTML, column
    /// specs, sources, profiles, chart points, quoted figures), with the digests of its
    /// metadata files as written. What stays: slug, paths, titles, dates, tags, themes,
    /// license, the description's text, chart ids (checked across datasets), the `related`
    /// entries and prose links with their places, and the CSV's size, rows, header, SHA-256.
    pub fn slim(mut self, digests: Vec<FileDigest>) -> Dataset {
        let body = &mut self.body;
        body.lede_html = String::new();
        body.intro_html = String::new();
        body.links = Vec::new();
        // Only the first `Method` section is read again (its summary, for descriptions).
        if let Some(at) = body
            .sections
            .iter()
            .position(|s| s.title.eq_ignore_ascii_case("Method"))
        {
            let mut method = body.sections.swap_remove(at);
            method.html = String::new();
            body.sections = vec![method];
        } else {
            body.sections = Vec::new();
        }
        let front = &mut self.front;
        front.columns = Vec::new();
        front.sources = Vec::new();
        front.changes = Vec::new();
        front.primary_key = Vec::new();
        front.table_note = None;
        let csv = &mut self.csv;
        csv.referenced_sources = Default::default();
        csv.date_precisions = Vec::new();
        csv.longest_cells = Vec::new();
        csv.charts = Vec::new();
        csv.profiles = Vec::new();
        self.figures = Vec::new();
        self.metadata_digests = digests;
        self.dcat_parts = Default::default();
        self.slimmed = true;
        self
    }

    /// Whether [`Dataset::slim`] dropped the parts its own page needs.
    pub fn is_slim(&self) -> bool {
        self.slimmed
    }

    /// The recorded digest of the metadata file at `path`, if the dataset was slimmed.
    pub fn metadata_digest(&self, path: &str) -> Option<&FileDigest> {
        self.metadata_digests.iter().find(|d| d.path == path)
    }
}
