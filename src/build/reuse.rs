//! Builds that redo only what changed: a dataset whose inputs have the key they had in the
//! previous build (`key`) gets its files hard-linked from the previous output into the
//! staging folder (a copy where linking fails) instead of being rendered again; the others
//! are rendered, and what each wrote is recorded in the manifest (`manifest`) for the next
//! build. A page of the DCAT catalog (1,000 datasets each) is linked too when its key (the
//! keys of its datasets and what every page states alike) is the recorded one; the other
//! site-wide files (listings, tags, feed, sitemap, catalog.json) are always written.
//!
//! Invariants: files are linked from the old output only, never from the sources; the
//! output is byte-identical to a clean build; a missing, damaged or stale manifest, a file
//! the old output lacks, or any doubt about a key means the dataset is rendered. The
//! staging folder never writes into a linked file (`output::Staging` unlinks it first).

mod key;
mod manifest;
mod record;
mod spill;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use super::pages::Pages;
use super::BuildOptions;
use crate::dataset::stamp::FileStamp;
use crate::dataset::{Dataset, FileDigest};
use crate::metadata::dcat;
use crate::render::Renderer;
use crate::site::Site;
use crate::write::{self, CsvCopy, Writer};
use manifest::Entry;
use record::Recorder;

/// The previous build's manifest, and what this build records for the next.
pub(super) struct Reuse {
    root: PathBuf,
    /// The output folder being replaced (resolved): where files are linked from.
    output: PathBuf,
    site_key: Option<String>,
    nav_key: OnceLock<String>,
    previous: BTreeMap<String, Entry>,
    /// What each dataset wrote (or, linked, its previous entry); None without a cache folder.
    recorded: Option<Mutex<spill::Spill>>,
    reused: AtomicUsize,
    /// This build's key of each dataset written or linked (a digest of it: 32 bytes), for
    /// the keys of the DCAT pages.
    keys: Mutex<HashMap<Box<str>, [u8; 32]>>,
}

impl Reuse {
    /// Reads the manifest of `output` (the folder this build replaces), unless the build
    /// runs without the cache (`--no-cache`): then nothing is reused, but what is written
    /// is still recorded.
    pub fn open(options: &BuildOptions, output: &Path) -> Reuse {
        let site_key = key::site_key(options);
        let previous = match options.scan_cache && site_key.is_some() {
            true => manifest::load(&options.root, output).unwrap_or_default(),
            false => BTreeMap::new(),
        };
        Reuse {
            root: options.root.clone(),
            output: output.to_path_buf(),
            site_key,
            nav_key: OnceLock::new(),
            previous,
            recorded: manifest::spill_path(&options.root, output)
                .map(|path| Mutex::new(spill::Spill::create(path))),
            reused: AtomicUsize::new(0),
            keys: Mutex::new(HashMap::new()),
        }
    }

    /// Datasets whose files were linked rather than rendered.
    pub fn reused(&self) -> usize {
        self.reused.load(Ordering::Relaxed)
    }

    fn key(&self, site: &Site, dataset: &Dataset) -> Option<String> {
        let nav_key = self.nav_key.get_or_init(|| key::nav_key(site));
        key::dataset_key(
            self.site_key.as_deref()?,
            nav_key,
            &self.root,
            site,
            dataset,
        )
    }

    fn remember_key(&self, slug: &str, key: &str) {
        use sha2::Digest as _;
        let digest: [u8; 32] = sha2::Sha256::digest(key.as_bytes()).into();
        let mut keys = self.keys.lock().unwrap_or_else(|p| p.into_inner());
        keys.insert(slug.into(), digest);
    }

    /// Links each page of the DCAT catalog whose key is the one recorded from the old output
    /// and returns the pages that must be written; records every page's key for the next
    /// build. Call once every dataset is written or linked.
    pub fn link_dcat_pages(&self, site: &Site, writer: &Writer) -> Pages {
        let pages = dcat::page_count(site);
        let Some(site_key) = self.site_key.as_deref() else {
            return Pages::All;
        };
        let shared = format!("{:?}", dcat::shared_facts(site));
        let mut page_keys = key::DcatPageKeys::new(site_key, &shared, pages, site.datasets.len());
        {
            let keys = self.keys.lock().unwrap_or_else(|p| p.into_inner());
            for (index, dataset) in site.datasets.iter().enumerate() {
                let key = keys.get(dataset.slug.as_str());
                page_keys.add(dcat::page_of(site, index), &dataset.slug, key);
            }
        }
        let mut to_write = BTreeSet::new();
        for (page, key) in (1..=pages).zip(page_keys.finish()) {
            let name = format!("dcat:{page}");
            let files: Vec<String> = dcat::SYNTAXES
                .iter()
                .map(|&syntax| dcat::page_path(syntax, page))
                .collect();
            let previous = key
                .as_ref()
                .and_then(|key| self.previous.get(&name).filter(|e| &e.key == key));
            if let Some(entry) = previous.filter(|e| e.files().eq(files.iter().map(String::as_str)))
            {
                if self.link(entry, writer) {
                    self.record(&name, entry);
                    continue;
                }
            }
            to_write.insert(page);
            if let Some(entry) = key.and_then(|key| Entry::new(key, &files, &[])) {
                self.record(&name, &entry);
            }
        }
        Pages::Only(to_write)
    }

    fn record(&self, slug: &str, entry: &Entry) {
        if let Some(recorded) = &self.recorded {
            let mut recorded = recorded.lock().unwrap_or_else(|p| p.into_inner());
            recorded.push(slug, entry);
        }
    }

    /// Links every file of `entry` from the old output; false (and nothing left behind)
    /// when one cannot be had.
    fn link(&self, entry: &Entry, writer: &Writer) -> bool {
        let sink = writer.sink();
        let mut linked = 0;
        for file in entry.files() {
            if sink.link(&self.output.join(file), file).is_err() {
                for file in entry.files().take(linked) {
                    let _ = sink.remove(file);
                }
                return false;
            }
            linked += 1;
        }
        writer.absorb(linked, Vec::new());
        true
    }

    /// Writes one dataset's files, or links them when its key is the one recorded; returns
    /// the digests of its metadata files (for its slim copy).
    fn write(
        &self,
        site: &Site,
        renderer: &Renderer,
        dataset: &Dataset,
        writer: &Writer,
    ) -> Vec<FileDigest> {
        let key = self.key(site, dataset);
        if let Some(key) = &key {
            let previous = self.previous.get(&dataset.slug).filter(|e| &e.key == key);
            if let Some((entry, digests)) = previous.and_then(|e| Some((e, e.digests()?))) {
                if self.link(entry, writer) {
                    self.reused.fetch_add(1, Ordering::Relaxed);
                    self.record(&dataset.slug, entry);
                    self.remember_key(&dataset.slug, key);
                    return digests;
                }
            }
        }
        let recorder = Recorder::new(writer.sink());
        let own = Writer::new(&recorder);
        let digests = write::write_dataset_step(site, renderer, dataset, &own, CsvCopy::Write);
        let files = own.files();
        let problems = own.into_problems();
        if let (Some(key), true) = (key, problems.is_empty()) {
            // A dataset whose file names a manifest cannot hold is simply rendered next time.
            if let Some(entry) = Entry::new(key, &recorder.into_files(), &digests) {
                self.record(&dataset.slug, &entry);
                self.remember_key(&dataset.slug, &entry.key);
            }
        }
        writer.absorb(files, problems);
        digests
    }

    /// Writes the manifest for the next build, once this build's output is in place;
    /// `marker` is the identity of its marker file.
    pub fn save(self, marker: Option<FileStamp>) {
        let recorded = self
            .recorded
            .map(|r| r.into_inner().unwrap_or_else(|p| p.into_inner()))
            .and_then(spill::Spill::finish);
        if let (Some(marker), Some(recorded)) = (marker, recorded) {
            manifest::save(&self.root, &self.output, marker, &recorded);
        }
    }
}

/// Writes one dataset's files (linked where `reuse` allows) and returns its metadata
/// digests, with or without reuse (`check` has none).
pub(super) fn write_dataset(
    reuse: Option<&Reuse>,
    site: &Site,
    renderer: &Renderer,
    dataset: &Dataset,
    writer: &Writer,
) -> Vec<FileDigest> {
    if let Some(reuse) = reuse {
        return reuse.write(site, renderer, dataset, writer);
    }
    write::write_dataset_step(site, renderer, dataset, writer, CsvCopy::Write)
}
