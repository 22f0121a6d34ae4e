//! Turning a loaded site into HTML with Tera.
//!
//! Templates are parsed once per build. The built-in templates ([`crate::theme`]) are used
//! for any template a site does not override.

pub use datapages_charts::chart;
pub mod cite_view;
mod columns_section;
pub mod explore_view;
mod keys_view;
mod listing;
pub mod profile_view;
pub mod row_nav;
pub mod row_page;
pub mod table_rows;
mod template_errors;
pub mod use_view;
pub mod view;
pub mod words;

use std::path::Path;

use serde::Serialize;
use tera::{Context, Tera};

use crate::confine;
use crate::diagnostics::Diagnostic;
use crate::layout::{self, urls};
use crate::site::Site;
use view::{DatasetSummaryView, LinkView, SiteView};

/// One chart of a dataset, drawn once and used twice: inline in the page and as a file.
#[derive(Debug, Clone)]
pub struct RenderedChart {
    pub id: String,
    /// The `<svg>` element for the page.
    pub inline: String,
    /// The standalone `.svg` file, which also draws the title.
    pub file: String,
}

/// Draws every chart of a dataset from the points its scan collected, in `words`.
pub fn dataset_charts(
    dataset: &crate::dataset::Dataset,
    words: &crate::i18n::Words,
) -> Vec<RenderedChart> {
    let columns = &dataset.front.columns;
    let title = |name: &'_ str| -> String {
        columns
            .iter()
            .find(|c| c.name == name)
            .map_or(name, |c| c.title.as_str())
            .to_string()
    };
    dataset
        .front
        .charts
        .iter()
        .zip(&dataset.csv.charts)
        .map(|(spec, points)| {
            let id = spec.id();
            let x_scale = match columns.iter().find(|c| c.name == spec.x) {
                Some(c) if c.column_type.is_numeric() => chart::XScale::Number,
                Some(c) if c.column_type.is_time() => chart::XScale::Date,
                _ => chart::XScale::Category,
            };
            let x_column = columns.iter().find(|c| c.name == spec.x);
            let x_shown = chart::XShown {
                digits: x_column.and_then(|c| c.shown_digits()),
                dates: x_column.and_then(|c| {
                    let format = c.format.as_deref()?;
                    let compiled =
                        crate::content::date_format::DateFormat::compile(format, c.column_type);
                    Some(compiled.ok()?.kind())
                }),
                years: x_column.is_some_and(crate::dataset::shown::ungrouped),
                whole: x_column
                    .is_some_and(|c| c.column_type == crate::content::columns::ColumnType::Integer),
            };
            let x_title = title(&spec.x);
            let y_title = if spec.y.several() {
                let unit = columns.iter().find(|c| c.name == spec.y.first());
                unit.and_then(|c| c.unit.clone())
                    .unwrap_or_else(|| words.text("chart.value").unwrap_or_default())
            } else {
                title(spec.y.first())
            };
            let series_title = spec.series.as_deref().map(title);
            let aggregated = spec
                .aggregate
                .map(|how| chart::aggregate::aggregate(&points.points, how));
            let drawn = aggregated.as_deref().unwrap_or(&points.points);
            // The value column's `digits` (one for all `y`, when several share it): each
            // point's value shown at them, as the table shows its cell.
            let y_digits = {
                let mut digits = spec.y.0.iter().map(|name| {
                    columns
                        .iter()
                        .find(|c| &c.name == name)
                        .and_then(|c| c.shown_digits())
                });
                let first = digits.next().flatten();
                digits.all(|d| d == first).then_some(first).flatten()
            };
            let redone: Option<Vec<_>> = y_digits.map(|digits| {
                drawn
                    .iter()
                    .map(|p| crate::dataset::scan::ChartPoint {
                        y_text: crate::dataset::shown::fixed(p.y, digits),
                        ..p.clone()
                    })
                    .collect()
            });
            let drawn = redone.as_deref().unwrap_or(drawn);
            let input = chart::ChartInput {
                id: &id,
                kind: spec.kind,
                title: &spec.title,
                x_title: &x_title,
                y_title: &y_title,
                series_title: series_title.as_deref(),
                x_scale,
                points: drawn,
                missing: points.missing,
                not_finite: points.not_finite,
                dropped: points.dropped,
                y_zero: spec.y_zero,
                many: chart::ManySeries {
                    highlight: &spec.highlight,
                    aggregated: spec.aggregate.map(|how| (how, points.points.len() as u64)),
                    y_columns: if spec.y.several() { &spec.y.0 } else { &[] },
                    summary: None,
                },
                y_scale: spec.y_scale.unwrap_or_default(),
                y_min: spec.y_min,
                y_max: spec.y_max,
                gaps: &points.gaps,
                reduced: points.reduced,
                y_digits,
                x_shown,
                words,
            };
            let drawn = chart::fit::draw(&input);
            RenderedChart {
                inline: drawn.inline,
                file: drawn.file,
                id,
            }
        })
        .collect()
}

/// Marker standing in for table rows that are streamed into the file after rendering.
pub const STREAMED_ROWS_MARKER: &str = "<!-- datapages: streamed table rows -->";

/// Parsed templates, shared by all pages of a build.
pub struct Renderer {
    tera: Tera,
    /// The words `t()`, `thousands` and `local_date` use ([`Renderer::speak`]).
    words: words::Slot,
}

impl Renderer {
    /// Parses the built-in templates, overridden by any in `<root>/templates/`.
    pub fn new(root: &Path) -> Result<Renderer, Vec<Diagnostic>> {
        let mut sources: Vec<(String, String)> = crate::theme::TEMPLATES
            .iter()
            .map(|(name, text)| (name.to_string(), text.to_string()))
            .collect();
        let dir = Path::new(layout::TEMPLATES);
        let mut problems = Vec::new();
        let skipped =
            |name: &str| name.starts_with('.') || name.ends_with('~') || name.ends_with(".swp");
        let walk = match confine::canonical_root(root) {
            Ok(root_canonical) => confine::walk(root, &root_canonical, dir, &|p| {
                !skipped(&p.to_string_lossy())
            }),
            Err(d) => confine::Walk {
                files: Vec::new(),
                problems: vec![d],
            },
        };
        problems.extend(walk.problems);
        for file in walk.files {
            let name = file.name;
            match std::fs::read_to_string(&file.real) {
                Ok(text) => {
                    sources.retain(|(n, _)| n != &name);
                    sources.push((name, text));
                }
                Err(e) => problems.push(Diagnostic::error(
                    dir.join(&name),
                    format!("cannot read the template: {e}"),
                )),
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let mut tera = Tera::default();
        tera.autoescape_on(vec![".html", ".xml"]);
        let slot: words::Slot = std::sync::Arc::new(std::sync::RwLock::new(std::sync::Arc::new(
            crate::i18n::Words::english(),
        )));
        words::register(&mut tera, &slot);
        // Tera's default also escapes `/`, which bloats every URL and unit ("MB&#x2F;s");
        // ours escapes only what HTML needs, and replaces characters HTML cannot carry.
        tera.set_escape_fn(crate::text::escape_html);
        tera.register_filter("text", TextContent);
        if let Err(e) =
            tera.add_raw_templates(sources.iter().map(|(n, t)| (n.as_str(), t.as_str())))
        {
            return Err(vec![template_errors::load_error(&e, &sources)]);
        }
        Ok(Renderer { tera, words: slot })
    }

    /// The words the templates write from now on: the site's, once site.toml is read.
    pub fn speak(&self, words: std::sync::Arc<crate::i18n::Words>) {
        *self
            .words
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = words;
    }

    fn render(&self, template: &str, context: &Context) -> Result<String, Diagnostic> {
        self.tera
            .render(template, context)
            .map_err(|e| template_errors::render_error(&e, template))
    }

    fn base_context(site: &Site, root: &str) -> Context {
        let mut context = Context::new();
        context.insert("site", &SiteView::new(site));
        context.insert("root", root);
        context.insert("data_root", site.config.data_place(None).root(root));
        context.insert("nav", &nav_links(site));
        context.insert("words_script", &site.words.script_name());
        context
    }

    /// A dataset page; `body` is the table's rows (or [`STREAMED_ROWS_MARKER`]) and their
    /// count; `written` the table's files as written (its downloads).
    pub fn dataset_page(
        &self,
        site: &Site,
        dataset: &crate::dataset::Dataset,
        body: view::TableBody<'_>,
        charts: &[RenderedChart],
        citations: &crate::metadata::citation_files::Citations,
        written: &[crate::dataset::FileDigest],
    ) -> Result<String, Diagnostic> {
        let shown = dataset.shown_columns(site.config.table_columns);
        let columns = view::column_views(dataset, &shown);
        let page = view::DatasetPageView::new(
            site,
            dataset,
            (&columns, &shown),
            body,
            (charts, citations),
            written,
        );
        let mut context = Self::base_context(site, "../../");
        let data_root = dataset.data_place(&site.config).root("../../");
        context.insert("data_root", data_root);
        context.insert("dataset", &page);
        context.insert(
            "explore",
            &explore_view::ExploreView::of(site, dataset, &shown, body.shown_rows),
        );
        context.insert("page_title", &dataset.front.title);
        context.insert(
            "jsonld",
            &crate::metadata::script_safe_json(&crate::metadata::jsonld::dataset(
                site, dataset, written,
            )),
        );
        self.render("dataset.html", &context)
    }

    /// The home page: the site intro and the most recently updated datasets (`ordered` is
    /// every dataset in listing order; the first `home_datasets` are shown).
    pub fn home_page(&self, site: &Site, ordered: &[usize]) -> Result<String, Diagnostic> {
        let mut context = Self::base_context(site, "./");
        context.insert(
            "intro_html",
            &site.home.as_ref().map(|p| p.html.as_str()).unwrap_or(""),
        );
        let shown = &ordered[..crate::site::listing::home(site, ordered)];
        context.insert("datasets", &summaries_in_order(site, shown.iter().copied()));
        context.insert("total", &ordered.len());
        context.insert("page_title", &site.config.title);
        let catalog = crate::metadata::jsonld::catalog(site, shown)
            .map_err(|e| crate::site::datasets::read_back_problem(&e))?;
        context.insert("jsonld", &crate::metadata::script_safe_json(&catalog));
        context.insert("dcat_catalogs", &dcat_catalogs(site));
        self.render("index.html", &context)
    }

    /// A plain page such as About.
    pub fn plain_page(
        &self,
        site: &Site,
        page: &crate::content::Page,
    ) -> Result<String, Diagnostic> {
        let mut context = Self::base_context(site, "../");
        context.insert(
            "page",
            &PageView {
                title: &page.front.title,
                html: &page.html,
            },
        );
        context.insert("page_title", &page.front.title);
        self.render("page.html", &context)
    }

    /// The page hosts serve for missing paths; links are absolute since it is served anywhere.
    pub fn not_found_page(&self, site: &Site) -> Result<String, Diagnostic> {
        let mut context = Self::base_context(site, site.config.base_url.as_str());
        let title = site
            .words
            .text("not_found.title")
            .map_err(|e| Diagnostic::error(layout::TEMPLATES, e))?;
        context.insert("page_title", &title);
        self.render("404.html", &context)
    }
}

/// `{{ value | text }}`: a value escaped for element content only (`&<>`, quotes left as
/// they are), for code blocks full of quotes (snippets, citations); never for attributes.
struct TextContent;

impl tera::Filter for TextContent {
    fn filter(
        &self,
        value: &tera::Value,
        _: &std::collections::HashMap<String, tera::Value>,
    ) -> tera::Result<tera::Value> {
        let mut out = String::new();
        match value {
            tera::Value::String(s) => crate::text::escape_text_into(s, &mut out),
            other => crate::text::escape_text_into(&other.to_string(), &mut out),
        }
        Ok(tera::Value::String(out))
    }

    fn is_safe(&self) -> bool {
        true
    }
}

#[derive(Serialize)]
struct TagView<'a> {
    name: &'a str,
    slug: &'a str,
}

#[derive(Serialize)]
struct PageView<'a> {
    title: &'a str,
    html: &'a str,
}

/// Summaries of datasets already in listing order (`crate::site::listing`).
fn summaries_in_order(
    site: &Site,
    indexes: impl Iterator<Item = usize>,
) -> Vec<DatasetSummaryView<'_>> {
    indexes
        .map(|i| DatasetSummaryView::new(site.datasets.summary(i)))
        .collect()
}

fn tag_links(site: &Site) -> Vec<view::TagView<'_>> {
    site.tags
        .iter()
        .map(|t| view::TagView {
            name: &t.name,
            slug: &t.slug,
            count: t.datasets.len(),
            text: format!("{} ({})", t.name, t.datasets.len()),
            url: urls::tag_page(&t.slug),
        })
        .collect()
}

fn nav_links(site: &Site) -> Vec<LinkView> {
    let mut links = vec![LinkView {
        // Every language's catalogue has it: `check` stops a build that lacks it.
        text: site.words.text("listing.title").unwrap_or_default(),
        url: urls::DATASETS.into(),
    }];
    links.extend(site.nav_pages().into_iter().map(|p| LinkView {
        text: p.front.title.clone(),
        url: urls::page(&p.name),
    }));
    links
}

/// One DCAT catalog file the home page names in its head.
#[derive(serde::Serialize)]
struct DcatCatalogView {
    media_type: &'static str,
    /// The words' id of its title.
    title: &'static str,
    url: String,
}

/// The DCAT catalog files of site.toml's `dcat`, page 1 of each syntax.
fn dcat_catalogs(site: &Site) -> Vec<DcatCatalogView> {
    use crate::config::DcatSyntax;
    (site.config.dcat.iter())
        .map(|&syntax| DcatCatalogView {
            media_type: match syntax {
                DcatSyntax::Turtle => "text/turtle",
                DcatSyntax::JsonLd => "application/ld+json",
            },
            title: match syntax {
                DcatSyntax::Turtle => "listing.catalog_turtle",
                DcatSyntax::JsonLd => "listing.catalog_jsonld",
            },
            url: crate::metadata::dcat::page_path(syntax, 1),
        })
        .collect()
}
