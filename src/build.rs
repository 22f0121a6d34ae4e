//! The build pipeline: load and check the site, render every page, write into a staging
//! folder, and swap it into place only when everything succeeded. A [`Session`] keeps the
//! loaded site and parsed templates so `serve` can rebuild only what a change affects.

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::content;
use crate::dataset::cache::ScanCache;
use crate::dataset::{self, Dataset};
use crate::diagnostics::{Diagnostic, Diagnostics, Error, Severity};
use crate::incremental::{self, Affected, Change};
use crate::output::{guard, LiveDir, Staging};
use crate::render::{urls, Renderer};
use crate::site::{self, Site};
use crate::write::{self, CsvCopy, Writer};

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

/// What a check found that does not stop a build.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct CheckReport {
    /// Warnings: a build would succeed, but `check --strict` fails.
    pub warnings: Diagnostics,
}

/// Runs every check of a build without writing anything (`output` and `force` are not
/// used). A site with errors is an [`Error::Problems`] holding its warnings too, in the
/// order they are shown; warnings alone are not a failure, so they come back in the report.
pub fn check(options: &BuildOptions) -> Result<CheckReport, Error> {
    let (_, mut diagnostics) = site::load(&options.root, options.active_scan_cache().as_ref());
    if let Err(problems) = Renderer::new(&options.root) {
        diagnostics.extend(problems);
    }
    if diagnostics.has_errors() {
        return Err(Error::Problems(diagnostics));
    }
    Ok(CheckReport {
        warnings: diagnostics,
    })
}

/// Builds the site. On any error the previous output is left exactly as it was.
pub fn build(options: &BuildOptions) -> Result<BuildReport, Error> {
    Session::start(options, |staging| staging.commit())
        .map(|(_, report)| report)
        .map_err(Error::Problems)
}

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
    pub elapsed: Duration,
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
        format!(
            "{} changed: {what} {} pages ({} files) in {} ms",
            self.changed.join(", "),
            self.pages,
            self.files,
            self.elapsed.as_millis()
        )
    }
}

/// A loaded, rendered site that can be rebuilt in part when its sources change.
pub struct Session {
    options: BuildOptions,
    site: Site,
    renderer: Renderer,
    /// Problems of each source file as of its last load (errors and warnings), so every
    /// rebuild reports the state of the whole site, not just of the last edit.
    file_problems: BTreeMap<PathBuf, Vec<Diagnostic>>,
    /// Changes whose rebuild failed; retried with the next change.
    pending: BTreeSet<Change>,
}

impl Session {
    /// A full build; `commit` moves the finished staging folder into place (serve takes a
    /// lock around it so no request sees the swap).
    pub fn start(
        options: &BuildOptions,
        commit: impl FnOnce(Staging) -> io::Result<()>,
    ) -> Result<(Session, BuildReport), Diagnostics> {
        let started = Instant::now();
        let output = options.output_dir();
        let (site, file_diagnostics, site_diagnostics) =
            site::load_parts(&options.root, options.active_scan_cache().as_ref());
        let mut diagnostics = file_diagnostics.clone();
        diagnostics.extend(site_diagnostics);
        diagnostics.sort();
        let renderer = Renderer::new(&options.root);
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
        let target = match guard::check_output(&site.root, &output, options.force) {
            Ok(target) => target,
            Err(problem) => {
                diagnostics.push(problem);
                return Err(diagnostics);
            }
        };
        let staging = Staging::create(&target).map_err(|e| {
            let mut d = diagnostics.clone();
            d.push(Diagnostic::error(
                &output,
                format!("cannot create the output folder: {e}"),
            ));
            d
        })?;
        let writer = Writer::new(&staging);
        let pages = render_everything(&site, &renderer, &writer);
        let files = writer.files();
        let problems = writer.into_problems();
        if !problems.is_empty() {
            diagnostics.extend(problems);
            diagnostics.sort();
            return Err(diagnostics);
        }
        if let Err(e) = commit(staging) {
            diagnostics.push(Diagnostic::error(
                &output,
                format!("cannot move the new output into place: {e}"),
            ));
            return Err(diagnostics);
        }
        let report = BuildReport {
            pages,
            datasets: site.datasets.len(),
            rows: site.total_rows(),
            files,
            elapsed: started.elapsed(),
            output,
            warnings: diagnostics.clone(),
        };
        // Only problems of single files are kept: those of the site as a whole are
        // recomputed by every rebuild.
        let mut file_problems: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
        for d in file_diagnostics {
            file_problems.entry(d.file.clone()).or_default().push(d);
        }
        let session = Session {
            options: options.clone(),
            site,
            renderer,
            file_problems,
            pending: BTreeSet::new(),
        };
        Ok((session, report))
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
    ) -> Result<RebuildReport, Diagnostics> {
        let started = Instant::now();
        self.pending.extend(changes);
        let changed = self
            .pending
            .iter()
            .map(|c| describe(c, &self.site))
            .collect();
        if self.pending.iter().any(Change::is_global) {
            let (session, report) = Session::start(&self.options, commit)?;
            *self = session;
            return Ok(RebuildReport {
                changed,
                full: true,
                pages: report.pages,
                files: report.files,
                urls: Vec::new(),
                elapsed: started.elapsed(),
                warnings: report.warnings,
            });
        }
        let plan = self.plan()?;
        let live = LiveDir::new(&self.output_dir());
        let writer = Writer::new(&live);
        let csv_unchanged = plan
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
        let (pages, urls) = render_affected(
            &plan.site,
            &self.renderer,
            &plan.affected,
            &plan.changes,
            &csv_unchanged,
            &writer,
        );
        let files = writer.files();
        let problems = writer.into_problems();
        if !problems.is_empty() {
            let mut diagnostics = Diagnostics::new();
            diagnostics.extend(problems);
            return Err(diagnostics);
        }
        self.site = plan.site;
        self.file_problems = plan.file_problems;
        self.pending.clear();
        Ok(RebuildReport {
            changed,
            full: false,
            pages,
            files,
            urls,
            elapsed: started.elapsed(),
            warnings: plan.warnings,
        })
    }

    /// Loads what the pending changes touch and checks the whole site as it would be.
    fn plan(&self) -> Result<Plan, Diagnostics> {
        let root = self.options.root.clone();
        let mut file_problems = self.file_problems.clone();
        let mut datasets: BTreeMap<String, Arc<Dataset>> = self
            .site
            .datasets
            .iter()
            .map(|d| (d.slug.clone(), Arc::clone(d)))
            .collect();
        let mut pages = self.site.pages.clone();
        let mut home = self.site.home.clone();
        let mut changed_slugs = BTreeSet::new();
        let mut statics = BTreeSet::new();
        let mut changed_pages = BTreeSet::new();
        for change in &self.pending {
            match change {
                Change::Dataset(slug) => {
                    changed_slugs.insert(slug.clone());
                }
                Change::DataFile(relative) => {
                    changed_slugs.extend(
                        self.site
                            .datasets
                            .iter()
                            .filter(|d| &d.csv_display == relative)
                            .map(|d| d.slug.clone()),
                    );
                    // A dataset that failed to load (its CSV was missing) is not in the site yet.
                    if let Some(stem) = relative.file_stem().and_then(|s| s.to_str()) {
                        if root
                            .join("content/datasets")
                            .join(format!("{stem}.md"))
                            .is_file()
                            && !datasets.contains_key(stem)
                        {
                            changed_slugs.insert(stem.to_string());
                        }
                    }
                }
                Change::Page(relative) => {
                    changed_pages.insert(relative.clone());
                }
                Change::Static(relative) => {
                    statics.insert(relative.clone());
                }
                Change::Templates | Change::Config => {}
            }
        }
        let cache = self.options.active_scan_cache();
        let reloaded: Vec<(String, Option<dataset::Loaded>)> = changed_slugs
            .par_iter()
            .map(|slug| {
                let path = root.join("content/datasets").join(format!("{slug}.md"));
                let loaded = path
                    .is_file()
                    .then(|| dataset::load(&root, &path, &self.site.config, cache.as_ref()));
                (slug.clone(), loaded)
            })
            .collect();
        for (slug, loaded) in reloaded {
            // Forget the problems of the old version (its Markdown and CSV) before
            // recording those of the new one.
            file_problems.remove(&PathBuf::from(format!("content/datasets/{slug}.md")));
            if let Some(old) = datasets.remove(&slug) {
                file_problems.remove(&old.csv_display);
            }
            let Some((dataset, problems)) = loaded else {
                continue;
            };
            if let Some(dataset) = &dataset {
                file_problems.remove(&dataset.csv_display);
            }
            for d in problems {
                file_problems.entry(d.file.clone()).or_default().push(d);
            }
            if let Some(dataset) = dataset {
                datasets.insert(slug, Arc::new(dataset));
            }
        }
        for relative in &changed_pages {
            file_problems.remove(relative);
            let path = root.join(relative);
            let name = content::page_name(relative);
            pages.retain(|p| p.name != name);
            if name.is_empty() {
                home = None;
            }
            if path.is_file() {
                match site::load_page(&root, &path, &self.site.config) {
                    Ok(page) if page.name.is_empty() => home = Some(page),
                    Ok(page) => pages.push(page),
                    Err(problems) => {
                        for d in problems {
                            file_problems.entry(d.file.clone()).or_default().push(d);
                        }
                    }
                }
            }
        }
        let (mut site, site_problems) = Site::assemble(
            &root,
            self.site.config.clone(),
            datasets.into_values().collect(),
            pages,
            home,
        );
        site.default_date = self.site.default_date.clone();
        let mut diagnostics = Diagnostics::new();
        diagnostics.extend(file_problems.values().flatten().cloned());
        diagnostics.extend(site_problems);
        diagnostics.sort();
        if diagnostics.has_errors() {
            return Err(diagnostics);
        }
        let mut affected = incremental::affected(&self.site, &site, &changed_slugs);
        let titles_changed = changed_pages.iter().any(|relative| {
            let name = content::page_name(relative);
            let title = |s: &Site| {
                s.pages
                    .iter()
                    .find(|p| p.name == name)
                    .map(|p| p.front.title.clone())
            };
            title(&self.site) != title(&site)
        });
        if titles_changed {
            // Page titles are in every page's navigation.
            affected.related_pages.extend(
                site.datasets
                    .iter()
                    .filter(|d| !affected.datasets.contains(&d.slug))
                    .map(|d| d.slug.clone()),
            );
            affected
                .tags
                .extend(site.tags.iter().map(|t| t.slug.clone()));
            affected.listings = true;
        }
        // Warnings about the files this rebuild read again; the rest were shown before
        // (the first build prints them all, and `datapages check` lists them).
        let mut touched: BTreeSet<PathBuf> = changed_pages.clone();
        for slug in &changed_slugs {
            touched.insert(PathBuf::from(format!("content/datasets/{slug}.md")));
            if let Some(dataset) = site.dataset(slug) {
                touched.insert(dataset.markdown_path.clone());
                touched.insert(dataset.csv_display.clone());
            }
        }
        let warnings = Diagnostics::from_iter(
            diagnostics
                .into_iter()
                .filter(|d| d.severity == Severity::Warning && touched.contains(&d.file)),
        );
        Ok(Plan {
            site,
            affected,
            changes: PlannedChanges {
                pages: changed_pages,
                statics,
                all_pages: titles_changed,
            },
            file_problems,
            warnings,
        })
    }
}

/// An incremental rebuild, checked and ready to write.
struct Plan {
    site: Site,
    affected: Affected,
    changes: PlannedChanges,
    file_problems: BTreeMap<PathBuf, Vec<Diagnostic>>,
    warnings: Diagnostics,
}

/// Plain pages and static files touched by the changes.
struct PlannedChanges {
    pages: BTreeSet<PathBuf>,
    statics: BTreeSet<PathBuf>,
    all_pages: bool,
}

/// The user-facing name of a change.
fn describe(change: &Change, site: &Site) -> String {
    match change {
        Change::Dataset(slug) => site
            .dataset(slug)
            .map(|d| d.markdown_path.display().to_string())
            .unwrap_or_else(|| format!("content/datasets/{slug}.md")),
        Change::DataFile(p) | Change::Page(p) => p.display().to_string(),
        Change::Static(p) => format!("static/{}", p.display()),
        Change::Templates => "templates/".to_string(),
        Change::Config => "site.toml".to_string(),
    }
}

/// Renders and writes every output of the site; returns the number of HTML pages.
fn render_everything(site: &Site, renderer: &Renderer, writer: &Writer) -> usize {
    site.datasets.par_iter().for_each(|dataset| {
        writer.run(
            || write::write_dataset(site, renderer, dataset, writer, CsvCopy::Write),
            &dataset.markdown_path,
        );
    });
    write_listings(site, renderer, writer);
    writer.run(
        || writer.page("404.html", renderer.not_found_page(site)),
        Path::new("templates/404.html"),
    );
    site.tags
        .par_iter()
        .for_each(|tag| write_tag(site, renderer, tag, writer));
    for page in &site.pages {
        write_page(site, renderer, page, writer);
    }
    write::copy_static(&site.root, writer);
    write::write_built_in_static(&site.root, writer);
    site.datasets.len() + 3 + site.tags.len() + site.pages.len()
}

/// Home, All datasets and the site's metadata files: each lists every dataset, so they
/// are the slow part of a small rebuild on a large site; they render in parallel.
fn write_listings(site: &Site, renderer: &Renderer, writer: &Writer) {
    rayon::join(
        || {
            writer.run(
                || writer.page("index.html", renderer.home_page(site)),
                Path::new("content/_index.md"),
            )
        },
        || {
            rayon::join(
                || {
                    writer.run(
                        || writer.page("datasets/index.html", renderer.datasets_page(site)),
                        Path::new("templates/datasets.html"),
                    )
                },
                || write::write_site_metadata(site, writer),
            )
        },
    );
}

fn write_tag(site: &Site, renderer: &Renderer, tag: &site::Tag, writer: &Writer) {
    let path = format!("{}index.html", urls::tag_page(&tag.slug));
    writer.run(
        || writer.page(&path, renderer.tag_page(site, tag)),
        Path::new("templates/tag.html"),
    );
}

fn write_page(site: &Site, renderer: &Renderer, page: &content::Page, writer: &Writer) {
    let path = format!("{}index.html", urls::page(&page.name));
    writer.run(
        || writer.page(&path, renderer.plain_page(site, page)),
        Path::new("content"),
    );
}

/// Writes what an incremental rebuild affects; returns (pages rendered, URL paths changed).
/// `csv_unchanged` names the datasets whose CSV has the stamp it had when it was last
/// written (their copy stays, if it is still there).
fn render_affected(
    site: &Site,
    renderer: &Renderer,
    affected: &Affected,
    changes: &PlannedChanges,
    csv_unchanged: &BTreeSet<String>,
    writer: &Writer,
) -> (usize, Vec<String>) {
    let mut urls_changed = BTreeSet::new();
    let datasets: Vec<&Arc<Dataset>> = site
        .datasets
        .iter()
        .filter(|d| affected.datasets.contains(&d.slug))
        .collect();
    datasets.par_iter().for_each(|dataset| {
        let csv_copy = if csv_unchanged.contains(&dataset.slug) {
            CsvCopy::KeepIfPresent
        } else {
            CsvCopy::Write
        };
        writer.run(
            || write::write_dataset(site, renderer, dataset, writer, csv_copy),
            &dataset.markdown_path,
        );
    });
    let related: Vec<&Arc<Dataset>> = site
        .datasets
        .iter()
        .filter(|d| affected.related_pages.contains(&d.slug))
        .collect();
    related.par_iter().for_each(|dataset| {
        writer.run(
            || write::write_dataset_page(site, renderer, dataset, writer),
            &dataset.markdown_path,
        );
    });
    for dataset in datasets.iter().chain(&related) {
        urls_changed.insert(format!("/{}", urls::dataset_page(&dataset.slug)));
    }
    for file in &affected.stale_files {
        writer.remove(file);
    }
    for slug in &affected.removed_datasets {
        for path in [
            urls::dataset_page(slug),
            urls::csv_file(slug),
            urls::json_file(slug),
            urls::csvw_file(slug),
            urls::croissant_file(slug),
        ] {
            writer.remove(&path);
        }
        for (_, path) in crate::metadata::citation_files::file_paths(slug) {
            writer.remove(&path);
        }
        urls_changed.insert(format!("/{}", urls::dataset_page(slug)));
    }
    let tags: Vec<&site::Tag> = site
        .tags
        .iter()
        .filter(|t| affected.tags.contains(&t.slug))
        .collect();
    tags.par_iter()
        .for_each(|tag| write_tag(site, renderer, tag, writer));
    for tag in &tags {
        urls_changed.insert(format!("/{}", urls::tag_page(&tag.slug)));
    }
    for slug in &affected.removed_tags {
        writer.remove(&urls::tag_page(slug));
        urls_changed.insert(format!("/{}", urls::tag_page(slug)));
    }
    let mut pages = affected.page_count();
    if affected.listings {
        write_listings(site, renderer, writer);
        urls_changed.extend(["/".to_string(), format!("/{}", urls::DATASETS)]);
    }
    for relative in &changes.pages {
        let name = content::page_name(relative);
        if name.is_empty() {
            writer.run(
                || writer.page("index.html", renderer.home_page(site)),
                relative,
            );
            urls_changed.insert("/".to_string());
            pages += 1;
        } else if let Some(page) = site.pages.iter().find(|p| p.name == name) {
            write_page(site, renderer, page, writer);
            urls_changed.insert(format!("/{}", urls::page(&name)));
            pages += 1;
        } else {
            writer.remove(&urls::page(&name));
            urls_changed.insert(format!("/{}", urls::page(&name)));
        }
    }
    if changes.all_pages {
        for page in &site.pages {
            write_page(site, renderer, page, writer);
            pages += 1;
        }
        writer.run(
            || writer.page("404.html", renderer.not_found_page(site)),
            Path::new("templates/404.html"),
        );
        urls_changed.clear();
    }
    for relative in &changes.statics {
        write::update_static(&site.root, relative, writer);
        urls_changed.insert(format!(
            "/{}",
            relative.to_string_lossy().replace('\\', "/")
        ));
    }
    (pages, urls_changed.into_iter().collect())
}
