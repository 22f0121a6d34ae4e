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

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::exact_sum::ExactSum;
use super::histogram::Histogram;
#[cfg(test)]
pub use super::histogram::HISTOGRAM_BINS;
use super::sketch::Sketch;
use crate::schema::{ColumnType, Unrepresentable};

/// Distinct values counted exactly per text column; past this they are estimated.
pub const DISTINCT_CAP: usize = 1_000;

/// Characters of a distinct value kept for display, a cut one ending in `…` (it is counted by fingerprint).
const KEPT_CHARS: usize = 80;

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
    /// A text cell is a value pandas reads as missing by default (`None`, `NA`, `null`:
    /// [`crate::content::dialect::PANDAS_MISSING`]) though the column does not declare it
    /// missing.
    #[serde(default)]
    pub pandas_missing: bool,
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
    /// Fingerprint -> place in `values` (the keys are hashes already: a fast hasher).
    index: FxHashMap<u128, usize>,
    /// Past the cap: every value seen, by the upper half of its fingerprint.
    sketch: Option<Sketch>,
    /// Values of at most [`KEPT_CHARS`] bytes counted by this scan, by their text -> place
    /// in `values`: a value seen again is counted without working out its fingerprint
    /// (the same text has the same one). Dropped with the index.
    by_text: FxHashMap<Box<str>, usize>,
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
            index: FxHashMap::default(),
            sketch: stored.sketch,
            by_text: FxHashMap::default(),
        })
    }
}

impl ColumnProfile {
    /// Adds one cell of a column of `column_type`; in a number column, `number` is the
    /// cell read as a float when it passed its type check (the scan reads it once). A cell
    /// that fails its type check is counted as filled and otherwise ignored (the check
    /// reports it). A valid number that a 64-bit float cannot hold is left out too, and
    /// said so: the scan warns about it.
    pub fn add(
        &mut self,
        value: &str,
        column_type: ColumnType,
        fingerprint: u128,
        number: Option<f64>,
    ) -> Option<Unrepresentable> {
        if value.is_empty() {
            self.empty += 1;
            return None;
        }
        self.filled += 1;
        match column_type {
            ColumnType::Integer | ColumnType::Number => {
                let x = number?;
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
                if crate::content::iso8601::is_shown_date(value) {
                    self.add_date(value);
                }
            }
            ColumnType::String | ColumnType::Boolean => {
                // Each distinct value passes here once (a repeat is counted by its text).
                self.pandas_missing |=
                    value.len() <= 8 && crate::content::dialect::PANDAS_MISSING.contains(&value);
                self.text
                    .get_or_insert_with(Distinct::new)
                    .add_cell(fingerprint, value)
            }
        }
        None
    }

    /// [`ColumnProfile::add`] of a date column's cell that is an ISO 8601 date.
    #[inline]
    pub fn add_iso_date(&mut self, value: &str) {
        debug_assert!(crate::content::iso8601::is_iso_date(value));
        self.filled += 1;
        self.add_date(value);
    }

    fn add_date(&mut self, value: &str) {
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

    /// [`ColumnProfile::add`] of a number cell `super::cells::plain_decimal` read as
    /// `x`: finite, and zero only when written so.
    #[inline]
    pub fn add_plain_number(&mut self, x: f64, value: &str) {
        debug_assert!(x.is_finite() && Unrepresentable::of(value, x).is_none());
        self.filled += 1;
        match &mut self.numbers {
            Some(numbers) => numbers.add(x, value),
            None => self.numbers = Some(Numbers::new(x, value)),
        }
    }

    /// Counts a non-empty text cell whose value this scan counted before, found by its
    /// text alone: what [`ColumnProfile::add`] does with its fingerprint. False (nothing
    /// counted) when the cell must be added with its fingerprint.
    #[inline]
    pub fn add_seen_text(&mut self, value: &str) -> bool {
        let counted = self.text.as_mut().is_some_and(|t| t.add_seen(value));
        self.filled += u64::from(counted);
        counted
    }

    /// Whether [`ColumnProfile::add`] needs the cell's fingerprint: text, counted or
    /// sketched.
    pub fn counts_distinct(&self, column_type: ColumnType) -> bool {
        matches!(column_type, ColumnType::String | ColumnType::Boolean)
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
        self.pandas_missing |= other.pandas_missing;
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
            histogram: Histogram::new(),
        };
        numbers.add(x, text);
        numbers
    }

    /// Inline: the scan adds every number of a column here.
    #[inline(always)]
    fn add(&mut self, x: f64, text: &str) {
        self.count += 1;
        self.sum.add(x);
        self.histogram.add(x);
        self.extremes(x, text, x, text);
    }

    #[inline]
    fn extremes(&mut self, min: f64, min_text: &str, max: f64, max_text: &str) {
        // Most values are strictly inside the range so far.
        if min > self.min && max < self.max {
            return;
        }
        self.new_extremes(min, min_text, max, max_text);
    }

    #[inline(never)]
    fn new_extremes(&mut self, min: f64, min_text: &str, max: f64, max_text: &str) {
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

impl Distinct {
    fn new() -> Distinct {
        Distinct {
            values: Some(Vec::new()),
            index: FxHashMap::default(),
            sketch: None,
            by_text: FxHashMap::default(),
        }
    }

    /// Adds one cell; a value kept whole is found by its text the next time.
    fn add_cell(&mut self, key: u128, text: &str) {
        self.add(key, 1, text);
        if text.len() <= KEPT_CHARS && self.values.is_some() {
            if let Some(&at) = self.index.get(&key) {
                self.by_text.insert(text.into(), at);
            }
        }
    }

    /// Counts a value [`Distinct::add_cell`] added before, if it is one.
    #[inline]
    fn add_seen(&mut self, text: &str) -> bool {
        let Some(values) = &mut self.values else {
            return false;
        };
        match self.by_text.get(text) {
            Some(&at) => {
                values[at].1 += 1;
                true
            }
            None => false,
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
        self.index = FxHashMap::default();
        self.by_text = FxHashMap::default();
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
        self.index = FxHashMap::default();
        self.by_text = FxHashMap::default();
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
