//! Column profiles: figures from cells, and halves that merge into what one pass gives.

use crate::scan::fingerprint::fingerprint;
use crate::scan::profile::*;
use crate::schema::ColumnType;

fn profile(cells: &[&str], column_type: ColumnType) -> ColumnProfile {
    let mut p = ColumnProfile::default();
    for c in cells {
        add(&mut p, c, column_type);
    }
    p
}

/// Adds a cell as the scan does: a number column's cell is read as a float once its type
/// check passes.
fn add(p: &mut ColumnProfile, c: &str, column_type: ColumnType) {
    let number = match column_type.is_numeric() && column_type.is_valid(c) {
        true => c.parse().ok(),
        false => None,
    };
    p.add(c, column_type, fingerprint(c), number);
}

#[test]
fn numbers_give_exact_mean_and_extremes() {
    let p = profile(&["0.1", "0.2", "", "0.3", "-1e3"], ColumnType::Number);
    assert_eq!((p.filled, p.empty), (4, 1));
    let n = p.numbers.unwrap();
    assert_eq!((n.min, n.max), (-1000.0, 0.3));
    assert_eq!(n.min_text, "-1e3");
    assert_eq!(n.mean(), (0.1 + 0.2 + 0.3 - 1000.0) / 4.0);
    assert_eq!(n.histogram.bins.iter().map(|b| b.1).sum::<u64>(), 4);
    let (lo, hi) = n.histogram.bins.ends().unwrap();
    let span = hi - lo;
    assert!(span < HISTOGRAM_BINS);
}

#[test]
fn merging_halves_equals_one_pass() {
    let cells: Vec<String> = (0..500)
        .map(|i| format!("{}", (i * 37 % 101) as f64 * 0.7 - 20.0))
        .collect();
    let all: Vec<&str> = cells.iter().map(String::as_str).collect();
    for cut in [0, 1, 250, 499, 500] {
        let mut head = profile(&all[..cut], ColumnType::Number);
        head.merge(profile(&all[cut..], ColumnType::Number));
        assert_eq!(head, profile(&all, ColumnType::Number), "cut {cut}");
    }
}

#[test]
fn text_counts_distinct_values_up_to_the_cap() {
    let p = profile(&["a", "b", "a", "", "c", "a"], ColumnType::String);
    let text = p.text.unwrap();
    assert_eq!(text.count(), Some(3));
    assert_eq!(text.most_common(2), vec![("a", 3), ("b", 1)]);
    let many: Vec<String> = (0..=DISTINCT_CAP).map(|i| i.to_string()).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    assert_eq!(
        profile(&many, ColumnType::String).text.unwrap().count(),
        None
    );
    assert_eq!(
        profile(&many[1..], ColumnType::String)
            .text
            .unwrap()
            .count(),
        Some(DISTINCT_CAP)
    );
}

#[test]
fn profiles_survive_the_cache() {
    let mut p = profile(&["1e300", "-3.5", "", "7"], ColumnType::Number);
    p.merge(profile(&["x", "y", "x"], ColumnType::String));
    let json = serde_json::to_string(&p).unwrap();
    let back: ColumnProfile = serde_json::from_str(&json).unwrap();
    assert_eq!(back, p);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let again: ColumnProfile = serde_json::from_value(value).unwrap();
    assert_eq!(again, p);
}

#[test]
fn dates_give_their_range() {
    let p = profile(&["2021-05-01", "2019", "2024-01"], ColumnType::Date);
    let d = p.dates.unwrap();
    assert_eq!(
        (d.earliest.as_str(), d.latest.as_str()),
        ("2019", "2024-01")
    );
}

#[test]
fn past_the_cap_distinct_values_are_estimated_and_halves_join_exactly() {
    let cells: Vec<String> = (0..12_000).map(|i| format!("v{}", i % 6_000)).collect();
    let all: Vec<&str> = cells.iter().map(String::as_str).collect();
    let whole = profile(&all, ColumnType::String);
    let text = whole.text.as_ref().unwrap();
    assert_eq!(text.count(), None);
    let estimate = text.estimate().unwrap() as f64;
    assert!((estimate - 6_000.0).abs() / 6_000.0 < 0.05, "{estimate}");
    for cut in [0, 700, 5_999, 11_000] {
        let mut head = profile(&all[..cut], ColumnType::String);
        head.merge(profile(&all[cut..], ColumnType::String));
        assert_eq!(head, whole, "cut {cut}");
    }
    let json = serde_json::to_string(&whole).unwrap();
    assert_eq!(serde_json::from_str::<ColumnProfile>(&json).unwrap(), whole);
}

/// A finished profile drops what only adding needs, and stays the same profile: equal,
/// and adding or merging afterwards gives what it would have given whole.
#[test]
fn a_compact_profile_is_the_same_and_keeps_counting() {
    let numbers: Vec<String> = (0..200)
        .map(|i| format!("{}", i as f64 * 1.25 - 90.0))
        .collect();
    let words: Vec<String> = (0..200).map(|i| format!("w{}", i % 37)).collect();
    for (cells, column_type) in [(&numbers, ColumnType::Number), (&words, ColumnType::String)] {
        let all: Vec<&str> = cells.iter().map(String::as_str).collect();
        let whole = profile(&all, column_type);
        for cut in [0, 1, 100, 200] {
            let mut head = profile(&all[..cut], column_type);
            head.compact();
            let mut tail = profile(&all[cut..], column_type);
            tail.compact();
            assert_eq!(
                head,
                profile(&all[..cut], column_type),
                "compact is equal, cut {cut}"
            );
            let mut added = head.clone();
            for c in &all[cut..] {
                add(&mut added, c, column_type);
            }
            assert_eq!(
                added, whole,
                "{column_type:?} added after compacting, cut {cut}"
            );
            head.merge(tail);
            assert_eq!(
                head, whole,
                "{column_type:?} merged after compacting, cut {cut}"
            );
            if let (Some(a), Some(b)) = (&head.numbers, &whole.numbers) {
                assert_eq!(a.mean().to_bits(), b.mean().to_bits());
            }
            if let (Some(a), Some(b)) = (&head.text, &whole.text) {
                assert_eq!(a.most_common(5), b.most_common(5));
                assert_eq!(a.count(), Some(37));
                assert_eq!(b.count(), Some(37));
            }
        }
    }
}
