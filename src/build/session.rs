//! A loaded, rendered site kept between builds, so `serve` rebuilds only what a change
//! affects: templates or site.toml rebuild everything through staging; other changes
//! re-render the affected outputs in place.

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::pipeline::{self, Mode};
use super::{plan, rewrite, BuildOptions, BuildReport};
use crate::dataset::{Dataset, FileDigest};
use crate::diagnostics::{Diagnostic, Diagnostics, Error};
use crate::incremental::Change;
use crate::layout;
use crate::output::{LiveDir, Staging};
use crate::render::Renderer;
use crate::site::Site;
use crate::write::Writer;

/// What an incremental rebuild did, for the one-line terminal report.
#[derive(Debug, Clone)]
pub struct RebuildReport {
    /// The source files that changed, as the user knows them.
    pub changed: Vec<String>,
    /// Whether everything was rebuilt (templates or site.toml changed).
    pub full: bool,
    /// HTML pages rendered.
    pub pages: usize,
    /// Files written or removed.
    pub files: usize,
    /// Site-relative URL paths whose content changed (`/datasets/x/`, `/style.css`), for
    /// live reload; empty with `full`.
    pub urls: Vec<String>,
    /// How long the rebuild took.
    pub elapsed: Duration,
    /// Figures of the prose whose text changed ("slug headline: 10,366 -> 10,412").
    pub figures: Vec<String>,
    /// Warnings of the whole site after the rebuild (errors make it fail).
    pub warnings: Diagnostics,
}

impl RebuildReport {
    /// "content/datasets/x.md changed: re-rendered 5 pages (9 files) in 12 ms".
    pub fn summary(&self) -> String {
        let what = if self.full {
            "rebuilt everything"
        } else {
            "re-rendered"
        };
        let figures = match self.figures.is_empty() {
            true => String::new(),
            false => format!("; figures: {}", self.figures.join(", ")),
        };
        format!(
            "{} changed: {what} {} pages ({} files) in {} ms{figures}",
            self.changed.join(", "),
            self.pages,
            self.files,
            self.elapsed.as_millis()
        )
    }
}

/// A loaded, rendered site that can be rebuilt in part when its sources change.
pub struct Session {
    pub(super) options: BuildOptions,
    pub(super) site: Site,
    pub(super) renderer: Renderer,
    /// Problems of each source file as of its last load (errors and warnings), so every
    /// rebuild reports the state of the whole site, not just of the last edit.
    pub(super) file_problems: BTreeMap<PathBuf, Vec<Diagnostic>>,
    /// Changes whose rebuild failed; retried with the next change.
    pub(super) pending: BTreeSet<Change>,
}

impl Session {
    /// A full build; `commit` moves the finished staging folder into place (serve takes a
    /// lock around it so no request sees the swap).
    pub fn start(
        options: &BuildOptions,
        commit: impl FnOnce(Staging) -> io::Result<()>,
    ) -> Result<(Session, BuildReport), Error> {
        Session::start_located(options, commit).map_err(Error::Problems)
    }

    /// [`Session::start`] with the problems as they are, for serve's error overlay.
    pub(crate) fn start_located(
        options: &BuildOptions,
        commit: impl FnOnce(Staging) -> io::Result<()>,
    ) -> Result<(Session, BuildReport), Diagnostics> {
        // The preview links the big files where it serves them, beside the pages.
        let options = &options.clone().data_beside(true);
        let built = pipeline::run(options, Mode::Serve, commit)?;
        // Only problems of single files are kept: those of the site as a whole are
        // recomputed by every rebuild.
        let mut file_problems = BTreeMap::new();
        plan::record(&mut file_problems, built.file_problems);
        let session = Session {
            options: options.clone(),
            site: built.site,
            renderer: built.renderer,
            file_problems,
            pending: BTreeSet::new(),
        };
        Ok((session, built.report))
    }

    /// The changes not built yet (those of a failed rebuild, kept for the next one), each
    /// as the file it names: serve shows the warnings of these files only.
    pub(crate) fn pending_files(&self) -> Vec<String> {
        self.pending
            .iter()
            .map(|c| describe(c, &self.site))
            .collect()
    }

    /// The site as last built successfully.
    pub fn site(&self) -> &Site {
        &self.site
    }

    /// The output folder.
    pub fn output_dir(&self) -> PathBuf {
        self.options.output_dir()
    }

    /// Applies source changes. Templates or site.toml rebuild everything (through staging,
    /// committed with `commit`); other changes re-render only the affected outputs in place,
    /// each file replaced atomically. On error nothing is written and the changes are kept
    /// to retry with the next one.
    pub fn rebuild(
        &mut self,
        changes: impl IntoIterator<Item = Change>,
        commit: impl FnOnce(Staging) -> io::Result<()>,
    ) -> Result<RebuildReport, Error> {
        self.rebuild_located(changes, commit)
            .map_err(Error::Problems)
    }

    /// [`Session::rebuild`] with the problems as they are, for serve's error overlay.
    pub(crate) fn rebuild_located(
        &mut self,
        changes: impl IntoIterator<Item = Change>,
        commit: impl FnOnce(Staging) -> io::Result<()>,
    ) -> Result<RebuildReport, Diagnostics> {
        let started = Instant::now();
        self.pending.extend(changes);
        let changed = self.pending_files();
        if self.pending.iter().any(Change::is_global) {
            let (session, report) = Session::start_located(&self.options, commit)?;
            *self = session;
            return Ok(RebuildReport {
                changed,
                full: true,
                pages: report.pages,
                files: report.files,
                urls: Vec::new(),
                elapsed: started.elapsed(),
                figures: Vec::new(),
                warnings: report.warnings,
            });
        }
        let plan = self.plan()?;
        let live = LiveDir::new(&self.output_dir());
        let writer = Writer::new(&live);
        // What was written for a dataset whose CSV is the same file: the outputs whose
        // files still hold keep them, if they are still there (the writer checks sizes).
        let csv_unchanged: BTreeMap<String, (Arc<Dataset>, Vec<FileDigest>)> = plan
            .affected
            .datasets
            .iter()
            .filter_map(|slug| {
                let (before, now) = (self.site.dataset(slug)?, plan.site.dataset(slug)?);
                let same = before.csv_path == now.csv_path
                    && before.csv.stamp.is_some()
                    && before.csv.stamp == now.csv.stamp;
                let written = self.site.entry(slug)?.digests.clone();
                same.then(|| (slug.clone(), (before.clone(), written)))
            })
            .collect();
        // A page's title is in every page's navigation: then every listing page changes.
        let listing_pages = match plan.changes.all_pages {
            true => rewrite::ListingPages::everything(&plan.site),
            false => {
                rewrite::ListingPages::between(&self.site, &plan.site, &plan.affected.datasets)
            }
        };
        let mut plan = plan;
        let (pages, urls) = rewrite::render_affected(
            &mut plan.site,
            &self.renderer,
            &plan.affected,
            &plan.changes,
            &csv_unchanged,
            &listing_pages,
            &writer,
        );
        let files = writer.files();
        let problems = writer.into_problems();
        if !problems.is_empty() {
            let mut diagnostics = Diagnostics::new();
            diagnostics.extend(problems);
            return Err(diagnostics);
        }
        // Only datasets read again can quote other figures (the others are the same).
        let figures = plan
            .affected
            .datasets
            .iter()
            .filter_map(|slug| Some((self.site.dataset(slug)?, plan.site.dataset(slug)?)))
            .flat_map(|(before, now)| {
                crate::dataset::figures::changes(&before.figures, &now.figures)
                    .into_iter()
                    .map(move |c| format!("{} {c}", now.slug))
            })
            .collect();
        self.site = plan.site;
        plan.problems.apply(&mut self.file_problems);
        self.pending.clear();
        Ok(RebuildReport {
            changed,
            full: false,
            pages,
            files,
            urls,
            elapsed: started.elapsed(),
            figures,
            warnings: plan.warnings,
        })
    }
}

/// The user-facing name of a change.
fn describe(change: &Change, site: &Site) -> String {
    match change {
        Change::Dataset(slug) => site
            .dataset(slug)
            .map(|d| d.markdown_path.display().to_string())
            .unwrap_or_else(|| layout::dataset_markdown(slug).display().to_string()),
        Change::DataFile(p) | Change::Page(p) => p.display().to_string(),
        Change::Static(p) => format!("{}/{}", layout::STATIC, p.display()),
        Change::Templates => format!("{}/", layout::TEMPLATES),
        Change::Config => layout::SITE_TOML.to_string(),
        Change::Catalogues => format!("{}/", crate::i18n::FOLDER),
    }
}
