//! Column profiles, accumulated during the scan: per column the cells with a value and the
//! empty ones; for numbers the minimum, maximum, exact mean and a histogram; for dates the
//! range; for text the distinct values (exact up to [`DISTINCT_CAP`], then estimated by a
//! HyperLogLog [`Sketch`]) and their counts.
//!
//! Memory is bounded per column, never per row, and every figure is independent of the
//! order the rows were read in, so the two halves of a split scan join into exactly what
//! one pass finds ([`ColumnProfile::merge`]): the sum behind the mean is exact (integer
//! buckets by binary exponent), the histogram's bins are powers of two wide and aligned to
//! multiples of their width, and distinct values are counted exactly, or past the cap
//! estimated by a sketch whose registers merge by maximum.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::exact_sum::ExactSum;
use super::sketch::Sketch;
use crate::dataset::schema::{ColumnType, Unrepresentable};

/// Distinct values counted exactly per text column; past this they are estimated.
pub const DISTINCT_CAP: usize = 1_000;

/// Characters of a distinct value kept for display, a cut one ending in `…` (it is counted by fingerprint).
const KEPT_CHARS: usize = 80;

/// Most bins of a histogram.
pub const HISTOGRAM_BINS: i64 = 20;

/// The finest bin width, as a power of two.
const FINEST_EXPONENT: i32 = -40;

/// What the scan learned about one column.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ColumnProfile {
    /// Cells with a value.
    pub filled: u64,
    /// Empty cells.
    pub empty: u64,
    pub numbers: Option<Numbers>,
    pub dates: Option<DateRange>,
    pub text: Option<Distinct>,
}

/// The numbers of a column.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Numbers {
    pub count: u64,
    pub min: f64,
    /// The cell that holds the minimum, as written (the first in text order on a tie).
    pub min_text: String,
    pub max: f64,
    pub max_text: String,
    sum: ExactSum,
    pub histogram: Histogram,
}

/// The earliest and latest date of a column (ISO 8601 text compares in date order).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DateRange {
    pub earliest: String,
    pub latest: String,
}

/// The distinct values of a text column, with their counts; once there are more than
/// [`DISTINCT_CAP`], only a sketch that estimates how many.
#[derive(Clone, Serialize, Deserialize)]
#[serde(into = "StoredDistinct", try_from = "StoredDistinct")]
pub struct Distinct {
    /// Fingerprint of the value -> (count, the value cut to [`KEPT_CHARS`]).
    values: Option<Vec<(u128, u64, String)>>,
    index: HashMap<u128, usize>,
    /// Past the cap: every value seen, by the upper half of its fingerprint.
    sketch: Option<Sketch>,
}

/// [`Distinct`] in the scan cache: fingerprints as text, since JSON numbers stop at 64 bits.
#[derive(Serialize, Deserialize)]
struct StoredDistinct {
    values: Option<Vec<(String, u64, String)>>,
    sketch: Option<Sketch>,
}

impl From<Distinct> for StoredDistinct {
    fn from(distinct: Distinct) -> Self {
        StoredDistinct {
            values: distinct.values.map(|values| {
                values
                    .into_iter()
                    .map(|(key, count, text)| (format!("{key:032x}"), count, text))
                    .collect()
            }),
            sketch: distinct.sketch,
        }
    }
}

impl TryFrom<StoredDistinct> for Distinct {
    type Error = std::num::ParseIntError;

    fn try_from(stored: StoredDistinct) -> Result<Self, Self::Error> {
        let values = match stored.values {
            Some(values) => Some(
                values
                    .into_iter()
                    .map(|(key, count, text)| Ok((u128::from_str_radix(&key, 16)?, count, text)))
                    .collect::<Result<Vec<_>, Self::Error>>()?,
            ),
            None => None,
        };
        // The index is made when a value is added (`Distinct::add`): a stored profile is
        // only read.
        Ok(Distinct {
            values,
            index: HashMap::new(),
            sketch: stored.sketch,
        })
    }
}

/// A histogram whose bins are `2^exponent` wide, bin `k` holding values in
/// `[k * 2^exponent, (k + 1) * 2^exponent)`; at most [`HISTOGRAM_BINS`] bins from the
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
    /// Adds `count` to bin `key`.
    fn add(&mut self, key: i64, count: u64) {
        // Keys mostly arrive in order (coarsening walks them so): the last first.
        if let Some(last) = self.0.last_mut().filter(|b| b.0 == key) {
            last.1 += count;
            return;
        }
        match self.0.binary_search_by_key(&key, |b| b.0) {
            Ok(at) => self.0[at].1 += count,
            Err(at) => self.0.insert(at, (key, count)),
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

impl ColumnProfile {
    /// Adds one cell of a column of `column_type`. A cell that fails its type check is
    /// counted as filled and otherwise ignored (the check reports it). A valid number that
    /// a 64-bit float cannot hold is left out too, and said so: the scan warns about it.
    pub fn add(
        &mut self,
        value: &str,
        column_type: ColumnType,
        fingerprint: u128,
    ) -> Option<Unrepresentable> {
        if value.is_empty() {
            self.empty += 1;
            return None;
        }
        self.filled += 1;
        match column_type {
            ColumnType::Integer | ColumnType::Number => {
                let x = value.parse::<f64>().ok()?;
                if !column_type.is_valid(value) {
                    return None;
                }
                // NaN, INF and -INF are not profiled; nor is what a float cannot hold.
                let limit = Unrepresentable::of(value, x);
                if limit.is_some() || !x.is_finite() {
                    return limit;
                }
                match &mut self.numbers {
                    Some(numbers) => numbers.add(x, value),
                    None => self.numbers = Some(Numbers::new(x, value)),
                }
            }
            // Dates as shown (a `format`'s cells rewritten) compare as text; date-times within one zone.
            ColumnType::Date | ColumnType::Datetime => {
                if !crate::content::iso8601::is_shown_date(value) {
                    return None;
                }
                match &mut self.dates {
                    Some(range) => {
                        if value < range.earliest.as_str() {
                            range.earliest = value.to_string();
                        }
                        if value > range.latest.as_str() {
                            range.latest = value.to_string();
                        }
                    }
                    None => {
                        self.dates = Some(DateRange {
                            earliest: value.to_string(),
                            latest: value.to_string(),
                        })
                    }
                }
            }
            ColumnType::String | ColumnType::Boolean => self
                .text
                .get_or_insert_with(Distinct::new)
                .add(fingerprint, 1, value),
        }
        None
    }

    /// Whether [`ColumnProfile::add`] needs the cell's fingerprint: text, counted or
    /// sketched.
    pub fn counts_distinct(&self, column_type: ColumnType) -> bool {
        matches!(column_type, ColumnType::String | ColumnType::Boolean)
    }

    /// Whether distinct values are only sketched now: the upper half of a fingerprint is
    /// all [`ColumnProfile::add`] reads.
    pub fn only_sketches(&self) -> bool {
        self.text.as_ref().is_some_and(|t| t.values.is_none())
    }

    /// Drops what only adding more rows needs (the unused buckets of the exact sum, the
    /// index of distinct values), once the scan is done: a page keeps its profiles while
    /// `serve` runs. Adding or merging afterwards still gives the exact result.
    pub fn compact(&mut self) {
        if let Some(numbers) = &mut self.numbers {
            numbers.sum.compact();
        }
        if let Some(text) = &mut self.text {
            text.compact();
        }
    }

    /// Adds the profile of other rows of the same column: the result does not depend on
    /// which rows were read first.
    pub fn merge(&mut self, other: ColumnProfile) {
        self.filled += other.filled;
        self.empty += other.empty;
        self.numbers = match (self.numbers.take(), other.numbers) {
            (Some(mut mine), Some(theirs)) => {
                mine.merge(theirs);
                Some(mine)
            }
            (mine, theirs) => mine.or(theirs),
        };
        self.dates = match (self.dates.take(), other.dates) {
            (Some(mine), Some(theirs)) => Some(DateRange {
                earliest: mine.earliest.min(theirs.earliest),
                latest: mine.latest.max(theirs.latest),
            }),
            (mine, theirs) => mine.or(theirs),
        };
        self.text = match (self.text.take(), other.text) {
            (Some(mut mine), Some(theirs)) => {
                mine.merge(theirs);
                Some(mine)
            }
            (mine, theirs) => mine.or(theirs),
        };
    }
}

impl Numbers {
    fn new(x: f64, text: &str) -> Numbers {
        let mut numbers = Numbers {
            count: 0,
            min: x,
            min_text: text.to_string(),
            max: x,
            max_text: text.to_string(),
            sum: ExactSum::default(),
            histogram: Histogram {
                exponent: FINEST_EXPONENT,
                bins: Bins::default(),
            },
        };
        numbers.add(x, text);
        numbers
    }

    fn add(&mut self, x: f64, text: &str) {
        self.count += 1;
        self.sum.add(x);
        self.histogram.add(x);
        self.extremes(x, text, x, text);
    }

    fn extremes(&mut self, min: f64, min_text: &str, max: f64, max_text: &str) {
        if min < self.min || (min == self.min && min_text < self.min_text.as_str()) {
            self.min = min;
            self.min_text = min_text.to_string();
        }
        if max > self.max || (max == self.max && max_text < self.max_text.as_str()) {
            self.max = max;
            self.max_text = max_text.to_string();
        }
    }

    fn merge(&mut self, other: Numbers) {
        self.count += other.count;
        self.extremes(other.min, &other.min_text, other.max, &other.max_text);
        self.sum.merge(&other.sum);
        self.histogram.merge(other.histogram);
    }

    /// The arithmetic mean, from the exact sum (rounded once).
    pub fn mean(&self) -> f64 {
        self.sum.value() / self.count as f64
    }
}

/// `2^exponent` for exponents a double holds exactly.
pub fn power_of_two(exponent: i32) -> f64 {
    f64::from_bits(((exponent.clamp(-1022, 1023) + 1023) as u64) << 52)
}

impl Histogram {
    /// The finest exponent at which `x` keeps its bin number well inside an `i64`.
    fn finest_for(x: f64) -> i32 {
        let biased = ((x.to_bits() >> 52) & 0x7ff) as i32;
        (biased - 1023 - 50).max(FINEST_EXPONENT)
    }

    fn bin(&self, x: f64) -> i64 {
        (x / power_of_two(self.exponent)).floor() as i64
    }

    fn coarsen(&mut self, exponent: i32) {
        if exponent <= self.exponent {
            return;
        }
        let shift = (exponent - self.exponent).min(63) as u32;
        let old = std::mem::take(&mut self.bins);
        for (key, count) in old.iter() {
            self.bins.add(key >> shift, count);
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

    fn add(&mut self, x: f64) {
        self.coarsen(Histogram::finest_for(x));
        self.bins.add(self.bin(x), 1);
        self.fit();
    }

    fn merge(&mut self, mut other: Histogram) {
        let exponent = self.exponent.max(other.exponent);
        self.coarsen(exponent);
        other.coarsen(exponent);
        for (key, count) in other.bins.iter() {
            self.bins.add(key, count);
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

impl Distinct {
    fn new() -> Distinct {
        Distinct {
            values: Some(Vec::new()),
            index: HashMap::new(),
            sketch: None,
        }
    }

    fn add(&mut self, key: u128, count: u64, text: &str) {
        let Some(values) = &mut self.values else {
            if let Some(sketch) = &mut self.sketch {
                sketch.insert((key >> 64) as u64);
            }
            return;
        };
        // Dropped by `compact` (or never built, read from the cache): made again.
        if self.index.len() != values.len() {
            self.index = values.iter().enumerate().map(|(i, v)| (v.0, i)).collect();
        }
        if let Some(&i) = self.index.get(&key) {
            values[i].1 += count;
        } else if values.len() < DISTINCT_CAP {
            self.index.insert(key, values.len());
            values.push((key, count, crate::text::shortened(text, KEPT_CHARS)));
        } else {
            self.start_sketch();
            self.add(key, count, text);
        }
    }

    /// Without the index (made again by the next `add`) and the values' spare room.
    fn compact(&mut self) {
        self.index = HashMap::new();
        if let Some(values) = &mut self.values {
            values.shrink_to_fit();
        }
    }

    /// Past the cap: the exact values give way to a sketch that has seen them all.
    fn start_sketch(&mut self) {
        let Some(values) = self.values.take() else {
            return;
        };
        let mut sketch = Sketch::new();
        for (key, _, _) in &values {
            sketch.insert((key >> 64) as u64);
        }
        self.sketch = Some(sketch);
        self.index = HashMap::new();
    }

    /// Adds the values of other rows of the same column.
    fn merge(&mut self, other: Distinct) {
        match other.values {
            Some(values) => {
                for (key, count, text) in values {
                    self.add(key, count, &text);
                }
            }
            None => {
                self.start_sketch();
                if let (Some(mine), Some(theirs)) = (&mut self.sketch, &other.sketch) {
                    mine.merge(theirs);
                }
            }
        }
    }

    /// The number of distinct values, `None` when more than [`DISTINCT_CAP`].
    pub fn count(&self) -> Option<usize> {
        self.values.as_ref().map(Vec::len)
    }

    /// Past [`DISTINCT_CAP`]: the estimated number of distinct values.
    pub fn estimate(&self) -> Option<u64> {
        self.sketch.as_ref().map(Sketch::estimate)
    }

    /// The `n` most common values with their counts, most common first, then by value.
    pub fn most_common(&self, n: usize) -> Vec<(&str, u64)> {
        let Some(values) = &self.values else {
            return Vec::new();
        };
        let mut all: Vec<(&str, u64)> = values.iter().map(|v| (v.2.as_str(), v.1)).collect();
        all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        all.truncate(n);
        all
    }
}

impl Distinct {
    /// The values and counts in one order, whichever order they were first seen in.
    fn sorted(&self) -> Option<Vec<(u128, u64, String)>> {
        self.values.clone().map(|mut v| {
            v.sort_unstable();
            v
        })
    }
}

impl PartialEq for Distinct {
    fn eq(&self, other: &Distinct) -> bool {
        self.sorted() == other.sorted() && self.sketch == other.sketch
    }
}

impl std::fmt::Debug for Distinct {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Distinct")
            .field("values", &self.sorted())
            .finish()
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
}
