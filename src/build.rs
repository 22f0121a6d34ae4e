//! The build pipeline: load and check the site, render every page, write into a staging
//! folder, and swap it into place only when everything succeeded.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::dataset::{scan, Dataset};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::output::Staging;
use crate::render::{dataset_charts, urls, Renderer, STREAMED_ROWS_MARKER};
use crate::site::{self, Site};

/// What to build and where.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// The site folder (holds site.toml).
    pub root: PathBuf,
    /// Where to write; `<root>/public` when not given.
    pub output: Option<PathBuf>,
}

impl BuildOptions {
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
pub fn check(root: &Path) -> Diagnostics {
    let (_, mut diagnostics) = site::load(root);
    if let Err(problems) = Renderer::new(root) {
        diagnostics.extend(problems);
    }
    diagnostics
}

/// Builds the site. On any error the previous output is left exactly as it was.
pub fn build(options: &BuildOptions) -> Result<BuildReport, Diagnostics> {
    let started = Instant::now();
    let output = options.output_dir();
    let (site, mut diagnostics) = site::load(&options.root);
    let renderer = Renderer::new(&options.root);
    if let Err(problems) = &renderer {
        diagnostics.extend(problems.iter().cloned());
    }
    let (Some(site), Ok(renderer)) = (site, renderer) else {
        return Err(diagnostics);
    };
    if diagnostics.has_errors() {
        return Err(diagnostics);
    }
    if let Some(problem) = output_problem(&site.root, &output) {
        diagnostics.push(problem);
        return Err(diagnostics);
    }

    let staging = Staging::create(&output).map_err(|e| {
        let mut d = diagnostics.clone();
        d.push(Diagnostic::error(
            &output,
            format!("cannot create the output folder: {e}"),
        ));
        d
    })?;
    let writer = Writer {
        staging: &staging,
        files: AtomicUsize::new(0),
        problems: Mutex::new(Vec::new()),
    };

    site.datasets.par_iter().for_each(|dataset| {
        writer.run(
            || write_dataset(&site, &renderer, dataset, &writer),
            &dataset.markdown_path,
        );
    });
    let mut pages = site.datasets.len();
    writer.run(
        || writer.page("index.html", renderer.home_page(&site)),
        Path::new("content/_index.md"),
    );
    writer.run(
        || writer.page("datasets/index.html", renderer.datasets_page(&site)),
        Path::new("templates/datasets.html"),
    );
    writer.run(
        || writer.page("404.html", renderer.not_found_page(&site)),
        Path::new("templates/404.html"),
    );
    pages += 3;
    for tag in &site.tags {
        let path = format!("{}index.html", urls::tag_page(&tag.slug));
        writer.run(
            || writer.page(&path, renderer.tag_page(&site, tag)),
            Path::new("templates/tag.html"),
        );
        pages += 1;
    }
    for page in &site.pages {
        let path = format!("{}index.html", urls::page(&page.name));
        writer.run(
            || writer.page(&path, renderer.plain_page(&site, page)),
            Path::new("content"),
        );
        pages += 1;
    }
    copy_static(&site.root, &writer);

    let files = writer.files.load(Ordering::Relaxed);
    let problems = writer
        .problems
        .into_inner()
        .unwrap_or_else(|p| p.into_inner());
    if !problems.is_empty() {
        diagnostics.extend(problems);
        diagnostics.sort();
        return Err(diagnostics);
    }
    if let Err(e) = staging.commit() {
        diagnostics.push(Diagnostic::error(
            &output,
            format!("cannot move the new output into place: {e}"),
        ));
        return Err(diagnostics);
    }
    Ok(BuildReport {
        pages,
        datasets: site.datasets.len(),
        rows: site.total_rows(),
        files,
        elapsed: started.elapsed(),
        output,
        warnings: diagnostics,
    })
}

/// Refuses output folders that would overwrite the site's own sources.
fn output_problem(root: &Path, output: &Path) -> Option<Diagnostic> {
    let canonical_root = root.canonicalize().ok()?;
    let parent = output.parent().and_then(|p| p.canonicalize().ok());
    let name = output.file_name()?;
    let resolved = parent
        .map(|p| p.join(name))
        .unwrap_or_else(|| output.to_path_buf());
    let protected = ["content", "data", "templates", "static"];
    let clash = resolved == canonical_root
        || canonical_root.starts_with(&resolved)
        || protected
            .iter()
            .any(|p| resolved.starts_with(canonical_root.join(p)));
    clash.then(|| {
        Diagnostic::error(
            output,
            "the output folder would replace the site's own files",
        )
        .with_hint(
            "choose an output folder outside content/, data/, templates/ and static/, e.g. public",
        )
    })
}

/// Shared state of the parallel write phase.
struct Writer<'a> {
    staging: &'a Staging,
    files: AtomicUsize,
    problems: Mutex<Vec<Diagnostic>>,
}

impl Writer<'_> {
    /// Runs one write step, recording its failure against `file`.
    fn run(&self, step: impl FnOnce() -> Result<(), Diagnostic>, file: &Path) {
        if let Err(mut d) = step() {
            if d.file.as_os_str().is_empty() {
                d.file = file.to_path_buf();
            }
            if let Ok(mut problems) = self.problems.lock() {
                problems.push(d);
            }
        }
    }

    fn page(&self, relative: &str, html: Result<String, Diagnostic>) -> Result<(), Diagnostic> {
        self.bytes(relative, html?.as_bytes())
    }

    fn bytes(&self, relative: &str, bytes: &[u8]) -> Result<(), Diagnostic> {
        self.staging
            .write(relative, bytes)
            .map_err(|e| io_problem(relative, e))?;
        self.files.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

fn io_problem(relative: &str, error: std::io::Error) -> Diagnostic {
    Diagnostic::error(relative, format!("cannot write the output file: {error}"))
        .with_hint("check free disk space and permissions of the output folder")
}

/// The page, the CSV download and the metadata of one dataset.
fn write_dataset(
    site: &Site,
    renderer: &Renderer,
    dataset: &Dataset,
    writer: &Writer,
) -> Result<(), Diagnostic> {
    let page_path = format!("{}index.html", urls::dataset_page(&dataset.slug));
    let charts = dataset_charts(dataset);
    for chart in &charts {
        let path = urls::chart_file(&dataset.slug, &chart.id);
        writer.bytes(&path, chart.file.as_bytes())?;
    }
    if dataset.shown_rows() <= dataset.csv.rendered_rows {
        writer.page(
            &page_path,
            renderer.dataset_page(site, dataset, &dataset.csv.table_html, &charts),
        )?;
    } else {
        // More rows than the scan kept: render around a marker and stream the rows in.
        let html = renderer.dataset_page(site, dataset, STREAMED_ROWS_MARKER, &charts)?;
        let (before, after) = html.split_once(STREAMED_ROWS_MARKER).ok_or_else(|| {
            Diagnostic::error(
                "templates/dataset.html",
                "the template does not output dataset.table.rows_html",
            )
            .with_hint("render `{{ dataset.table.rows_html | safe }}` inside the table body")
        })?;
        let file = writer
            .staging
            .create_file(&page_path)
            .map_err(|e| io_problem(&page_path, e))?;
        let mut out = BufWriter::with_capacity(256 * 1024, file);
        let renderer = scan::RowRenderer::new(&dataset.front.columns);
        out.write_all(before.as_bytes())
            .and_then(|_| {
                scan::stream_rows(&dataset.csv_path, &renderer, dataset.shown_rows(), &mut out)
            })
            .and_then(|_| out.write_all(after.as_bytes()))
            .and_then(|_| out.flush())
            .map_err(|e| io_problem(&page_path, e))?;
        writer.files.fetch_add(1, Ordering::Relaxed);
    }
    let csv_path = urls::csv_file(&dataset.slug);
    writer
        .staging
        .copy(&dataset.csv_path, &csv_path)
        .map_err(|e| io_problem(&csv_path, e))?;
    writer.files.fetch_add(1, Ordering::Relaxed);
    let package = crate::metadata::data_package(site, dataset);
    let mut json = serde_json::to_vec_pretty(&package)
        .map_err(|e| io_problem(&csv_path, std::io::Error::other(e)))?;
    json.push(b'\n');
    writer.bytes(&urls::json_file(&dataset.slug), &json)
}

/// Copies `static/` into the output root as is.
fn copy_static(root: &Path, writer: &Writer) {
    let dir = root.join("static");
    if !dir.is_dir() {
        return;
    }
    for entry in walkdir::WalkDir::new(&dir).sort_by_file_name() {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                writer.run(
                    || {
                        Err(Diagnostic::error(
                            "static",
                            format!("cannot read static/: {e}"),
                        ))
                    },
                    Path::new("static"),
                );
                continue;
            }
        };
        if !entry.file_type().is_file() {
            continue;
        }
        let relative = entry
            .path()
            .strip_prefix(&dir)
            .unwrap_or(entry.path())
            .to_string_lossy()
            .replace('\\', "/");
        writer.run(
            || {
                writer
                    .staging
                    .copy(entry.path(), &relative)
                    .map_err(|e| io_problem(&relative, e))?;
                writer.files.fetch_add(1, Ordering::Relaxed);
                Ok(())
            },
            Path::new("static"),
        );
    }
}
