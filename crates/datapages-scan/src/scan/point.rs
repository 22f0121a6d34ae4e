//! What a chart keeps of a row: a point (x, series, value), or a gap where a line's row
//! has no value.

/// One point of a chart, read from one row.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChartPoint {
    pub x: String,
    pub series: Option<String>,
    pub y: f64,
    /// `y` as the table shows it (`10,366`, `1.969`), for labels.
    pub y_text: String,
}

/// A row of a line kept by the filter but with no value: the line breaks at its `x`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChartGap {
    pub x: String,
    pub series: Option<String>,
}
