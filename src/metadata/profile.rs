//! The `datapages:profile` property of each Data Package field: the column profile the page
//! shows, as numbers and values for software (a typed struct, keys in sorted order).

use serde::Serialize;

use crate::dataset::scan::{ColumnProfile, DISTINCT_CAP};

/// Most common values listed per text column.
const MOST_COMMON: usize = 5;

/// The profile of one column, keys in sorted order.
#[derive(Serialize)]
pub struct Profile<'a> {
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
    histogram: Option<Vec<Bin>>,
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

#[derive(Serialize)]
struct Bin {
    count: u64,
    from: f64,
    to: f64,
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
            out.count = Some(numbers.count);
            out.min = Some(numbers.min);
            out.max = Some(numbers.max);
            out.mean = Some(numbers.mean());
            let width = numbers.histogram.width();
            let bins = numbers.histogram.dense().into_iter();
            out.histogram = Some(
                bins.map(|(from, count)| Bin {
                    count,
                    from,
                    to: from + width,
                })
                .collect(),
            );
        }
        if let Some(dates) = &profile.dates {
            out.earliest = Some(&dates.earliest);
            out.latest = Some(&dates.latest);
        }
        if let Some(text) = &profile.text {
            match text.count() {
                Some(n) => {
                    out.distinct = Some(n);
                    let top = text.most_common(MOST_COMMON).into_iter();
                    out.most_common =
                        Some(top.map(|(value, count)| Common { count, value }).collect());
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
