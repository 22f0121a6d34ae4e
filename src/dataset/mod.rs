//! A dataset: its front matter and prose, checked against its CSV in one streaming pass.

pub mod budget;
pub mod cache;
mod chart_place;
mod chart_series;
mod charts;
mod columns;
mod data_path;
mod digest;
pub mod entry;
pub mod entry_store;
pub mod figures;
pub mod keys;
mod load;
pub mod paging;
mod prose_links;
pub use datapages_content::{schema, shown};
pub use datapages_scan::{scan, stamp};
mod slug;
pub mod versions;

use std::path::PathBuf;

use crate::content::spans::Place;
use crate::content::{self, Body, DatasetFrontMatter, License, TableRows};
pub use digest::FileDigest;
pub use load::{load, Loaded};
use scan::CsvSummary;
pub use slug::{is_valid_slug, slug_problem, Slug};

/// Everything known about one dataset after loading and validation.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// From the file name: `content/datasets/<slug>.md`.
    pub slug: Slug,
    /// The Markdown file, relative to the site root.
    pub markdown_path: PathBuf,
    /// The CSV file on disk, symbolic links resolved (inside the site folder: `confine`).
    pub csv_path: PathBuf,
    /// The CSV file relative to the site root.
    pub csv_display: PathBuf,
    pub front: DatasetFrontMatter,
    pub body: Body,
    pub csv: CsvSummary,
    /// The dataset's license, or the site's default (shared with every dataset using it).
    pub license: std::sync::Arc<License>,
    /// How many rows the page's table shows.
    pub table_rows: TableRows,
    /// Whether the rows past the cap get static row pages (see [`paging`]).
    pub row_pages: bool,
    /// The kept versions of the CSV and what changed between them (`[[changes]]` with a
    /// `file`); `None` without any.
    pub versions: Option<std::sync::Arc<versions::Versions>>,
    /// Where each `related` entry is written, for the checks across datasets.
    related_places: Vec<Option<Place>>,
    /// The figures the texts quote from the table (`{{ cell(...) }}` and the like).
    pub figures: Vec<figures::Quoted>,
    /// The other datasets this page reads: those whose cells its texts quote
    /// (`dataset="<slug>"`) and those its foreign keys name. It depends on their CSV and
    /// Markdown.
    pub read_datasets: std::collections::BTreeSet<String>,
    /// Per foreign key, the page its cells link to (found while checking the keys).
    pub key_pages: Vec<keys::KeyPage>,
    /// The headline, kicker and captions with their figures marked up, for the page.
    pub figure_html: figures::FigureHtml,
    /// The prose's links to other dataset pages (`../<slug>/…`): the slug and where.
    pub(crate) dataset_links: Vec<(String, Place)>,
    /// The prose's links to the site's own pages (`../../<name>/`): the name and where.
    pub(crate) page_links: Vec<(String, Place)>,
    /// How many numbers the prose types by hand (`check --strict` lists them; `build` and
    /// `serve` print the count): found while loading.
    pub typed_numbers: u32,
}

/// How many column names the search index states of one dataset: its size stays bounded
/// for very wide tables.
pub const SEARCHED_COLUMNS: usize = 100;

impl Dataset {
    /// Where its big files are published (`data_url`, its own or the site's).
    pub fn data_place<'a>(
        &'a self,
        config: &'a crate::config::SiteConfig,
    ) -> crate::config::DataPlace<'a> {
        config.data_place(self.front.data_url.as_ref())
    }

    /// Rows the page's table may show: the cap (with row pages, the rows of a page), or
    /// every row. The page shows fewer when they do not fit its byte budget ([`budget`]).
    pub fn shown_rows(&self) -> u64 {
        match paging::RowPaging::of(self) {
            Some(paging) => paging.per_page,
            None => self.csv.rows.min(self.table_rows.limit()),
        }
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

    /// Whether column `index` tells the rows apart, so the table keeps it in view: a
    /// column of the `primary_key`; without one, the first column when it is `unique` or
    /// its profile counted as many distinct values as rows, none empty. A column that
    /// repeats (`year`, 2013 on every row) is no key.
    pub fn is_key(&self, index: usize) -> bool {
        let Some(column) = self.front.columns.get(index) else {
            return false;
        };
        if !self.front.primary_key.is_empty() {
            return self.front.primary_key.contains(&column.name);
        }
        let profile = self.csv.profiles.get(index);
        let all_distinct = profile
            .and_then(|p| p.text.as_ref())
            .and_then(|t| t.count());
        index == 0
            && profile.is_some_and(|p| p.empty == 0)
            && (column.unique || all_distinct == Some(self.csv.rows as usize))
    }

    /// For each column, in the CSV's order, whether the table shows it; `shown` is what
    /// [`Dataset::shown_columns`] gave.
    pub fn in_table(&self, shown: &[usize]) -> Vec<bool> {
        let mut in_table = vec![false; self.front.columns.len()];
        for &index in shown {
            if let Some(flag) = in_table.get_mut(index) {
                *flag = true;
            }
        }
        in_table
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
        match self.description_parts() {
            (text, "") | ("", text) => text.to_string(),
            (lede, method) => format!("{lede} Method: {method}"),
        }
    }

    /// The abstract a citation carries (RIS `AB`, CFF `abstract`): the author's
    /// `description`, else the lede, which the page writes as its summary (else the
    /// summary of Method). The metadata files carry the whole [`Dataset::description`].
    pub fn abstract_text(&self) -> &str {
        match self.description_parts() {
            ("", text) | (text, _) => text,
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
    /// what the site's search index states of the columns.
    pub fn column_names(&self) -> String {
        let names: Vec<&str> = self
            .csv
            .header
            .iter()
            .take(SEARCHED_COLUMNS)
            .map(String::as_str)
            .collect();
        names.join(" ")
    }
}
