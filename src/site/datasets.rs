//! The site's datasets, sorted by slug. `serve` keeps each one whole. A build keeps each
//! slim copy ([`Dataset::slim`]) as its record ([`SlimRecord`]) in the build's temporary
//! file, and in memory only what listings, tag pages, the sitemap, the feed's order and
//! the checks across datasets read of it ([`Listing`]): a slim `Dataset` held about
//! 1.5 KB with its strings, which made a build's memory grow with the catalog. The
//! catalogs, which state everything, read each record back once.

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;

use toml::value::Datetime;

use crate::content::{self, License};
use crate::dataset::record_store::{ReadBackFailed, RecordStore};
use crate::dataset::slim_record::SlimRecord;
use crate::dataset::Dataset;
use crate::layout;

/// One dataset of the site.
#[derive(Debug)]
pub enum Held {
    Whole(Arc<Dataset>),
    /// Boxed: the lists a load collects from its threads move pointers, not the entries.
    Stored(Box<Stored>),
}

/// A slim copy in the temporary file, with what listings read of it.
#[derive(Debug)]
pub struct Stored {
    /// The slug, title, kicker, headline and tags one after the other, in one allocation
    /// (five texts and a list took about 250 bytes more in their own): the tags are
    /// separated by NUL, which no tag of a stored dataset holds.
    texts: Box<str>,
    /// Where the slug, title, kicker and headline end in `texts`.
    ends: [u32; 4],
    /// How many tags follow.
    tags: u16,
    /// `updated`, else `created`.
    date: Option<Datetime>,
    /// `created` (the DCAT catalog states the earliest).
    created: Option<Datetime>,
    rows: u64,
    /// The CSV's size and SHA-256 (`catalog.json` states them).
    csv_bytes: u64,
    sha256: crate::checksum::Sha256,
    columns: u32,
    typed_numbers: u32,
    description_chars: u32,
    /// Which checks across datasets it needs ([`Needs`]).
    needs: u8,
    /// Its files are still to be written ([`Dataset::files_pending`]).
    pending: bool,
    /// It has a Parquet copy ([`Dataset::parquet`]).
    parquet: bool,
    /// Where its record is in the store: offset and length.
    at: u64,
    bytes: u32,
}

/// What the checks across datasets read beyond [`Listing`]: only datasets with such
/// entries are read back for them.
#[derive(Debug, Clone, Copy)]
pub enum Needs {
    Related = 1,
    DatasetLinks = 2,
    PageLinks = 4,
    Charts = 8,
}

impl Needs {
    fn of(dataset: &Dataset) -> u8 {
        let mut needs = 0;
        let mut set = |yes: bool, need: Needs| needs |= if yes { need as u8 } else { 0 };
        set(!dataset.front.related.is_empty(), Needs::Related);
        set(!dataset.dataset_links.is_empty(), Needs::DatasetLinks);
        set(!dataset.page_links.is_empty(), Needs::PageLinks);
        set(!dataset.front.charts.is_empty(), Needs::Charts);
        needs
    }
}

impl Held {
    /// `dataset`, written to `store` when there is one and it is a slim copy; whole
    /// otherwise (a store that cannot be written keeps it whole too).
    pub fn keep(dataset: Dataset, store: Option<&Arc<RecordStore>>) -> Held {
        Held::keep_with(dataset, None, store)
    }

    /// [`Held::keep`] of a dataset read from `record` (a slim record, which reads back as
    /// this very dataset), when given: its bytes are kept as they are.
    pub fn keep_with(
        dataset: Dataset,
        record: Option<Vec<u8>>,
        store: Option<&Arc<RecordStore>>,
    ) -> Held {
        match store.and_then(|store| Held::store(&dataset, record, store)) {
            Some(stored) => Held::Stored(Box::new(stored)),
            None => Held::Whole(Arc::new(dataset)),
        }
    }

    fn store(dataset: &Dataset, record: Option<Vec<u8>>, store: &RecordStore) -> Option<Stored> {
        // The Markdown path is not kept: it follows from the slug, as it does for every
        // dataset `discover` finds.
        let plain = dataset.markdown_path == layout::dataset_markdown(&dataset.slug);
        if !dataset.is_slim() || !plain {
            return None;
        }
        // A slim copy whose files wait keeps the CSV path its page names (its reuse key).
        let pending = dataset.files_pending();
        let csv_display = match pending {
            true => dataset.csv_display.clone(),
            false => PathBuf::new(),
        };
        let text = match record.filter(|_| !pending) {
            Some(bytes) => bytes,
            None => serde_json::to_vec(&SlimRecord::of(dataset, csv_display, &[])?).ok()?,
        };
        let bytes = u32::try_from(text.len()).ok()?;
        let at = store.append(&text)?;
        let (texts, ends, tags) = joined_texts(dataset)?;
        Some(Stored {
            texts,
            ends,
            tags,
            date: dataset.listing_date().cloned(),
            created: dataset.front.created,
            rows: dataset.csv.rows,
            csv_bytes: dataset.csv.bytes,
            sha256: dataset.csv.sha256,
            columns: u32::try_from(dataset.column_count()).unwrap_or(u32::MAX),
            typed_numbers: dataset.typed_numbers,
            description_chars: u32::try_from(dataset.description_chars()).unwrap_or(u32::MAX),
            needs: Needs::of(dataset),
            pending,
            parquet: dataset.parquet,
            at,
            bytes,
        })
    }

    fn slug(&self) -> &str {
        match self {
            Held::Whole(dataset) => &dataset.slug,
            Held::Stored(stored) => stored.text(0),
        }
    }

    /// Which cross checks it needs ([`Needs`]).
    fn needs(&self) -> u8 {
        match self {
            Held::Whole(dataset) => Needs::of(dataset),
            Held::Stored(stored) => stored.needs,
        }
    }
}

/// The slug, title, kicker, headline and tags of `dataset` in one text, where each ends,
/// and how many tags there are; `None` when a tag holds a NUL (it stays whole then) or a
/// text is too long to index.
fn joined_texts(dataset: &Dataset) -> Option<(Box<str>, [u32; 4], u16)> {
    let front = &dataset.front;
    let tags = &front.tags;
    if tags.iter().any(|tag| tag.contains('\0')) {
        return None;
    }
    let parts = [&*dataset.slug, &front.title, &front.kicker, &front.headline];
    // Allocated once at its length: it stays until the build ends, among other entries.
    let tag_bytes = tags.iter().map(|t| t.len() + 1).sum::<usize>();
    let length = parts.iter().map(|p| p.len()).sum::<usize>() + tag_bytes;
    let mut texts = String::with_capacity(length);
    let mut ends = [0u32; 4];
    for (end, part) in ends.iter_mut().zip(parts) {
        texts.push_str(part);
        *end = u32::try_from(texts.len()).ok()?;
    }
    for (n, tag) in tags.iter().enumerate() {
        if n > 0 {
            texts.push('\0');
        }
        texts.push_str(tag);
    }
    u32::try_from(texts.len()).ok()?;
    Some((
        texts.into_boxed_str(),
        ends,
        u16::try_from(tags.len()).ok()?,
    ))
}

impl Stored {
    /// The slug (0), title, kicker or headline (3).
    fn text(&self, which: usize) -> &str {
        let start = match which {
            0 => 0,
            _ => self.ends[which - 1] as usize,
        };
        &self.texts[start..self.ends[which] as usize]
    }

    fn tags(&self) -> Tags<'_> {
        let rest = &self.texts[self.ends[3] as usize..];
        Tags(TagList::Joined(rest, self.tags))
    }
}

/// A dataset's tags, as written.
#[derive(Debug, Clone, Copy)]
pub struct Tags<'a>(TagList<'a>);

#[derive(Debug, Clone, Copy)]
enum TagList<'a> {
    Whole(&'a [String]),
    /// `count` tags separated by NUL.
    Joined(&'a str, u16),
}

impl<'a> Tags<'a> {
    pub fn iter(self) -> TagIter<'a> {
        match self.0 {
            TagList::Whole(tags) => TagIter::Whole(tags.iter()),
            TagList::Joined(text, count) => {
                TagIter::Joined(text.split('\0').take(usize::from(count)))
            }
        }
    }
}

impl<'a> IntoIterator for Tags<'a> {
    type Item = &'a str;
    type IntoIter = TagIter<'a>;

    fn into_iter(self) -> TagIter<'a> {
        self.iter()
    }
}

/// The tags of [`Tags`], in order.
pub enum TagIter<'a> {
    Whole(std::slice::Iter<'a, String>),
    Joined(std::iter::Take<std::str::Split<'a, char>>),
}

impl<'a> Iterator for TagIter<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        match self {
            TagIter::Whole(tags) => tags.next().map(String::as_str),
            TagIter::Joined(tags) => tags.next(),
        }
    }
}

/// What listings and the checks across datasets read of one dataset, wherever it is kept.
#[derive(Debug, Clone, Copy)]
pub struct Listing<'a> {
    pub slug: &'a str,
    pub title: &'a str,
    pub kicker: &'a str,
    pub headline: &'a str,
    pub tags: Tags<'a>,
    /// `updated`, else `created`, as given.
    pub date: Option<&'a Datetime>,
    pub created: Option<&'a Datetime>,
    pub rows: u64,
    pub columns: usize,
    /// How many numbers its prose types by hand ([`Dataset::typed_numbers`]).
    pub typed_numbers: usize,
    /// It has a Parquet copy ([`Dataset::parquet`]).
    pub parquet: bool,
}

impl Listing<'_> {
    /// The listing date as `YYYY-MM-DD` ([`Dataset::updated`]).
    pub fn updated(&self) -> Option<String> {
        self.date.map(content::date_string)
    }

    /// The Markdown file, relative to the site root.
    pub fn markdown_path(&self) -> PathBuf {
        layout::dataset_markdown(self.slug)
    }
}

/// Every dataset of a site, sorted by slug.
#[derive(Debug, Default)]
pub struct Datasets {
    held: Vec<Held>,
    /// Where stored datasets are.
    store: Option<Arc<RecordStore>>,
    /// The site's license, which datasets read back point to (as loaded ones do).
    license: Option<Arc<License>>,
}

impl Datasets {
    /// `held`, sorted by slug; `store` holds the stored ones.
    pub fn new(
        mut held: Vec<Held>,
        store: Option<Arc<RecordStore>>,
        license: Option<Arc<License>>,
    ) -> Datasets {
        held.sort_by(|a, b| a.slug().cmp(b.slug()));
        Datasets {
            held,
            store,
            license,
        }
    }

    /// Whole datasets (`serve`, and tests), sorted by slug.
    pub fn whole(datasets: Vec<Arc<Dataset>>, license: Option<Arc<License>>) -> Datasets {
        let held = datasets.into_iter().map(Held::Whole).collect();
        Datasets::new(held, None, license)
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

    /// What listings read of the dataset at `index`.
    pub fn listing(&self, index: usize) -> Listing<'_> {
        match &self.held[index] {
            Held::Whole(d) => Listing {
                slug: &d.slug,
                title: &d.front.title,
                kicker: &d.front.kicker,
                headline: &d.front.headline,
                tags: Tags(TagList::Whole(&d.front.tags)),
                date: d.listing_date(),
                created: d.front.created.as_ref(),
                rows: d.csv.rows,
                columns: d.column_count(),
                typed_numbers: d.typed_numbers as usize,
                parquet: d.parquet,
            },
            Held::Stored(s) => Listing {
                slug: s.text(0),
                title: s.text(1),
                kicker: s.text(2),
                headline: s.text(3),
                tags: s.tags(),
                date: s.date.as_ref(),
                created: s.created.as_ref(),
                rows: s.rows,
                columns: s.columns as usize,
                typed_numbers: s.typed_numbers as usize,
                parquet: s.parquet,
            },
        }
    }

    /// The size and SHA-256 of the CSV of the dataset at `index`.
    pub fn csv_file(&self, index: usize) -> (u64, crate::checksum::Sha256) {
        match &self.held[index] {
            Held::Whole(d) => (d.csv.bytes, d.csv.sha256),
            Held::Stored(s) => (s.csv_bytes, s.sha256),
        }
    }

    /// How many characters [`Dataset::description`] of the dataset at `index` has (counted
    /// again for a whole dataset: not part of [`Listing`], which sorts call for).
    pub fn description_chars(&self, index: usize) -> usize {
        match &self.held[index] {
            Held::Whole(d) => d.description_chars(),
            Held::Stored(s) => s.description_chars as usize,
        }
    }

    /// Every dataset's [`Listing`], in slug order.
    pub fn listings(&self) -> impl Iterator<Item = Listing<'_>> + '_ {
        (0..self.len()).map(|i| self.listing(i))
    }

    /// The dataset at `index`, read back when it is stored. A record that does not read
    /// back is also remembered by the store ([`RecordStore::read_failure`]), so the build
    /// fails even where a caller can only leave the dataset out.
    pub fn get(&self, index: usize) -> Result<Arc<Dataset>, ReadBackFailed> {
        match &self.held[index] {
            Held::Whole(dataset) => Ok(Arc::clone(dataset)),
            Held::Stored(stored) => self.read_back(stored).map(Arc::new),
        }
    }

    fn read_back(&self, stored: &Stored) -> Result<Dataset, ReadBackFailed> {
        let failed = |why: &str| ReadBackFailed(why.to_string());
        let store = self
            .store
            .as_ref()
            .ok_or_else(|| failed("a dataset was stored without a record store"))?;
        let bytes = store
            .read_bytes(stored.at, stored.bytes)
            .ok_or_else(|| failed("cannot read back what a temporary file kept"))?;
        let record: Option<SlimRecord> = serde_json::from_slice(&bytes).ok();
        let license = self.license.as_ref();
        record
            .and_then(|r| r.into_loaded_as(license, stored.pending))
            .and_then(|loaded| loaded.dataset)
            .ok_or_else(|| {
                let why = "a dataset kept in a temporary file does not read back";
                store.note_failure(why);
                failed(why)
            })
    }

    /// Every dataset, in slug order, each read back when stored (one that does not read
    /// back is left out and fails the build: [`Datasets::get`]).
    pub fn iter(&self) -> impl Iterator<Item = Arc<Dataset>> + '_ {
        (0..self.len()).filter_map(|i| self.get(i).ok())
    }

    /// Whether any dataset has what `need` names (nothing is read back for this).
    pub fn any_needs(&self, need: Needs) -> bool {
        self.held.iter().any(|held| held.needs() & need as u8 != 0)
    }

    /// The datasets that may have any of what `needs` names, each read back when stored
    /// (one at a time, as the iterator goes), with their indexes.
    /// A whole dataset is lent, not counted again: `serve` runs these checks over 10,000
    /// datasets on every edit.
    pub fn needing<'a>(
        &'a self,
        needs: &[Needs],
    ) -> impl Iterator<Item = (usize, Cow<'a, Dataset>)> + 'a {
        let mask = needs.iter().fold(0, |mask, &need| mask | need as u8);
        let needing = (0..self.len()).filter(move |&i| self.held[i].needs() & mask != 0);
        needing.filter_map(move |i| match &self.held[i] {
            Held::Whole(d) => Some((i, Cow::Borrowed(&**d))),
            Held::Stored(s) => Some((i, Cow::Owned(self.read_back(s).ok()?))),
        })
    }

    /// The dataset at `index` when it is kept whole (always, in `serve`).
    pub fn whole_at(&self, index: usize) -> Option<&Arc<Dataset>> {
        match &self.held[index] {
            Held::Whole(dataset) => Some(dataset),
            Held::Stored(_) => None,
        }
    }

    /// The indexes of the slim copies whose files are still to be written
    /// ([`Dataset::files_pending`]).
    pub fn pending(&self) -> Vec<usize> {
        let pending = |held: &Held| match held {
            Held::Whole(dataset) => dataset.files_pending(),
            Held::Stored(stored) => stored.pending,
        };
        (0..self.len())
            .filter(|&i| pending(&self.held[i]))
            .collect()
    }

    /// The datasets kept whole (all of them in `serve`) with their indexes.
    pub fn wholes(&self) -> impl Iterator<Item = (usize, &Arc<Dataset>)> + '_ {
        (0..self.len()).filter_map(|i| Some((i, self.whole_at(i)?)))
    }

    /// The dataset at `index` to change in place, when it is kept whole.
    pub fn whole_mut(&mut self, index: usize) -> Option<&mut Arc<Dataset>> {
        match &mut self.held[index] {
            Held::Whole(dataset) => Some(dataset),
            Held::Stored(_) => None,
        }
    }

    /// Puts `dataset` at `index` (its slug must be the one there), stored when it can be.
    pub fn replace(&mut self, index: usize, dataset: Dataset) {
        debug_assert_eq!(self.slug(index), dataset.slug);
        self.held[index] = Held::keep(dataset, self.store.as_ref());
    }

    /// Every dataset as an `Arc` (read back when stored): what `serve` starts a new site
    /// from.
    pub fn to_vec(&self) -> Vec<Arc<Dataset>> {
        self.iter().collect()
    }
}

#[cfg(test)]
mod tests;
