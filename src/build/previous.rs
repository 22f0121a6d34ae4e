//! What a build takes from the build before it, as one interface the pipeline calls the
//! same way for every command: [`Previous`]. `build` has the previous output and its
//! records (`reuse::Reuse`: recall, link, record); `check` takes unchanged datasets from
//! the records only (`reuse::RecallOnly`); serve's first build, and a build with a data
//! folder, have nothing to take ([`Fresh`]): every default here is that no-op.

use std::path::Path;

use super::pages::Pages;
use super::reuse::manifest::Whole;
use super::reuse::record::Record;
use crate::dataset::entry::CatalogEntry;
use crate::dataset::stamp::FileStamp;
use crate::dataset::Dataset;
use crate::diagnostics::Diagnostic;
use crate::output::hosts::OutputSize;
use crate::render::Renderer;
use crate::site::Site;
use crate::write::{self, Writer};

/// The previous build, as far as this one can use it. Shared by the load's threads.
pub(super) trait Previous: Sync {
    /// The dataset of `markdown_file` from its record, when the record still holds (its
    /// files, if any, are linked by [`Previous::link_rest`]); `None`: load it.
    fn recall(&self, _site: &Site, _markdown_file: &Path) -> Option<Record> {
        None
    }

    /// Writes the files of `full`, loaded with `problems` (or links them from the previous
    /// output); returns its entry, with the digests of its files.
    fn write(
        &self,
        site: &Site,
        renderer: &Renderer,
        full: Dataset,
        writer: &Writer,
        _problems: &[Diagnostic],
    ) -> CatalogEntry {
        let digests = write::write_dataset_step(site, renderer, &full, writer, None);
        site.outputs.entry(&site.config, &full, digests)
    }

    /// The previous build's records file, which recalled entries are read back from.
    fn records(&self) -> Option<std::fs::File> {
        None
    }

    /// The previous output's totals when it holds exactly what this build would write
    /// (then nothing is written). Call once the site is loaded.
    fn up_to_date(&self, _site: &Site) -> Option<Whole> {
        None
    }

    /// Once every dataset is loaded and written: links the files of the recalled ones;
    /// returns the DCAT catalog's pages that must still be written.
    fn link_rest(&self, _site: &Site, _renderer: &Renderer, _writer: &Writer) -> Pages {
        Pages::All
    }

    /// Datasets whose files were linked rather than rendered.
    fn reused(&self) -> usize {
        0
    }

    /// Datasets taken from their records rather than loaded.
    fn recalled(&self) -> usize {
        0
    }

    /// Records what this build wrote for the next one, once its output is in place
    /// (`marker`: the identity of its marker file) and measured (`size`).
    fn finish(
        self: Box<Self>,
        _site: &Site,
        _counts: (usize, usize),
        _size: Option<&OutputSize>,
        _marker: FileStamp,
    ) {
    }
}

/// No previous build to take from: every dataset loaded and written, nothing recorded.
pub(super) struct Fresh;

impl Previous for Fresh {}
