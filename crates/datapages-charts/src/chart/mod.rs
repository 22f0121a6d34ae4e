//! Charts drawn at build time: a chart's spec and the points the CSV scan collected
//! become one SVG string. Pure (no I/O) and deterministic: the same input gives the same
//! bytes.
//!
//! Horizontal positions are percentages of the SVG's width and vertical positions are
//! pixels, with no `viewBox`. Text therefore keeps its size at any width (readable on a
//! 360 px phone, not oversized on a wide screen) while bars, lines and gridlines stretch.
//! The layout is planned (see `place`) so that no label meets another label, a mark or a
//! line at any width from [`NARROWEST`] to `place::WIDEST` pixels; tests/it/chart_overlap.rs
//! measures it in a browser.
//! A chart's `.svg` file carries its own `<style>` with a dark variant, so it follows the
//! reader's colour scheme when opened alone; a chart inside a page has none: the same rules
//! are in the site's stylesheet (static/style.css, one cached file, kept equal by a test).

pub mod aggregate;
#[cfg(test)]
mod axis_tests;
mod breaks;
mod describe;
mod direct_labels;
pub mod fit;
mod log;
mod place;
mod rows;
mod scale;
mod svg;
#[cfg(test)]
mod test_words;
#[cfg(test)]
mod tests;
mod time;
mod xy;

use std::fmt::Write as _;

use crate::content::{ChartKind, YScale};
use crate::locale::NumberMarks;
use crate::scan::{ChartGap, ChartPoint, Reduced};
use crate::text::escape_html_into;
use describe::{describe, notes};
use rows::rows_layout;
use scale::series_names;
use svg::Body;
pub use svg::STYLE;
use xy::xy_layout;

/// The narrowest width, in pixels, the layout is planned for (a 360 px phone, less margins).
pub const NARROWEST: f64 = 300.0;

/// Points a single-series chart still labels with their values.
pub(super) const LABELLED_POINTS: usize = 12;

/// Points a line chart still marks one by one (each marker carries its exact value);
/// past this, a series is drawn as one path, which a reader follows better than a rope
/// of markers, and the values are in the table and the CSV.
pub(super) const MARKED_LINE_POINTS: usize = 100;

/// The height of a line or scatter chart's plot, in pixels.
pub(super) const PLOT_HEIGHT: f64 = 180.0;

/// Whether a line chart marks its points: while there are at most
/// [`MARKED_LINE_POINTS`] and, on a number or date axis (where points sit exactly at
/// their values), no two series have markers on one x within 10 pixels of each other,
/// which would hide one (on categories, crowded series move apart instead).
pub(super) fn line_is_marked(chart: &ChartInput) -> bool {
    if chart.points.len() > MARKED_LINE_POINTS {
        return false;
    }
    if chart.x_scale == XScale::Category {
        return true;
    }
    let axis = scale::value_axis(chart);
    // Apart on the plot, in pixels (on a log axis too).
    let apart = |a: f64, b: f64| (axis.fraction(b) - axis.fraction(a)).abs() * PLOT_HEIGHT;
    // Grey context lines carry no markers.
    let highlight = chart.many.highlight;
    let mut at: Vec<(&str, f64, Option<&str>)> = chart
        .points
        .iter()
        .filter(|p| {
            highlight.is_empty()
                || highlight
                    .iter()
                    .any(|h| Some(h.as_str()) == p.series.as_deref())
        })
        .map(|p| (p.x.as_str(), p.y, p.series.as_deref()))
        .collect();
    at.sort_by(|a, b| a.0.cmp(b.0).then(a.1.total_cmp(&b.1)));
    !at.windows(2)
        .any(|w| w[0].0 == w[1].0 && w[0].2 != w[1].2 && apart(w[0].1, w[1].1) < 10.0)
}

/// Points the description (read by screen readers) lists one by one.
pub(super) const DESCRIBED_POINTS: usize = 40;

/// How the horizontal axis of a line or dot chart places `x`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum XScale {
    /// Evenly spaced, in the order the values first appear.
    Category,
    /// A linear scale of numbers.
    Number,
    /// A linear time scale of ISO 8601 dates.
    Date,
}

/// Everything a chart needs: the words from the spec and columns, and the points.
#[derive(Debug, Clone)]
pub struct ChartInput<'a> {
    /// The chart id: prefixes ids inside the SVG so several charts can share a page.
    pub id: &'a str,
    pub kind: ChartKind,
    pub title: &'a str,
    /// Column titles, units included: they label the axes.
    pub x_title: &'a str,
    pub y_title: &'a str,
    pub series_title: Option<&'a str>,
    pub x_scale: XScale,
    pub points: &'a [ChartPoint],
    /// Rows kept by the filter but without a value: not drawn, and the chart says so.
    pub missing: u64,
    /// Rows kept by the filter whose value is NaN, INF or -INF: not drawn, and said so.
    pub not_finite: u64,
    /// Points past the cap: not drawn, and the chart says so.
    pub dropped: u64,
    /// The spec's `y_zero`: whether a line or dot chart's value axis starts at zero
    /// (`None`: where zero is near the data).
    pub y_zero: Option<bool>,
    /// Several series: which are highlighted, how rows were aggregated.
    pub many: ManySeries<'a>,
    /// The spec's `y_scale` (linear when absent).
    pub y_scale: YScale,
    /// The spec's `y_min` and `y_max`: the value axis reaches at least that far.
    pub y_min: Option<f64>,
    pub y_max: Option<f64>,
    /// Rows of a line with no value: the line breaks there (none with `connect_gaps`).
    pub gaps: &'a [ChartGap],
    /// Set when `points` are a reduction of a longer line (see `dataset::scan`'s M4).
    pub reduced: Option<Reduced>,
    /// The value column's `digits` (of every `y` column, when they agree): ticks at
    /// least at that many decimals. Points carry their own text.
    pub y_digits: Option<u32>,
    /// How the x column's values are shown (its `digits`, date format, years).
    pub x_shown: XShown,
    /// The page's words and number marks: the chart's sentences and numbers are in them.
    pub words: &'a dyn Words,
}

/// The page's words as a chart uses them: its number marks and its messages (the
/// application's message catalogue, `i18n::Words`, is one).
pub trait Words: std::fmt::Debug + Sync {
    /// The number marks of the page's language.
    fn marks(&self) -> &NumberMarks;

    /// The message `id` of the page's language as plain text (the SVG escapes it), its
    /// plural form chosen by `count` (also its argument `n`, grouped in the page's marks).
    fn say(&self, id: &str, count: Option<u64>, args: &[(&str, &str)]) -> String;
}

/// How the x column's values are shown, as the table shows them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct XShown {
    /// The x column's `digits` (a number axis): ticks and point texts at them.
    pub digits: Option<u32>,
    /// The x column's date `format` (a time axis): ticks on its periods, in its style.
    pub dates: Option<crate::content::date_format::DateKind>,
    /// The x column's numbers have no group marks (`crate::shown::ungrouped`:
    /// years, codes).
    pub years: bool,
    /// The x column is an `integer` column: ticks a whole number apart at least.
    pub whole: bool,
}

impl ChartInput<'_> {
    /// A point's x as the table shows it: at the x column's `digits` on a number axis.
    pub(super) fn x_text(&self, x: &str) -> String {
        let number = x.parse::<f64>().ok().filter(|v| v.is_finite());
        match (self.x_scale, self.x_shown.digits, number) {
            (XScale::Number, Some(digits), Some(v)) if !self.x_shown.years => {
                self.number(&crate::shown::fixed(v, digits))
            }
            (XScale::Number, _, Some(_)) => self.number(x),
            _ => x.to_string(),
        }
    }

    /// A number written the English way (`1,234.5`) in the page's marks.
    pub(super) fn number(&self, english: &str) -> String {
        self.words.marks().number(english).into_owned()
    }

    /// The message `id` of the page's language as plain text (the SVG escapes it), its
    /// plural form by `count`.
    pub(super) fn say(&self, id: &str, count: Option<u64>, args: &[(&str, &str)]) -> String {
        self.words.say(id, count, args)
    }
}

/// What a chart of several series adds to its input.
#[derive(Debug, Clone, Default)]
pub struct ManySeries<'a> {
    /// The series drawn in colour and labelled; the others are grey context lines. Empty:
    /// every series in colour.
    pub highlight: &'a [String],
    /// The `aggregate` the points were made with and how many rows it summarised.
    pub aggregated: Option<(crate::content::Aggregate, u64)>,
    /// The names of the `y` columns when the chart draws several, one series each.
    pub y_columns: &'a [String],
    /// What the chart summarised to fit its size budget (see `fit`), said first.
    pub summary: Option<String>,
}

/// Where a chart goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// Inside a page, under an HTML heading that carries the visible title; styled by the
    /// site's stylesheet.
    Inline,
    /// A file of its own: an XML declaration, the title drawn in the chart, its own style.
    File,
}

/// The chart's points with their values in the page's number marks (`None`: English
/// marks, the points as they are).
fn localized_points(chart: &ChartInput) -> Option<Vec<ChartPoint>> {
    let marks = chart.words.marks();
    if *marks == NumberMarks::english() {
        return None;
    }
    let localized = |p: &ChartPoint| ChartPoint {
        y_text: marks.number(&p.y_text).into_owned(),
        ..p.clone()
    };
    Some(chart.points.iter().map(localized).collect())
}

/// Whether the chart is drawn as rows of categories (bars, and dots by category), from
/// zero, rather than on a value axis fitted to the data.
pub(super) fn is_category_rows(chart: &ChartInput) -> bool {
    matches!(chart.kind, ChartKind::Bar | ChartKind::GroupedBar)
        || chart.x_scale == XScale::Category && chart.kind == ChartKind::Dot
}

/// Renders the chart as SVG.
pub fn render(chart: &ChartInput, placement: Placement) -> String {
    let localized = localized_points(chart);
    let chart = &ChartInput {
        points: localized.as_deref().unwrap_or(chart.points),
        ..chart.clone()
    };
    let series = series_names(chart.points);
    let mut body = Body::default();
    let mut y = match placement {
        Placement::Inline => 0.0,
        Placement::File => body.wrapped(chart.title, (0.0, 18.0), "h", NARROWEST, 20.0) + 8.0,
    };
    let mut unplaced = 0;
    y = if is_category_rows(chart) {
        rows_layout(chart, &series, &mut body, y)
    } else {
        let (next, skipped) = xy_layout(chart, &series, &mut body, y);
        unplaced = skipped;
        next
    };
    for note in notes(chart, unplaced) {
        y = body.wrapped(&note, (0.0, y + 20.0), "m", NARROWEST, 16.0);
    }
    let height = (y + 10.0).ceil();
    let id = chart.id;
    let style = match placement {
        Placement::Inline => "",
        Placement::File => STYLE,
    };
    let mut out = String::with_capacity(body.out.len() + style.len() + 1024);
    if placement == Placement::File {
        out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    }
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"dpc\" width=\"100%\" height=\"{height}\" role=\"img\" aria-labelledby=\"dpc-{id}-title dpc-{id}-desc\">\n<title id=\"dpc-{id}-title\">"
    );
    escape_html_into(chart.title, &mut out);
    let _ = write!(out, "</title>\n<desc id=\"dpc-{id}-desc\">");
    escape_html_into(&describe(chart, &series, unplaced), &mut out);
    out.push_str("</desc>\n");
    if !style.is_empty() {
        let _ = writeln!(out, "<style>{style}</style>");
    }
    out.push_str("<rect class=\"bg\" width=\"100%\" height=\"100%\"/>\n");
    out.push_str(&body.out);
    out.push_str("</svg>");
    if placement == Placement::File {
        out.push('\n');
    }
    out
}
