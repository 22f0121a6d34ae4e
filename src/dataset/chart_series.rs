//! The checks of a chart's series: several `y` columns (one unit, no `series` beside
//! them), `highlight` (its shape before the scan, its values against the series the scan
//! found) and the number of lines a reader can tell apart.

use super::chart_place::ChartPlace;
use crate::content::chart_keys::READABLE_SERIES;
use crate::content::spans::Locator;
use crate::content::{ChartKind, ChartSpec, DatasetFrontMatter};
use crate::dataset::scan::ChartPoint;
use crate::diagnostics::{did_you_mean, Diagnostic};

/// A chart of several `y` columns (`ys`, their positions): no `series` beside them, not a
/// plain bar chart, each column once, all of one unit.
pub(super) fn check_several_y(
    front: &DatasetFrontMatter,
    chart: &ChartSpec,
    ys: &[usize],
    place: &ChartPlace,
    problems: &mut Vec<Diagnostic>,
) {
    if chart.series.is_some() {
        problems.push(
            place
                .at_key(
                    "series",
                    "a chart of several y columns draws one series per column; it cannot also split them by `series`".into(),
                )
                .with_hint("remove `series`, or draw one y column split by `series`"),
        );
    }
    if chart.kind == ChartKind::Bar {
        problems.push(
            place
                .at_key("kind", "a bar chart draws one y column".into())
                .with_hint(
                    "use kind = \"grouped-bar\" for a bar per column, or \"line\" or \"dot\"",
                ),
        );
    }
    let first = &front.columns[ys[0]];
    let unit_of = |unit: &Option<String>| match unit {
        Some(unit) => format!("unit {unit:?}"),
        None => "no unit".to_string(),
    };
    for (k, y) in ys.iter().enumerate().skip(1) {
        let column = &front.columns[*y];
        if ys[..k].contains(y) {
            problems.push(
                place
                    .at_value(
                        &format!("y[{k}]"),
                        format!("y names `{}` twice", column.name),
                    )
                    .with_hint("name each column once"),
            );
        } else if column.unit != first.unit {
            problems.push(
                place
                    .at_value(
                        &format!("y[{k}]"),
                        format!(
                            "y draws `{}` ({}) and `{}` ({}) on one axis; the columns of one chart must share a unit",
                            first.name,
                            unit_of(&first.unit),
                            column.name,
                            unit_of(&column.unit)
                        ),
                    )
                    .with_hint(format!(
                        "draw `{}` in a chart of its own, or give both columns the same `unit` in [[columns]] if they measure the same thing",
                        column.name
                    )),
            );
        }
    }
}

/// `highlight` picks lines: only on a line chart that has series, at most
/// [`READABLE_SERIES`] of them.
pub(super) fn check_highlight_shape(
    chart: &ChartSpec,
    place: &ChartPlace,
    problems: &mut Vec<Diagnostic>,
) {
    if chart.highlight.is_empty() {
        return;
    }
    let problem = if chart.kind != ChartKind::Line {
        Some((
            format!(
                "highlight picks lines, and this is a {} chart",
                chart.kind.as_str()
            ),
            "remove `highlight`, or use kind = \"line\"".to_string(),
        ))
    } else if chart.series.is_none() && !chart.y.several() {
        Some((
            "highlight picks series, and this chart has one line".to_string(),
            "add `series = \"<column>\"` (a country, a company), or remove `highlight`".to_string(),
        ))
    } else if chart.highlight.len() > READABLE_SERIES {
        Some((
            format!(
                "highlight picks {} series; at most {READABLE_SERIES} can be told apart",
                chart.highlight.len()
            ),
            "keep the series the text is about; the others stay as grey context lines".to_string(),
        ))
    } else {
        None
    };
    if let Some((message, hint)) = problem {
        problems.push(place.at_key("highlight", message).with_hint(hint));
    }
}

/// After the scan: a line of more than [`READABLE_SERIES`] series needs `highlight`, and
/// each highlighted value must be one of the series drawn.
pub(super) fn check_series(
    locator: &Locator,
    n: usize,
    spec: &ChartSpec,
    points: &[ChartPoint],
) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    if spec.kind != ChartKind::Line {
        return problems;
    }
    let mut names: Vec<&str> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for point in points {
        if let Some(name) = point.series.as_deref() {
            if seen.insert(name) {
                names.push(name);
            }
        }
    }
    let id = spec.id();
    let place = ChartPlace {
        locator,
        path: format!("charts[{n}]"),
        id: &id,
    };
    if spec.highlight.is_empty() && names.len() > READABLE_SERIES {
        let key = if spec.y.several() { "y" } else { "series" };
        let examples: Vec<String> = names.iter().take(2).map(|s| format!("{s:?}")).collect();
        problems.push(
            place
                .at_key(
                    key,
                    format!(
                        "{} lines are more than a reader can tell apart (at most {READABLE_SERIES})",
                        names.len()
                    ),
                )
                .with_hint(format!(
                    "add `highlight = [{}]` naming the series to draw in colour (the others become grey context lines), or filter the rows",
                    examples.join(", ")
                )),
        );
    }
    for (k, value) in spec.highlight.iter().enumerate() {
        if seen.contains(value.as_str()) {
            continue;
        }
        let column = match &spec.series {
            Some(series) => format!("`{series}`"),
            None => "the y columns".to_string(),
        };
        let hint = match did_you_mean(value, names.iter().copied()) {
            Some(near) => format!("did you mean {near:?}?"),
            None if names.len() <= 12 => format!("the series are: {}", names.join(", ")),
            None => format!(
                "the series include: {}, … ({} in all)",
                names[..12].join(", "),
                names.len()
            ),
        };
        problems.push(
            place
                .at_value(
                    &format!("highlight[{k}]"),
                    format!("highlight names {value:?}, which is not a series of {column}"),
                )
                .with_hint(hint),
        );
    }
    problems
}
