//! Line and scatter charts: `y` runs up, `x` across, on a category, number or date axis.

use std::fmt::Write as _;

use super::breaks::{gap_positions, runs};
use super::describe::tooltip;
use super::direct_labels;
use super::place::{Area, Taken, WIDEST};
use super::scale::{categories, nice_ticks, series_index, tick_text, value_axis, ValueAxis};
use super::svg::{num, pct, text_width_at, Body, DASHES};
use super::{ChartInput, XScale, LABELLED_POINTS, NARROWEST, PLOT_HEIGHT};
use crate::content::iso8601::day_position;
use crate::content::ChartKind;
use crate::scan::ChartPoint;

/// Lays out a line or dot chart from `top`; returns where it ends and the
/// number of points whose `x` could not be placed on a numeric or date axis.
pub(super) fn xy_layout(
    chart: &ChartInput,
    series: &[&str],
    body: &mut Body,
    top: f64,
) -> (f64, u64) {
    let mut y = top;
    body.text("0", y + 12.0, "a", "start", chart.y_title);
    let mut taken = Taken::default();
    taken.0.push(Area::text(
        0.0,
        0.0,
        0.0,
        y + 12.0,
        chart.y_title,
        "a",
        "start",
    ));
    y += 20.0;
    // Lines of several series are named at their ends; dots keep a legend.
    let named_ends = chart.kind == ChartKind::Line && series.len() > 1;
    let slots = direct_labels::slots(series, chart.many.highlight);
    if series.len() > 1 && !named_ends {
        y = body.legend(series, y + 12.0) + 6.0;
    }
    let order = categories(chart.points);
    let position = |x: &str| match chart.x_scale {
        XScale::Category => order.iter().position(|(c, _)| *c == x).map(|i| i as f64),
        XScale::Number => x.parse::<f64>().ok().filter(|v| v.is_finite()),
        XScale::Date => day_position(x),
    };
    let placed: Vec<(f64, &ChartPoint)> = chart
        .points
        .iter()
        .filter_map(|p| Some((position(&p.x)?, p)))
        .collect();
    let unplaced = (chart.points.len() - placed.len()) as u64;
    let named: Vec<&str> = series
        .iter()
        .zip(&slots)
        .filter(|(_, slot)| slot.is_some() && named_ends)
        .map(|(name, _)| *name)
        .collect();
    let frame = Frame::new(chart, &placed, y + 18.0, direct_labels::plot_right(&named));

    // Gridlines go here, under everything, once the point labels they make way for are placed.
    let grid_at = body.out.len();
    for tick in &frame.axis.ticks {
        let label = frame.axis.label(*tick);
        let area = Area::text(0.0, 0.0, 0.0, frame.down(*tick) - 4.0, &label, "k", "start");
        taken.0.push(area);
    }
    for (x, label) in x_labels(chart, &frame, &order) {
        let (at, baseline) = (frame.across(x), frame.plot_bottom + 17.0);
        body.text(&pct(at), baseline, "k", edge_anchor(at), &label);
        taken.0.push(x_label_box(&frame, x, &label));
    }
    body.text(
        "50%",
        frame.plot_bottom + 38.0,
        "a",
        "middle",
        chart.x_title,
    );

    let lines: Vec<Vec<(f64, &ChartPoint)>> = (0..series.len())
        .map(|index| {
            let mut line: Vec<(f64, &ChartPoint)> = placed
                .iter()
                .filter(|(_, p)| series_index(series, p) == index)
                .copied()
                .collect();
            line.sort_by(|a, b| a.0.total_cmp(&b.0));
            line
        })
        .collect();
    let lanes = Lanes {
        series,
        slots: &slots,
        crowded: chart.x_scale == XScale::Category && crowded(&placed, series, &|v| frame.down(v)),
    };
    draw_lines(chart, &frame, &lanes, &lines, &position, body, &mut taken);
    if named_ends {
        name_ends(&frame, &lanes, &lines, body, &mut taken);
    }
    let point_labels = if series.len() <= 1 && placed.len() <= LABELLED_POINTS {
        value_labels(chart, &frame, &lines, body, &mut taken)
    } else {
        Vec::new()
    };
    let grid = gridlines(&frame, &point_labels, named_ends);
    body.out.insert_str(grid_at, &grid.out);
    (frame.plot_bottom + 38.0, unplaced)
}

/// Where the plot lies: its value axis down, its x domain across, in percent of the
/// width (left of `left`: the value labels; right of `right`: names at the lines' ends).
struct Frame {
    axis: ValueAxis,
    left: f64,
    right: f64,
    /// The x domain drawn, on the x scale.
    lo: f64,
    hi: f64,
    /// The data's x extent.
    data: (f64, f64),
    plot_top: f64,
    plot_bottom: f64,
}

impl Frame {
    fn new(chart: &ChartInput, placed: &[(f64, &ChartPoint)], plot_top: f64, right: f64) -> Frame {
        let (xlo, xhi) = placed
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (x, _)| {
                (lo.min(*x), hi.max(*x))
            });
        let (lo, hi) = match chart.x_scale {
            XScale::Number => {
                let (ticks, _) = number_ticks(chart, xlo, xhi, 6);
                (ticks[0], ticks[ticks.len() - 1])
            }
            _ if xlo < xhi => (xlo, xhi),
            _ => (xlo - 1.0, xhi + 1.0),
        };
        let axis = value_axis(chart);
        // The first points start right of the value labels that sit on the gridlines.
        let widest_tick = axis
            .ticks
            .iter()
            .map(|t| text_width_at(&axis.label(*t), 12.0, false))
            .fold(0.0, f64::max);
        Frame {
            axis,
            left: ((widest_tick + 12.0) / NARROWEST * 100.0).clamp(4.0, 30.0),
            right,
            lo,
            hi,
            data: (xlo, xhi),
            plot_top,
            plot_bottom: plot_top + PLOT_HEIGHT,
        }
    }

    /// Where `x` lies across, in percent of the chart's width.
    fn across(&self, x: f64) -> f64 {
        self.left + (x - self.lo) / (self.hi - self.lo) * (self.right - self.left)
    }

    /// Where `value` lies down, in pixels.
    fn down(&self, value: f64) -> f64 {
        self.plot_bottom - self.axis.fraction(value) * PLOT_HEIGHT
    }
}

/// Round ticks of a number axis, at most `intervals` apart; whole numbers for `integer`.
fn number_ticks(chart: &ChartInput, lo: f64, hi: f64, intervals: usize) -> (Vec<f64>, f64) {
    whole_ticks(nice_ticks(lo, hi, intervals), lo, hi, chart.x_shown.whole)
}

/// The x axis's labels: nice numbers or calendar boundaries, as many as keep apart at
/// the narrowest width, chosen anew from the span when fewer are needed (so that they
/// stay evenly spaced: `2016-01`, `2016-07`, never `2016-11` after them); categories are
/// thinned evenly.
fn x_labels(
    chart: &ChartInput,
    frame: &Frame,
    order: &[(&str, Vec<&ChartPoint>)],
) -> Vec<(f64, String)> {
    let (lo, hi) = frame.data;
    let apart = |labels: &[(f64, String)]| {
        let boxes: Vec<Area> = labels
            .iter()
            .map(|(x, l)| x_label_box(frame, *x, l))
            .collect();
        boxes.windows(2).all(|p| !p[0].meets(&p[1], 8.0))
    };
    let ticks_for = |most: usize| -> Vec<(f64, String)> {
        match chart.x_scale {
            XScale::Number => {
                let (ticks, step) = number_ticks(chart, lo, hi, most);
                ticks
                    .iter()
                    .filter(|t| (frame.lo..=frame.hi).contains(*t))
                    .map(|t| match chart.x_shown.years && step.fract() == 0.0 {
                        // Years read without group marks: 2001, never 2,001.
                        true => (*t, format!("{t}")),
                        false => (*t, chart.number(&tick_text(*t, step, chart.x_shown.digits))),
                    })
                    .collect()
            }
            XScale::Date if !lo.is_finite() => Vec::new(),
            XScale::Date => match chart.x_shown.dates {
                Some(kind) => {
                    super::time::period_ticks(kind, lo, hi, most.min(period_tick_count(kind)))
                }
                None => super::time::moment_ticks(lo, hi, most),
            },
            XScale::Category => order
                .iter()
                .enumerate()
                .map(|(i, (c, _))| (i as f64, c.to_string()))
                .collect(),
        }
    };
    if chart.x_scale != XScale::Category {
        // Fewer ticks chosen from the span; failing two that fit, every second or third
        // of them (still evenly spaced); failing that, one.
        let every_nth = |ticks: &[(f64, String)], every: usize| -> Vec<(f64, String)> {
            ticks.iter().step_by(every).cloned().collect()
        };
        for every in 1..=3 {
            for most in (2..=6).rev() {
                let labels = every_nth(&ticks_for(most), every);
                if labels.len() >= 2 && apart(&labels) {
                    return labels;
                }
            }
        }
        return ticks_for(1).into_iter().take(1).collect();
    }
    let all = ticks_for(0);
    let mut every = 1;
    loop {
        let last = all.len().saturating_sub(1);
        let labels: Vec<(f64, String)> = all
            .iter()
            .enumerate()
            .filter(|(i, _)| i % every == 0 || *i == last && last % every >= every.div_ceil(2))
            .map(|(_, l)| l.clone())
            .collect();
        if every >= all.len() || apart(&labels) {
            return labels;
        }
        every += 1;
    }
}

/// The box of an x label under the plot.
fn x_label_box(frame: &Frame, x: f64, label: &str) -> Area {
    let at = frame.across(x);
    Area::text(
        0.0,
        at / 100.0,
        0.0,
        frame.plot_bottom + 17.0,
        label,
        "k",
        edge_anchor(at),
    )
}

/// The series of a plot: their names, colour slots (`None`: grey context), and whether
/// markers of several on one category would hide each other.
struct Lanes<'a> {
    series: &'a [&'a str],
    slots: &'a [Option<usize>],
    crowded: bool,
}

impl Lanes<'_> {
    /// How far a crowded series moves across, in pixels, the same for all its points so
    /// that its line follows. On a number or date axis every point sits exactly at its
    /// value (the marker shapes tell series apart).
    fn dodge(&self, index: usize) -> f64 {
        if self.crowded {
            let slots = self.series.len().min(4) as f64;
            ((index % 4) as f64 - (slots - 1.0) / 2.0) * 8.0
        } else {
            0.0
        }
    }
}

/// Each series' line (broken at its gaps) and markers: grey context lines first, under
/// the highlighted ones; markers while there are few enough points to see one by one,
/// else a path (a point alone between two gaps keeps its marker).
fn draw_lines(
    chart: &ChartInput,
    frame: &Frame,
    lanes: &Lanes,
    lines: &[Vec<(f64, &ChartPoint)>],
    position: &dyn Fn(&str) -> Option<f64>,
    body: &mut Body,
    taken: &mut Taken,
) {
    let marked = chart.kind != ChartKind::Line || super::line_is_marked(chart);
    let span = (frame.left, frame.right);
    let plot = (frame.plot_top, PLOT_HEIGHT);
    let mut drawing: Vec<usize> = (0..lines.len()).collect();
    drawing.sort_by_key(|index| lanes.slots[*index].is_some());
    for index in drawing {
        let line = &lines[index];
        let shift = lanes.dodge(index);
        if shift != 0.0 {
            let _ = writeln!(body.out, "<g transform=\"translate({} 0)\">", num(shift));
        }
        let runs = match chart.kind {
            ChartKind::Line => {
                let breaks = gap_positions(chart.gaps, lanes.series, index, position);
                runs(line, &breaks)
            }
            _ => Vec::new(),
        };
        let at = |run: &[(f64, &ChartPoint)]| -> Vec<(f64, f64)> {
            run.iter()
                .map(|(x, p)| (frame.across(*x), frame.down(p.y)))
                .collect()
        };
        let Some(slot) = lanes.slots[index] else {
            // A grey context line: its runs as thin paths, without markers.
            for run in runs.iter().filter(|run| run.len() > 1) {
                body.path(&at(run), span, plot, "cx", "");
            }
            if shift != 0.0 {
                body.out.push_str("</g>\n");
            }
            continue;
        };
        let class = format!("s{} l", slot % 6);
        let dash = DASHES[slot % DASHES.len()];
        let lone: Vec<f64> = runs
            .iter()
            .filter(|run| run.len() == 1 && !marked)
            .map(|run| run[0].0)
            .collect();
        for run in &runs {
            if !marked && run.len() > 1 {
                body.path(&at(run), span, plot, &class, dash);
            } else if marked {
                for pair in at(run).windows(2) {
                    let (a, b) = (pair[0], pair[1]);
                    body.line(&pct(a.0), a.1, &pct(b.0), b.1, &class, dash);
                }
            }
        }
        for (x, point) in line.iter().filter(|(x, _)| marked || lone.contains(x)) {
            let (at, cy) = (frame.across(*x), frame.down(point.y));
            body.marker(&pct(at), cy, slot, Some(&tooltip(chart, point)));
            taken.0.push(Area {
                off: shift,
                frac: at / 100.0,
                x0: -5.0,
                x1: 5.0,
                y0: cy - 5.0,
                y1: cy + 5.0,
            });
        }
        if shift != 0.0 {
            body.out.push_str("</g>\n");
        }
    }
}

/// Each coloured line's name at its end, right of the plot.
fn name_ends(
    frame: &Frame,
    lanes: &Lanes,
    lines: &[Vec<(f64, &ChartPoint)>],
    body: &mut Body,
    taken: &mut Taken,
) {
    let ends = lines
        .iter()
        .zip(lanes.slots)
        .zip(lanes.series)
        .filter_map(|((line, slot), name)| {
            let (_, last) = line.last()?;
            Some(direct_labels::End {
                slot: (*slot)?,
                y: frame.down(last.y),
                name,
            })
        })
        .collect();
    let room = (frame.plot_top + 4.0, frame.plot_bottom);
    for name in direct_labels::place(ends, frame.right, room) {
        let class = format!("dl s{}", name.slot % 6);
        let (gap, baseline) = (direct_labels::GAP, name.baseline);
        body.text_dx(
            &pct(frame.right),
            gap,
            baseline,
            &class,
            "start",
            &name.text,
        );
        taken.0.push(name.area);
    }
}

/// Each point's value beside it, where a place is free; returns the labels' boxes.
fn value_labels(
    chart: &ChartInput,
    frame: &Frame,
    lines: &[Vec<(f64, &ChartPoint)>],
    body: &mut Body,
    taken: &mut Taken,
) -> Vec<Area> {
    let mut placed = Vec::new();
    let joined = chart.kind == ChartKind::Line;
    for line in lines {
        let at: Vec<(f64, f64)> = line
            .iter()
            .map(|(x, p)| (frame.across(*x), frame.down(p.y)))
            .collect();
        for (i, (_, point)) in line.iter().enumerate() {
            let before = (joined && i > 0).then(|| at[i - 1].1);
            let after = at.get(i + 1).filter(|_| joined).map(|a| a.1);
            if let Some((area, x, y, anchor)) =
                label_place(at[i], before, after, &point.y_text, taken)
            {
                body.text_dx(&pct(at[i].0), x, y, "v", anchor, &point.y_text);
                taken.0.push(area);
                placed.push(area);
            }
        }
    }
    placed
}

/// The value axis's gridlines, broken where they would cross a point label, each with
/// its value at the left.
fn gridlines(frame: &Frame, point_labels: &[Area], named_ends: bool) -> Body {
    let mut grid = Body::default();
    for tick in &frame.axis.ticks {
        let gy = frame.down(*tick);
        let class = if *tick == 0.0 { "z" } else { "g" };
        grid.out.push_str("<g class=\"t\">\n");
        let mut from = 0.0;
        for (gap_start, gap_end) in gaps(point_labels, gy) {
            if gap_start > from {
                grid.line(&pct(from), gy, &pct(gap_start), gy, class, "");
            }
            from = f64::max(from, gap_end);
        }
        // Names at the lines' ends sit right of the plot: gridlines stop where it does.
        let end = if named_ends { frame.right } else { 100.0 };
        if from < end {
            grid.line(&pct(from), gy, &pct(end), gy, class, "");
        }
        grid.text("0", gy - 4.0, "k", "start", &frame.axis.label(*tick));
        grid.out.push_str("</g>\n");
    }
    grid
}

/// Whether two series have markers on one x within 10 pixels of each other. Sorted by x
/// and then height, such a pair exists exactly when two neighbours are one.
fn crowded(placed: &[(f64, &ChartPoint)], series: &[&str], down: &dyn Fn(f64) -> f64) -> bool {
    let mut at: Vec<(f64, f64, usize)> = placed
        .iter()
        .map(|(x, p)| (*x, down(p.y), series_index(series, p)))
        .collect();
    at.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    at.windows(2)
        .any(|w| w[0].0 == w[1].0 && w[0].2 != w[1].2 && (w[1].1 - w[0].1).abs() < 10.0)
}

/// The stretches of a gridline at `gy`, in percent of the width, that would cross a point
/// label at some width: the line leaves them out.
fn gaps(labels: &[Area], gy: f64) -> Vec<(f64, f64)> {
    let mut gaps: Vec<(f64, f64)> = labels
        .iter()
        .filter(|a| a.y0 - 1.0 < gy && a.y1 + 1.0 > gy)
        .map(|a| {
            let percent = |x: f64, width: f64| (a.off + a.frac * width + x) / width * 100.0;
            let left = percent(a.x0, NARROWEST).min(percent(a.x0, WIDEST));
            let right = percent(a.x1, NARROWEST).max(percent(a.x1, WIDEST));
            ((left - 1.0).max(0.0), (right + 1.0).min(100.0))
        })
        .collect();
    gaps.sort_by(|a, b| a.0.total_cmp(&b.0));
    gaps
}

/// Where a point's value label goes: above, beside or below the point, on a side the
/// line does not leave the point by, and clear of everything drawn so far; `None` when
/// no place is free (the value is still in the mark's title and the table).
fn label_place(
    (at, cy): (f64, f64),
    before: Option<f64>,
    after: Option<f64>,
    text: &str,
    taken: &Taken,
) -> Option<(Area, f64, f64, &'static str)> {
    // Screen y grows downwards: a neighbour lower on screen leaves the upper side free.
    let up_left = before.is_none_or(|b| b >= cy);
    let up_right = after.is_none_or(|a| a >= cy);
    let down_left = before.is_none_or(|b| b <= cy);
    let down_right = after.is_none_or(|a| a <= cy);
    let mut sides: Vec<(bool, f64, &'static str)> = Vec::new();
    for (free, up, dx, anchor) in [
        (up_left && up_right, true, 0.0, "middle"),
        (up_left, true, -7.0, "end"),
        (up_right, true, 7.0, "start"),
        (down_left && down_right, false, 0.0, "middle"),
        (down_left, false, -7.0, "end"),
        (down_right, false, 7.0, "start"),
    ] {
        if free {
            sides.push((up, dx, anchor));
        }
    }
    for extra in [0.0, 4.0, 8.0, 12.0, 16.0] {
        for (up, dx, anchor) in &sides {
            let y = if *up {
                cy - 10.0 - extra
            } else {
                cy + 19.0 + extra
            };
            let area = Area::text(0.0, at / 100.0, *dx, y, text, "v", anchor);
            if taken.free(&area, 1.0) {
                return Some((area, *dx, y, anchor));
            }
        }
    }
    None
}

/// Text anchor that keeps a label near either edge inside the chart.
pub(super) fn edge_anchor(at_percent: f64) -> &'static str {
    if at_percent < 12.0 {
        "start"
    } else if at_percent > 88.0 {
        "end"
    } else {
        "middle"
    }
}

/// The ticks of an `integer` x (`whole`) never step by less than one: a year axis reads
/// 2001, 2002, never 2001.5. Other axes keep their ticks.
fn whole_ticks(ticks: (Vec<f64>, f64), lo: f64, hi: f64, whole: bool) -> (Vec<f64>, f64) {
    if !whole || ticks.1 >= 1.0 || !(lo.is_finite() && hi.is_finite()) {
        return ticks;
    }
    let (first, last) = match (lo.floor(), hi.ceil()) {
        (a, b) if a < b => (a as i64, b as i64),
        (a, _) => (a as i64 - 1, a as i64 + 1),
    };
    ((first..=last).map(|t| t as f64).collect(), 1.0)
}

/// Ticks a formatted time axis aims for: four for the longer labels of quarters and weeks
/// (`1974 Q1`, `2019-W07`), so that they fit a phone evenly spaced instead of thinned.
fn period_tick_count(kind: crate::content::date_format::DateKind) -> usize {
    use crate::content::date_format::DateKind;
    match kind {
        DateKind::Quarter | DateKind::Week => 4,
        _ => 6,
    }
}
