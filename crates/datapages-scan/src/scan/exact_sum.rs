//! The exact sum behind a numeric column's mean: each double is an integer mantissa times
//! a power of two, added into the integer bucket of its exponent (32 exponents a bucket),
//! so the halves of a split scan add up to exactly what one pass finds. A finished sum
//! keeps only the buckets from its lowest to its highest in use: a column's values share
//! one or two, and 64 buckets of 16 bytes for each of a page's numeric columns were a
//! third of what `serve` holds per dataset.

use serde::{Deserialize, Serialize};

/// How many buckets cover every exponent of a double (2,046 / 32, rounded up).
const BUCKETS: usize = 64;

/// Stored as (bucket, decimal text) pairs of the buckets in use: JSON numbers stop at 64
/// bits.
#[derive(Clone, Serialize, Deserialize)]
#[serde(into = "Vec<(usize, String)>", try_from = "Vec<(usize, String)>")]
pub(super) struct ExactSum {
    /// The bucket `buckets[0]` is: 0 while the sum is being added to (all 64 buckets),
    /// the lowest in use once [`ExactSum::compact`].
    lowest: usize,
    buckets: Vec<i128>,
}

impl Default for ExactSum {
    fn default() -> ExactSum {
        ExactSum {
            lowest: 0,
            buckets: vec![0; BUCKETS],
        }
    }
}

impl ExactSum {
    pub(super) fn add(&mut self, x: f64) {
        let bits = x.to_bits();
        let biased = ((bits >> 52) & 0x7ff) as i64;
        let fraction = (bits & ((1 << 52) - 1)) as i128;
        // x = mantissa * 2^(shift - 1074), shift in 0..=2045.
        let (mantissa, shift) = if biased == 0 {
            (fraction, 0)
        } else {
            (fraction | (1 << 52), biased - 1)
        };
        let signed = if bits >> 63 == 1 { -mantissa } else { mantissa };
        let bucket = (shift / 32) as usize;
        self.expand();
        self.buckets[bucket] = self.buckets[bucket].wrapping_add(signed << (shift % 32));
    }

    /// Adds the values `other` summed.
    pub(super) fn merge(&mut self, other: &ExactSum) {
        self.expand();
        for (bucket, value) in other.in_use() {
            self.buckets[bucket] = self.buckets[bucket].wrapping_add(value);
        }
    }

    /// The sum, rounded once.
    pub(super) fn value(&self) -> f64 {
        let mut in_use: Vec<(usize, i128)> = self.in_use().collect();
        in_use.reverse();
        in_use
            .into_iter()
            .map(|(i, b)| b as f64 * 2f64.powi(32 * i as i32 - 1074))
            .sum()
    }

    /// Keeps only the buckets from the lowest to the highest in use (none for a sum of
    /// zeros); [`ExactSum::add`] and [`ExactSum::merge`] widen it again.
    pub(super) fn compact(&mut self) {
        let in_use: Vec<(usize, i128)> = self.in_use().collect();
        let (Some(first), Some(last)) = (in_use.first(), in_use.last()) else {
            *self = ExactSum {
                lowest: 0,
                buckets: Vec::new(),
            };
            return;
        };
        let (lowest, highest) = (first.0, last.0);
        let mut buckets = vec![0; highest - lowest + 1];
        for (bucket, value) in in_use {
            buckets[bucket - lowest] = value;
        }
        *self = ExactSum { lowest, buckets };
    }

    /// All 64 buckets again, for adding (they mostly are: checked inline).
    #[inline]
    fn expand(&mut self) {
        if self.lowest != 0 || self.buckets.len() != BUCKETS {
            self.expand_now();
        }
    }

    #[inline(never)]
    fn expand_now(&mut self) {
        let mut buckets = vec![0; BUCKETS];
        for (bucket, value) in self.in_use() {
            buckets[bucket] = value;
        }
        *self = ExactSum { lowest: 0, buckets };
    }

    /// Each bucket holding a value that is not zero, with its number, lowest first.
    fn in_use(&self) -> impl Iterator<Item = (usize, i128)> + '_ {
        self.buckets
            .iter()
            .enumerate()
            .filter(|(_, b)| **b != 0)
            .map(|(i, b)| (self.lowest + i, *b))
    }
}

/// Equal sums, however many buckets each keeps.
impl PartialEq for ExactSum {
    fn eq(&self, other: &ExactSum) -> bool {
        self.in_use().eq(other.in_use())
    }
}

impl std::fmt::Debug for ExactSum {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.in_use()).finish()
    }
}

impl From<ExactSum> for Vec<(usize, String)> {
    fn from(sum: ExactSum) -> Self {
        sum.in_use().map(|(i, b)| (i, b.to_string())).collect()
    }
}

/// A stored sum comes back compact.
impl TryFrom<Vec<(usize, String)>> for ExactSum {
    type Error = String;

    fn try_from(stored: Vec<(usize, String)>) -> Result<Self, Self::Error> {
        let mut sum = ExactSum::default();
        for (i, text) in stored {
            let value = text.parse::<i128>().map_err(|e| e.to_string())?;
            *sum.buckets.get_mut(i).ok_or("no such bucket")? = value;
        }
        sum.compact();
        Ok(sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summed(values: &[f64]) -> ExactSum {
        let mut sum = ExactSum::default();
        for &x in values {
            sum.add(x);
        }
        sum
    }

    #[test]
    fn a_compact_sum_is_the_same_sum_and_keeps_adding_exactly() {
        let values = [
            0.1, -1000.25, 99_999.9, 1e-300, -5e300, 3.0, 0.0, -0.0, 7.5e-310,
        ];
        for cut in 0..=values.len() {
            let whole = summed(&values);
            let mut compact = summed(&values[..cut]);
            compact.compact();
            assert!(compact.buckets.len() <= BUCKETS);
            for &x in &values[cut..] {
                compact.add(x);
            }
            assert_eq!(compact, whole, "cut at {cut}");
            assert_eq!(compact.value().to_bits(), whole.value().to_bits());
            let mut both = summed(&values[..cut]);
            both.compact();
            let mut rest = summed(&values[cut..]);
            rest.compact();
            both.merge(&rest);
            assert_eq!(
                both.value().to_bits(),
                whole.value().to_bits(),
                "merged at {cut}"
            );
        }
        // One column's values share few buckets.
        let mut column = summed(&[12.5, -300.75, 999.99, 0.01]);
        column.compact();
        assert!(column.buckets.len() <= 2, "{column:?}");
        let mut zeros = summed(&[0.0, -0.0]);
        zeros.compact();
        assert!(zeros.buckets.is_empty() && zeros.value() == 0.0);
    }

    #[test]
    fn a_stored_sum_reads_back_equal_and_compact() {
        let whole = summed(&[1.5, -2.25e10, 3e-5]);
        let stored: Vec<(usize, String)> = whole.clone().into();
        let back = ExactSum::try_from(stored).unwrap();
        assert_eq!(back, whole);
        assert!(back.buckets.len() < BUCKETS);
        assert!(ExactSum::try_from(vec![(64, "1".to_string())]).is_err());
    }
}
