//! A dataset: its front matter and prose, checked against its CSV in one streaming pass.

pub mod cache;
mod chart_place;
mod chart_series;
mod charts;
mod columns;
mod data_path;
pub mod figures;
mod load;
pub mod paging;
mod prose_links;
pub mod record_store;
pub mod scan;
pub mod schema;
pub mod shown;
mod slim;
pub mod slim_record;
mod slug;
pub mod stamp;
pub mod versions;

use std::path::PathBuf;

use crate::content::spans::Place;
use crate::content::{self, Body, DatasetFrontMatter, License, TableRows};
use crate::diagnostics::Diagnostic;
pub use load::{load, Loaded};
use scan::CsvSummary;
pub use slim::FileDigest;
pub use slug::{is_valid_slug, slug_problem};

/// Everything known about one dataset after loading and validation.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// From the file name: `content/datasets/<slug>.md`.
    pub slug: String,
    /// The Markdown file, relative to the site root.
    pub markdown_path: PathBuf,
    /// The CSV file on disk, symbolic links resolved (inside the site folder: `confine`).
    pub csv_path: PathBuf,
    /// The CSV file relative to the site root.
    pub csv_display: PathBuf,
    pub front: DatasetFrontMatter,
    /// Behind a pointer, as are the other parts only the page reads: slim copies (of
    /// which thousands may stay until the build ends) share one empty value.
    pub body: std::sync::Arc<Body>,
    pub csv: CsvSummary,
    /// The dataset's license, or the site's default (shared with every dataset using it).
    pub license: std::sync::Arc<License>,
    /// How many rows the page's table shows.
    pub table_rows: TableRows,
    /// Whether the rows past the cap get static row pages (see [`paging`]).
    pub row_pages: bool,
    /// Whether a typed Parquet copy is written beside the CSV (its own `parquet`, else
    /// site.toml's; on by default).
    pub parquet: bool,
    /// The Parquet copy's size and SHA-256, once written (`write::parquet`): its page and
    /// metadata list it. A slim copy keeps it with its metadata digests instead.
    parquet_digest: std::sync::OnceLock<FileDigest>,
    /// The kept versions of the CSV and what changed between them (`[[changes]]` with a
    /// `file`); `None` without any, and in a slim copy.
    pub versions: Option<std::sync::Arc<versions::Versions>>,
    /// Where each `related` entry is written, for the checks across datasets.
    related_places: Vec<Option<Place>>,
    /// The figures the texts quote from the table (`{{ cell(...) }}` and the like).
    pub figures: Vec<figures::Quoted>,
    /// The other datasets whose cells the texts quote (`dataset="<slug>"`): this page
    /// depends on their CSV and Markdown.
    pub quoted_datasets: std::collections::BTreeSet<String>,
    /// The headline, kicker and captions with their figures marked up, for the page.
    pub figure_html: std::sync::Arc<figures::FigureHtml>,
    /// The prose's links to other dataset pages (`../<slug>/…`): the slug and where.
    pub(crate) dataset_links: Vec<(String, Place)>,
    /// The prose's links to the site's own pages (`../../<name>/`): the name and where.
    pub(crate) page_links: Vec<(String, Place)>,
    /// How many numbers the prose types by hand (`check --strict` lists them; `build` and
    /// `serve` print the count): found while loading, kept in slim copies and records.
    pub typed_numbers: u32,
    /// The digests of its metadata files as written (set once they are, whole or slim).
    metadata_digests: Vec<FileDigest>,
    /// After [`Dataset::slim`]: [`Dataset::description`], kept in place of the body (a
    /// build keeps the slim copy itself in its temporary file: `site::datasets`).
    slim_description: Option<Box<str>>,
    /// After [`Dataset::slim`]: how many columns the CSV has, kept in place of its header.
    slim_columns: u32,
    /// After [`Dataset::slim`]: [`Dataset::column_names`], for the search index.
    slim_column_names: Option<Box<str>>,
    /// Set by [`Dataset::slim`].
    slimmed: bool,
    /// A slim copy whose files are still to be written ([`Dataset::slim_for_later`]).
    files_pending: bool,
    /// This dataset's part of the DCAT catalog in each syntax, once written: `serve`
    /// keeps whole datasets and writes the catalog again on every edit, where only the
    /// edited dataset's part changes. Empty in a fresh dataset, `None` in a slim one.
    pub dcat_parts: Option<Box<[std::sync::OnceLock<String>; 2]>>,
}

/// How many column names the search index states of one dataset: its size stays bounded
/// for very wide tables.
pub const SEARCHED_COLUMNS: usize = 100;

impl Dataset {
    /// Rows the page shows: the cap, or every row.
    pub fn shown_rows(&self) -> u64 {
        self.csv.rows.min(self.table_rows.limit())
    }

    /// The columns the table shows, as indices into the CSV's columns: every column when
    /// there are at most `table_columns` (the dataset's, else `site_default`), in the CSV's
    /// order; otherwise the primary key first (always, even past the cap), then the other
    /// columns in order up to the cap (at least one). The rest are in the download and the descriptors.
    pub fn shown_columns(&self, site_default: usize) -> Vec<usize> {
        let cap = self
            .front
            .table_columns
            .map_or(site_default, |n| n.get() as usize)
            .max(1);
        let count = self.front.columns.len();
        if count <= cap {
            return (0..count).collect();
        }
        let position = |name: &String| self.front.columns.iter().position(|c| &c.name == name);
        let mut shown: Vec<usize> = self.front.primary_key.iter().filter_map(position).collect();
        let rest: Vec<usize> = (0..count).filter(|i| !shown.contains(i)).collect();
        let room = cap.saturating_sub(shown.len());
        shown.extend(rest.into_iter().take(room));
        shown
    }

    /// Whether `relative` (from the site root) is one of its kept versions' files.
    pub fn keeps_version(&self, relative: &std::path::Path) -> bool {
        self.versions
            .as_ref()
            .is_some_and(|v| v.kept.iter().any(|k| k.display == relative))
    }

    /// The `updated` date, else `created`, as `YYYY-MM-DD`.
    pub fn updated(&self) -> Option<String> {
        self.listing_date().map(content::date_string)
    }

    /// The `updated` date, else `created`, as given (listings sort by it).
    pub fn listing_date(&self) -> Option<&toml::value::Datetime> {
        self.front.updated.as_ref().or(self.front.created.as_ref())
    }

    /// The description used in every metadata format: the author's `description`, or the
    /// lede followed by the first paragraph of Method.
    pub fn description(&self) -> String {
        if let Some(kept) = &self.slim_description {
            return kept.to_string();
        }
        match self.description_parts() {
            (text, "") | ("", text) => text.to_string(),
            (lede, method) => format!("{lede} Method: {method}"),
        }
    }

    /// How many characters [`Dataset::description`] has, without building it (checked
    /// for every dataset on every `serve` rebuild).
    pub fn description_chars(&self) -> usize {
        if let Some(kept) = &self.slim_description {
            return kept.chars().count();
        }
        match self.description_parts() {
            (text, "") | ("", text) => text.chars().count(),
            (lede, method) => lede.chars().count() + " Method: ".len() + method.chars().count(),
        }
    }

    /// What [`Dataset::description`] of a whole dataset is made of: one text, or the lede
    /// and the summary of Method (joined by " Method: " when both are there).
    fn description_parts(&self) -> (&str, &str) {
        if let Some(d) = &self.front.description {
            return (d.trim(), "");
        }
        let method = self.body.section("Method").map_or("", |m| &m.summary_text);
        (&self.body.lede_text, method)
    }

    /// The CSV's column names, the first [`SEARCHED_COLUMNS`] of them, joined by spaces:
    /// what the site's search index states of the columns (kept when slimmed).
    pub fn column_names(&self) -> String {
        if let Some(kept) = &self.slim_column_names {
            return kept.to_string();
        }
        let names: Vec<&str> = self
            .csv
            .header
            .iter()
            .take(SEARCHED_COLUMNS)
            .map(String::as_str)
            .collect();
        names.join(" ")
    }

    /// How many columns the CSV has (its header's length; kept when slimmed).
    pub fn column_count(&self) -> usize {
        if self.slimmed {
            self.slim_columns as usize
        } else {
            self.csv.header.len()
        }
    }

    /// `diagnostic`, pointing at the `n`-th entry of `related` when its place is known.
    pub fn locate_related(&self, n: usize, diagnostic: Diagnostic) -> Diagnostic {
        match self.related_places.get(n) {
            Some(Some(place)) => place.locate(diagnostic),
            _ => diagnostic,
        }
    }
}
