//! The registry of a dataset's own output files (its downloads, metadata, charts and
//! citations; not its pages): each kind is declared once, as one [`DatasetOutput`], and the
//! writer, the dependency rules (`incremental`), the DCAT catalog, the Data Package,
//! JSON-LD and Croissant alternates and the prose-link check read the [`Registry`] the
//! site carries. A new per-dataset format is one module implementing the trait and one
//! entry in the list (`write::built_in_outputs`).

use std::io::{Read, Write};
use std::path::Path;
use std::sync::Arc;

use crate::checksum::Sha256;
use crate::config::{DataPlace, SiteConfig};
use crate::dataset::entry::CatalogEntry;
use crate::dataset::{Dataset, FileDigest};
use crate::diagnostics::Diagnostic;
use crate::layout;

use super::Site;

/// When an output is written: the page and the metadata state the size and SHA-256 of the
/// table's own files, so those are written first and their digests reach the rest as a
/// value ([`WriteContext::written`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The table's bytes or a copy of them in another format (the CSV, a typed copy, a
    /// file made from the CSV): written before the page and the metadata.
    Table,
    /// Files that describe or show the table (metadata, charts, citations): written after
    /// the page, from the digests of the [`Stage::Table`] files.
    Described,
}

/// How the DCAT catalog lists an output: one `dcat:Distribution` per dataset, with the
/// output's media type, its file's size and SHA-256.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Distribution {
    /// The node's fragment on the dataset page's URL (`#csv`, `#datapackage`).
    pub fragment: &'static str,
    /// The node's title, before the file's name.
    pub title: &'static str,
    /// What the file is, in a sentence.
    pub description: &'static str,
    /// The EU file-type vocabulary's name (`CSV`, `JSON_LD`).
    pub file_type: &'static str,
    /// The standard the file follows (`dct:conformsTo`), if any.
    pub conforms_to: Option<&'static str>,
}

/// How the dataset page offers an output's file beside the CSV: in the download block
/// (`<label>: <a>name</a> · size · SHA-256`) and on the row pages ("Download the CSV or
/// <a>phrase</a>").
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Download {
    /// The class names' stem (`download-<key>`, `<key>-sha256`).
    pub key: &'static str,
    /// Before the link: "Typed copy".
    pub label: &'static str,
    /// The link's text in the download block.
    pub name: &'static str,
    /// The link's text on the row pages, after "Download the CSV or".
    pub phrase: &'static str,
    /// Where it comes among the downloads (lowest first).
    pub order: u8,
}

/// What `serve` wrote for a dataset whose CSV has not changed since: the dataset then and
/// the files its outputs wrote. An output whose files still hold
/// ([`DatasetOutput::still_holds`]) keeps them, where the output still has files of the
/// sizes recorded.
#[derive(Clone, Copy)]
pub struct Earlier<'a> {
    pub dataset: &'a Dataset,
    pub written: &'a [FileDigest],
}

/// Where an output writes its files (the write phase's `Writer`): each call counts the
/// file and reports a failure located at it.
pub trait OutputFiles: Sync {
    /// Writes `bytes` to site-relative `path`.
    fn put(&self, path: &str, bytes: &[u8]) -> Result<(), Diagnostic>;
    /// Copies the file `from` to `path` byte for byte.
    fn put_copy(&self, from: &Path, path: &str) -> Result<(), Diagnostic>;
    /// Streams `path`'s bytes from `write`; its error is the writer's own.
    fn put_stream(
        &self,
        path: &str,
        write: &mut dyn FnMut(&mut (dyn Write + Send)) -> std::io::Result<()>,
    ) -> std::io::Result<()>;
    /// The size of a file already at `path` (from an earlier write).
    fn existing_len(&self, path: &str) -> Option<u64>;
    /// Whether nothing written is kept (`check`).
    fn keeps_nothing(&self) -> bool;
}

/// What writing one dataset's outputs shares: the site, the dataset, where files go, and
/// what was made before.
pub struct WriteContext<'a> {
    /// The site being written.
    pub site: &'a Site,
    /// The dataset whose outputs these are.
    pub dataset: &'a Dataset,
    /// Where they go.
    pub files: &'a dyn OutputFiles,
    /// The [`Stage::Table`] files written for the dataset, with their sizes and SHA-256
    /// (empty while those are written).
    pub written: &'a [FileDigest],
    /// Files drawn with the page (the charts' SVG files, the citation files) as (path,
    /// text): drawn once for both.
    pub rendered: &'a [(String, String)],
}

/// One kind of per-dataset output file, declared once: whether it is on, its files, how
/// the page, the catalogs and `serve` treat them, and how it writes them.
pub trait DatasetOutput: Send + Sync {
    /// Whether it writes its files for `dataset` (on unless its setting says otherwise).
    fn is_on(&self, _config: &SiteConfig, _dataset: &Dataset) -> bool {
        true
    }
    /// Its one file for the dataset `slug`, site-relative, for an output that writes one
    /// file named by the slug (what catalog.json, the page and the link checks name).
    fn file_for(&self, _slug: &str) -> Option<String> {
        None
    }
    /// The site-relative paths it writes for `dataset` when on, in order (none, one, or
    /// one per chart or kept version): also what is removed when they are no longer
    /// written. [`DatasetOutput::file_for`] by default.
    fn files(&self, dataset: &Dataset) -> Vec<String> {
        self.file_for(&dataset.slug).into_iter().collect()
    }
    /// Whether its files are big files of the table (the CSV, a typed copy, the kept
    /// versions), which a site with `data_url` publishes there instead of beside the
    /// pages: `build` writes them into the data folder, and every link and metadata URL
    /// to them starts with `data_url` ([`crate::config::DataPlace::file_url`]).
    fn elsewhere(&self) -> bool {
        false
    }
    /// Whether site-relative `path` is one of its files for the dataset `slug` (its
    /// [`DatasetOutput::file_for`] by default).
    fn owns(&self, slug: &str, path: &str) -> bool {
        self.file_for(slug).as_deref() == Some(path)
    }
    /// The media type of its files.
    fn media_type(&self) -> &'static str;
    /// How the DCAT catalog lists its file, if at all.
    fn distribution(&self) -> Option<&Distribution> {
        None
    }
    /// The format name under which the Data Package's resource lists its file as an
    /// alternate of the CSV (`datapages:<name>`), if it does.
    fn alternate(&self) -> Option<&'static str> {
        None
    }
    /// The media type under which Croissant lists its file, where mlcroissant reads
    /// another name than the registered one.
    fn croissant_format(&self) -> &'static str {
        self.media_type()
    }
    /// How a description names its file, if it is a typed copy of the table (an
    /// [`DatasetOutput::alternate`]): readers that cannot state the CSV's reading options
    /// (Croissant's record set) read the copy instead.
    fn typed_copy(&self) -> Option<&'static str> {
        None
    }
    /// How the page offers its file for download beside the CSV, if it does.
    fn download(&self) -> Option<&Download> {
        None
    }
    /// The key under which catalog.json gives its file's URL, if it does.
    fn catalog_key(&self) -> Option<&'static str> {
        None
    }
    /// The front-matter and site.toml key that turns it off, if one does (named by the
    /// check of a link to its file where it is off).
    fn setting(&self) -> Option<&'static str> {
        None
    }
    /// When it is written.
    fn stage(&self) -> Stage {
        Stage::Described
    }
    /// Whether its files written for `before` are still its files for `now`, whose CSV is
    /// the same file unchanged (`serve` then keeps them).
    fn still_holds(&self, _before: &Dataset, _now: &Dataset) -> bool {
        false
    }
    /// Writes its files; returns the size and SHA-256 of those the page and the catalogs
    /// state (kept with the dataset so they need not be made again).
    fn write(&self, context: &WriteContext) -> Result<Vec<FileDigest>, Diagnostic>;
}

/// Every per-dataset output of a build, in the order the DCAT catalog lists them.
#[derive(Clone, Default)]
pub struct Registry(Arc<[Arc<dyn DatasetOutput>]>);

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let media: Vec<&str> = self.iter().map(|output| output.media_type()).collect();
        f.debug_tuple("Registry").field(&media).finish()
    }
}

impl Registry {
    pub fn new(outputs: Vec<Arc<dyn DatasetOutput>>) -> Registry {
        Registry(outputs.into())
    }

    /// This registry with `output` after the others.
    pub fn with(&self, output: Arc<dyn DatasetOutput>) -> Registry {
        let mut all = self.0.to_vec();
        all.push(output);
        Registry::new(all)
    }

    pub fn iter(&self) -> impl Iterator<Item = &dyn DatasetOutput> + '_ {
        self.0.iter().map(|output| &**output)
    }

    /// The files each output writes for `dataset`, in the registry's order (none for an
    /// output that is off).
    pub fn files_per_output(&self, config: &SiteConfig, dataset: &Dataset) -> Vec<Vec<String>> {
        self.iter()
            .map(|output| match output.is_on(config, dataset) {
                true => output.files(dataset),
                false => Vec::new(),
            })
            .collect()
    }

    /// Every file the outputs write for `dataset`.
    pub fn files(&self, config: &SiteConfig, dataset: &Dataset) -> Vec<String> {
        self.files_per_output(config, dataset).concat()
    }

    /// `dataset`'s entry, its outputs having written `written`.
    pub fn entry(
        &self,
        config: &SiteConfig,
        dataset: &Dataset,
        written: Vec<FileDigest>,
    ) -> CatalogEntry {
        CatalogEntry::of(dataset, self.files_per_output(config, dataset), written)
    }

    /// The outputs that are alternates of the CSV (`DatasetOutput::alternate`) with a file
    /// among `written`: each with its format name and file.
    pub fn alternates<'a>(
        &'a self,
        slug: &'a str,
        written: &'a [FileDigest],
    ) -> impl Iterator<Item = (&'a dyn DatasetOutput, &'static str, &'a FileDigest)> + 'a {
        self.iter().filter_map(move |output| {
            let format = output.alternate()?;
            Some((output, format, written_file(output, slug, written)?))
        })
    }

    /// Each output with its DCAT distribution and the recorded size and SHA-256 of its
    /// file for `entry`, for the outputs that have both (one not written yet is left out).
    pub fn distributions<'a>(
        &'a self,
        entry: &'a CatalogEntry,
    ) -> impl Iterator<Item = (&'a dyn DatasetOutput, &'a Distribution, &'a FileDigest)> + 'a {
        self.iter()
            .zip(&entry.files)
            .filter_map(move |(output, files)| {
                let kind = output.distribution()?;
                Some((output, kind, entry.digest(files.first()?)?))
            })
    }

    /// The downloads the page offers beside the CSV, in their order: each output with a
    /// [`Download`] and a file among `written`.
    pub fn downloads<'a>(
        &'a self,
        slug: &str,
        written: &'a [FileDigest],
    ) -> Vec<(&'a Download, &'a FileDigest)> {
        let mut all: Vec<_> = self
            .iter()
            .filter_map(|output| Some((output.download()?, written_file(output, slug, written)?)))
            .collect();
        all.sort_by_key(|(download, _)| download.order);
        all
    }

    /// The downloads beside the CSV that are on for `dataset` (the row pages link them,
    /// written or not yet): each with its file.
    pub fn offered<'a>(
        &'a self,
        config: &SiteConfig,
        dataset: &Dataset,
    ) -> Vec<(&'a Download, String)> {
        let mut all: Vec<_> = self
            .iter()
            .filter(|output| output.is_on(config, dataset))
            .filter_map(|output| Some((output.download()?, output.file_for(&dataset.slug)?)))
            .collect();
        all.sort_by_key(|(download, _)| download.order);
        all
    }

    /// The absolute URL of `path`, a file of the dataset `slug` published at `place`: under its `data_url` when the
    /// output that writes it publishes it elsewhere ([`DatasetOutput::elsewhere`]), else
    /// under `base_url`. The one place that decides which base a file's URL has.
    pub fn url_of(&self, place: &DataPlace, slug: &str, path: &str) -> String {
        match self.iter().any(|o| o.elsewhere() && o.owns(slug, path)) {
            true => place.file_url(path),
            false => place.site_url(path),
        }
    }

    /// Which outputs write files for the dataset of `entry` ([`OutputsOn`]).
    pub fn on_for(entry: &CatalogEntry) -> OutputsOn {
        let on = entry.files.iter().enumerate();
        OutputsOn(
            on.filter(|(n, files)| *n < 64 && !files.is_empty())
                .fold(0, |on, (n, _)| on | 1 << n),
        )
    }

    /// The outputs with a catalog.json key that are on in `on`, for the dataset `slug`:
    /// each key with its file.
    pub fn catalog_files<'a>(
        &'a self,
        slug: &'a str,
        on: OutputsOn,
    ) -> impl Iterator<Item = (&'static str, String)> + 'a {
        self.iter().enumerate().filter_map(move |(n, output)| {
            let key = output.catalog_key()?;
            match on.contains(n) {
                true => Some((key, output.file_for(slug)?)),
                false => None,
            }
        })
    }

    /// The output whose one file for the dataset `slug` is `path`, and whether it is on
    /// in `on`.
    pub fn file_owner(
        &self,
        slug: &str,
        path: &str,
        on: OutputsOn,
    ) -> Option<(&dyn DatasetOutput, bool)> {
        self.iter().enumerate().find_map(|(n, output)| {
            (output.file_for(slug)? == path).then_some((output, on.contains(n)))
        })
    }
}

/// Which outputs of the registry write files for one dataset, by their place (the first
/// 64): what listings read without the dataset's entry.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OutputsOn(u64);

impl OutputsOn {
    pub fn contains(&self, n: usize) -> bool {
        n < 64 && self.0 & (1 << n) != 0
    }
}

/// The recorded file of `output` for the dataset `slug` among `written`.
fn written_file<'a>(
    output: &dyn DatasetOutput,
    slug: &str,
    written: &'a [FileDigest],
) -> Option<&'a FileDigest> {
    let path = output.file_for(slug)?;
    written.iter().find(|file| file.path == path)
}

/// The failure to write site-relative `path`, for people.
pub fn write_problem(path: &str, error: std::io::Error) -> Diagnostic {
    Diagnostic::error(path, format!("cannot write the output file: {error}"))
        .with_hint("check free disk space and permissions of the output folder")
}

/// A file made from a dataset's CSV by a streaming function, at
/// `data/datasets/<slug><suffix>`: the shape of a new format for tests of the registry
/// (`BuildOptions::with_output`).
pub struct Derived {
    /// After the slug: `.txt`, `.summary.json`.
    pub suffix: &'static str,
    /// Its media type, as the catalogs state it.
    pub media_type: &'static str,
    /// How the DCAT catalog lists it.
    pub distribution: Option<Distribution>,
    /// The Data Package's alternate name for it.
    pub alternate: Option<&'static str>,
    /// How the page offers it.
    pub download: Option<Download>,
    /// The key catalog.json gives its URL under.
    pub catalog_key: Option<&'static str>,
    /// Streams the file from the CSV.
    pub make: fn(&mut dyn Read, &mut dyn Write) -> std::io::Result<()>,
}

impl DatasetOutput for Derived {
    fn file_for(&self, slug: &str) -> Option<String> {
        Some(format!("{}/{slug}{}", layout::DATA_DATASETS, self.suffix))
    }
    /// Made from the table, as big as it: published with it.
    fn elsewhere(&self) -> bool {
        true
    }
    fn media_type(&self) -> &'static str {
        self.media_type
    }
    fn distribution(&self) -> Option<&Distribution> {
        self.distribution.as_ref()
    }
    fn alternate(&self) -> Option<&'static str> {
        self.alternate
    }
    fn download(&self) -> Option<&Download> {
        self.download.as_ref()
    }
    fn catalog_key(&self) -> Option<&'static str> {
        self.catalog_key
    }
    /// Made from the CSV, before the metadata that states it.
    fn stage(&self) -> Stage {
        Stage::Table
    }
    fn write(&self, context: &WriteContext) -> Result<Vec<FileDigest>, Diagnostic> {
        let dataset = context.dataset;
        let path = format!("{}/{}{}", layout::DATA_DATASETS, dataset.slug, self.suffix);
        let mut bytes = Vec::new();
        let made = std::fs::File::open(&dataset.csv_path)
            .and_then(|csv| (self.make)(&mut std::io::BufReader::new(csv), &mut bytes));
        made.map_err(|e| write_problem(&path, e))?;
        context.files.put(&path, &bytes)?;
        Ok(vec![digest_of(path, &bytes)])
    }
}

/// The size and digest of the file at site-relative `path` holding `bytes`.
pub fn digest_of(path: String, bytes: &[u8]) -> FileDigest {
    FileDigest {
        path,
        bytes: bytes.len() as u64,
        sha256: Sha256::of(bytes),
    }
}
