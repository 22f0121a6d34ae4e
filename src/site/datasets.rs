//! The site's datasets, sorted by slug: each as its [`CatalogEntry`] (what listings, tag
//! pages, the feed, the sitemap, the catalogs and the checks across datasets read), and
//! in `serve` also whole, for the incremental rebuilds that write its page again.

use std::sync::{Arc, OnceLock};

use crate::dataset::entry::CatalogEntry;
use crate::dataset::{Dataset, FileDigest};

/// One dataset of the site. Cloned cheaply: `serve` starts each rebuild's site from the
/// last one's.
#[derive(Debug, Clone)]
pub struct Held {
    entry: Arc<CatalogEntry>,
    /// The dataset itself, kept by `serve` only.
    whole: Option<Arc<Dataset>>,
    /// Its files are still to be written: its page lists other datasets under `related`
    /// by title, known once all are loaded (the build then loads it again).
    pending: bool,
    /// `serve`: its part of the DCAT catalog in each syntax, once written (the catalog is
    /// written again on every edit, where only the edited dataset's part changes).
    dcat_parts: Arc<[OnceLock<String>; 2]>,
}

impl Held {
    /// A dataset whose files are written: `entry` alone.
    pub fn entry(entry: CatalogEntry) -> Held {
        Held::new(entry, None, false)
    }

    /// A dataset whose files wait for every title to be known ([`Held::pending`]).
    pub fn waiting(entry: CatalogEntry) -> Held {
        Held::new(entry, None, true)
    }

    /// A dataset kept whole (`serve`), with its entry.
    pub fn whole(dataset: Arc<Dataset>, entry: CatalogEntry) -> Held {
        Held::new(entry, Some(dataset), false)
    }

    fn new(entry: CatalogEntry, whole: Option<Arc<Dataset>>, pending: bool) -> Held {
        Held {
            entry: Arc::new(entry),
            whole,
            pending,
            dcat_parts: Arc::default(),
        }
    }

    pub fn slug(&self) -> &str {
        &self.entry.slug
    }

    pub fn entry_ref(&self) -> &CatalogEntry {
        &self.entry
    }
}

/// Every dataset of a site, sorted by slug.
#[derive(Debug, Default)]
pub struct Datasets {
    held: Vec<Held>,
}

impl Datasets {
    /// `held`, sorted by slug.
    pub fn new(mut held: Vec<Held>) -> Datasets {
        held.sort_by(|a, b| a.slug().cmp(b.slug()));
        Datasets { held }
    }

    pub fn len(&self) -> usize {
        self.held.len()
    }

    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    pub fn slug(&self, index: usize) -> &str {
        &self.held[index].entry.slug
    }

    /// Every slug, in order.
    pub fn slugs(&self) -> impl Iterator<Item = &str> + '_ {
        self.held.iter().map(|h| h.entry.slug.as_str())
    }

    /// The index of the dataset `slug`.
    pub fn position(&self, slug: &str) -> Option<usize> {
        self.held
            .binary_search_by(|h| h.entry.slug.as_str().cmp(slug))
            .ok()
    }

    /// The entry of the dataset at `index`.
    pub fn entry(&self, index: usize) -> &CatalogEntry {
        &self.held[index].entry
    }

    /// Every dataset's entry, in slug order.
    pub fn entries(&self) -> impl Iterator<Item = &CatalogEntry> + '_ {
        self.held.iter().map(|h| &*h.entry)
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

    /// The indexes of the datasets whose files are still to be written ([`Held::waiting`]).
    pub fn pending(&self) -> Vec<usize> {
        (0..self.len()).filter(|&i| self.held[i].pending).collect()
    }

    /// Puts `held` at `index` (its slug must be the one there).
    pub fn replace(&mut self, index: usize, held: Held) {
        debug_assert_eq!(self.slug(index), held.entry.slug);
        self.held[index] = held;
    }

    /// Records the digests of the files just written for the dataset at `index`: the
    /// catalogs state them (its DCAT part is then stale).
    pub fn record_digests(&mut self, index: usize, digests: Vec<FileDigest>) {
        let held = &mut self.held[index];
        Arc::make_mut(&mut held.entry).digests = digests;
        held.dcat_parts = Arc::default();
    }

    /// The DCAT part of the dataset at `index` in syntax `n`, made by `make` the first
    /// time it is asked for (and kept only while `serve` keeps the dataset whole).
    pub fn dcat_part<E>(
        &self,
        index: usize,
        n: usize,
        make: impl FnOnce() -> Result<String, E>,
    ) -> Result<std::borrow::Cow<'_, str>, E> {
        let held = &self.held[index];
        if held.whole.is_none() {
            return make().map(std::borrow::Cow::Owned);
        }
        let cell = &held.dcat_parts[n];
        if let Some(text) = cell.get() {
            return Ok(std::borrow::Cow::Borrowed(text));
        }
        let mut text = make()?;
        // Kept while `serve` runs: without the spare room the text grew into (a fifth of
        // it), 10,000 datasets' parts hold 30 MB less.
        text.shrink_to_fit();
        Ok(std::borrow::Cow::Borrowed(cell.get_or_init(|| text)))
    }
}

#[cfg(test)]
mod tests;
