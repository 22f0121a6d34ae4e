//! What a change to one source file affects: the reduction of file paths to [`Change`]s and
//! the dependency rules that turn changed datasets into the outputs to render again.
//!
//! The rules, as code in [`affected`]:
//! - a dataset's own page, CSV copy, Data Package and CSVW depend on its Markdown and CSV;
//! - pages of datasets that list it under `related` show its title, so they depend on it too;
//! - pages of datasets its foreign keys name link their rows to its rows (their explorer);
//! - pages whose texts quote its cells (`dataset="<slug>"`) are loaded and written again;
//! - the home page, every page of All datasets, the catalog, search index, sitemap and feed
//!   list every dataset (pages a shorter listing no longer has are removed);
//! - a tag page lists the datasets with that tag, before and after the edit;
//! - templates and site.toml shape every page: they rebuild everything.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use crate::content::markdown::slugify;
use crate::layout::{CONTENT, DATA, DATASETS, SITE_TOML, STATIC, TEMPLATES};
use crate::site::{listing, Site};

/// A source change, reduced from a file event.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Change {
    /// `content/datasets/<slug>.md` was written, created or removed.
    Dataset(String),
    /// A CSV under `data/` (relative to the root).
    DataFile(PathBuf),
    /// A plain page or the home page (`content/<name>.md`, relative to the root).
    Page(PathBuf),
    /// A file under `static/` (relative to `static/`).
    Static(PathBuf),
    /// A file under `templates/`: every page is rendered again.
    Templates,
    /// `site.toml`: everything is loaded and rendered again.
    Config,
    /// A file under `i18n/` (the site's message catalogues): everything is loaded (the
    /// words with site.toml) and rendered again.
    Catalogues,
}

impl Change {
    /// Whether this change needs a full rebuild.
    pub fn is_global(&self) -> bool {
        matches!(
            self,
            Change::Templates | Change::Config | Change::Catalogues
        )
    }
}

/// Editor swap, backup and lock files, which never affect the site.
pub fn is_scratch_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    name.starts_with(".#")
        || name.starts_with('#')
        || name.ends_with('~')
        || name.ends_with(".swp")
        || name.ends_with(".swx")
        || name.ends_with(".swo")
        || name.ends_with(".tmp")
        || name.ends_with(".bak")
        || name.contains(".partial-")
        || name == "4913"
        || name == ".DS_Store"
}

/// Reduces a changed path to what it means for the site; `None` for files that do not
/// belong to it (the output folder, editor scratch files, anything else).
pub fn classify(root: &Path, output: &Path, path: &Path) -> Option<Change> {
    if path.starts_with(output) || is_scratch_file(path) {
        return None;
    }
    let relative = path.strip_prefix(root).ok()?;
    if crate::confine::is_hidden_inside(relative) {
        return None;
    }
    let parts: Vec<&str> = relative
        .components()
        .map(|c| match c {
            Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    let extension = relative.extension().and_then(|e| e.to_str());
    match parts.as_slice() {
        [SITE_TOML] => Some(Change::Config),
        [TEMPLATES, ..] => Some(Change::Templates),
        [crate::i18n::FOLDER, ..] => Some(Change::Catalogues),
        [STATIC, rest @ ..] if !rest.is_empty() => Some(Change::Static(rest.iter().collect())),
        [CONTENT, DATASETS, file] if extension == Some("md") => {
            Some(Change::Dataset(file.trim_end_matches(".md").to_string()))
        }
        [CONTENT, _file] if extension == Some("md") => Some(Change::Page(relative.to_path_buf())),
        [DATA, ..] if extension == Some("csv") => Some(Change::DataFile(relative.to_path_buf())),
        _ => None,
    }
}

/// The outputs an incremental rebuild must write or delete.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Affected {
    /// Datasets whose page, CSV copy, Data Package and CSVW are written again.
    pub datasets: BTreeSet<String>,
    /// Datasets whose page alone is written again (it shows a changed dataset's title).
    pub related_pages: BTreeSet<String>,
    /// Datasets that no longer exist: their outputs are deleted.
    pub removed_datasets: BTreeSet<String>,
    /// Tag pages written again (by tag slug).
    pub tags: BTreeSet<String>,
    /// Tag pages that no longer have datasets: deleted.
    pub removed_tags: BTreeSet<String>,
    /// Home, All datasets, catalog, sitemap and feed.
    pub listings: bool,
    /// Output files (site-relative) that the new version no longer writes: those of a
    /// removed dataset, the charts a changed dataset dropped, an output turned off
    /// for one.
    pub stale_files: BTreeSet<String>,
}

impl Affected {
    /// HTML pages this rebuild renders.
    pub fn page_count(&self) -> usize {
        self.datasets.len()
            + self.related_pages.len()
            + self.tags.len()
            + if self.listings { 2 } else { 0 }
    }
}

fn tag_slugs(site: &Site, slug: &str) -> BTreeSet<String> {
    site.dataset(slug)
        .map(|d| d.front.tags.iter().map(|t| slugify(t)).collect())
        .unwrap_or_default()
}

/// What changing the datasets in `changed` (slugs) from `before` to `after` affects.
pub fn affected(before: &Site, after: &Site, changed: &BTreeSet<String>) -> Affected {
    let mut out = Affected::default();
    for slug in changed {
        if after.dataset(slug).is_some() {
            out.datasets.insert(slug.clone());
        } else if before.dataset(slug).is_some() {
            out.removed_datasets.insert(slug.clone());
        }
        out.tags.extend(tag_slugs(before, slug));
        out.tags.extend(tag_slugs(after, slug));
        // The files its outputs wrote that they no longer write (a dataset gone: all).
        let files = |site: &Site| -> BTreeSet<String> {
            let dataset = site.dataset(slug);
            dataset
                .map(|d| after.outputs.files(&site.config, d))
                .unwrap_or_default()
                .into_iter()
                .collect()
        };
        out.stale_files
            .extend(files(before).difference(&files(after)).cloned());
    }
    // Pages whose figures quote a changed dataset: their text and Data Package change.
    out.datasets.extend(quoting(after, changed));
    // Pages that show a changed dataset's title in their related links.
    // `serve` keeps every dataset whole.
    for (_, dataset) in after.datasets.wholes() {
        if !out.datasets.contains(dataset.slug.as_str())
            && dataset.front.related.iter().any(|r| changed.contains(r))
        {
            out.related_pages.insert(dataset.slug.to_string());
        }
    }
    // Pages whose rows a changed dataset's keys name, before or after: their explorer
    // links to its rows.
    let named = (changed.iter()).flat_map(|slug| [before.dataset(slug), after.dataset(slug)]);
    for dataset in named.flatten() {
        let keys = dataset.front.foreign_keys.iter();
        for slug in keys.filter_map(|key| key.reference.dataset.as_ref()) {
            if !out.datasets.contains(slug) && after.dataset(slug).is_some() {
                out.related_pages.insert(slug.clone());
            }
        }
    }
    let existing: BTreeSet<&str> = after.tags.iter().map(|t| t.slug.as_str()).collect();
    out.removed_tags = out
        .tags
        .iter()
        .filter(|t| !existing.contains(t.as_str()))
        .cloned()
        .collect();
    out.tags.retain(|t| existing.contains(t.as_str()));
    out.listings = !changed.is_empty();
    out.stale_files
        .extend(stale_listing_pages(before, after, &out.tags));
    // Plain pages count in the sitemap too (a removed page can drop a child sitemap).
    out.stale_files.extend(stale_sitemaps(before, after));
    if out.listings {
        out.stale_files.extend(stale_catalog_pages(before, after));
    }
    out
}

/// Datasets of `site` outside `changed` whose texts quote a dataset in `changed`: a
/// rebuild loads them again (their figures are resolved while they load).
pub fn quoting(site: &Site, changed: &BTreeSet<String>) -> BTreeSet<String> {
    site.datasets
        .wholes()
        .map(|(_, d)| d)
        .filter(|d| !changed.contains(d.slug.as_str()))
        .filter(|d| d.read_datasets.iter().any(|s| changed.contains(s)))
        .map(|d| d.slug.to_string())
        .collect()
}

/// Child sitemaps (`sitemap-N.xml`) that `before` wrote and `after` no longer writes (the
/// catalog shrank, or fell below the limit and `sitemap.xml` is no longer an index).
fn stale_sitemaps(before: &Site, after: &Site) -> Vec<String> {
    use crate::metadata::catalog_files::{page_count, sitemap_files};
    let files = |site: &Site| -> BTreeSet<String> {
        sitemap_files(site, page_count(site))
            .into_iter()
            .map(|(name, _)| name)
            .collect()
    };
    files(before).difference(&files(after)).cloned().collect()
}

/// DCAT catalog pages (`data/catalog/<n>.ttl`) that `before` wrote and `after` no longer
/// writes (the catalog shrank).
fn stale_catalog_pages(before: &Site, after: &Site) -> Vec<String> {
    use crate::metadata::dcat::{files, page_count};
    if page_count(before) > 1 && page_count(after) == 1 {
        // No page past the first is left: their folder goes, as a clean build has none.
        return vec!["data/catalog".to_string()];
    }
    let paths =
        |site: &Site| -> BTreeSet<String> { files(site).into_iter().map(|f| f.0).collect() };
    paths(before).difference(&paths(after)).cloned().collect()
}

/// Pages of All datasets and of the tags in `tags` that `before` had and `after` no longer
/// has (the listing got shorter): their folders are removed.
fn stale_listing_pages(before: &Site, after: &Site, tags: &BTreeSet<String>) -> Vec<String> {
    let beyond = |before: Vec<String>, after: Vec<String>| -> Vec<String> {
        before.into_iter().skip(after.len()).collect()
    };
    let mut stale = beyond(
        listing::datasets_pages(before),
        listing::datasets_pages(after),
    );
    for slug in tags {
        let find = |site: &Site| -> Vec<String> {
            site.tags
                .iter()
                .find(|t| &t.slug == slug)
                .map(|t| listing::tag_pages(site, t))
                .unwrap_or_default()
        };
        stale.extend(beyond(find(before), find(after)));
    }
    stale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_reduce_to_changes() {
        let root = Path::new("/site");
        let out = Path::new("/site/public");
        let c = |p: &str| classify(root, out, Path::new(p));
        assert_eq!(c("/site/site.toml"), Some(Change::Config));
        assert_eq!(c("/site/templates/dataset.html"), Some(Change::Templates));
        assert_eq!(c("/site/i18n/fr.toml"), Some(Change::Catalogues));
        assert_eq!(
            c("/site/templates/partials/x.html"),
            Some(Change::Templates)
        );
        assert_eq!(
            c("/site/static/css/style.css"),
            Some(Change::Static(PathBuf::from("css/style.css")))
        );
        assert_eq!(
            c("/site/content/datasets/abc.md"),
            Some(Change::Dataset("abc".into()))
        );
        assert_eq!(
            c("/site/content/about.md"),
            Some(Change::Page(PathBuf::from("content/about.md")))
        );
        assert_eq!(
            c("/site/data/datasets/abc.csv"),
            Some(Change::DataFile(PathBuf::from("data/datasets/abc.csv")))
        );
        assert_eq!(
            c("/site/data/other/x.csv"),
            Some(Change::DataFile(PathBuf::from("data/other/x.csv")))
        );
    }

    #[test]
    fn scratch_output_and_foreign_files_are_ignored() {
        let root = Path::new("/site");
        let out = Path::new("/site/public");
        for path in [
            "/site/public/index.html",
            "/site/content/datasets/.abc.md.swp",
            "/site/content/datasets/abc.md~",
            "/site/content/datasets/.#abc.md",
            "/site/content/datasets/4913",
            "/site/content/datasets/notes.txt",
            "/site/content/a/b/c.md",
            "/site/README.md",
            "/elsewhere/site.toml",
            "/site/static/.style.css.partial-1-2",
        ] {
            assert_eq!(classify(root, out, Path::new(path)), None, "{path}");
        }
    }

    #[test]
    fn only_templates_and_config_are_global() {
        assert!(Change::Config.is_global());
        assert!(Change::Templates.is_global());
        assert!(Change::Catalogues.is_global());
        assert!(!Change::Dataset("x".into()).is_global());
        assert!(!Change::Static(PathBuf::from("a.css")).is_global());
    }
}
