//! The build pipeline: load and check the site, render every page, write into a staging
//! folder, and swap it into place only when everything succeeded. A [`Session`] keeps the
//! loaded site and parsed templates so `serve` can rebuild only what a change affects.

mod pages;
mod pipeline;
mod plan;
mod previous;
mod reuse;
mod rewrite;
mod session;
mod unbacked;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::dataset::cache::ScanCache;
use crate::diagnostics::{Diagnostic, Diagnostics, Error};
use crate::site;
use pipeline::Mode;
pub use session::{RebuildReport, Session};
pub use unbacked::typed_by_hand_line;

/// What to build and where: `BuildOptions::new(root)`, then the setters for the rest.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct BuildOptions {
    /// The site folder (holds site.toml).
    pub(crate) root: PathBuf,
    /// Where to write; `<root>/public` when not given.
    pub(crate) output: Option<PathBuf>,
    /// `YYYY-MM-DD` for datasets whose front matter gives no date (never the clock).
    pub(crate) date: Option<String>,
    /// Reuse the scans of unchanged large CSV files (`dataset::cache`); off with `--no-cache`.
    pub(crate) scan_cache: bool,
    /// Replace an existing output folder even when datapages did not write it (`--force`).
    pub(crate) force: bool,
    /// Replaces site.toml's `base_url` for this build (`--base-url`, deploy previews).
    pub(crate) base_url: Option<String>,
    /// Builds `draft = true` datasets too (`--drafts`; `serve` always does).
    pub(crate) drafts: bool,
    /// Every per-dataset output file kind to write (the built-in ones unless a test adds one).
    pub(crate) outputs: crate::site::outputs::Registry,
    /// Where the big files go when site.toml has `data_url`; `<root>/public-data` when not
    /// given (`--data-output`).
    pub(crate) data_output: Option<PathBuf>,
    /// Keeps the big files beside the pages whatever `data_url` says (`serve`).
    pub(crate) data_beside: bool,
}

impl BuildOptions {
    /// Builds the site in `root` into `<root>/public`, with the scan cache, never replacing
    /// a folder datapages did not write.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        BuildOptions {
            root: root.into(),
            output: None,
            date: None,
            scan_cache: true,
            force: false,
            base_url: None,
            drafts: false,
            outputs: crate::write::built_in_outputs(),
            data_output: None,
            data_beside: false,
        }
    }

    /// Writes the big files of a site with `data_url` into `folder` instead of
    /// `<root>/public-data`.
    pub fn data_output(mut self, folder: impl Into<PathBuf>) -> Self {
        self.data_output = Some(folder.into());
        self
    }

    /// Keeps the big files beside the pages, linked there, whatever `data_url` says:
    /// `serve`, whose preview then works without the data host.
    pub fn data_beside(mut self, beside: bool) -> Self {
        self.data_beside = beside;
        self
    }

    /// The folder the big files of a site with `data_url` go to.
    pub fn data_output_dir(&self) -> PathBuf {
        self.data_output
            .clone()
            .unwrap_or_else(|| self.root.join("public-data"))
    }

    /// Uses `base_url` instead of site.toml's for absolute URLs (checked the same way).
    pub fn base_url(mut self, base_url: impl Into<String>) -> Self {
        self.base_url = Some(base_url.into());
        self
    }

    /// Adds a per-dataset output made from each dataset's CSV, after the built-in ones:
    /// the registry's extension point, for tests of it.
    #[doc(hidden)]
    pub fn with_output(mut self, output: crate::site::outputs::Derived) -> Self {
        self.outputs = self.outputs.with(Arc::new(output));
        self
    }

    /// Whether `draft = true` datasets are built (off by default; `serve` turns it on).
    pub fn drafts(mut self, drafts: bool) -> Self {
        self.drafts = drafts;
        self
    }

    /// What the site load needs of these options.
    pub(crate) fn site_options(&self) -> site::LoadOptions {
        site::LoadOptions {
            base_url: self.base_url.clone(),
            drafts: self.drafts,
            date: self.date.clone(),
            outputs: self.outputs.clone(),
            data_beside: self.data_beside,
        }
    }

    /// Writes the site into `output` instead of `<root>/public`.
    pub fn output(mut self, output: impl Into<PathBuf>) -> Self {
        self.output = Some(output.into());
        self
    }

    /// The date (`YYYY-MM-DD`) of datasets whose front matter gives none.
    pub fn date(mut self, date: impl Into<String>) -> Self {
        self.date = Some(date.into());
        self
    }

    /// Whether to reuse the scans of unchanged large CSV files (on by default).
    pub fn scan_cache(mut self, scan_cache: bool) -> Self {
        self.scan_cache = scan_cache;
        self
    }

    /// Whether to replace an output folder that datapages did not write (off by default).
    pub fn force(mut self, force: bool) -> Self {
        self.force = force;
        self
    }

    /// The site folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The scan cache this build reads and writes, if it uses one.
    pub(crate) fn active_scan_cache(&self) -> Option<ScanCache> {
        self.scan_cache.then(|| ScanCache::in_site(&self.root))
    }

    /// The output folder this build writes.
    pub fn output_dir(&self) -> PathBuf {
        self.output
            .clone()
            .unwrap_or_else(|| self.root.join("public"))
    }
}

/// What a successful build did, for the summary line.
#[derive(Debug)]
#[non_exhaustive]
pub struct BuildReport {
    /// HTML pages written.
    pub pages: usize,
    /// Dataset pages among them.
    pub datasets: usize,
    /// Rows of all the datasets' CSV files.
    pub rows: u64,
    /// Files written, pages included.
    pub files: usize,
    /// How long the build took.
    pub elapsed: Duration,
    /// The output folder.
    pub output: PathBuf,
    /// Datasets whose files were linked from the previous output, not rendered again.
    pub reused: usize,
    /// Datasets among `reused` that were not even loaded: their Markdown and CSV were
    /// those of the previous build, which left what listings need of them in a record.
    pub recalled: usize,
    /// Nothing was written: the output already held what this build would write (every
    /// input the key of the whole output covers was unchanged).
    pub up_to_date: bool,
    /// Warnings found along the way (errors stop the build): of each warning (same
    /// message and hint), the first places `build` shows, and a count of all
    /// ([`Diagnostics::folding`]; `check` keeps every one).
    pub warnings: Diagnostics,
    /// Numbers the datasets' prose types by hand (not quoted from a cell, not listed under
    /// `numbers_not_data`): `check --strict` lists each.
    pub typed_by_hand: usize,
    /// The output folder measured once the build is in place (`build` only): files,
    /// bytes, the largest files, and those over a host's per-file limit.
    pub output_size: Option<crate::output::hosts::OutputSize>,
}

impl BuildReport {
    /// "Output: 22 files, 150.3 kB; largest data/datasets/x.csv (60.1 MB)", and the
    /// hosts' limits it breaks (`check` names the files and says what to do).
    pub fn output_lines(&self) -> Vec<String> {
        let Some(size) = &self.output_size else {
            return Vec::new();
        };
        let mut lines = vec![format!("Output: {}", size.summary())];
        let broken: Vec<String> = size
            .broken()
            .iter()
            .map(|(limit, files)| match files.len() {
                0 => format!("{}' {}", limit.host, limit.stated),
                1 => format!("{}' {} (1 file)", limit.host, limit.stated),
                n => format!("{}' {} ({n} files)", limit.host, limit.stated),
            })
            .collect();
        if !broken.is_empty() {
            lines.push(format!(
                "Over {}; `datapages check` names the files and what to do",
                broken.join(", ")
            ));
        }
        lines
    }

    /// "Built 9 pages, 4 datasets (34 rows), 22 files into public in 41 ms", with "(3
    /// datasets unchanged, linked)" before "in" when some were reused; "Up to date: 9
    /// pages, … in public, nothing changed since the last build (checked in 3 ms)" when
    /// nothing was written.
    pub fn summary(&self) -> String {
        let counts = format!(
            "{} pages, {} datasets ({} rows), {} files",
            self.pages, self.datasets, self.rows, self.files
        );
        let (output, ms) = (self.output.display(), self.elapsed.as_millis());
        if self.up_to_date {
            return format!(
                "Up to date: {counts} in {output}, nothing changed since the last build (checked in {ms} ms)"
            );
        }
        let reused = match self.reused {
            0 => String::new(),
            n => format!(" ({n} datasets unchanged, linked)"),
        };
        format!("Built {counts} into {output}{reused} in {ms} ms")
    }

    /// "12 numbers typed by hand; run `datapages check --strict` to list them", when the
    /// prose types any.
    pub fn typed_by_hand_line(&self) -> Option<String> {
        typed_by_hand_line(self.typed_by_hand)
    }
}

/// What a check found that does not stop a build.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct CheckReport {
    /// Warnings: a build would succeed, but `check --strict` fails.
    pub warnings: Diagnostics,
    /// The warnings about numbers the prose types by hand, each with the reference to
    /// paste when a cell equals it: `check --strict` lists them, `check` counts them.
    pub typed_by_hand: Diagnostics,
    /// Datasets taken from the records of the last build into the default output folder
    /// (their Markdown, CSV and everything their pages depend on unchanged since), not
    /// loaded and rendered again.
    pub recalled: usize,
}

impl CheckReport {
    /// "3 datasets unchanged since the last build: checked from its records", when some
    /// were ([`CheckReport::recalled`]).
    pub fn recalled_line(&self) -> Option<String> {
        (self.recalled > 0).then(|| {
            format!(
                "{} {} unchanged since the last build: checked from its records",
                self.recalled,
                crate::diagnostics::plural(self.recalled, "dataset", "datasets")
            )
        })
    }
}

/// Runs every check of a build, rendering every page into a sink that keeps nothing, so
/// whatever `build` rejects `check` rejects (`force` is not used). A dataset unchanged
/// since the last build into `output` (same key) is taken from that build's record, its
/// warnings with it, instead of being loaded and rendered again. A site with
/// errors is an [`Error::Problems`] holding its warnings too, in the order they are shown;
/// warnings alone are not a failure, so they come back in the report.
pub fn check(options: &BuildOptions) -> Result<CheckReport, Error> {
    let built = pipeline::run(options, Mode::Check, |_| Ok(())).map_err(Error::Problems)?;
    let mut warnings = built.report.warnings;
    warnings.extend(host_warnings(options, &built.site));
    let mut typed_by_hand = Diagnostics::new();
    typed_by_hand.extend(unbacked::check(&options.root, &built.site));
    typed_by_hand.sort();
    Ok(CheckReport {
        warnings,
        typed_by_hand,
        recalled: built.report.recalled,
    })
}

/// The hosts' limits the output breaks (`output::hosts`): those of the last build's output
/// folder when there is one, else those of the CSV files published beside the pages (each
/// copied into the output as it is). A file of a dataset is located at its Markdown file.
fn host_warnings(options: &BuildOptions, site: &crate::site::Site) -> Vec<Diagnostic> {
    use crate::output::hosts;
    let output = options.output_dir();
    let size = match output.is_dir() {
        true => hosts::measure(&output).unwrap_or_default(),
        false => hosts::OutputSize {
            over: site
                .datasets
                .summaries()
                .filter(|d| !d.data_place(&site.config).elsewhere())
                .map(|d| (crate::layout::urls::csv_file(&d.slug), d.bytes))
                .filter(|(_, bytes)| *bytes > hosts::smallest_file_limit())
                .collect(),
            ..hosts::OutputSize::default()
        },
    };
    // A dataset's files and pages are named by its slug, up to a dot (slugs have none).
    let locate = |name: &str| {
        let slug = match name.strip_prefix("data/datasets/") {
            Some(file) => file.split(['.', '/']).next()?,
            None => name.strip_prefix("datasets/")?.split('/').next()?,
        };
        let summary = site.datasets.summary(site.datasets.position(slug)?);
        Some((summary.markdown_path.clone(), summary.slug.to_string()))
    };
    let shown = output.strip_prefix(&options.root).unwrap_or(&output);
    hosts::warnings(&size, shown, &site.outputs, &locate)
}

/// Builds the site. On any error the previous output is left exactly as it was.
pub fn build(options: &BuildOptions) -> Result<BuildReport, Error> {
    pipeline::run(options, Mode::Build, |staging| staging.commit())
        .map(|built| built.report)
        .map_err(Error::Problems)
}
