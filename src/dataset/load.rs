//! Loading one dataset, step by step: read the page, parse and check its front matter,
//! check its prose, resolve and scan its CSV, then the checks that need the scan.
//! Every step adds its problems to the list and the load goes on as far as it can, so one
//! `check` shows everything.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::cache::ScanCache;
use super::scan::{self, ChartColumns, CsvSummary};
use super::{chart_series, charts, columns, data_path, Dataset};
use crate::config::SiteConfig;
use crate::confine;
use crate::content::front_matter::{self, SplitFile};
use crate::content::spans::{Locator, Spans};
use crate::content::{self, dialect, markdown, validate, Body, DatasetFrontMatter, License};
use crate::diagnostics::{Diagnostic, Severity};
use crate::i18n::locale::NumberMarks;
use crate::layout;

/// A dataset as loaded, when it could be loaded at all (even with errors, so that later
/// checks still run), with every problem found.
#[derive(Debug)]
pub struct Loaded {
    pub dataset: Option<Dataset>,
    pub problems: Vec<Diagnostic>,
    /// The file name without `.md`, even when it is not a valid slug.
    pub slug: super::Slug,
    /// `draft = true` in front matter that could be read.
    pub draft: bool,
}

/// Reads and checks one dataset.
pub fn load(
    root: &Path,
    markdown_file: &Path,
    config: &SiteConfig,
    cache: Option<&ScanCache>,
) -> Loaded {
    let (mut problems, mut draft) = (Vec::new(), false);
    let dataset = load_into(
        root,
        markdown_file,
        config,
        cache,
        &mut problems,
        &mut draft,
    );
    Loaded {
        dataset,
        problems,
        slug: super::Slug::of_file(markdown_file),
        draft,
    }
}

fn load_into(
    root: &Path,
    markdown_file: &Path,
    config: &SiteConfig,
    cache: Option<&ScanCache>,
    problems: &mut Vec<Diagnostic>,
    draft: &mut bool,
) -> Option<Dataset> {
    let display = content::display_path(root, markdown_file);
    let page = read_page(root, &display, problems)?;
    let text = page.text.as_str();
    let slug = slug_of(markdown_file, &display, problems);
    let split = front_matter::split(&display, text)
        .map_err(|d| problems.push(d))
        .ok()?;
    let (mut front, spans) = parse_front_matter(&display, text, &split, problems)?;
    *draft = front.draft;
    let locator = Locator {
        file: &display,
        text,
        spans,
    };
    check_beyond_types(&locator, &split, &slug, problems);
    let mut body = markdown::split_body(split.body, config.markdown.raw_html);
    let marks_readable = columns::check_dialect(&front, &locator, problems);
    if front.missing_values.is_none() {
        front.missing_values = config.missing_values.clone();
    }
    let table_rows = front.table_rows.unwrap_or(config.table_rows);
    let read = Read {
        root: &page.root,
        slug: &slug,
        split: &split,
        locator: &locator,
        config,
        marks: NumberMarks::of(&config.language),
    };
    let rows = (table_rows, marks_readable);
    let scanned = check_and_scan(&read, &front, &body, rows, cache, problems)?;
    let versions = (!scanned.csv_errors)
        .then(|| {
            let inputs = super::versions::Inputs {
                root: &page.root,
                front: &front,
                locator: &locator,
                csv_path: &scanned.csv_path,
                csv_display: &scanned.csv_display,
                dialect: scanned.dialect,
                chunk_rows: config.versions_chunk_rows.get(),
            };
            super::versions::collect(&inputs, &mut *problems).map(Arc::new)
        })
        .flatten();
    let figures_site = super::figures::Site {
        root: &page.root,
        default_rows: config.table_rows,
        missing_values: config.missing_values.as_deref(),
        marks: &read.marks,
    };
    let mut figure_html = super::figures::FigureHtml::default();
    let (figures, mut read_datasets) = super::figures::quote(
        &figures_site,
        &mut front,
        &mut body,
        split.body,
        split.body_offset,
        &locator,
        &scanned.csv_path,
        config.markdown.raw_html,
        table_rows.limit(),
        &mut figure_html,
        problems,
    );
    let keys = super::keys::check(
        &figures_site,
        (&slug, &front),
        (&scanned.csv_path, !scanned.csv_errors),
        &locator,
        problems,
    );
    read_datasets.extend(keys.read);
    // Measured as readers see them: with the quoted figures in place.
    problems.extend(validate::glance_lengths(&locator, &front));
    let related_places: Vec<_> = (0..front.related.len())
        .map(|n| locator.place_of_value(&format!("related[{n}]")))
        .collect();
    let (dataset_links, page_links) = site_links(&body, text, split.body_offset);
    let row_pages = front.row_pages.unwrap_or(config.row_pages);
    if row_pages {
        super::paging::check_row_page_count(
            table_rows,
            scanned.summary.rows,
            config.max_row_pages,
            &locator,
            problems,
        );
    }
    Some(Dataset {
        slug,
        markdown_path: display.clone(),
        csv_path: scanned.csv_path,
        csv_display: scanned.csv_display,
        front,
        body,
        csv: scanned.summary,
        license: scanned.license,
        table_rows,
        row_pages,
        versions,
        related_places,
        figures,
        read_datasets,
        key_pages: keys.pages,
        figure_html,
        dataset_links,
        page_links,
        typed_numbers: u32::try_from(scanned.typed_numbers).unwrap_or(u32::MAX),
    })
}

/// What the checks after the front matter read of the page.
struct Read<'a> {
    root: &'a Path,
    slug: &'a str,
    split: &'a SplitFile<'a>,
    locator: &'a Locator<'a>,
    config: &'a SiteConfig,
    /// The number marks of the site's language: the prose's numbers and figures are in them.
    marks: NumberMarks,
}

/// What [`check_and_scan`] found of a dataset whose CSV could be read.
struct Scanned {
    csv_path: PathBuf,
    csv_display: PathBuf,
    summary: CsvSummary,
    /// Whether the CSV has errors (then the checks that follow from them say nothing).
    csv_errors: bool,
    dialect: dialect::CsvDialect,
    license: Arc<License>,
    /// Numbers the prose types by hand.
    typed_numbers: usize,
}

/// Checks the front matter's declarations and the prose, then scans the CSV (showing
/// `table_rows`) and runs the checks that need the scan. `None` when the CSV cannot be
/// read, or would be misread (an unknown separator; number marks that are not
/// `marks_readable`), its problems reported.
fn check_and_scan(
    read: &Read,
    front: &DatasetFrontMatter,
    body: &Body,
    (table_rows, marks_readable): (crate::content::TableRows, bool),
    cache: Option<&ScanCache>,
    problems: &mut Vec<Diagnostic>,
) -> Option<Scanned> {
    let (locator, split) = (read.locator, read.split);
    let source_ids = columns::source_ids(front, locator, problems);
    let documented = columns::compile_columns(front, locator, problems);
    columns::check_primary_key(front, &documented.names, locator, problems);
    let mut chart_unknown = Vec::new();
    let chart_columns = charts::compile_charts(front, locator, problems, &mut chart_unknown);
    let linked_sources = check_prose(body, front, &source_ids, locator, split, problems);
    let license = license(front, read.config, locator.file, problems);
    // An unknown separator is reported with the front matter; read with a comma, every
    // header and row would be a false error.
    let dialect = dialect::CsvDialect {
        delimiter: dialect::delimiter_byte(front.delimiter.as_deref())?,
        skip_initial_space: front.skip_initial_space,
    };
    // So are clashing number marks: every number would be a false error.
    if !marks_readable {
        return None;
    }
    // Counted as written: quoting puts the figures' values into the front matter's texts.
    // The scan looks for their cells (`check` lists them).
    let typed: Vec<_> = super::figures::typed_numbers(front, split, locator, &read.marks)
        .into_iter()
        .map(|t| t.typed)
        .collect();
    let inputs = scan::ScanInputs {
        columns: &documented.compiled,
        charts: &chart_columns,
        source_ids: &source_ids,
        rows_to_render: table_rows.limit(),
        dialect,
        typed_numbers: &typed,
        primary_key: &front.primary_key,
    };
    let scanned = scan_csv(read.root, read.slug, front, &inputs, locator, cache);
    // A chart's "nothing to draw" follows from errors in the CSV (an undocumented column,
    // cells of the wrong type): only the errors are reported until they are fixed.
    let csv_errors = (scanned.problems.iter()).any(|d| d.severity == Severity::Error);
    problems.extend(scanned.problems);
    if let Some(summary) = &scanned.summary {
        // A chart naming a column the CSV has but `[[columns]]` leaves out: the header
        // error (an undocumented column) is the one to fix.
        let in_csv = |(_, name): &&(usize, String)| summary.header.contains(name);
        for (index, _) in chart_unknown.iter().rev().filter(in_csv) {
            problems.remove(*index);
        }
    }
    let summary = scanned.summary?;
    if !csv_errors {
        let shown_rows = summary.rows.min(table_rows.limit());
        super::prose_links::check_rows(body, shown_rows, locator, split.body_offset, problems);
    }
    let charts = (&chart_columns[..], &linked_sources);
    check_scanned(
        &summary,
        &scanned.csv_path,
        csv_errors,
        charts,
        front,
        locator,
        problems,
    );
    Some(Scanned {
        csv_path: scanned.csv_path,
        csv_display: scanned.csv_display,
        summary,
        csv_errors,
        dialect,
        license,
        typed_numbers: typed.len(),
    })
}

/// A link and where it is.
type PlacedLinks = Vec<(String, content::spans::Place)>;

/// The prose's links to dataset pages, `../<slug>/` with an optional anchor, and to the
/// site's own pages, `../../<name>/` (a folder: files such as `../../feed.xml` are not
/// pages), each placed at its first `](link` in the body (Markdown has no spans here). A
/// link to a file of the downloads, `../../data/<path>`, is kept as the page `data/<path>`
/// (the file the site must write there).
fn site_links(body: &Body, text: &str, body_offset: usize) -> (PlacedLinks, PlacedLinks) {
    let prose = &text[body_offset..];
    let place = |link: &str| {
        let at = prose
            .find(&format!("]({link}"))
            .map(|i| i + 2)
            .or_else(|| prose.find(link))?;
        Some(content::spans::Place::of(text, body_offset + at))
    };
    let (mut datasets, mut pages) = (Vec::new(), Vec::new());
    for link in &body.links {
        let Some(rest) = link.strip_prefix("../") else {
            continue;
        };
        if let Some(page) = rest.strip_prefix("../") {
            let Some((name, rest)) = page.split_once('/') else {
                continue;
            };
            let file = rest.split(['?', '#']).next().unwrap_or_default();
            if name == layout::DATA && !file.is_empty() && !file.ends_with('/') {
                let plain = |s: &str| !s.is_empty() && s != "." && s != "..";
                if file.split('/').all(plain) {
                    pages.extend(place(link).map(|at| (format!("{name}/{file}"), at)));
                }
                continue;
            }
            if !name.is_empty() && name != ".." && !name.contains('.') {
                pages.extend(place(link).map(|at| (name.to_string(), at)));
            }
            continue;
        }
        let (slug, _) = rest.split_once('/').unwrap_or((rest, ""));
        if !slug.is_empty() && slug != ".." {
            datasets.extend(place(link).map(|at| (slug.to_string(), at)));
        }
    }
    (datasets, pages)
}

/// The page's text, read where confinement resolved it, and the site root it is
/// confined to.
struct PageText {
    root: PathBuf,
    text: String,
}

fn read_page(root: &Path, display: &Path, problems: &mut Vec<Diagnostic>) -> Option<PageText> {
    let root_canonical = confine::canonical_root(root)
        .map_err(|d| problems.push(d))
        .ok()?;
    let markdown_real = confine::resolve_file(&root_canonical, display)
        .map_err(|refusal| problems.push(refusal.diagnostic(display)))
        .ok()?;
    let text = std::fs::read_to_string(&markdown_real)
        .map_err(|e| {
            problems.push(Diagnostic::error(
                display,
                format!("cannot read the dataset page: {e}"),
            ))
        })
        .ok()?;
    Some(PageText {
        root: root_canonical,
        text,
    })
}

/// The slug, from the file name, reported when it is not one.
fn slug_of(markdown_file: &Path, display: &Path, problems: &mut Vec<Diagnostic>) -> super::Slug {
    let slug = super::Slug::of_file(markdown_file);
    if let Some(problem) = super::slug_problem(&slug) {
        problems.push(
            Diagnostic::error(display, problem.message(&slug)).with_hint(problem.hint(&slug, true)),
        );
    }
    slug
}

/// The front matter, typed, and the spans of its keys and values (one parse), after the
/// characters no output can carry (which stop the load).
fn parse_front_matter(
    display: &Path,
    text: &str,
    split: &SplitFile,
    problems: &mut Vec<Diagnostic>,
) -> Option<(DatasetFrontMatter, Spans)> {
    let (front_characters, body_characters) = content::characters_by_region(display, text, split);
    if !front_characters.is_empty() {
        problems.extend(front_characters);
        problems.extend(body_characters);
        return None;
    }
    problems.extend(body_characters);
    let (toml, offset) = (split.front_matter, split.front_matter_offset);
    let parsed = front_matter::parse_toml_with_spans(display, text, toml, offset);
    parsed.map_err(|d| problems.push(d)).ok()
}

/// The checks beyond the types: placeholders left by `new`, values (escapes, dates, URLs,
/// name lengths) and the links of the prose.
fn check_beyond_types(
    locator: &Locator,
    split: &SplitFile,
    slug: &str,
    problems: &mut Vec<Diagnostic>,
) {
    let (display, text) = (locator.file, locator.text);
    let (front, front_offset) = (split.front_matter, split.front_matter_offset);
    problems.extend(content::placeholders::find(display, text));
    let values = validate::dataset_front_matter(locator, front, front_offset, slug);
    let links = validate::markdown_body_links(display, text, split.body, split.body_offset);
    problems.extend(values.into_iter().chain(links));
}

/// The lede, the `## Method` and `## Limits` sections, and the prose's links to sources.
/// Returns the ids of the sources the prose (or the license text) links to.
fn check_prose(
    body: &Body,
    front: &DatasetFrontMatter,
    source_ids: &HashSet<&str>,
    locator: &Locator,
    split: &SplitFile,
    problems: &mut Vec<Diagnostic>,
) -> HashSet<String> {
    let text = locator.text;
    if body.lede_text.is_empty() {
        let body_line = text[..split.body_offset].matches('\n').count();
        problems.push(
            Diagnostic::warning(locator.file, "the page has no lede")
                .at_line(body_line + 1)
                .with_hint("start the body with a paragraph that says what the table shows, with its key figures"),
        );
    }
    problems.extend(super::budget::prose_over_budget(body, locator.file));
    for expected in ["Method", "Limits"] {
        if body.section(expected).is_none() {
            problems.push(
                Diagnostic::warning(
                    locator.file,
                    format!("the page has no `## {expected}` section"),
                )
                .with_hint(if expected == "Method" {
                    "say how the figures were obtained"
                } else {
                    "say what the table does not show"
                }),
            );
        }
    }
    let mut linked_sources = super::prose_links::check(
        body,
        front,
        source_ids,
        locator,
        split.body_offset,
        problems,
    );
    if let Some(text) = front.license.as_ref().and_then(|l| l.text.as_ref()) {
        for link in markdown::split_body(text, markdown::RawHtml::Keep).links {
            if let Some(id) = link.strip_prefix("#source-") {
                linked_sources.insert(id.to_string());
            }
        }
    }
    linked_sources
}

/// The dataset's license, else the site's default; an error when there is neither.
fn license(
    front: &DatasetFrontMatter,
    config: &SiteConfig,
    display: &Path,
    problems: &mut Vec<Diagnostic>,
) -> Arc<License> {
    let own = front.license.as_deref().cloned().map(Arc::new);
    if let Some(license) = own.or_else(|| config.license.clone()) {
        return license;
    }
    problems.push(
        Diagnostic::error(display, "the dataset has no license")
            .with_hint("add [license] to the front matter, or a default [license] to site.toml"),
    );
    Arc::new(License {
        id: None,
        name: String::new(),
        url: None,
        text: None,
    })
}

/// What scanning the CSV gave: its paths, its summary when it could be read, and its
/// problems.
struct CsvScan {
    /// The file on disk, links resolved (empty when the path was refused).
    csv_path: PathBuf,
    /// The path as the author wrote it (or the default), relative to the site root.
    csv_display: PathBuf,
    summary: Option<CsvSummary>,
    problems: Vec<Diagnostic>,
}

/// Resolves the CSV path before anything is opened (a path or link that leads outside the
/// site is never read, so no diagnostic can quote a byte of it), then scans the file.
fn scan_csv(
    root_canonical: &Path,
    slug: &str,
    front: &DatasetFrontMatter,
    inputs: &scan::ScanInputs,
    locator: &Locator,
    cache: Option<&ScanCache>,
) -> CsvScan {
    let csv_display = PathBuf::from(front.csv_file(slug));
    match confine::resolve_file_under(root_canonical, &csv_display, layout::DATA) {
        Ok(csv_path) => {
            let scan = || scan::scan_with_charts(&csv_path, &csv_display, inputs);
            let (summary, mut problems) = match cache {
                Some(cache) => cache.scan(&csv_path, inputs, scan),
                None => scan(),
            };
            if let Some(summary) = &summary {
                problems.extend(wrong_declarations(summary, front, locator));
            }
            CsvScan {
                csv_path,
                csv_display,
                summary,
                problems,
            }
        }
        Err(refusal) => {
            let d = data_path::refusal_diagnostic(&refusal, &csv_display, locator);
            CsvScan {
                csv_path: PathBuf::new(),
                csv_display,
                summary: None,
                problems: vec![d],
            }
        }
    }
}

/// One error at the `type` (or date `format`) of each column whose cells mostly fail it
/// (the scan left out those cells' own errors).
fn wrong_declarations<'a>(
    summary: &'a CsvSummary,
    front: &'a DatasetFrontMatter,
    locator: &'a Locator,
) -> impl Iterator<Item = Diagnostic> + 'a {
    summary.wrong_types.iter().filter_map(move |wrong| {
        let name = summary.header.get(wrong.column)?;
        let n = front.columns.iter().position(|c| &c.name == name)?;
        let (message, hint, key) = wrong.describe_column(name, &front.columns[n]);
        let at = locator
            .value(&format!("columns[{n}].{key}"))
            .or_else(|| locator.value(&format!("columns[{n}].name")));
        Some(locator.error(message, at).with_hint(hint))
    })
}

/// The checks that need the scan: charts with nothing to draw, sources never cited
/// (`linked_sources`: those the prose links).
fn check_scanned(
    summary: &CsvSummary,
    csv_path: &Path,
    csv_errors: bool,
    (chart_columns, linked_sources): (&[ChartColumns], &HashSet<String>),
    front: &DatasetFrontMatter,
    locator: &Locator,
    problems: &mut Vec<Diagnostic>,
) {
    for (n, (_, points)) in chart_columns.iter().zip(&summary.charts).enumerate() {
        let chart = &front.charts[n];
        if points.points.is_empty() && !csv_errors {
            problems.push(charts::nothing_to_draw(locator, n, chart));
        }
        problems.extend(charts::not_one_series(locator, n, chart, &points.points));
        problems.extend(chart_series::check_series(
            locator,
            n,
            chart,
            &points.points,
        ));
        problems.extend(charts::against_data(locator, n, chart, points, csv_path));
    }
    for (n, source) in front.sources.iter().enumerate() {
        if !summary.referenced_sources.contains(&source.id) && !linked_sources.contains(&source.id)
        {
            let unused = locator
                .error(
                    format!("source `{}` is defined but never cited", source.id),
                    locator.value(&format!("sources[{n}].id")),
                )
                .with_hint("cite it from a CSV column with references = \"sources\", link it as [text](#source-<id>), or remove it");
            problems.push(Diagnostic {
                severity: Severity::Warning,
                ..unused
            });
        }
    }
}
