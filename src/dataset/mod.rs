//! A dataset: its front matter and prose, checked against its CSV in one streaming pass.

pub mod cache;
mod data_path;
pub mod scan;
pub mod schema;
pub mod stamp;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use regex::Regex;

use crate::config::SiteConfig;
use crate::confine;
use crate::content::{
    self, front_matter, markdown, validate, Body, ChartKind, ChartSpec, DatasetFrontMatter,
    License, TableRows,
};
use crate::diagnostics::{did_you_mean, Diagnostic, Severity};
use cache::ScanCache;
use scan::{ChartColumns, CompiledColumn, CsvSummary};

/// Everything known about one dataset after loading and validation.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// From the file name: `content/datasets/<slug>.md`.
    pub slug: String,
    /// The Markdown file, relative to the site root.
    pub markdown_path: PathBuf,
    /// The CSV file on disk, symbolic links resolved (inside the site folder: `confine`).
    pub csv_path: PathBuf,
    /// The CSV file relative to the site root.
    pub csv_display: PathBuf,
    pub front: DatasetFrontMatter,
    pub body: Body,
    pub csv: CsvSummary,
    /// The dataset's license, or the site's default.
    pub license: License,
    /// How many rows the page's table shows.
    pub table_rows: TableRows,
}

impl Dataset {
    /// Rows the page shows: the cap, or every row.
    pub fn shown_rows(&self) -> u64 {
        self.csv.rows.min(self.table_rows.limit())
    }

    /// The `updated` date, else `created`, as `YYYY-MM-DD`.
    pub fn updated(&self) -> Option<String> {
        self.front
            .updated
            .as_ref()
            .or(self.front.created.as_ref())
            .map(content::date_string)
    }
}

/// Whether a slug is lowercase letters, digits and single hyphens.
pub fn is_valid_slug(slug: &str) -> bool {
    !slug.is_empty()
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !slug.starts_with('-')
        && !slug.ends_with('-')
        && !slug.contains("--")
}

/// A dataset as loaded (when it could be read at all) with every problem found.
pub type Loaded = (Option<Dataset>, Vec<Diagnostic>);

/// Reads and checks one dataset. Returns the dataset when it could be loaded at all (even
/// with errors, so that later checks still run) and every problem found.
pub fn load(
    root: &Path,
    markdown_file: &Path,
    config: &SiteConfig,
    cache: Option<&ScanCache>,
) -> Loaded {
    let display = content::display_path(root, markdown_file);
    let mut problems = Vec::new();
    let root_canonical = match confine::canonical_root(root) {
        Ok(r) => r,
        Err(d) => return (None, vec![d]),
    };
    let markdown_real = match confine::resolve_file(&root_canonical, &display) {
        Ok(real) => real,
        Err(refusal) => return (None, vec![refusal.diagnostic(&display)]),
    };
    let text = match std::fs::read_to_string(&markdown_real) {
        Ok(t) => t,
        Err(e) => {
            problems.push(Diagnostic::error(
                &display,
                format!("cannot read the dataset page: {e}"),
            ));
            return (None, problems);
        }
    };
    let slug = markdown_file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string();
    if !is_valid_slug(&slug) {
        problems.push(
            Diagnostic::error(&display, format!("`{slug}` is not a valid dataset slug")).with_hint(
                format!(
                    "rename the file to {}.md: lowercase letters, digits and hyphens",
                    markdown::slugify(&slug)
                ),
            ),
        );
    }
    let split = match front_matter::split(&display, &text) {
        Ok(s) => s,
        Err(d) => {
            problems.push(d);
            return (None, problems);
        }
    };
    let (front_characters, body_characters) =
        content::characters_by_region(&display, &text, &split);
    if !front_characters.is_empty() {
        problems.extend(front_characters);
        problems.extend(body_characters);
        return (None, problems);
    }
    problems.extend(body_characters);
    let front: DatasetFrontMatter = match front_matter::parse_toml(
        &display,
        &text,
        split.front_matter,
        split.front_matter_offset,
    ) {
        Ok(f) => f,
        Err(d) => {
            problems.push(d);
            return (None, problems);
        }
    };
    problems.extend(content::placeholders::find(&display, &text));
    problems.extend(validate::dataset_front_matter(
        &display,
        &text,
        split.front_matter,
        split.front_matter_offset,
        &slug,
    ));
    problems.extend(validate::markdown_body_links(
        &display,
        &text,
        split.body,
        split.body_offset,
    ));
    let body = markdown::split_body(split.body, config.markdown.raw_html);
    let body_line = text[..split.body_offset].matches('\n').count();

    // Locates the first occurrence of `needle` in the file (front matter keys and values,
    // link targets in the prose) as line and column.
    let locate = |needle: &str| -> Option<(usize, usize)> {
        text.lines().enumerate().find_map(|(index, line)| {
            line.find(needle)
                .map(|byte| (index + 1, line[..byte].chars().count() + 1))
        })
    };
    let front_error = |message: String, needle: &str| {
        let d = Diagnostic::error(&display, message);
        match locate(needle) {
            Some((line, column)) => d.at(line, column).with_source_from(&text),
            None => d,
        }
    };

    // Sources.
    let mut source_ids: HashSet<&str> = HashSet::new();
    for source in &front.sources {
        let needle = format!("\"{}\"", source.id);
        if !is_valid_slug(&source.id) {
            problems.push(
                front_error(format!("source id `{}` is not valid", source.id), &needle).with_hint(
                    "use lowercase letters, digits and hyphens: it becomes the anchor #source-<id>",
                ),
            );
        }
        if !source_ids.insert(&source.id) {
            problems.push(front_error(
                format!("source id `{}` is defined twice", source.id),
                &needle,
            ));
        }
    }

    // Columns.
    let mut compiled = Vec::with_capacity(front.columns.len());
    let mut column_names = HashSet::new();
    for column in &front.columns {
        let needle = format!("\"{}\"", column.name);
        if !column_names.insert(column.name.as_str()) {
            problems.push(front_error(
                format!("column `{}` is documented twice", column.name),
                &needle,
            ));
        }
        if let Some(reference) = &column.references {
            if reference != "sources" {
                problems.push(
                    front_error(
                        format!(
                            "column `{}`: unknown references target {reference:?}",
                            column.name
                        ),
                        "references",
                    )
                    .with_hint("the only target is \"sources\""),
                );
            }
        }
        let pattern = match &column.pattern {
            Some(p) => match Regex::new(&format!("^(?:{p})$")) {
                Ok(r) => Some(r),
                Err(e) => {
                    problems.push(
                        front_error(
                            format!(
                                "column `{}`: the pattern is not a valid regular expression",
                                column.name
                            ),
                            "pattern",
                        )
                        .with_hint(
                            e.to_string()
                                .lines()
                                .last()
                                .unwrap_or_default()
                                .trim()
                                .to_string(),
                        ),
                    );
                    None
                }
            },
            None => None,
        };
        compiled.push(CompiledColumn {
            spec: column,
            pattern,
        });
    }
    if front.columns.is_empty() {
        problems.push(
            front_error("no [[columns]] are documented".into(), "+++").with_hint(
                "add a [[columns]] entry for every CSV column: name, title, type, description",
            ),
        );
    }
    for key in &front.primary_key {
        if !column_names.contains(key.as_str()) {
            let hint = did_you_mean(key, column_names.iter().copied())
                .map(|n| format!("did you mean `{n}`?"))
                .unwrap_or_else(|| "name documented columns".into());
            problems.push(
                front_error(
                    format!("primary_key names `{key}`, which is not a column"),
                    "primary_key",
                )
                .with_hint(hint),
            );
        }
    }

    let chart_columns = compile_charts(&front, &text, &display, &mut problems);

    // The body.
    if body.lede_text.is_empty() {
        problems.push(
            Diagnostic::warning(&display, "the page has no lede")
                .at_line(body_line + 1)
                .with_hint("start the body with a paragraph that says what the table shows, with its key figures"),
        );
    }
    for expected in ["Method", "Limits"] {
        if body.section(expected).is_none() {
            problems.push(
                Diagnostic::warning(&display, format!("the page has no `## {expected}` section"))
                    .with_hint(if expected == "Method" {
                        "say how the figures were obtained"
                    } else {
                        "say what the table does not show"
                    }),
            );
        }
    }
    let mut linked_sources = HashSet::new();
    for link in &body.links {
        if let Some(id) = link.strip_prefix("#source-") {
            if source_ids.contains(id) {
                linked_sources.insert(id.to_string());
            } else {
                let hint = did_you_mean(id, source_ids.iter().copied())
                    .map(|n| format!("did you mean `#source-{n}`?"))
                    .unwrap_or_else(|| "add a [[sources]] entry with this id".into());
                problems.push(
                    front_error(
                        format!("the prose links to source `{id}`, which is not defined"),
                        link,
                    )
                    .with_hint(hint),
                );
            }
        }
    }
    if let Some(text) = front.license.as_ref().and_then(|l| l.text.as_ref()) {
        for link in markdown::split_body(text, markdown::RawHtml::Keep).links {
            if let Some(id) = link.strip_prefix("#source-") {
                linked_sources.insert(id.to_string());
            }
        }
    }

    // The license.
    let license = match front.license.clone().or_else(|| config.license.clone()) {
        Some(l) => l,
        None => {
            problems.push(
                Diagnostic::error(&display, "the dataset has no license").with_hint(
                    "add [license] to the front matter, or a default [license] to site.toml",
                ),
            );
            License {
                id: None,
                name: String::new(),
                url: None,
                text: None,
            }
        }
    };

    // The CSV.
    let csv_relative = front
        .data
        .clone()
        .unwrap_or_else(|| format!("data/datasets/{slug}.csv"));
    let csv_display = PathBuf::from(&csv_relative);
    let table_rows = front.table_rows.unwrap_or(config.table_rows);
    // Resolved before anything is opened: a path or link that leads outside the site is
    // never read, so no diagnostic can quote a byte of it.
    let (csv_path, summary, csv_problems) =
        match confine::resolve_file(&root_canonical, &csv_display) {
            Ok(csv_path) => {
                let inputs = scan::ScanInputs {
                    columns: &compiled,
                    charts: &chart_columns,
                    source_ids: &source_ids,
                    rows_to_render: table_rows.limit(),
                };
                let scan = || scan::scan_with_charts(&csv_path, &csv_display, &inputs);
                let (summary, problems) = match cache {
                    Some(cache) => cache.scan(&csv_path, &inputs, scan),
                    None => scan(),
                };
                (csv_path, summary, problems)
            }
            Err(refusal) => {
                let d = data_path::refusal_diagnostic(
                    &refusal,
                    &csv_display,
                    front.data.is_some(),
                    &text,
                    &display,
                );
                (PathBuf::new(), None, vec![d])
            }
        };
    problems.extend(csv_problems);

    if let Some(summary) = &summary {
        for (n, (chart, points)) in chart_columns.iter().zip(&summary.charts).enumerate() {
            if points.points.is_empty() {
                let spec = &front.charts[n];
                let filtered = if spec.filter.is_empty() {
                    ""
                } else {
                    "matches the filter and "
                };
                let d = Diagnostic::error(
                    &display,
                    format!(
                        "chart `{}` has nothing to draw: no row {filtered}has a value in `{}`",
                        chart.id, spec.y
                    ),
                )
                .with_hint("check the filter values against the CSV cells (they must match exactly), or remove the chart");
                problems.push(locate_chart(d, &text, n, "[[charts]]"));
            }
        }
        for source in &front.sources {
            if !summary.referenced_sources.contains(&source.id)
                && !linked_sources.contains(&source.id)
            {
                let unused = front_error(format!("source `{}` is defined but never cited", source.id), &format!("\"{}\"", source.id))
                    .with_hint("cite it from a CSV column with references = \"sources\", link it as [text](#source-<id>), or remove it");
                problems.push(Diagnostic {
                    severity: Severity::Warning,
                    ..unused
                });
            }
        }
    }
    drop(compiled);
    let dataset = summary.map(|csv| Dataset {
        slug,
        markdown_path: display,
        csv_path,
        csv_display,
        front,
        body,
        csv,
        license,
        table_rows,
    });
    (dataset, problems)
}

/// Finds `needle` inside the `occurrence`-th (0-based) `[[charts]]` table of a dataset file,
/// so that a problem points at the chart it is about, not at the first match in the file.
fn locate_chart(diagnostic: Diagnostic, text: &str, occurrence: usize, needle: &str) -> Diagnostic {
    let mut seen = 0;
    let mut header = None;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if header.is_none() {
            if trimmed == "[[charts]]" {
                if seen == occurrence {
                    header = Some(index);
                }
                seen += 1;
            }
            continue;
        }
        let other_table = trimmed.starts_with('[')
            && !trimmed.starts_with("[\"")
            && !trimmed.starts_with("[charts.");
        if other_table || trimmed == "+++" {
            break;
        }
        if let Some(byte) = line.find(needle) {
            return diagnostic
                .at(index + 1, line[..byte].chars().count() + 1)
                .with_source_from(text);
        }
    }
    match header {
        Some(index) => diagnostic.at(index + 1, 1).with_source_from(text),
        None => diagnostic,
    }
}

/// Checks every `[[charts]]` entry against the documented columns and resolves its
/// columns to CSV positions. Returns no charts at all when any is wrong, so that the
/// points the scan collects always line up with `front.charts`.
fn compile_charts(
    front: &DatasetFrontMatter,
    text: &str,
    display: &Path,
    problems: &mut Vec<Diagnostic>,
) -> Vec<ChartColumns> {
    let index: HashMap<&str, usize> = front
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name.as_str(), i))
        .collect();
    let names: Vec<&str> = front.columns.iter().map(|c| c.name.as_str()).collect();
    let column_hint = |name: &str| match did_you_mean(name, names.iter().copied()) {
        Some(near) => format!("did you mean `{near}`?"),
        None => format!("the columns are: {}", names.join(", ")),
    };
    let before = problems.len();
    let mut ids = HashSet::new();
    let mut compiled = Vec::with_capacity(front.charts.len());
    for (n, chart) in front.charts.iter().enumerate() {
        let id = chart.id();
        let error = |message: String, needle: &str| {
            locate_chart(
                Diagnostic::error(display, format!("chart `{id}`: {message}")),
                text,
                n,
                needle,
            )
        };
        if chart.title.trim().is_empty() {
            problems.push(error("the title is empty".into(), "title").with_hint(
                "say what the chart shows: it is the chart's heading and its accessible name",
            ));
        } else if !is_valid_slug(&id) {
            let needle = if chart.id.is_some() { "id" } else { "title" };
            problems.push(error(format!("`{id}` is not a valid chart id"), needle).with_hint(
                format!(
                    "set `id = \"{}\"`: lowercase letters, digits and hyphens; it names the anchor #chart-<id> and the file <slug>-<id>.svg",
                    ascii_slug(&id)
                ),
            ));
        }
        if !ids.insert(id.clone()) {
            problems.push(
                error("another chart has the same id".into(), "title")
                    .with_hint("give each chart its own `id` (or title)"),
            );
        }
        let mut resolve = |key: &str, name: &str| -> Option<usize> {
            if let Some(i) = index.get(name) {
                return Some(*i);
            }
            let hint = column_hint(name);
            problems.push(
                error(
                    format!("{key} names `{name}`, which is not a column"),
                    &format!("\"{name}\""),
                )
                .with_hint(hint),
            );
            None
        };
        let x = resolve("x", &chart.x);
        let y = resolve("y", &chart.y);
        let series = chart.series.as_ref().map(|s| resolve("series", s));
        let mut filter = Vec::new();
        for (column, values) in &chart.filter {
            let Some(i) = index.get(column.as_str()) else {
                let hint = column_hint(column);
                problems.push(
                    error(
                        format!("the filter names `{column}`, which is not a column"),
                        column,
                    )
                    .with_hint(hint),
                );
                continue;
            };
            if let Some(allowed) = &front.columns[*i].enum_values {
                for value in &values.0 {
                    if !allowed.contains(value) {
                        let near = did_you_mean(value, allowed.iter().map(String::as_str));
                        let hint = match near {
                            Some(near) => {
                                format!("did you mean {near:?}? allowed: {}", allowed.join(", "))
                            }
                            None => format!("allowed: {}", allowed.join(", ")),
                        };
                        problems.push(
                            error(
                                format!("the filter on `{column}` keeps {value:?}, which the column does not allow"),
                                &format!("\"{value}\""),
                            )
                            .with_hint(hint),
                        );
                    }
                }
            }
            filter.push((*i, values.0.clone()));
        }
        if let Some(y) = y {
            let column = &front.columns[y];
            if !column.column_type.is_numeric() {
                let numeric: Vec<&str> = front
                    .columns
                    .iter()
                    .filter(|c| c.column_type.is_numeric())
                    .map(|c| c.name.as_str())
                    .collect();
                let hint = if numeric.is_empty() {
                    "the table has no number or integer column to chart".to_string()
                } else {
                    format!("numeric columns: {}", numeric.join(", "))
                };
                problems.push(
                    error(
                        format!(
                            "y is `{}`, a {} column; a chart measures a number or integer column",
                            column.name,
                            column.column_type.as_str()
                        ),
                        &format!("\"{}\"", column.name),
                    )
                    .with_hint(hint),
                );
            }
        }
        check_chart_shape(chart, &error, problems);
        if let (Some(x), Some(y), Some(series)) = (x, y, series.unwrap_or(Some(usize::MAX))) {
            compiled.push(ChartColumns {
                id,
                x,
                y,
                series: (series != usize::MAX).then_some(series),
                filter,
            });
        }
    }
    if problems.len() > before {
        return Vec::new();
    }
    compiled
}

/// The rules that tie a chart's kind to its columns.
fn check_chart_shape(
    chart: &ChartSpec,
    error: &dyn Fn(String, &str) -> Diagnostic,
    problems: &mut Vec<Diagnostic>,
) {
    match (chart.kind, &chart.series) {
        (ChartKind::GroupedBar, None) => problems.push(
            error(
                "a grouped-bar chart needs `series`, the column whose values make the bars of each group".into(),
                "kind",
            )
            .with_hint("add `series = \"<column>\"`, or use kind = \"bar\""),
        ),
        (ChartKind::Bar, Some(series)) => problems.push(
            error("a bar chart has no series".into(), "series").with_hint(format!(
                "use kind = \"grouped-bar\" to split the bars by `{series}`, or remove `series`"
            )),
        ),
        (_, Some(series)) if *series == chart.x => problems.push(
            error(format!("x and series are both `{series}`"), "series")
                .with_hint("series splits the points by another column than x"),
        ),
        _ => {}
    }
}

/// A chart id made of ASCII letters, digits and hyphens, for hints.
fn ascii_slug(text: &str) -> String {
    let slug: String = markdown::slugify(text)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let parts: Vec<&str> = slug.split('-').filter(|p| !p.is_empty()).collect();
    if parts.is_empty() {
        "chart".into()
    } else {
        parts.join("-")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_lowercase_words_and_hyphens() {
        assert!(is_valid_slug("sata-sas-nvme-measured-throughput"));
        assert!(is_valid_slug("a1"));
        for bad in ["", "A", "a_b", "-a", "a-", "a--b", "a b", "é"] {
            assert!(!is_valid_slug(bad), "{bad}");
        }
    }
}
