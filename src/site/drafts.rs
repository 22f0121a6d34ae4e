//! What a build changes of the site as written: `--base-url` in place of site.toml's, and
//! `draft = true` datasets left out (with warnings for `related` entries that name them).

use std::path::Path;

use crate::config::SiteConfig;
use crate::content::site_values;
use crate::diagnostics::{Diagnostic, Diagnostics};

/// How to load a site: the `build` options that change what is read.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// Replaces site.toml's `base_url` (`--base-url`); checked as site.toml's is.
    pub base_url: Option<String>,
    /// Keep `draft = true` datasets (`--drafts`, and always under `serve`).
    pub drafts: bool,
    /// `--date`: the date of datasets whose front matter gives none.
    pub date: Option<String>,
    /// The per-dataset outputs to write.
    pub outputs: super::outputs::Registry,
    /// Keeps the big files beside the pages whatever `data_url` says (`serve`).
    pub data_beside: bool,
}

/// Puts `--base-url` in place of site.toml's, or says why it cannot be used.
pub fn apply_base_url(config: &mut SiteConfig, options: &LoadOptions) -> Option<Diagnostic> {
    let url = options.base_url.as_deref()?;
    if let Some((problem, hint)) = site_values::base_url_problem(url) {
        let hint = if hint == site_values::BASE_URL_HINT {
            "give an address like --base-url https://preview.example.org/"
        } else {
            hint
        };
        return Some(Diagnostic::error(Path::new("--base-url"), problem).with_hint(hint));
    }
    config.base_url = crate::config::BaseUrl::from(url.to_string());
    None
}

/// A published dataset whose `related` names a draft links to a page that is not built.
pub fn check_related_drafts(
    datasets: &super::Datasets,
    drafts: &[String],
    diagnostics: &mut Diagnostics,
) {
    if drafts.is_empty() {
        return;
    }
    let which = |d: &super::Summary| d.has_related || d.has_dataset_links;
    super::cross_checks::each_entry(datasets, which, diagnostics, |dataset, diagnostics| {
        for (n, related) in dataset.related.iter().enumerate() {
            if drafts.binary_search(related).is_ok() {
                let problem = Diagnostic::warning(
                    &dataset.markdown_path,
                    format!("`related` names `{related}`, a draft, which this build leaves out"),
                )
                .with_hint("publish it (remove `draft = true`) or remove it from `related`");
                diagnostics.push(dataset.locate_related(n, problem));
            }
        }
        for (slug, place) in &dataset.dataset_links {
            if drafts.binary_search(slug).is_ok() {
                let problem = Diagnostic::warning(
                    &dataset.markdown_path,
                    format!(
                        "the prose links to `../{slug}/`, a draft, which this build leaves out"
                    ),
                )
                .with_hint("publish the draft (remove `draft = true`) or remove the link");
                diagnostics.push(place.locate(problem));
            }
        }
    });
}
