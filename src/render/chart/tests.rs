//! Chart rendering: layouts, escaping, ticks, dates and wrapping, checked on small inputs.

use super::scale::{day_number, nice_ticks, tick_text};
use super::svg::wrap;
use super::*;
use crate::dataset::schema::{format_cell, ColumnType};

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
    assert!(
        svg.contains("class=\"h\">Throughput &lt;by&gt; &quot;size&quot; &amp; interface</text>")
    );
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
