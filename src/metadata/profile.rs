//! The `datapages:profile` property of each Data Package field: the column profile the page
//! shows, as numbers and values for software.

use serde_json::{json, Map, Value};

use crate::dataset::scan::{ColumnProfile, DISTINCT_CAP};

/// Most common values listed per text column.
const MOST_COMMON: usize = 5;

/// The profile of one column as a JSON object.
pub fn profile_json(profile: &ColumnProfile) -> Value {
    let mut out = Map::new();
    out.insert("filled".into(), json!(profile.filled));
    out.insert("empty".into(), json!(profile.empty));
    if let Some(numbers) = &profile.numbers {
        out.insert("count".into(), json!(numbers.count));
        out.insert("min".into(), json!(numbers.min));
        out.insert("max".into(), json!(numbers.max));
        out.insert("mean".into(), json!(numbers.mean()));
        let width = numbers.histogram.width();
        let bins: Vec<Value> = numbers
            .histogram
            .dense()
            .into_iter()
            .map(|(lower, count)| json!({"from": lower, "to": lower + width, "count": count}))
            .collect();
        out.insert("histogram".into(), Value::Array(bins));
    }
    if let Some(dates) = &profile.dates {
        out.insert("earliest".into(), json!(dates.earliest));
        out.insert("latest".into(), json!(dates.latest));
    }
    if let Some(text) = &profile.text {
        match text.count() {
            Some(n) => {
                out.insert("distinct".into(), json!(n));
                let top: Vec<Value> = text
                    .most_common(MOST_COMMON)
                    .into_iter()
                    .map(|(value, count)| json!({"value": value, "count": count}))
                    .collect();
                out.insert("mostCommon".into(), Value::Array(top));
            }
            None => {
                out.insert("distinctMoreThan".into(), json!(DISTINCT_CAP));
                if let Some(estimate) = text.estimate() {
                    let estimate = estimate.max(DISTINCT_CAP as u64 + 1);
                    out.insert("distinctEstimate".into(), json!(estimate));
                }
            }
        }
    }
    Value::Object(out)
}
