//! Charts of one row per category (bars, grouped bars, dots on a category axis): the
//! value axis runs across. Each point gets a row of its own, so no mark hides another;
//! its value is printed beside it; gridlines are broken wherever they would cross text.

use crate::locale::NumberMarks;
use std::fmt::Write as _;

use super::describe::tooltip;
use super::place::{Area, Taken};
use super::scale::{categories, nice_ticks, series_index, tick_text, value_range};
use super::svg::{num, pct, text_width, text_width_at, wrap, Body};
use super::{ChartInput, NARROWEST};
use crate::content::ChartKind;
use crate::scan::ChartPoint;
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
    /// The page's number marks, which the tick values are written in.
    marks: NumberMarks,
}

impl Axis {
    /// Where `value` lies, as a share of the chart's width from the plot's left edge.
    fn at(&self, value: f64) -> f64 {
        let (lo, hi) = (self.ticks[0], self.ticks[self.ticks.len() - 1]);
        (value - lo) / (hi - lo) * self.span
    }

    /// The value printed under tick `index`, and its anchor: the first starts at the
    /// plot's edge when centring it would cross the chart's left edge; the others are
    /// centred on their tick.
    fn label(&self, index: usize) -> (String, &'static str) {
        let english = tick_text(self.ticks[index], self.step, self.digits);
        let label = self.marks.number(&english).into_owned();
        match index == 0 && self.start < text_width(&label) / 2.0 + 1.0 {
            true => (label, "start"),
            false => (label, "middle"),
        }
    }
}

/// Bars, grouped bars, or dots on one row per category: the value axis runs across.
pub(super) fn rows_layout(chart: &ChartInput, series: &[&str], body: &mut Body, top: f64) -> f64 {
    let multi = series.len() > 1 || chart.kind == ChartKind::GroupedBar;
    let dots = chart.kind == ChartKind::Dot;
    let heading = match (multi, chart.series_title) {
        (true, Some(s)) => format!("{} · {s}", chart.x_title),
        _ => chart.x_title.to_string(),
    };
    body.text("0", top + 12.0, "a", "start", &heading);

    // Series names sit left of their rows when they are short enough, else above them.
    let longest_series = series.iter().map(|s| text_width(s)).fold(0.0, f64::max);
    let left = if multi && longest_series + 12.0 <= NARROWEST * 0.4 {
        (longest_series + 12.0).ceil()
    } else {
        0.0
    };
    let gap = if dots { 10.0 } else { 8.0 };
    let axis = value_axis(chart, left, gap);

    // Text first (names and values), then gridline pieces that keep clear of it.
    let mut rows = Rows {
        y: top + 20.0,
        ..Rows::default()
    };
    for (category, members) in &categories(chart.points) {
        rows.wrapped(category, if multi { "a" } else { "v" }, 13.0);
        rows.advance(2.0);
        let mut ordered: Vec<&&ChartPoint> = members.iter().collect();
        ordered.sort_by_key(|p| series_index(series, p));
        for point in ordered {
            let name = point.series.as_deref().unwrap_or_default();
            match (multi, left > 0.0) {
                (true, true) => rows.name(name, "v", 12.5),
                (true, false) => rows.wrapped(name, "v", 12.0),
                (false, _) => {}
            }
            let index = series_index(series, point);
            if dots {
                rows.dot(chart, &axis, point, index);
            } else {
                rows.bar(chart, &axis, point, index);
            }
            rows.value_label(&axis, gap, point);
            rows.advance(22.0);
        }
        rows.advance(if multi { 8.0 } else { 4.0 });
    }
    let grid_bottom = rows.y - 4.0;
    if let Some(last) = rows.bands.last_mut() {
        last.1 = grid_bottom;
    }
    let grid = gridlines(&axis, &rows, grid_bottom);
    let _ = writeln!(
        body.out,
        "<g transform=\"translate({} 0)\">",
        num(axis.start)
    );
    body.out.push_str(&grid.out);
    body.out.push_str(&rows.marks.out);
    body.out.push_str("</g>\n");
    body.out.push_str(&rows.names.out);
    let y = grid_bottom + 16.0;
    body.text("0", y + 20.0, "a", "start", chart.y_title);
    y + 20.0
}

/// The rows as they are laid out downward: the text placed so far (which gridlines keep
/// clear of), the bands of height a gridline may cross, the names at the left edge and
/// the marks on the plot.
#[derive(Default)]
struct Rows {
    y: f64,
    taken: Taken,
    bands: Vec<(f64, f64)>,
    names: Body,
    marks: Body,
}

impl Rows {
    /// Moves down by `height`, a band that gridlines may cross where no text is.
    fn advance(&mut self, height: f64) {
        self.bands.push((self.y, self.y + height));
        self.y += height;
    }

    /// A line of text at the left edge, its baseline `baseline` below the row's top.
    fn name(&mut self, line: &str, class: &str, baseline: f64) {
        let y = self.y + baseline;
        self.names.text("0", y, class, "start", line);
        (self.taken.0).push(Area::text(0.0, 0.0, 0.0, y, line, class, "start"));
    }

    /// A text at the left edge, wrapped to the narrowest width, a 16-pixel row per line.
    fn wrapped(&mut self, text: &str, class: &str, baseline: f64) {
        for line in wrap(text, class, NARROWEST) {
            self.name(&line, class, baseline);
            self.advance(16.0);
        }
    }

    /// A dot at the point's value, on a thin line from zero.
    fn dot(&mut self, chart: &ChartInput, axis: &Axis, point: &ChartPoint, index: usize) {
        let (zero, at, y) = (axis.at(0.0), axis.at(point.y), self.y + 8.0);
        let marks = &mut self.marks;
        marks.line(&pct(zero * 100.0), y, &pct(at * 100.0), y, "g gd", "");
        marks.marker(&pct(at * 100.0), y, index, Some(&tooltip(chart, point)));
    }

    /// A bar from zero to the point's value, its tooltip as its title.
    fn bar(&mut self, chart: &ChartInput, axis: &Axis, point: &ChartPoint, index: usize) {
        let (zero, at) = (axis.at(0.0), axis.at(point.y));
        let (start, end) = if point.y < 0.0 {
            (at, zero)
        } else {
            (zero, at)
        };
        let _ = write!(
            self.marks.out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"16\" class=\"s{}\"><title>",
            pct(start * 100.0),
            num(self.y),
            pct(((end - start) * 100.0).max(0.0)),
            index % 6
        );
        escape_html_into(&tooltip(chart, point), &mut self.marks.out);
        self.marks.out.push_str("</title></rect>\n");
    }

    /// The value printed at the end of a bar or beside a dot, `gap` away on the side
    /// away from zero; its box taken.
    fn value_label(&mut self, axis: &Axis, gap: f64, point: &ChartPoint) {
        let (negative, y, text) = (point.y < 0.0, self.y + 12.5, &point.y_text);
        let at = axis.at(point.y);
        let (dx, anchor) = if negative {
            (-gap, "end")
        } else {
            (gap, "start")
        };
        let out = &mut self.marks.out;
        let _ = write!(
            out,
            "<text x=\"{}\" dx=\"{}\" y=\"{}\" class=\"v\"",
            pct(at * 100.0),
            num(dx),
            num(y)
        );
        if negative {
            out.push_str(" text-anchor=\"end\"");
        }
        out.push('>');
        escape_html_into(text, out);
        out.push_str("</text>\n");
        let label = Area::text(0.0, at, dx, y, text, "v", anchor);
        self.taken.0.push(Area {
            off: axis.start,
            ..label
        });
    }
}

/// Each tick: its gridline in pieces that cross no text of the `rows`, and its value
/// under them, at `bottom`.
fn gridlines(axis: &Axis, rows: &Rows, bottom: f64) -> Body {
    let mut grid = Body::default();
    for (index, tick) in axis.ticks.iter().enumerate() {
        grid.out.push_str("<g class=\"t\">\n");
        let at = pct(axis.at(*tick) * 100.0);
        let class = if *tick == 0.0 { "z" } else { "g" };
        let mut open: Option<(f64, f64)> = None;
        for band in &rows.bands {
            let piece = Area::vertical(axis.start, axis.at(*tick), band.0, band.1);
            if rows.taken.0.iter().any(|text| piece.meets(text, 1.0)) {
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
            let (label, anchor) = axis.label(index);
            grid.text(&at, bottom + 16.0, "k", anchor, &label);
        }
        grid.out.push_str("</g>\n");
    }
    grid
}

/// The value axis: round ticks, room for the value labels on both sides, and every
/// how many ticks a value is printed so that they keep apart at the narrowest width.
fn value_axis(chart: &ChartInput, left: f64, gap: f64) -> Axis {
    let (points, digits) = (chart.points, chart.y_digits);
    let marks = chart.words.marks().clone();
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
        .map(|t| text_width_at(&marks.number(&tick_text(*t, step, digits)), 12.0, false))
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
        marks,
    };
    while axis.every < axis.ticks.len() {
        let labels: Vec<Area> = (0..axis.ticks.len())
            .step_by(axis.every)
            .map(|i| {
                let (label, anchor) = axis.label(i);
                Area::text(start, axis.at(axis.ticks[i]), 0.0, 0.0, &label, "k", anchor)
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
