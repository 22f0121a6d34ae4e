//! Cell checks: one cell against its column's type and constraints (required, enum,
//! bounds, pattern, source references), giving the first problem found.

use std::collections::{BTreeSet, HashSet};

use super::problems::ProblemKind;
use super::CompiledColumn;
use crate::dataset::schema::compare_to_bound;
use crate::diagnostics::did_you_mean;

/// What is wrong with one cell, with the message and hint the report shows.
#[derive(Debug)]
pub(super) struct CellProblem {
    pub(super) kind: ProblemKind,
    pub(super) message: String,
    pub(super) hint: Option<String>,
}

impl CellProblem {
    fn new(kind: ProblemKind, message: String, hint: Option<String>) -> CellProblem {
        CellProblem {
            kind,
            message,
            hint,
        }
    }
}

/// A cell that is not of its column's type (`value` as written in the CSV). The hint
/// shows a number in the column's own marks, and names the `group` key for a plain
/// column whose cell is grouped (`1,000`, `1.234,5`).
pub(super) fn type_problem(value: &str, column: &CompiledColumn) -> CellProblem {
    let spec = column.spec;
    let column_type = spec.column_type;
    let expected = column_type.check(value).err().unwrap_or("a number");
    let hint = if column_type.is_numeric() && !column.marks.is_plain() {
        let marks = column.marks;
        let group = match marks.group {
            Some(g) => format!(", {} between groups of three digits", g.shown()),
            None => String::new(),
        };
        format!(
            "write a number such as {} or -0{}5 (`{}` before the decimals{group}), or leave the cell empty",
            marks.example(),
            marks.decimal.as_str(),
            marks.decimal.as_str()
        )
    } else if column_type.is_numeric() && looks_grouped(value) {
        format!(
            "write {expected}; or, if the file writes numbers so, declare its marks on the \
             column: `group = \",\"` for 1,234.5, `decimal = \",\"` and `group = \".\"` for 1.234,5"
        )
    } else {
        format!("write {expected}, or leave the cell empty")
    };
    CellProblem::new(
        ProblemKind::Type,
        format!(
            "`{}` is declared {}, but {:?} is not",
            spec.name,
            column_type.as_str(),
            value
        ),
        Some(hint),
    )
}

/// Whether a cell is digits with `,`, `.` or spaces between them (`1,000`, `1.234,5`): a
/// number in marks the column does not declare.
fn looks_grouped(value: &str) -> bool {
    let digits = value.strip_prefix(['-', '+']).unwrap_or(value);
    digits.starts_with(|c: char| c.is_ascii_digit())
        && digits.ends_with(|c: char| c.is_ascii_digit())
        && digits.contains([',', ' ', '\u{a0}', '\u{202f}'])
        && digits
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | ' ' | '\u{a0}' | '\u{202f}'))
}

/// Checks one cell; returns its first problem. A valid reference is added to `referenced`.
pub(super) fn check_cell(
    value: &str,
    column: &CompiledColumn,
    source_ids: &HashSet<&str>,
    referenced: &mut BTreeSet<String>,
) -> Option<CellProblem> {
    let spec = column.spec;
    if value.is_empty() {
        return spec.required.then(|| CellProblem {
            kind: ProblemKind::Required,
            message: format!("`{}` is empty, but the column is required", spec.name),
            hint: Some(
                "fill in the value, or drop `required = true` if the column may be blank".into(),
            ),
        });
    }
    if spec.column_type.check(value).is_err() {
        return Some(type_problem(value, column));
    }
    if let Some(allowed) = &spec.enum_values {
        if !allowed.iter().any(|a| a == value) {
            let near = did_you_mean(value, allowed.iter().map(String::as_str));
            let hint = match near {
                Some(n) => format!("did you mean {n:?}? allowed: {}", allowed.join(", ")),
                None => format!("allowed: {}", allowed.join(", ")),
            };
            return Some(CellProblem::new(
                ProblemKind::Enum,
                format!("`{}` does not allow {:?}", spec.name, value),
                Some(hint),
            ));
        }
    }
    for (bound, is_min) in [(&spec.minimum, true), (&spec.maximum, false)] {
        if let Some(bound) = bound {
            if let Some(ordering) = compare_to_bound(spec.column_type, value, bound) {
                let out_of_range = if is_min {
                    ordering.is_lt()
                } else {
                    ordering.is_gt()
                };
                if out_of_range {
                    let word = if is_min { "minimum" } else { "maximum" };
                    return Some(CellProblem::new(
                        ProblemKind::Range,
                        format!("`{}` value {value} is beyond the {word} {bound}", spec.name),
                        Some(format!(
                            "check the figure, or change `{word}` in the front matter"
                        )),
                    ));
                }
            }
        }
    }
    if let Some(pattern) = &column.pattern {
        if !pattern.is_match(value) {
            return Some(CellProblem::new(
                ProblemKind::Pattern,
                format!(
                    "`{}` value {:?} does not match the pattern {}",
                    spec.name,
                    value,
                    spec.pattern.as_deref().unwrap_or_default()
                ),
                None,
            ));
        }
    }
    if spec.references_sources() {
        if source_ids.contains(value) {
            referenced.insert(value.to_string());
        } else {
            let near = did_you_mean(value, source_ids.iter().copied());
            let hint = match near {
                Some(n) => format!("did you mean {n:?}?"),
                None => "add a [[sources]] entry with this id to the front matter".to_string(),
            };
            return Some(CellProblem::new(
                ProblemKind::Reference,
                format!(
                    "`{}` names the source {:?}, which is not defined",
                    spec.name, value
                ),
                Some(hint),
            ));
        }
    }
    None
}
