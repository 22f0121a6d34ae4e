//! Scales and ticks: series and categories in order of appearance, value ranges, round
//! tick values and their labels, and dates as day numbers.

use crate::dataset::scan::ChartPoint;
use crate::dataset::schema::{format_cell, ColumnType};

/// Series names in order of first appearance (one unnamed series when there is none).
pub(super) fn series_names(points: &[ChartPoint]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for point in points {
        let name = point.series.as_deref().unwrap_or("");
        if !names.contains(&name) {
            names.push(name);
        }
    }
    if names.is_empty() {
        names.push("");
    }
    names
}

pub(super) fn series_index(series: &[&str], point: &ChartPoint) -> usize {
    let name = point.series.as_deref().unwrap_or("");
    series.iter().position(|s| *s == name).unwrap_or(0)
}

/// The x values in order of first appearance, each with its points.
pub(super) fn categories(points: &[ChartPoint]) -> Vec<(&str, Vec<&ChartPoint>)> {
    let mut groups: Vec<(&str, Vec<&ChartPoint>)> = Vec::new();
    for point in points {
        match groups.iter_mut().find(|(x, _)| *x == point.x) {
            Some((_, members)) => members.push(point),
            None => groups.push((&point.x, vec![point])),
        }
    }
    groups
}

pub(super) fn value_range(points: &[ChartPoint]) -> (f64, f64) {
    let (lo, hi) = points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p.y), hi.max(p.y))
        });
    if lo.is_finite() {
        (lo, hi)
    } else {
        (0.0, 0.0)
    }
}

/// The range a line or dot chart's value axis must cover, from the data's `lo..=hi`:
/// with zero when `y_zero` says so, or (when it says nothing) when zero is near the data,
/// i.e. the data's nearest value to zero is at most half the data's range away from it.
/// A line then spans at least two thirds of the axis either way, never a band squeezed
/// against one edge (CO2 from 316 to 374 ppmv gets 310 to 380, not 0 to 400).
pub(super) fn value_domain(lo: f64, hi: f64, y_zero: Option<bool>) -> (f64, f64) {
    let near_zero = if lo > 0.0 {
        lo <= (hi - lo) / 2.0
    } else if hi < 0.0 {
        -hi <= (hi - lo) / 2.0
    } else {
        true
    };
    if y_zero.unwrap_or(near_zero) {
        (lo.min(0.0), hi.max(0.0))
    } else {
        (lo, hi)
    }
}

/// The ticks and step of a line or dot chart's value axis (see [`value_domain`]).
pub(super) fn value_axis(chart: &super::ChartInput) -> (Vec<f64>, f64) {
    let (lo, hi) = value_range(chart.points);
    let (lo, hi) = value_domain(lo, hi, chart.y_zero);
    nice_ticks(lo, hi, 8)
}

/// Round tick values covering `lo..=hi` in steps of 1, 2 or 5 times a power of ten, at
/// most `max_intervals` of them, and the step. The smallest such step wins, so the axis
/// ends at the first tick at or above `hi` (10.76 -> 12 in steps of 2, 2.46 million ->
/// 2.5 million in steps of 500,000). Equal ends get a range around them.
pub(super) fn nice_ticks(lo: f64, hi: f64, max_intervals: usize) -> (Vec<f64>, f64) {
    let (lo, hi) = if !(lo.is_finite() && hi.is_finite()) {
        (0.0, 1.0)
    } else if hi > lo {
        (lo, hi)
    } else if lo == 0.0 {
        (0.0, 1.0)
    } else {
        (lo - lo.abs() / 2.0, hi + hi.abs() / 2.0)
    };
    if !(hi - lo).is_finite() {
        return (vec![lo, hi], f64::MAX);
    }
    let max_intervals = max_intervals.max(1) as f64;
    let smallest = (hi - lo) / max_intervals;
    let mut exponent = smallest.log10().floor() as i32 - 1;
    loop {
        for multiple in [1.0, 2.0, 5.0] {
            // `multiple * 10^exponent`, exact for negative exponents too (0.2, not 0.2000…01).
            let power: f64 = format!("1e{}", exponent.abs()).parse().unwrap_or(f64::MAX);
            let at = |i: f64| {
                if exponent >= 0 {
                    i * multiple * power
                } else {
                    i * multiple / power
                }
            };
            let step = at(1.0);
            let first = (lo / step + 1e-9).floor();
            let last = (hi / step - 1e-9).ceil();
            if last - first <= max_intervals || exponent > 308 {
                let ticks = (first as i64..=last as i64)
                    .map(|i| at(i as f64) + 0.0)
                    .collect();
                return (ticks, step);
            }
        }
        exponent += 1;
    }
}

/// A tick value with the decimals its step needs and thousands separators.
pub(super) fn tick_text(value: f64, step: f64) -> String {
    let decimals = (0..=6)
        .find(|d| {
            let scaled = step * 10f64.powi(*d);
            (scaled - scaled.round()).abs() < 1e-6
        })
        .unwrap_or(6) as usize;
    let mut text = format!("{value:.decimals$}");
    if text
        .trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        text = format!("{:.decimals$}", 0.0);
    }
    let mut out = String::new();
    format_cell(ColumnType::Number, &text, &mut out);
    out
}

/// Days since 1970-01-01 of an ISO 8601 date (`2021`, `2021-04`, `2021-05-21`, with or
/// without a time, which is ignored).
pub(super) fn day_number(text: &str) -> Option<i64> {
    let date = text.split('T').next()?;
    let mut parts = date.split('-');
    let year: i64 = parts.next()?.parse().ok()?;
    let month: i64 = parts.next().map_or(Some(1), |m| m.parse().ok())?;
    let day: i64 = parts.next().map_or(Some(1), |d| d.parse().ok())?;
    if parts.next().is_some() || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    // Howard Hinnant's days_from_civil.
    let y = if month <= 2 { year - 1 } else { year };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let year_of_era = y - era * 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    Some(era * 146_097 + day_of_era - 719_468)
}
