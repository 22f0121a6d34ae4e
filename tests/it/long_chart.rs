//! A line chart of a 1,000,000-row daily series: drawn from the one streaming scan,
//! reduced (M4) in flat memory, and its path still reaches the CSV's global minimum and
//! maximum, which the test reads from the CSV itself.

use crate::common;

use std::io::{BufWriter, Write};
use std::path::Path;

const FRONT: &str = r#"title = "A long series"
kicker = "generated rows"
headline = "A million days of a generated series"
tags = ["Test tag"]
[[sources]]
id = "src"
title = "A source"
[[columns]]
name = "day"
title = "Day"
type = "date"
description = "The day."
[[columns]]
name = "level"
title = "Level (units)"
type = "number"
description = "A seasonal wave on a slow trend, with one spike up and one down."
[[charts]]
kind = "line"
id = "level"
title = "Level by day"
x = "day"
y = "level"
"#;

/// The (year, month, day) after `date`.
fn next_day((y, m, d): (u32, u32, u32)) -> (u32, u32, u32) {
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    match (d < days, m < 12) {
        (true, _) => (y, m, d + 1),
        (false, true) => (y, m + 1, 1),
        (false, false) => (y + 1, 1, 1),
    }
}

fn write_series(root: &Path, rows: u32) {
    common::write_small_site(root, FRONT, common::SMALL_BODY, b"");
    let file = std::fs::File::create(root.join("data/datasets/sample.csv")).unwrap();
    let mut out = BufWriter::new(file);
    writeln!(out, "day,level").unwrap();
    let mut date = (1000, 1, 1);
    for i in 0..rows {
        let t = f64::from(i);
        let level = match i {
            _ if i == rows * 3 / 7 => 1234.5,
            _ if i == rows * 5 / 7 => -987.25,
            _ => 100.0 + t * 5e-5 + 10.0 * (t / 365.25 * std::f64::consts::TAU).sin(),
        };
        writeln!(out, "{:04}-{:02}-{:02},{level:.3}", date.0, date.1, date.2).unwrap();
        date = next_day(date);
    }
    out.flush().unwrap();
}

/// The lowest and highest `level` of the CSV, read back as text.
fn csv_extremes(root: &Path) -> (f64, f64) {
    let text = std::fs::read_to_string(root.join("data/datasets/sample.csv")).unwrap();
    text.lines()
        .skip(1)
        .map(|line| line.split(',').nth(1).unwrap().parse::<f64>().unwrap())
        .fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)))
}

/// A number as the chart labels it ("1,200", "-1,000", "−1,000").
fn label_value(text: &str) -> f64 {
    text.replace([',', '\u{202f}', '\u{a0}'], "")
        .replace('\u{2212}', "-")
        .parse()
        .unwrap_or_else(|_| panic!("a tick label: {text:?}"))
}

/// `attribute="value"` inside `tag`.
fn attribute(tag: &str, name: &str) -> f64 {
    let start = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
    tag[start..].split('"').next().unwrap().parse().unwrap()
}

/// The `d` of the chart's one path.
fn path_data(svg: &str) -> &str {
    svg.split(" d=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
}

/// The values the path's highest and lowest points stand for, read against the gridlines
/// of the first and last tick.
fn path_extremes(svg: &str) -> (f64, f64) {
    let ticks: Vec<(f64, f64)> = svg
        .split("<g class=\"t\">")
        .skip(1)
        .map(|group| {
            let line = group.split("<line").nth(1).unwrap();
            let label = group
                .split("</text>")
                .next()
                .unwrap()
                .rsplit('>')
                .next()
                .unwrap();
            (attribute(line, "y1"), label_value(label))
        })
        .collect();
    let (g0, v0) = ticks[0];
    let (g1, v1) = ticks[ticks.len() - 1];
    let value = |y: f64| v0 + (y - g0) / (g1 - g0) * (v1 - v0);
    let mut lowest = f64::MAX;
    let mut highest = f64::MIN;
    assert_eq!(svg.matches("<path").count(), 1, "one unbroken path");
    let frame = svg
        .split("<path")
        .next()
        .unwrap()
        .rsplit("<svg")
        .next()
        .unwrap();
    let top = attribute(frame, "y");
    for step in path_data(svg).split(['M', 'L']).filter(|s| !s.is_empty()) {
        let y: f64 = step.split(' ').nth(1).unwrap().parse().unwrap();
        let v = value(top + y);
        lowest = lowest.min(v);
        highest = highest.max(v);
    }
    (lowest, highest)
}

#[test]
#[ignore = "full tier: builds of 10,000 and 1,000,000 rows with a line chart, measured by GNU time"]
fn a_million_row_line_is_reduced_in_flat_memory_and_keeps_its_extremes() {
    let small = tempfile::tempdir().unwrap();
    let large = tempfile::tempdir().unwrap();
    write_series(small.path(), 10_000);
    write_series(large.path(), 1_000_000);
    if !common::measure::can_measure() {
        return;
    }
    // Peak memory at 1,000,000 rows within twice that at 10,000, as the row tests bound it.
    let stdout = common::measure::build_flat_in_rows(small.path(), large.path());
    assert!(!stdout.contains("draws only the first"), "{stdout}");

    let svg = std::fs::read_to_string(large.path().join("public/data/datasets/sample-level.svg"))
        .unwrap();
    let (csv_lo, csv_hi) = csv_extremes(large.path());
    assert_eq!((csv_lo, csv_hi), (-987.25, 1234.5));
    let (path_lo, path_hi) = path_extremes(&svg);
    // One pixel's worth of the plot's 180 px, from the path's two decimals and the axis.
    let pixel = (csv_hi - csv_lo) / 180.0;
    assert!(
        (path_lo - csv_lo).abs() < pixel && (path_hi - csv_hi).abs() < pixel,
        "the path spans {path_lo}..{path_hi}, the CSV {csv_lo}..{csv_hi}"
    );
    assert!(svg.contains("Reduced for drawing: "), "{svg}");
    assert!(svg.contains(" points of 1,000,000 are drawn"));
    assert_eq!(svg.matches("<circle").count(), 0, "a path, no markers");
    let drawn = path_data(&svg).matches(['M', 'L']).count();
    assert!((1_000..=4 * 1_600).contains(&drawn), "{drawn} points drawn");
}
