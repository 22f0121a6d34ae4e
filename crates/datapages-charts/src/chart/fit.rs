//! A chart's size budget: at most [`MAX_HEIGHT`] pixels tall and [`MAX_BYTES`] of SVG.
//! A chart whose marks, one per row, would not fit is drawn as a summary that says what
//! it summarised: the mean of the rows that share a category (and series), else, on rows
//! of categories, the distribution of the values (rows per range), or, on a plot, each
//! group of points that would sit on one another drawn once.

use crate::locale::NumberMarks;
use std::collections::HashSet;

use super::aggregate::aggregate;
use super::describe::{grouped, grouped_english, rows};
use super::scale::{categories, nice_ticks, tick_text, value_axis, value_range};
use super::{is_category_rows, render, ChartInput, ManySeries, Placement, XScale};
use crate::content::{Aggregate, ChartKind};
use crate::scan::ChartPoint;

/// The tallest a chart may be, in pixels.
pub const MAX_HEIGHT: f64 = 2_000.0;

/// The most bytes a chart's SVG (its file, the larger of its two forms) may take.
pub const MAX_BYTES: usize = 100_000;

/// The most ranges a distribution is divided into.
const RANGES: usize = 12;

/// Cells across and down a plot in which points would sit on one another: markers are
/// 6 px wide, so a cell of 1/120 of a 1,280 px chart's width and 180/45 = 4 px holds
/// points a reader cannot tell apart.
const CELLS_ACROSS: f64 = 120.0;
const CELLS_DOWN: f64 = 45.0;

/// A chart in both of its forms.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawn {
    /// For inside a page.
    pub inline: String,
    /// The chart's own `.svg` file.
    pub file: String,
}

/// The chart, drawn one mark per point when that fits the budget, else summarised: rows
/// of categories as the mean per category, else as the distribution of the values; a
/// plot with overlapping points drawn once, else as the mean per x.
pub fn draw(chart: &ChartInput) -> Drawn {
    let drawn = both(chart);
    if fits(&drawn.file) {
        return drawn;
    }
    let n = chart.points.len() as u64;
    if !is_category_rows(chart) {
        let drawn = draw_apart(chart);
        if fits(&drawn.file) {
            return drawn;
        }
    }
    // Rows sharing a category (and series): one mark at their mean.
    if chart.many.aggregated.is_none() && shares_x(chart.points) {
        let points = aggregate(chart.points, Aggregate::Mean);
        let input = ChartInput {
            points: &points,
            many: ManySeries {
                aggregated: Some((Aggregate::Mean, n)),
                summary: Some(chart.say("chart.fit_marks", None, &[("rows", &rows(chart, n))])),
                ..chart.many.clone()
            },
            ..chart.clone()
        };
        let drawn = both(&input);
        if fits(&drawn.file) || !is_category_rows(chart) {
            return drawn;
        }
    }
    if is_category_rows(chart) {
        return draw_distribution(chart);
    }
    draw_apart(chart)
}

/// Rows of categories as the distribution of their values: rows per range.
fn draw_distribution(chart: &ChartInput) -> Drawn {
    let points = distribution(chart.points, chart.words.marks());
    let rows_in = rows(chart, chart.points.len() as u64);
    let args = [("rows", rows_in.as_str()), ("y", chart.y_title)];
    let note = chart.say("chart.fit_ranges", None, &args);
    let title = chart.say("chart.ranges", None, &[("y", chart.y_title)]);
    let rows_title = chart.say("chart.ranges_rows", None, &[]);
    let input = ChartInput {
        kind: ChartKind::Bar,
        x_title: &title,
        y_title: &rows_title,
        series_title: None,
        x_scale: XScale::Category,
        points: &points,
        y_digits: None,
        many: ManySeries {
            summary: Some(note),
            ..ManySeries::default()
        },
        ..chart.clone()
    };
    both(&input)
}

/// A plot whose points that would sit on one another are drawn once.
fn draw_apart(chart: &ChartInput) -> Drawn {
    let points = apart(chart);
    let (rows, markers) = (
        rows(chart, chart.points.len() as u64),
        grouped(chart, points.len() as u64),
    );
    let args = [("rows", rows.as_str()), ("points", &markers)];
    let note = chart.say("chart.fit_apart", None, &args);
    let input = ChartInput {
        points: &points,
        many: ManySeries {
            summary: Some(note),
            ..chart.many.clone()
        },
        ..chart.clone()
    };
    both(&input)
}

fn both(chart: &ChartInput) -> Drawn {
    Drawn {
        inline: render(chart, Placement::Inline),
        file: render(chart, Placement::File),
    }
}

/// Whether an SVG this module drew is within the budget.
pub fn fits(svg: &str) -> bool {
    svg.len() <= MAX_BYTES && height(svg) <= MAX_HEIGHT
}

/// The height the root `<svg>` declares, in pixels.
pub fn height(svg: &str) -> f64 {
    svg.split_once("<svg ")
        .and_then(|(_, rest)| rest.split_once(" height=\""))
        .and_then(|(_, rest)| rest.split_once('"'))
        .and_then(|(number, _)| number.parse().ok())
        .unwrap_or(0.0)
}

/// Whether two points share an x and series (an aggregate would draw fewer marks).
fn shares_x(points: &[ChartPoint]) -> bool {
    let mut seen = HashSet::new();
    !points
        .iter()
        .all(|p| seen.insert((p.x.as_str(), p.series.as_deref())))
}

/// The values' distribution: rows per range of round bounds (`10–20`), every range from
/// the lowest value's to the highest's, empty ones too; the last range holds its top.
pub(super) fn distribution(points: &[ChartPoint], marks: &NumberMarks) -> Vec<ChartPoint> {
    let (lo, hi) = value_range(points);
    let (ticks, step) = nice_ticks(lo, hi, RANGES);
    if ticks.len() < 2 {
        return vec![ChartPoint {
            x: marks.number(&tick_text(lo, 1.0, None)).into_owned(),
            series: None,
            y: points.len() as f64,
            y_text: grouped_english(points.len() as u64),
        }];
    }
    let ranges = ticks.len() - 1;
    let mut counts = vec![0u64; ranges];
    for point in points.iter().filter(|p| p.y.is_finite()) {
        let at = ((point.y - ticks[0]) / step).floor().max(0.0) as usize;
        counts[at.min(ranges - 1)] += 1;
    }
    counts
        .iter()
        .enumerate()
        .map(|(i, count)| ChartPoint {
            x: format!(
                "{}–{}",
                marks.number(&tick_text(ticks[i], step, None)),
                marks.number(&tick_text(ticks[i + 1], step, None))
            ),
            series: None,
            y: *count as f64,
            y_text: grouped_english(*count),
        })
        .collect()
}

/// The points less those that would sit in one cell of the plot with an earlier point
/// of the same series: what a reader sees of an overplotted scatter, in fewer bytes.
pub(super) fn apart(chart: &ChartInput) -> Vec<ChartPoint> {
    let order = categories(chart.points);
    let across = |x: &str| match chart.x_scale {
        XScale::Category => order.iter().position(|(c, _)| *c == x).map(|i| i as f64),
        XScale::Number => x.parse::<f64>().ok().filter(|v| v.is_finite()),
        XScale::Date => crate::content::iso8601::day_position(x),
    };
    let placed: Vec<f64> = chart.points.iter().filter_map(|p| across(&p.x)).collect();
    let lo = placed.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = placed.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let width = if hi > lo { hi - lo } else { 1.0 };
    let axis = value_axis(chart);
    let mut seen = HashSet::new();
    chart
        .points
        .iter()
        .filter(|p| {
            // Points with no place on the axis are kept: the chart counts them as unplaced.
            let Some(x) = across(&p.x) else { return true };
            let cell = (
                ((x - lo) / width * CELLS_ACROSS).round() as i64,
                (axis.fraction(p.y) * CELLS_DOWN).round() as i64,
                p.series.as_deref(),
            );
            seen.insert(cell)
        })
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::tests::input;
    use super::*;

    fn point(x: &str, y: f64) -> ChartPoint {
        ChartPoint {
            x: x.into(),
            series: None,
            y,
            y_text: y.to_string(),
        }
    }

    /// nycflights13's planes: 3,322 rows, engines by type of three types.
    fn planes() -> Vec<ChartPoint> {
        let types = [
            "Fixed wing multi engine",
            "Fixed wing single engine",
            "Rotorcraft",
        ];
        (0..3322)
            .map(|i| {
                let kind = match i % 100 {
                    0..90 => 0,
                    90..99 => 1,
                    _ => 2,
                };
                point(types[kind], (i % 4 + 1) as f64)
            })
            .collect()
    }

    #[test]
    fn a_dot_per_row_too_tall_becomes_the_mean_per_category_and_says_so() {
        let points = planes();
        let chart = input(ChartKind::Dot, XScale::Category, &points);
        let whole = render(&chart, Placement::File);
        assert!(height(&whole) > MAX_HEIGHT, "{}", height(&whole));
        let drawn = draw(&chart);
        assert!(fits(&drawn.file) && fits(&drawn.inline));
        assert!(height(&drawn.file) < 400.0, "{}", height(&drawn.file));
        assert!(drawn.file.contains("Summarised to fit"), "{}", drawn.file);
        assert!(drawn.file.contains("3,322 rows"), "{}", drawn.file);
        assert!(drawn.file.contains("mean"), "{}", drawn.file);
        // One dot per type.
        assert_eq!(drawn.inline.matches("<circle").count(), 3);
    }

    #[test]
    fn a_bar_per_row_too_tall_becomes_the_distribution_of_its_values() {
        let points: Vec<ChartPoint> = (0..500)
            .map(|i| point(&format!("name {i}"), (i % 100) as f64 + 0.5))
            .collect();
        let chart = input(ChartKind::Bar, XScale::Category, &points);
        let drawn = draw(&chart);
        assert!(fits(&drawn.file), "{}", height(&drawn.file));
        assert!(drawn.file.contains("each bar counts the rows"));
        let bars = distribution(&points, &NumberMarks::english());
        assert_eq!(bars.iter().map(|p| p.y).sum::<f64>(), 500.0);
        assert_eq!(bars[0].x, "0–10");
        assert_eq!(bars[0].y, 50.0);
        assert_eq!(bars.len(), 10);
    }

    #[test]
    fn an_overplotted_dot_plot_draws_each_visible_point_once() {
        let points: Vec<ChartPoint> = (0..20_000)
            .map(|i| point(&format!("{}", i % 1000), ((i * 7919) % 1000) as f64))
            .collect();
        let chart = input(ChartKind::Dot, XScale::Number, &points);
        assert!(!fits(&render(&chart, Placement::File)));
        let drawn = draw(&chart);
        assert!(fits(&drawn.file), "{} bytes", drawn.file.len());
        assert!(drawn.file.contains("drawn once"));
        // The extremes stay.
        let kept = apart(&chart);
        assert!(kept.iter().any(|p| p.y == 999.0) && kept.iter().any(|p| p.y == 0.0));
    }

    #[test]
    fn a_chart_within_the_budget_is_drawn_as_declared() {
        let points: Vec<ChartPoint> = (0..30).map(|i| point("a", i as f64)).collect();
        let chart = input(ChartKind::Dot, XScale::Category, &points);
        assert_eq!(draw(&chart).file, render(&chart, Placement::File));
    }
}
