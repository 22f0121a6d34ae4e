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
use crate::dataset::entry::CatalogEntry;
use crate::dataset::{Dataset, FileDigest};
use crate::diagnostics::Diagnostic;
use crate::layout;

use super::Site;

/// When an output's file is written again for a dataset that is written again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kept {
    /// Rendered from the dataset each time.
    Never,
    /// The table's own bytes (the CSV, its Parquet copy): written before the page and the
    /// metadata, which state their size and digest, and kept by `serve` when
    /// [`WriteContext::keep`] says the copy already there is still the file's content.
    WhenUnchanged,
}

/// How the DCAT catalog lists an output: one `dcat:Distribution` per dataset, with the
/// output's media type, its file's size and SHA-256.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Distribution {
    /// The node's fragment on the dataset page's URL (`#csv`, `#parquet`).
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

/// Whether the output already holds this dataset's CSV (and so its Parquet copy): `serve`
/// knows when the file's stamp has not moved since it last copied it, and a Markdown edit
/// then need not copy a large CSV again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CsvCopy {
    /// Copy it (every full build).
    Write,
    /// The copy from the last write is still the file's content, if the output still has
    /// a file of its size.
    KeepIfPresent,
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
/// what the page rendered anyway.
pub struct WriteContext<'a> {
    /// The site being written.
    pub site: &'a Site,
    /// The dataset whose outputs these are.
    pub dataset: &'a Dataset,
    /// Where they go.
    pub files: &'a dyn OutputFiles,
    /// Whether [`Kept::WhenUnchanged`] outputs may keep the copy already there.
    pub keep: CsvCopy,
    /// Files drawn with the page (the charts' SVG files, the citation files) as (path,
    /// text): drawn once for both.
    pub rendered: &'a [(String, String)],
}

/// One kind of per-dataset output file, declared once.
pub trait DatasetOutput: Send + Sync {
    /// The site-relative paths it writes for `dataset`, in order (none, one, or one per
    /// chart or kept version): also what is removed when they are no longer written.
    fn files(&self, dataset: &Dataset) -> Vec<String>;
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
    /// Whether its file is kept when unchanged or written every time.
    fn kept(&self) -> Kept {
        Kept::Never
    }
    /// Writes its files; returns the size and SHA-256 of the file as written when the
    /// catalogs state them (kept with the dataset so they need not be made again).
    fn write(&self, context: &WriteContext) -> Result<Option<FileDigest>, Diagnostic>;
    /// The size and SHA-256 of its file for `dataset` as written (the DCAT catalog and the
    /// Data Package state them); `None` when it writes none or does not say.
    fn digest(&self, _site: &Site, _dataset: &Dataset) -> Option<FileDigest> {
        None
    }
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

    /// Every file the outputs write for `dataset`.
    pub fn files(&self, dataset: &Dataset) -> Vec<String> {
        self.iter()
            .flat_map(|output| output.files(dataset))
            .collect()
    }

    /// The files each output writes for `dataset`, in the registry's order.
    pub fn files_per_output(&self, dataset: &Dataset) -> Vec<Vec<String>> {
        self.iter().map(|output| output.files(dataset)).collect()
    }

    /// `dataset`'s entry, its outputs having written `digests`.
    pub fn entry(&self, dataset: &Dataset, digests: Vec<FileDigest>) -> CatalogEntry {
        CatalogEntry::of(dataset, self.files_per_output(dataset), digests)
    }

    /// The outputs that are alternates of the CSV (`DatasetOutput::alternate`) with a file
    /// for `dataset`: each with its format name and file.
    pub fn alternates<'a>(
        &'a self,
        site: &'a Site,
        dataset: &'a Dataset,
    ) -> impl Iterator<Item = (&'a dyn DatasetOutput, &'static str, FileDigest)> + 'a {
        self.iter().filter_map(move |output| {
            let format = output.alternate()?;
            Some((output, format, output.digest(site, dataset)?))
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
    /// Streams the file from the CSV.
    pub make: fn(&mut dyn Read, &mut dyn Write) -> std::io::Result<()>,
}

impl DatasetOutput for Derived {
    fn files(&self, dataset: &Dataset) -> Vec<String> {
        vec![format!(
            "{}/{}{}",
            layout::DATA_DATASETS,
            dataset.slug,
            self.suffix
        )]
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
    fn write(&self, context: &WriteContext) -> Result<Option<FileDigest>, Diagnostic> {
        let path = self.files(context.dataset).remove(0);
        let bytes = self
            .bytes(context.dataset)
            .map_err(|e| write_problem(&path, e))?;
        context.files.put(&path, &bytes)?;
        Ok(Some(digest_of(path, &bytes)))
    }
    /// Made again from the CSV: the Data Package states it before it is recorded.
    fn digest(&self, _site: &Site, dataset: &Dataset) -> Option<FileDigest> {
        let bytes = self.bytes(dataset).ok()?;
        Some(digest_of(self.files(dataset).remove(0), &bytes))
    }
}

impl Derived {
    fn bytes(&self, dataset: &Dataset) -> std::io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        let csv = std::fs::File::open(&dataset.csv_path)?;
        (self.make)(&mut std::io::BufReader::new(csv), &mut bytes)?;
        Ok(bytes)
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
