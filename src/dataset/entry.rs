//! A dataset as the rest of the site reads it once its own files are written: the one
//! [`CatalogEntry`] that listings, tag pages, the feed, the sitemap, the catalogs, the
//! checks across datasets and `check`'s typed-number report read. A build keeps each in
//! its temporary file (`entry_store`) and writes it to disk as the next build's reuse
//! record (a dataset whose Markdown and CSV did not change is taken from it instead of
//! loaded).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toml::value::Datetime;

use super::scan::TypedCells;
use super::stamp::FileStamp;
use super::{Dataset, FileDigest};
use crate::checksum::Sha256;
use crate::confine;
use crate::content::spans::Place;
use crate::content::{self, Creator, License, Theme};
use crate::diagnostics::Diagnostic;
use crate::layout;

/// What the site reads of one dataset beyond its own page and files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CatalogEntry {
    pub slug: super::Slug,
    /// The Markdown file, relative to the site root.
    pub markdown_path: PathBuf,
    /// The CSV file on disk, symbolic links resolved.
    pub csv_path: PathBuf,
    /// The CSV's path as the page names it (relative to the site): part of the reuse key,
    /// and resolved again to see that it still leads to `csv_path`.
    pub csv_display: PathBuf,
    /// The CSV's stamp when it was scanned: a record stands only while it is unchanged.
    pub csv_stamp: Option<FileStamp>,
    pub title: String,
    pub kicker: String,
    pub headline: String,
    /// [`Dataset::description`].
    pub description: String,
    pub tags: Vec<String>,
    pub themes: Vec<Theme>,
    pub creators: Vec<Creator>,
    pub license: License,
    #[serde(with = "date_text")]
    pub created: Option<Datetime>,
    #[serde(with = "date_text")]
    pub updated: Option<Datetime>,
    pub version: Option<String>,
    pub temporal_coverage: Option<String>,
    /// `draft = true`: left out of a build without `--drafts`.
    pub draft: bool,
    /// How its CSV splits into fields.
    pub dialect: crate::content::dialect::CsvDialect,
    /// Data rows, not counting the header.
    pub rows: u64,
    /// The CSV's size and SHA-256.
    pub bytes: u64,
    pub sha256: Sha256,
    /// How many columns the CSV has.
    pub columns: usize,
    /// [`Dataset::column_names`], for the search index.
    pub column_names: String,
    /// [`Dataset::typed_numbers`].
    pub typed_numbers: u32,
    /// The cells equal to the numbers the prose types by hand (`check --strict`).
    pub typed_cells: Option<TypedCells>,
    /// The slugs under `related`, each with where it is written.
    pub related: Vec<String>,
    pub related_places: Vec<Option<Place>>,
    /// The other datasets it reads (quoted figures, foreign keys).
    pub read_datasets: BTreeSet<String>,
    /// The prose's links to other dataset pages and to the site's own pages.
    pub dataset_links: Vec<(String, Place)>,
    pub page_links: Vec<(String, Place)>,
    /// The id of each chart (two charts must not write one file).
    pub chart_ids: Vec<String>,
    /// The files each output of the site's registry writes for it (`site::outputs`), in
    /// the registry's order.
    pub files: Vec<Vec<String>>,
    /// The size and SHA-256 of those files the catalogs state, as written (none before
    /// they are: `check` writes no typed copy).
    pub digests: Vec<FileDigest>,
    /// The dataset's own `data_url` (where its big files are published), if it has one.
    #[serde(default)]
    pub data_url: Option<crate::config::BaseUrl>,
}

impl CatalogEntry {
    /// The entry of `dataset`, whose outputs write `files` and wrote those of `digests`.
    pub fn of(
        dataset: &Dataset,
        files: Vec<Vec<String>>,
        digests: Vec<FileDigest>,
    ) -> CatalogEntry {
        let front = &dataset.front;
        CatalogEntry {
            slug: dataset.slug.clone(),
            markdown_path: dataset.markdown_path.clone(),
            csv_path: dataset.csv_path.clone(),
            csv_display: dataset.csv_display.clone(),
            csv_stamp: dataset.csv.stamp,
            title: front.title.to_string(),
            kicker: front.kicker.to_string(),
            headline: front.headline.to_string(),
            description: dataset.description(),
            tags: front.tags.clone(),
            themes: front.themes.clone(),
            creators: front.creators.clone(),
            license: License::clone(&dataset.license),
            created: front.created,
            updated: front.updated,
            version: front.version.as_deref().map(str::to_string),
            temporal_coverage: front.temporal_coverage.as_deref().map(str::to_string),
            draft: front.draft,
            dialect: front.csv_dialect(),
            rows: dataset.csv.rows,
            bytes: dataset.csv.bytes,
            sha256: dataset.csv.sha256,
            columns: dataset.csv.header.len(),
            column_names: dataset.column_names(),
            typed_numbers: dataset.typed_numbers,
            typed_cells: dataset.csv.typed_cells.clone(),
            related: front.related.clone(),
            related_places: dataset.related_places.clone(),
            read_datasets: dataset.read_datasets.clone(),
            dataset_links: dataset.dataset_links.clone(),
            page_links: dataset.page_links.clone(),
            chart_ids: front.charts.iter().map(|chart| chart.id()).collect(),
            files,
            digests,
            data_url: front.data_url.clone(),
        }
    }

    /// The `updated` date, else `created`, as given (listings sort by it).
    pub fn listing_date(&self) -> Option<&Datetime> {
        self.updated.as_ref().or(self.created.as_ref())
    }

    /// The listing date as `YYYY-MM-DD`.
    pub fn updated(&self) -> Option<String> {
        self.listing_date().map(content::date_string)
    }

    /// The recorded size and SHA-256 of its file at `path`, once written.
    pub fn digest(&self, path: &str) -> Option<&FileDigest> {
        self.digests.iter().find(|d| d.path == path)
    }

    /// `diagnostic`, pointing at the `n`-th entry of `related` when its place is known.
    pub fn locate_related(&self, n: usize, diagnostic: Diagnostic) -> Diagnostic {
        match self.related_places.get(n) {
            Some(Some(place)) => place.locate(diagnostic),
            _ => diagnostic,
        }
    }

    /// Whether the entry still describes the dataset of `markdown_path` (relative to the
    /// site root, whose canonical path is `root_canonical`) as far as its CSV goes: its
    /// `data` path still leads, inside the site, to the file scanned, and that file's stamp
    /// has not moved. The Markdown's bytes are the caller's to compare (the reuse key).
    pub fn csv_unchanged(&self, root_canonical: &Path, markdown_path: &Path) -> bool {
        self.markdown_path == markdown_path
            && self.csv_stamp.is_some()
            && confine::resolve_file_under(root_canonical, &self.csv_display, layout::DATA)
                .is_ok_and(|real| real == self.csv_path)
            && FileStamp::of(&self.csv_path) == self.csv_stamp
    }
}

/// A TOML date as its text (`Display`, which parses back to the same value).
mod date_text {
    use serde::{Deserialize, Deserializer, Serializer};
    use toml::value::Datetime;

    pub fn serialize<S: Serializer>(date: &Option<Datetime>, s: S) -> Result<S::Ok, S::Error> {
        match date {
            Some(date) => s.serialize_some(&date.to_string()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Datetime>, D::Error> {
        let text: Option<String> = Option::deserialize(d)?;
        text.map(|t| t.parse().map_err(serde::de::Error::custom))
            .transpose()
    }
}
