//! Scales and ticks: series and categories in order of appearance, value ranges, round
//! tick values and their labels, and dates as day numbers.

pub(super) use crate::content::iso8601::day_number;
use crate::content::YScale;
use crate::locale::NumberMarks;
use crate::scan::ChartPoint;

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

/// A line or dot chart's value axis: its ticks (the first and last are its ends) and how
/// a value maps to a height.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ValueAxis {
    pub ticks: Vec<f64>,
    /// The step between linear ticks (it sets their decimals).
    pub step: f64,
    pub log: bool,
    /// The value column's `digits`: ticks are shown at least at that many decimals.
    pub digits: Option<u32>,
    /// The page's number marks, which the labels are written in.
    pub marks: NumberMarks,
}

impl ValueAxis {
    pub fn lo(&self) -> f64 {
        self.ticks[0]
    }

    pub fn hi(&self) -> f64 {
        self.ticks[self.ticks.len() - 1]
    }

    /// Where `value` sits, from 0 at the bottom of the axis to 1 at the top.
    pub fn fraction(&self, value: f64) -> f64 {
        let (lo, hi) = (self.lo(), self.hi());
        if self.log {
            // A value at or below zero (an error the load reports) sits at the bottom.
            let value = if value > 0.0 { value } else { lo };
            (value.log10() - lo.log10()) / (hi.log10() - lo.log10())
        } else {
            (value - lo) / (hi - lo)
        }
    }

    /// A tick's label.
    pub fn label(&self, tick: f64) -> String {
        let step = if self.log { tick } else { self.step };
        let english = tick_text(tick, step, self.digits);
        self.marks.number(&english).into_owned()
    }
}

/// The value axis of a line or dot chart: linear over [`value_domain`] widened to
/// `y_min`/`y_max`, or logarithmic from the power of ten (or 1-2-5 value) at or below the
/// data to the one at or above it.
pub(super) fn value_axis(chart: &super::ChartInput) -> ValueAxis {
    let (lo, hi) = value_range(chart.points);
    let (lo, hi) = match chart.y_scale {
        YScale::Log => (lo, hi),
        YScale::Linear if chart.y_min.is_some() => (lo, value_domain(lo, hi, chart.y_zero).1),
        YScale::Linear => value_domain(lo, hi, chart.y_zero),
    };
    let lo = chart.y_min.map_or(lo, |min| min.min(lo));
    let hi = chart.y_max.map_or(hi, |max| max.max(hi));
    match chart.y_scale {
        YScale::Log => ValueAxis {
            ticks: super::log::log_ticks(lo, hi, 8),
            step: 0.0,
            log: true,
            digits: chart.y_digits,
            marks: chart.words.marks().clone(),
        },
        YScale::Linear => {
            let (ticks, step) = nice_ticks(lo, hi, 8);
            ValueAxis {
                ticks,
                step,
                log: false,
                digits: chart.y_digits,
                marks: chart.words.marks().clone(),
            }
        }
    }
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

/// A tick value with the decimals its step needs (at least the column's `digits`) and
/// thousands separators.
pub(super) fn tick_text(value: f64, step: f64, digits: Option<u32>) -> String {
    crate::shown::on_grid(value, step, digits)
}
