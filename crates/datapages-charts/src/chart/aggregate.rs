//! `aggregate`: the points that share an x and series become one, whose value is their
//! mean, median, sum or count, in the order the groups first appear.

use std::collections::HashMap;

use crate::content::Aggregate;
use crate::scan::ChartPoint;
use crate::schema::{format_cell, ColumnType};

/// One point per (x, series) of `points`, each the `aggregate` of its group.
pub fn aggregate(points: &[ChartPoint], aggregate: Aggregate) -> Vec<ChartPoint> {
    let mut order: Vec<(&str, Option<&str>)> = Vec::new();
    let mut groups: HashMap<(&str, Option<&str>), Vec<f64>> = HashMap::new();
    for point in points {
        let key = (point.x.as_str(), point.series.as_deref());
        groups
            .entry(key)
            .or_insert_with(|| {
                order.push(key);
                Vec::new()
            })
            .push(point.y);
    }
    order
        .into_iter()
        .map(|key| {
            let values = groups
                .get_mut(&key)
                .map(Vec::as_mut_slice)
                .unwrap_or_default();
            let y = aggregate.of(values);
            ChartPoint {
                x: key.0.to_string(),
                series: key.1.map(str::to_string),
                y,
                y_text: value_text(y),
            }
        })
        .collect()
}

/// A computed value as the table would show it: whole numbers as such, others to four
/// significant digits (at least one decimal), thousands grouped.
fn value_text(value: f64) -> String {
    let plain = if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{value:.0}")
    } else {
        let magnitude = value.abs().log10().floor() as i32;
        let decimals = (3 - magnitude).clamp(1, 12) as usize;
        let text = format!("{value:.decimals$}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    let mut out = String::new();
    format_cell(ColumnType::Number, &plain, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(x: &str, series: &str, y: f64) -> ChartPoint {
        ChartPoint {
            x: x.into(),
            series: Some(series.into()),
            y,
            y_text: y.to_string(),
        }
    }

    #[test]
    fn one_point_per_x_and_series_in_first_order() {
        let points = [
            point("1952", "Asia", 28.8),
            point("1952", "Europe", 55.2),
            point("1952", "Asia", 30.0),
            point("1957", "Asia", 31.0),
            point("1952", "Asia", 40.2),
        ];
        let mean = aggregate(&points, Aggregate::Mean);
        let shown: Vec<(&str, &str, &str)> = mean
            .iter()
            .map(|p| {
                (
                    p.x.as_str(),
                    p.series.as_deref().unwrap(),
                    p.y_text.as_str(),
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                ("1952", "Asia", "33"),
                ("1952", "Europe", "55.2"),
                ("1957", "Asia", "31")
            ]
        );
        let count = aggregate(&points, Aggregate::Count);
        assert_eq!(count[0].y, 3.0);
        assert_eq!(aggregate(&points, Aggregate::Median)[0].y, 30.0);
        assert_eq!(aggregate(&points, Aggregate::Sum)[1].y, 55.2);
    }

    #[test]
    fn computed_values_read_like_the_table() {
        assert_eq!(value_text(12345.0), "12,345");
        assert_eq!(value_text(2.0 / 3.0), "0.6667");
        assert_eq!(value_text(1234.5678), "1,234.6");
        assert_eq!(value_text(-0.000123456), "-0.0001235");
    }
}
