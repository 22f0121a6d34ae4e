//! The checks of a dataset's `[[charts]]` against its documented columns, and their
//! columns resolved to CSV positions for the scan. Each problem points at the key or
//! value of the chart it is about, found by its TOML span.

use std::collections::{HashMap, HashSet};

mod bounds;

use super::chart_place::ChartPlace;
use super::is_valid_slug;
use super::scan::{ChartColumns, ChartPoints, XPosition};
use crate::content::markdown;
use crate::content::spans::{child_path, Locator};
use crate::content::{ChartKind, ChartSpec, DatasetFrontMatter};
use crate::diagnostics::{did_you_mean, Diagnostic};

/// Checks every `[[charts]]` entry against the documented columns and resolves its
/// columns to CSV positions. Returns no charts at all when any is wrong, so that the
/// points the scan collects always line up with `front.charts`.
///
/// Each "names `c`, which is not a column" error is also noted in `unknown` (its index in
/// `problems`, the name), so that the load can drop it when the CSV has that column: the
/// header check then reports the column left out of `[[columns]]`, the real mistake.
pub(super) fn compile_charts(
    front: &DatasetFrontMatter,
    locator: &Locator,
    problems: &mut Vec<Diagnostic>,
    unknown: &mut Vec<(usize, String)>,
) -> Vec<ChartColumns> {
    let mut columns = Columns {
        front,
        index: (front.columns.iter().enumerate())
            .map(|(i, c)| (c.name.as_str(), i))
            .collect(),
        problems,
        unknown,
    };
    let before = columns.problems.len();
    let mut ids = HashSet::new();
    let mut compiled = Vec::with_capacity(front.charts.len());
    for (n, chart) in front.charts.iter().enumerate() {
        let id = chart.id();
        let place = ChartPlace {
            locator,
            path: format!("charts[{n}]"),
            id: &id,
        };
        check_id(chart, &place, &mut ids, columns.problems);
        let x = columns.resolve(&place, "x", &chart.x);
        let ys: Vec<Option<usize>> = (chart.y.0.iter().enumerate())
            .map(|(k, name)| columns.resolve(&place, &y_key(chart, k), name))
            .collect();
        // No series is fine; a series that names no column is not.
        let series = match &chart.series {
            None => Some(None),
            Some(s) => columns.resolve(&place, "series", s).map(Some),
        };
        let filter = columns.filter(chart, &place);
        let ys = check_measures(front, chart, ys, &place, columns.problems);
        check_chart_shape(chart, &place, columns.problems);
        super::chart_series::check_highlight_shape(chart, &place, columns.problems);
        // Dots by category are drawn in rows from zero, as bars are.
        let on_categories = x.is_some_and(|x| {
            let t = front.columns[x].column_type;
            !(t.is_numeric() || t.is_time())
        });
        bounds::check_axis_keys(chart, on_categories, &place, columns.problems);
        if let (Some(x), Some(ys), Some(series)) = (x, ys, series) {
            compiled.push(chart_columns(front, chart, id, (x, ys, series), filter));
        }
    }
    if columns.problems.len() > before {
        return Vec::new();
    }
    compiled
}

/// The documented columns the charts name, by name, and where their problems go.
struct Columns<'a, 'p> {
    front: &'a DatasetFrontMatter,
    index: HashMap<&'a str, usize>,
    problems: &'p mut Vec<Diagnostic>,
    /// Each "names `c`, which is not a column" problem: its index in `problems`, the name.
    unknown: &'p mut Vec<(usize, String)>,
}

impl Columns<'_, '_> {
    /// The position of column `name`, which the chart's `key` names; else a problem there.
    fn resolve(&mut self, place: &ChartPlace, key: &str, name: &str) -> Option<usize> {
        if let Some(i) = self.index.get(name) {
            return Some(*i);
        }
        let message = format!("{key} names `{name}`, which is not a column");
        self.not_a_column(name, place.at_value(key, message));
        None
    }

    fn not_a_column(&mut self, name: &str, problem: Diagnostic) {
        let names = self.front.columns.iter().map(|c| c.name.as_str());
        let hint = match did_you_mean(name, names.clone()) {
            Some(near) => format!("did you mean `{near}`?"),
            None => format!("the columns are: {}", names.collect::<Vec<_>>().join(", ")),
        };
        self.unknown.push((self.problems.len(), name.to_string()));
        self.problems.push(problem.with_hint(hint));
    }

    /// The chart's `filter` as column positions and the values each keeps; a column that
    /// is not one, or a value its `enum` does not allow, is a problem.
    fn filter(&mut self, chart: &ChartSpec, place: &ChartPlace) -> Vec<(usize, Vec<String>)> {
        let mut filter = Vec::new();
        for (column, values) in &chart.filter {
            let filter_key = child_path("filter", column);
            let Some(&i) = self.index.get(column.as_str()) else {
                let message = format!("the filter names `{column}`, which is not a column");
                self.not_a_column(column, place.at_key(&filter_key, message));
                continue;
            };
            if let Some(allowed) = &self.front.columns[i].enum_values {
                for (k, value) in values.0.iter().enumerate() {
                    if !allowed.contains(value) {
                        let problem =
                            disallowed_value(place, (&filter_key, k), column, value, allowed);
                        self.problems.push(problem);
                    }
                }
            }
            filter.push((i, values.0.clone()));
        }
        filter
    }
}

/// A filter's value that the column's `enum` does not allow, at the value (the element
/// `k` when the filter lists several).
fn disallowed_value(
    place: &ChartPlace,
    (filter_key, k): (&str, usize),
    column: &str,
    value: &str,
    allowed: &[String],
) -> Diagnostic {
    let hint = match did_you_mean(value, allowed.iter().map(String::as_str)) {
        Some(near) => format!("did you mean {near:?}? allowed: {}", allowed.join(", ")),
        None => format!("allowed: {}", allowed.join(", ")),
    };
    // One string or a list of them: the element when it is a list.
    let element = format!("{filter_key}[{k}]");
    let key = match place.value(&element) {
        Some(_) => element,
        None => filter_key.to_string(),
    };
    let message =
        format!("the filter on `{column}` keeps {value:?}, which the column does not allow");
    place.at_value(&key, message).with_hint(hint)
}

/// The key of the chart's `k`th measure: `y`, or `y[k]` when it names several.
fn y_key(chart: &ChartSpec, k: usize) -> String {
    match chart.y.several() {
        true => format!("y[{k}]"),
        false => "y".to_string(),
    }
}

/// A chart's title is its heading and accessible name, its id an anchor and a file name:
/// both present, valid and (the id) not another chart's.
fn check_id(
    chart: &ChartSpec,
    place: &ChartPlace,
    ids: &mut HashSet<String>,
    problems: &mut Vec<Diagnostic>,
) {
    let id = place.id;
    let key = if chart.id.is_some() { "id" } else { "title" };
    if chart.title.trim().is_empty() {
        problems.push(
            place
                .at_key("title", "the title is empty".into())
                .with_hint(
                    "say what the chart shows: it is the chart's heading and its accessible name",
                ),
        );
    } else if !is_valid_slug(id) {
        problems.push(place.at_key(key, format!("`{id}` is not a valid chart id")).with_hint(
            format!(
                "set `id = \"{}\"`: lowercase letters, digits and hyphens; it names the anchor #chart-<id> and the file <slug>-<id>.svg",
                ascii_slug(id)
            ),
        ));
    }
    if !ids.insert(id.to_string()) {
        problems.push(
            place
                .at_key(key, "another chart has the same id".into())
                .with_hint("give each chart its own `id` (or title)"),
        );
    }
}

/// The chart's measures (`ys`, resolved or not): each numeric, at least one, and several
/// fit to share an axis. Their positions when all resolved.
fn check_measures(
    front: &DatasetFrontMatter,
    chart: &ChartSpec,
    ys: Vec<Option<usize>>,
    place: &ChartPlace,
    problems: &mut Vec<Diagnostic>,
) -> Option<Vec<usize>> {
    for (k, y) in ys.iter().enumerate() {
        if let Some(y) = y {
            check_y_is_numeric(front, *y, &y_key(chart, k), place, problems);
        }
    }
    if ys.is_empty() {
        problems.push(
            place
                .at_value("y", "y names no column".into())
                .with_hint("name the numeric column to draw, e.g. y = \"price\""),
        );
    }
    let ys: Option<Vec<usize>> = ys.into_iter().collect();
    if let Some(ys) = ys.as_deref().filter(|_| chart.y.several()) {
        super::chart_series::check_several_y(front, chart, ys, place, problems);
    }
    ys
}

/// What the scan collects for a chart whose columns all resolved.
fn chart_columns(
    front: &DatasetFrontMatter,
    chart: &ChartSpec,
    id: String,
    (x, ys, series): (usize, Vec<usize>, Option<usize>),
    filter: Vec<(usize, Vec<String>)>,
) -> ChartColumns {
    let columns_as_series = match chart.y.several() {
        true => ys.iter().copied().zip(chart.y.0.iter().cloned()).collect(),
        false => Vec::new(),
    };
    let line = chart.kind == ChartKind::Line;
    let reduce = match front.columns[x].column_type {
        _ if !line => None,
        t if t.is_time() => Some(XPosition::Date),
        t if t.is_numeric() => Some(XPosition::Number),
        _ => None,
    };
    ChartColumns {
        id,
        x,
        y: ys.first().copied().unwrap_or_default(),
        series,
        columns_as_series,
        filter,
        gaps: line && chart.connect_gaps != Some(true),
        reduce,
    }
}

/// `y` is what the chart measures: a number or integer column.
fn check_y_is_numeric(
    front: &DatasetFrontMatter,
    y: usize,
    key: &str,
    place: &ChartPlace,
    problems: &mut Vec<Diagnostic>,
) {
    let column = &front.columns[y];
    if column.column_type.is_numeric() {
        return;
    }
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
        place
            .at_value(
                key,
                format!(
                    "y is `{}`, a {} column; a chart measures a number or integer column",
                    column.name,
                    column.column_type.as_str()
                ),
            )
            .with_hint(hint),
    );
}

/// The rules that tie a chart's kind to its columns.
fn check_chart_shape(chart: &ChartSpec, place: &ChartPlace, problems: &mut Vec<Diagnostic>) {
    match (chart.kind, &chart.series) {
        (ChartKind::GroupedBar, None) if !chart.y.several() => problems.push(
            place.at_key(
                "kind",
                "a grouped-bar chart needs `series`, the column whose values make the bars of each group".into(),
            )
            .with_hint("add `series = \"<column>\"`, or use kind = \"bar\""),
        ),
        (ChartKind::Bar, Some(series)) => problems.push(
            place.at_key("series", "a bar chart has no series".into()).with_hint(format!(
                "use kind = \"grouped-bar\" to split the bars by `{series}`, or remove `series`"
            )),
        ),
        (_, Some(series)) if *series == chart.x => problems.push(
            place.at_key("series", format!("x and series are both `{series}`"))
                .with_hint("series splits the points by another column than x"),
        ),
        _ => {}
    }
    if matches!(chart.kind, ChartKind::Bar | ChartKind::GroupedBar) && chart.y_zero.is_some() {
        problems.push(
            place
                .at_key(
                    "y_zero",
                    "bars always start at zero: a bar's length is its value".into(),
                )
                .with_hint("remove `y_zero`, or draw the values as kind = \"dot\" or \"line\""),
        );
    }
}

/// A line joins one point per `x` in each series: rows that share an `x` within one
/// series (142 countries per continent and year) would be drawn as one zigzag. The error,
/// at the chart's `kind`, when the points the scan kept have such rows.
pub(super) fn not_one_series(
    locator: &Locator,
    n: usize,
    spec: &ChartSpec,
    points: &[crate::dataset::scan::ChartPoint],
) -> Option<Diagnostic> {
    if spec.kind != ChartKind::Line || spec.aggregate.is_some() {
        return None;
    }
    let mut seen = std::collections::HashSet::with_capacity(points.len());
    let mut shared = points
        .iter()
        .filter(|p| !seen.insert((p.x.as_str(), p.series.as_deref())));
    let first = shared.next()?;
    let more = shared.count();
    let within = match (&spec.series, &first.series) {
        (Some(column), Some(value)) => format!(" and `{column}` {value:?}"),
        _ => String::new(),
    };
    let place = ChartPlace {
        locator,
        path: format!("charts[{n}]"),
        id: &spec.id(),
    };
    let others = match more {
        0 => String::new(),
        1 => " (1 more row shares an x with another)".to_string(),
        _ => format!(" ({more} more rows share an x with another)"),
    };
    Some(
        place
            .at_key(
                "kind",
                format!(
                    "a line joins one point per `{}` in each series, but two rows have `{}` {:?}{within}{others}",
                    spec.x, spec.x, first.x
                ),
            )
            .with_hint(if spec.series.is_some() {
                "set `series` to the column that tells the lines apart, draw one value per x and series with `aggregate = \"mean\"` (or \"median\", \"sum\", \"count\"), filter the rows to one per x, or use kind = \"dot\""
            } else {
                "add `series = \"<column>\"` naming what tells the lines apart (a country, a company), draw one value per x with `aggregate = \"mean\"` (or \"median\", \"sum\", \"count\"), filter the rows to one per x, or use kind = \"dot\""
            }),
    )
}

/// The chart's axis keys against the lowest and highest value its rows hold.
pub(super) fn against_data(
    locator: &Locator,
    n: usize,
    spec: &ChartSpec,
    points: &ChartPoints,
    csv: &std::path::Path,
) -> Vec<Diagnostic> {
    let place = ChartPlace {
        locator,
        path: format!("charts[{n}]"),
        id: &spec.id(),
    };
    bounds::check_against_data(spec, &place, points, csv)
}

/// The error for a chart the scan found no point for, at its `[[charts]]` header.
pub(super) fn nothing_to_draw(locator: &Locator, n: usize, spec: &ChartSpec) -> Diagnostic {
    let filtered = if spec.filter.is_empty() {
        ""
    } else {
        "matches the filter and "
    };
    locator
        .error(
            format!(
                "chart `{}` has nothing to draw: no row {filtered}has a value in `{}`",
                spec.id(),
                spec.y.0.join("`, `")
            ),
            locator.value(&format!("charts[{n}]")),
        )
        .with_hint("check the filter values against the CSV cells (they must match exactly), or remove the chart")
}

/// A chart id made of ASCII letters, digits and hyphens, for hints.
fn ascii_slug(text: &str) -> String {
    let slug = markdown::ascii_slug(text);
    if slug.is_empty() {
        "chart".into()
    } else {
        slug
    }
}
