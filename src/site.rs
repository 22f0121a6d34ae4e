//! The whole site: `site.toml`, every dataset and every plain page (read in steps the
//! build drives: `load.rs`), plus the checks that need more than one dataset (related
//! slugs, tags).

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub mod datasets;
pub mod listing;
pub mod outputs;

use crate::config::SiteConfig;
use crate::confine;
use crate::content::{self, markdown::slugify, Page};
use crate::dataset::cache::ScanCache;
use crate::dataset::entry::CatalogEntry;
use crate::dataset::{self, Dataset};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::layout;

mod cross_checks;
mod drafts;
mod first_pass;
mod load;
#[cfg(test)]
mod reference_keys;
mod titles;
pub use datasets::{Datasets, Held, Summary};
pub use drafts::LoadOptions;
pub use first_pass::{FirstPass, Pointer};
pub use load::{Frame, LoadedSite, Warnings};
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
    /// The theme's words in site.toml's `language` ([`crate::i18n`]).
    pub words: std::sync::Arc<crate::i18n::Words>,
    /// While the datasets load (the site has none yet), what the first pass read of each
    /// (its title).
    pub first_pass: Option<FirstPass>,
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

    /// The dataset with this slug, when it is kept whole (always, in `serve`).
    pub fn dataset(&self, slug: &str) -> Option<&Arc<Dataset>> {
        self.datasets.whole_at(self.datasets.position(slug)?)
    }

    /// The catalog entry of the dataset with this slug (`None` too when it cannot be read
    /// back: a caller then does without it, as for a dataset that is not there).
    pub fn entry(&self, slug: &str) -> Option<Cow<'_, CatalogEntry>> {
        self.datasets.entry(self.datasets.position(slug)?).ok()
    }

    /// The listing of the dataset with this slug.
    pub fn summary(&self, slug: &str) -> Option<&Summary> {
        Some(self.datasets.summary(self.datasets.position(slug)?))
    }

    /// The title of the dataset with this slug (from the first pass while the datasets
    /// load).
    pub fn title_of(&self, slug: &str) -> Option<&str> {
        match &self.first_pass {
            Some(first_pass) => first_pass.title(slug),
            None => Some(&self.summary(slug)?.title),
        }
    }

    /// The SHA-256 of dataset `slug`'s Markdown file as the first pass read it, when the
    /// site was read with one.
    pub fn markdown_digest(&self, slug: &str) -> Option<crate::checksum::Sha256> {
        self.first_pass.as_ref()?.markdown_digest(slug)
    }

    /// The one-column foreign keys of other datasets that name rows of dataset `slug`
    /// (none when the site was not read with a first pass).
    pub fn pointing_at<'a>(&'a self, slug: &'a str) -> impl Iterator<Item = &'a Pointer> {
        self.first_pass
            .iter()
            .flat_map(move |pass| pass.pointing_at(slug))
    }

    /// Total data rows across datasets.
    pub fn total_rows(&self) -> u64 {
        self.datasets.summaries().map(|d| d.rows).sum()
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
        cross_checks::check_page_links(
            (&datasets, outputs, &config.dcat),
            &pages,
            &mut diagnostics,
        );
        cross_checks::check_nav(&config, &pages, &mut diagnostics);
        cross_checks::check_chart_files(&datasets, &mut diagnostics);
        cross_checks::check_chart_style(root, &datasets, &mut diagnostics);
        titles::check_duplicate_titles(root, &datasets, &mut diagnostics);
        let tags = collect_tags(&datasets, &mut diagnostics);
        let mut site = Site {
            root: root.to_path_buf(),
            config,
            datasets,
            pages,
            home,
            tags,
            default_date: None,
            outputs: outputs.clone(),
            words: std::sync::Arc::new(crate::i18n::Words::english()),
            first_pass: None,
        };
        // Datasets held whole (`serve`) give what a first pass would, to the pages
        // rendered from here on.
        let whole = site.datasets.wholes().count();
        if whole == site.datasets.len() && whole > 0 {
            let wholes = site.datasets.wholes().map(|(_, dataset)| &**dataset);
            site.first_pass = Some(FirstPass::of_datasets(wholes));
        }
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

/// schema.org consumers (Google Dataset Search) want 50 to 5,000 characters of description.
fn check_descriptions(
    datasets: &Datasets,
    which: &dyn Fn(&str) -> bool,
    diagnostics: &mut Diagnostics,
) {
    for index in 0..datasets.len() {
        let dataset = datasets.summary(index);
        if !which(&dataset.slug) {
            continue;
        }
        let length = dataset.description_chars;
        let problem = if length < 50 {
            Some(format!("the description for metadata is {length} characters; search engines want at least 50"))
        } else if length > 5000 {
            Some(format!("the description for metadata is {length} characters; search engines read at most 5,000"))
        } else {
            None
        };
        if let Some(message) = problem {
            diagnostics.push(
                Diagnostic::warning(&dataset.markdown_path, message).with_hint(
                    "write a longer lede, or set `description = \"…\"` in the front matter",
                ),
            );
        }
        if dataset.listing_date().is_none() {
            diagnostics.push(
                Diagnostic::warning(&dataset.markdown_path, "the dataset has no `updated` or `created` date")
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
    for (index, dataset) in datasets.summaries().enumerate() {
        for name in &dataset.tags {
            let name = &**name;
            let slug = slugs.entry(name).or_insert_with(|| slugify(name)).clone();
            if slug.is_empty() {
                diagnostics.push(
                    Diagnostic::error(
                        &dataset.markdown_path,
                        format!("the tag {name:?} has no letters or digits"),
                    )
                    .with_hint("tags need at least one letter or digit for their page address"),
                );
                continue;
            }
            match spellings.get(&slug) {
                Some(first) if first.as_str() != name => diagnostics.push(
                    Diagnostic::warning(
                        &dataset.markdown_path,
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
