//! The words of a chart: notes on what it leaves out, the text alternative for screen
//! readers, and tooltips.

use std::fmt::Write as _;

use super::{ChartInput, XScale, DESCRIBED_POINTS, MARKED_LINE_POINTS};
use crate::content::ChartKind;
use crate::dataset::scan::ChartPoint;
use crate::dataset::schema::{format_cell, ColumnType};

/// What the chart leaves out, said in the chart itself.
pub(super) fn notes(chart: &ChartInput, unplaced: u64) -> Vec<String> {
    let mut notes = Vec::new();
    if chart.missing > 0 {
        notes.push(format!(
            "Not drawn: {} with no value in {}.",
            rows(chart.missing),
            chart.y_title
        ));
    }
    if chart.not_finite > 0 {
        notes.push(format!(
            "Not drawn: {} whose {} is NaN or INF.",
            rows(chart.not_finite),
            chart.y_title
        ));
    }
    if unplaced > 0 {
        let kind = if chart.x_scale == XScale::Date {
            "an ISO date"
        } else {
            "a number"
        };
        notes.push(format!(
            "Not drawn: {} whose {} is not {kind}.",
            rows(unplaced),
            chart.x_title
        ));
    }
    if chart.dropped > 0 {
        notes.push(format!(
            "Not drawn: {} past the first {}; the table and the CSV have them.",
            rows(chart.dropped),
            grouped(chart.points.len() as u64)
        ));
    }
    notes
}

pub(super) fn rows(n: u64) -> String {
    if n == 1 {
        "1 row".into()
    } else {
        format!("{} rows", grouped(n))
    }
}

pub(super) fn grouped(n: u64) -> String {
    let mut out = String::new();
    format_cell(ColumnType::Integer, &n.to_string(), &mut out);
    out
}

/// A text alternative listing what the chart shows, for screen readers and search.
pub(super) fn describe(chart: &ChartInput, series: &[&str], unplaced: u64) -> String {
    let kind = match chart.kind {
        ChartKind::Bar => "Bar chart",
        ChartKind::GroupedBar => "Grouped bar chart",
        ChartKind::Line => "Line chart",
        ChartKind::Dot => "Dot chart",
    };
    let mut text = format!("{kind} of {} by {}", chart.y_title, chart.x_title);
    if let (Some(title), true) = (
        chart.series_title,
        series.len() > 1 || chart.series_title.is_some(),
    ) {
        let _ = write!(text, " and {title}");
    }
    text.push_str(". ");
    let listed: Vec<String> = chart
        .points
        .iter()
        .take(DESCRIBED_POINTS)
        .map(tooltip)
        .collect();
    text.push_str(&listed.join("; "));
    text.push('.');
    if chart.points.len() > DESCRIBED_POINTS {
        let _ = write!(
            text,
            " {} more points are in the table.",
            grouped((chart.points.len() - DESCRIBED_POINTS) as u64)
        );
    }
    if !super::is_category_rows(chart) {
        let (ticks, step) = super::scale::value_axis(chart);
        let (first, last) = (ticks[0], ticks[ticks.len() - 1]);
        if first > 0.0 || last < 0.0 {
            let _ = write!(
                text,
                " The value axis does not start at zero: it runs from {} to {}.",
                super::scale::tick_text(first, step),
                super::scale::tick_text(last, step)
            );
        }
    }
    if chart.kind == ChartKind::Line && chart.points.len() > MARKED_LINE_POINTS {
        text.push_str(" Drawn as lines without point markers.");
    }
    for note in notes(chart, unplaced) {
        text.push(' ');
        text.push_str(&note);
    }
    text
}

/// "32K, NVMe: 5,269" or "32K: 5,269".
pub(super) fn tooltip(point: &ChartPoint) -> String {
    match &point.series {
        Some(series) => format!("{}, {series}: {}", point.x, point.y_text),
        None => format!("{}: {}", point.x, point.y_text),
    }
}
