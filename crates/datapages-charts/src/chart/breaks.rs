//! Where a line breaks: a row of the same series with no value between two drawn points
//! (a gap) cuts the line there, so a missing week is not drawn as a straight stretch that
//! no data supports. `connect_gaps = true` records no gaps, and the line joins over them.

use crate::scan::ChartGap;

/// The x positions of the gaps of series `index`, sorted; `position` places an x.
pub(super) fn gap_positions(
    gaps: &[ChartGap],
    series: &[&str],
    index: usize,
    position: &dyn Fn(&str) -> Option<f64>,
) -> Vec<f64> {
    let mut at: Vec<f64> = gaps
        .iter()
        .filter(|gap| {
            let name = gap.series.as_deref().unwrap_or("");
            series.iter().position(|s| *s == name).unwrap_or(0) == index
        })
        .filter_map(|gap| position(&gap.x))
        .collect();
    at.sort_by(f64::total_cmp);
    at
}

/// The stretches of `line` (sorted by x) that no gap in `breaks` (sorted) falls strictly
/// inside: each is drawn as one line; a stretch of one point has no line and gets a marker.
pub(super) fn runs<'l, T>(line: &'l [(f64, T)], breaks: &[f64]) -> Vec<&'l [(f64, T)]> {
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..line.len() {
        let (a, b) = (line[i - 1].0, line[i].0);
        let next = breaks.partition_point(|g| *g <= a);
        if breaks.get(next).is_some_and(|g| *g < b) {
            runs.push(&line[start..i]);
            start = i;
        }
    }
    if start < line.len() {
        runs.push(&line[start..]);
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gap_between_two_points_breaks_the_line_there() {
        let line: Vec<(f64, ())> = [1.0, 2.0, 3.0, 4.0, 6.0].iter().map(|x| (*x, ())).collect();
        let at = |runs: Vec<&[(f64, ())]>| -> Vec<Vec<f64>> {
            runs.iter()
                .map(|r| r.iter().map(|p| p.0).collect())
                .collect()
        };
        assert_eq!(at(runs(&line, &[])), [vec![1.0, 2.0, 3.0, 4.0, 6.0]]);
        assert_eq!(
            at(runs(&line, &[2.5, 5.0])),
            [vec![1.0, 2.0], vec![3.0, 4.0], vec![6.0]]
        );
        // Before the first point, after the last, or on a point: nothing to break.
        assert_eq!(at(runs(&line, &[0.0, 3.0, 9.0])).len(), 1);
    }

    #[test]
    fn gaps_belong_to_their_series() {
        let gaps = [
            ChartGap {
                x: "3".into(),
                series: Some("b".into()),
            },
            ChartGap {
                x: "1".into(),
                series: Some("a".into()),
            },
            ChartGap {
                x: "2".into(),
                series: Some("b".into()),
            },
        ];
        let position = |x: &str| x.parse().ok();
        assert_eq!(gap_positions(&gaps, &["a", "b"], 1, &position), [2.0, 3.0]);
        assert_eq!(gap_positions(&gaps, &["a", "b"], 0, &position), [1.0]);
    }
}
