//! Reading a whole site as steps the build drives, so that each dataset can be written as
//! soon as it is loaded: [`Frame::read`] (site.toml, the files found, the plain pages,
//! the first pass over every dataset's front matter), then per dataset, in parallel,
//! `dataset::load`, [`Frame::leaves_out`] (drafts) and [`Frame::keep`], then
//! [`Frame::assemble`] (the checks across datasets).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use super::{discover, drafts, place_page, static_files};
use super::{Datasets, FirstPass, Held, LoadOptions, Site};
use crate::config::SiteConfig;
use crate::dataset::entry_store::EntryStore;
use crate::diagnostics::{Diagnostic, Diagnostics};

/// Which problems a load keeps, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Warnings {
    /// Every problem (`check`).
    All,
    /// Of each warning, the first this many places, the rest counted
    /// ([`Diagnostics::folding`]): `build` shows no more, and a catalog's repeated
    /// warnings would otherwise be held to the end.
    Folded(usize),
    /// Every problem, and those of single files apart too (`serve`: a rebuild reports the
    /// state of the whole site again, its files' problems kept from their last load).
    PerFile,
}

/// A site read but for its datasets, which the caller loads and hands back one by one.
pub struct Frame {
    /// The site without its datasets: what a dataset's pages need of the rest (navigation)
    /// while the others load.
    pub site: Site,
    /// The dataset Markdown files found, in walk order: the caller takes them, so that
    /// each path is dropped once it is loaded, and numbers them by their place for
    /// [`Frame::keep`].
    pub dataset_files: Vec<PathBuf>,
    drafts: bool,
    warnings: Warnings,
    /// Folding, each dataset's problems go in as soon as it is done (most are only
    /// counted), numbered from here by its place in the file list so they sort as if
    /// loaded in that order.
    first_batch: u64,
    problems: Mutex<Diagnostics>,
    /// Not folding: each dataset's problems with its place in the file list.
    unfolded: Mutex<Vec<(usize, Vec<Diagnostic>)>>,
    /// The slugs of the drafts left out.
    left_out: Mutex<Vec<String>>,
}

/// A site loaded and checked, with every problem found.
pub struct LoadedSite {
    pub site: Site,
    /// Every problem, sorted.
    pub problems: Diagnostics,
    /// With [`Warnings::PerFile`], the problems of single files (config, front matter, CSV,
    /// pages) apart from those of the site as a whole; empty otherwise.
    pub file_problems: Diagnostics,
}

impl Frame {
    /// Reads site.toml, the links among static files, the content folder's Markdown files,
    /// every plain page and, in the first pass ([`FirstPass`]), what the datasets need of
    /// each other's front matter. `Err` holds the problems when there is no site
    /// to go on with.
    pub fn read(
        root: &Path,
        options: &LoadOptions,
        warnings: Warnings,
    ) -> Result<Frame, Diagnostics> {
        let mut diagnostics = match warnings {
            Warnings::Folded(shown) => Diagnostics::folding(shown),
            Warnings::All | Warnings::PerFile => Diagnostics::new(),
        };
        if let Some(problem) = super::site_toml_problem(root) {
            diagnostics.push(problem);
            return Err(diagnostics);
        }
        diagnostics.extend(static_files(root).problems);
        let mut config = match SiteConfig::load(root) {
            Ok(c) => c,
            Err(problems) => {
                diagnostics.extend(problems);
                return Err(diagnostics);
            }
        };
        if let Some(problem) = drafts::apply_base_url(&mut config, options) {
            diagnostics.push(problem);
            return Err(diagnostics);
        }
        config.data_beside = options.data_beside;
        let (words, problems) =
            crate::i18n::Words::load(root, &config.language, language_place(root).as_ref());
        diagnostics.extend(problems);
        let Some(found) = discover(root, &mut diagnostics) else {
            return Err(diagnostics);
        };
        let mut pages = Vec::new();
        let mut home = None;
        for path in found.page_files {
            if let Err(problems) = place_page(root, &path, &config, &mut pages, &mut home) {
                diagnostics.extend(problems);
            }
        }
        let first_batch = diagnostics.reserve_batches(found.dataset_files.len());
        let first_pass = FirstPass::read(&found.dataset_files, options.drafts);
        let site = Site {
            root: root.to_path_buf(),
            config,
            datasets: Datasets::default(),
            pages,
            home,
            tags: Vec::new(),
            default_date: options.date.clone(),
            outputs: options.outputs.clone(),
            words: std::sync::Arc::new(words),
            first_pass: Some(first_pass),
        };
        Ok(Frame {
            site,
            dataset_files: found.dataset_files,
            drafts: options.drafts,
            warnings,
            first_batch,
            problems: Mutex::new(diagnostics),
            unfolded: Mutex::default(),
            left_out: Mutex::default(),
        })
    }

    /// Whether the site publishes big files elsewhere: site.toml's `data_url` or a
    /// dataset's own (then a build opens the data folder before the first is written).
    pub fn data_elsewhere(&self) -> bool {
        let first_pass = self.site.first_pass.as_ref();
        self.site.config.data_url.is_some() || first_pass.is_some_and(FirstPass::any_data_url)
    }

    /// Whether the build leaves this dataset out (a draft without `--drafts`): then it is
    /// neither written nor kept, and its problems are dropped (what is not built is not
    /// checked either).
    pub fn leaves_out(&self, slug: &str, draft: bool) -> bool {
        let out = draft && !self.drafts;
        if out {
            locked(&self.left_out).push(slug.to_string());
        }
        out
    }

    /// Takes the problems of the dataset at `place` in the file list, and hands back
    /// what is kept of it.
    pub fn keep(
        &self,
        place: usize,
        problems: Vec<Diagnostic>,
        held: Option<Held>,
    ) -> Option<Held> {
        match self.warnings {
            Warnings::Folded(_) => {
                let batch = self.first_batch + place as u64;
                locked(&self.problems).push_batch(batch, problems);
            }
            _ if problems.is_empty() => {}
            _ => locked(&self.unfolded).push((place, problems)),
        }
        held
    }

    /// The site of the datasets kept (their stored entries in `store`), checked across
    /// datasets (related slugs, tags, descriptions, drafts named).
    pub fn assemble(self, held: Vec<Option<Held>>, store: Option<Arc<EntryStore>>) -> LoadedSite {
        let mut diagnostics = self
            .problems
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        // In the order of the file list, as if loaded one after the other.
        let mut unfolded = self
            .unfolded
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        unfolded.sort_unstable_by_key(|(n, _)| *n);
        diagnostics.reserve(unfolded.iter().map(|(_, problems)| problems.len()).sum());
        for (_, problems) in unfolded {
            diagnostics.extend(problems);
        }
        let mut left_out = self
            .left_out
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        left_out.sort();
        // Apart, the problems of the whole site go into a list of their own (found after
        // the files'); else into the one list, folding as they come.
        let (into, file_problems) = match self.warnings {
            Warnings::PerFile => (Diagnostics::new(), diagnostics),
            Warnings::All | Warnings::Folded(_) => (diagnostics, Diagnostics::new()),
        };
        let held: Vec<Held> = held.into_iter().flatten().collect();
        let Site {
            root,
            config,
            pages,
            home,
            default_date,
            outputs,
            words,
            ..
        } = self.site;
        let datasets = Datasets::new(held, store);
        let (mut site, mut problems) = Site::assemble_checking(
            &root,
            config,
            (datasets, pages, home, &outputs),
            &|_| true,
            into,
        );
        site.default_date = default_date;
        site.words = words;
        drafts::check_related_drafts(&site.datasets, &left_out, &mut problems);
        if self.warnings == Warnings::PerFile {
            let site_problems = std::mem::replace(&mut problems, file_problems.clone());
            problems.extend(site_problems);
        }
        problems.sort();
        LoadedSite {
            site,
            problems,
            file_problems,
        }
    }
}

/// The value behind `mutex`, also after a thread panicked holding it.
fn locked<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Where site.toml sets `language`, for the problems of the language as a whole (none when
/// it is left to its default).
fn language_place(root: &Path) -> Option<crate::i18n::LanguagePlace> {
    let text = std::fs::read_to_string(root.join("site.toml")).ok()?;
    text.lines().enumerate().find_map(|(n, line)| {
        let rest = line.trim_start().strip_prefix("language")?;
        let value = rest.trim_start().strip_prefix('=')?;
        let column = line.len() - value.trim_start().len() + 1;
        Some(crate::i18n::LanguagePlace {
            line: n + 1,
            column: line[..column - 1].chars().count() + 1,
            source_line: line.to_string(),
        })
    })
}
