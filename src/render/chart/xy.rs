//! Line and scatter charts: `y` runs up, `x` across, on a category, number or date axis.

use std::fmt::Write as _;

use super::breaks::{gap_positions, runs};
use super::describe::tooltip;
use super::direct_labels;
use super::place::{Area, Taken, WIDEST};
use super::scale::{categories, nice_ticks, series_index, tick_text, value_axis};
use super::svg::{num, pct, text_width_at, Body, DASHES};
use super::{ChartInput, XScale, LABELLED_POINTS, NARROWEST};
use crate::content::iso8601::day_position;
use crate::content::ChartKind;
use crate::dataset::scan::ChartPoint;

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
    let plot_top = y + 18.0;
    let plot_height = super::PLOT_HEIGHT;
    let plot_bottom = plot_top + plot_height;

    // Where each point sits across, as a number on the x scale.
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
    let (xlo, xhi) = placed
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (x, _)| {
            (lo.min(*x), hi.max(*x))
        });
    let (x_ticks, x_step) = match chart.x_scale {
        XScale::Number => whole_ticks(nice_ticks(xlo, xhi, 6), xlo, xhi, chart.x_shown.whole),
        _ => (Vec::new(), 1.0),
    };
    let (dxlo, dxhi) = match chart.x_scale {
        XScale::Number => (x_ticks[0], x_ticks[x_ticks.len() - 1]),
        _ if xlo < xhi => (xlo, xhi),
        _ => (xlo - 1.0, xhi + 1.0),
    };
    let labelled = series.len() <= 1 && placed.len() <= LABELLED_POINTS;
    let axis = value_axis(chart);
    let ticks = &axis.ticks;
    // The first points start right of the value labels that sit on the gridlines.
    let widest_tick = ticks
        .iter()
        .map(|t| text_width_at(&axis.label(*t), 12.0, false))
        .fold(0.0, f64::max);
    let left = ((widest_tick + 12.0) / NARROWEST * 100.0).clamp(4.0, 30.0);
    let named: Vec<&str> = series
        .iter()
        .zip(&slots)
        .filter(|(_, slot)| slot.is_some() && named_ends)
        .map(|(name, _)| *name)
        .collect();
    let right = direct_labels::plot_right(&named);
    let across = |x: f64| left + (x - dxlo) / (dxhi - dxlo) * (right - left);
    let down = |v: f64| plot_bottom - axis.fraction(v) * plot_height;

    // Gridlines go here, under everything, once the point labels they make way for are placed.
    let grid_at = body.out.len();
    for tick in ticks {
        let label = axis.label(*tick);
        let area = Area::text(0.0, 0.0, 0.0, down(*tick) - 4.0, &label, "k", "start");
        taken.0.push(area);
    }

    // Tick labels across: nice numbers, calendar boundaries, or the categories.
    let mut labels: Vec<(f64, String)> = match chart.x_scale {
        XScale::Number => x_ticks
            .iter()
            .map(|t| match chart.x_shown.years && x_step.fract() == 0.0 {
                // Years read without group marks: 2001, never 2,001.
                true => (*t, format!("{t}")),
                false => (*t, tick_text(*t, x_step, chart.x_shown.digits)),
            })
            .collect(),
        XScale::Category => order
            .iter()
            .enumerate()
            .map(|(i, (c, _))| (i as f64, c.to_string()))
            .collect(),
        XScale::Date if placed.is_empty() => Vec::new(),
        XScale::Date => match chart.x_shown.dates {
            Some(kind) => super::time::period_ticks(kind, xlo, xhi, period_tick_count(kind)),
            None => super::time::moment_ticks(xlo, xhi, 6),
        },
    };
    // As many labels across as keep apart at the narrowest width, evenly thinned.
    let boxes = |labels: &[(f64, String)]| -> Vec<Area> {
        labels
            .iter()
            .map(|(x, l)| {
                let at = across(*x);
                Area::text(
                    0.0,
                    at / 100.0,
                    0.0,
                    plot_bottom + 17.0,
                    l,
                    "k",
                    edge_anchor(at),
                )
            })
            .collect()
    };
    let all = labels.clone();
    let mut every = 1;
    while every < all.len() {
        let last = all.len() - 1;
        labels = all
            .iter()
            .enumerate()
            .filter(|(i, _)| i % every == 0 || *i == last && last % every >= every.div_ceil(2))
            .map(|(_, l)| l.clone())
            .collect();
        let placed_boxes = boxes(&labels);
        if placed_boxes.windows(2).all(|p| !p[0].meets(&p[1], 8.0)) {
            break;
        }
        every += 1;
    }
    for ((x, label), area) in labels.iter().zip(boxes(&labels)) {
        let at = across(*x);
        body.text(&pct(at), plot_bottom + 17.0, "k", edge_anchor(at), label);
        taken.0.push(area);
    }
    body.text("50%", plot_bottom + 38.0, "a", "middle", chart.x_title);

    let lines: Vec<Vec<(f64, &ChartPoint)>> = series
        .iter()
        .enumerate()
        .map(|(index, _)| {
            let mut line: Vec<(f64, &ChartPoint)> = placed
                .iter()
                .filter(|(_, p)| series_index(series, p) == index)
                .copied()
                .collect();
            line.sort_by(|a, b| a.0.total_cmp(&b.0));
            line
        })
        .collect();
    // Markers of several series on one category would hide each other: each series then
    // moves a few pixels across, the same for all its points, so its line follows. On a
    // number or date axis every point sits exactly at its value (the marker shapes tell
    // series apart).
    let crowded = chart.x_scale == XScale::Category && crowded(&placed, series, &down);
    let dodge = |index: usize| {
        if crowded {
            let slots = series.len().min(4) as f64;
            ((index % 4) as f64 - (slots - 1.0) / 2.0) * 8.0
        } else {
            0.0
        }
    };
    // Markers while there are few enough points to see one by one; a longer line is a path.
    let marked = chart.kind != ChartKind::Line || super::line_is_marked(chart);
    // Grey context lines first, under the highlighted ones.
    let mut drawing: Vec<usize> = (0..lines.len()).collect();
    drawing.sort_by_key(|index| slots[*index].is_some());
    for index in drawing {
        let line = &lines[index];
        let shift = dodge(index);
        if shift != 0.0 {
            let _ = writeln!(body.out, "<g transform=\"translate({} 0)\">", num(shift));
        }
        // A line breaks at its gaps; a point left alone between two has no line, so it
        // gets a marker even on a path.
        let runs = match chart.kind {
            ChartKind::Line => {
                let breaks = gap_positions(chart.gaps, series, index, &position);
                runs(line, &breaks)
            }
            _ => Vec::new(),
        };
        let Some(slot) = slots[index] else {
            // A grey context line: its runs as thin paths, without markers.
            for run in runs.iter().filter(|run| run.len() > 1) {
                let at: Vec<(f64, f64)> =
                    run.iter().map(|(x, p)| (across(*x), down(p.y))).collect();
                body.path(&at, (left, right), (plot_top, plot_height), "cx", "");
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
                let at: Vec<(f64, f64)> =
                    run.iter().map(|(x, p)| (across(*x), down(p.y))).collect();
                body.path(&at, (left, right), (plot_top, plot_height), &class, dash);
            } else if marked {
                for pair in run.windows(2) {
                    body.line(
                        &pct(across(pair[0].0)),
                        down(pair[0].1.y),
                        &pct(across(pair[1].0)),
                        down(pair[1].1.y),
                        &class,
                        dash,
                    );
                }
            }
        }
        for (x, point) in line.iter().filter(|(x, _)| marked || lone.contains(x)) {
            let (at, cy) = (across(*x), down(point.y));
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
    let mut point_labels: Vec<Area> = Vec::new();
    if named_ends {
        let ends = lines
            .iter()
            .zip(&slots)
            .zip(series)
            .filter_map(|((line, slot), name)| {
                let (_, last) = line.last()?;
                Some(direct_labels::End {
                    slot: (*slot)?,
                    y: down(last.y),
                    name,
                })
            })
            .collect();
        for name in direct_labels::place(ends, right, (plot_top + 4.0, plot_bottom)) {
            let class = format!("dl s{}", name.slot % 6);
            body.text_dx(
                &pct(right),
                direct_labels::GAP,
                name.baseline,
                &class,
                "start",
                &name.text,
            );
            taken.0.push(name.area);
        }
    }
    if labelled {
        for line in &lines {
            let at: Vec<(f64, f64)> = line.iter().map(|(x, p)| (across(*x), down(p.y))).collect();
            for (i, (_, point)) in line.iter().enumerate() {
                let joined = chart.kind == ChartKind::Line;
                let before = if joined && i > 0 {
                    Some(at[i - 1].1)
                } else {
                    None
                };
                let after = at.get(i + 1).filter(|_| joined).map(|a| a.1);
                if let Some((area, x, y, anchor)) =
                    label_place(at[i], before, after, &point.y_text, &taken)
                {
                    body.text_dx(&pct(at[i].0), x, y, "v", anchor, &point.y_text);
                    taken.0.push(area);
                    point_labels.push(area);
                }
            }
        }
    }
    let mut grid = Body::default();
    for tick in ticks {
        let gy = down(*tick);
        let class = if *tick == 0.0 { "z" } else { "g" };
        grid.out.push_str("<g class=\"t\">\n");
        let mut from = 0.0;
        for (gap_start, gap_end) in gaps(&point_labels, gy) {
            if gap_start > from {
                grid.line(&pct(from), gy, &pct(gap_start), gy, class, "");
            }
            from = f64::max(from, gap_end);
        }
        // Names at the lines' ends sit right of the plot: gridlines stop where it does.
        let end = if named_ends { right } else { 100.0 };
        if from < end {
            grid.line(&pct(from), gy, &pct(end), gy, class, "");
        }
        grid.text("0", gy - 4.0, "k", "start", &axis.label(*tick));
        grid.out.push_str("</g>\n");
    }
    body.out.insert_str(grid_at, &grid.out);
    (plot_bottom + 38.0, unplaced)
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
