//! Writing rendered pages and files into an output sink, shared by full builds (into a
//! staging folder) and incremental rebuilds (into the live output folder of `serve`).

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::dataset::stamp::FileStamp;
use crate::dataset::{budget, Dataset, FileDigest};
use crate::diagnostics::Diagnostic;
use crate::layout::{self, urls};
use crate::metadata;
use crate::output::OutputSink;
use crate::render::table_rows::{RowRenderer, RowStream};
use crate::render::view::TableBody;
use crate::render::{dataset_charts, RenderedChart, Renderer, STREAMED_ROWS_MARKER};
pub use crate::site::outputs::Earlier;
use crate::site::outputs::{
    write_problem, DatasetOutput, OutputFiles, Registry, Stage, WriteContext,
};
use crate::site::Site;

pub mod parquet;
mod row_pages;

/// Shared state of a (parallel) write phase: where files go, how many were written, and
/// every problem met.
pub struct Writer<'a> {
    sink: &'a dyn OutputSink,
    /// Where the big files go ([`DatasetOutput::elsewhere`]) under `data_url`; none: here.
    data: Option<&'a Writer<'a>>,
    files: AtomicUsize,
    problems: Mutex<Vec<Diagnostic>>,
}

impl<'a> Writer<'a> {
    pub fn new(sink: &'a dyn OutputSink) -> Self {
        Writer {
            sink,
            data: None,
            files: AtomicUsize::new(0),
            problems: Mutex::new(Vec::new()),
        }
    }

    /// A writer into `sink` whose big files go to `data` instead.
    pub fn with_data(sink: &'a dyn OutputSink, data: &'a Writer<'a>) -> Self {
        let data = Some(data);
        Writer {
            data,
            ..Writer::new(sink)
        }
    }

    /// Where `output`'s files for `dataset` go: the data folder's writer for big files of
    /// a dataset published elsewhere, if there is one.
    fn for_output(
        &self,
        site: &Site,
        dataset: &Dataset,
        output: &dyn DatasetOutput,
    ) -> &Writer<'a> {
        let elsewhere = output.elsewhere() && dataset.data_place(&site.config).elsewhere();
        self.data.filter(|_| elsewhere).unwrap_or(self)
    }

    /// Files written so far.
    pub fn files(&self) -> usize {
        self.files.load(Ordering::Relaxed)
    }

    /// Every problem met, ending the write phase.
    pub fn into_problems(self) -> Vec<Diagnostic> {
        self.problems
            .into_inner()
            .unwrap_or_else(|p| p.into_inner())
    }

    /// Where this writer's files go (`build::reuse` wraps it to record a dataset's files).
    pub fn sink(&self) -> &'a dyn OutputSink {
        self.sink
    }

    /// Adds the files and problems of a writer that wrote into this one's sink.
    pub fn absorb(&self, files: usize, problems: Vec<Diagnostic>) {
        self.files.fetch_add(files, Ordering::Relaxed);
        if let Ok(mut all) = self.problems.lock() {
            all.extend(problems);
        }
    }

    /// Copies a file byte for byte.
    pub fn copy(&self, from: &Path, relative: &str) -> Result<(), Diagnostic> {
        self.counted(relative, self.sink.copy(from, relative))
    }

    /// One file written, or the problem of writing `relative`.
    fn counted(&self, relative: &str, written: std::io::Result<()>) -> Result<(), Diagnostic> {
        written.map_err(|e| write_problem(relative, e))?;
        self.files.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// Removes an output file or folder.
    pub fn remove(&self, relative: &str) {
        if let Err(e) = self.sink.remove(relative) {
            self.run(|| Err(write_problem(relative, e)), Path::new(relative));
        }
    }

    /// Runs one write step, recording its failure against `file`.
    pub fn run(&self, step: impl FnOnce() -> Result<(), Diagnostic>, file: &Path) {
        if let Err(mut d) = step() {
            if d.file.as_os_str().is_empty() {
                d.file = file.to_path_buf();
            }
            if let Ok(mut problems) = self.problems.lock() {
                problems.push(d);
            }
        }
    }

    pub fn page(&self, relative: &str, html: Result<String, Diagnostic>) -> Result<(), Diagnostic> {
        self.bytes(relative, html?.as_bytes())
    }

    /// Writes a file from a function that streams into it.
    pub fn stream(
        &self,
        relative: &str,
        write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
    ) -> Result<(), Diagnostic> {
        let written = self.sink.create(relative).and_then(|mut file| {
            write(file.writer())?;
            file.finish()
        });
        self.counted(relative, written)
    }

    /// Several files written together by `write`, which gets a writer for each, in order.
    pub fn stream_all(
        &self,
        relatives: &[&str],
        write: impl FnOnce(Vec<&mut dyn Write>) -> std::io::Result<()>,
    ) -> Result<(), Diagnostic> {
        let mut files = Vec::with_capacity(relatives.len());
        for relative in relatives {
            let file = self.sink.create(relative);
            files.push(file.map_err(|e| write_problem(relative, e))?);
        }
        let first = relatives.first().copied().unwrap_or_default();
        let outs = files
            .iter_mut()
            .map(|f| f.writer() as &mut dyn Write)
            .collect();
        write(outs).map_err(|e| write_problem(first, e))?;
        for (file, relative) in files.into_iter().zip(relatives) {
            file.finish().map_err(|e| write_problem(relative, e))?;
            self.files.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    pub fn bytes(&self, relative: &str, bytes: &[u8]) -> Result<(), Diagnostic> {
        self.counted(relative, self.sink.write(relative, bytes))
    }
}

impl OutputFiles for Writer<'_> {
    fn put(&self, path: &str, bytes: &[u8]) -> Result<(), Diagnostic> {
        self.bytes(path, bytes)
    }
    fn put_copy(&self, from: &Path, path: &str) -> Result<(), Diagnostic> {
        self.copy(from, path)
    }
    fn put_stream(
        &self,
        path: &str,
        write: &mut dyn FnMut(&mut (dyn Write + Send)) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let mut file = self.sink.create(path)?;
        write(file.writer())?;
        file.finish()?;
        self.files.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
    fn existing_len(&self, path: &str) -> Option<u64> {
        self.sink.existing_len(path)
    }
    fn keeps_nothing(&self) -> bool {
        self.sink.keeps_nothing()
    }
}

/// Every built-in per-dataset output, in the order the DCAT catalog lists them.
pub fn built_in_outputs() -> Registry {
    Registry::new(metadata::outputs::built_in(vec![Arc::new(
        parquet::ParquetCopy,
    )]))
}

/// The page and every output of the site's registry that is on for one dataset. The
/// table's own files ([`Stage::Table`]) go first: the page and the metadata state their
/// sizes and digests, which reach them as a value. `earlier` is what `serve` wrote for the
/// dataset when its CSV has not changed since: files that still hold are kept. Returns the
/// sizes and digests of the files, as written, that the dataset's catalog entry keeps: the
/// DCAT catalog states them without making the files again.
pub fn write_dataset(
    site: &Site,
    renderer: &Renderer,
    dataset: &Dataset,
    writer: &Writer,
    earlier: Option<Earlier>,
) -> Result<Vec<FileDigest>, Diagnostic> {
    let charts = dataset_charts(dataset, &site.words);
    let citations = metadata::citation_files::citations(site, dataset);
    let slug = &dataset.slug;
    let mut rendered: Vec<(String, String)> = charts
        .iter()
        .map(|chart| (urls::chart_file(slug, &chart.id), chart.file.clone()))
        .collect();
    for (extension, path) in urls::citation_files(slug) {
        let text = if extension == "ris" {
            &citations.ris
        } else {
            &citations.cff
        };
        rendered.push((path, text.clone()));
    }
    let on = |stage| {
        site.outputs
            .iter()
            .filter(move |o| o.stage() == stage && o.is_on(&site.config, dataset))
    };
    let context = |output: &dyn DatasetOutput, written| WriteContext {
        site,
        dataset,
        files: writer.for_output(site, dataset, output),
        written,
        rendered: &rendered,
    };
    let mut written = Vec::new();
    for output in on(Stage::Table) {
        match earlier.and_then(|earlier| kept(output, earlier, dataset, writer)) {
            Some(kept) => written.extend(kept),
            None => written.extend(output.write(&context(output, &[]))?),
        }
    }
    write_page_with_charts(
        site, renderer, dataset, &charts, &citations, &written, writer,
    )?;
    ensure_unchanged(dataset)?;
    let mut described = Vec::new();
    for output in on(Stage::Described) {
        described.extend(output.write(&context(output, &written))?);
    }
    written.extend(described);
    Ok(written)
}

/// The files `output` wrote `earlier` for `dataset`, when they still hold and the output
/// still has each at its recorded size (`serve` then need not copy a large CSV again).
fn kept(
    output: &dyn DatasetOutput,
    earlier: Earlier,
    dataset: &Dataset,
    writer: &Writer,
) -> Option<Vec<FileDigest>> {
    if !output.still_holds(earlier.dataset, dataset) {
        return None;
    }
    output
        .files(dataset)
        .iter()
        .map(|path| {
            let file = earlier.written.iter().find(|file| &file.path == path)?;
            (writer.existing_len(path) == Some(file.bytes)).then(|| file.clone())
        })
        .collect()
}

/// [`write_dataset`] as one step of `writer` (a failure is recorded against the dataset's
/// Markdown file): the digests of its metadata files, none when it failed (the build then
/// fails and nothing is published).
pub fn write_dataset_step(
    site: &Site,
    renderer: &Renderer,
    dataset: &Dataset,
    writer: &Writer,
    earlier: Option<Earlier>,
) -> Vec<FileDigest> {
    let mut digests = Vec::new();
    writer.run(
        || {
            digests = write_dataset(site, renderer, dataset, writer, earlier)?;
            Ok(())
        },
        &dataset.markdown_path,
    );
    digests
}

/// The HTML page of one dataset alone (its downloads and chart files unchanged, as
/// `written` records them).
pub fn write_dataset_page(
    site: &Site,
    renderer: &Renderer,
    dataset: &Dataset,
    written: &[FileDigest],
    writer: &Writer,
) -> Result<(), Diagnostic> {
    let citations = metadata::citation_files::citations(site, dataset);
    let charts = dataset_charts(dataset, &site.words);
    write_page_with_charts(
        site, renderer, dataset, &charts, &citations, written, writer,
    )
}

fn write_page_with_charts(
    site: &Site,
    renderer: &Renderer,
    dataset: &Dataset,
    charts: &[RenderedChart],
    citations: &metadata::citation_files::Citations,
    written: &[FileDigest],
    writer: &Writer,
) -> Result<(), Diagnostic> {
    let page_path = urls::index_file(&urls::dataset_page(&dataset.slug));
    ensure_unchanged(dataset)?;
    // The page is rendered around a marker, its size without rows measured, and the rows
    // that fit the rest of its byte budget (`dataset::budget`) rendered from the CSV; the
    // page is rendered again only when fewer rows fit than the cap, to say so.
    let cap = dataset.shown_rows();
    let page = |shown_rows| {
        let body = TableBody {
            rows_html: STREAMED_ROWS_MARKER,
            shown_rows,
        };
        renderer.dataset_page(site, dataset, body, charts, citations, written)
    };
    let mut html = page(cap)?;
    let rows = RowRenderer::new(&dataset.front.columns)
        .with_dialect(&dataset.front)
        .in_language(&site.words)
        .with_key_links(site, dataset)
        .with_columns(dataset.shown_columns(site.config.table_columns));
    let mut stream = RowStream::open(&dataset.csv_path, rows.dialect())
        .map_err(|e| write_problem(&page_path, e))?;
    let share = budget::table_share(html.len() - STREAMED_ROWS_MARKER.len());
    let mut rows_html = String::new();
    let with_row_pages = crate::dataset::paging::RowPaging::of(dataset).is_some();
    let filled = stream
        .fill(&rows, cap, share, with_row_pages, &mut rows_html)
        .map_err(|e| write_problem(&page_path, e))?;
    if filled.shown < cap.min(dataset.csv.rows) {
        html = page(filled.shown)?;
    }
    let (before, after) = split_at_rows(&html, "templates/dataset.html")?;
    writer.stream(&page_path, |out| {
        out.write_all(before.as_bytes())?;
        out.write_all(rows_html.as_bytes())?;
        out.write_all(after.as_bytes())
    })?;
    // The same reader goes on into the row pages.
    row_pages::write_row_pages(site, renderer, dataset, &mut stream, writer)
}

/// The page before and after the rows' marker, or the template's problem.
fn split_at_rows<'h>(html: &'h str, template: &str) -> Result<(&'h str, &'h str), Diagnostic> {
    html.split_once(STREAMED_ROWS_MARKER).ok_or_else(|| {
        Diagnostic::error(
            template,
            "the template does not output dataset.table.rows_html",
        )
        .with_hint("render `{{ dataset.table.rows_html | safe }}` inside the table body")
    })
}

/// Refuses to publish a CSV that changed after it was checked (an editor saving during the
/// build): its rows and download would not be the ones validated.
fn ensure_unchanged(dataset: &Dataset) -> Result<(), Diagnostic> {
    let now = std::fs::metadata(&dataset.csv_path).ok();
    let same = now.is_some_and(|m| match dataset.csv.stamp {
        Some(stamp) => FileStamp::from_metadata(&m) == Some(stamp),
        None => m.len() == dataset.csv.bytes && m.modified().ok() == dataset.csv.modified,
    });
    if same {
        Ok(())
    } else {
        Err(Diagnostic::error(
            &dataset.csv_display,
            "the CSV file changed while the site was being built",
        )
        .with_hint("build again once the file is saved"))
    }
}

/// Which of the site files that list every dataset are written: a rebuild leaves alone
/// those whose bytes its change cannot alter (on 10,000 datasets, each is a pass over all
/// of them and megabytes written).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SiteFiles {
    /// `data/catalog.json`.
    pub catalog: bool,
    /// The split search index, `data/search/`.
    pub search_index: bool,
    /// `sitemap.xml` and its children.
    pub sitemap: bool,
}

impl SiteFiles {
    /// Every one of them (a full build).
    pub const ALL: SiteFiles = SiteFiles {
        catalog: true,
        search_index: true,
        sitemap: true,
    };
}

/// The catalog, search index, sitemap (those `which` names), feed and robots.txt;
/// `ordered` is every dataset in listing order.
pub fn write_site_metadata(
    site: &Site,
    ordered: &[usize],
    dcat_page: &(dyn Fn(usize) -> bool + Sync),
    which: SiteFiles,
    writer: &Writer,
) {
    use metadata::catalog_files as files;
    let no_file = Path::new(layout::SITE_TOML);
    let (paths, sitemaps) = match which.sitemap {
        true => {
            let paths = files::page_paths(site);
            // A rebuild counts the URLs to find stale child sitemaps: the count must agree.
            debug_assert_eq!(paths.len(), files::page_count(site));
            let sitemaps = files::sitemap_files(site, paths.len());
            (paths, sitemaps)
        }
        false => (Vec::new(), Vec::new()),
    };
    // Each file is independent and, on a large catalog, each lists every dataset: they
    // are written in parallel.
    // What every DCAT page states alike, worked out once rather than per page.
    let shared = &metadata::dcat::shared_facts(site);
    rayon::scope(|scope| {
        if which.catalog {
            scope.spawn(|_| {
                writer.run(
                    || writer.stream(urls::CATALOG, |out| files::write_catalog(site, out)),
                    no_file,
                )
            });
        }
        if which.search_index {
            scope.spawn(|_| writer.run(|| write_search_files(site, ordered, writer), no_file));
        }
        for (name, start) in sitemaps {
            let paths = &paths;
            scope.spawn(move |_| {
                writer.run(
                    || {
                        writer.stream(&name, |out| {
                            files::write_sitemap(site, paths, &name, start, out)
                        })
                    },
                    no_file,
                )
            });
        }
        scope.spawn(|_| {
            writer.run(
                || writer.bytes(urls::FEED, metadata::site_files::feed(site).as_bytes()),
                no_file,
            );
            writer.run(
                || writer.bytes(urls::ROBOTS, metadata::site_files::robots(site).as_bytes()),
                no_file,
            );
        });
        // Every syntax of a page at once: each dataset is read and described once.
        for page in 1..=metadata::dcat::page_count(site) {
            if !dcat_page(page) {
                continue;
            }
            scope.spawn(move |_| {
                let files = metadata::dcat::page_files(site, page);
                writer.run(
                    || {
                        let paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
                        writer.stream_all(&paths, |outs| {
                            let mut outs: Vec<_> = files.iter().map(|f| f.1).zip(outs).collect();
                            metadata::dcat::write(site, page, shared, &mut outs)
                        })
                    },
                    no_file,
                )
            });
        }
    });
}

/// Writes the split search index's files, leaving alone those already there with the same
/// bytes (a `serve` rebuild changes a few shards) and removing the files of an earlier
/// index that this one no longer has.
fn write_search_files(site: &Site, ordered: &[usize], writer: &Writer) -> Result<(), Diagnostic> {
    let root = writer.sink.root();
    let mut written = std::collections::HashSet::new();
    let unread = |e| write_problem(urls::SEARCH_FOLDER, e);
    metadata::catalog_files::search_index_files(site, ordered, unread, |(path, bytes)| {
        if !std::fs::read(root.join(&path)).is_ok_and(|old| old == bytes) {
            writer.bytes(&path, &bytes)?;
        }
        written.insert(path);
        Ok(())
    })?;
    if let Ok(entries) = std::fs::read_dir(root.join(urls::SEARCH_FOLDER)) {
        for entry in entries.flatten() {
            let name = format!(
                "{}/{}",
                urls::SEARCH_FOLDER,
                entry.file_name().to_string_lossy()
            );
            if !written.contains(&name) {
                writer.remove(&name);
            }
        }
    }
    Ok(())
}

/// Copies `static/` into the output root as is (symbolic links followed when they stay
/// inside the site folder; the others were reported while loading).
pub fn copy_static(root: &Path, writer: &Writer) {
    let walk = crate::site::static_files(root);
    for problem in walk.problems {
        writer.run(|| Err(problem), Path::new(layout::STATIC));
    }
    for file in &walk.files {
        writer.run(
            || writer.copy(&file.real, &file.name),
            Path::new(layout::STATIC),
        );
    }
}

/// Brings one changed file of `static/` (`relative` inside it) up to date in the output:
/// copied when it is a file inside the site folder, removed when it is gone, reported (the
/// served copy kept, as for any failed rebuild) when it leads outside.
pub fn update_static(root: &Path, relative: &Path, writer: &Writer) {
    let name = relative.to_string_lossy().replace('\\', "/");
    let shown = Path::new(layout::STATIC).join(relative);
    let source = root.join(&shown);
    if std::fs::symlink_metadata(&source).is_err() {
        // The site's own file is gone: the built-in one of that name takes its place.
        if !write_built_in_asset(&name, writer) {
            writer.remove(&name);
        }
        return;
    }
    match crate::confine::resolve_under(root, &source) {
        Ok(real) => writer.run(|| writer.copy(&real, &name), &shown),
        Err(problem) => writer.run(|| Err(problem), &shown),
    }
}

/// Writes the built-in theme's static assets ([`crate::theme::STATIC_FILES`]) that the
/// site's own `static/` does not replace, so pages never link a stylesheet or script that
/// is not there.
pub fn write_built_in_static(root: &Path, writer: &Writer) {
    for (name, _) in crate::theme::STATIC_FILES {
        if !root.join(layout::STATIC).join(name).is_file() {
            write_built_in_asset(name, writer);
        }
    }
}

/// Writes `words-<language>.js`, the scripts' words in the site's language.
pub fn write_words_script(site: &Site, writer: &Writer) {
    let name = site.words.script_name();
    let script = site.words.script();
    writer.run(
        || writer.bytes(&name, script.as_bytes()),
        Path::new(crate::i18n::FOLDER),
    );
}

/// Writes the built-in asset of that output path; false when there is none (for `serve`,
/// when a site's own static file is deleted and the built-in one takes its place again).
pub fn write_built_in_asset(name: &str, writer: &Writer) -> bool {
    match crate::theme::static_file(name) {
        Some(bytes) => {
            writer.run(|| writer.bytes(name, bytes), Path::new(layout::STATIC));
            true
        }
        None => false,
    }
}
