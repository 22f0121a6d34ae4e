//! Chart rendering of the axes and the line's shape: log scales, `y_min`/`y_max`, a time
//! axis of date-times, gaps, reduced lines and what the description says about them.

use super::tests::{input, point, tick_labels};
use super::*;
use crate::scan::ChartGap;

fn years(values: &[f64]) -> Vec<ChartPoint> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| point(&format!("{}", 2000 + i), None, *v))
        .collect()
}

#[test]
fn a_log_axis_ticks_powers_of_ten_and_says_so() {
    let points = years(&[3.0, 40.0, 700.0, 9_000.0, 250_000.0]);
    let chart = ChartInput {
        y_scale: YScale::Log,
        ..input(ChartKind::Line, XScale::Number, &points)
    };
    let svg = render(&chart, Placement::Inline);
    assert_eq!(
        tick_labels(&svg),
        ["1", "10", "100", "1,000", "10,000", "100,000", "1,000,000"]
    );
    assert!(
        svg.contains("The value axis is logarithmic, from 1 to 1,000,000."),
        "{svg}"
    );
    // Each decade is the same height: 10 sits one sixth of the way up from 1.
    let axis = scale::value_axis(&chart);
    assert!((axis.fraction(10.0) - 1.0 / 6.0).abs() < 1e-12);
    assert!((axis.fraction(250_000.0) - 250_000f64.log10() / 6.0).abs() < 1e-12);
}

#[test]
fn y_min_and_y_max_widen_the_axis_to_round_ticks() {
    let points = years(&[316.0, 330.0, 374.0]);
    let chart = ChartInput {
        y_min: Some(300.0),
        y_max: Some(400.0),
        ..input(ChartKind::Line, XScale::Number, &points)
    };
    let ticks = tick_labels(&render(&chart, Placement::Inline));
    assert_eq!(ticks.first().map(String::as_str), Some("300"), "{ticks:?}");
    assert_eq!(ticks.last().map(String::as_str), Some("400"), "{ticks:?}");
    // Only y_max: the bottom is still fitted to the data.
    let chart = ChartInput {
        y_max: Some(500.0),
        ..input(ChartKind::Line, XScale::Number, &points)
    };
    let svg = render(&chart, Placement::Inline);
    let ticks = tick_labels(&svg);
    assert_eq!(ticks.first().map(String::as_str), Some("300"), "{ticks:?}");
    assert_eq!(ticks.last().map(String::as_str), Some("500"), "{ticks:?}");
    assert!(svg.contains("it is fitted to the data, from 300 to 500."));
    // Zero inside the data, and zero as the baseline.
    let across = years(&[-5.0, 40.0]);
    let svg = render(
        &input(ChartKind::Line, XScale::Number, &across),
        Placement::Inline,
    );
    assert!(
        svg.contains("The value axis runs from -10 to 40, across zero."),
        "{svg}"
    );
    let bars = render(
        &input(ChartKind::Bar, XScale::Category, &points),
        Placement::Inline,
    );
    assert!(bars.contains("The value axis starts at zero."));
}

#[test]
fn a_gap_breaks_a_line_and_a_lone_point_keeps_its_marker() {
    // 200 yearly points (a path, no markers), missing 2050 and 2052: 2051 stands alone.
    let points: Vec<ChartPoint> = (0..203)
        .filter(|i| *i != 50 && *i != 52)
        .map(|i| point(&format!("{}", 2000 + i), None, f64::from(i % 7)))
        .collect();
    let gaps = [
        ChartGap {
            x: "2050".into(),
            series: None,
        },
        ChartGap {
            x: "2052".into(),
            series: None,
        },
    ];
    let chart = ChartInput {
        gaps: &gaps,
        missing: 2,
        ..input(ChartKind::Line, XScale::Number, &points)
    };
    let svg = render(&chart, Placement::Inline);
    assert_eq!(svg.matches("<path").count(), 2, "before and after the gaps");
    assert_eq!(svg.matches("<circle").count(), 1, "2051 alone: a marker");
    assert!(svg.contains("<title>2051: 2</title>"), "{svg}");
    assert!(svg.contains(
        "Not drawn: 2 rows with no value in Cluster throughput (MB/s); the line breaks there."
    ));
    // Without gaps (connect_gaps = true records none): one path, no marker.
    let joined = render(
        &input(ChartKind::Line, XScale::Number, &points),
        Placement::Inline,
    );
    assert_eq!(joined.matches("<path").count(), 1);
    assert_eq!(joined.matches("<circle").count(), 0);
    // Few points: segment by segment, none across a gap.
    let short = years(&[1.0, 2.0, 3.0, 4.0]);
    let gap = [ChartGap {
        x: "2001.5".into(),
        series: None,
    }];
    let svg = render(
        &ChartInput {
            gaps: &gap,
            ..input(ChartKind::Line, XScale::Number, &short)
        },
        Placement::Inline,
    );
    let segments = svg.matches("<line").count()
        - svg.matches("class=\"g\"").count()
        - svg.matches("class=\"z\"").count();
    assert_eq!(segments, 2, "2000-2001 and 2002-2003, not 2001-2002");
}

#[test]
fn a_reduced_line_says_how_it_was_reduced() {
    let points = years(&[1.0, 5.0, 2.0, 9.0, 3.0]);
    let chart = ChartInput {
        reduced: Some(crate::scan::Reduced {
            rows: 1_000_000,
            columns: 1_200,
        }),
        ..input(ChartKind::Line, XScale::Number, &points)
    };
    let svg = render(&chart, Placement::Inline);
    assert!(
        svg.contains("Reduced for drawing: 5 points of 1,000,000 are drawn, the first, last, lowest and highest of each series in each of 1,200 columns across the plot (M4)"),
        "{svg}"
    );
}

#[test]
fn date_times_sit_at_their_moment_on_an_hourly_axis() {
    // 00:00 UTC, 06:00 UTC written in another zone, and 12:00 UTC.
    let points = [
        point("2021-05-21T00:00:00Z", None, 1.0),
        point("2021-05-21T08:00:00+02:00", None, 2.0),
        point("2021-05-21T12:00:00Z", None, 3.0),
    ];
    let svg = render(
        &input(ChartKind::Line, XScale::Date, &points),
        Placement::Inline,
    );
    // Ticked by the hour (3 hours apart, thinned to what fits): the date once, then times.
    assert!(svg.contains(">2021-05-21 00:00<"), "{svg}");
    assert!(
        ["03", "06", "09", "12"]
            .iter()
            .any(|h| svg.contains(&format!(">{h}:00<"))),
        "{svg}"
    );
    // The middle point is halfway across, like the 06:00 tick.
    let circles: Vec<&str> = svg
        .split("<circle cx=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap())
        .collect();
    assert_eq!(circles.len(), 3, "{svg}");
    let across = |c: &str| c.trim_end_matches('%').parse::<f64>().unwrap();
    let (a, b, c) = (across(circles[0]), across(circles[1]), across(circles[2]));
    assert!(((b - a) - (c - b)).abs() < 0.01, "{a} {b} {c}");
}

/// The labels across (texts of class `k` that are not value-axis ticks), in order.
fn x_labels(svg: &str) -> Vec<String> {
    let ticks = tick_labels(svg);
    svg.split("class=\"k\"")
        .skip(1)
        .filter_map(|t| {
            let text = t.split("</text>").next()?;
            Some(text.rsplit('>').next()?.to_string())
        })
        .filter(|t| !ticks.contains(t))
        .collect()
}

#[test]
fn the_x_column_is_shown_as_the_table_shows_it() {
    // Years: no group marks on the ticks.
    let points = years(&[3.0, 4.0, 5.0, 6.0, 7.0]);
    let plain = input(ChartKind::Line, XScale::Number, &points);
    let grouped = x_labels(&render(&plain, Placement::Inline));
    assert!(grouped.contains(&"2,000".to_string()), "{grouped:?}");
    let chart = ChartInput {
        x_shown: XShown {
            years: true,
            ..XShown::default()
        },
        ..plain.clone()
    };
    let labels = x_labels(&render(&chart, Placement::Inline));
    assert!(labels.contains(&"2000".to_string()), "{labels:?}");
    assert!(!labels.iter().any(|l| l.contains("2,0")), "{labels:?}");
    // Four years of an integer column: a tick a year, never half years.
    let points = years(&[3.0, 4.0, 5.0, 6.0]);
    let halves = input(ChartKind::Line, XScale::Number, &points);
    // Without `whole`, the ticks that fit at the narrowest width, chosen anew from the
    // span (evenly spaced), not thinned.
    let labels = x_labels(&render(&halves, Placement::Inline));
    let at: Vec<f64> = labels
        .iter()
        .map(|l| l.replace(',', "").parse::<f64>().unwrap())
        .collect();
    assert!(at.len() >= 3, "{labels:?}");
    assert!(
        at.windows(3).all(|w| w[1] - w[0] == w[2] - w[1]),
        "{labels:?}"
    );
    let chart = ChartInput {
        x_shown: XShown {
            years: true,
            whole: true,
            ..XShown::default()
        },
        ..halves
    };
    let labels = x_labels(&render(&chart, Placement::Inline));
    assert_eq!(labels, ["2000", "2001", "2002", "2003"]);
    // `digits` of a number x: ticks and each point's text.
    let points: Vec<ChartPoint> = [("0.5", 1.0), ("1", 2.0), ("1.5", 3.0)]
        .iter()
        .map(|(x, y)| point(x, None, *y))
        .collect();
    let chart = ChartInput {
        x_shown: XShown {
            digits: Some(2),
            ..XShown::default()
        },
        ..input(ChartKind::Line, XScale::Number, &points)
    };
    let svg = render(&chart, Placement::Inline);
    let labels = x_labels(&svg);
    assert_eq!(labels, ["0.50", "1.00", "1.50"]);
    assert!(svg.contains("1.50: 3"), "{svg}");
    assert!(!svg.contains("1.5: 3"), "{svg}");
}

#[test]
fn a_quarterly_time_axis_is_ticked_in_quarters() {
    let quarters = ["1974 Q1", "1974 Q2", "1974 Q3", "1974 Q4", "1975 Q1"];
    let points: Vec<ChartPoint> = quarters
        .iter()
        .enumerate()
        .map(|(i, q)| point(q, None, i as f64))
        .collect();
    let plain = input(ChartKind::Line, XScale::Date, &points);
    let calendar = x_labels(&render(&plain, Placement::Inline));
    assert!(calendar.contains(&"1974-07".to_string()), "{calendar:?}");
    let chart = ChartInput {
        x_shown: XShown {
            dates: Some(crate::content::date_format::DateKind::Quarter),
            ..XShown::default()
        },
        ..plain
    };
    let labels = x_labels(&render(&chart, Placement::Inline));
    // Thinned to keep apart at the narrowest width: every other quarter start.
    assert_eq!(labels, ["1974 Q1", "1974 Q3", "1975 Q1"]);
    // Five and a half years: every other year, evenly (not 1974, 1977, 1979 thinned).
    let long: Vec<ChartPoint> = (0..22)
        .map(|i| point(&format!("{} Q{}", 1974 + i / 4, i % 4 + 1), None, i as f64))
        .collect();
    let chart = ChartInput {
        points: &long,
        ..chart
    };
    let labels = x_labels(&render(&chart, Placement::Inline));
    assert_eq!(labels, ["1974 Q1", "1976 Q1", "1978 Q1"]);
}

#[test]
fn a_year_of_daily_data_is_ticked_on_evenly_spaced_months() {
    // vega_datasets' seattle-weather, 2016: thinning six two-month ticks left
    // `2016-01`, `2016-07`, `2016-11`; fewer ticks are chosen from the span instead.
    let points: Vec<ChartPoint> = (0..366)
        .map(|day| {
            let (y, m, d) = crate::content::iso8601::civil_from_days(16_801 + day);
            point(&format!("{y:04}-{m:02}-{d:02}"), None, (day % 30) as f64)
        })
        .collect();
    assert_eq!(points[0].x, "2016-01-01");
    let labels = x_labels(&render(
        &input(ChartKind::Line, XScale::Date, &points),
        Placement::Inline,
    ));
    let months: Vec<i64> = labels
        .iter()
        .map(|l| l.strip_prefix("2016-").unwrap().parse().unwrap())
        .collect();
    assert!(months.len() >= 2, "{labels:?}");
    assert_eq!(months[0], 1, "{labels:?}");
    let step = months[1] - months[0];
    assert!([1, 2, 3, 6].contains(&step), "{labels:?}");
    assert!(months.windows(2).all(|w| w[1] - w[0] == step), "{labels:?}");
}
