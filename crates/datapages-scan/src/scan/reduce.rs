//! A long line reduced while it streams past: M4 (Jugel et al., "M4: A Visualization-
//! Oriented Time Series Data Aggregation", VLDB 2014). The x axis is cut into at most
//! [`COLUMNS`] columns of equal width, and each column keeps, per series, only its first
//! and last point (by x) and its lowest and highest (by value). Drawn as one path, these
//! four points per column give the same pixels as every point would, and the global
//! minimum and maximum are always among them.
//!
//! The x range is not known until the file ends, so the columns are widths of `2^shift`
//! aligned at zero: when a point falls outside the [`COLUMNS`] columns held, every two
//! neighbours merge into one column of twice the width, until it fits. Memory holds at
//! most [`COLUMNS`] columns per series whatever the row count; at the end the data spans
//! more than half of them (between 800 and 1,600 columns across).

use std::collections::{BTreeMap, HashMap};

use super::point::{ChartGap, ChartPoint};

/// The most columns kept: the widest plot the layout is planned for, in pixels.
pub const COLUMNS: i64 = 1600;

/// A point with its position on the x axis.
#[derive(Debug, Clone, PartialEq)]
struct Kept {
    at: f64,
    point: ChartPoint,
}

/// One column of one series.
#[derive(Debug, Clone, PartialEq, Default)]
struct Column {
    /// First, last, lowest and highest point, once there is one.
    ends: Option<[Kept; 4]>,
    /// The leftmost row of this column with no value: the line breaks there.
    gap: Option<(f64, String)>,
}

const FIRST: usize = 0;
const LAST: usize = 1;
const LOW: usize = 2;
const HIGH: usize = 3;

impl Column {
    /// Takes `point` where it is a new first, last, lowest or highest; an earlier point
    /// wins a tie.
    fn offer(&mut self, at: f64, y: f64, point: &dyn Fn() -> ChartPoint) {
        let Some(ends) = &mut self.ends else {
            let kept = Kept { at, point: point() };
            self.ends = Some([kept.clone(), kept.clone(), kept.clone(), kept]);
            return;
        };
        let replace = [
            at < ends[FIRST].at,
            at > ends[LAST].at,
            y < ends[LOW].point.y,
            y > ends[HIGH].point.y,
        ];
        for (slot, take) in replace.into_iter().enumerate() {
            if take {
                ends[slot] = Kept { at, point: point() };
            }
        }
    }

    fn offer_gap(&mut self, at: f64, x: &str) {
        if self.gap.as_ref().is_none_or(|(was, _)| at < *was) {
            self.gap = Some((at, x.to_string()));
        }
    }

    /// Adds a column that comes later (in x, or in the file on a tie).
    fn absorb(&mut self, later: Column) {
        if let Some(ends) = later.ends {
            for kept in ends {
                let (at, y, point) = (kept.at, kept.point.y, kept.point.clone());
                self.offer(at, y, &|| point.clone());
            }
        }
        if let Some((at, x)) = later.gap {
            self.offer_gap(at, &x);
        }
    }
}

/// The reduction of one chart, fed point by point.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct M4 {
    /// Columns are `2^shift` wide.
    shift: i32,
    /// Series names in order of appearance (`None`: the chart has no series).
    series: Vec<Option<String>>,
    by_name: HashMap<Option<String>, usize>,
    /// (series, column index) -> column.
    columns: BTreeMap<(usize, i64), Column>,
    /// The lowest and highest column index held, across series.
    span: Option<(i64, i64)>,
    /// Points offered.
    pub rows: u64,
}

impl M4 {
    /// A reduction whose first columns fit `lo..=hi` (the points seen so far).
    pub fn new(lo: f64, hi: f64) -> M4 {
        let range = hi - lo;
        let shift = if range > 0.0 && range.is_finite() {
            (range / COLUMNS as f64).log2().floor() as i32
        } else {
            0
        };
        M4 {
            shift,
            ..M4::default()
        }
    }

    fn width(&self) -> f64 {
        2f64.powi(self.shift)
    }

    fn series_index(&mut self, series: Option<&str>) -> usize {
        let key = series.map(str::to_string);
        if let Some(i) = self.by_name.get(&key) {
            return *i;
        }
        self.series.push(key.clone());
        self.by_name.insert(key, self.series.len() - 1);
        self.series.len() - 1
    }

    /// The column of `at`, after widening the columns until it fits among the held ones.
    fn column(&mut self, series: usize, at: f64) -> &mut Column {
        loop {
            let index = (at / self.width()).floor() as i64;
            let (lo, hi) = self.span.unwrap_or((index, index));
            let (lo, hi) = (lo.min(index), hi.max(index));
            if hi - lo < COLUMNS || self.shift >= 1000 {
                self.span = Some((lo, hi));
                return self.columns.entry((series, index)).or_default();
            }
            self.widen();
        }
    }

    /// Merges every two neighbouring columns into one of twice the width.
    fn widen(&mut self) {
        self.shift += 1;
        let old = std::mem::take(&mut self.columns);
        for ((series, index), column) in old {
            match self.columns.entry((series, index.div_euclid(2))) {
                std::collections::btree_map::Entry::Vacant(slot) => {
                    slot.insert(column);
                }
                std::collections::btree_map::Entry::Occupied(mut slot) => {
                    slot.get_mut().absorb(column);
                }
            }
        }
        self.span = self
            .span
            .map(|(lo, hi)| (lo.div_euclid(2), hi.div_euclid(2)));
    }

    /// Offers the point at `at` of `series`; `point` makes it only when it is kept.
    pub fn offer(&mut self, series: Option<&str>, at: f64, y: f64, point: &dyn Fn() -> ChartPoint) {
        self.rows += 1;
        let series = self.series_index(series);
        self.column(series, at).offer(at, y, point);
    }

    /// A row of `series` at `at` with no value.
    pub fn offer_gap(&mut self, series: Option<&str>, at: f64, x: &str) {
        let series = self.series_index(series);
        self.column(series, at).offer_gap(at, x);
    }

    /// Adds the reduction of a later stretch of the file.
    pub fn merge(&mut self, mut later: M4) {
        while later.shift < self.shift {
            later.widen();
        }
        while self.shift < later.shift {
            self.widen();
        }
        self.rows += later.rows;
        // Positions in the later columns' width: ours may widen on the way.
        let width = later.width();
        let names = later.series;
        for ((series, index), column) in later.columns {
            let mine = self.series_index(names[series].as_deref());
            let at = index as f64 * width;
            let kept = self.column(mine, at);
            kept.absorb(column);
        }
    }

    /// How many columns the data spans.
    pub fn span(&self) -> u64 {
        self.span.map_or(0, |(lo, hi)| (hi - lo + 1) as u64)
    }

    /// The kept points, each series in x order, and the gaps.
    pub fn finish(self) -> (Vec<ChartPoint>, Vec<ChartGap>) {
        let mut points = Vec::new();
        let mut gaps = Vec::new();
        for ((series, _), column) in self.columns {
            if let Some(mut ends) = column.ends.map(Vec::from) {
                ends.sort_by(|a, b| a.at.total_cmp(&b.at));
                ends.dedup_by(|a, b| a.at == b.at && a.point.y == b.point.y);
                points.extend(ends.into_iter().map(|kept| kept.point));
            }
            if let Some((_, x)) = column.gap {
                gaps.push(ChartGap {
                    x,
                    series: self.series[series].clone(),
                });
            }
        }
        (points, gaps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(x: f64, y: f64) -> ChartPoint {
        ChartPoint {
            x: x.to_string(),
            series: None,
            y,
            y_text: y.to_string(),
        }
    }

    fn feed(m4: &mut M4, xs: impl Iterator<Item = f64>, f: impl Fn(f64) -> f64) {
        for x in xs {
            let y = f(x);
            m4.offer(None, x, y, &|| point(x, y));
        }
    }

    #[test]
    fn a_million_points_keep_the_extremes_in_at_most_four_points_per_column() {
        let mut m4 = M4::new(0.0, 100.0);
        let wave = |x: f64| (x / 500.0).sin() * 10.0 + x / 1e5;
        feed(&mut m4, (0..1_000_000).map(f64::from), |x| match x as u64 {
            424_242 => 1000.0,
            777_777 => -1000.0,
            _ => wave(x),
        });
        assert_eq!(m4.rows, 1_000_000);
        let span = m4.span();
        assert!(
            span > COLUMNS as u64 / 2 && span <= COLUMNS as u64,
            "{span}"
        );
        let (points, gaps) = m4.finish();
        assert!(gaps.is_empty());
        assert!(points.len() as u64 <= 4 * span, "{}", points.len());
        let max = points.iter().map(|p| p.y).fold(f64::MIN, f64::max);
        let min = points.iter().map(|p| p.y).fold(f64::MAX, f64::min);
        assert_eq!((min, max), (-1000.0, 1000.0));
        let at_max = points.iter().find(|p| p.y == 1000.0).unwrap();
        assert_eq!(at_max.x, "424242");
        // In x order, first and last included.
        let xs: Vec<f64> = points.iter().map(|p| p.x.parse().unwrap()).collect();
        assert!(xs.windows(2).all(|w| w[0] < w[1]));
        assert_eq!((xs[0], xs[xs.len() - 1]), (0.0, 999_999.0));
    }

    #[test]
    fn points_out_of_order_and_below_zero_widen_the_columns_both_ways() {
        let mut m4 = M4::new(0.0, 1.0);
        feed(&mut m4, (0..10_000).map(|i| f64::from(i) * -1.5), |x| x);
        feed(&mut m4, (0..10_000).map(|i| f64::from(i) * 2.5), |x| x);
        assert!(m4.span() <= COLUMNS as u64);
        let (points, _) = m4.finish();
        let ys: Vec<f64> = points.iter().map(|p| p.y).collect();
        assert!(ys.contains(&(-1.5 * 9_999.0)) && ys.contains(&(2.5 * 9_999.0)));
    }

    #[test]
    fn two_halves_merged_equal_one_pass() {
        let f = |x: f64| (x * 0.37).cos() * x;
        let mut whole = M4::new(0.0, 10.0);
        feed(&mut whole, (0..50_000).map(f64::from), f);
        let mut first = M4::new(0.0, 10.0);
        feed(&mut first, (0..20_000).map(f64::from), f);
        let mut second = M4::new(20_000.0, 20_010.0);
        feed(&mut second, (20_000..50_000).map(f64::from), f);
        first.merge(second);
        assert_eq!(first.rows, whole.rows);
        assert_eq!(first.finish(), whole.finish());
    }

    #[test]
    fn a_gap_is_kept_per_column_and_series() {
        let mut m4 = M4::new(0.0, 10.0);
        feed(&mut m4, (0..100).map(f64::from), |x| x);
        m4.offer_gap(None, 50.5, "50.5");
        // In the same column (1/256 wide here): only the leftmost is kept.
        m4.offer_gap(None, 50.501, "50.501");
        m4.offer_gap(Some("b"), 20.0, "20");
        let (_, gaps) = m4.finish();
        let xs: Vec<(&str, Option<&str>)> = gaps
            .iter()
            .map(|g| (g.x.as_str(), g.series.as_deref()))
            .collect();
        assert_eq!(xs, [("50.5", None), ("20", Some("b"))]);
    }
}
