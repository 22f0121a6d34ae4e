//! The kinds of problem the scan finds, where each applies (a cell's column or the whole
//! row), and the counter that shows the first few of each and only counts the rest.

use std::collections::HashMap;
use std::path::Path;

use super::CompiledColumn;
use crate::content::first_line::RaggedRows;
use crate::diagnostics::{Diagnostic, Severity};

/// Problems shown per column and kind before the rest are only counted.
pub const ERRORS_SHOWN_PER_COLUMN: usize = 5;

/// What a row with the wrong number of fields is told (by `check` and by `new --from`).
pub fn ragged_message(fields: usize, width: usize) -> String {
    let plural = if fields == 1 { "field" } else { "fields" };
    format!("row has {fields} {plural}, the header has {width}")
}

/// The hint for a row with the wrong number of fields, when nothing more is known.
pub const RAGGED_HINT: &str =
    "every row needs one value per column; quote values that contain commas";

/// The hint for a row with more fields than the header: when the extra fields are the
/// halves of numbers written with a decimal comma (`12,5` in a `,`-separated file), it names
/// the first such number and the two ways out; otherwise [`RAGGED_HINT`].
pub fn ragged_hint<'a>(
    fields: impl IntoIterator<Item = &'a [u8]>,
    width: usize,
    delimiter: u8,
) -> String {
    let fields: Vec<&[u8]> = fields.into_iter().collect();
    let extra = fields.len().saturating_sub(width);
    if delimiter != b',' || extra == 0 {
        return RAGGED_HINT.into();
    }
    let whole = |f: &[u8]| {
        let digits = f.strip_prefix(b"-").unwrap_or(f);
        !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
    };
    let fraction = |f: &[u8]| !f.is_empty() && f.iter().all(u8::is_ascii_digit);
    // Pairs that do not overlap: `1,5,2` is one number and a field, not two numbers.
    let mut pairs = Vec::new();
    let mut i = 0;
    while i + 1 < fields.len() {
        if whole(fields[i]) && fraction(fields[i + 1]) {
            pairs.push(i);
            i += 2;
        } else {
            i += 1;
        }
    }
    if pairs.len() < extra {
        return RAGGED_HINT.into();
    }
    let first = pairs[0];
    let number = format!(
        "{},{}",
        String::from_utf8_lossy(fields[first]),
        String::from_utf8_lossy(fields[first + 1])
    );
    format!(
        "this row looks like it holds numbers with a decimal comma (`{number}`, fields {} and {}), \
         which split a row at every comma. Quote them (`\"{number}\"`), or write the file with `;` \
         between values and add `delimiter = \";\"` and `decimal = \",\"` to the front matter",
        first + 1,
        first + 2
    )
}

/// What is wrong with a row or a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum ProblemKind {
    /// A row with more or fewer fields than the header.
    Ragged,
    /// Bytes that are not UTF-8.
    Utf8,
    /// A cell that is not of its column's type.
    Type,
    /// An empty cell in a required column.
    Required,
    /// A value outside the column's `enum`.
    Enum,
    /// A value beyond the column's `minimum` or `maximum`.
    Range,
    /// A value that does not match the column's `pattern`.
    Pattern,
    /// A source id that the front matter does not define.
    Reference,
    /// A value repeated in a `unique` column.
    Unique,
    /// A character HTML and XML cannot carry (a warning).
    Character,
    /// A number a 64-bit float cannot hold (a warning: the file is published as it is).
    Magnitude,
}

impl ProblemKind {
    /// The word for the kind in "N more … problems" messages.
    fn word(self) -> &'static str {
        match self {
            ProblemKind::Ragged => "ragged",
            ProblemKind::Utf8 => "utf8",
            ProblemKind::Type => "type",
            ProblemKind::Required => "required",
            ProblemKind::Enum => "enum",
            ProblemKind::Range => "range",
            ProblemKind::Pattern => "pattern",
            ProblemKind::Reference => "reference",
            ProblemKind::Unique => "unique",
            ProblemKind::Character => "character",
            ProblemKind::Magnitude => "magnitude",
        }
    }

    /// Forbidden characters are replaced in every output, and a number too large or too
    /// small is published as written, so they only warn.
    pub(super) fn severity(self) -> Severity {
        match self {
            ProblemKind::Character | ProblemKind::Magnitude => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

/// Where a problem applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Scope {
    /// The whole row (its shape).
    Row,
    /// One cell: the column at this index.
    Column(usize),
}

/// A cell problem found during the scan, located once the scan is over.
pub(super) struct PendingProblem {
    pub(super) kind: ProblemKind,
    pub(super) severity: Severity,
    pub(super) line: u64,
    pub(super) record_byte: u64,
    pub(super) field: Option<usize>,
    pub(super) message: String,
    pub(super) hint: Option<String>,
}

/// Counts problems per (scope, kind) so a column full of bad cells does not drown the report.
#[derive(Default)]
pub(super) struct ProblemCounter {
    counts: HashMap<(Scope, ProblemKind), usize>,
    /// The widths of the rows that do not fit the header: one width for them all says the
    /// first line is not the header, one problem in place of them all.
    pub(super) ragged_rows: RaggedRows,
}

impl ProblemCounter {
    /// Whether this problem is among the first few of its kind in its scope.
    pub(super) fn record(&mut self, scope: Scope, kind: ProblemKind) -> bool {
        let count = self.counts.entry((scope, kind)).or_insert(0);
        *count += 1;
        *count <= ERRORS_SHOWN_PER_COLUMN
    }

    /// How many problems of `kind` were counted in `scope`.
    pub(super) fn count(&self, scope: Scope, kind: ProblemKind) -> usize {
        self.counts.get(&(scope, kind)).copied().unwrap_or(0)
    }

    /// Forgets the problems of `kind` in `scope` (reported another way).
    pub(super) fn forget(&mut self, scope: Scope, kind: ProblemKind) {
        self.counts.remove(&(scope, kind));
    }

    /// Whether any problem was counted.
    pub(super) fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// One "N more … problems not shown" line per scope and kind past the shown few.
    pub(super) fn not_shown(self, display: &Path, columns: &[CompiledColumn]) -> Vec<Diagnostic> {
        let mut lines = Vec::new();
        for ((scope, kind), count) in self.counts {
            if count > ERRORS_SHOWN_PER_COLUMN {
                let name = match scope {
                    Scope::Row => "rows".to_string(),
                    Scope::Column(column) => format!("column `{}`", columns[column].spec.name),
                };
                lines.push(
                    Diagnostic::error(
                        display,
                        format!(
                            "{} more {} problems in {name} not shown",
                            count - ERRORS_SHOWN_PER_COLUMN,
                            kind.word()
                        ),
                    )
                    .with_severity(kind.severity()),
                );
            }
        }
        lines
    }
}
