//! Reading a whole site: `site.toml`, every dataset (in parallel) and every plain page,
//! plus the checks that need more than one dataset (related slugs, tags).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use rayon::prelude::*;

pub mod datasets;
pub mod listing;
pub mod outputs;

use crate::config::SiteConfig;
use crate::confine;
use crate::content::{self, markdown::slugify, Page};
use crate::dataset::cache::ScanCache;
use crate::dataset::record_store::RecordStore;
use crate::dataset::{self, Dataset};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::layout;

mod cross_checks;
mod drafts;
#[cfg(test)]
mod reference_keys;
mod titles;
pub use datasets::{Datasets, Held, Listing, Needs};
pub use drafts::LoadOptions;
use outputs::Registry;

/// A tag and the datasets that carry it.
#[derive(Debug, Clone)]
pub struct Tag {
    /// As the first dataset (by slug) spells it.
    pub name: String,
    pub slug: String,
    /// Indexes into `Site::datasets`.
    pub datasets: Vec<usize>,
}

/// The whole site, loaded and checked, ready to render.
#[derive(Debug)]
pub struct Site {
    pub root: PathBuf,
    pub config: SiteConfig,
    /// Sorted by slug; whole ones shared, so an incremental rebuild replaces only what
    /// changed.
    pub datasets: Datasets,
    /// Plain pages, sorted by name.
    pub pages: Vec<Page>,
    /// `content/_index.md`, the home page intro.
    pub home: Option<Page>,
    /// Sorted by slug.
    pub tags: Vec<Tag>,
    /// The date given with `--date`, for datasets whose front matter has none.
    pub default_date: Option<String>,
    /// Every per-dataset output file kind this build writes.
    pub outputs: outputs::Registry,
}

impl Site {
    /// The plain pages the site navigation links: site.toml's `nav` (names that are no
    /// page are reported by the checks), else the first few by name.
    pub fn nav_pages(&self) -> Vec<&Page> {
        match &self.config.nav {
            Some(names) => names
                .iter()
                .filter_map(|name| {
                    let found = self.pages.binary_search_by(|p| p.name.as_str().cmp(name));
                    found.ok().map(|i| &self.pages[i])
                })
                .collect(),
            None => self
                .pages
                .iter()
                .take(crate::config::NAV_DEFAULT_PAGES)
                .collect(),
        }
    }

    /// The dataset with this slug (read back when stored).
    pub fn dataset(&self, slug: &str) -> Option<Arc<Dataset>> {
        self.datasets.get(self.datasets.position(slug)?).ok()
    }

    /// The title of the dataset with this slug.
    pub fn title_of(&self, slug: &str) -> Option<&str> {
        let index = self.datasets.position(slug)?;
        Some(self.datasets.listing(index).title)
    }

    /// Total data rows across datasets.
    pub fn total_rows(&self) -> u64 {
        self.datasets.listings().map(|d| d.rows).sum()
    }
}

/// The Markdown files of a site, by role.
#[derive(Debug, Default)]
pub struct Discovered {
    pub dataset_files: Vec<PathBuf>,
    pub page_files: Vec<PathBuf>,
}

/// Finds the dataset and page files under `<root>/content`.
pub fn discover(root: &Path, diagnostics: &mut Diagnostics) -> Option<Discovered> {
    let content_dir = root.join(layout::CONTENT);
    if !content_dir.is_dir() {
        diagnostics.push(
            Diagnostic::error(layout::CONTENT, "the site has no content/ folder").with_hint(
                "create content/datasets/<slug>.md for each dataset (see docs/content-format.md)",
            ),
        );
        return None;
    }
    let root_canonical = match confine::canonical_root(root) {
        Ok(r) => r,
        Err(d) => {
            diagnostics.push(d);
            return None;
        }
    };
    let walk = confine::walk(root, &root_canonical, Path::new(layout::CONTENT), &|p| {
        p.extension().and_then(|e| e.to_str()) == Some("md")
    });
    diagnostics.extend(walk.problems);
    let mut found = Discovered::default();
    for file in walk.files {
        let path = file.path.as_path();
        let relative = path.strip_prefix(&content_dir).unwrap_or(path);
        let depth = relative.components().count();
        if depth == 2 && relative.starts_with(layout::DATASETS) {
            found.dataset_files.push(path.to_path_buf());
        } else if depth == 1 {
            found.page_files.push(path.to_path_buf());
        } else {
            diagnostics.push(
                Diagnostic::warning(
                    content::display_path(root, path),
                    "this Markdown file is not part of the site",
                )
                .with_hint("datasets go in content/datasets/, plain pages directly in content/"),
            );
        }
    }
    Some(found)
}

/// Reads a plain page, refusing names that generated pages use and files that lead outside
/// the site folder.
pub fn load_page(root: &Path, path: &Path, config: &SiteConfig) -> Result<Page, Vec<Diagnostic>> {
    let real = confine::resolve_under(root, path).map_err(|problem| vec![problem])?;
    let page = content::load_page(root, path, &real, config.markdown.raw_html)?;
    if layout::RESERVED_PAGE_NAMES.contains(&page.name.as_str()) {
        return Err(vec![Diagnostic::error(
            content::display_path(root, path),
            format!("the page name `{}` is taken by generated pages", page.name),
        )
        .with_hint("rename the file")]);
    }
    Ok(page)
}

/// Reads one plain page file ([`load_page`]) and puts it in its place: the home page for
/// `content/_index.md`, else among `pages`. Full loads and incremental rebuilds alike.
pub fn place_page(
    root: &Path,
    path: &Path,
    config: &SiteConfig,
    pages: &mut Vec<Page>,
    home: &mut Option<Page>,
) -> Result<(), Vec<Diagnostic>> {
    let page = load_page(root, path, config)?;
    if page.name.is_empty() {
        *home = Some(page);
    } else {
        pages.push(page);
    }
    Ok(())
}

/// Reads the dataset `content/datasets/<slug>.md` again; `None` when that file is gone.
pub fn load_dataset(
    root: &Path,
    slug: &str,
    config: &SiteConfig,
    cache: Option<&ScanCache>,
) -> Option<dataset::Loaded> {
    let path = root.join(layout::dataset_markdown(slug));
    path.is_file()
        .then(|| dataset::load(root, &path, config, cache))
}

/// What a full build does with each dataset right after loading it (in parallel), given
/// the site without its datasets: a build writes the dataset's files and keeps a slim
/// copy ([`Dataset::slim`]), so memory does not grow with the catalog.
pub type EachDataset<'a> = dyn Fn(&Site, dataset::Loaded) -> dataset::Loaded + Sync + 'a;

/// A dataset taken without loading it, given the site without its datasets and the
/// Markdown file (a build's reuse: unchanged since the previous build, its files linked);
/// `None`: load it, then [`EachDataset`].
pub type RecallDataset<'a> = dyn Fn(&Site, &Path) -> Option<dataset::Loaded> + Sync + 'a;

/// Loads everything under `root`. The site is returned whenever it could be read, with
/// the problems of single files (config, front matter, CSV, pages) apart from those of the
/// site as a whole (related slugs, tags, descriptions), which an incremental rebuild
/// recomputes every time; callers decide whether errors stop them. Every dataset built
/// (drafts only with `--drafts`) goes through `each` as soon as it is loaded, unless
/// `recall` gives it without loading; plain pages are read first, so both see the
/// navigation. Slim copies go to `store` when there is one ([`Held::keep`]).
pub fn load_parts_with(
    root: &Path,
    cache: Option<&ScanCache>,
    options: &LoadOptions,
    (each, recall): (&EachDataset, &RecallDataset),
    store: Option<&Arc<RecordStore>>,
) -> (Option<Site>, Diagnostics, Diagnostics) {
    let mut diagnostics = match options.fold_warnings {
        Some(shown) => Diagnostics::folding(shown),
        None => Diagnostics::new(),
    };
    let none = Diagnostics::new();
    if let Some(problem) = site_toml_problem(root) {
        diagnostics.push(problem);
        return (None, diagnostics, none);
    }
    diagnostics.extend(static_files(root).problems);
    let mut config = match SiteConfig::load(root) {
        Ok(c) => c,
        Err(problems) => {
            diagnostics.extend(problems);
            return (None, diagnostics, none);
        }
    };
    if let Some(problem) = drafts::apply_base_url(&mut config, options) {
        diagnostics.push(problem);
        return (None, diagnostics, none);
    }
    let Some(found) = discover(root, &mut diagnostics) else {
        return (None, diagnostics, none);
    };
    let mut pages = Vec::new();
    let mut home = None;
    for path in found.page_files {
        if let Err(problems) = place_page(root, &path, &config, &mut pages, &mut home) {
            diagnostics.extend(problems);
        }
    }
    let frame = Site {
        root: root.to_path_buf(),
        config: config.clone(),
        datasets: Datasets::default(),
        pages: pages.clone(),
        home: home.clone(),
        tags: Vec::new(),
        default_date: options.date.clone(),
        outputs: options.outputs.clone(),
    };
    // Each dataset is stored (or goes into its `Arc`) as soon as it is loaded, so the list
    // collected from the threads holds 16 bytes a dataset; its problems and the drafts left
    // out go to lists of their own. Each file's path is dropped once it is loaded.
    // Folding, each dataset's problems go in as soon as it is done (most are only counted),
    // numbered by its place in the file list so they sort as if loaded in that order.
    let folding = diagnostics.is_folding();
    let first_batch = diagnostics.reserve_batches(found.dataset_files.len());
    let shared = Mutex::new(std::mem::take(&mut diagnostics));
    let unfolded: Mutex<Vec<(usize, Vec<Diagnostic>)>> = Mutex::default();
    let left_out: Mutex<Vec<String>> = Mutex::default();
    let loaded: Vec<Option<Held>> = found
        .dataset_files
        .into_par_iter()
        .enumerate()
        .map(|(n, path)| {
            let (loaded, recalled) = match recall(&frame, &path) {
                Some(loaded) => (loaded, true),
                None => (dataset::load(root, &path, &config, cache), false),
            };
            drop(path);
            if loaded.draft && !options.drafts {
                // Left out, with its problems: what is not built is not checked either.
                locked(&left_out).push(loaded.slug);
                return None;
            }
            let loaded = match recalled {
                true => loaded,
                false => each(&frame, loaded),
            };
            match folding {
                true => {
                    let batch = first_batch + n as u64;
                    locked(&shared).push_batch(batch, loaded.problems);
                }
                false if loaded.problems.is_empty() => {}
                false => locked(&unfolded).push((n, loaded.problems)),
            }
            let record = loaded.record;
            loaded.dataset.map(|d| Held::keep_with(d, record, store))
        })
        .collect();
    let datasets: Vec<Held> = loaded.into_iter().flatten().collect();
    let mut diagnostics = shared.into_inner().unwrap_or_else(PoisonError::into_inner);
    // In the order of the file list, as if loaded one after the other.
    let mut unfolded = unfolded
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    unfolded.sort_unstable_by_key(|(n, _)| *n);
    diagnostics.reserve(unfolded.iter().map(|(_, problems)| problems.len()).sum());
    for (_, problems) in unfolded {
        diagnostics.extend(problems);
    }
    let mut left_out = left_out
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    left_out.sort();
    // Folding, the problems of the whole site join the one list (found after the files').
    let into = match folding {
        true => std::mem::take(&mut diagnostics),
        false => Diagnostics::new(),
    };
    let license = config.license.clone();
    let datasets = Datasets::new(datasets, store.cloned(), license);
    let parts = (datasets, pages, home, &options.outputs);
    let (site, mut site_problems) = Site::assemble_checking(root, config, parts, &|_| true, into);
    drafts::check_related_drafts(&site.datasets, &left_out, &mut site_problems);
    match folding {
        true => (Some(site), site_problems, none),
        false => (Some(site), diagnostics, site_problems),
    }
}

/// The value behind `mutex`, also after a thread panicked holding it.
fn locked<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// site.toml is read only when it is a regular file inside the site folder (it may be a
/// symbolic link that stays inside); a missing one is reported by [`SiteConfig::load`].
fn site_toml_problem(root: &Path) -> Option<Diagnostic> {
    let root_canonical = match confine::canonical_root(root) {
        Ok(r) => r,
        Err(d) => return Some(d),
    };
    match confine::resolve_file(&root_canonical, Path::new(layout::SITE_TOML)) {
        Ok(_)
        | Err(confine::Refusal::Missing {
            dangling_link: false,
        }) => None,
        Err(refusal) => Some(refusal.diagnostic(Path::new(layout::SITE_TOML))),
    }
}

/// The files of `static/`, copied as they are into the output, with the problems of the
/// links among them (checked while loading, so `check` reports them too).
pub fn static_files(root: &Path) -> confine::Walk {
    match confine::canonical_root(root) {
        Ok(root_canonical) => {
            confine::walk(root, &root_canonical, Path::new(layout::STATIC), &|_| true)
        }
        Err(d) => confine::Walk {
            files: Vec::new(),
            problems: vec![d],
        },
    }
}

impl Site {
    /// Puts loaded parts together and runs the checks that span datasets (related slugs,
    /// tag spellings, description lengths), adding their problems to `diagnostics`. Used
    /// by full and incremental builds alike. The checks of one dataset alone (its
    /// description and dates, see [`Site::dataset_problems`]) run only for the datasets
    /// `check` names (by slug): a `serve` rebuild checks the datasets it read again, not
    /// 10,000 others per keystroke.
    pub fn assemble_checking(
        root: &Path,
        config: SiteConfig,
        (datasets, mut pages, home, outputs): (Datasets, Vec<Page>, Option<Page>, &Registry),
        check: &dyn Fn(&str) -> bool,
        mut diagnostics: Diagnostics,
    ) -> (Site, Diagnostics) {
        pages.sort_by(|a, b| a.name.cmp(&b.name));
        cross_checks::check_related(root, &datasets, &mut diagnostics);
        cross_checks::check_dataset_links(root, &datasets, &mut diagnostics);
        cross_checks::check_page_links(&datasets, outputs, &pages, &mut diagnostics);
        cross_checks::check_nav(&config, &pages, &mut diagnostics);
        cross_checks::check_chart_files(&datasets, &mut diagnostics);
        cross_checks::check_chart_style(root, &datasets, &mut diagnostics);
        titles::check_duplicate_titles(root, &datasets, &mut diagnostics);
        let tags = collect_tags(&datasets, &mut diagnostics);
        let site = Site {
            root: root.to_path_buf(),
            config,
            datasets,
            pages,
            home,
            tags,
            default_date: None,
            outputs: outputs.clone(),
        };
        // Straight into `diagnostics`: folding, a catalog's 10,000 "no date" warnings are
        // counted, never held as a list.
        check_descriptions(&site.datasets, check, &mut diagnostics);
        (site, diagnostics)
    }

    /// The problems of the datasets `which` names (by slug) that need no other dataset to
    /// find.
    pub fn dataset_problems(&self, which: &dyn Fn(&str) -> bool) -> Diagnostics {
        let mut diagnostics = Diagnostics::new();
        check_descriptions(&self.datasets, which, &mut diagnostics);
        diagnostics
    }
}

/// The description used in every metadata format ([`Dataset::description`]: the author's
/// `description`, or the lede followed by the first paragraph of Method).
pub fn description(dataset: &Dataset) -> String {
    dataset.description()
}

/// schema.org consumers (Google Dataset Search) want 50 to 5,000 characters of description.
fn check_descriptions(
    datasets: &Datasets,
    which: &dyn Fn(&str) -> bool,
    diagnostics: &mut Diagnostics,
) {
    for index in 0..datasets.len() {
        let dataset = datasets.listing(index);
        if !which(dataset.slug) {
            continue;
        }
        let length = datasets.description_chars(index);
        let problem = if length < 50 {
            Some(format!("the description for metadata is {length} characters; search engines want at least 50"))
        } else if length > 5000 {
            Some(format!("the description for metadata is {length} characters; search engines read at most 5,000"))
        } else {
            None
        };
        if let Some(message) = problem {
            diagnostics.push(
                Diagnostic::warning(dataset.markdown_path(), message).with_hint(
                    "write a longer lede, or set `description = \"…\"` in the front matter",
                ),
            );
        }
        if dataset.date.is_none() {
            diagnostics.push(
                Diagnostic::warning(dataset.markdown_path(), "the dataset has no `updated` or `created` date")
                    .with_hint("add `updated = YYYY-MM-DD` so metadata, sitemap and feed can say when it changed"),
            );
        }
    }
}

fn collect_tags(datasets: &Datasets, diagnostics: &mut Diagnostics) -> Vec<Tag> {
    let mut by_slug: BTreeMap<String, Tag> = BTreeMap::new();
    let mut spellings: HashMap<String, String> = HashMap::new();
    // A catalog has few tag names, each on many datasets: each is slugified once.
    let mut slugs: HashMap<&str, String> = HashMap::new();
    for (index, dataset) in datasets.listings().enumerate() {
        for name in dataset.tags {
            let slug = slugs.entry(name).or_insert_with(|| slugify(name)).clone();
            if slug.is_empty() {
                diagnostics.push(
                    Diagnostic::error(
                        dataset.markdown_path(),
                        format!("the tag {name:?} has no letters or digits"),
                    )
                    .with_hint("tags need at least one letter or digit for their page address"),
                );
                continue;
            }
            match spellings.get(&slug) {
                Some(first) if first.as_str() != name => diagnostics.push(
                    Diagnostic::warning(
                        dataset.markdown_path(),
                        format!("the tag {name:?} is spelled {first:?} elsewhere; both share one tag page"),
                    )
                    .with_hint(format!("spell it {first:?} everywhere")),
                ),
                Some(_) => {}
                None => {
                    spellings.insert(slug.clone(), name.to_string());
                }
            }
            let tag = by_slug.entry(slug.clone()).or_insert_with(|| Tag {
                name: name.to_string(),
                slug,
                datasets: Vec::new(),
            });
            // Datasets come in index order, so a repeat can only be the last one pushed
            // (`contains` made a tag shared by 10,000 datasets quadratic).
            if tag.datasets.last() != Some(&index) {
                tag.datasets.push(index);
            }
        }
    }
    by_slug.into_values().collect()
}
