//! Charts drawn at build time: a chart's spec and the points the CSV scan collected
//! become one self-contained SVG string. Pure (no I/O) and deterministic: the same
//! input gives the same bytes.
//!
//! Horizontal positions are percentages of the SVG's width and vertical positions are
//! pixels, with no `viewBox`. Text therefore keeps its size at any width (readable on a
//! 360 px phone, not oversized on a wide screen) while bars, lines and gridlines stretch.
//! The layout is planned so that nothing collides down to [`NARROWEST`] pixels.
//! The SVG carries its own `<style>` with a dark variant, so a standalone `.svg` file
//! follows the reader's colour scheme too.

use std::fmt::Write as _;

use crate::content::ChartKind;
use crate::dataset::scan::ChartPoint;
use crate::dataset::schema::{format_cell, ColumnType};
use crate::text::escape_html_into;

/// The narrowest width, in pixels, the layout is planned for (a 360 px phone, less margins).
pub const NARROWEST: f64 = 300.0;

/// A generous estimate of the width of one character at the 13 px label size.
const CHAR_WIDTH: f64 = 7.4;

/// Points a single-series chart still labels with their values.
const LABELLED_POINTS: usize = 12;

/// Points the description (read by screen readers) lists one by one.
const DESCRIBED_POINTS: usize = 40;

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
    /// Points past the cap: not drawn, and the chart says so.
    pub dropped: u64,
}

/// The colours, fonts and dark variant, scoped to `svg.dpc` so an inline chart's style
/// cannot leak into the page.
const STYLE: &str = "svg.dpc{font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",Arial,sans-serif;font-size:13px}\
svg.dpc .bg{fill:#fbfaf7}svg.dpc text{fill:#1d1f21}svg.dpc .m{fill:#5b6066}\
svg.dpc .h{font-size:15px;font-weight:700}svg.dpc .a{font-size:12px;font-weight:600;fill:#5b6066}\
svg.dpc .k{font-size:12px;fill:#5b6066;font-variant-numeric:tabular-nums}svg.dpc .v{font-variant-numeric:tabular-nums}\
svg.dpc .g{stroke:#dcd8cf;stroke-width:1}svg.dpc .z{stroke:#6f757b;stroke-width:1}\
svg.dpc .s0{fill:#1f5f99;stroke:#1f5f99}svg.dpc .s1{fill:#b3541e;stroke:#b3541e}svg.dpc .s2{fill:#2e7d4f;stroke:#2e7d4f}\
svg.dpc .s3{fill:#7b4ea3;stroke:#7b4ea3}svg.dpc .s4{fill:#8a6d00;stroke:#8a6d00}svg.dpc .s5{fill:#a23b72;stroke:#a23b72}\
svg.dpc .l{fill:none;stroke-width:2.25}svg.dpc .o{fill:#fbfaf7;stroke-width:2}\
@media screen and (prefers-color-scheme:dark){svg.dpc .bg{fill:#17191b}svg.dpc text{fill:#e8e6e1}\
svg.dpc .m,svg.dpc .a,svg.dpc .k{fill:#a7abb0}svg.dpc .g{stroke:#3a3d41}svg.dpc .z{stroke:#8d9298}\
svg.dpc .s0{fill:#7db7f0;stroke:#7db7f0}svg.dpc .s1{fill:#f0a36b;stroke:#f0a36b}svg.dpc .s2{fill:#74c69d;stroke:#74c69d}\
svg.dpc .s3{fill:#c3a2e6;stroke:#c3a2e6}svg.dpc .s4{fill:#d9c15a;stroke:#d9c15a}svg.dpc .s5{fill:#f08cc0;stroke:#f08cc0}\
svg.dpc .l{fill:none}svg.dpc .o{fill:#17191b}}";

/// Line dash patterns per series, so lines differ by more than colour.
const DASHES: [&str; 4] = ["", "7 4", "2 3", "10 3 2 3"];

/// Where a chart goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// Inside a page, under an HTML heading that carries the visible title.
    Inline,
    /// A file of its own: an XML declaration, and the title drawn in the chart.
    File,
}

/// Renders the chart as SVG.
pub fn render(chart: &ChartInput, placement: Placement) -> String {
    let series = series_names(chart.points);
    let mut body = Body::default();
    let mut y = match placement {
        Placement::Inline => 0.0,
        Placement::File => body.wrapped(chart.title, 0.0, 18.0, "h", 35, 20.0) + 8.0,
    };
    let category_rows = matches!(chart.kind, ChartKind::Bar | ChartKind::GroupedBar)
        || chart.x_scale == XScale::Category && chart.kind == ChartKind::Dot;
    let mut unplaced = 0;
    y = if category_rows {
        rows_layout(chart, &series, &mut body, y)
    } else {
        let (next, skipped) = xy_layout(chart, &series, &mut body, y);
        unplaced = skipped;
        next
    };
    for note in notes(chart, unplaced) {
        y = body.wrapped(&note, 0.0, y + 14.0, "m", 44, 16.0);
    }
    let height = (y + 10.0).ceil();
    let id = chart.id;
    let mut out = String::with_capacity(body.out.len() + STYLE.len() + 1024);
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
    let _ = write!(
        out,
        "</desc>\n<style>{STYLE}</style>\n<rect class=\"bg\" width=\"100%\" height=\"100%\"/>\n"
    );
    out.push_str(&body.out);
    out.push_str("</svg>");
    if placement == Placement::File {
        out.push('\n');
    }
    out
}

/// The SVG elements under the title, built top to bottom.
#[derive(Default)]
struct Body {
    out: String,
}

impl Body {
    /// A `<text>` element; `x` is already formatted (`12.5%` or `40`).
    fn text(&mut self, x: &str, y: f64, class: &str, anchor: &str, content: &str) {
        let _ = write!(
            self.out,
            "<text x=\"{x}\" y=\"{}\" class=\"{class}\"",
            num(y)
        );
        if anchor != "start" {
            let _ = write!(self.out, " text-anchor=\"{anchor}\"");
        }
        self.out.push('>');
        escape_html_into(content, &mut self.out);
        self.out.push_str("</text>\n");
    }

    /// Text wrapped at `chars` characters per line; returns the baseline of the last line.
    fn wrapped(&mut self, text: &str, x: f64, y: f64, class: &str, chars: usize, step: f64) -> f64 {
        let mut baseline = y;
        for (index, line) in wrap(text, chars).iter().enumerate() {
            baseline = y + index as f64 * step;
            self.text(&num(x), baseline, class, "start", line);
        }
        baseline
    }

    fn line(&mut self, x1: &str, y1: f64, x2: &str, y2: f64, class: &str, dash: &str) {
        let _ = write!(
            self.out,
            "<line x1=\"{x1}\" y1=\"{}\" x2=\"{x2}\" y2=\"{}\" class=\"{class}\"",
            num(y1),
            num(y2)
        );
        if !dash.is_empty() {
            let _ = write!(self.out, " stroke-dasharray=\"{dash}\"");
        }
        self.out.push_str("/>\n");
    }

    /// A series marker centred at (`x`, `y`): the shape as well as the colour tells series apart.
    fn marker(&mut self, x: &str, y: f64, series: usize, tooltip: Option<&str>) {
        let colour = series % 6;
        let (square, hollow) = match series % 4 {
            0 => (false, false),
            1 => (true, false),
            2 => (false, true),
            _ => (true, true),
        };
        let class = if hollow {
            format!("s{colour} o")
        } else {
            format!("s{colour}")
        };
        if square {
            let _ = write!(
                self.out,
                "<rect x=\"{x}\" y=\"{}\" width=\"8\" height=\"8\" transform=\"translate(-4 0)\" class=\"{class}\"",
                num(y - 4.0)
            );
        } else {
            let _ = write!(
                self.out,
                "<circle cx=\"{x}\" cy=\"{}\" r=\"{}\" class=\"{class}\"",
                num(y),
                if hollow { "4" } else { "4.5" }
            );
        }
        match tooltip {
            Some(tip) => {
                self.out.push_str("><title>");
                escape_html_into(tip, &mut self.out);
                self.out.push_str(if square {
                    "</title></rect>\n"
                } else {
                    "</title></circle>\n"
                });
            }
            None => self.out.push_str("/>\n"),
        }
    }

    /// A legend of series markers and names, wrapped to the narrowest width.
    fn legend(&mut self, series: &[&str], y: f64) -> f64 {
        let mut x = 0.0;
        let mut y = y;
        for (index, name) in series.iter().enumerate() {
            let width = 16.0 + text_width(name) + 14.0;
            if x > 0.0 && x + width > NARROWEST {
                x = 0.0;
                y += 20.0;
            }
            self.marker(&num(x + 5.0), y - 4.0, index, None);
            self.text(&num(x + 15.0), y, "v", "start", name);
            x += width;
        }
        y
    }
}

/// Bars, grouped bars, or dots on one row per category: the value axis runs across.
fn rows_layout(chart: &ChartInput, series: &[&str], body: &mut Body, top: f64) -> f64 {
    let groups = categories(chart.points);
    let multi = series.len() > 1 || chart.kind == ChartKind::GroupedBar;
    let mut y = top;
    let heading = match (chart.kind, chart.series_title) {
        (ChartKind::GroupedBar, Some(s)) => format!("{} · {s}", chart.x_title),
        _ => chart.x_title.to_string(),
    };
    body.text("0", y + 12.0, "a", "start", &heading);
    y += 20.0;
    if chart.kind == ChartKind::Dot && series.len() > 1 {
        y = body.legend(series, y + 12.0) + 10.0;
    }

    // Series names sit left of grouped bars when they are short enough.
    let longest_series = series.iter().map(|s| text_width(s)).fold(0.0, f64::max);
    let left = if chart.kind == ChartKind::GroupedBar && longest_series + 10.0 <= NARROWEST * 0.4 {
        (longest_series + 10.0).ceil()
    } else {
        0.0
    };
    let labels_value = chart.kind != ChartKind::Dot || series.len() <= 1;
    let (lo, hi) = value_range(chart.points);
    let (ticks, step) = nice_ticks(lo.min(0.0), hi.max(0.0), 4);
    let (dlo, dhi) = (ticks[0], ticks[ticks.len() - 1]);
    let room = if labels_value {
        chart
            .points
            .iter()
            .map(|p| text_width(&p.y_text))
            .fold(0.0, f64::max)
            + 8.0
    } else {
        text_width(&tick_text(dhi, step)) / 2.0
    };
    let span = ((NARROWEST - left - room) / NARROWEST).clamp(0.3, 0.95) * 100.0;
    let at = |v: f64| (v - dlo) / (dhi - dlo) * span;
    let pos = |v: f64| pct(at(v));

    // Names are drawn from the chart's left edge; marks, gridlines and ticks are shifted
    // right of the series names.
    let grid_top = y;
    let mut names = Body::default();
    let mut marks = Body::default();
    for (category, members) in &groups {
        names.text(
            "0",
            y + 13.0,
            if multi { "a" } else { "v" },
            "start",
            category,
        );
        y += 18.0;
        match chart.kind {
            ChartKind::Dot => {
                // Series sit a few pixels apart so equal values do not hide each other.
                let rows = series.len().min(4) as f64;
                y += (rows - 1.0) * 2.5;
                let dodge = |index: usize| ((index % 4) as f64 - (rows - 1.0) / 2.0) * 5.0;
                marks.line(&pos(dlo), y + 8.0, &pos(dhi), y + 8.0, "g", "2 3");
                for point in members {
                    let index = series_index(series, point);
                    let cy = y + 8.0 + dodge(index);
                    marks.marker(&pos(point.y), cy, index, Some(&tooltip(point)));
                }
                if labels_value {
                    for point in members {
                        value_label(&mut marks, at(point.y), at(0.0), y + 12.5, &point.y_text);
                    }
                }
                y += 22.0 + (rows - 1.0) * 2.5;
            }
            _ => {
                let mut ordered: Vec<&&ChartPoint> = members.iter().collect();
                ordered.sort_by_key(|p| series_index(series, p));
                for point in ordered {
                    let index = series_index(series, point);
                    if chart.kind == ChartKind::GroupedBar {
                        let name = point.series.as_deref().unwrap_or_default();
                        if left > 0.0 {
                            names.text("0", y + 12.5, "v", "start", name);
                        } else {
                            names.text("0", y + 12.0, "v", "start", name);
                            y += 16.0;
                        }
                    }
                    let (start, end) = if point.y < 0.0 {
                        (at(point.y), at(0.0))
                    } else {
                        (at(0.0), at(point.y))
                    };
                    let _ = write!(
                        marks.out,
                        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"16\" class=\"s{}\"><title>",
                        pct(start),
                        num(y),
                        pct((end - start).max(0.0)),
                        index % 6
                    );
                    escape_html_into(&tooltip(point), &mut marks.out);
                    marks.out.push_str("</title></rect>\n");
                    value_label(&mut marks, at(point.y), at(0.0), y + 12.5, &point.y_text);
                    y += 22.0;
                }
            }
        }
        y += if multi { 8.0 } else { 4.0 };
    }
    let grid_bottom = y - 4.0;

    // Gridlines first so bars and dots sit on top of them; the value axis under the rows.
    let mut grid = Body::default();
    for (index, tick) in ticks.iter().enumerate() {
        let class = if *tick == 0.0 { "z" } else { "g" };
        grid.line(&pos(*tick), grid_top, &pos(*tick), grid_bottom, class, "");
        let label = tick_text(*tick, step);
        let anchor = if index == 0 && left < text_width(&label) / 2.0 {
            "start"
        } else {
            "middle"
        };
        marks.text(&pos(*tick), grid_bottom + 16.0, "k", anchor, &label);
    }
    let translate = if left > 0.0 {
        format!("<g transform=\"translate({} 0)\">\n", num(left))
    } else {
        "<g>\n".to_string()
    };
    body.out.push_str(&translate);
    body.out.push_str(&grid.out);
    body.out.push_str(&marks.out);
    body.out.push_str("</g>\n");
    body.out.push_str(&names.out);
    y = grid_bottom + 16.0;
    body.text("0", y + 20.0, "a", "start", chart.y_title);
    y + 20.0
}

/// The value printed at the end of a bar or beside a dot, on the side away from zero.
fn value_label(body: &mut Body, at: f64, zero: f64, y: f64, text: &str) {
    if at < zero {
        let _ = write!(
            body.out,
            "<text x=\"{}\" dx=\"-6\" y=\"{}\" class=\"v\" text-anchor=\"end\">",
            pct(at),
            num(y)
        );
    } else {
        let _ = write!(
            body.out,
            "<text x=\"{}\" dx=\"8\" y=\"{}\" class=\"v\">",
            pct(at),
            num(y)
        );
    }
    escape_html_into(text, &mut body.out);
    body.out.push_str("</text>\n");
}

/// Lines and scatter dots: `y` runs up, `x` across. Returns the next free y and the
/// number of points whose `x` could not be placed on a numeric or date axis.
fn xy_layout(chart: &ChartInput, series: &[&str], body: &mut Body, top: f64) -> (f64, u64) {
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
fn edge_anchor(at_percent: f64) -> &'static str {
    if at_percent < 12.0 {
        "start"
    } else if at_percent > 88.0 {
        "end"
    } else {
        "middle"
    }
}

/// What the chart leaves out, said in the chart itself.
fn notes(chart: &ChartInput, unplaced: u64) -> Vec<String> {
    let mut notes = Vec::new();
    if chart.missing > 0 {
        notes.push(format!(
            "Not drawn: {} with no value in {}.",
            rows(chart.missing),
            chart.y_title
        ));
    }
    if unplaced > 0 {
        let kind = if chart.x_scale == XScale::Date {
            "an ISO date"
        } else {
            "a number"
        };
        notes.push(format!(
            "Not drawn: {} whose {} is not {kind}.",
            rows(unplaced),
            chart.x_title
        ));
    }
    if chart.dropped > 0 {
        notes.push(format!(
            "Not drawn: {} past the first {}; the table and the CSV have them.",
            rows(chart.dropped),
            grouped(chart.points.len() as u64)
        ));
    }
    notes
}

fn rows(n: u64) -> String {
    if n == 1 {
        "1 row".into()
    } else {
        format!("{} rows", grouped(n))
    }
}

fn grouped(n: u64) -> String {
    let mut out = String::new();
    format_cell(ColumnType::Integer, &n.to_string(), &mut out);
    out
}

/// A text alternative listing what the chart shows, for screen readers and search.
fn describe(chart: &ChartInput, series: &[&str], unplaced: u64) -> String {
    let kind = match chart.kind {
        ChartKind::Bar => "Bar chart",
        ChartKind::GroupedBar => "Grouped bar chart",
        ChartKind::Line => "Line chart",
        ChartKind::Dot => "Dot chart",
    };
    let mut text = format!("{kind} of {} by {}", chart.y_title, chart.x_title);
    if let (Some(title), true) = (
        chart.series_title,
        series.len() > 1 || chart.series_title.is_some(),
    ) {
        let _ = write!(text, " and {title}");
    }
    text.push_str(". ");
    let listed: Vec<String> = chart
        .points
        .iter()
        .take(DESCRIBED_POINTS)
        .map(tooltip)
        .collect();
    text.push_str(&listed.join("; "));
    text.push('.');
    if chart.points.len() > DESCRIBED_POINTS {
        let _ = write!(
            text,
            " {} more points are in the table.",
            grouped((chart.points.len() - DESCRIBED_POINTS) as u64)
        );
    }
    for note in notes(chart, unplaced) {
        text.push(' ');
        text.push_str(&note);
    }
    text
}

/// "32K, NVMe: 5,269" or "32K: 5,269".
fn tooltip(point: &ChartPoint) -> String {
    match &point.series {
        Some(series) => format!("{}, {series}: {}", point.x, point.y_text),
        None => format!("{}: {}", point.x, point.y_text),
    }
}

/// Series names in order of first appearance (one unnamed series when there is none).
fn series_names(points: &[ChartPoint]) -> Vec<&str> {
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

fn series_index(series: &[&str], point: &ChartPoint) -> usize {
    let name = point.series.as_deref().unwrap_or("");
    series.iter().position(|s| *s == name).unwrap_or(0)
}

/// The x values in order of first appearance, each with its points.
fn categories(points: &[ChartPoint]) -> Vec<(&str, Vec<&ChartPoint>)> {
    let mut groups: Vec<(&str, Vec<&ChartPoint>)> = Vec::new();
    for point in points {
        match groups.iter_mut().find(|(x, _)| *x == point.x) {
            Some((_, members)) => members.push(point),
            None => groups.push((&point.x, vec![point])),
        }
    }
    groups
}

fn value_range(points: &[ChartPoint]) -> (f64, f64) {
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

/// Round tick values covering `lo..=hi`, about `target` steps, and the step.
fn nice_ticks(lo: f64, hi: f64, target: usize) -> (Vec<f64>, f64) {
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else if lo == 0.0 {
        (0.0, 1.0)
    } else {
        (lo - lo.abs() / 2.0, hi + hi.abs() / 2.0)
    };
    let raw = (hi - lo) / target.max(1) as f64;
    let magnitude = 10f64.powf(raw.log10().floor());
    let ratio = raw / magnitude;
    let nice = if ratio <= 1.0 {
        1.0
    } else if ratio <= 2.0 {
        2.0
    } else if ratio <= 2.5 {
        2.5
    } else if ratio <= 5.0 {
        5.0
    } else {
        10.0
    };
    let step = nice * magnitude;
    let first = (lo / step + 1e-9).floor() as i64;
    let last = (hi / step - 1e-9).ceil() as i64;
    let ticks = (first..=last).map(|i| i as f64 * step).collect();
    (ticks, step)
}

/// A tick value with the decimals its step needs and thousands separators.
fn tick_text(value: f64, step: f64) -> String {
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
fn day_number(text: &str) -> Option<i64> {
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

/// Words packed into lines of at most `chars` characters (a longer word gets its own line).
fn wrap(text: &str, chars: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split_whitespace() {
        if !current.is_empty() && current.chars().count() + 1 + word.chars().count() > chars {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    if !current.is_empty() || lines.is_empty() {
        lines.push(current);
    }
    lines
}

fn text_width(text: &str) -> f64 {
    text.chars().count() as f64 * CHAR_WIDTH
}

/// A pixel number with at most two decimals and no trailing zeros.
fn num(value: f64) -> String {
    let mut text = format!("{value:.2}");
    if text.contains('.') {
        text = text.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    if text == "-0" {
        text = "0".into();
    }
    text
}

fn pct(value: f64) -> String {
    format!("{}%", num(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(x: &str, series: Option<&str>, y: f64) -> ChartPoint {
        let mut y_text = String::new();
        format_cell(ColumnType::Number, &y.to_string(), &mut y_text);
        ChartPoint {
            x: x.into(),
            series: series.map(String::from),
            y,
            y_text,
        }
    }

    fn input<'a>(kind: ChartKind, x_scale: XScale, points: &'a [ChartPoint]) -> ChartInput<'a> {
        ChartInput {
            id: "c",
            kind,
            title: "Throughput <by> \"size\" & interface",
            x_title: "Block size",
            y_title: "Cluster throughput (MB/s)",
            series_title: Some("Interface"),
            x_scale,
            points,
            missing: 0,
            dropped: 0,
        }
    }

    fn flagship_points() -> Vec<ChartPoint> {
        let mut points = Vec::new();
        for (size, values) in [
            ("32K", [2693.0, 4319.0, 5269.0]),
            ("64K", [2832.0, 4562.0, 7688.0]),
            ("128K", [2776.0, 4566.0, 10366.0]),
        ] {
            for (series, y) in ["SATA", "SAS", "NVMe"].iter().zip(values) {
                points.push(point(size, Some(series), y));
            }
        }
        points
    }

    #[test]
    fn ticks_are_round_and_cover_the_data() {
        assert_eq!(
            nice_ticks(0.0, 10366.0, 4).0,
            [0.0, 5000.0, 10000.0, 15000.0]
        );
        assert_eq!(nice_ticks(0.0, 13.88, 4).0, [0.0, 5.0, 10.0, 15.0]);
        assert_eq!(nice_ticks(-3.0, 4.0, 4).0, [-4.0, -2.0, 0.0, 2.0, 4.0]);
        assert_eq!(nice_ticks(0.0, 0.0, 4).0.last(), Some(&1.0));
        assert_eq!(tick_text(15000.0, 5000.0), "15,000");
        assert_eq!(tick_text(2.5, 2.5), "2.5");
        assert_eq!(tick_text(-0.0, 0.5), "0.0");
    }

    #[test]
    fn dates_become_day_numbers() {
        assert_eq!(day_number("1970-01-01"), Some(0));
        assert_eq!(day_number("2021"), Some(18_628));
        assert_eq!(day_number("2021-05-21T10:00:00Z"), Some(18_768));
        assert_eq!(day_number("May 2021"), None);
        assert_eq!(day_number("2021-13"), None);
    }

    #[test]
    fn words_wrap_at_the_width() {
        assert_eq!(
            wrap("Cluster throughput by block size and interface", 35),
            ["Cluster throughput by block size", "and interface"]
        );
        assert_eq!(wrap("", 10), [""]);
    }

    #[test]
    fn grouped_bars_carry_title_description_and_escaped_text() {
        let points = flagship_points();
        let svg = render(
            &input(ChartKind::GroupedBar, XScale::Category, &points),
            Placement::Inline,
        );
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"dpc\""));
        assert!(svg.contains("role=\"img\" aria-labelledby=\"dpc-c-title dpc-c-desc\""));
        assert!(svg.contains(
            "<title id=\"dpc-c-title\">Throughput &lt;by&gt; &quot;size&quot; &amp; interface</title>"
        ));
        assert!(svg.contains("Grouped bar chart of Cluster throughput (MB/s) by Block size and Interface. 32K, SATA: 2,693;"));
        assert!(
            !svg.contains("class=\"h\""),
            "inline charts leave the title to the page"
        );
        assert_eq!(svg.matches("<rect x=").count(), 9);
        // 10,366 is the longest bar; its width is 10366/15000 of the bar span.
        assert!(svg.contains(">10,366</text>"));
        assert!(svg.contains(">15,000</text>"));
        assert!(svg.contains(">Cluster throughput (MB/s)</text>"));
        assert!(svg.contains(">NVMe</text>"), "series name beside each bar");
        assert_eq!(
            svg,
            render(
                &input(ChartKind::GroupedBar, XScale::Category, &points),
                Placement::Inline
            )
        );
    }

    #[test]
    fn standalone_files_declare_xml_and_draw_the_title() {
        let points = flagship_points();
        let svg = render(
            &input(ChartKind::GroupedBar, XScale::Category, &points),
            Placement::File,
        );
        assert!(svg.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "));
        assert!(svg.ends_with("</svg>\n"));
        assert!(svg
            .contains("class=\"h\">Throughput &lt;by&gt; &quot;size&quot; &amp; interface</text>"));
        assert!(svg.contains("@media screen and (prefers-color-scheme:dark)"));
    }

    #[test]
    fn bars_grow_from_zero_both_ways() {
        let points = [point("loss", None, -2.0), point("gain", None, 4.0)];
        let chart = ChartInput {
            series_title: None,
            ..input(ChartKind::Bar, XScale::Category, &points)
        };
        let svg = render(&chart, Placement::Inline);
        // Ticks -2..4 in steps of 2; zero sits a third of the way along the 92.4% span
        // (the rest is room for a two-character label).
        assert!(svg.contains("<line x1=\"30.8%\""), "{svg}");
        assert!(
            svg.contains("text-anchor=\"end\">-2</text>"),
            "negative labels sit left"
        );
        assert!(svg.contains("class=\"z\""), "a zero line");
    }

    #[test]
    fn lines_join_points_in_x_order_per_series() {
        let points = [
            point("3", Some("a"), 3.0),
            point("1", Some("a"), 1.0),
            point("2", Some("a"), 2.0),
            point("1", Some("b"), 5.0),
            point("x", Some("b"), 5.0),
            point("2", Some("b"), 6.0),
        ];
        let svg = render(
            &input(ChartKind::Line, XScale::Number, &points),
            Placement::Inline,
        );
        assert_eq!(
            svg.matches(" l\"").count(),
            3,
            "two segments for a, one for b"
        );
        assert!(
            svg.contains("stroke-dasharray=\"7 4\""),
            "series differ by dash"
        );
        assert!(svg.contains("Not drawn: 1 row whose Block size is not a number."));
        let dots = render(
            &input(ChartKind::Dot, XScale::Number, &points),
            Placement::Inline,
        );
        assert_eq!(dots.matches(" l\"").count(), 0, "dots are not joined");
    }

    #[test]
    fn left_out_rows_are_said() {
        let points = [point("a", None, 1.0)];
        let chart = ChartInput {
            missing: 2,
            dropped: 1,
            ..input(ChartKind::Bar, XScale::Category, &points)
        };
        let svg = render(&chart, Placement::Inline);
        assert!(svg.contains("Not drawn: 2 rows with no value in Cluster throughput (MB/s)."));
        assert!(svg.contains("Not drawn: 1 row past the first 1; the table and the CSV have them."));
    }

    #[test]
    fn many_categories_get_thinned_tick_labels() {
        let points: Vec<ChartPoint> = (0..40)
            .map(|i| point(&format!("2021-{:02}", i % 12 + 1), None, i as f64))
            .collect();
        let svg = render(
            &input(ChartKind::Line, XScale::Category, &points),
            Placement::Inline,
        );
        let labels = svg.matches("class=\"k\"").count();
        assert!(labels < 12 + 6, "{labels} labels");
    }
}
