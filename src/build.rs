//! The build pipeline: load and check the site, render every page, write into a staging
//! folder, and swap it into place only when everything succeeded. A [`Session`] keeps the
//! loaded site and parsed templates so `serve` can rebuild only what a change affects.

mod affected;
mod pages;
mod plan;
mod session;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::dataset::cache::ScanCache;
use crate::diagnostics::Diagnostics;
use crate::render::Renderer;
use crate::site;
pub use session::{RebuildReport, Session};

/// What to build and where.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// The site folder (holds site.toml).
    pub root: PathBuf,
    /// Where to write; `<root>/public` when not given.
    pub output: Option<PathBuf>,
    /// `YYYY-MM-DD` for datasets whose front matter gives no date (never the clock).
    pub date: Option<String>,
    /// Reuse the scans of unchanged large CSV files (`dataset::cache`); off with `--no-cache`.
    pub scan_cache: bool,
    /// Replace an existing output folder even when datapages did not write it (`--force`).
    pub force: bool,
}

impl BuildOptions {
    /// The scan cache this build reads and writes, if it uses one.
    pub fn scan_cache(&self) -> Option<ScanCache> {
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
pub struct BuildReport {
    pub pages: usize,
    pub datasets: usize,
    pub rows: u64,
    pub files: usize,
    pub elapsed: Duration,
    pub output: PathBuf,
    /// Warnings found along the way (errors stop the build).
    pub warnings: Diagnostics,
}

impl BuildReport {
    /// "Built 9 pages, 4 datasets (34 rows), 22 files into public in 41 ms".
    pub fn summary(&self) -> String {
        format!(
            "Built {} pages, {} datasets ({} rows), {} files into {} in {} ms",
            self.pages,
            self.datasets,
            self.rows,
            self.files,
            self.output.display(),
            self.elapsed.as_millis()
        )
    }
}

/// Runs every check of a build without writing anything.
pub fn check(root: &Path, scan_cache: bool) -> Diagnostics {
    let cache = scan_cache.then(|| ScanCache::in_site(root));
    let (site, mut diagnostics) = site::load(root, cache.as_ref());
    match Renderer::new(root) {
        Err(problems) => diagnostics.extend(problems),
        Ok(renderer) => pages::check_rendering(site, &renderer, &mut diagnostics),
    }
    diagnostics
}

/// Builds the site. On any error the previous output is left exactly as it was.
pub fn build(options: &BuildOptions) -> Result<BuildReport, Diagnostics> {
    Session::start(options, |staging| staging.commit()).map(|(_, report)| report)
}
