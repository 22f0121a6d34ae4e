//! The words of a chart: notes on what it leaves out, the text alternative for screen
//! readers, and tooltips.

use super::{ChartInput, XScale, DESCRIBED_POINTS};
use crate::content::ChartKind;
use crate::scan::ChartPoint;
use crate::schema::{format_cell, ColumnType};

/// What the chart leaves out, said in the chart itself.
pub(super) fn notes(chart: &ChartInput, unplaced: u64) -> Vec<String> {
    let mut notes: Vec<String> = chart.many.summary.iter().cloned().collect();
    let (x, y) = (("x", chart.x_title), ("y", chart.y_title));
    if let Some((how, rows_in)) = chart.many.aggregated {
        let by = match (chart.series_title, chart.many.y_columns.is_empty()) {
            (Some(series), _) => listed(chart, &[chart.x_title.to_string(), series.to_string()]),
            _ => chart.x_title.to_string(),
        };
        let how = chart.say(&format!("chart.{}", how.as_str()), None, &[]);
        let (rows, points) = (
            rows(chart, rows_in),
            grouped(chart, chart.points.len() as u64),
        );
        let args = [
            ("how", how.as_str()),
            ("by", &by),
            ("rows", &rows),
            ("points", &points),
        ];
        notes.push(chart.say("chart.aggregated", None, &args));
    }
    if !chart.many.highlight.is_empty() {
        let total = super::scale::series_names(chart.points).len();
        let others = total.saturating_sub(chart.many.highlight.len());
        if others > 0 {
            let names = listed(chart, chart.many.highlight);
            let others = chart.number(&others.to_string());
            let args = [("names", names.as_str()), ("others", &others)];
            notes.push(chart.say("chart.highlight", None, &args));
        }
    }
    let mut not_drawn = |id: &str, count: u64, arg: (&str, &str)| {
        if count > 0 {
            let rows = rows(chart, count);
            let points = grouped(chart, chart.points.len() as u64);
            let args = [("rows", rows.as_str()), ("points", &points), arg];
            notes.push(chart.say(id, None, &args));
        }
    };
    // Rows noted as gaps break the line (see `breaks`).
    let missing = match chart.gaps.is_empty() {
        true => "chart.missing",
        false => "chart.missing_breaks",
    };
    not_drawn(missing, chart.missing, y);
    not_drawn("chart.not_finite", chart.not_finite, y);
    let unplaced_id = match chart.x_scale {
        XScale::Date => "chart.not_date",
        _ => "chart.not_number",
    };
    not_drawn(unplaced_id, unplaced, x);
    not_drawn("chart.dropped", chart.dropped, x);
    notes
}

/// "1 row", "1,234 rows", in the page's words.
pub(super) fn rows(chart: &ChartInput, n: u64) -> String {
    chart.say("chart.rows", Some(n), &[])
}

/// A count grouped in the page's marks.
pub(super) fn grouped(chart: &ChartInput, n: u64) -> String {
    chart.number(&grouped_english(n))
}

/// A count grouped in English marks (`1,234`), as a point's own text is written.
pub(super) fn grouped_english(n: u64) -> String {
    let mut out = String::new();
    format_cell(ColumnType::Integer, &n.to_string(), &mut out);
    out
}

/// A text alternative listing what the chart shows, for screen readers and search.
pub(super) fn describe(chart: &ChartInput, series: &[&str], unplaced: u64) -> String {
    let kind = chart.say(
        match chart.kind {
            ChartKind::Bar => "chart.bar",
            ChartKind::GroupedBar => "chart.grouped_bar",
            ChartKind::Line => "chart.line",
            ChartKind::Dot => "chart.dot",
        },
        None,
        &[],
    );
    let (kind, x, y) = (
        ("kind", kind.as_str()),
        ("x", chart.x_title),
        ("y", chart.y_title),
    );
    let mut text = if chart.many.y_columns.is_empty() {
        chart.say("chart.of_by", None, &[kind, x, y])
    } else {
        let columns = listed(chart, chart.many.y_columns);
        chart.say(
            "chart.of_by_columns",
            None,
            &[kind, x, y, ("columns", &columns)],
        )
    };
    if let (Some(title), true) = (
        chart.series_title,
        series.len() > 1 || chart.series_title.is_some(),
    ) {
        text = chart.say(
            "chart.and_series",
            None,
            &[("text", &text), ("series", title)],
        );
    }
    text.push_str(". ");
    let listed: Vec<String> = chart
        .points
        .iter()
        .take(DESCRIBED_POINTS)
        .map(|p| tooltip(chart, p))
        .collect();
    text.push_str(&listed.join(&chart.say("chart.separator", None, &[])));
    text.push('.');
    if chart.points.len() > DESCRIBED_POINTS {
        let more = (chart.points.len() - DESCRIBED_POINTS) as u64;
        text.push(' ');
        text.push_str(&chart.say("chart.more_points", Some(more), &[]));
    }
    text.push(' ');
    text.push_str(&baseline(chart));
    if let Some(reduced) = chart.reduced {
        let (points, rows) = (
            grouped(chart, chart.points.len() as u64),
            grouped(chart, reduced.rows),
        );
        let columns = grouped(chart, reduced.columns);
        let args = [
            ("points", points.as_str()),
            ("rows", &rows),
            ("columns", &columns),
        ];
        text.push(' ');
        text.push_str(&chart.say("chart.reduced", None, &args));
    }
    if chart.kind == ChartKind::Line && !super::line_is_marked(chart) {
        text.push(' ');
        text.push_str(&chart.say("chart.unmarked", None, &[]));
    }
    for note in notes(chart, unplaced) {
        text.push(' ');
        text.push_str(&note);
    }
    text
}

/// "a", "a and b", "a, b and c".
fn listed(chart: &ChartInput, names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => {
            let init = init.join(", ");
            chart.say("chart.list", None, &[("init", &init), ("last", last)])
        }
    }
}

/// Which baseline and scale the value axis uses, in a sentence.
fn baseline(chart: &ChartInput) -> String {
    if super::is_category_rows(chart) {
        return chart.say("chart.zero", None, &[]);
    }
    let axis = super::scale::value_axis(chart);
    let (lo, hi) = (axis.lo(), axis.hi());
    let (from, to) = (axis.label(lo), axis.label(hi));
    let id = if axis.log {
        "chart.log"
    } else if lo == 0.0 || hi == 0.0 {
        "chart.zero"
    } else if lo > 0.0 || hi < 0.0 {
        "chart.fitted"
    } else {
        "chart.across"
    };
    chart.say(id, None, &[("from", &from), ("to", &to)])
}

/// "32K, NVMe: 5,269" or "32K: 5,269".
pub(super) fn tooltip(chart: &ChartInput, point: &ChartPoint) -> String {
    let x = chart.x_text(&point.x);
    let (x, y) = (("x", x.as_str()), ("y", point.y_text.as_str()));
    match &point.series {
        Some(series) => chart.say("chart.point_series", None, &[x, ("series", series), y]),
        None => chart.say("chart.point", None, &[x, y]),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{input, point};
    use super::*;

    #[test]
    fn a_chart_is_described_and_labelled_in_the_page_language_and_marks() {
        let fr = super::super::test_words::Catalogue::built_in("fr");
        let points = [point("32K", None, 2693.5), point("64K", None, -10366.0)];
        let chart = ChartInput {
            series_title: None,
            words: &fr,
            ..input(ChartKind::Bar, XScale::Category, &points)
        };
        let svg = super::super::render(&chart, super::super::Placement::Inline);
        assert!(svg.contains("Diagramme en barres de Cluster throughput (MB/s) par Block size. 32K\u{a0}: 2\u{202f}693,5\u{a0}; 64K\u{a0}: -10\u{202f}366. L&#39;axe des valeurs part de zéro."), "{svg}");
        assert!(svg.contains(">2\u{202f}693,5</text>"), "{svg}");
        assert!(svg.contains(">-12\u{202f}000</text>"), "{svg}");
        assert!(!svg.contains("2,693"), "{svg}");
        assert_eq!(rows(&chart, 1234), "1\u{202f}234 lignes");
    }
}
