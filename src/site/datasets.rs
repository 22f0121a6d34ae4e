//! The site's datasets, sorted by slug. Each has its [`CatalogEntry`] (what the catalogs,
//! the search index and the checks across datasets read), in `serve` beside the whole
//! dataset, in a build in the build's temporary file (`dataset::entry_store`); and its
//! [`Summary`] in memory, what listings, tag pages, the feed, the sitemap and
//! `catalog.json` read of every dataset, often many times over.

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use toml::value::Datetime;

use super::outputs::OutputsOn;
use crate::checksum::Sha256;
use crate::config::DataPlace;
use crate::content;
use crate::dataset::entry::CatalogEntry;
use crate::dataset::entry_store::{EntryStore, Stored};
use crate::dataset::{Dataset, FileDigest};
use crate::diagnostics::Diagnostic;

/// A dataset's summary, what listings read of it: the first part of its entry, kept in memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub slug: crate::dataset::Slug,
    /// The Markdown file, relative to the site root.
    pub markdown_path: PathBuf,
    pub title: Box<str>,
    pub kicker: Box<str>,
    pub headline: Box<str>,
    pub tags: Box<[Box<str>]>,
    pub created: Option<Datetime>,
    pub updated: Option<Datetime>,
    pub rows: u64,
    /// The CSV's size and SHA-256.
    pub bytes: u64,
    pub sha256: Sha256,
    pub columns: u32,
    /// How many numbers its prose types by hand.
    pub typed_numbers: u32,
    /// How many characters its description has.
    pub description_chars: u32,
    /// Which outputs of the registry write files for it.
    pub outputs_on: OutputsOn,
    /// What the checks across datasets read its entry for: `related` entries, prose links
    /// to datasets and to pages, charts.
    pub has_related: bool,
    pub has_dataset_links: bool,
    pub has_page_links: bool,
    pub has_charts: bool,
    /// Its own `data_url`, if it has one.
    pub data_url: Option<crate::config::BaseUrl>,
}

impl Summary {
    fn of(entry: &CatalogEntry) -> Summary {
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Summary {
            slug: entry.slug.clone(),
            markdown_path: entry.markdown_path.clone(),
            title: entry.title.as_str().into(),
            kicker: entry.kicker.as_str().into(),
            headline: entry.headline.as_str().into(),
            tags: entry.tags.iter().map(|t| t.as_str().into()).collect(),
            created: entry.created,
            updated: entry.updated,
            rows: entry.rows,
            bytes: entry.bytes,
            sha256: entry.sha256,
            columns: count(entry.columns),
            typed_numbers: entry.typed_numbers,
            description_chars: count(entry.description.chars().count()),
            outputs_on: super::outputs::Registry::on_for(entry),
            has_related: !entry.related.is_empty(),
            has_dataset_links: !entry.dataset_links.is_empty(),
            has_page_links: !entry.page_links.is_empty(),
            has_charts: !entry.chart_ids.is_empty(),
            data_url: entry.data_url.clone(),
        }
    }

    /// Where its big files are published.
    pub fn data_place<'a>(&'a self, config: &'a crate::config::SiteConfig) -> DataPlace<'a> {
        config.data_place(self.data_url.as_ref())
    }

    /// The `updated` date, else `created`, as given (listings sort by it).
    pub fn listing_date(&self) -> Option<&Datetime> {
        self.updated.as_ref().or(self.created.as_ref())
    }

    /// The listing date as `YYYY-MM-DD`.
    pub fn updated(&self) -> Option<String> {
        self.listing_date().map(content::date_string)
    }
}

/// The error for an entry the build's temporary file could not give back: the build
/// stops rather than publish what was made without it.
pub fn read_back_problem(error: &std::io::Error) -> Diagnostic {
    Diagnostic::error(
        std::env::temp_dir(),
        format!("cannot read back what the build kept in a temporary file: {error}"),
    )
    .with_hint("check that the temporary folder (TMPDIR) has room, then build again")
}

/// Where a dataset's entry is.
#[derive(Debug, Clone)]
enum EntryPlace {
    Memory(Arc<CatalogEntry>),
    Stored(Stored),
}

/// One dataset of the site. Cloned cheaply: `serve` starts each rebuild's site from the
/// last one's.
#[derive(Debug, Clone)]
pub struct Held {
    summary: Arc<Summary>,
    entry: EntryPlace,
    /// The dataset itself, kept by `serve` only.
    whole: Option<Arc<Dataset>>,
    /// `serve`: its part of the DCAT catalog in each syntax, once written (the catalog is
    /// written again on every edit, where only the edited dataset's part changes).
    dcat_parts: Arc<[OnceLock<String>; 2]>,
}

impl Held {
    /// A dataset whose files are written, as `entry` alone, put into `store` when there is
    /// one.
    pub fn entry(entry: CatalogEntry, store: Option<&EntryStore>) -> Held {
        let summary = Arc::new(Summary::of(&entry));
        let entry = match store.and_then(|store| store.put(&entry)) {
            Some(stored) => EntryPlace::Stored(stored),
            None => EntryPlace::Memory(Arc::new(entry)),
        };
        Held {
            summary,
            entry,
            whole: None,
            dcat_parts: Arc::default(),
        }
    }

    /// A dataset whose entry is already in the store (`stored`).
    pub fn stored(entry: &CatalogEntry, stored: Stored) -> Held {
        Held {
            summary: Arc::new(Summary::of(entry)),
            entry: EntryPlace::Stored(stored),
            whole: None,
            dcat_parts: Arc::default(),
        }
    }

    /// A dataset kept whole (`serve`), with its entry in memory.
    pub fn whole(dataset: Arc<Dataset>, entry: CatalogEntry) -> Held {
        Held {
            whole: Some(dataset),
            ..Held::entry(entry, None)
        }
    }

    pub fn slug(&self) -> &str {
        &self.summary.slug
    }

    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    /// The dataset itself, when it is kept whole (`serve`).
    pub fn dataset(&self) -> Option<&Arc<Dataset>> {
        self.whole.as_ref()
    }
}

/// Every dataset of a site, sorted by slug.
#[derive(Debug, Default)]
pub struct Datasets {
    held: Vec<Held>,
    /// Where the stored entries are.
    store: Option<Arc<EntryStore>>,
}

impl Datasets {
    /// `held`, sorted by slug; `store` holds the stored entries.
    pub fn new(mut held: Vec<Held>, store: Option<Arc<EntryStore>>) -> Datasets {
        held.sort_by(|a, b| a.slug().cmp(b.slug()));
        Datasets { held, store }
    }

    pub fn len(&self) -> usize {
        self.held.len()
    }

    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    pub fn slug(&self, index: usize) -> &str {
        self.held[index].slug()
    }

    /// Every slug, in order.
    pub fn slugs(&self) -> impl Iterator<Item = &str> + '_ {
        self.held.iter().map(Held::slug)
    }

    /// The index of the dataset `slug`.
    pub fn position(&self, slug: &str) -> Option<usize> {
        self.held.binary_search_by(|h| h.slug().cmp(slug)).ok()
    }

    /// The summary of the dataset at `index`.
    pub fn summary(&self, index: usize) -> &Summary {
        &self.held[index].summary
    }

    /// Every dataset's summary, in slug order.
    pub fn summaries(&self) -> impl Iterator<Item = &Summary> + '_ {
        self.held.iter().map(Held::summary)
    }

    /// The entry of the dataset at `index`, read back when it is stored.
    pub fn entry(&self, index: usize) -> std::io::Result<Cow<'_, CatalogEntry>> {
        match &self.held[index].entry {
            EntryPlace::Memory(entry) => Ok(Cow::Borrowed(entry)),
            EntryPlace::Stored(stored) => {
                let store = self
                    .store
                    .as_ref()
                    .ok_or_else(|| std::io::Error::other("an entry was stored without a store"))?;
                store.get(*stored).map(Cow::Owned)
            }
        }
    }

    /// The entries of the datasets whose summary `which` picks (what one check across
    /// datasets reads), each read back as the iterator goes.
    pub fn entries_where<'a>(
        &'a self,
        which: impl Fn(&Summary) -> bool + 'a,
    ) -> impl Iterator<Item = std::io::Result<Cow<'a, CatalogEntry>>> + 'a {
        (0..self.len())
            .filter(move |&i| which(&self.held[i].summary))
            .map(|i| self.entry(i))
    }

    /// The dataset at `index` when it is kept whole (always, in `serve`).
    pub fn whole_at(&self, index: usize) -> Option<&Arc<Dataset>> {
        self.held[index].whole.as_ref()
    }

    /// The datasets kept whole (all of them in `serve`) with their indexes.
    pub fn wholes(&self) -> impl Iterator<Item = (usize, &Arc<Dataset>)> + '_ {
        (0..self.len()).filter_map(|i| Some((i, self.whole_at(i)?)))
    }

    /// Every dataset, in slug order: what `serve` starts a rebuild's site from.
    pub fn to_vec(&self) -> Vec<Held> {
        self.held.clone()
    }

    /// Records the digests of the files just written for the whole dataset at `index`:
    /// the catalogs state them (its DCAT part is then stale).
    pub fn record_digests(&mut self, index: usize, digests: Vec<FileDigest>) {
        let held = &mut self.held[index];
        if let EntryPlace::Memory(entry) = &mut held.entry {
            Arc::make_mut(entry).digests = digests;
            held.dcat_parts = Arc::default();
        }
    }

    /// The DCAT part of the dataset at `index` in syntax `n`, made by `make` the first
    /// time it is asked for (and kept only while `serve` keeps the dataset whole).
    pub fn dcat_part(
        &self,
        index: usize,
        n: usize,
        make: impl FnOnce() -> std::io::Result<String>,
    ) -> std::io::Result<Cow<'_, str>> {
        let held = &self.held[index];
        if held.whole.is_none() {
            return make().map(Cow::Owned);
        }
        let cell = &held.dcat_parts[n];
        if let Some(text) = cell.get() {
            return Ok(Cow::Borrowed(text));
        }
        let mut text = make()?;
        // Kept while `serve` runs: without the spare room the text grew into (a fifth of
        // it), 10,000 datasets' parts hold 30 MB less.
        text.shrink_to_fit();
        Ok(Cow::Borrowed(cell.get_or_init(|| text)))
    }
}

#[cfg(test)]
mod tests;
