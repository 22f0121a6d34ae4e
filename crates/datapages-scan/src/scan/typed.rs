//! The cells equal to the numbers a page types by hand, looked for as the scan reads each
//! row, so that `check` need not read the CSV again to list them with the `{{ cell(...) }}`
//! to paste. A cell equals a number when both read the same as numbers shown at 15
//! significant digits (the cell's commas dropped), or when the cell's text, case ignored, is
//! the number with its unit glued on. `build::unbacked` looks through the tables of other
//! datasets with the same [`Finder`].

use serde::{Deserialize, Serialize};

use crate::content::figures::{condition_key, quote};
use crate::content::numbers::Typed;
use crate::schema::SHOWN_DIGITS;

/// The first cell equal to a number: where a reference finds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hit {
    /// The dataset's slug when the cell is not the page's own table's.
    pub dataset: Option<String>,
    pub column: String,
    /// The row's key: each key column's name and the row's value in it; empty when the
    /// table declares no key and no columns tell the row apart (`build::unbacked`).
    pub key: Vec<(String, String)>,
    /// The whole row (each column's name and value) when the table declares no key: the
    /// columns that tell it apart are picked from it once the table is read
    /// (`build::unbacked::cells::identify`); empty after that, or with a declared key.
    #[serde(default)]
    pub row: Vec<(String, String)>,
}

/// The cells equal to one number, over the tables looked at so far.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Matches {
    pub count: u64,
    pub first: Option<Hit>,
}

impl Hit {
    /// The reference to paste in place of the typed number:
    /// `{{ cell(country="France", col="value") }}`.
    pub fn reference(&self) -> String {
        let mut args: Vec<String> = self
            .key
            .iter()
            .map(|(name, value)| format!("{}={}", condition_key(name), quote(value)))
            .collect();
        args.push(format!("col={}", quote(&self.column)));
        if let Some(slug) = &self.dataset {
            args.push(format!("dataset={}", quote(slug)));
        }
        format!("{{{{ cell({}) }}}}", args.join(", "))
    }
}

/// What the scan of a page's own table found for the numbers the page types, with the
/// numbers and row key it looked for (a page edited since, whose numbers differ, is looked
/// up again by reading the table).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TypedCells {
    /// Each number as `(number, raw)` ([`Typed`]).
    numbers: Vec<(String, String)>,
    key: Vec<String>,
    matches: Vec<Matches>,
}

impl TypedCells {
    /// The matches of each of `numbers`, when they were looked for with this row key.
    pub fn matches_for(&self, numbers: &[Typed], key: &[String]) -> Option<&[Matches]> {
        let same = self.key == key
            && self.numbers.len() == numbers.len()
            && self
                .numbers
                .iter()
                .zip(numbers)
                .all(|((number, raw), t)| *number == t.number && *raw == t.raw);
        same.then_some(self.matches.as_slice())
    }

    /// Whether these are the matches of `numbers` looked for with `key` (the scan cache
    /// keeps an entry's matches only then).
    pub fn is_for(&self, numbers: &[Typed], key: &[String]) -> bool {
        self.matches_for(numbers, key).is_some()
    }
}

/// Looks for numbers among the cells of one table (or one stretch of it).
#[derive(Debug, Clone)]
pub struct Finder {
    /// Per number: its value as shown, and its text with the unit (lowercase).
    values: Vec<Option<f64>>,
    raws: Vec<String>,
    /// The numbers looked for (the others are left as they are).
    wanted: Vec<usize>,
    /// What a cell must have to equal any of them, checked first: one of these values
    /// (`values` of the wanted numbers, sorted), or the length and first byte of one of
    /// their texts ([`TextKeys`]; a text that is not ASCII is always compared). A page may
    /// type dozens of numbers and every cell is looked at: no linear search per cell.
    wanted_values: Vec<f64>,
    /// The wanted values' bits ([`value_bit`]), looked at before `wanted_values`: most
    /// cells of a number column are told apart by one multiplication.
    value_bits: u64,
    wanted_texts: TextKeys,
    header: Vec<String>,
    key_columns: Vec<usize>,
    /// Whether the table declares no key (then a hit keeps its whole row).
    implicit_key: bool,
    dataset: Option<String>,
    matches: Vec<Matches>,
    /// A cell with its commas dropped, reused from cell to cell.
    plain: String,
}

impl Finder {
    /// A finder of `numbers` (those `wanted` accepts) in the table whose header is
    /// `header`, naming rows by `key` (the first column when empty); `dataset` is the
    /// table's slug when it is not the page's own.
    pub fn new(
        numbers: &[Typed],
        wanted: impl Fn(usize) -> bool,
        header: &[String],
        key: &[String],
        dataset: Option<&str>,
    ) -> Finder {
        let key_columns = match key.is_empty() {
            true => vec![0],
            false => key
                .iter()
                .filter_map(|k| header.iter().position(|h| h == k))
                .collect(),
        };
        let values: Vec<Option<f64>> = numbers.iter().map(|t| as_shown(&t.number)).collect();
        let wanted: Vec<usize> = (0..numbers.len()).filter(|n| wanted(*n)).collect();
        let mut wanted_values: Vec<f64> = wanted.iter().filter_map(|&n| values[n]).collect();
        wanted_values.sort_by(f64::total_cmp);
        Finder {
            value_bits: wanted_values.iter().fold(0, |bits, &x| bits | value_bit(x)),
            wanted_values,
            wanted_texts: TextKeys::new(wanted.iter().map(|&n| numbers[n].raw.as_str())),
            values,
            raws: numbers.iter().map(|t| t.raw.clone()).collect(),
            wanted,
            header: header.to_vec(),
            key_columns,
            implicit_key: key.is_empty(),
            dataset: dataset.map(str::to_string),
            matches: vec![Matches::default(); numbers.len()],
            plain: String::new(),
        }
    }

    /// Whether there is anything to look for.
    pub fn is_idle(&self) -> bool {
        self.wanted.is_empty()
    }

    /// Looks at the cell of `column` in `row`. `parsed` is `cell.parse::<f64>()` when the
    /// caller has it and it is finite (a number column's valid cell): it is not read again.
    /// Inlined: most cells of a number column are told apart from every wanted value here.
    #[inline]
    pub fn cell(
        &mut self,
        column: usize,
        cell: &str,
        parsed: Option<f64>,
        row: &csv::StringRecord,
    ) {
        let equals_none = match parsed {
            Some(x) if cell.len() <= SHOWN_DIGITS => self.value_bits & value_bit(x) == 0,
            _ => self.plainly_no_number(cell),
        };
        if !equals_none {
            self.look_at(column, cell, parsed, row);
        }
    }

    /// Whether `look_at` would find `cell` equal to nothing, told without reading it: ASCII
    /// text with nothing to trim, which cannot read as a number ([`may_read_as_number`])
    /// and whose length and first byte are no wanted text's (most text and date cells).
    #[inline]
    fn plainly_no_number(&self, cell: &str) -> bool {
        let bytes = cell.as_bytes();
        let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
            return false;
        };
        let untrimmed = |b: u8| b.is_ascii() && !b.is_ascii_whitespace() && b != 0x0b;
        untrimmed(first)
            && untrimmed(last)
            && !self.wanted_texts.may_hold(cell)
            && !may_read_as_number(bytes)
            && cell.is_ascii()
    }

    /// [`Finder::cell`] past its quick test.
    #[inline(never)]
    fn look_at(&mut self, column: usize, cell: &str, parsed: Option<f64>, row: &csv::StringRecord) {
        let (text, number, ascii) = match parsed {
            // A finite number holds a digit, and a text that parses has no space or comma.
            // Its text can equal a number's only when their values are equal too (a
            // number's text with a unit or commas never parses), so the value decides.
            Some(x) if cell.len() <= SHOWN_DIGITS => {
                if !self.may_be_wanted(x) {
                    return;
                }
                (cell, Some(x), true)
            }
            _ => {
                let text = cell.trim();
                if text.is_empty() || !text.bytes().any(|b| b.is_ascii_digit()) {
                    return;
                }
                // Only digits, signs, points, exponents and commas can read as a number
                // here (a text without digits never gets this far), and a sign only first
                // or after the exponent's `e` (a date such as `2020-01-31` is not read).
                let number = match (may_read_as_number(text.as_bytes()), text.contains(',')) {
                    (false, _) => None,
                    (true, true) => {
                        self.plain.clear();
                        self.plain.extend(text.chars().filter(|c| *c != ','));
                        as_shown(&self.plain)
                    }
                    (true, false) => as_shown(text),
                };
                (text, number, text.is_ascii())
            }
        };
        // Most cells equal none of the numbers: told from their value, length and first
        // byte alone.
        let may_equal = number.is_some_and(|x| self.may_be_wanted(x))
            || !ascii
            || self.wanted_texts.may_hold(text);
        if !may_equal {
            return;
        }
        let lower = (!ascii).then(|| text.to_lowercase());
        for i in 0..self.wanted.len() {
            let n = self.wanted[i];
            let raw = self.raws[n].as_str();
            let same_text = match &lower {
                Some(lower) => lower == raw,
                None => {
                    text.len() == raw.len()
                        && text.bytes().map(|b| b.to_ascii_lowercase()).eq(raw.bytes())
                }
            };
            if !(same_text || (number.is_some() && number == self.values[n])) {
                continue;
            }
            let found = &mut self.matches[n];
            found.count += 1;
            if found.first.is_none() {
                let name = |k: usize| self.header.get(k).cloned().unwrap_or_default();
                found.first = Some(Hit {
                    dataset: self.dataset.clone(),
                    column: name(column),
                    key: self
                        .key_columns
                        .iter()
                        .map(|&k| (name(k), row.get(k).unwrap_or_default().to_string()))
                        .collect(),
                    row: match self.implicit_key {
                        true => (0..row.len())
                            .map(|k| (name(k), row.get(k).unwrap_or_default().to_string()))
                            .collect(),
                        false => Vec::new(),
                    },
                });
            }
        }
    }

    /// Whether `x` is the value of a wanted number (`==`: 0.0 and -0.0 are one value, NaN
    /// none).
    fn may_be_wanted(&self, x: f64) -> bool {
        if self.value_bits & value_bit(x) == 0 {
            return false;
        }
        let at = self.wanted_values.partition_point(|v| *v < x);
        self.wanted_values.get(at).is_some_and(|v| *v == x)
    }

    /// Adds what a finder found in the rows after this one's (the second half of a split
    /// scan): counts add up, the first hit stays this one's when it has one.
    pub(super) fn append(&mut self, later: Finder) {
        add_matches(&mut self.matches, later.matches);
    }

    /// The matches of each number (those not wanted left as they were given).
    #[cfg(test)]
    pub fn into_matches(self) -> Vec<Matches> {
        self.matches
    }

    /// Adds what was found to `matches`, one per number.
    pub fn add_to(self, matches: &mut [Matches]) {
        add_matches(matches, self.matches);
    }

    /// What was found, with the numbers and key it was looked for with.
    pub(super) fn into_typed_cells(self, numbers: &[Typed], key: &[String]) -> TypedCells {
        TypedCells {
            numbers: numbers
                .iter()
                .map(|t| (t.number.clone(), t.raw.clone()))
                .collect(),
            key: key.to_vec(),
            matches: self.matches,
        }
    }
}

/// Adds the matches found later (`theirs`) to `mine`, number by number: counts add up, the
/// first hit stays the earlier one.
fn add_matches(mine: &mut [Matches], theirs: Vec<Matches>) {
    for (mine, theirs) in mine.iter_mut().zip(theirs) {
        mine.count += theirs.count;
        if mine.first.is_none() {
            mine.first = theirs.first;
        }
    }
}

/// Whether a (trimmed) cell is only digits, signs, points, exponents and commas, a sign only
/// first or after the exponent's `e`: the cells [`Finder::cell`] reads as numbers (a date
/// such as `2020-01-31` is not read).
#[inline]
fn may_read_as_number(bytes: &[u8]) -> bool {
    bytes.iter().enumerate().all(|(i, &b)| match b {
        b'+' | b'-' => i == 0 || matches!(bytes[i - 1], b'e' | b'E'),
        _ => b.is_ascii_digit() || matches!(b, b'.' | b',' | b'e' | b'E'),
    })
}

/// One of 64 bits for a value, the same for values that are `==` (0.0 and -0.0 are one
/// value; NaN, equal to none, gets a bit like any other): a wanted value's bit set means
/// the value may be wanted, unset that it is not.
#[inline]
fn value_bit(x: f64) -> u64 {
    // `-0.0 + 0.0` is `0.0`; the multiplication spreads the bits, its top six pick one.
    let bits = (x + 0.0).to_bits();
    1 << (bits.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58)
}

/// The lengths and first bytes (lowercase) of the texts looked for, as bit sets: an ASCII
/// cell equals a number's text (lowercase) only when its length and first byte are both
/// among them.
#[derive(Debug, Clone, Default)]
struct TextKeys {
    /// Bit `n` for a length `n` under 128; bit 127 for every longer one.
    lengths: u128,
    first_bytes: [u128; 2],
}

impl TextKeys {
    fn new<'a>(texts: impl Iterator<Item = &'a str>) -> TextKeys {
        let mut keys = TextKeys::default();
        for text in texts {
            keys.lengths |= length_bit(text);
            let first = usize::from(first_byte(text));
            keys.first_bytes[first / 128] |= 1 << (first % 128);
        }
        keys
    }

    fn may_hold(&self, text: &str) -> bool {
        let first = usize::from(first_byte(text));
        self.lengths & length_bit(text) != 0
            && self.first_bytes[first / 128] & (1 << (first % 128)) != 0
    }
}

fn length_bit(text: &str) -> u128 {
    1 << text.len().min(127)
}

fn first_byte(text: &str) -> u8 {
    text.as_bytes().first().map_or(0, u8::to_ascii_lowercase)
}

/// A number's value as the page shows it: to 15 significant digits, so a figure typed as
/// the table shows it (`7.052`) equals the cell pandas wrote as `7.0520000000000005`. Only
/// texts long enough to hold more digits are rounded.
pub fn as_shown(text: &str) -> Option<f64> {
    let value = text.parse::<f64>().ok()?;
    if text.len() <= SHOWN_DIGITS || !value.is_finite() {
        return Some(value);
    }
    format!("{value:.14e}").parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quick checks pass every cell that can equal a number and the values nearby do
    /// not: by value (sorted, -0.0 as 0.0) and by length and first byte of the text.
    #[test]
    fn the_quick_checks_let_through_every_possible_match() {
        let numbers = [
            typed("-3", "-3"),
            typed("0", "0"),
            typed("7.5", "7.5 KG"),
            typed("1", "1"),
        ];
        let header: Vec<String> = vec!["v".into()];
        let finder = Finder::new(&numbers, |n| n != 3, &header, &[], None);
        for (x, expected) in [
            (-3.0, true),
            (0.0, true),
            (-0.0, true),
            (7.5, true),
            (1.0, false),
            (2.0, false),
            (f64::NAN, false),
            (-4.0, false),
            (9.0, false),
        ] {
            assert_eq!(finder.may_be_wanted(x), expected, "{x}");
        }
        let keys = &finder.wanted_texts;
        assert!(keys.may_hold("7.5 kg") && keys.may_hold("7.5 KG") && keys.may_hold("-3"));
        assert!(!keys.may_hold("8.5 kg") && !keys.may_hold("7.5 kgs") && !keys.may_hold(""));
        let long = "9".repeat(200);
        let with_long = TextKeys::new([long.as_str()].into_iter());
        assert!(with_long.may_hold(&"9".repeat(130)) && !with_long.may_hold("9"));
    }

    #[test]
    fn a_figure_typed_as_shown_equals_a_cell_with_float_noise() {
        assert_eq!(as_shown("7.052"), as_shown("7.0520000000000005"));
        assert_eq!(as_shown("70.198"), as_shown("70.19800000000001"));
        assert_ne!(as_shown("7.05"), as_shown("7.0520000000000005"));
        assert_eq!(as_shown("12"), Some(12.0));
        assert_eq!(as_shown("x"), None);
    }

    fn typed(number: &str, raw: &str) -> Typed {
        Typed {
            offset: 0,
            number: number.to_string(),
            raw: raw.to_string(),
        }
    }

    /// A cell read as the scan reads it (its value given) and as text (read here) match
    /// the same numbers: by value, by text with a unit, case ignored, commas dropped.
    #[test]
    fn a_cell_matches_the_same_whether_its_value_is_given_or_read() {
        let header: Vec<String> = ["id", "v", "note"].map(String::from).to_vec();
        let numbers = [
            typed("372", "372"),
            typed("12", "12kg"),
            typed("1000", "1000"),
            typed("5", "5µm"),
        ];
        let row = csv::StringRecord::from(vec!["a", "372.0", "x"]);
        let cells = [
            ("372.0", Some(372.0)),
            ("372", Some(372.0)),
            (" 372 ", None),
            ("12KG", None),
            ("1,000", None),
            ("5µM", None),
            ("C372", None),
            ("", None),
        ];
        let mut given = Finder::new(&numbers, |_| true, &header, &[], None);
        let mut read = given.clone();
        for (cell, value) in cells {
            given.cell(1, cell, value, &row);
            read.cell(1, cell, None, &row);
        }
        let counts = |f: Finder| f.into_matches().iter().map(|m| m.count).collect::<Vec<_>>();
        assert_eq!(counts(given), vec![3, 1, 1, 1]);
        assert_eq!(counts(read), vec![3, 1, 1, 1]);
    }
}
