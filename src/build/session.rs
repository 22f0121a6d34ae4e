//! A loaded, rendered site kept between builds, so `serve` rebuilds only what a change
//! affects: templates or site.toml rebuild everything through staging; other changes
//! re-render the affected outputs in place.

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::reuse::Reuse;
use super::{affected, flat, pages, plan, BuildOptions, BuildReport};
use crate::dataset::record_store::RecordStore;
use crate::dataset::stamp::FileStamp;
use crate::diagnostics::{Diagnostic, Diagnostics, Error};
use crate::incremental::Change;
use crate::layout;
use crate::output::{guard, Discard, LiveDir, OutputSink, Staging};
use crate::render::Renderer;
use crate::site::{self, Site};
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
        Session::start_with(options, commit, true)
    }

    /// A full build. Each dataset's files are written as soon as it is loaded, so the
    /// output folder is checked and the staging folder made first (their problems are
    /// reported only when loading found none). `keep` keeps every dataset whole for
    /// incremental rebuilds; without it only slim copies are kept (`build::flat`), and the
    /// session is good for its report only.
    pub(super) fn start_with(
        options: &BuildOptions,
        commit: impl FnOnce(Staging) -> io::Result<()>,
        keep: bool,
    ) -> Result<(Session, BuildReport), Diagnostics> {
        let started = Instant::now();
        let output = options.output_dir();
        let renderer = Renderer::new(&options.root);
        let target = guard::check_output(&options.root, &output, options.force);
        let staging = target.as_ref().ok().map(|t| Staging::create(t));
        let discard = Discard;
        let sink: &dyn OutputSink = match &staging {
            Some(Ok(staging)) => staging,
            _ => &discard,
        };
        let writer = Writer::new(sink);
        // A full `build` links the files of unchanged datasets from the output it replaces.
        let reuse = match (&target, &staging, keep) {
            (Ok(target), Some(Ok(_)), false) => Some(Reuse::open(options, target)),
            _ => None,
        };
        // A build keeps its slim copies in a temporary file (`site::Datasets`); a kept
        // session keeps its datasets whole.
        let store = (!keep).then(RecordStore::new).flatten();
        let each = flat::each_dataset(renderer.as_ref().ok(), &writer, keep, reuse.as_ref());
        let recall = flat::recall_dataset(renderer.as_ref().ok(), reuse.as_ref());
        // A build shows the first places of each warning and counts the rest, so it keeps
        // no more; a kept session needs every problem of every file again.
        let site_options = site::LoadOptions {
            fold_warnings: (!keep).then_some(crate::diagnostics::SHOWN_PER_WARNING),
            ..options.site_options()
        };
        let (site, file_diagnostics, site_diagnostics) = site::load_parts_with(
            &options.root,
            options.active_scan_cache().as_ref(),
            &site_options,
            (&each, &recall),
            store.as_ref(),
        );
        drop((each, recall));
        // Only a kept session needs the problems per file again; a build keeps one copy.
        let (mut diagnostics, file_diagnostics) = match keep {
            true => (file_diagnostics.clone(), file_diagnostics),
            false => (file_diagnostics, Diagnostics::new()),
        };
        diagnostics.reserve(site_diagnostics.items().len());
        diagnostics.extend(site_diagnostics);
        diagnostics.sort();
        if let Err(problems) = &renderer {
            diagnostics.extend(problems.iter().cloned());
        }
        let (Some(mut site), Ok(renderer)) = (site, renderer) else {
            return Err(diagnostics);
        };
        site.default_date = options.date.clone();
        if diagnostics.has_errors() {
            return Err(diagnostics);
        }
        if let Err(problem) = target {
            diagnostics.push(problem);
            return Err(diagnostics);
        }
        if let Some(Err(e)) = &staging {
            diagnostics.push(Diagnostic::error(
                &output,
                format!("cannot create the output folder: {e}"),
            ));
            return Err(diagnostics);
        }
        // Datasets with `related` entries taken from their records: do their titles hold?
        if let Some(reuse) = &reuse {
            reuse.settle_related(&site);
        }
        // The output already holds what this build would write: nothing is written, the
        // staging folder (holding only its marker) is dropped.
        if let Some(whole) = reuse.as_ref().and_then(|r| r.up_to_date(&site)) {
            // Every dataset's files are the previous build's.
            let reused = site.datasets.len();
            let report = BuildReport {
                typed_by_hand: super::unbacked::count(&site),
                pages: whole.pages,
                datasets: site.datasets.len(),
                rows: site.total_rows(),
                files: whole.files,
                elapsed: started.elapsed(),
                output,
                reused,
                recalled: reuse.as_ref().map_or(0, Reuse::recalled),
                up_to_date: true,
                in_place: false,
                warnings: std::mem::take(&mut diagnostics),
            };
            let session = Session {
                options: options.clone(),
                site,
                renderer,
                file_problems: BTreeMap::new(),
                pending: BTreeSet::new(),
            };
            return Ok((session, report));
        }
        // Few datasets changed: their files go into the previous output in place.
        let merge = reuse.as_ref().and_then(|r| r.merge_plan(&site));
        let pages = match keep {
            true => pages::render_everything(&mut site, &renderer, &writer),
            false => flat::write_rest(
                &mut site,
                &renderer,
                &writer,
                (reuse.as_ref(), options.active_scan_cache().as_ref()),
                merge.is_none(),
            ),
        };
        // Updated in place, the output holds the files kept besides those written.
        let files = writer.files() + merge.as_ref().map_or(0, |kept| kept.len());
        let mut problems = writer.into_problems();
        problems.extend(flat::read_back_problem(store.as_deref()));
        if !problems.is_empty() {
            diagnostics.extend(problems);
            diagnostics.sort();
            return Err(diagnostics);
        }
        let Some(Ok(staging)) = staging else {
            return Err(diagnostics);
        };
        let marker = match (&merge, &reuse) {
            (Some(kept), Some(reuse)) => {
                reuse.forget_manifest();
                if let Err(e) = staging.merge_into_target(kept) {
                    diagnostics.push(
                        Diagnostic::error(&output, format!("cannot update the output: {e}"))
                            .with_hint("build again: the next build replaces the whole folder"),
                    );
                    return Err(diagnostics);
                }
                FileStamp::of(&reuse.output().join(crate::output::MARKER))
            }
            _ => {
                let marker = FileStamp::of(&staging.path(crate::output::MARKER));
                if let Err(e) = commit(staging) {
                    diagnostics.push(Diagnostic::error(
                        &output,
                        format!("cannot move the new output into place: {e}"),
                    ));
                    return Err(diagnostics);
                }
                marker
            }
        };
        let reused = reuse.as_ref().map_or(0, Reuse::reused);
        let recalled = reuse.as_ref().map_or(0, Reuse::recalled);
        if let Some(reuse) = reuse {
            let whole = reuse.whole(&site, pages, files);
            reuse.save(marker, whole);
        }
        let report = BuildReport {
            typed_by_hand: super::unbacked::count(&site),
            pages,
            datasets: site.datasets.len(),
            rows: site.total_rows(),
            files,
            elapsed: started.elapsed(),
            output,
            reused,
            recalled,
            up_to_date: false,
            in_place: merge.is_some(),
            warnings: match keep {
                true => diagnostics.clone(),
                false => std::mem::take(&mut diagnostics),
            },
        };
        // Only problems of single files are kept: those of the site as a whole are
        // recomputed by every rebuild.
        let mut file_problems = BTreeMap::new();
        plan::record(&mut file_problems, file_diagnostics);
        let session = Session {
            options: options.clone(),
            site,
            renderer,
            file_problems,
            pending: BTreeSet::new(),
        };
        Ok((session, report))
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
        let csv_unchanged: BTreeSet<String> = plan
            .affected
            .datasets
            .iter()
            .filter(
                |slug| match (self.site.dataset(slug), plan.site.dataset(slug)) {
                    (Some(before), Some(now)) => {
                        before.csv_path == now.csv_path
                            && before.csv.stamp.is_some()
                            && before.csv.stamp == now.csv.stamp
                    }
                    _ => false,
                },
            )
            .cloned()
            .collect();
        // A Parquet copy made from the same CSV with the same columns stays, if it is still
        // there (the writer checks its size).
        for slug in &csv_unchanged {
            if let (Some(before), Some(now)) = (self.site.dataset(slug), plan.site.dataset(slug)) {
                if let Some(file) = before.parquet_file().filter(|_| now.same_parquet(&before)) {
                    now.note_parquet(file);
                }
            }
        }
        // A page's title is in every page's navigation: then every listing page changes.
        let listing_pages = match plan.changes.all_pages {
            true => affected::ListingPages::everything(&plan.site),
            false => {
                affected::ListingPages::between(&self.site, &plan.site, &plan.affected.datasets)
            }
        };
        let mut plan = plan;
        let (pages, urls) = affected::render_affected(
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
    }
}
