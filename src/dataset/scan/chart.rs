//! Chart points, collected during the scan: which rows each chart keeps, the points read
//! from them (capped per chart), and the warning for charts that hit the cap.

use std::path::Path;

use crate::dataset::schema::{format_cell, ColumnType};
use crate::diagnostics::Diagnostic;

/// Most points one chart keeps; past this the rest are counted, reported and not drawn,
/// so a chart of a million-row table stays a readable, bounded SVG.
pub const CHART_POINTS_CAP: usize = 5_000;

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
}

/// One point of a chart, read from one row.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChartPoint {
    pub x: String,
    pub series: Option<String>,
    pub y: f64,
    /// `y` as the table shows it (`10,366`, `1.969`), for labels.
    pub y_text: String,
}

/// What one chart collected during the scan.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChartPoints {
    pub points: Vec<ChartPoint>,
    /// Rows the filter kept whose `y` cell is empty: not drawn, and said so.
    pub missing: u64,
    /// Rows the filter kept whose `y` is NaN, INF or -INF: not drawn, and said so.
    #[serde(default)]
    pub not_finite: u64,
    /// Points past [`CHART_POINTS_CAP`]: not drawn, and said so.
    pub dropped: u64,
}

impl ChartColumns {
    /// Adds the points of one well-formed record, if the filter keeps it: one, or one per
    /// column of [`ChartColumns::columns_as_series`].
    pub(super) fn collect(
        &self,
        record: &csv::ByteRecord,
        columns: &[super::CompiledColumn],
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
            let series = self
                .series
                .map(|index| cell(index).unwrap_or_default().to_string());
            self.collect_y(record, self.y, columns, series, into);
        }
        for (index, name) in &self.columns_as_series {
            self.collect_y(record, *index, columns, Some(name.clone()), into);
        }
    }

    /// Adds the point of column `y` of a kept record, in `series`.
    fn collect_y(
        &self,
        record: &csv::ByteRecord,
        y: usize,
        columns: &[super::CompiledColumn],
        series: Option<String>,
        into: &mut ChartPoints,
    ) {
        let Some(y_column) = columns.get(y) else {
            return;
        };
        let column_type = y_column.spec.column_type;
        let cell = |index: usize| std::str::from_utf8(record.get(index).unwrap_or_default()).ok();
        let Some(y_cell) = cell(y) else { return };
        if y_column.missing.is_missing(y_cell) {
            into.missing += 1;
            return;
        }
        // A cell of the wrong type is reported by the type check; it is not drawn.
        let Ok(value) = y_cell.parse::<f64>() else {
            return;
        };
        if column_type.check(y_cell).is_err() {
            return;
        }
        if !value.is_finite() {
            into.not_finite += 1;
            return;
        }
        if into.points.len() >= CHART_POINTS_CAP {
            into.dropped += 1;
            return;
        }
        let mut y_text = String::new();
        format_cell(column_type, y_cell, &mut y_text);
        into.points.push(ChartPoint {
            x: cell(self.x).unwrap_or_default().to_string(),
            series,
            y: value,
            y_text,
        });
    }
}

impl ChartPoints {
    /// Appends the points a later stretch of the file collected, as if one pass had read
    /// them after this one's (the cap still applies).
    pub(super) fn append(&mut self, later: ChartPoints) {
        self.missing += later.missing;
        self.not_finite += later.not_finite;
        self.dropped += later.dropped;
        for point in later.points {
            if self.points.len() < CHART_POINTS_CAP {
                self.points.push(point);
            } else {
                self.dropped += 1;
            }
        }
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
