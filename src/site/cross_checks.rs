//! The checks that need more than one dataset: `related` entries and prose links must
//! lead to datasets and pages of the site, no two charts may write one file, and a site's
//! own stylesheet keeps the chart rules its pages' charts need. Each reads the datasets'
//! catalog entries.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::Path;

use super::datasets::read_back_problem;
use super::outputs::Registry;
use super::{Datasets, Summary};
use crate::config::{DcatSyntax, SiteConfig};
use crate::content::Page;
use crate::dataset;
use crate::dataset::entry::CatalogEntry;
use crate::diagnostics::{did_you_mean, Diagnostic, Diagnostics};
use crate::layout::{self, urls};

/// Runs `check` on the entry of each dataset whose listing `which` picks, read back one
/// at a time; one that cannot be read back is an error, so the build stops rather than
/// publish pages not checked against it.
pub(super) fn each_entry(
    datasets: &Datasets,
    which: impl Fn(&Summary) -> bool,
    diagnostics: &mut Diagnostics,
    mut check: impl FnMut(&CatalogEntry, &mut Diagnostics),
) {
    for entry in datasets.entries_where(which) {
        match entry {
            Ok(entry) => check(&entry, diagnostics),
            Err(e) => diagnostics.push(read_back_problem(&e)),
        }
    }
}

/// Whether `slug` names a dataset file that exists (but did not load).
fn failed_to_load(root: &Path, slug: &str) -> bool {
    dataset::is_valid_slug(slug) && root.join(layout::dataset_markdown(slug)).is_file()
}

/// `related` must name datasets. A dataset whose file exists but failed to load has its own
/// errors; naming it is not reported again.
pub(super) fn check_related(root: &Path, datasets: &Datasets, diagnostics: &mut Diagnostics) {
    // The set of every slug is made only when needed (each `serve` edit runs this).
    if !datasets.summaries().any(|d| d.has_related) {
        return;
    }
    let slugs: Vec<&str> = datasets.slugs().collect();
    let known: HashSet<&str> = slugs.iter().copied().collect();
    each_entry(
        datasets,
        |d| d.has_related,
        diagnostics,
        |dataset, diagnostics| {
            for (n, related) in dataset.related.iter().enumerate() {
                let problem = if *related == *dataset.slug {
                    Some((
                        "a dataset cannot be related to itself".to_string(),
                        "remove it from `related`".to_string(),
                    ))
                } else if !known.contains(related.as_str()) && !failed_to_load(root, related) {
                    let hint = match did_you_mean(related, slugs.iter().copied()) {
                        Some(near) => format!("did you mean `{near}`?"),
                        None => "name the slug of another dataset (its file name without .md)"
                            .to_string(),
                    };
                    Some((
                        format!("`related` names `{related}`, which is not a dataset"),
                        hint,
                    ))
                } else {
                    None
                };
                if let Some((message, hint)) = problem {
                    let problem =
                        Diagnostic::error(&dataset.markdown_path, message).with_hint(hint);
                    diagnostics.push(dataset.locate_related(n, problem));
                }
            }
        },
    );
}

/// The prose's `../<slug>/` links must lead to a dataset page (one whose file failed to
/// load has its own errors; a draft left out is a warning, see `drafts`).
pub(super) fn check_dataset_links(root: &Path, datasets: &Datasets, diagnostics: &mut Diagnostics) {
    if !datasets.summaries().any(|d| d.has_dataset_links) {
        return;
    }
    let slugs: Vec<&str> = datasets.slugs().collect();
    let known: HashSet<&str> = slugs.iter().copied().collect();
    each_entry(
        datasets,
        |d| d.has_dataset_links,
        diagnostics,
        |dataset, diagnostics| {
            for (slug, place) in &dataset.dataset_links {
                if known.contains(slug.as_str()) || failed_to_load(root, slug) {
                    continue;
                }
                diagnostics.push(place.locate(dead_link(
                    dataset,
                    ("../", slug),
                    did_you_mean(slug, slugs.iter().copied()),
                    "a dataset page",
                    "link to ../<slug>/ of a dataset of this site",
                )));
            }
        },
    );
}

/// The prose's `../../<name>/` links must lead to a page of the site: a plain page, or a
/// folder datapages writes (All datasets, tags, downloads); its `../../data/<path>` links
/// to a file the site writes there ([`data_files`]).
pub(super) fn check_page_links(
    (datasets, outputs, dcat): (&Datasets, &Registry, &[DcatSyntax]),
    pages: &[Page],
    diagnostics: &mut Diagnostics,
) {
    let names: HashSet<&str> = pages
        .iter()
        .map(|p| p.name.as_str())
        .chain(layout::RESERVED_PAGE_NAMES)
        .collect();
    // Made at the first link to a file under data/.
    let mut files: Option<BTreeSet<String>> = None;
    each_entry(
        datasets,
        |d| d.has_page_links,
        diagnostics,
        |dataset, diagnostics| {
            for (name, place) in &dataset.page_links {
                if names.contains(&name.as_str()) {
                    continue;
                }
                if name.starts_with(&format!("{}/", layout::DATA)) {
                    let files =
                        files.get_or_insert_with(|| data_files(datasets, dcat, diagnostics));
                    if files.contains(name) {
                        continue;
                    }
                    let near = match turned_off((datasets, outputs), name) {
                    Some((slug, setting)) => Some(format!(
                        "`{slug}` turns this file off (`{setting} = false`, its own or site.toml's): link to its CSV `../../{}`, or set `{setting} = true`",
                        urls::csv_file(slug)
                    )),
                    None => did_you_mean(name, files.iter().map(String::as_str))
                        .map(|near| format!("did you mean `../../{near}`?")),
                };
                    diagnostics.push(
                    place.locate(
                        Diagnostic::error(
                            &dataset.markdown_path,
                            format!(
                                "the prose links to `../../{name}`, which is not a file this site writes"
                            ),
                        )
                        .with_hint(near.unwrap_or_else(|| download_names(outputs))),
                    ),
                );
                    continue;
                }
                diagnostics.push(place.locate(dead_link(
                    dataset,
                    ("../../", name),
                    did_you_mean(name, pages.iter().map(|p| p.name.as_str())),
                    "a page of this site",
                    "link to ../../<name>/ of a page in content/ (content/<name>.md)",
                )));
            }
        },
    );
}

/// Every name in site.toml's `nav` must be a plain page (`pages` sorted by name).
pub(super) fn check_nav(config: &SiteConfig, pages: &[Page], diagnostics: &mut Diagnostics) {
    let Some(names) = &config.nav else { return };
    for (n, name) in names.iter().enumerate() {
        if pages
            .binary_search_by(|p| p.name.as_str().cmp(name))
            .is_ok()
        {
            continue;
        }
        let hint = match did_you_mean(name, pages.iter().map(|p| p.name.as_str())) {
            Some(near) => format!("did you mean `{near}`?"),
            None => {
                "name a plain page by its file name without `.md` (content/about.md is \"about\")"
                    .to_string()
            }
        };
        let problem = Diagnostic::error(
            layout::SITE_TOML,
            format!("`nav` names `{name}`, which is not a plain page of the site"),
        )
        .with_hint(hint);
        diagnostics.push(match config.nav_places.get(n).and_then(Option::as_ref) {
            Some(place) => place.locate(problem),
            None => problem,
        });
    }
}

/// The files the site writes under data/: the catalogs and search index, and every file
/// of every dataset's outputs.
fn data_files(
    datasets: &Datasets,
    dcat: &[DcatSyntax],
    diagnostics: &mut Diagnostics,
) -> BTreeSet<String> {
    let site = [urls::CATALOG, urls::SEARCH_INDEX].map(String::from);
    let catalogs = dcat
        .iter()
        .map(|syntax| urls::dcat_file(syntax.extension(), 1));
    let mut files: BTreeSet<String> = site.into_iter().chain(catalogs).collect();
    each_entry(
        datasets,
        |_| true,
        diagnostics,
        |d, _| {
            files.extend(d.files.iter().flatten().cloned());
        },
    );
    files
}

/// The dataset whose output file `path` names, and the setting that turns that output
/// off, when it is off for that dataset.
fn turned_off<'a>(
    (datasets, outputs): (&'a Datasets, &Registry),
    path: &str,
) -> Option<(&'a str, &'static str)> {
    let name = path.strip_prefix(&format!("{}/", layout::DATA_DATASETS))?;
    // The slug is the name up to a dot (slugs have none).
    let index = datasets.position(&name[..name.find('.')?])?;
    let summary = datasets.summary(index);
    let (output, on) = outputs.file_owner(&summary.slug, path, summary.outputs_on)?;
    match on {
        true => None,
        false => Some((&summary.slug, output.setting()?)),
    }
}

/// How a link to a dataset's download is written: every file name the registry's outputs
/// give a dataset (`<slug>` for the slug).
fn download_names(outputs: &Registry) -> String {
    let names: Vec<String> = (outputs.iter())
        .filter_map(|output| output.file_for("<slug>"))
        .collect();
    // The first in full, the others by what follows the slug.
    let shown: Vec<&str> = names
        .iter()
        .enumerate()
        .map(|(n, name)| match (n, name.split_once("<slug>")) {
            (0, _) | (_, None) => name.as_str(),
            (_, Some((_, after))) => after,
        })
        .collect();
    format!(
        "link to a download of a dataset: ../../{}",
        shown.join(", ")
    )
}

/// The error for a prose link `<prefix><name>/` that leads nowhere: what it is not, and
/// the near name if there is one, else how such a link is written.
fn dead_link(
    dataset: &CatalogEntry,
    (prefix, name): (&str, &str),
    near: Option<&str>,
    not_a: &str,
    otherwise: &str,
) -> Diagnostic {
    let hint = match near {
        Some(near) => format!("did you mean `{prefix}{near}/`?"),
        None => otherwise.to_string(),
    };
    Diagnostic::error(
        &dataset.markdown_path,
        format!("the prose links to `{prefix}{name}/`, which is not {not_a}"),
    )
    .with_hint(hint)
}

/// Chart files are named `<slug>-<chart id>.svg`, so `a` with chart `b-c` and `a-b` with
/// chart `c` would write the same file; the second one is an error.
pub(super) fn check_chart_files(datasets: &Datasets, diagnostics: &mut Diagnostics) {
    let mut taken: HashMap<String, crate::dataset::Slug> = HashMap::new();
    each_entry(
        datasets,
        |d| d.has_charts,
        diagnostics,
        |dataset, diagnostics| {
            for id in &dataset.chart_ids {
                let file = urls::chart_file(&dataset.slug, id);
                match taken.get(&file) {
                Some(owner) => diagnostics.push(
                    Diagnostic::error(
                        &dataset.markdown_path,
                        format!(
                            "chart `{id}` would be written to {file}, which a chart of `{owner}` writes too"
                        ),
                    )
                    .with_hint("give one of the two charts another `id`"),
                ),
                None => {
                    taken.insert(file, dataset.slug.clone());
                }
            }
            }
        },
    );
}

/// The charts inside pages carry no style: the built-in stylesheet's `svg.dpc` rules colour
/// them (each chart's `.svg` file carries its own). A site's own `static/style.css`
/// replaces the built-in one; without those rules its pages' charts lose their colours,
/// fonts and dark variant, so a site with charts is warned, at the stylesheet.
pub(super) fn check_chart_style(root: &Path, datasets: &Datasets, diagnostics: &mut Diagnostics) {
    let name = Path::new(layout::STATIC).join("style.css");
    let Ok(root_canonical) = crate::confine::canonical_root(root) else {
        return;
    };
    let Ok(real) = crate::confine::resolve_file(&root_canonical, &name) else {
        return;
    };
    let styled = std::fs::read_to_string(real).map_or(true, |css| css.contains("svg.dpc"));
    if styled || !datasets.summaries().any(|d| d.has_charts) {
        return;
    }
    diagnostics.push(
        Diagnostic::warning(
            &name,
            "this stylesheet replaces the built-in one but has no chart rules (`svg.dpc`): \
             the charts on dataset pages are drawn without their colours, fonts and dark variant",
        )
        .with_hint(
            "copy the `svg.dpc` rules at the end of the built-in style.css into it \
             (`datapages eject` in an empty folder writes the built-in one)",
        ),
    );
}
