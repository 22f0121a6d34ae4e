//! Planning an incremental rebuild: reload what the pending changes touch, check the whole
//! site as it would be, and work out which outputs to write again.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;

use super::Session;
use crate::content;
use crate::dataset;
use crate::diagnostics::{Diagnostic, Diagnostics, Severity};
use crate::incremental::{self, Affected, Change};
use crate::layout;
use crate::site::{self, Site};

/// An incremental rebuild, checked and ready to write.
pub(super) struct Plan {
    pub(super) site: Site,
    pub(super) affected: Affected,
    pub(super) changes: PlannedChanges,
    /// How the problems per file change once this rebuild lands.
    pub(super) problems: ProblemsDelta,
    pub(super) warnings: Diagnostics,
}

/// The files whose problems a rebuild read again: their old problems are forgotten and the
/// new ones recorded. A delta, not a copy: on 10,000 datasets the site holds 20,000
/// warnings, and copying them on every keystroke cost a tenth of an edit's reload.
#[derive(Default)]
pub(super) struct ProblemsDelta {
    forgotten: BTreeSet<PathBuf>,
    fresh: BTreeMap<PathBuf, Vec<Diagnostic>>,
}

impl ProblemsDelta {
    fn forget(&mut self, file: &std::path::Path) {
        self.fresh.remove(file);
        self.forgotten.insert(file.to_path_buf());
    }

    /// The problems per file after this rebuild.
    pub(super) fn apply(self, file_problems: &mut BTreeMap<PathBuf, Vec<Diagnostic>>) {
        for file in &self.forgotten {
            file_problems.remove(file);
        }
        file_problems.extend(self.fresh);
    }

    /// Whether `file`'s problems as of before this rebuild still hold.
    fn keeps(&self, file: &std::path::Path) -> bool {
        !self.forgotten.contains(file) && !self.fresh.contains_key(file)
    }
}

/// Plain pages and static files touched by the changes.
pub(super) struct PlannedChanges {
    pub(super) pages: BTreeSet<PathBuf>,
    pub(super) statics: BTreeSet<PathBuf>,
    pub(super) all_pages: bool,
}

/// What the pending changes name, sorted by kind.
#[derive(Default)]
struct Touched {
    /// Datasets to load again (also those whose CSV changed).
    slugs: BTreeSet<String>,
    pages: BTreeSet<PathBuf>,
    statics: BTreeSet<PathBuf>,
}

impl Session {
    /// Loads what the pending changes touch and checks the whole site as it would be.
    pub(super) fn plan(&self) -> Result<Plan, Diagnostics> {
        let root = &self.options.root;
        let mut problems = ProblemsDelta::default();
        // In slug order, as the site keeps them (a sorted list, not a map: on 10,000
        // datasets building a map of them cost a sixth of an edit's reload).
        let mut datasets: Vec<site::Held> = self.site.datasets.to_vec();
        let mut touched = self.touched(&datasets);
        // Pages that quote a changed dataset's cells resolve their figures again.
        let quoting = incremental::quoting(&self.site, &touched.slugs);
        touched.slugs.extend(quoting);
        self.reload_datasets(&touched.slugs, &mut datasets, &mut problems);
        let (pages, home) = self.reread_pages(&touched.pages, &mut problems);
        let (mut site, site_problems) = Site::assemble_checking(
            root,
            self.site.config.clone(),
            (
                site::Datasets::new(datasets, None),
                pages,
                home,
                &self.site.outputs,
            ),
            &|slug| touched.slugs.contains(slug),
            Diagnostics::new(),
        );
        site.default_date = self.site.default_date.clone();
        site.words = self.site.words.clone();
        let site_problems = self.fail_on_errors(&site, &touched, &problems, site_problems)?;
        let mut affected = incremental::affected(&self.site, &site, &touched.slugs);
        let titles_changed = self.page_titles_changed(&site, &touched.pages);
        if titles_changed {
            // Page titles are in every page's navigation.
            affected.related_pages.extend(
                site.datasets
                    .slugs()
                    .filter(|slug| !affected.datasets.contains(*slug))
                    .map(str::to_string),
            );
            affected
                .tags
                .extend(site.tags.iter().map(|t| t.slug.clone()));
            affected.listings = true;
        }
        let warnings = fresh_warnings(&site, &touched, &problems, &site_problems);
        Ok(Plan {
            site,
            affected,
            changes: PlannedChanges {
                pages: touched.pages,
                statics: touched.statics,
                all_pages: titles_changed,
            },
            problems,
            warnings,
        })
    }

    /// The pending changes sorted by kind; `datasets` is the site's list (by slug).
    fn touched(&self, datasets: &[site::Held]) -> Touched {
        let root = &self.options.root;
        let mut touched = Touched::default();
        for change in &self.pending {
            match change {
                Change::Dataset(slug) => {
                    touched.slugs.insert(slug.clone());
                }
                Change::DataFile(relative) => {
                    touched.slugs.extend(
                        self.site
                            .datasets
                            .wholes()
                            .map(|(_, d)| d)
                            .filter(|d| &d.csv_display == relative || d.keeps_version(relative))
                            .map(|d| d.slug.to_string()),
                    );
                    // A dataset that failed to load (its CSV was missing) is not in the site yet.
                    if let Some(stem) = relative.file_stem().and_then(|s| s.to_str()) {
                        if root.join(layout::dataset_markdown(stem)).is_file()
                            && position(datasets, stem).is_err()
                        {
                            touched.slugs.insert(stem.to_string());
                        }
                    }
                }
                Change::Page(relative) => {
                    touched.pages.insert(relative.clone());
                }
                Change::Static(relative) => {
                    touched.statics.insert(relative.clone());
                }
                Change::Templates | Change::Config | Change::Catalogues => {}
            }
        }
        touched
    }

    /// Loads the datasets `slugs` again (in parallel) and puts each in its place in
    /// `datasets`, or takes it out when it is gone; the problems of their old and new
    /// files are forgotten and the new ones recorded.
    fn reload_datasets(
        &self,
        slugs: &BTreeSet<String>,
        datasets: &mut Vec<site::Held>,
        problems: &mut ProblemsDelta,
    ) {
        let (root, config) = (&self.options.root, &self.site.config);
        let cache = self.options.active_scan_cache();
        let reloaded: Vec<(&String, Option<dataset::Loaded>)> = slugs
            .par_iter()
            .map(|slug| (slug, site::load_dataset(root, slug, config, cache.as_ref())))
            .collect();
        for (slug, loaded) in &reloaded {
            // Forget the problems of the old version (its Markdown and CSV) before
            // recording those of the new one.
            problems.forget(&layout::dataset_markdown(slug));
            if let Ok(index) = position(datasets, slug) {
                if let Some(dataset) = datasets.remove(index).dataset() {
                    problems.forget(&dataset.csv_display);
                }
            }
            if let Some(Some(dataset)) = loaded.as_ref().map(|l| &l.dataset) {
                problems.forget(&dataset.csv_display);
            }
        }
        for (slug, loaded) in reloaded {
            let Some(loaded) = loaded else {
                continue;
            };
            record(&mut problems.fresh, loaded.problems);
            if let Some(dataset) = loaded.dataset {
                let entry = self.site.outputs.entry(config, &dataset, Vec::new());
                let held = site::Held::whole(Arc::new(dataset), entry);
                match position(datasets, slug) {
                    Ok(index) => datasets[index] = held,
                    Err(index) => datasets.insert(index, held),
                }
            }
        }
    }

    /// The plain pages and home page with the changed ones (`changed`) read again.
    fn reread_pages(
        &self,
        changed: &BTreeSet<PathBuf>,
        problems: &mut ProblemsDelta,
    ) -> (Vec<content::Page>, Option<content::Page>) {
        let root = &self.options.root;
        let mut pages = self.site.pages.clone();
        let mut home = self.site.home.clone();
        for relative in changed {
            problems.forget(relative);
            let name = content::page_name(relative);
            pages.retain(|p| p.name != name);
            if name.is_empty() {
                home = None;
            }
            let path = root.join(relative);
            if path.is_file() {
                let placed =
                    site::place_page(root, &path, &self.site.config, &mut pages, &mut home);
                if let Err(found) = placed {
                    record(&mut problems.fresh, found);
                }
            }
        }
        (pages, home)
    }

    /// `Err` with the whole site's problems, as a full build lists them, when the site
    /// as it would be has an error; else the problems of the checks across datasets.
    fn fail_on_errors(
        &self,
        site: &Site,
        touched: &Touched,
        problems: &ProblemsDelta,
        mut site_problems: Diagnostics,
    ) -> Result<Diagnostics, Diagnostics> {
        // The problems of files this rebuild did not read are those of the last successful
        // build (warnings only); they are copied into the answer only when it fails.
        let kept = || {
            self.file_problems
                .iter()
                .filter(|(file, _)| problems.keeps(file))
                .flat_map(|(_, found)| found)
        };
        let is_error = |d: &Diagnostic| d.severity == Severity::Error;
        let fails = problems.fresh.values().flatten().any(is_error)
            || site_problems.has_errors()
            || kept().any(is_error);
        if !fails {
            return Ok(site_problems);
        }
        site_problems.extend(site.dataset_problems(&|slug| !touched.slugs.contains(slug)));
        let mut diagnostics = Diagnostics::new();
        diagnostics.extend(kept().cloned());
        diagnostics.extend(problems.fresh.values().flatten().cloned());
        diagnostics.extend(site_problems);
        diagnostics.sort();
        Err(diagnostics)
    }

    /// Whether a changed plain page's title differs in `site` from the current site's.
    fn page_titles_changed(&self, site: &Site, changed: &BTreeSet<PathBuf>) -> bool {
        changed.iter().any(|relative| {
            let name = content::page_name(relative);
            let title = |s: &Site| {
                s.pages
                    .iter()
                    .find(|p| p.name == name)
                    .map(|p| p.front.title.clone())
            };
            title(&self.site) != title(site)
        })
    }
}

/// The warnings about the files this rebuild read again; the rest were shown before (the
/// first build prints them all, and `datapages check` lists them).
fn fresh_warnings(
    site: &Site,
    touched: &Touched,
    problems: &ProblemsDelta,
    site_problems: &Diagnostics,
) -> Diagnostics {
    let mut files: BTreeSet<PathBuf> = touched.pages.clone();
    for slug in &touched.slugs {
        files.insert(layout::dataset_markdown(slug));
        if let Some(dataset) = site.dataset(slug) {
            files.insert(dataset.markdown_path.clone());
            files.insert(dataset.csv_display.clone());
        }
    }
    let mut warnings = Diagnostics::from_iter(
        (problems.fresh.values().flatten())
            .chain(site_problems.items())
            .filter(|d| d.severity == Severity::Warning && files.contains(&d.file))
            .cloned(),
    );
    warnings.sort();
    warnings
}

/// Where `slug` is in `datasets` (sorted by slug), or where it would go.
fn position(datasets: &[site::Held], slug: &str) -> Result<usize, usize> {
    datasets.binary_search_by(|d| d.slug().cmp(slug))
}

/// Files' problems, kept per file so a rebuild can forget those of the files it reads again.
pub(super) fn record(
    file_problems: &mut BTreeMap<PathBuf, Vec<Diagnostic>>,
    problems: impl IntoIterator<Item = Diagnostic>,
) {
    for d in problems {
        file_problems.entry(d.file.clone()).or_default().push(d);
    }
}
