//! The words of a chart: notes on what it leaves out, the text alternative for screen
//! readers, and tooltips.

use std::fmt::Write as _;

use super::{ChartInput, XScale, DESCRIBED_POINTS};
use crate::content::ChartKind;
use crate::dataset::scan::ChartPoint;
use crate::dataset::schema::{format_cell, ColumnType};

/// What the chart leaves out, said in the chart itself.
pub(super) fn notes(chart: &ChartInput, unplaced: u64) -> Vec<String> {
    let mut notes: Vec<String> = chart.many.summary.iter().cloned().collect();
    if let Some((how, rows_in)) = chart.many.aggregated {
        let by = match (chart.series_title, chart.many.y_columns.is_empty()) {
            (Some(series), _) => format!("{} and {series}", chart.x_title),
            _ => chart.x_title.to_string(),
        };
        notes.push(format!(
            "Each point is the {} of the rows sharing its {by}: {} drawn as {} points.",
            how.as_str(),
            rows(rows_in),
            grouped(chart.points.len() as u64)
        ));
    }
    if !chart.many.highlight.is_empty() {
        let total = super::scale::series_names(chart.points).len();
        let others = total.saturating_sub(chart.many.highlight.len());
        if others > 0 {
            notes.push(format!(
                "In colour: {}; the other {others} series in grey.",
                listed(chart.many.highlight)
            ));
        }
    }
    if chart.missing > 0 {
        // Rows noted as gaps break the line (see `breaks`).
        let breaks = if chart.gaps.is_empty() {
            ""
        } else {
            "; the line breaks there"
        };
        notes.push(format!(
            "Not drawn: {} with no value in {}{breaks}.",
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
    let mut text = if chart.many.y_columns.is_empty() {
        format!("{kind} of {} by {}", chart.y_title, chart.x_title)
    } else {
        format!(
            "{kind} of {} ({}) by {}, one series per column",
            listed(chart.many.y_columns),
            chart.y_title,
            chart.x_title
        )
    };
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
        .map(|p| tooltip(chart, p))
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
    text.push(' ');
    text.push_str(&baseline(chart));
    if let Some(reduced) = chart.reduced {
        let _ = write!(
            text,
            " Reduced for drawing: {} points of {} are drawn, the first, last, lowest and highest of each series in each of {} columns across the plot (M4), so every peak and trough is kept; the table and the CSV have every row.",
            grouped(chart.points.len() as u64),
            grouped(reduced.rows),
            grouped(reduced.columns)
        );
    }
    if chart.kind == ChartKind::Line && !super::line_is_marked(chart) {
        text.push_str(" Drawn as lines without point markers.");
    }
    for note in notes(chart, unplaced) {
        text.push(' ');
        text.push_str(&note);
    }
    text
}

/// "a", "a and b", "a, b and c".
fn listed(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Which baseline and scale the value axis uses, in a sentence.
fn baseline(chart: &ChartInput) -> String {
    if super::is_category_rows(chart) {
        return "The value axis starts at zero.".into();
    }
    let axis = super::scale::value_axis(chart);
    let (lo, hi) = (axis.lo(), axis.hi());
    let (from, to) = (axis.label(lo), axis.label(hi));
    if axis.log {
        format!("The value axis is logarithmic, from {from} to {to}.")
    } else if lo == 0.0 || hi == 0.0 {
        "The value axis starts at zero.".into()
    } else if lo > 0.0 || hi < 0.0 {
        format!(
            "The value axis does not start at zero: it is fitted to the data, from {from} to {to}."
        )
    } else {
        format!("The value axis runs from {from} to {to}, across zero.")
    }
}

/// "32K, NVMe: 5,269" or "32K: 5,269".
pub(super) fn tooltip(chart: &ChartInput, point: &ChartPoint) -> String {
    let x = chart.x_text(&point.x);
    match &point.series {
        Some(series) => format!("{x}, {series}: {}", point.y_text),
        None => format!("{x}: {}", point.y_text),
    }
}
