//! Dates that are not ISO 8601 extended, told from a column's cells as they stream by: a
//! short list of common spellings (`19580329`, `Jan-1-1995`, `03/2019`, `04/03/2019`,
//! `2019-W07`, `1974Q1`, `1995-01-01 13:45`), each dropped at the first cell it does not
//! read. What survives becomes the column's `format` (`content::date_format`).
//!
//! Two readings of slashed dates survive together when no day passes 12 (`03/04/2019`):
//! month first is taken, as pandas and readr read them, and the other is named so that
//! `new` says what it assumed. Eight-digit numbers (`19580329`) are dates only when every
//! one is a real date between 1800 and 2100 and the column's name says it holds dates
//! (`date`, `day`, `dt`, `ymd`…): a count or an id of eight digits stays an integer.

use crate::content::columns::ColumnType;
use crate::content::date_format::{DateFormat, DateKind, COMMON_FORMATS};

/// The spellings tried, in order of preference; month first before day first.
const CANDIDATES: &[(&str, ColumnType)] = COMMON_FORMATS;

/// Words in a column's name that say it holds dates, for eight-digit numbers.
const DATE_WORDS: &[&str] = &["date", "day", "ymd", "yyyymmdd"];

/// The years an eight-digit number may be a date in.
const PLAUSIBLE_YEARS: std::ops::RangeInclusive<i32> = 1800..=2100;

/// A format found for a column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundFormat {
    pub pattern: &'static str,
    pub column_type: ColumnType,
    /// When the cells read as well another way (`%d/%m/%Y`): the reading not taken.
    pub other_reading: Option<&'static str>,
}

/// The spellings still in the running for one column.
#[derive(Debug, Default)]
pub struct DateGuess {
    /// Compiled at the first cell; each with whether it still reads every cell.
    alive: Option<Vec<(usize, DateFormat)>>,
    /// Whether every eight-digit date so far lies in [`PLAUSIBLE_YEARS`].
    implausible_year: bool,
    values: u64,
}

impl DateGuess {
    /// Looks at one filled cell (not a missing-value marker).
    pub fn add(&mut self, cell: &str) {
        self.values += 1;
        let alive = self.alive.get_or_insert_with(|| {
            CANDIDATES
                .iter()
                .enumerate()
                .filter_map(|(n, (p, t))| Some((n, DateFormat::compile(p, *t).ok()?)))
                .collect()
        });
        if alive.is_empty() {
            return;
        }
        let implausible = &mut self.implausible_year;
        alive.retain(|(n, format)| match format.parse(cell) {
            Some(value) => {
                if *n == 0 && !PLAUSIBLE_YEARS.contains(&value.year) {
                    *implausible = true;
                }
                true
            }
            None => false,
        });
    }

    /// The format of a column named `name`, if its every cell read as one.
    pub fn finish(self, name: &str) -> Option<FoundFormat> {
        if self.values == 0 {
            return None;
        }
        let alive = self.alive?;
        let lower = name.to_lowercase();
        let named_like_dates = DATE_WORDS.iter().any(|w| lower.contains(w))
            || lower
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|word| word == "dt");
        let mut kept = alive
            .iter()
            .filter(|(n, _)| *n != 0 || (named_like_dates && !self.implausible_year));
        let (first, format) = kept.next()?;
        let (pattern, column_type) = CANDIDATES[*first];
        // Another survivor that reads the same cells as other dates: day and month swapped.
        let other_reading = kept
            .find(|(_, other)| {
                matches!(format.kind(), DateKind::Day | DateKind::DateTime { .. })
                    && other.kind() == format.kind()
            })
            .map(|(n, _)| CANDIDATES[*n].0);
        Some(FoundFormat {
            pattern,
            column_type,
            other_reading,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guess(name: &str, cells: &[&str]) -> Option<FoundFormat> {
        let mut g = DateGuess::default();
        for c in cells {
            g.add(c);
        }
        g.finish(name)
    }

    #[test]
    fn each_spelling_is_found() {
        for (cells, pattern) in [
            (&["Jan-1-1995", "Feb-28-1995"][..], "%b-%d-%Y"),
            (&["03/2019", "12/2019"], "%m/%Y"),
            (&["2019-W07", "2020-W53"], "%G-W%V"),
            (&["1974Q1", "1974Q2"], "%YQ%q"),
            (&["1995-01-01 13:45", "1995-01-02 00:00"], "%Y-%m-%d %H:%M"),
            (&["13/04/2019", "01/02/2019"], "%d/%m/%Y"),
            (&["04/13/2019", "01/02/2019"], "%m/%d/%Y"),
        ] {
            let found = guess("when", cells).unwrap_or_else(|| panic!("{cells:?}"));
            assert_eq!(found.pattern, pattern, "{cells:?}");
            assert_eq!(found.other_reading, None, "{cells:?}");
        }
    }

    #[test]
    fn slashed_dates_with_no_day_past_12_are_read_month_first_and_said_so() {
        let found = guess("date", &["03/04/2019", "12/01/2019"]).unwrap();
        assert_eq!(found.pattern, "%m/%d/%Y");
        assert_eq!(found.other_reading, Some("%d/%m/%Y"));
        let found = guess("t", &["03/04/2019 10:00", "12/01/2019 11:30"]).unwrap();
        assert_eq!(
            (found.pattern, found.other_reading),
            ("%m/%d/%Y %H:%M", Some("%d/%m/%Y %H:%M"))
        );
    }

    #[test]
    fn eight_digits_are_dates_only_in_a_column_named_for_dates_with_plausible_years() {
        let cells = ["19580329", "19600101"];
        assert_eq!(guess("date", &cells).unwrap().pattern, "%Y%m%d");
        assert_eq!(guess("obs_dt", &cells).unwrap().pattern, "%Y%m%d");
        assert_eq!(guess("count", &cells), None);
        assert_eq!(guess("width", &cells), None);
        assert_eq!(guess("date", &["19580329", "30000101"]), None);
        assert_eq!(guess("date", &["19580329", "19581301"]), None);
    }

    #[test]
    fn text_and_numbers_are_not_dates() {
        assert_eq!(guess("date", &["hello", "03/04/2019"]), None);
        assert_eq!(guess("date", &["12", "13"]), None);
        assert_eq!(guess("date", &[]), None);
    }
}
