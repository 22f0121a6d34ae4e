//! Builds that redo only what changed: a dataset whose inputs have the key they had in the
//! previous build (`key`) gets its files hard-linked from the previous output into the
//! staging folder (a copy where linking fails) instead of being rendered again; the others
//! are rendered, and what each wrote is recorded in the manifest (`manifest`) for the next
//! build. A page of the DCAT catalog (1,000 datasets each) is linked too when its key (the
//! keys of its datasets and what every page states alike) is the recorded one; the other
//! site-wide files (listings, tags, feed, sitemap, catalog.json) are always written.
//!
//! A dataset linked or written this way also leaves its record (its catalog entry, and
//! its load's warnings: `record`) in a records file beside the manifest.
//! The next build takes a dataset from its record, without loading it, when its Markdown
//! bytes give the recorded key and its CSV's stamp is the recorded one (`recall`); a CSV
//! changed less than two seconds before the build that scanned it leaves no record, as a
//! later change within the file system's time granularity could keep its stamp.
//!
//! Invariants: files are linked from the old output only, never from the sources; the
//! output is byte-identical to a clean build; a missing, damaged or stale manifest, a file
//! the old output lacks, or any doubt about a key means the dataset is rendered. The
//! staging folder never writes into a linked file (`output::Staging` unlinks it first).

mod key;
pub(super) mod manifest;
pub(super) mod record;
mod recorder;
mod spill;
mod tidy;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::SystemTime;

use super::pages::Pages;
use super::previous::Previous;
use super::BuildOptions;
use crate::confine;
use crate::content;
use crate::dataset::cache::SETTLED;
use crate::dataset::entry::CatalogEntry;
use crate::dataset::stamp::FileStamp;
use crate::dataset::versions::KeptVersion;
use crate::dataset::Dataset;
use crate::diagnostics::{Diagnostic, Severity};
use crate::metadata::dcat;
use crate::output::hosts::OutputSize;
use crate::render::Renderer;
use crate::site::Site;
use crate::write::{self, Writer};
use manifest::Whole;
use manifest::WrittenFiles;
use record::Record;
use recorder::Recorder;

/// The previous build's manifest, and what this build records for the next.
pub(super) struct Reuse {
    root: PathBuf,
    /// The output folder being replaced (resolved): where files are linked from.
    output: PathBuf,
    site_key: Option<String>,
    nav_key: OnceLock<String>,
    previous: BTreeMap<String, WrittenFiles>,
    /// The previous build's records file, which `previous` points into.
    records: Option<manifest::RecordsFile>,
    /// What the previous build's whole output was built from.
    previous_whole: Option<manifest::Whole>,
    /// Datasets taken from their records whose files are still to be linked: not before
    /// the whole site is known, since an output that is up to date needs no links at all.
    pending_links: Mutex<Vec<Box<str>>>,
    /// When this build began: a CSV changed less than [`SETTLED`] before leaves no record.
    started: SystemTime,
    /// The site folder, resolved (for `recall`); `None` when it cannot be.
    canonical_root: OnceLock<Option<PathBuf>>,
    /// What each dataset wrote (or, linked, its previous entry); None without a cache folder.
    recorded: Option<Mutex<spill::Spill>>,
    reused: AtomicUsize,
    /// Datasets among `reused` taken from their records, not loaded.
    recalled: AtomicUsize,
    /// This build's key of each dataset written or linked (a digest of it), for the keys
    /// of the DCAT pages.
    keys: Mutex<HashMap<Box<str>, crate::checksum::Sha256>>,
}

/// The output folder as the manifest names it: resolved (absolute, links followed), so
/// that `--root .`, `--root site`, an absolute path and a build run inside the site all
/// find the same manifest.
fn canonical_output(output: &Path) -> PathBuf {
    crate::output::guard::resolve(output).unwrap_or_else(|_| output.to_path_buf())
}

/// What [`Reuse`] takes of the previous build before anything else, read while the site is
/// (in parallel with its walk and first pass): the site-wide key, the manifest of the
/// output with its records file, and when this build began.
pub(super) struct Prefetched {
    /// The output folder, resolved as the manifest names it.
    output: PathBuf,
    site_key: Option<String>,
    left: manifest::Left,
    started: SystemTime,
}

impl Reuse {
    /// Reads the site's key and the manifest of `output` (the folder this build replaces,
    /// or the one `check` compares with), unless the build runs without the cache
    /// (`--no-cache`): then nothing is reused, but what `build` writes is still recorded.
    pub fn prefetch(options: &BuildOptions, output: &Path) -> Prefetched {
        let output = canonical_output(output);
        let site_key = key::site_key(options);
        let started = SystemTime::now();
        let left = match options.scan_cache && site_key.is_some() {
            true => manifest::load(&options.root, &output).unwrap_or_default(),
            false => manifest::Left::default(),
        };
        Prefetched {
            output,
            site_key,
            left,
            started,
        }
    }

    /// `build`'s reuse of what [`Reuse::prefetch`] read, recording what it writes.
    pub fn open(options: &BuildOptions, read: Prefetched) -> Reuse {
        let output = &read.output;
        if let Some(dir) = manifest::ready_reuse_dir(&options.root) {
            tidy::tidy(&dir, &manifest::path(&options.root, output));
        }
        let records_path = manifest::records_spill_path(&options.root, output);
        let recorded = manifest::spill_path(&options.root, output)
            .map(|path| Mutex::new(spill::Spill::create(path, records_path)));
        Reuse::with_manifest(options, read, recorded)
    }

    /// For `check`, which writes nothing: each unchanged dataset is taken from its record
    /// (its warnings with it) instead of being loaded and rendered again; nothing is
    /// linked or recorded.
    pub fn for_check(options: &BuildOptions, read: Prefetched) -> RecallOnly {
        RecallOnly(Reuse::with_manifest(options, read, None))
    }

    fn with_manifest(
        options: &BuildOptions,
        read: Prefetched,
        recorded: Option<Mutex<spill::Spill>>,
    ) -> Reuse {
        Reuse {
            root: options.root.clone(),
            output: read.output,
            site_key: read.site_key,
            nav_key: OnceLock::new(),
            previous: read.left.datasets,
            records: read.left.records,
            previous_whole: read.left.whole,
            pending_links: Mutex::default(),
            started: read.started,
            canonical_root: OnceLock::new(),
            recorded,
            reused: AtomicUsize::new(0),
            recalled: AtomicUsize::new(0),
            keys: Mutex::new(HashMap::new()),
        }
    }

    /// The key of `dataset`, with its kept versions `kept`; `recalled`: taken from its
    /// record rather than loaded ([`key::dataset_key`]).
    fn key(
        &self,
        site: &Site,
        (dataset, kept): (&CatalogEntry, &[KeptVersion]),
        recalled: bool,
    ) -> Option<String> {
        let titles = key::related_titles(site, dataset);
        let nav_key = self.nav_key.get_or_init(|| key::nav_key(site));
        let site_key = self.site_key.as_deref()?;
        key::dataset_key(
            (site_key, nav_key),
            &self.root,
            site,
            (dataset, kept),
            (&titles, recalled),
        )
    }

    /// The dataset of `markdown_file` from its record, with its key, when its record is
    /// there and still holds: the CSV unchanged (path and stamp), the key (Markdown bytes,
    /// and what it quotes of other datasets) the recorded one. `None` means: load it.
    fn find(&self, site: &Site, markdown_file: &Path) -> Option<(Record, String)> {
        let slug = crate::dataset::Slug::of_file(markdown_file);
        let entry = self.previous.get(slug.as_str())?;
        let at = entry.record?;
        let bytes = self.records.as_ref()?.read(at)?;
        let record = Record {
            at: Some(at),
            ..serde_json::from_slice(&bytes).ok()?
        };
        let dataset = &record.entry;
        let root = self
            .canonical_root
            .get_or_init(|| confine::canonical_root(&self.root).ok())
            .as_ref()?;
        let markdown_path = content::display_path(&self.root, markdown_file);
        if dataset.slug != slug || !dataset.csv_unchanged(root, &markdown_path) {
            return None;
        }
        let key = self.key(site, (dataset, &[]), true)?;
        if key != entry.key {
            return None;
        }
        self.recalled.fetch_add(1, Ordering::Relaxed);
        Some((record, key))
    }

    fn output_key(&self, site: &Site) -> Option<String> {
        let nav_key = self.nav_key.get_or_init(|| key::nav_key(site));
        let keys = self.keys.lock().unwrap_or_else(|p| p.into_inner());
        key::output_key(self.site_key.as_deref()?, nav_key, site, &keys)
    }

    /// Links the files of the datasets taken from their records; one whose files cannot
    /// be linked (gone from the old output) is loaded and rendered after all.
    fn link_recalled(&self, site: &Site, renderer: &Renderer, writer: &Writer) {
        use rayon::prelude::*;
        let pending =
            std::mem::take(&mut *self.pending_links.lock().unwrap_or_else(|p| p.into_inner()));
        pending.par_iter().for_each(|slug| {
            let previous = self.previous.get(&**slug);
            if let Some(entry) = previous.filter(|e| self.link(e, writer)) {
                // Its record goes on to the next build (read again: an output found up to
                // date records nothing, and never gets here).
                let record = entry.record.and_then(|at| self.records.as_ref()?.read(at));
                self.push(slug, entry, record.as_deref());
                return;
            }
            self.reused.fetch_sub(1, Ordering::Relaxed);
            self.recalled.fetch_sub(1, Ordering::Relaxed);
            self.load_and_write(site, slug, renderer, writer);
        });
    }

    fn remember_key(&self, slug: &str, key: &str) {
        let digest = crate::checksum::Sha256::of(key.as_bytes());
        let mut keys = self.keys.lock().unwrap_or_else(|p| p.into_inner());
        keys.insert(slug.into(), digest);
    }

    /// Links each page of the DCAT catalog whose key is the one recorded from the old output
    /// and returns the pages that must be written; records every page's key for the next
    /// build. Call once every dataset is written or linked.
    fn link_dcat_pages(&self, site: &Site, writer: &Writer) -> Pages {
        let pages = dcat::page_count(site);
        let Some(site_key) = self.site_key.as_deref() else {
            return Pages::All;
        };
        let shared = format!("{:?}", dcat::shared_facts(site));
        let mut page_keys = key::DcatPageKeys::new(site_key, &shared, pages, site.datasets.len());
        {
            let keys = self.keys.lock().unwrap_or_else(|p| p.into_inner());
            for (index, slug) in site.datasets.slugs().enumerate() {
                page_keys.add(dcat::page_of(site, index), slug, keys.get(slug));
            }
        }
        let mut to_write = BTreeSet::new();
        for (page, key) in (1..=pages).zip(page_keys.finish()) {
            let name = format!("dcat:{page}");
            let files: Vec<String> = (dcat::page_files(site, page).into_iter())
                .map(|(path, _)| path)
                .collect();
            let previous = key
                .as_ref()
                .and_then(|key| self.previous.get(&name).filter(|e| &e.key == key));
            if let Some(entry) = previous.filter(|e| e.files().eq(files.iter().map(String::as_str)))
            {
                if self.link(entry, writer) {
                    self.push(&name, entry, None);
                    continue;
                }
            }
            to_write.insert(page);
            if let Some(entry) = key.and_then(|key| WrittenFiles::new(key, &files, &[])) {
                self.push(&name, &entry, None);
            }
        }
        Pages::Only(to_write)
    }

    fn push(&self, slug: &str, entry: &WrittenFiles, record: Option<&[u8]>) {
        if let Some(recorded) = &self.recorded {
            let mut recorded = recorded.lock().unwrap_or_else(|p| p.into_inner());
            recorded.push(slug, entry, record);
        }
    }

    /// Records what a dataset wrote or linked (the entry [`Reuse::write_or_link`] gave), with its
    /// record when its CSV has a stamp that had settled before this build began.
    fn record(&self, slug: &str, entry: &WrittenFiles, record: &Record) {
        let settled = record
            .entry
            .csv_stamp
            .is_some_and(|stamp| stamp.older_than(SETTLED, self.started));
        let bytes = settled.then(|| serde_json::to_vec(record).ok()).flatten();
        self.push(slug, entry, bytes.as_deref());
    }

    /// Links every file of `entry` from the old output; false (and nothing left behind)
    /// when one cannot be had.
    fn link(&self, entry: &WrittenFiles, writer: &Writer) -> bool {
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
    /// its entry (with the digests of its files as written) and the manifest entry to
    /// [`Reuse::record`] for the next build, if it can have one.
    fn write_or_link(
        &self,
        site: &Site,
        renderer: &Renderer,
        dataset: &Dataset,
        writer: &Writer,
    ) -> (CatalogEntry, Option<WrittenFiles>) {
        let mut written = site.outputs.entry(&site.config, dataset, Vec::new());
        let kept = dataset.versions.as_ref().map_or(&[][..], |v| &v.kept);
        let key = self.key(site, (&written, kept), false);
        if let Some(key) = &key {
            let previous = self.previous.get(&*dataset.slug).filter(|e| &e.key == key);
            if let Some((entry, digests)) = previous.and_then(|e| Some((e, e.digests()?))) {
                if self.link(entry, writer) {
                    self.reused.fetch_add(1, Ordering::Relaxed);
                    self.remember_key(&dataset.slug, key);
                    written.digests = digests;
                    return (written, Some(entry.clone()));
                }
            }
        }
        let recorder = Recorder::new(writer.sink());
        let own = Writer::new(&recorder);
        written.digests = write::write_dataset_step(site, renderer, dataset, &own, None);
        let files = own.files();
        let problems = own.into_problems();
        let mut entry = None;
        if let (Some(key), true) = (key, problems.is_empty()) {
            // A dataset whose file names a manifest cannot hold is simply rendered next time.
            entry = WrittenFiles::new(key, &recorder.into_files(), &written.digests);
            if let Some(entry) = &entry {
                self.remember_key(&dataset.slug, &entry.key);
            }
        }
        writer.absorb(files, problems);
        (written, entry)
    }

    /// Loads dataset `slug` again (it was taken from its record earlier in this build, but
    /// its files could not be linked) and writes its files; a dataset that is gone or now
    /// has errors (edited during the build) is reported, not written.
    fn load_and_write(&self, site: &Site, slug: &str, renderer: &Renderer, writer: &Writer) {
        let loaded = crate::site::load_dataset(&site.root, slug, &site.config, None);
        let failed = |d: &Diagnostic| d.severity == Severity::Error;
        match loaded {
            Some(crate::dataset::Loaded {
                dataset: Some(full),
                problems,
                ..
            }) if !problems.iter().any(failed) => {
                self.write(site, renderer, full, writer, &problems);
            }
            _ => {
                let markdown = crate::layout::dataset_markdown(slug);
                let problem =
                    Diagnostic::error(markdown, "the file changed while the site was being built")
                        .with_hint("build again once the file is saved");
                writer.absorb(0, vec![problem]);
            }
        }
    }
}

/// `build`'s previous build: datasets recalled from their records and their files linked,
/// the others written (or linked when their key is the recorded one), everything recorded.
impl Previous for Reuse {
    fn records(&self) -> Option<std::fs::File> {
        self.records.as_ref()?.handle()
    }

    fn recall(&self, site: &Site, markdown_file: &Path) -> Option<Record> {
        let (record, key) = self.find(site, markdown_file)?;
        let slug = record.entry.slug.as_str();
        self.reused.fetch_add(1, Ordering::Relaxed);
        self.remember_key(slug, &key);
        let mut pending = self.pending_links.lock().unwrap_or_else(|p| p.into_inner());
        pending.push(slug.into());
        Some(record)
    }

    /// Writes or links; the dataset's record is kept for the next build.
    fn write(
        &self,
        site: &Site,
        renderer: &Renderer,
        full: Dataset,
        writer: &Writer,
        problems: &[Diagnostic],
    ) -> CatalogEntry {
        let (entry, manifest_entry) = self.write_or_link(site, renderer, &full, writer);
        drop(full);
        let record = Record {
            entry,
            problems: problems.to_vec(),
            at: None,
        };
        if let Some(manifest_entry) = manifest_entry {
            self.record(&record.entry.slug, &manifest_entry, &record);
        }
        record.entry
    }

    /// The key of the whole output ([`key::output_key`]) is the recorded one, and the
    /// output folder holds as many files as the previous build left: one deleted (or
    /// added) by hand since makes this build write them again.
    fn up_to_date(&self, site: &Site) -> Option<Whole> {
        let whole = self.previous_whole.as_ref()?;
        let key = self.output_key(site)?;
        if key != whole.key {
            return None;
        }
        let files = crate::output::hosts::file_count(&self.output).ok()?;
        (files == whole.size.files).then(|| whole.clone())
    }

    fn link_rest(&self, site: &Site, renderer: &Renderer, writer: &Writer) -> Pages {
        self.link_recalled(site, renderer, writer);
        self.link_dcat_pages(site, writer)
    }

    fn reused(&self) -> usize {
        self.reused.load(Ordering::Relaxed)
    }

    fn recalled(&self) -> usize {
        self.recalled.load(Ordering::Relaxed)
    }

    fn finish(
        self: Box<Self>,
        site: &Site,
        counts: (usize, usize),
        size: Option<&OutputSize>,
        marker: FileStamp,
    ) {
        let (pages, files) = counts;
        let whole = size.and_then(|size| {
            let key = self.output_key(site)?;
            let size = size.clone();
            Some(Whole {
                key,
                pages,
                files,
                size,
            })
        });
        let recorded = self
            .recorded
            .map(|r| r.into_inner().unwrap_or_else(|p| p.into_inner()))
            .and_then(spill::Spill::finish);
        if let Some(recorded) = recorded {
            let records = recorded.records();
            manifest::save(&self.root, &self.output, marker, &recorded, records, whole);
        }
    }
}

/// `check`'s previous build: unchanged datasets taken from their records (their warnings
/// with them); the others written into `check`'s sink; nothing linked or recorded.
pub(super) struct RecallOnly(Reuse);

impl Previous for RecallOnly {
    fn recall(&self, site: &Site, markdown_file: &Path) -> Option<Record> {
        self.0.find(site, markdown_file).map(|(record, _)| record)
    }

    fn recalled(&self) -> usize {
        self.0.recalled.load(Ordering::Relaxed)
    }
}
