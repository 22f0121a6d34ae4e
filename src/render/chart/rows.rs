//! Charts of one row per category (bars, grouped bars, dots on a category axis): the
//! value axis runs across. Each point gets a row of its own, so no mark hides another;
//! its value is printed beside it; gridlines are broken wherever they would cross text.

use std::fmt::Write as _;

use super::describe::tooltip;
use super::place::{Area, Taken};
use super::scale::{categories, nice_ticks, series_index, tick_text, value_range};
use super::svg::{num, pct, text_width, text_width_at, wrap, Body};
use super::{ChartInput, NARROWEST};
use crate::content::ChartKind;
use crate::dataset::scan::ChartPoint;
use crate::text::escape_html_into;

/// The most intervals the value axis is divided into.
const MAX_INTERVALS: usize = 8;

/// The value axis across: ticks, where the plot starts (pixels) and its share of the width.
struct Axis {
    ticks: Vec<f64>,
    step: f64,
    /// The plot's left edge in pixels (series names and negative value labels lie left).
    start: f64,
    /// The plot's width as a share of the chart's.
    span: f64,
    /// A value under every this many ticks (1: under each).
    every: usize,
    /// The value column's `digits`: tick values at least at that many decimals.
    digits: Option<u32>,
}

impl Axis {
    /// Where `value` lies, as a share of the chart's width from the plot's left edge.
    fn at(&self, value: f64) -> f64 {
        let (lo, hi) = (self.ticks[0], self.ticks[self.ticks.len() - 1]);
        (value - lo) / (hi - lo) * self.span
    }
}

/// Bars, grouped bars, or dots on one row per category: the value axis runs across.
pub(super) fn rows_layout(chart: &ChartInput, series: &[&str], body: &mut Body, top: f64) -> f64 {
    let groups = categories(chart.points);
    let multi = series.len() > 1 || chart.kind == ChartKind::GroupedBar;
    let dots = chart.kind == ChartKind::Dot;
    let mut y = top;
    let heading = match (multi, chart.series_title) {
        (true, Some(s)) => format!("{} · {s}", chart.x_title),
        _ => chart.x_title.to_string(),
    };
    body.text("0", y + 12.0, "a", "start", &heading);
    y += 20.0;

    // Series names sit left of their rows when they are short enough, else above them.
    let longest_series = series.iter().map(|s| text_width(s)).fold(0.0, f64::max);
    let left = if multi && longest_series + 12.0 <= NARROWEST * 0.4 {
        (longest_series + 12.0).ceil()
    } else {
        0.0
    };
    let gap = if dots { 10.0 } else { 8.0 };
    let axis = value_axis(chart.points, left, gap, chart.y_digits);
    let zero = axis.at(0.0);

    // Text first (names and values), then gridline pieces that keep clear of it.
    let mut taken = Taken::default();
    let mut bands: Vec<(f64, f64)> = Vec::new();
    let mut names = Body::default();
    let mut marks = Body::default();
    for (category, members) in &groups {
        let class = if multi { "a" } else { "v" };
        for line in wrap(category, class, NARROWEST) {
            names.text("0", y + 13.0, class, "start", &line);
            taken
                .0
                .push(Area::text(0.0, 0.0, 0.0, y + 13.0, &line, class, "start"));
            bands.push((y, y + 16.0));
            y += 16.0;
        }
        bands.push((y, y + 2.0));
        y += 2.0;
        let mut ordered: Vec<&&ChartPoint> = members.iter().collect();
        ordered.sort_by_key(|p| series_index(series, p));
        for point in ordered {
            let index = series_index(series, point);
            if multi {
                let name = point.series.as_deref().unwrap_or_default();
                if left > 0.0 {
                    names.text("0", y + 12.5, "v", "start", name);
                    taken
                        .0
                        .push(Area::text(0.0, 0.0, 0.0, y + 12.5, name, "v", "start"));
                } else {
                    for line in wrap(name, "v", NARROWEST) {
                        names.text("0", y + 12.0, "v", "start", &line);
                        taken
                            .0
                            .push(Area::text(0.0, 0.0, 0.0, y + 12.0, &line, "v", "start"));
                        bands.push((y, y + 16.0));
                        y += 16.0;
                    }
                }
            }
            let at = axis.at(point.y);
            if dots {
                marks.line(
                    &pct(zero * 100.0),
                    y + 8.0,
                    &pct(at * 100.0),
                    y + 8.0,
                    "g gd",
                    "",
                );
                marks.marker(
                    &pct(at * 100.0),
                    y + 8.0,
                    index,
                    Some(&tooltip(chart, point)),
                );
            } else {
                let (start, end) = if point.y < 0.0 {
                    (at, zero)
                } else {
                    (zero, at)
                };
                let _ = write!(
                    marks.out,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"16\" class=\"s{}\"><title>",
                    pct(start * 100.0),
                    num(y),
                    pct(((end - start) * 100.0).max(0.0)),
                    index % 6
                );
                escape_html_into(&tooltip(chart, point), &mut marks.out);
                marks.out.push_str("</title></rect>\n");
            }
            let label = value_label(&mut marks, point.y < 0.0, at, gap, y + 12.5, &point.y_text);
            taken.0.push(Area {
                off: axis.start,
                ..label
            });
            bands.push((y, y + 22.0));
            y += 22.0;
        }
        let after = if multi { 8.0 } else { 4.0 };
        bands.push((y, y + after));
        y += after;
    }
    let grid_bottom = y - 4.0;
    if let Some(last) = bands.last_mut() {
        last.1 = grid_bottom;
    }

    // Each tick: its gridline in pieces that cross no text, and its value under the rows.
    let mut grid = Body::default();
    for (index, tick) in axis.ticks.iter().enumerate() {
        grid.out.push_str("<g class=\"t\">\n");
        let at = pct(axis.at(*tick) * 100.0);
        let class = if *tick == 0.0 { "z" } else { "g" };
        let mut open: Option<(f64, f64)> = None;
        for band in &bands {
            let piece = Area::vertical(axis.start, axis.at(*tick), band.0, band.1);
            if taken.0.iter().any(|text| piece.meets(text, 1.0)) {
                if let Some((from, to)) = open.take() {
                    grid.line(&at, from, &at, to, class, "");
                }
            } else {
                open = Some((open.map_or(band.0, |o| o.0), band.1));
            }
        }
        if let Some((from, to)) = open {
            grid.line(&at, from, &at, to, class, "");
        }
        if index % axis.every == 0 {
            let label = tick_text(*tick, axis.step, axis.digits);
            let anchor = tick_anchor(&axis, index, &label);
            grid.text(&at, grid_bottom + 16.0, "k", anchor, &label);
        }
        grid.out.push_str("</g>\n");
    }
    let _ = writeln!(
        body.out,
        "<g transform=\"translate({} 0)\">",
        num(axis.start)
    );
    body.out.push_str(&grid.out);
    body.out.push_str(&marks.out);
    body.out.push_str("</g>\n");
    body.out.push_str(&names.out);
    y = grid_bottom + 16.0;
    body.text("0", y + 20.0, "a", "start", chart.y_title);
    y + 20.0
}

/// The value axis: round ticks, room for the value labels on both sides, and every
/// how many ticks a value is printed so that they keep apart at the narrowest width.
fn value_axis(points: &[ChartPoint], left: f64, gap: f64, digits: Option<u32>) -> Axis {
    let (lo, hi) = value_range(points);
    let room = |negative: bool| {
        points
            .iter()
            .filter(|p| (p.y < 0.0) == negative)
            .map(|p| text_width(&p.y_text) + gap + 2.0)
            .fold(0.0, f64::max)
    };
    let (left_room, right_room) = (room(true), room(false));
    let (ticks, step) = nice_ticks(lo.min(0.0), hi.max(0.0), MAX_INTERVALS);
    let widest = ticks
        .iter()
        .map(|t| text_width_at(&tick_text(*t, step, digits), 12.0, false))
        .fold(0.0, f64::max);
    let start = left + left_room;
    let right = right_room.max(widest / 2.0 + 2.0);
    let span = ((NARROWEST - start - right) / NARROWEST).clamp(0.3, 0.95);
    let mut axis = Axis {
        ticks,
        step,
        start,
        span,
        every: 1,
        digits,
    };
    while axis.every < axis.ticks.len() {
        let labels: Vec<Area> = axis
            .ticks
            .iter()
            .enumerate()
            .filter(|(i, _)| i % axis.every == 0)
            .map(|(i, t)| {
                let label = tick_text(*t, step, digits);
                let anchor = tick_anchor(&axis, i, &label);
                Area::text(start, axis.at(*t), 0.0, 0.0, &label, "k", anchor)
            })
            .collect();
        // Prefer a spacing that labels the last tick too.
        let last_labelled = (axis.ticks.len() - 1).is_multiple_of(axis.every);
        if labels.windows(2).all(|pair| !pair[0].meets(&pair[1], 6.0))
            && (last_labelled || axis.every + 1 >= axis.ticks.len())
        {
            break;
        }
        axis.every += 1;
    }
    axis
}

/// The first tick's value starts at the plot's edge when centring it would cross the
/// chart's left edge; the others are centred on their tick.
fn tick_anchor(axis: &Axis, index: usize, label: &str) -> &'static str {
    if index == 0 && axis.start < text_width(label) / 2.0 + 1.0 {
        "start"
    } else {
        "middle"
    }
}

/// The value printed at the end of a bar or beside a dot, on the side away from zero;
/// returns its box (relative to the plot's left edge).
fn value_label(body: &mut Body, negative: bool, at: f64, gap: f64, y: f64, text: &str) -> Area {
    let (dx, anchor) = if negative {
        (-gap, "end")
    } else {
        (gap, "start")
    };
    let _ = write!(
        body.out,
        "<text x=\"{}\" dx=\"{}\" y=\"{}\" class=\"v\"",
        pct(at * 100.0),
        num(dx),
        num(y)
    );
    if negative {
        body.out.push_str(" text-anchor=\"end\"");
    }
    body.out.push('>');
    escape_html_into(text, &mut body.out);
    body.out.push_str("</text>\n");
    Area::text(0.0, at, dx, y, text, "v", anchor)
}
