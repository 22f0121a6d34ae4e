//! The checks of a chart's value axis: `y_scale`, `y_min`, `y_max`, `y_zero` and
//! `connect_gaps` against the chart's kind and each other, and, once the scan has found the
//! lowest and highest value, against the data.

use std::path::Path;

use super::ChartPlace;
use crate::content::{ChartKind, ChartSpec, YScale};
use crate::dataset::scan::{line_at, ChartPoints};
use crate::diagnostics::Diagnostic;

/// The axis keys against the kind and each other. `on_categories`: `x` is neither a
/// number nor a date column.
pub(super) fn check_axis_keys(
    chart: &ChartSpec,
    on_categories: bool,
    place: &ChartPlace,
    problems: &mut Vec<Diagnostic>,
) {
    // Bars, and dots by category, are drawn in rows from zero: a linear axis, no bounds.
    let (rows, drawn, other) = match chart.kind {
        ChartKind::Bar | ChartKind::GroupedBar => (
            true,
            "bars are drawn",
            "draw the values as kind = \"dot\" or \"line\"",
        ),
        kind => (
            kind == ChartKind::Dot && on_categories,
            "dots by category are drawn in rows",
            "chart them against a number or date `x`",
        ),
    };
    let log = chart.y_scale == Some(YScale::Log);
    if rows && log {
        problems.push(
            place
                .at_value(
                    "y_scale",
                    format!("{drawn} on a linear scale from zero, where a length is its value"),
                )
                .with_hint(format!("remove `y_scale`, or {other}")),
        );
    }
    for (key, bound) in [("y_min", chart.y_min), ("y_max", chart.y_max)] {
        let Some(bound) = bound else { continue };
        if rows {
            problems.push(
                place
                    .at_key(
                        key,
                        format!("{drawn} from zero to their value; `{key}` is for lines and dots on a number or date axis"),
                    )
                    .with_hint(format!("remove `{key}`, or {other}")),
            );
        } else if !bound.is_finite() {
            problems.push(
                place
                    .at_value(key, format!("`{key}` must be a finite number"))
                    .with_hint(format!(
                        "write a number such as `{key} = 300`, or remove it"
                    )),
            );
        } else if log && bound <= 0.0 {
            problems.push(
                place
                    .at_value(
                        key,
                        format!(
                            "a log scale has no zero or negative values, but `{key}` is {bound}"
                        ),
                    )
                    .with_hint(format!(
                        "set `{key}` above zero, or use y_scale = \"linear\""
                    )),
            );
        }
    }
    if let (Some(min), Some(max), false) = (chart.y_min, chart.y_max, rows) {
        if min.is_finite() && max.is_finite() && max <= min {
            problems.push(
                place
                    .at_value(
                        "y_max",
                        format!("y_max ({max}) must be above y_min ({min})"),
                    )
                    .with_hint("swap the two bounds, or remove one to fit that end to the data"),
            );
        }
    }
    if chart.y_zero == Some(true) && !rows {
        if log {
            problems.push(
                place
                    .at_key("y_zero", "a log scale cannot reach zero".into())
                    .with_hint("remove `y_zero`, or use y_scale = \"linear\""),
            );
        } else if let Some(min) = chart.y_min.filter(|m| *m > 0.0) {
            problems.push(
                place
                    .at_key(
                        "y_zero",
                        format!("y_zero = true starts the axis at zero, but y_min is {min}"),
                    )
                    .with_hint("keep one of the two"),
            );
        }
    }
    if chart.connect_gaps.is_some() && chart.kind != ChartKind::Line {
        problems.push(
            place
                .at_key(
                    "connect_gaps",
                    format!("a {} chart has no line to join", chart.kind.as_str()),
                )
                .with_hint("remove `connect_gaps`; it is for kind = \"line\""),
        );
    }
}

/// The axis keys against the lowest and highest value the chart's rows hold: a log scale
/// needs every value above zero, and a bound must not cut off data.
pub(super) fn check_against_data(
    chart: &ChartSpec,
    place: &ChartPlace,
    points: &ChartPoints,
    csv: &Path,
) -> Vec<Diagnostic> {
    let line =
        |byte: u64| line_at(csv, byte).map_or_else(String::new, |l| format!("line {l} of the CSV"));
    let mut problems = Vec::new();
    let (Some(low), Some(high)) = (&points.lowest, &points.highest) else {
        return problems;
    };
    let y = chart.y.0.join("`, `");
    if chart.y_scale == Some(YScale::Log) && low.y <= 0.0 {
        problems.push(
            place
                .at_value(
                    "y_scale",
                    format!(
                        "a log scale needs every value above zero, but {} has {} in `{y}`",
                        line(low.byte), low.y_text
                    ),
                )
                .with_hint("use y_scale = \"linear\", or filter the chart to rows whose value is above zero"),
        );
    }
    if let Some(min) = chart.y_min.filter(|min| *min > low.y) {
        problems.push(
            place
                .at_value(
                    "y_min",
                    format!(
                        "y_min = {min} would cut off data: the lowest `{y}` is {} ({})",
                        low.y_text,
                        line(low.byte)
                    ),
                )
                .with_hint(format!(
                    "set y_min to {} or less, or remove it to fit the axis to the data",
                    low.y
                )),
        );
    }
    if let Some(max) = chart.y_max.filter(|max| *max < high.y) {
        problems.push(
            place
                .at_value(
                    "y_max",
                    format!(
                        "y_max = {max} would cut off data: the highest `{y}` is {} ({})",
                        high.y_text,
                        line(high.byte)
                    ),
                )
                .with_hint(format!(
                    "set y_max to {} or more, or remove it to fit the axis to the data",
                    high.y
                )),
        );
    }
    problems
}
