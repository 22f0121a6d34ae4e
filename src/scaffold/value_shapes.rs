//! How a text column's values are written (capitalised words, two capitals, digits and
//! dashes…), to tell a missing-value marker from a value written like it: `None` among
//! Italian towns (`Torino`, `Aosta`) and `NA` among country codes (`NO`, `NZ`) are values;
//! `NA` among sentences is a marker.

use rustc_hash::FxHashMap;

/// Values whose shape is counted (a sample: the first ones).
const SAMPLED: u64 = 10_000;

/// Different shapes kept; past this the column has no common shape to compare with.
const MAX_SHAPES: usize = 256;

/// The shapes of a column's first values, with how many values have each.
#[derive(Debug, Default)]
pub(super) struct Shapes {
    counts: FxHashMap<String, u64>,
    sampled: u64,
    overflowed: bool,
}

impl Shapes {
    pub(super) fn add(&mut self, value: &str) {
        if self.sampled >= SAMPLED || self.overflowed {
            return;
        }
        self.sampled += 1;
        let shape = shape(value);
        let room = self.counts.len() < MAX_SHAPES;
        match self.counts.get_mut(&shape) {
            Some(count) => *count += 1,
            None if room => {
                self.counts.insert(shape, 1);
            }
            None => self.overflowed = true,
        }
    }

    /// Whether at least half of the values sampled (and two or more) are written like
    /// `marker`: the marker is then a value of the column, not "no value".
    pub(super) fn written_like(&self, marker: &str) -> bool {
        let like = self.counts.get(&shape(marker)).copied().unwrap_or(0);
        !self.overflowed && like >= 2 && like * 2 >= self.sampled
    }

    /// A value written like `marker`, to name in a note.
    pub(super) fn example<'a>(&self, marker: &str, values: &'a [String]) -> Option<&'a str> {
        let wanted = shape(marker);
        values
            .iter()
            .find(|v| v.as_str() != marker && shape(v) == wanted)
            .map(String::as_str)
    }
}

/// A value's shape: each run of capitals `A`, small letters `a`, digits `9`, spaces ` `,
/// and any other character as itself; at most 12 runs. A value of capitals alone keeps its
/// length (`A2`: `NA` is written like `NO`, not like `A`).
fn shape(value: &str) -> String {
    if !value.is_empty() && value.chars().all(|c| c.is_ascii_uppercase()) {
        return format!("A{}", value.len());
    }
    let mut out = String::new();
    let mut last = None;
    for c in value.chars() {
        let class = if c.is_uppercase() {
            'A'
        } else if c.is_alphabetic() {
            'a'
        } else if c.is_ascii_digit() {
            '9'
        } else if c.is_whitespace() {
            ' '
        } else {
            c
        };
        if last != Some(class) {
            if out.chars().count() == 12 {
                break;
            }
            out.push(class);
            last = Some(class);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shapes(values: &[&str]) -> Shapes {
        let mut shapes = Shapes::default();
        for value in values {
            shapes.add(value);
        }
        shapes
    }

    #[test]
    fn a_marker_written_like_the_values_is_a_value() {
        let towns = shapes(&["Torino", "Aosta", "Cuneo", "Novara", "Santa Maria"]);
        assert!(towns.written_like("None"));
        let codes = shapes(&["NO", "NZ", "FR", "DE"]);
        assert!(codes.written_like("NA"));
        let notes = shapes(&["sensor broken", "ok", "late reading", "ok"]);
        assert!(!notes.written_like("NA") && !notes.written_like("None"));
        assert!(
            !shapes(&["Torino"]).written_like("None"),
            "one value is no pattern"
        );
        assert_eq!(shape("Santa Maria"), "Aa Aa");
        assert_eq!(shape("AB-123"), "A-9");
        assert!(
            !shapes(&["A", "B", "C", "D"]).written_like("NA"),
            "letters are not codes"
        );
    }
}
