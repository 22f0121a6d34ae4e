//! Full builds and checks whose memory does not grow with the catalog: each dataset's files
//! are written as soon as it is loaded (in parallel), and only its slim copy
//! ([`Dataset::slim`]) is kept for listings, the feed, the sitemap and the catalogs. A
//! dataset with `related` entries waits until every title is known, then is written and
//! slimmed the same way. A site with any error writes nothing that survives: the files
//! written meanwhile are in the staging folder (or `Discard` for `check`), which is dropped.

use rayon::prelude::*;

use super::reuse::{self, Reuse};
use super::{pages, BuildOptions};
use crate::dataset;
use crate::dataset::cache::ScanCache;
use crate::dataset::record_store::RecordStore;
use crate::diagnostics::{Diagnostics, Severity};
use crate::output::Discard;
use crate::render::Renderer;
use crate::site::{self, Site};
use crate::write::Writer;

/// What to do with each dataset as it is loaded: with a renderer and a writer, write its
/// files (or link them: `reuse`) and slim it (`keep` leaves it whole, for `serve`'s
/// incremental rebuilds).
pub(super) fn each_dataset<'a>(
    renderer: Option<&'a Renderer>,
    writer: &'a Writer<'a>,
    keep: bool,
    reuse: Option<&'a Reuse>,
) -> impl Fn(&Site, dataset::Loaded) -> dataset::Loaded + Sync + 'a {
    move |frame, mut loaded| {
        if keep {
            return loaded;
        }
        let Some(full) = loaded.dataset.take() else {
            return loaded;
        };
        let failed = loaded
            .problems
            .iter()
            .any(|p| p.severity == Severity::Error);
        let slim = match renderer {
            // Nothing is written: the build stops; only the checks across datasets run.
            _ if failed => full.slim(Vec::new()),
            None => full.slim(Vec::new()),
            // Its page names other datasets by title: written once all are loaded.
            Some(_) if !full.front.related.is_empty() => full.slim_for_later(),
            Some(renderer) => {
                reuse::write_and_slim(reuse, frame, renderer, full, writer, &loaded.problems)
            }
        };
        loaded.dataset = Some(slim);
        loaded
    }
}

/// How a build takes a dataset without loading it: from the record the previous build
/// left (`Reuse::recall`; its files are linked by `write_rest`); only a full build with a
/// renderer does.
pub(super) fn recall_dataset<'a>(
    renderer: Option<&'a Renderer>,
    reuse: Option<&'a Reuse>,
) -> impl Fn(&Site, &std::path::Path) -> Option<dataset::Loaded> + Sync + 'a {
    move |frame, markdown_file| match (renderer, reuse) {
        (Some(_), Some(reuse)) => reuse.recall(frame, markdown_file),
        _ => None,
    }
}

/// After a load without errors: links the files of the datasets taken from their records
/// (unless the output is to be updated in place: `link_recalled` false) and renders those
/// whose `related` titles changed; loads again and writes the datasets that were loaded
/// with `related` entries (their titles are all known now), then writes listings, tags,
/// pages, site files and static files. Returns the number of HTML pages.
pub(super) fn write_rest(
    site: &mut Site,
    renderer: &Renderer,
    writer: &Writer,
    (reuse, cache): (Option<&Reuse>, Option<&ScanCache>),
    link_recalled: bool,
) -> usize {
    if let Some(reuse) = reuse {
        if link_recalled {
            reuse.link_recalled(site, renderer, writer);
        }
        reuse.render_stale(site, renderer, writer);
    }
    let pending = site.datasets.pending();
    // A chunk at a time: each new slim copy replaces the old one before the next chunk, so
    // that two copies of every such dataset never exist at once.
    for chunk in pending.chunks(WRITE_PENDING_CHUNK) {
        write_pending(site, chunk, renderer, writer, (reuse, cache));
    }
    let dcat = match reuse {
        Some(reuse) => reuse.link_dcat_pages(site, writer),
        None => pages::Pages::All,
    };
    pages::render_site_files(site, renderer, writer, &dcat)
}

/// How many datasets [`write_pending`] loads again and writes at a time.
const WRITE_PENDING_CHUNK: usize = 256;

/// Loads again and writes the datasets at `indexes` of `site.datasets` (slimmed before
/// their files were written: `Dataset::slim_for_later`), putting their new slim copies in
/// place.
fn write_pending(
    site: &mut Site,
    indexes: &[usize],
    renderer: &Renderer,
    writer: &Writer,
    (reuse, cache): (Option<&Reuse>, Option<&ScanCache>),
) {
    let shared = &*site;
    let written: Vec<(usize, dataset::Dataset)> = indexes
        .par_iter()
        .filter_map(|&i| {
            let slug = shared.datasets.slug(i);
            let sources = (reuse, cache);
            Some((
                i,
                reuse::load_and_write(sources, shared, slug, renderer, writer)?,
            ))
        })
        .collect();
    for (i, slim) in written {
        site.datasets.replace(i, slim);
    }
}

/// `check`: a build into [`Discard`], so whatever `build` rejects `check` rejects
/// (templates that fail only when rendering included), with the same flat memory. A
/// dataset whose inputs are those of the last build into the default output folder is
/// taken from that build's record (`Reuse::for_check`), its warnings with it: it loaded
/// and rendered without error then. Returns the problems and how many datasets were
/// taken from records. The warnings about numbers typed by hand come apart, sorted.
pub(super) fn check(options: &BuildOptions) -> (Diagnostics, Diagnostics, usize) {
    let reuse = options
        .scan_cache
        .then(|| Reuse::for_check(options, &options.output_dir()));
    let mut typed = Diagnostics::new();
    let diagnostics = check_with(options, reuse.as_ref(), &mut typed);
    typed.sort();
    (
        diagnostics,
        typed,
        reuse.as_ref().map_or(0, Reuse::recalled),
    )
}

fn check_with(
    options: &BuildOptions,
    reuse: Option<&Reuse>,
    typed: &mut Diagnostics,
) -> Diagnostics {
    let renderer = Renderer::new(&options.root);
    let writer = Writer::new(&Discard);
    // Where the slim copies are kept until the checks end.
    let store = RecordStore::new();
    let each = each_dataset(renderer.as_ref().ok(), &writer, false, None);
    let cache = options.active_scan_cache();
    let recall = recall_dataset(renderer.as_ref().ok(), reuse);
    let (site, mut diagnostics, site_problems) = site::load_parts_with(
        &options.root,
        cache.as_ref(),
        &options.site_options(),
        (&each, &recall),
        store.as_ref(),
    );
    drop((each, recall));
    diagnostics.extend(site_problems);
    diagnostics.sort();
    let renderer = match renderer {
        Ok(renderer) => renderer,
        Err(problems) => {
            diagnostics.extend(problems);
            return diagnostics;
        }
    };
    let Some(mut site) = site else {
        return diagnostics;
    };
    if diagnostics.has_errors() {
        return diagnostics;
    }
    // Numbers typed in the prose by hand (warnings `check --strict` lists).
    typed.extend(super::unbacked::check(&options.root, &site));
    if diagnostics.has_errors() {
        return diagnostics;
    }
    let cache = options.active_scan_cache();
    let sources = (None, cache.as_ref());
    write_rest(&mut site, &renderer, &writer, sources, false);
    let mut problems = writer.into_problems();
    problems.extend(read_back_problem(store.as_deref()));
    if !problems.is_empty() {
        diagnostics.extend(problems);
        diagnostics.sort();
    }
    diagnostics
}

/// An error when a slim copy kept in `store` could not be read back: what was written
/// from it lacks it, so the build must not be published.
pub(super) fn read_back_problem(
    store: Option<&RecordStore>,
) -> Option<crate::diagnostics::Diagnostic> {
    let why = store?.read_failure()?;
    Some(
        crate::diagnostics::Diagnostic::error(std::env::temp_dir(), why.to_string())
            .with_hint("check that the temporary folder (TMPDIR) has room, then build again"),
    )
}
