//! A wrong declaration, told once: when most filled cells of a column fail its declared
//! type, the mistake is the `type =` line, not the cells. The scan keeps, per column, the
//! first few failing cells and the types every failing cell would fit; at the end, such a
//! column's cell errors give way to one [`WrongType`], which the loader reports at the
//! column's `type` in the front matter.

use serde::{Deserialize, Serialize};

use super::problems::{PendingProblem, ProblemCounter, ProblemKind, Scope};
use super::profile::ColumnProfile;
use crate::content::columns::ColumnSpec;
use crate::content::date_format::{common_format_of, DateFormat};
use crate::schema::ColumnType;

/// Failing cells quoted in the error.
const EXAMPLES: usize = 3;

/// The types tried, most specific first: the first that every failing cell fits is what
/// the values look like.
const CANDIDATES: [ColumnType; 5] = [
    ColumnType::Boolean,
    ColumnType::Integer,
    ColumnType::Number,
    ColumnType::Date,
    ColumnType::Datetime,
];

/// What one column's failing cells have in common.
#[derive(Debug, Clone)]
pub(super) struct TypeFailures {
    examples: Vec<String>,
    /// Bit `i`: every failing cell so far is a valid `CANDIDATES[i]`.
    fits: u8,
}

impl Default for TypeFailures {
    fn default() -> TypeFailures {
        TypeFailures {
            examples: Vec::new(),
            fits: (1 << CANDIDATES.len()) - 1,
        }
    }
}

impl TypeFailures {
    /// Notes one cell that failed the column's type.
    pub(super) fn add(&mut self, value: &str) {
        if self.examples.len() < EXAMPLES {
            self.examples.push(value.to_string());
        }
        for (bit, candidate) in CANDIDATES.iter().enumerate() {
            if self.fits & (1 << bit) != 0 && !candidate.is_valid(value) {
                self.fits &= !(1 << bit);
            }
        }
    }

    /// The declaration error for a column whose `failed` of `filled` cells fail the type,
    /// when they are most of them (and more than one: a single odd cell is the cell's error).
    pub(super) fn into_wrong_type(
        self,
        column: usize,
        failed: usize,
        filled: u64,
    ) -> Option<WrongType> {
        let most = failed >= 2 && (failed as u64) * 2 > filled;
        most.then(|| WrongType {
            column,
            failed: failed as u64,
            filled,
            examples: self.examples,
            looks_like: CANDIDATES
                .iter()
                .enumerate()
                .find(|(bit, _)| self.fits & (1 << bit) != 0)
                .map_or(ColumnType::String, |(_, t)| *t),
        })
    }
}

/// The columns whose declared type most filled cells fail (`failures` and `profiles` per
/// column); their cell errors are dropped from `pending` and `counter`.
pub(super) fn take_wrong_types(
    failures: Vec<TypeFailures>,
    profiles: &[ColumnProfile],
    counter: &mut ProblemCounter,
    pending: &mut Vec<PendingProblem>,
) -> Vec<WrongType> {
    let mut wrong = Vec::new();
    for (column, failures) in failures.into_iter().enumerate() {
        let scope = Scope::Column(column);
        let failed = counter.count(scope, ProblemKind::Type);
        let Some(filled) = profiles.get(column).map(|p| p.filled) else {
            continue;
        };
        if let Some(w) = failures.into_wrong_type(column, failed, filled) {
            pending.retain(|p| !(p.kind == ProblemKind::Type && p.field == Some(column)));
            counter.forget(scope, ProblemKind::Type);
            wrong.push(w);
        }
    }
    wrong
}

/// A column whose declared type most of its cells fail.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WrongType {
    /// The column's index in the header.
    pub column: usize,
    /// Filled cells that fail the type.
    pub failed: u64,
    /// Filled cells (not empty, not a declared missing value).
    pub filled: u64,
    /// The first failing cells, as written.
    pub examples: Vec<String>,
    /// The first of boolean, integer, number, date, datetime that every failing cell is,
    /// else string.
    pub looks_like: ColumnType,
}

impl WrongType {
    /// The message and hint for column `name` declared `declared`.
    pub fn describe(&self, name: &str, declared: ColumnType) -> (String, String) {
        let (cells, examples) = self.cells_and_examples();
        let message = format!(
            "`{name}` is declared {}, but {cells} are not, such as {examples}",
            declared.as_str(),
        );
        let format = match declared.is_time() {
            true => common_format_of(self.examples.iter().map(String::as_str), declared),
            false => None,
        };
        let hint = match self.looks_like {
            _ if format.is_some() => format!(
                "the values look like dates written as {0:?}: add format = {0:?} to the column",
                format.unwrap_or_default()
            ),
            ColumnType::String => format!(
                "the values are text: declare type = \"string\", or correct the cells to {}",
                declared.as_str()
            ),
            other => format!(
                "the values look like {0}: declare type = \"{0}\"",
                other.as_str()
            ),
        };
        (message, hint)
    }

    /// The message, hint and key at fault (`type`, or `format` when the column has one)
    /// for the column documented as `spec`, named `name` in the header.
    pub fn describe_column(&self, name: &str, spec: &ColumnSpec) -> (String, String, &'static str) {
        let format = spec.format.as_deref().and_then(|f| {
            let example = DateFormat::compile(f, spec.column_type).ok()?.example();
            Some(self.describe_format(name, f, &example))
        });
        let ((message, hint), key) = match format {
            Some(found) => (found, "format"),
            None => (self.describe(name, spec.column_type), "type"),
        };
        (message, hint, key)
    }

    /// The message and hint for column `name` whose date `format` (which writes 4 March
    /// 2019 as `example`) most cells do not match.
    pub fn describe_format(&self, name: &str, format: &str, example: &str) -> (String, String) {
        let (cells, examples) = self.cells_and_examples();
        let message = format!(
            "`{name}` has the format {format:?}, but {cells} do not match it, such as {examples}"
        );
        let hint = format!(
            "the format writes 4 March 2019 as {example}: change `format` to how the cells are written"
        );
        (message, hint)
    }

    /// "3 of 5 filled cells" and the examples, quoted.
    fn cells_and_examples(&self) -> (String, String) {
        let examples: Vec<String> = self.examples.iter().map(|e| format!("{e:?}")).collect();
        let cells = if self.failed == self.filled {
            format!("all {} filled cells", crate::schema::thousands(self.filled))
        } else {
            format!(
                "{} of {} filled cells",
                crate::schema::thousands(self.failed),
                crate::schema::thousands(self.filled)
            )
        };
        (cells, examples.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn most_cells_failing_make_one_error_naming_what_they_look_like() {
        let mut f = TypeFailures::default();
        for v in ["1.5", "2", "3.25", "4.0"] {
            f.add(v);
        }
        let wrong = f.clone().into_wrong_type(2, 4, 5).expect("4 of 5 fail");
        assert_eq!(wrong.looks_like, ColumnType::Number);
        assert_eq!(wrong.examples, ["1.5", "2", "3.25"]);
        let (message, hint) = wrong.describe("gdp", ColumnType::Integer);
        assert_eq!(
            message,
            "`gdp` is declared integer, but 4 of 5 filled cells are not, such as \"1.5\", \"2\", \"3.25\""
        );
        assert_eq!(
            hint,
            "the values look like number: declare type = \"number\""
        );
        // A minority of failing cells stays the cells' errors.
        assert!(f.clone().into_wrong_type(2, 4, 8).is_none());
        let mut one = TypeFailures::default();
        one.add("x");
        assert!(one.into_wrong_type(0, 1, 1).is_none());
    }

    #[test]
    fn mixed_failures_look_like_text_and_dates_like_dates() {
        let mut f = TypeFailures::default();
        f.add("2021-04-05");
        f.add("n/a");
        let wrong = f.into_wrong_type(0, 2, 2).expect("all fail");
        assert_eq!(wrong.looks_like, ColumnType::String);
        let (message, hint) = wrong.describe("when", ColumnType::Integer);
        assert!(message.contains("all 2 filled cells"), "{message}");
        assert!(hint.contains("correct the cells to integer"), "{hint}");
        let mut d = TypeFailures::default();
        d.add("2021-04-05");
        d.add("1999-12-31");
        assert_eq!(
            d.into_wrong_type(0, 2, 3).unwrap().looks_like,
            ColumnType::Date
        );
        // Dates in another spelling: the hint names the `format` that reads them.
        let mut e = TypeFailures::default();
        e.add("25/12/2019");
        e.add("04/03/2019");
        let (_, hint) = e
            .into_wrong_type(0, 2, 2)
            .unwrap()
            .describe("when", ColumnType::Date);
        assert_eq!(
            hint,
            "the values look like dates written as \"%d/%m/%Y\": add format = \"%d/%m/%Y\" to the column"
        );
    }
}
