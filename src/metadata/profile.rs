//! The `datapages:profile` property of each Data Package field: the column profile the page
//! shows, as numbers and values for software (a typed struct, keys in sorted order). As
//! compact as the page: nothing another key already says (`count` only when it differs from
//! `filled`, no histogram of one value, no most common values when none repeats), and the
//! histogram as its first edge, its bin width and the counts, not one object per bin.

use serde::Serialize;

use crate::dataset::scan::{ColumnProfile, DISTINCT_CAP};

/// Most common values listed per text column.
const MOST_COMMON: usize = 5;

/// The profile of one column, keys in sorted order.
#[derive(Serialize)]
pub struct Profile<'a> {
    /// The numbers profiled, when fewer than `filled` (`NaN`, `INF` or a number a 64-bit
    /// float cannot hold are not); absent, it is `filled`.
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    distinct: Option<usize>,
    #[serde(rename = "distinctEstimate", skip_serializing_if = "Option::is_none")]
    distinct_estimate: Option<u64>,
    #[serde(rename = "distinctMoreThan", skip_serializing_if = "Option::is_none")]
    distinct_more_than: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    earliest: Option<&'a str>,
    empty: u64,
    filled: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    histogram: Option<Bins>,
    #[serde(skip_serializing_if = "Option::is_none")]
    latest: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mean: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    min: Option<f64>,
    #[serde(rename = "mostCommon", skip_serializing_if = "Option::is_none")]
    most_common: Option<Vec<Common<'a>>>,
}

/// Bin `i` holds the values from `from + i * width` up to (not including) the next edge.
/// The width is a power of two, so every edge is exact.
#[derive(Serialize)]
struct Bins {
    counts: Vec<u64>,
    from: f64,
    width: f64,
}

#[derive(Serialize)]
struct Common<'a> {
    count: u64,
    value: &'a str,
}

impl<'a> Profile<'a> {
    /// The profile of one column.
    pub fn of(profile: &'a ColumnProfile) -> Self {
        let mut out = Profile {
            count: None,
            distinct: None,
            distinct_estimate: None,
            distinct_more_than: None,
            earliest: None,
            empty: profile.empty,
            filled: profile.filled,
            histogram: None,
            latest: None,
            max: None,
            mean: None,
            min: None,
            most_common: None,
        };
        if let Some(numbers) = &profile.numbers {
            out.count = (numbers.count != profile.filled).then_some(numbers.count);
            out.min = Some(numbers.min);
            out.max = Some(numbers.max);
            out.mean = Some(numbers.mean());
            // One value throughout: its one bin would repeat `min` and the count.
            if numbers.min < numbers.max {
                let bins = numbers.histogram.dense();
                out.histogram = bins.first().map(|&(from, _)| Bins {
                    counts: bins.iter().map(|&(_, count)| count).collect(),
                    from,
                    width: numbers.histogram.width(),
                });
            }
        }
        if let Some(dates) = &profile.dates {
            out.earliest = Some(&dates.earliest);
            out.latest = Some(&dates.latest);
        }
        if let Some(text) = &profile.text {
            match text.count() {
                Some(n) => {
                    out.distinct = Some(n);
                    let top = text.most_common(MOST_COMMON);
                    // As on the page: listed only when a value repeats (else `distinct`
                    // equals the count of values and any five are "most common").
                    if top.first().is_some_and(|&(_, count)| count > 1) {
                        let top = top.into_iter();
                        out.most_common =
                            Some(top.map(|(value, count)| Common { count, value }).collect());
                    }
                }
                None => {
                    out.distinct_more_than = Some(DISTINCT_CAP);
                    out.distinct_estimate = text
                        .estimate()
                        .map(|estimate| estimate.max(DISTINCT_CAP as u64 + 1));
                }
            }
        }
        out
    }
}
