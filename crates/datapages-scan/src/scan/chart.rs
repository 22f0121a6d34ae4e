//! Chart points, collected during the scan: which rows each chart keeps, the points read
//! from them (capped per chart, or reduced for a long line), the rows a line breaks at,
//! the lowest and highest value, and the warning for charts that hit the cap.

use std::path::Path;

pub use super::point::{ChartGap, ChartPoint};
use super::reduce::M4;
use crate::content::iso8601::day_position;
use crate::diagnostics::Diagnostic;
use crate::schema::{format_cell, ColumnType};

/// Most points one chart keeps; past this a line on a number or date axis is reduced
/// (see `reduce`), and any other chart counts the rest, reports them and does not draw
/// them, so a chart of a million-row table stays a readable, bounded SVG.
pub const CHART_POINTS_CAP: usize = 5_000;

/// How a continuous x axis reads a cell as a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum XPosition {
    /// The number itself.
    Number,
    /// Days since 1970-01-01 UTC of an ISO 8601 date or date-time (the time as a fraction).
    Date,
}

impl XPosition {
    /// The position of `x`, if it has one.
    pub fn at(self, x: &str) -> Option<f64> {
        match self {
            XPosition::Number => x.parse::<f64>().ok().filter(|v| v.is_finite()),
            XPosition::Date => day_position(x),
        }
    }
}

/// Which columns a chart reads (by index in the CSV) and which rows it keeps.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartColumns {
    /// The chart's id, for messages.
    pub id: String,
    pub x: usize,
    pub y: usize,
    pub series: Option<usize>,
    /// When `y` names several columns: each with its name; every kept row gives one point
    /// per column, whose series is the column's name (`y` is then the first of them).
    pub columns_as_series: Vec<(usize, String)>,
    /// A row is kept when, for every entry, its cell text is one of the values.
    pub filter: Vec<(usize, Vec<String>)>,
    /// A line that breaks where rows have no value: those rows are noted as its gaps.
    pub gaps: bool,
    /// A line on a number or date axis: past the cap, its points are reduced, not cut.
    pub reduce: Option<XPosition>,
}

/// The lowest or highest value a chart's rows hold, and where.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Extreme {
    pub y: f64,
    /// As the table shows it.
    pub y_text: String,
    /// The byte offset of its row in the CSV (`scan::line_at` finds the line when a
    /// message needs it).
    pub byte: u64,
}

/// How a long line was reduced (see `reduce`).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Reduced {
    /// Points the rows gave.
    pub rows: u64,
    /// Columns across, each keeping its first, last, lowest and highest point per series.
    pub columns: u64,
}

/// What one chart collected during the scan.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChartPoints {
    pub points: Vec<ChartPoint>,
    /// Where a line breaks (empty when it joins over rows with no value).
    #[serde(default)]
    pub gaps: Vec<ChartGap>,
    /// The lowest and highest drawn value of all rows the filter kept.
    #[serde(default)]
    pub lowest: Option<Extreme>,
    #[serde(default)]
    pub highest: Option<Extreme>,
    /// Set when the points are a reduction of more.
    #[serde(default)]
    pub reduced: Option<Reduced>,
    /// The reduction while the scan runs.
    #[serde(skip)]
    reducer: Option<Box<M4>>,
    /// Rows the filter kept whose `y` cell is empty: not drawn, and said so.
    pub missing: u64,
    /// Rows the filter kept whose `y` is NaN, INF or -INF: not drawn, and said so.
    #[serde(default)]
    pub not_finite: u64,
    /// Points past `CHART_POINTS_CAP`: not drawn, and said so.
    pub dropped: u64,
}

impl ChartColumns {
    /// Adds the points of one well-formed record starting at `byte`, if the filter keeps
    /// it: one, or one per column of [`ChartColumns::columns_as_series`].
    pub(super) fn collect(
        &self,
        record: &csv::ByteRecord,
        columns: &[super::CompiledColumn],
        byte: u64,
        into: &mut ChartPoints,
    ) {
        let cell = |index: usize| std::str::from_utf8(record.get(index).unwrap_or_default()).ok();
        let kept = self.filter.iter().all(|(index, values)| {
            cell(*index).is_some_and(|text| values.iter().any(|v| v == text))
        });
        if !kept {
            return;
        }
        if self.columns_as_series.is_empty() {
            let series = self.series.map(|index| cell(index).unwrap_or_default());
            self.collect_y(record, self.y, columns, series, byte, into);
        }
        for (index, name) in &self.columns_as_series {
            self.collect_y(record, *index, columns, Some(name), byte, into);
        }
    }

    /// Adds the point of column `y_index` of a kept record, in `series`.
    fn collect_y(
        &self,
        record: &csv::ByteRecord,
        y_index: usize,
        columns: &[super::CompiledColumn],
        series: Option<&str>,
        byte: u64,
        into: &mut ChartPoints,
    ) {
        let Some(y_column) = columns.get(y_index) else {
            return;
        };
        let column_type = y_column.spec.column_type;
        let cell = |index: usize| std::str::from_utf8(record.get(index).unwrap_or_default()).ok();
        let Some(y_cell) = cell(y_index) else { return };
        // Numbers in decimal commas or with group marks are drawn and shown as plain ones;
        // a formatted date is drawn (and named) as pages show it.
        let (mut plain_y, mut plain_x) = (String::new(), String::new());
        let mut x = cell(self.x).unwrap_or_default();
        if let Some(x_column) = columns.get(self.x) {
            if let Some(format) = x_column.date_format.as_ref() {
                if format.canonical(x, &mut plain_x) {
                    x = &plain_x;
                }
            } else if !x_column.missing.is_missing(x) {
                x = x_column.marks.plain(x, &mut plain_x).unwrap_or(x);
            }
        }
        if y_column.missing.is_missing(y_cell) {
            into.missing += 1;
            if self.gaps {
                into.gap(self, x, series);
            }
            return;
        }
        let y_cell = match y_column.spec.non_finite_spelling() {
            Some(spelling) => spelling.read(y_cell),
            None => y_cell,
        };
        // A cell of the wrong type is reported by the type check; it is not drawn.
        let Some(y_cell) = y_column.marks.plain(y_cell, &mut plain_y) else {
            return;
        };
        let Ok(y) = y_cell.parse::<f64>() else { return };
        if column_type.check(y_cell).is_err() {
            return;
        }
        if !y.is_finite() {
            into.not_finite += 1;
            return;
        }
        let text = || {
            let mut y_text = String::new();
            format_cell(column_type, y_cell, &mut y_text);
            y_text
        };
        if into.lowest.as_ref().is_none_or(|low| y < low.y) {
            into.lowest = Some(Extreme {
                y,
                y_text: text(),
                byte,
            });
        }
        if into.highest.as_ref().is_none_or(|high| y > high.y) {
            into.highest = Some(Extreme {
                y,
                y_text: text(),
                byte,
            });
        }
        let point = || ChartPoint {
            x: x.to_string(),
            series: series.map(str::to_string),
            y,
            y_text: text(),
        };
        into.push(self, x, series, y, &point);
    }
}

impl ChartPoints {
    /// Keeps a point: as it is under the cap, in the reduction past it for a line that
    /// can be reduced, else counted as dropped.
    fn push(
        &mut self,
        chart: &ChartColumns,
        x: &str,
        series: Option<&str>,
        y: f64,
        point: &dyn Fn() -> ChartPoint,
    ) {
        if self.reducer.is_none() && self.points.len() + self.gaps.len() >= CHART_POINTS_CAP {
            self.start_reducing(chart);
        }
        match (&mut self.reducer, chart.reduce) {
            (Some(m4), Some(position)) => match position.at(x) {
                Some(at) => m4.offer(series, at, y, point),
                // Not drawn by the chart either; the type check reports the cell.
                None => self.dropped += 1,
            },
            _ if self.points.len() + self.gaps.len() < CHART_POINTS_CAP => {
                self.points.push(point());
            }
            _ => self.dropped += 1,
        }
    }

    /// Notes a row with no value where the line breaks.
    fn gap(&mut self, chart: &ChartColumns, x: &str, series: Option<&str>) {
        if self.reducer.is_none() && self.points.len() + self.gaps.len() >= CHART_POINTS_CAP {
            self.start_reducing(chart);
        }
        match (&mut self.reducer, chart.reduce) {
            (Some(m4), Some(position)) => {
                if let Some(at) = position.at(x) {
                    m4.offer_gap(series, at, x);
                }
            }
            // Past the cap of a chart that is not reduced its points are cut, so its
            // gaps are too.
            _ if self.points.len() + self.gaps.len() < CHART_POINTS_CAP => {
                self.gaps.push(ChartGap {
                    x: x.to_string(),
                    series: series.map(str::to_string),
                });
            }
            _ => {}
        }
    }

    /// Moves the points and gaps kept so far into a reduction, for a chart that has one.
    fn start_reducing(&mut self, chart: &ChartColumns) {
        let Some(position) = chart.reduce else { return };
        let (lo, hi) = self
            .points
            .iter()
            .filter_map(|p| position.at(&p.x))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), at| {
                (lo.min(at), hi.max(at))
            });
        let mut m4 = M4::new(lo, hi);
        for point in std::mem::take(&mut self.points) {
            match position.at(&point.x) {
                Some(at) => m4.offer(point.series.as_deref(), at, point.y, &|| point.clone()),
                None => self.dropped += 1,
            }
        }
        for gap in std::mem::take(&mut self.gaps) {
            if let Some(at) = position.at(&gap.x) {
                m4.offer_gap(gap.series.as_deref(), at, &gap.x);
            }
        }
        self.reducer = Some(Box::new(m4));
    }

    /// Appends what a later stretch of the file collected, as if one pass had read it
    /// after this one's (the cap and the reduction still apply); `offset` turns its byte
    /// offsets into the file's.
    pub(super) fn append(
        &mut self,
        later: ChartPoints,
        chart: &ChartColumns,
        offset: &dyn Fn(u64) -> u64,
    ) {
        self.missing += later.missing;
        self.not_finite += later.not_finite;
        self.dropped += later.dropped;
        let shifted = |extreme: Option<Extreme>| {
            extreme.map(|e| Extreme {
                byte: offset(e.byte),
                ..e
            })
        };
        if let Some(low) = shifted(later.lowest) {
            if self.lowest.as_ref().is_none_or(|mine| low.y < mine.y) {
                self.lowest = Some(low);
            }
        }
        if let Some(high) = shifted(later.highest) {
            if self.highest.as_ref().is_none_or(|mine| high.y > mine.y) {
                self.highest = Some(high);
            }
        }
        for point in later.points {
            let at = point.x.clone();
            self.push(chart, &at, point.series.as_deref(), point.y, &|| {
                point.clone()
            });
        }
        for gap in later.gaps {
            self.gap(chart, &gap.x, gap.series.as_deref());
        }
        if let Some(theirs) = later.reducer {
            if self.reducer.is_none() {
                self.start_reducing(chart);
            }
            if let Some(mine) = &mut self.reducer {
                mine.merge(*theirs);
            }
        }
    }

    /// The points once the scan is done: a reduction becomes the points it kept.
    pub(super) fn finished(mut self) -> ChartPoints {
        if let Some(m4) = self.reducer.take() {
            self.reduced = Some(Reduced {
                rows: m4.rows,
                columns: m4.span(),
            });
            let (points, gaps) = m4.finish();
            self.points = points;
            self.gaps = gaps;
        }
        self
    }
}

/// A warning for each chart that collected more points than it draws.
pub(super) fn cap_warnings(
    display: &Path,
    charts: &[ChartColumns],
    collected: &[ChartPoints],
) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    for (chart, points) in charts.iter().zip(collected) {
        if points.dropped > 0 {
            let (mut cap, mut total) = (String::new(), String::new());
            format_cell(ColumnType::Integer, &CHART_POINTS_CAP.to_string(), &mut cap);
            let count = points.points.len() as u64 + points.dropped;
            format_cell(ColumnType::Integer, &count.to_string(), &mut total);
            warnings.push(
                Diagnostic::warning(
                    display,
                    format!(
                        "chart `{}` draws only the first {cap} of {total} points",
                        chart.id
                    ),
                )
                .with_hint("narrow the chart with `filter = { column = [\"value\"] }`"),
            );
        }
    }
    warnings
}
