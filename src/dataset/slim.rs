//! What a full build keeps of a dataset once its own files are written: the small part that
//! listings, the feed, the sitemap, the catalogs and other datasets' pages read (in the
//! build's temporary file as its record, `site::datasets`, with its listing in memory).

use std::sync::{Arc, OnceLock};

use crate::content::Body;

use super::figures::FigureHtml;
use super::Dataset;

/// The size and SHA-256 of one output file of a dataset, as written (the catalogs state
/// them; kept so the catalog need not make the file again: `site::outputs`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileDigest {
    /// The output path, site-relative (`datasets/<slug>.json`).
    pub path: String,
    pub bytes: u64,
    pub sha256: crate::checksum::Sha256,
}

impl Dataset {
    /// This dataset without what only its own page and files need (prose, column specs,
    /// sources, profiles, chart points, quoted figures, the license's text), with the digests
    /// of its metadata files as written. What stays: slug, the Markdown and CSV paths,
    /// titles, dates, tags, themes, license name and URL, [`Dataset::description`] (in place
    /// of the body), the column count (in place of the header), chart ids (checked across
    /// datasets), the `related` entries and prose links with their places, the quoted
    /// datasets, the delimiter, and the CSV's rows, size and SHA-256. Every kept string and
    /// list is shrunk to its length: without a temporary file to keep them in
    /// (`site::Held`), thousands of these stay until the build ends.
    pub fn slim(mut self, digests: Vec<FileDigest>) -> Dataset {
        self.slim_description = Some(self.description().into_boxed_str());
        // A CSV of more than 4 billion columns cannot be read; saturate all the same.
        self.slim_columns = u32::try_from(self.column_count()).unwrap_or(u32::MAX);
        self.slim_column_names = Some(self.column_names().into_boxed_str());
        self.body = shared_empty(&EMPTY_BODY);
        self.csv_display = Default::default();
        self.versions = None;
        self.markdown_path.shrink_to_fit();
        self.csv_path.shrink_to_fit();
        self.slug.shrink_to_fit();
        // The titles are boxed: already exactly their length.
        let front = &mut self.front;
        front.description = None;
        front.data = None;
        front.missing_values = None;
        // Number marks are read with the columns, which a slim copy has not.
        front.decimal = None;
        front.group = None;
        shrink_all(&mut front.tags);
        shrink_all(&mut front.related);
        front.themes.shrink_to_fit();
        front.changes = Vec::new();
        front.primary_key = Vec::new();
        front.table_note = None;
        front.license = None;
        front.sources = Vec::new();
        front.columns = Vec::new();
        front.numbers_not_data = Vec::new();
        // Only the ids are read again (two charts must not write one file).
        for chart in &mut front.charts {
            *chart = crate::content::ChartSpec::id_only(chart.id(), chart.kind);
        }
        front.charts.shrink_to_fit();
        // The site's shared license is not copied for this: only a text of the dataset's own.
        if self.license.text.is_some() {
            Arc::make_mut(&mut self.license).text = None;
        }
        let csv = &mut self.csv;
        csv.header = Vec::new();
        csv.referenced_sources = Default::default();
        csv.date_precisions = Vec::new();
        csv.longest_cells = Vec::new();
        csv.charts = Vec::new();
        csv.profiles = Vec::new();
        self.figures = Vec::new();
        self.figure_html = shared_empty(&EMPTY_FIGURE_HTML);
        self.related_places.shrink_to_fit();
        self.dataset_links.shrink_to_fit();
        self.page_links.shrink_to_fit();
        self.metadata_digests = digests;
        self.dcat_parts = None;
        self.slimmed = true;
        self
    }

    /// [`Dataset::slim`] before any file is written: the page lists other datasets under
    /// `related` by title, known only once all are loaded. The build loads it again then
    /// and writes its files ([`Dataset::files_pending`]): holding thousands of whole
    /// datasets until then would make memory grow with the catalog.
    /// It keeps the CSV path its page names (part of its reuse key).
    pub fn slim_for_later(self) -> Dataset {
        let csv_display = self.csv_display.clone();
        let mut slim = self.slim(Vec::new());
        slim.csv_display = csv_display;
        slim.files_pending = true;
        slim
    }

    /// Whether this slim copy's files are still to be written ([`Dataset::slim_for_later`]).
    pub fn files_pending(&self) -> bool {
        self.files_pending
    }

    /// Records the digests of the metadata files just written, so the DCAT catalog need
    /// not render them again (`serve` keeps whole datasets and rewrites DCAT on each edit).
    pub fn record_digests(&mut self, digests: Vec<FileDigest>) {
        self.metadata_digests = digests;
        // The catalog states the digests: its part is stale.
        self.dcat_parts = Some(Box::default());
    }

    /// Notes the size and SHA-256 of the Parquet copy just written, which its page and
    /// metadata list (the same file's bytes whenever it is written again).
    pub fn note_parquet(&self, digest: FileDigest) {
        let _ = self.parquet_digest.set(digest);
    }

    /// The Parquet copy's size and SHA-256: as just written, or as recorded with a slim
    /// copy's metadata digests; `None` when the dataset has none (`parquet = false`) or it
    /// is not written yet.
    pub fn parquet_file(&self) -> Option<FileDigest> {
        if !self.parquet {
            return None;
        }
        match self.parquet_digest.get() {
            Some(digest) => Some(digest.clone()),
            None => self.metadata_digest(&crate::layout::urls::parquet_file(&self.slug)),
        }
    }

    /// Whether this dataset's Parquet copy, made from the same CSV, has the same bytes as
    /// `other`'s: the same columns (names, types, words, formats, marks, missing values),
    /// delimiter, dataset-wide missing values and marks.
    pub fn same_parquet(&self, other: &Dataset) -> bool {
        let (a, b) = (&self.front, &other.front);
        self.parquet == other.parquet
            && a.columns == b.columns
            && a.delimiter == b.delimiter
            && a.missing_values == b.missing_values
            && a.decimal == b.decimal
            && a.group == b.group
    }

    /// Whether [`Dataset::slim`] dropped the parts its own page needs.
    pub fn is_slim(&self) -> bool {
        self.slimmed
    }

    /// The recorded digest of the metadata file at `path`, if the dataset was slimmed.
    pub fn metadata_digest(&self, path: &str) -> Option<FileDigest> {
        self.metadata_digests
            .iter()
            .find(|d| d.path == path)
            .cloned()
    }
}

static EMPTY_BODY: OnceLock<Arc<Body>> = OnceLock::new();
static EMPTY_FIGURE_HTML: OnceLock<Arc<FigureHtml>> = OnceLock::new();

/// The one empty value that every slim copy points to, rather than an allocation each.
pub(super) fn shared_empty<T: Default>(cell: &OnceLock<Arc<T>>) -> Arc<T> {
    Arc::clone(cell.get_or_init(Default::default))
}

/// The empty body and figure markup of slim copies (also those read from records).
pub(super) fn empty_page_parts() -> (Arc<Body>, Arc<FigureHtml>) {
    (shared_empty(&EMPTY_BODY), shared_empty(&EMPTY_FIGURE_HTML))
}

/// `list` and each of its strings without spare capacity.
fn shrink_all(list: &mut Vec<String>) {
    list.shrink_to_fit();
    for text in list {
        text.shrink_to_fit();
    }
}
