//! Histograms of a numeric column: bins powers of two wide, aligned to multiples of their
//! width, at most [`HISTOGRAM_BINS`] from the lowest to the highest; a value is added in
//! one step (its bin found by number), and two histograms merge into exactly the one of all
//! their values, whatever the order.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Most bins of a histogram.
pub const HISTOGRAM_BINS: i64 = 20;

/// The finest bin width, as a power of two.
const FINEST_EXPONENT: i32 = -40;

/// A histogram whose bins are `2^exponent` wide, bin `k` holding values in
/// `[k * 2^exponent, (k + 1) * 2^exponent)`; at most `HISTOGRAM_BINS` bins from the
/// lowest to the highest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Histogram {
    pub exponent: i32,
    pub bins: Bins,
}

/// The bins in use, by number, in order: at most [`HISTOGRAM_BINS`] of them, so a sorted
/// list (16 bytes a bin) rather than a B-tree (about a kilobyte for 20 bins, kept for each
/// numeric column of every page `serve` holds). Stored as a map from bin to count.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Bins(Vec<(i64, u64)>);

impl Bins {
    /// Adds one to bin `key` when it is in use at the place it has when every bin from
    /// the lowest is in use (most values' bins: the step [`Bins::add`] tries first, inline);
    /// false, and nothing changed, otherwise.
    #[inline]
    fn add_one_in_place(&mut self, key: i64) -> bool {
        let Some(lowest) = self.0.first().map(|b| b.0) else {
            return false;
        };
        let bin = usize::try_from(key.wrapping_sub(lowest))
            .ok()
            .and_then(|at| self.0.get_mut(at))
            .filter(|b| b.0 == key);
        match bin {
            Some(bin) => {
                bin.1 += 1;
                true
            }
            None => false,
        }
    }

    /// Adds `count` to bin `key`; whether the bin is new.
    fn add(&mut self, key: i64, count: u64) -> bool {
        // The place the bin has when every bin from the lowest is in use, as they mostly
        // are (values in random order find their bin here without a guess that fails);
        // then the last (coarsening walks the keys in order, onto fewer bins).
        let lowest = self.0.first().map_or(key, |b| b.0);
        let dense = usize::try_from(key.wrapping_sub(lowest)).ok();
        if let Some(bin) = dense
            .and_then(|at| self.0.get_mut(at))
            .filter(|b| b.0 == key)
        {
            bin.1 += count;
            return false;
        }
        if let Some(last) = self.0.last_mut().filter(|b| b.0 == key) {
            last.1 += count;
            return false;
        }
        match self.0.binary_search_by_key(&key, |b| b.0) {
            Ok(at) => {
                self.0[at].1 += count;
                false
            }
            Err(at) => {
                self.0.insert(at, (key, count));
                true
            }
        }
    }

    /// The lowest and the highest bin in use.
    pub fn ends(&self) -> Option<(i64, i64)> {
        Some((self.0.first()?.0, self.0.last()?.0))
    }

    /// The count of bin `key` (0 when unused).
    pub fn count(&self, key: i64) -> u64 {
        self.0
            .binary_search_by_key(&key, |b| b.0)
            .map_or(0, |at| self.0[at].1)
    }

    /// The bins in use, lowest first.
    pub fn iter(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        self.0.iter().copied()
    }
}

impl Serialize for Bins {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de> Deserialize<'de> for Bins {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<i64, u64>::deserialize(deserializer)?;
        Ok(Bins(map.into_iter().collect()))
    }
}

/// `q.floor() as i64` (saturating alike), without the call to the C library's `floor`
/// that a target without SSE 4.1 makes.
fn floor_to_i64(q: f64) -> i64 {
    let toward_zero = q as i64;
    if (toward_zero as f64) > q {
        toward_zero.saturating_sub(1)
    } else {
        toward_zero
    }
}

/// `2^exponent` for exponents a double holds exactly.
pub fn power_of_two(exponent: i32) -> f64 {
    f64::from_bits(((exponent.clamp(-1022, 1023) + 1023) as u64) << 52)
}

/// `1 / power_of_two(exponent)`, exactly: `2^-1023` is subnormal, and exact too.
fn reciprocal_power_of_two(exponent: i32) -> f64 {
    match exponent.clamp(-1022, 1023) {
        1023 => f64::from_bits(1 << 51),
        e => power_of_two(-e),
    }
}

impl Histogram {
    /// No values yet, at the finest width.
    pub(super) fn new() -> Histogram {
        Histogram {
            exponent: FINEST_EXPONENT,
            bins: Bins::default(),
        }
    }

    /// The finest exponent at which `x` keeps its bin number well inside an `i64`.
    fn finest_for(x: f64) -> i32 {
        let biased = ((x.to_bits() >> 52) & 0x7ff) as i32;
        (biased - 1023 - 50).max(FINEST_EXPONENT)
    }

    /// `x`'s bin: `floor(x / 2^exponent)`, by multiplying with `2^-exponent` (exact, a
    /// power of two, so the product is the quotient, rounded alike; a multiplication
    /// does not hold up the lookup of the bin as a division does).
    fn bin(&self, x: f64) -> i64 {
        floor_to_i64(x * reciprocal_power_of_two(self.exponent))
    }

    #[inline]
    fn coarsen(&mut self, exponent: i32) {
        if exponent > self.exponent {
            self.coarsen_to(exponent);
        }
    }

    #[inline(never)]
    fn coarsen_to(&mut self, exponent: i32) {
        let shift = (exponent - self.exponent).min(63) as u32;
        let old = std::mem::take(&mut self.bins);
        for (key, count) in old.iter() {
            let _ = self.bins.add(key >> shift, count);
        }
        self.exponent = exponent;
    }

    /// Widens the bins until the lowest and highest are fewer than [`HISTOGRAM_BINS`] apart.
    /// The widening is found from the two ends alone and done in one step (shifts
    /// compose: `(k >> a) >> b == k >> (a + b)`), not one doubling per pass over the bins.
    fn fit(&mut self) {
        let Some((lo, hi)) = self.bins.ends() else {
            return;
        };
        let mut shift = 0;
        while shift < 63 && (hi >> shift) - (lo >> shift) >= HISTOGRAM_BINS {
            shift += 1;
        }
        self.coarsen(self.exponent + shift);
    }

    #[inline]
    pub(super) fn add(&mut self, x: f64) {
        self.coarsen(Histogram::finest_for(x));
        let key = self.bin(x);
        // Only a new bin can leave the lowest and highest too far apart.
        if !self.bins.add_one_in_place(key) && self.bins.add(key, 1) {
            self.fit();
        }
    }

    pub(super) fn merge(&mut self, mut other: Histogram) {
        let exponent = self.exponent.max(other.exponent);
        self.coarsen(exponent);
        other.coarsen(exponent);
        for (key, count) in other.bins.iter() {
            let _ = self.bins.add(key, count);
        }
        self.fit();
    }

    /// The bins from the lowest to the highest, empty ones included: (lower edge, count).
    pub fn dense(&self) -> Vec<(f64, u64)> {
        let Some((lo, hi)) = self.bins.ends() else {
            return Vec::new();
        };
        let width = power_of_two(self.exponent);
        (lo..=hi)
            .map(|k| (k as f64 * width, self.bins.count(k)))
            .collect()
    }

    /// The width of one bin.
    pub fn width(&self) -> f64 {
        power_of_two(self.exponent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bins added in any order come out sorted and summed, and are stored exactly as the
    /// map they replaced was (the scan cache's entries stay readable).
    #[test]
    fn bins_are_a_sorted_map_and_store_as_one() {
        let mut bins = Bins::default();
        let mut map = BTreeMap::new();
        for (key, count) in [(5, 1), (-3, 2), (5, 4), (0, 1), (-3, 1), (19, 7), (-40, 1)] {
            bins.add(key, count);
            *map.entry(key).or_insert(0u64) += count;
        }
        assert_eq!(
            bins.iter().collect::<Vec<_>>(),
            map.clone().into_iter().collect::<Vec<_>>()
        );
        assert_eq!(
            (bins.ends(), bins.count(5), bins.count(6)),
            (Some((-40, 19)), 5, 0)
        );
        let stored = serde_json::to_string(&bins).unwrap();
        assert_eq!(stored, serde_json::to_string(&map).unwrap());
        assert_eq!(serde_json::from_str::<Bins>(&stored).unwrap(), bins);
        assert_eq!(Bins::default().ends(), None);
    }

    /// The widening as it was done before: one doubling of the bins per pass.
    fn fit_step_by_step(histogram: &mut Histogram) {
        while let Some((lo, hi)) = histogram.bins.ends() {
            if hi - lo < HISTOGRAM_BINS {
                break;
            }
            histogram.coarsen(histogram.exponent + 1);
        }
    }

    #[test]
    fn widening_in_one_step_gives_the_bins_of_widening_step_by_step() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..300 {
            let mut one_step = Histogram {
                exponent: FINEST_EXPONENT,
                bins: Bins::default(),
            };
            let mut step_by_step = one_step.clone();
            let scale = power_of_two((next() % 80) as i32 - 40);
            for _ in 0..(1 + round % 40) {
                let x = ((next() % 2_000_001) as f64 - 1e6) * scale / 1e3;
                for h in [&mut one_step, &mut step_by_step] {
                    h.coarsen(Histogram::finest_for(x));
                    h.bins.add(h.bin(x), 1);
                }
                one_step.fit();
                fit_step_by_step(&mut step_by_step);
                assert_eq!(one_step, step_by_step, "round {round}, x = {x}");
            }
        }
    }

    #[test]
    fn multiplying_by_the_reciprocal_is_dividing_by_the_power_of_two() {
        let values = [
            0.0,
            -0.0,
            1.0,
            -223.48,
            99_999.9,
            f64::MAX,
            -f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            1e-310,
            1e300,
            0.1,
        ];
        for exponent in [
            -1100, -1023, -1022, -40, -1, 0, 1, 52, 1000, 1022, 1023, 1100,
        ] {
            let reciprocal = reciprocal_power_of_two(exponent);
            assert_eq!(1.0 / reciprocal, power_of_two(exponent), "{exponent}");
            for x in values {
                assert_eq!(
                    (x * reciprocal).to_bits(),
                    (x / power_of_two(exponent)).to_bits(),
                    "{x} at {exponent}"
                );
            }
        }
    }

    #[test]
    fn floor_to_i64_is_floor_as_i64() {
        let cases = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            2.999,
            -2.999,
            1e19,
            -1e19,
            9.2e18,
            -9.2e18,
            4503599627370495.5,
            -4503599627370495.5,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
        ];
        for q in cases {
            assert_eq!(floor_to_i64(q), q.floor() as i64, "{q}");
        }
    }

    /// Adding a value widens the bins only when it made a new one; the bins found by
    /// place are the bins found by search: the same histogram as widening after every value.
    #[test]
    fn adding_in_one_step_gives_the_bins_of_fitting_after_every_value() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for round in 0..200 {
            let mut fast = Histogram::new();
            let mut plain = Histogram::new();
            for _ in 0..(1 + round % 60) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let scale = power_of_two((state % 60) as i32 - 30);
                let x = ((state >> 20) % 20_001) as f64 * scale / 7.0 - 1000.0 * scale;
                fast.add(x);
                plain.coarsen(Histogram::finest_for(x));
                let key = (x / power_of_two(plain.exponent)).floor() as i64;
                plain.bins.add(key, 1);
                plain.fit();
                assert_eq!(fast, plain, "round {round}, x = {x}");
            }
        }
    }
}
