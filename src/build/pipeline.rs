//! The one pipeline of `build`, `check` and serve's first build, in steps read top to
//! bottom by [`run`]: open the output; read the site and, in a first pass, every
//! dataset's front matter (titles, drafts, `data_url`), while the templates are compiled
//! and the previous build's manifest is read (three reads at once); load every dataset,
//! each checked, rendered and written as soon as it is loaded (in parallel) and then kept
//! as the [`Mode`] says; check the site as a whole; write the rest (listings, tags, pages,
//! catalogs); publish; record what was written for the next build. What is taken from the
//! previous build (records instead of loads, hard links of unchanged output) is one
//! [`Previous`], called the same way by every command (a no-op where there is nothing to
//! take). A site with any error publishes nothing: what was written meanwhile is in the
//! staging folder (or `Discard`), which is dropped.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use super::previous::{Fresh, Previous};
use super::reuse::manifest::Whole;
use super::reuse::{Prefetched, Reuse};
use super::{pages, unbacked, BuildOptions, BuildReport};
use crate::dataset::cache::ScanCache;
use crate::dataset::entry_store::EntryStore;
use crate::dataset::stamp::FileStamp;
use crate::dataset::{self, Dataset};
use crate::diagnostics::{Diagnostic, Diagnostics, Severity, SHOWN_PER_WARNING};
use crate::output::{guard, Discard, Staging};
use crate::render::Renderer;
use crate::site::{Frame, Held, LoadedSite, Site, Warnings};
use crate::write::Writer;

/// Which command runs the pipeline, chosen once: what is kept of each dataset once its
/// files are written, which problems are kept, and what is taken from the last build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// `build`: each dataset written as it loads, then kept as its catalog entry in a
    /// temporary file (memory does not grow with the catalog); warnings folded; the
    /// output it replaces reused.
    Build,
    /// `check`: `build` into a sink that keeps nothing, every warning kept; datasets
    /// unchanged since the last build into the default output taken from its records.
    Check,
    /// serve's first build: every dataset kept whole, and written once all are loaded,
    /// every problem kept per file, for incremental rebuilds.
    Serve,
}

impl Mode {
    /// Where the datasets' entries go: a temporary file (one that cannot be made keeps
    /// them in memory); `serve` keeps them in memory beside the whole datasets.
    fn store(self, previous: &dyn Previous) -> Option<Arc<EntryStore>> {
        match self {
            Mode::Build | Mode::Check => {
                EntryStore::new().map(|store| Arc::new(store.with_records(previous.records())))
            }
            Mode::Serve => None,
        }
    }

    fn warnings(self) -> Warnings {
        match self {
            Mode::Build => Warnings::Folded(SHOWN_PER_WARNING),
            Mode::Check => Warnings::All,
            Mode::Serve => Warnings::PerFile,
        }
    }
}

/// What a pipeline that succeeded leaves: the site and templates (serve's session goes on
/// from them), and what it found.
pub(super) struct Built {
    pub(super) site: Site,
    pub(super) renderer: Renderer,
    pub(super) report: BuildReport,
    /// With [`Mode::Serve`], the problems of single files as loaded.
    pub(super) file_problems: Diagnostics,
}

/// Runs the pipeline; `commit` moves the finished staging folder into place (serve takes
/// a lock around it so no request sees the swap). `Err` holds every problem, in the order
/// they are shown.
pub(super) fn run(
    options: &BuildOptions,
    mode: Mode,
    commit: impl FnOnce(Staging) -> io::Result<()>,
) -> Result<Built, Diagnostics> {
    let started = Instant::now();
    let path = options.output_dir();
    let output = open_output(options, mode, &path);
    // Three reads at once: the templates, the previous build's manifest, and the first pass
    // (site.toml, the files, the plain pages, every dataset's front matter).
    let ((renderer, prefetched), frame) = rayon::join(
        || {
            rayon::join(
                || Renderer::new(&options.root),
                || prefetch(options, mode, &output, &path),
            )
        },
        || Frame::read(&options.root, &options.site_options(), mode.warnings()),
    );
    let mut frame = match frame {
        Ok(frame) => frame,
        Err(mut problems) => {
            problems.sort();
            problems.extend(renderer.err().into_iter().flatten());
            return Err(problems);
        }
    };
    if let Ok(renderer) = &renderer {
        renderer.speak(frame.site.words.clone());
    }
    let data = open_data_output(options, mode, &path, frame.data_elsewhere());
    let data_writer = match &data {
        Ok(Some((_, staging))) => Some(Writer::new(staging)),
        _ => None,
    };
    let writer = match (&output, &data_writer) {
        (Ok(Some((_, staging))), Some(data)) => Writer::with_data(staging, data),
        (Ok(Some((_, staging))), None) => Writer::new(staging),
        _ => Writer::new(&Discard),
    };
    let previous = open_previous(mode, (&output, &data), options, prefetched);
    let steps = Steps {
        mode,
        store: mode.store(previous.as_ref()),
        writer: &writer,
        previous: previous.as_ref(),
        cache: options.active_scan_cache(),
    };
    // Per dataset, in parallel: load, check, render, write.
    let files = std::mem::take(&mut frame.dataset_files);
    let held = steps.datasets(&frame, files, renderer.as_ref().ok());
    // The checks across datasets: errors anywhere stop here, then an output folder that
    // cannot be written.
    let LoadedSite {
        mut site,
        problems: mut diagnostics,
        file_problems,
    } = frame.assemble(held, steps.store.clone());
    let renderer = match renderer {
        Ok(renderer) if !diagnostics.has_errors() => renderer,
        renderer => {
            diagnostics.extend(renderer.err().into_iter().flatten());
            return Err(diagnostics);
        }
    };
    if let Some(problem) = [&output, &data].into_iter().find_map(|o| o.as_ref().err()) {
        diagnostics.push(problem.clone());
        return Err(diagnostics);
    }
    let up_to_date = previous.up_to_date(&site);
    let (pages, files, marker) = match &up_to_date {
        // The output already holds what this build would write: nothing is written, the
        // staging folder (holding only its marker) is dropped.
        Some(whole) => (whole.pages, whole.files, None),
        None => {
            // Write the rest: listings, tags, pages, catalogs, static files.
            let pages = steps.write_rest(&mut site, &renderer);
            let files = writer.files() + data_writer.as_ref().map_or(0, Writer::files);
            let problems: Vec<Diagnostic> = (writer.into_problems().into_iter())
                .chain(data_writer.into_iter().flat_map(Writer::into_problems))
                .collect();
            if !problems.is_empty() {
                diagnostics.extend(problems);
                diagnostics.sort();
                return Err(diagnostics);
            }
            // The big files first: a page is never published before the files it links.
            let published = publish_data(data).and_then(|()| publish(&path, output, commit));
            match published {
                Ok(marker) => (pages, files, marker),
                Err(problem) => {
                    diagnostics.push(problem);
                    return Err(diagnostics);
                }
            }
        }
    };
    let written = (pages, files);
    let mut report = report(
        &site,
        previous.as_ref(),
        up_to_date,
        (mode, path),
        written,
        diagnostics,
    );
    // Record what was written, for the next build to reuse.
    if let Some(marker) = marker {
        previous.finish(&site, (pages, files), report.output_size.as_ref(), marker);
    }
    report.elapsed = started.elapsed();
    Ok(Built {
        site,
        renderer,
        report,
        file_problems,
    })
}

/// What a build that succeeded reports (its `elapsed` is set by the caller).
fn report(
    site: &Site,
    previous: &dyn Previous,
    up_to_date: Option<Whole>,
    (mode, path): (Mode, PathBuf),
    (pages, files): (usize, usize),
    warnings: Diagnostics,
) -> BuildReport {
    // The host report: the output as published (up to date, as the last build measured it).
    let output_size = match (&up_to_date, mode) {
        (Some(whole), _) => Some(whole.size.clone()),
        (None, Mode::Build) => crate::output::hosts::measure(&path).ok(),
        (None, _) => None,
    };
    BuildReport {
        typed_by_hand: unbacked::count(site),
        pages,
        datasets: site.datasets.len(),
        rows: site.total_rows(),
        files,
        elapsed: Default::default(),
        output: path,
        // Up to date, every dataset's files are the previous build's.
        reused: match up_to_date {
            Some(_) => site.datasets.len(),
            None => previous.reused(),
        },
        recalled: previous.recalled(),
        up_to_date: up_to_date.is_some(),
        warnings,
        output_size,
    }
}

/// What this build takes from the previous one: `build` links from its output only when
/// it holds every file (no data folder); `check` takes unchanged datasets from its records
/// (unless `--no-cache`); `serve` keeps its own state. `prefetched`: what [`prefetch`] read.
fn open_previous(
    mode: Mode,
    (output, data): (&Output, &Output),
    options: &BuildOptions,
    prefetched: Option<Prefetched>,
) -> Box<dyn Previous> {
    match (mode, output, data, prefetched) {
        (Mode::Build, Ok(Some(_)), Ok(None), Some(read)) => Box::new(Reuse::open(options, read)),
        (Mode::Check, _, _, Some(read)) => Box::new(Reuse::for_check(options, read)),
        _ => Box::new(Fresh),
    }
}

/// What a build that may take from the previous one reads of it first: `build` the
/// manifest of the output it replaces, `check` (unless `--no-cache`) that of the default
/// output.
fn prefetch(
    options: &BuildOptions,
    mode: Mode,
    output: &Output,
    path: &Path,
) -> Option<Prefetched> {
    match (mode, output) {
        (Mode::Build, Ok(Some((target, _)))) => Some(Reuse::prefetch(options, target)),
        (Mode::Check, _) if options.scan_cache => Some(Reuse::prefetch(options, path)),
        _ => None,
    }
}

/// Publishes: the staging folder swapped in whole by `commit`. Returns the identity of
/// the output's marker file, which the next build's reuse is tied to (none for `check`,
/// which has nothing to publish).
fn publish(
    output: &Path,
    staging: Output,
    commit: impl FnOnce(Staging) -> io::Result<()>,
) -> Result<Option<FileStamp>, Diagnostic> {
    let Ok(Some((_, staging))) = staging else {
        return Ok(None);
    };
    let marker = FileStamp::of(&staging.path(crate::output::MARKER));
    commit(staging).map(|()| marker).map_err(|e| {
        Diagnostic::error(
            output,
            format!("cannot move the new output into place: {e}"),
        )
    })
}

/// The output folder to replace (resolved) and its staging folder, checked and made
/// first, as each dataset's files are written as soon as it is loaded (their problems are
/// reported only when loading found none); none for `check`, which writes into
/// [`Discard`]; `Err`: why the output folder cannot be written.
type Output = Result<Option<(PathBuf, Staging)>, Diagnostic>;

fn open_output(options: &BuildOptions, mode: Mode, path: &Path) -> Output {
    if mode == Mode::Check {
        return Ok(None);
    }
    let target = guard::check_output(&options.root, path, options.force)?;
    match Staging::create(&target) {
        Ok(staging) => Ok(Some((target, staging))),
        Err(e) => Err(Diagnostic::error(
            path,
            format!("cannot create the output folder: {e}"),
        )),
    }
}

/// The data folder of a site with `data_url`, its own or a dataset's (`elsewhere`, from
/// the first pass; `--data-output`, `<root>/public-data`) and its staging folder, checked
/// and made as the output folder is: only by `build` (`check` writes nothing, `serve`
/// keeps the big files beside the pages). Its files are replaced whole by every build, so
/// it may not overlap the output folder.
fn open_data_output(options: &BuildOptions, mode: Mode, output: &Path, elsewhere: bool) -> Output {
    if mode != Mode::Build || options.data_beside || !elsewhere {
        return Ok(None);
    }
    let path = options.data_output_dir();
    let target = guard::check_output(&options.root, &path, options.force)?;
    let pages = guard::resolve(output).unwrap_or_else(|_| output.to_path_buf());
    if target.starts_with(&pages) || pages.starts_with(&target) {
        return Err(Diagnostic::error(
            &path,
            "the data folder and the output folder overlap; each is replaced whole by every build",
        )
        .with_hint(
            "choose a --data-output beside the output folder, e.g. public-data (the default)",
        ));
    }
    match Staging::create(&target) {
        Ok(staging) => Ok(Some((target, staging))),
        Err(e) => Err(Diagnostic::error(
            &path,
            format!("cannot create the data folder: {e}"),
        )),
    }
}

/// Replaces the data folder with its staged files, when the build has one.
fn publish_data(data: Output) -> Result<(), Diagnostic> {
    let Ok(Some((target, staging))) = data else {
        return Ok(());
    };
    staging.commit().map_err(|e| {
        Diagnostic::error(
            &target,
            format!("cannot move the new data folder into place: {e}"),
        )
    })
}

/// What the steps share.
struct Steps<'a> {
    mode: Mode,
    /// Where the entries of the datasets written go.
    store: Option<Arc<EntryStore>>,
    writer: &'a Writer<'a>,
    /// What is taken from the previous build: records, links (and this build's records).
    previous: &'a dyn Previous,
    cache: Option<ScanCache>,
}

impl Steps<'_> {
    /// Every dataset of `files` (the frame's, in its order) taken from its record or
    /// loaded, in parallel, and as soon as it is, written ([`Steps::write_dataset`]) and
    /// kept. Without a renderer (the templates have errors) nothing is rendered, only
    /// checked.
    fn datasets(
        &self,
        frame: &Frame,
        files: Vec<PathBuf>,
        renderer: Option<&Renderer>,
    ) -> Vec<Option<Held>> {
        let site = &frame.site;
        (files.into_par_iter().enumerate())
            .map(|(place, path)| {
                // Taken from the record the previous build left: its files are linked once
                // the whole site is known (`Steps::write_rest`).
                if let Some(recalled) = renderer.and_then(|_| self.previous.recall(site, &path)) {
                    let entry = recalled.entry;
                    if frame.leaves_out(&entry.slug, entry.draft) {
                        return None;
                    }
                    // Its entry stays in the records file, unless there is no store.
                    let stored = (recalled.at).and_then(|at| self.store.as_ref()?.recorded(at));
                    let held = match stored {
                        Some(stored) => Held::stored(&entry, stored),
                        None => Held::entry(entry, self.store.as_deref()),
                    };
                    return frame.keep(place, recalled.problems, Some(held));
                }
                let loaded = dataset::load(&site.root, &path, &site.config, self.cache.as_ref());
                drop(path);
                if frame.leaves_out(&loaded.slug, loaded.draft) {
                    return None;
                }
                let held = loaded
                    .dataset
                    .map(|full| self.write_dataset(site, full, &loaded.problems, renderer));
                frame.keep(place, loaded.problems, held)
            })
            .collect()
    }

    /// What becomes of a dataset as soon as it is loaded: `serve` keeps it whole, to be
    /// written once all are loaded; otherwise its files are written (or linked) and its
    /// catalog entry kept. With errors (or templates that have some) nothing is written:
    /// the build stops, only the checks across datasets run.
    fn write_dataset(
        &self,
        site: &Site,
        full: Dataset,
        problems: &[Diagnostic],
        renderer: Option<&Renderer>,
    ) -> Held {
        let unwritten = |full: &Dataset| site.outputs.entry(&site.config, full, Vec::new());
        if self.mode == Mode::Serve {
            let entry = unwritten(&full);
            return Held::whole(Arc::new(full), entry);
        }
        let failed = problems.iter().any(|p| p.severity == Severity::Error);
        let entry = match renderer {
            Some(renderer) if !failed => {
                (self.previous).write(site, renderer, full, self.writer, problems)
            }
            _ => unwritten(&full),
        };
        Held::entry(entry, self.store.as_deref())
    }

    /// Writes what is left once every dataset is loaded: `serve`'s whole datasets; or the
    /// files of the datasets taken from their records (linked); then listings, tags, pages,
    /// catalogs and static files. Returns the number of HTML pages.
    fn write_rest(&self, site: &mut Site, renderer: &Renderer) -> usize {
        let writer = self.writer;
        if self.mode == Mode::Serve {
            return pages::render_everything(site, renderer, writer);
        }
        let dcat = self.previous.link_rest(site, renderer, writer);
        pages::render_site_files(site, renderer, writer, &dcat)
    }
}
