//! Chart rendering: layouts, escaping, ticks, dates and wrapping, checked on small inputs.

use super::scale::{day_number, nice_ticks, tick_text, value_domain};
use super::svg::{wrap, wrap_balanced};
use super::*;
use crate::schema::{format_cell, ColumnType};

pub(super) fn point(x: &str, series: Option<&str>, y: f64) -> ChartPoint {
    let mut y_text = String::new();
    format_cell(ColumnType::Number, &y.to_string(), &mut y_text);
    ChartPoint {
        x: x.into(),
        series: series.map(String::from),
        y,
        y_text,
    }
}

pub(super) fn input<'a>(
    kind: ChartKind,
    x_scale: XScale,
    points: &'a [ChartPoint],
) -> ChartInput<'a> {
    ChartInput {
        id: "c",
        y_digits: None,
        x_shown: Default::default(),
        words: super::test_words::english(),
        kind,
        title: "Throughput <by> \"size\" & interface",
        x_title: "Block size",
        y_title: "Cluster throughput (MB/s)",
        series_title: Some("Interface"),
        x_scale,
        points,
        missing: 0,
        not_finite: 0,
        dropped: 0,
        y_zero: None,
        many: ManySeries::default(),
        y_scale: YScale::Linear,
        y_min: None,
        y_max: None,
        gaps: &[],
        reduced: None,
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
    assert_eq!(tick_text(15000.0, 5000.0, None), "15,000");
    assert_eq!(tick_text(2.5, 0.5, None), "2.5");
    assert_eq!(tick_text(-0.0, 0.5, None), "0.0");
}

#[test]
fn ticks_step_by_one_two_or_five_and_end_at_the_first_tick_past_the_maximum() {
    assert_eq!(
        nice_ticks(0.0, 10.76, 6),
        ([0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0].to_vec(), 2.0)
    );
    let (ticks, step) = nice_ticks(0.0, 2_460_000.0, 6);
    assert_eq!(step, 500_000.0);
    assert_eq!(ticks.last(), Some(&2_500_000.0));
    assert_eq!(nice_ticks(0.0, 10366.0, 6).0.last(), Some(&12000.0));
    assert_eq!(
        nice_ticks(0.0, 10.0, 6).0.last(),
        Some(&10.0),
        "a maximum on a tick ends there"
    );
    // Fewer intervals allowed: a coarser 1-2-5 step, still ending at the next tick.
    assert_eq!(
        nice_ticks(0.0, 10.76, 3),
        ([0.0, 5.0, 10.0, 15.0].to_vec(), 5.0)
    );
    assert_eq!(
        nice_ticks(0.0, 155_602.0, 4).0,
        [0.0, 50_000.0, 100_000.0, 150_000.0, 200_000.0]
    );
}

#[test]
fn ticks_handle_negative_tiny_equal_and_huge_ranges() {
    assert_eq!(nice_ticks(-3.0, 4.0, 4).0, [-4.0, -2.0, 0.0, 2.0, 4.0]);
    assert_eq!(nice_ticks(-7.3, 0.0, 6).0, [-8.0, -6.0, -4.0, -2.0, 0.0]);
    assert_eq!(
        nice_ticks(-12.0, -3.0, 6).0,
        [-12.0, -10.0, -8.0, -6.0, -4.0, -2.0]
    );
    // Tiny steps are exact decimals, not 0.30000000000000004.
    let (ticks, step) = nice_ticks(0.0, 0.00046, 6);
    assert_eq!(step, 0.0001);
    assert_eq!(ticks, [0.0, 0.0001, 0.0002, 0.0003, 0.0004, 0.0005]);
    assert_eq!(nice_ticks(0.0, 0.3, 3).0, [0.0, 0.1, 0.2, 0.3]);
    assert_eq!(tick_text(0.0003, 0.0001, None), "0.0003");
    // All values equal: zero gets a unit range, others a range around them.
    assert_eq!(nice_ticks(0.0, 0.0, 4).0, [0.0, 0.5, 1.0]);
    let (ticks, _) = nice_ticks(7.0, 7.0, 6);
    assert!(
        ticks[0] <= 3.5 && *ticks.last().unwrap() >= 10.5,
        "{ticks:?}"
    );
    // Huge values stay finite and round.
    let (ticks, step) = nice_ticks(0.0, 9.1e15, 6);
    assert_eq!(step, 2e15);
    assert_eq!(ticks.last(), Some(&1e16));
    let (ticks, step) = nice_ticks(0.0, 9.5e299, 6);
    assert_eq!((step, ticks.last()), (2e299, Some(&1e300)));
    // Never more intervals than asked for.
    for hi in [1.0, 1.01, 3.3, 7.7, 9.99, 12.5, 99.0, 123_456.0] {
        for max in 1..=8 {
            let (ticks, _) = nice_ticks(0.0, hi, max);
            assert!(
                ticks.len() - 1 <= max && *ticks.last().unwrap() >= hi,
                "{hi} {max} {ticks:?}"
            );
        }
    }
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
        wrap("Cluster throughput by block size and interface", "v", 230.0),
        ["Cluster throughput by block size", "and interface"]
    );
    assert_eq!(wrap("", "v", 100.0), [""]);
    // Balanced: the last line is not a lone word.
    let even = wrap_balanced(
        "Not drawn: 1 row with no value in Latency (ms).",
        "m",
        300.0,
    );
    assert_eq!(even.len(), 2, "{even:?}");
    assert!(even[1].contains(' '), "{even:?}");
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
    // 10,366 is the longest bar; the axis ends at the next round tick, 12,000.
    assert!(svg.contains(">10,366</text>"));
    assert!(svg.contains(">12,000</text>"));
    assert!(!svg.contains(">15,000</text>"));
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
        svg.contains("class=\"h\">Throughput &lt;by&gt;</text>")
            && svg.contains("class=\"h\">&quot;size&quot; &amp; interface</text>"),
        "the title, wrapped to the narrowest width: {svg}"
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
        not_finite: 3,
        dropped: 1,
        ..input(ChartKind::Bar, XScale::Category, &points)
    };
    let svg = render(&chart, Placement::Inline);
    assert!(svg.contains("Not drawn: 2 rows with no value in Cluster throughput (MB/s)."));
    assert!(svg.contains("Not drawn: 1 row past the first 1; the table and the CSV have them."));
    assert!(svg.contains("Not drawn: 3 rows whose Cluster throughput (MB/s) is NaN or INF."));
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

#[test]
fn dots_get_a_row_each_on_their_guide_line_with_their_value() {
    let points = [
        point("32K", Some("SATA"), 1.18),
        point("32K", Some("SAS"), 1.19),
        point("32K", Some("NVMe"), 1.05),
    ];
    let svg = render(
        &input(ChartKind::Dot, XScale::Category, &points),
        Placement::Inline,
    );
    for value in ["1.18", "1.19", "1.05"] {
        assert!(
            svg.contains(&format!(">{value}</text>")),
            "{value} printed: {svg}"
        );
    }
    // Each marker sits on the middle of its own guide line: three rows, three heights.
    let guides: Vec<&str> = svg
        .lines()
        .filter(|l| l.contains("class=\"g gd\""))
        .collect();
    assert_eq!(guides.len(), 3, "{svg}");
    let mut heights: Vec<String> = Vec::new();
    for guide in guides {
        let y1 = guide
            .split("y1=\"")
            .nth(1)
            .and_then(|r| r.split('"').next());
        let y1 = y1.unwrap_or_default().to_string();
        assert!(guide.contains(&format!("y2=\"{y1}\"")), "{guide}");
        assert!(
            svg.contains(&format!("cy=\"{y1}\""))
                || svg.contains(&format!(
                    "y=\"{}\"",
                    super::svg::num(y1.parse::<f64>().unwrap_or(0.0) - 4.0)
                )),
            "a marker centred on {y1}"
        );
        heights.push(y1);
    }
    heights.dedup();
    assert_eq!(heights.len(), 3);
    assert!(
        svg.contains("<title>32K, SAS: 1.19</title>"),
        "exact value in the mark's title"
    );
}

#[test]
fn boxes_apart_at_both_ends_of_the_widths_are_apart_between() {
    use super::place::Area;
    // A label (about 38 px) 8 px right of a bar ending at 50 %, and a gridline at 70 %:
    // 60 px right of the bar end at 300 px, past the label, and further at wider widths.
    let label = Area::text(0.0, 0.5, 8.0, 100.0, "4,562", "v", "start");
    let far = Area::vertical(0.0, 0.7, 90.0, 110.0);
    assert!(!label.meets(&far, 1.0));
    // A gridline at 55 %: 15 px right of the bar end at 300 px, inside the label.
    let near = Area::vertical(0.0, 0.55, 90.0, 110.0);
    assert!(near.meets(&label, 1.0) && label.meets(&near, 1.0));
    // The same line above the label's row does not meet it.
    let above = Area::vertical(0.0, 0.55, 40.0, 80.0);
    assert!(!label.meets(&above, 1.0));
    // A name at the left edge meets a line 20 px in from a 40 px plot start only if the
    // name is wider than 60 px.
    let name = Area::text(0.0, 0.0, 0.0, 100.0, "NVMe", "v", "start");
    assert!(!name.meets(&Area::vertical(60.0, 0.0, 90.0, 110.0), 1.0));
    let long = Area::text(0.0, 0.0, 0.0, 100.0, "64K sequential read", "v", "start");
    assert!(long.meets(&Area::vertical(60.0, 0.0, 90.0, 110.0), 1.0));
    // Text past the right edge at the narrowest width is not inside.
    assert!(!Area::text(0.0, 0.95, 8.0, 100.0, "10,366", "v", "start").inside());
    assert!(Area::text(0.0, 0.5, 8.0, 100.0, "10,366", "v", "start").inside());
}

/// The y position of each gridline label (tick value) of an SVG, by its text.
pub(super) fn tick_labels(svg: &str) -> Vec<String> {
    svg.split("<g class=\"t\">")
        .skip(1)
        .filter_map(|g| {
            let text = g.split("</text>").next()?;
            Some(text.rsplit('>').next()?.to_string())
        })
        .collect()
}

#[test]
fn lines_and_dots_fit_their_data_unless_zero_is_near() {
    assert_eq!(
        value_domain(316.0, 374.0, None),
        (316.0, 374.0),
        "CO2: fitted"
    );
    assert_eq!(
        value_domain(10.0, 100.0, None),
        (0.0, 100.0),
        "zero is near"
    );
    assert_eq!(value_domain(-50.0, -40.0, None), (-50.0, -40.0));
    assert_eq!(value_domain(-5.0, 40.0, None), (-5.0, 40.0), "zero inside");
    assert_eq!(value_domain(316.0, 374.0, Some(true)), (0.0, 374.0));
    assert_eq!(value_domain(10.0, 100.0, Some(false)), (10.0, 100.0));
    // Mauna Loa's weekly CO2: the axis runs 310 to 380, and the line spans most of it.
    let points: Vec<ChartPoint> = (0..40)
        .map(|i| point(&format!("{}", 1958 + i), None, 316.0 + i as f64 * 1.5))
        .collect();
    let chart = input(ChartKind::Line, XScale::Number, &points);
    let svg = render(&chart, Placement::Inline);
    let ticks = tick_labels(&svg);
    assert_eq!(ticks.first().map(String::as_str), Some("310"), "{ticks:?}");
    assert_eq!(ticks.last().map(String::as_str), Some("380"), "{ticks:?}");
    assert!(svg.contains(
        "The value axis does not start at zero: it is fitted to the data, from 310 to 380."
    ));
    let from_zero = render(
        &ChartInput {
            y_zero: Some(true),
            ..chart.clone()
        },
        Placement::Inline,
    );
    assert_eq!(
        tick_labels(&from_zero).first().map(String::as_str),
        Some("0")
    );
    assert!(!from_zero.contains("does not start at zero"));
    // Bars always start at zero.
    let bars = render(
        &input(ChartKind::Bar, XScale::Category, &points[..5]),
        Placement::Inline,
    );
    assert!(bars.contains("class=\"z\""), "bars grow from a zero line");
}

#[test]
fn a_long_line_is_one_path_without_markers() {
    let points: Vec<ChartPoint> = (0..2_225)
        .map(|i| point(&format!("{}", i), None, 316.0 + (i % 52) as f64 * 0.1))
        .collect();
    let svg = render(
        &input(ChartKind::Line, XScale::Number, &points),
        Placement::Inline,
    );
    assert_eq!(svg.matches("<path").count(), 1, "one path");
    assert_eq!(
        svg.matches("<circle").count() + svg.matches("<rect x=").count(),
        0,
        "no markers"
    );
    assert_eq!(
        svg.matches("<line").count(),
        svg.matches("class=\"g\"").count() + svg.matches("class=\"z\"").count(),
        "only gridlines are lines"
    );
    assert!(svg.contains("Drawn as lines without point markers."));
    assert!(svg.contains("vector-effect=\"non-scaling-stroke\""));
    // A short one keeps a marker per point, each with its exact value.
    let short = render(
        &input(ChartKind::Line, XScale::Number, &points[..50]),
        Placement::Inline,
    );
    assert_eq!(short.matches("<circle").count(), 50);
    // Dots are the marks: always drawn.
    let dots = render(
        &input(ChartKind::Dot, XScale::Number, &points[..500]),
        Placement::Inline,
    );
    assert_eq!(dots.matches("<circle").count(), 500);
}

#[test]
fn on_a_date_axis_points_sit_at_their_dates_not_dodged() {
    let points = [
        point("1952", Some("Asia"), 40.0),
        point("1952", Some("Europe"), 40.05),
        point("1957", Some("Asia"), 42.0),
        point("1957", Some("Europe"), 42.55),
    ];
    let svg = render(
        &input(ChartKind::Line, XScale::Date, &points),
        Placement::Inline,
    );
    assert!(
        !svg.contains("<g transform=\"translate("),
        "no series moved sideways on a date axis"
    );
    let categories = render(
        &input(ChartKind::Line, XScale::Category, &points),
        Placement::Inline,
    );
    assert!(
        categories.contains("<g transform=\"translate("),
        "on categories crowded series still move apart"
    );
}

#[test]
fn lines_of_several_series_are_named_at_their_ends_not_in_a_legend() {
    let points = flagship_points();
    let svg = render(
        &input(ChartKind::Line, XScale::Category, &points),
        Placement::Inline,
    );
    assert_eq!(svg.matches("class=\"dl s").count(), 3, "{svg}");
    for name in ["SATA", "SAS", "NVMe"] {
        assert!(svg.contains(&format!(">{name}</text>")), "{name}");
    }
    // The legend's markers carry no tooltip; every marker left is a point's.
    assert_eq!(
        svg.matches("<circle").count() + svg.matches("<rect x").count(),
        9
    );
    let dots = render(
        &input(ChartKind::Dot, XScale::Category, &points),
        Placement::Inline,
    );
    assert_eq!(dots.matches("class=\"dl").count(), 0, "dots keep a legend");
}

#[test]
fn highlighted_series_are_coloured_and_named_the_rest_grey() {
    let countries: Vec<String> = (0..12).map(|i| format!("Country {i}")).collect();
    let mut points = Vec::new();
    for year in 1952..1960 {
        for (i, country) in countries.iter().enumerate() {
            points.push(point(
                &year.to_string(),
                Some(country),
                (year - 1900 + i) as f64,
            ));
        }
    }
    let highlight = ["Country 3".to_string(), "Country 7".to_string()];
    let chart = ChartInput {
        many: ManySeries {
            highlight: &highlight,
            ..ManySeries::default()
        },
        ..input(ChartKind::Line, XScale::Number, &points)
    };
    let svg = render(&chart, Placement::Inline);
    assert_eq!(
        svg.matches("class=\"cx\"").count(),
        10,
        "grey context lines"
    );
    assert_eq!(svg.matches("class=\"dl s").count(), 2);
    assert!(svg.contains(">Country 3</text>") && svg.contains(">Country 7</text>"));
    assert!(
        !svg.contains(">Country 0</text>"),
        "context lines are not named"
    );
    assert!(svg.contains("In colour: Country 3 and Country 7; the other 10 series in grey."));
    // Only the highlighted lines have markers (8 points each).
    assert_eq!(svg.matches("<title>").count(), 16);
}

#[test]
fn several_y_columns_and_aggregates_are_described() {
    let points = [
        point("2020", Some("GOOG"), 1.0),
        point("2021", Some("GOOG"), 2.0),
        point("2020", Some("AAPL"), 3.0),
        point("2021", Some("AAPL"), 4.0),
    ];
    let columns = ["GOOG".to_string(), "AAPL".to_string()];
    let chart = ChartInput {
        y_title: "USD",
        series_title: None,
        many: ManySeries {
            y_columns: &columns,
            aggregated: Some((crate::content::Aggregate::Median, 9)),
            ..ManySeries::default()
        },
        ..input(ChartKind::Line, XScale::Number, &points)
    };
    let svg = render(&chart, Placement::Inline);
    assert!(
        svg.contains("Line chart of GOOG and AAPL (USD) by Block size, one series per column."),
        "{svg}"
    );
    assert!(svg.contains(
        "Each point is the median of the rows sharing its Block size: 9 rows drawn as 4 points."
    ));
}

#[test]
fn markers_that_would_hide_each_other_leave_a_line_as_a_path() {
    let apart = [
        point("2001", Some("a"), 10.0),
        point("2002", Some("a"), 20.0),
        point("2001", Some("b"), 50.0),
        point("2002", Some("b"), 60.0),
    ];
    let chart = input(ChartKind::Line, XScale::Number, &apart);
    assert!(line_is_marked(&chart));
    let close = [
        apart[0].clone(),
        apart[1].clone(),
        point("2001", Some("b"), 10.2),
        point("2002", Some("b"), 20.2),
    ];
    let chart = input(ChartKind::Line, XScale::Number, &close);
    assert!(!line_is_marked(&chart));
    let svg = render(&chart, Placement::Inline);
    assert_eq!(
        svg.matches("<circle").count() + svg.matches("<rect x").count(),
        0
    );
    assert!(svg.contains("Drawn as lines without point markers."));
    // On categories the series move apart instead.
    assert!(line_is_marked(&input(
        ChartKind::Line,
        XScale::Category,
        &close
    )));
}
