//! Planning an incremental rebuild: reload what the pending changes touch, check the whole
//! site as it would be, and work out which outputs to write again.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;

use super::Session;
use crate::content;
use crate::dataset::{self, Dataset};
use crate::diagnostics::{Diagnostic, Diagnostics, Severity};
use crate::incremental::{self, Affected, Change};
use crate::layout;
use crate::site::{self, Site};

/// An incremental rebuild, checked and ready to write.
pub(super) struct Plan {
    pub(super) site: Site,
    pub(super) affected: Affected,
    pub(super) changes: PlannedChanges,
    pub(super) file_problems: BTreeMap<PathBuf, Vec<Diagnostic>>,
    pub(super) warnings: Diagnostics,
}

/// Plain pages and static files touched by the changes.
pub(super) struct PlannedChanges {
    pub(super) pages: BTreeSet<PathBuf>,
    pub(super) statics: BTreeSet<PathBuf>,
    pub(super) all_pages: bool,
}

impl Session {
    /// Loads what the pending changes touch and checks the whole site as it would be.
    pub(super) fn plan(&self) -> Result<Plan, Diagnostics> {
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
                        if root.join(layout::dataset_markdown(stem)).is_file()
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
        // Pages that quote a changed dataset's cells resolve their figures again.
        let quoting = incremental::quoting(&self.site, &changed_slugs);
        changed_slugs.extend(quoting);
        let cache = self.options.active_scan_cache();
        let reloaded: Vec<(String, Option<dataset::Loaded>)> = changed_slugs
            .par_iter()
            .map(|slug| {
                let loaded = site::load_dataset(&root, slug, &self.site.config, cache.as_ref());
                (slug.clone(), loaded)
            })
            .collect();
        for (slug, loaded) in reloaded {
            // Forget the problems of the old version (its Markdown and CSV) before
            // recording those of the new one.
            file_problems.remove(&layout::dataset_markdown(&slug));
            if let Some(old) = datasets.remove(&slug) {
                file_problems.remove(&old.csv_display);
            }
            let Some(dataset::Loaded {
                dataset, problems, ..
            }) = loaded
            else {
                continue;
            };
            if let Some(dataset) = &dataset {
                file_problems.remove(&dataset.csv_display);
            }
            record(&mut file_problems, problems);
            if let Some(dataset) = dataset {
                datasets.insert(slug, Arc::new(dataset));
            }
        }
        for relative in &changed_pages {
            file_problems.remove(relative);
            let name = content::page_name(relative);
            pages.retain(|p| p.name != name);
            if name.is_empty() {
                home = None;
            }
            let path = root.join(relative);
            if path.is_file() {
                let placed =
                    site::place_page(&root, &path, &self.site.config, &mut pages, &mut home);
                if let Err(problems) = placed {
                    record(&mut file_problems, problems);
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
            touched.insert(layout::dataset_markdown(slug));
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

/// Files' problems, kept per file so a rebuild can forget those of the files it reads again.
pub(super) fn record(
    file_problems: &mut BTreeMap<PathBuf, Vec<Diagnostic>>,
    problems: impl IntoIterator<Item = Diagnostic>,
) {
    for d in problems {
        file_problems.entry(d.file.clone()).or_default().push(d);
    }
}
