//! Charts of one row per category (bars, grouped bars, dots on a category axis): the
//! value axis runs across.

use std::fmt::Write as _;

use super::describe::tooltip;
use super::scale::{categories, nice_ticks, series_index, tick_text, value_range};
use super::svg::{num, pct, text_width, Body};
use super::{ChartInput, NARROWEST};
use crate::content::ChartKind;
use crate::dataset::scan::ChartPoint;
use crate::text::escape_html_into;

/// Bars, grouped bars, or dots on one row per category: the value axis runs across.
pub(super) fn rows_layout(chart: &ChartInput, series: &[&str], body: &mut Body, top: f64) -> f64 {
    let groups = categories(chart.points);
    let multi = series.len() > 1 || chart.kind == ChartKind::GroupedBar;
    let mut y = top;
    let heading = match (chart.kind, chart.series_title) {
        (ChartKind::GroupedBar, Some(s)) => format!("{} · {s}", chart.x_title),
        _ => chart.x_title.to_string(),
    };
    body.text("0", y + 12.0, "a", "start", &heading);
    y += 20.0;
    if chart.kind == ChartKind::Dot && series.len() > 1 {
        y = body.legend(series, y + 12.0) + 10.0;
    }

    // Series names sit left of grouped bars when they are short enough.
    let longest_series = series.iter().map(|s| text_width(s)).fold(0.0, f64::max);
    let left = if chart.kind == ChartKind::GroupedBar && longest_series + 10.0 <= NARROWEST * 0.4 {
        (longest_series + 10.0).ceil()
    } else {
        0.0
    };
    let labels_value = chart.kind != ChartKind::Dot || series.len() <= 1;
    let (lo, hi) = value_range(chart.points);
    let (ticks, step) = nice_ticks(lo.min(0.0), hi.max(0.0), 4);
    let (dlo, dhi) = (ticks[0], ticks[ticks.len() - 1]);
    let room = if labels_value {
        chart
            .points
            .iter()
            .map(|p| text_width(&p.y_text))
            .fold(0.0, f64::max)
            + 8.0
    } else {
        text_width(&tick_text(dhi, step)) / 2.0
    };
    let span = ((NARROWEST - left - room) / NARROWEST).clamp(0.3, 0.95) * 100.0;
    let at = |v: f64| (v - dlo) / (dhi - dlo) * span;
    let pos = |v: f64| pct(at(v));

    // Names are drawn from the chart's left edge; marks, gridlines and ticks are shifted
    // right of the series names.
    let grid_top = y;
    let mut names = Body::default();
    let mut marks = Body::default();
    for (category, members) in &groups {
        names.text(
            "0",
            y + 13.0,
            if multi { "a" } else { "v" },
            "start",
            category,
        );
        y += 18.0;
        match chart.kind {
            ChartKind::Dot => {
                // Series sit a few pixels apart so equal values do not hide each other.
                let rows = series.len().min(4) as f64;
                y += (rows - 1.0) * 2.5;
                let dodge = |index: usize| ((index % 4) as f64 - (rows - 1.0) / 2.0) * 5.0;
                marks.line(&pos(dlo), y + 8.0, &pos(dhi), y + 8.0, "g", "2 3");
                for point in members {
                    let index = series_index(series, point);
                    let cy = y + 8.0 + dodge(index);
                    marks.marker(&pos(point.y), cy, index, Some(&tooltip(point)));
                }
                if labels_value {
                    for point in members {
                        value_label(&mut marks, at(point.y), at(0.0), y + 12.5, &point.y_text);
                    }
                }
                y += 22.0 + (rows - 1.0) * 2.5;
            }
            _ => {
                let mut ordered: Vec<&&ChartPoint> = members.iter().collect();
                ordered.sort_by_key(|p| series_index(series, p));
                for point in ordered {
                    let index = series_index(series, point);
                    if chart.kind == ChartKind::GroupedBar {
                        let name = point.series.as_deref().unwrap_or_default();
                        if left > 0.0 {
                            names.text("0", y + 12.5, "v", "start", name);
                        } else {
                            names.text("0", y + 12.0, "v", "start", name);
                            y += 16.0;
                        }
                    }
                    let (start, end) = if point.y < 0.0 {
                        (at(point.y), at(0.0))
                    } else {
                        (at(0.0), at(point.y))
                    };
                    let _ = write!(
                        marks.out,
                        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"16\" class=\"s{}\"><title>",
                        pct(start),
                        num(y),
                        pct((end - start).max(0.0)),
                        index % 6
                    );
                    escape_html_into(&tooltip(point), &mut marks.out);
                    marks.out.push_str("</title></rect>\n");
                    value_label(&mut marks, at(point.y), at(0.0), y + 12.5, &point.y_text);
                    y += 22.0;
                }
            }
        }
        y += if multi { 8.0 } else { 4.0 };
    }
    let grid_bottom = y - 4.0;

    // Gridlines first so bars and dots sit on top of them; the value axis under the rows.
    let mut grid = Body::default();
    for (index, tick) in ticks.iter().enumerate() {
        let class = if *tick == 0.0 { "z" } else { "g" };
        grid.line(&pos(*tick), grid_top, &pos(*tick), grid_bottom, class, "");
        let label = tick_text(*tick, step);
        let anchor = if index == 0 && left < text_width(&label) / 2.0 {
            "start"
        } else {
            "middle"
        };
        marks.text(&pos(*tick), grid_bottom + 16.0, "k", anchor, &label);
    }
    let translate = if left > 0.0 {
        format!("<g transform=\"translate({} 0)\">\n", num(left))
    } else {
        "<g>\n".to_string()
    };
    body.out.push_str(&translate);
    body.out.push_str(&grid.out);
    body.out.push_str(&marks.out);
    body.out.push_str("</g>\n");
    body.out.push_str(&names.out);
    y = grid_bottom + 16.0;
    body.text("0", y + 20.0, "a", "start", chart.y_title);
    y + 20.0
}

/// The value printed at the end of a bar or beside a dot, on the side away from zero.
pub(super) fn value_label(body: &mut Body, at: f64, zero: f64, y: f64, text: &str) {
    if at < zero {
        let _ = write!(
            body.out,
            "<text x=\"{}\" dx=\"-6\" y=\"{}\" class=\"v\" text-anchor=\"end\">",
            pct(at),
            num(y)
        );
    } else {
        let _ = write!(
            body.out,
            "<text x=\"{}\" dx=\"8\" y=\"{}\" class=\"v\">",
            pct(at),
            num(y)
        );
    }
    escape_html_into(text, &mut body.out);
    body.out.push_str("</text>\n");
}
