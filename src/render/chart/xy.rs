//! Line and scatter charts: `y` runs up, `x` across, on a category, number or date axis.

use super::describe::tooltip;
use super::scale::{categories, day_number, nice_ticks, series_index, tick_text, value_range};
use super::svg::{pct, text_width, Body, DASHES};
use super::{ChartInput, XScale, LABELLED_POINTS, NARROWEST};
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
    y += 20.0;
    if series.len() > 1 {
        y = body.legend(series, y + 12.0) + 6.0;
    }
    let plot_top = y + 18.0;
    let plot_height = 180.0;
    let plot_bottom = plot_top + plot_height;

    // Where each point sits across, as a number on the x scale.
    let order = categories(chart.points);
    let placed: Vec<(f64, &ChartPoint)> = chart
        .points
        .iter()
        .filter_map(|p| {
            let x = match chart.x_scale {
                XScale::Category => order.iter().position(|(c, _)| *c == p.x).map(|i| i as f64),
                XScale::Number => p.x.parse::<f64>().ok().filter(|v| v.is_finite()),
                XScale::Date => day_number(&p.x).map(|d| d as f64),
            }?;
            Some((x, p))
        })
        .collect();
    let unplaced = (chart.points.len() - placed.len()) as u64;
    let (xlo, xhi) = placed
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (x, _)| {
            (lo.min(*x), hi.max(*x))
        });
    let (x_ticks, x_step) = match chart.x_scale {
        XScale::Number => nice_ticks(xlo, xhi, 4),
        _ => (Vec::new(), 1.0),
    };
    let (dxlo, dxhi) = match chart.x_scale {
        XScale::Number => (x_ticks[0], x_ticks[x_ticks.len() - 1]),
        _ if xlo < xhi => (xlo, xhi),
        _ => (xlo - 1.0, xhi + 1.0),
    };
    let labelled = series.len() <= 1 && placed.len() <= LABELLED_POINTS;
    let (lo, hi) = value_range(chart.points);
    let (ticks, step) = nice_ticks(lo.min(0.0), hi.max(0.0), 4);
    let (dlo, dhi) = (ticks[0], ticks[ticks.len() - 1]);
    // The first points start right of the value labels that sit on the gridlines.
    let widest_tick = ticks
        .iter()
        .map(|t| text_width(&tick_text(*t, step)))
        .fold(0.0, f64::max);
    let left = ((widest_tick + 10.0) / NARROWEST * 100.0).clamp(4.0, 20.0);
    let right = 96.0;
    let across = |x: f64| left + (x - dxlo) / (dxhi - dxlo) * (right - left);
    let down = |v: f64| plot_bottom - (v - dlo) / (dhi - dlo) * plot_height;

    for tick in &ticks {
        let gy = down(*tick);
        let class = if *tick == 0.0 { "z" } else { "g" };
        body.line("0", gy, "100%", gy, class, "");
        body.text("0", gy - 4.0, "k", "start", &tick_text(*tick, step));
    }

    // Tick labels across: nice numbers, or the data's own values for dates and categories.
    let mut labels: Vec<(f64, String)> = match chart.x_scale {
        XScale::Number => x_ticks
            .iter()
            .map(|t| (*t, tick_text(*t, x_step)))
            .collect(),
        XScale::Category => order
            .iter()
            .enumerate()
            .map(|(i, (c, _))| (i as f64, c.to_string()))
            .collect(),
        XScale::Date => {
            let mut seen: Vec<(f64, String)> =
                placed.iter().map(|(x, p)| (*x, p.x.clone())).collect();
            seen.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
            seen.dedup_by(|a, b| a.0 == b.0);
            seen
        }
    };
    let widest = labels
        .iter()
        .map(|(_, l)| text_width(l))
        .fold(0.0, f64::max);
    let fit = ((NARROWEST / (widest + 12.0)).floor() as usize).clamp(2, 10);
    if labels.len() > fit {
        let every = labels.len().div_ceil(fit);
        let last = labels.len() - 1;
        labels = labels
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % every == 0 || *i == last && last % every >= every / 2)
            .map(|(_, l)| l)
            .collect();
    }
    for (x, label) in &labels {
        let at = across(*x);
        body.text(&pct(at), plot_bottom + 17.0, "k", edge_anchor(at), label);
    }
    body.text("50%", plot_bottom + 38.0, "a", "middle", chart.x_title);

    for (index, _) in series.iter().enumerate() {
        let mut line: Vec<(f64, &ChartPoint)> = placed
            .iter()
            .filter(|(_, p)| series_index(series, p) == index)
            .copied()
            .collect();
        line.sort_by(|a, b| a.0.total_cmp(&b.0));
        if chart.kind == ChartKind::Line {
            for pair in line.windows(2) {
                body.line(
                    &pct(across(pair[0].0)),
                    down(pair[0].1.y),
                    &pct(across(pair[1].0)),
                    down(pair[1].1.y),
                    &format!("s{} l", index % 6),
                    DASHES[index % DASHES.len()],
                );
            }
        }
        for (x, point) in &line {
            body.marker(
                &pct(across(*x)),
                down(point.y),
                index,
                Some(&tooltip(point)),
            );
            if labelled {
                let at = across(*x);
                body.text(
                    &pct(at),
                    down(point.y) - 9.0,
                    "v",
                    edge_anchor(at),
                    &point.y_text,
                );
            }
        }
    }
    (plot_bottom + 38.0, unplaced)
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
