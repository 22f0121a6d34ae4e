//! Cell checks: one cell read as its column says (missing values, marks, a date
//! `format`), then against its column's type and constraints (required, enum, bounds,
//! pattern, source references), giving the first problem found.

use std::collections::{BTreeSet, HashSet};

use super::problems::ProblemKind;
use super::CompiledColumn;
use crate::diagnostics::did_you_mean;
use crate::schema::compare_to_bound;

/// A cell as the checks read it.
pub(super) struct ReadCell<'c> {
    /// What is checked and profiled: a declared missing value (`NA`) empty, another
    /// spelling of infinity read, a date through its column's `format` in the style pages
    /// show it, `1.234,5` in a column of decimal commas as `1234.5`.
    pub(super) value: &'c str,
    /// The cell as messages quote it (missing values and infinities read, nothing else).
    pub(super) written: &'c str,
    /// A number mark out of place (`1.5` in a column of decimal commas).
    pub(super) misplaced: bool,
    /// A date its column's `format` cannot read.
    pub(super) unreadable: bool,
}

/// Reads `cell` as `column` says, into `plain` or `shown` where the text is rewritten.
pub(super) fn read_cell<'c>(
    cell: &'c str,
    column: &CompiledColumn,
    plain: &'c mut String,
    shown: &'c mut String,
) -> ReadCell<'c> {
    let written = if column.missing.has_tokens() && column.missing.is_missing(cell) {
        ""
    } else if let Some(spelling) = column.spec.non_finite_spelling() {
        spelling.read(cell)
    } else {
        cell
    };
    let read = |value, misplaced, unreadable| ReadCell {
        value,
        written,
        misplaced,
        unreadable,
    };
    match &column.date_format {
        Some(format) if !written.is_empty() => match format.canonical(written, shown) {
            true => read(shown.as_str(), false, false),
            false => read(written, false, true),
        },
        Some(_) => read(written, false, false),
        // Most columns' marks are plain: nothing to rewrite, nothing to call.
        None if column.marks.is_plain() => read(written, false, false),
        None => match column.marks.plain(written, plain) {
            Some(number) => read(number, false, false),
            None => read(written, true, false),
        },
    }
}

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
    // A formatted date was read through its format before (`format_mismatch`).
    let type_check = match column.date_format {
        Some(_) => Ok(()),
        None => spec.column_type.check(value),
    };
    if type_check.is_err() {
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

/// The problem of a date cell its column's `format` does not read.
pub(super) fn format_mismatch(value: &str, column: &CompiledColumn) -> CellProblem {
    let spec = column.spec;
    let example = column
        .date_format
        .as_ref()
        .map(|f| f.example())
        .unwrap_or_default();
    CellProblem::new(
        ProblemKind::Type,
        format!(
            "`{}` is declared {} in the format {:?}, but {:?} is not",
            spec.name,
            spec.column_type.as_str(),
            spec.format.as_deref().unwrap_or_default(),
            value
        ),
        Some(format!(
            "write it as the format says ({example} is 4 March 2019), or leave the cell empty"
        )),
    )
}

/// `10^n` for the decimals [`plain_decimal`] reads: each exact as a double.
const POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// A number cell of the shape most are written in, `-123` or `-123.45` (no point in an
/// `integer` column), read in one pass: `Some` only for a cell its type check passes,
/// holding exactly what `str::parse::<f64>` reads; `None` leaves the cell to those two.
/// At most 19 digits, whose integer is at most 2^53, and at most 22 decimals: the integer
/// and the power of ten are both exact as doubles, so one division (rounded once, as IEEE
/// 754 divides) gives the correctly rounded value, as the standard parser does (its own
/// fast path for such numbers).
#[inline]
pub(super) fn plain_decimal(value: &str, integer: bool) -> Option<f64> {
    let bytes = value.as_bytes();
    let (negative, digits) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, bytes),
    };
    // The digits before the point, then those after it: one loop each, no test per
    // byte for the point.
    let mut mantissa: u64 = 0;
    let mut at = 0;
    while let Some(digit) = digits
        .get(at)
        .map(|b| b.wrapping_sub(b'0'))
        .filter(|d| *d <= 9)
    {
        mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(digit));
        at += 1;
    }
    let whole = at;
    let mut decimals = 0;
    if at < digits.len() {
        if integer || whole == 0 || digits[at] != b'.' {
            return None;
        }
        for &b in &digits[at + 1..] {
            let digit = b.wrapping_sub(b'0');
            if digit > 9 {
                return None;
            }
            mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(digit));
        }
        decimals = digits.len() - at - 1;
        if decimals == 0 {
            return None;
        }
    }
    let count = whole + decimals;
    if count == 0 || count > 19 || mantissa > 1 << 53 {
        return None;
    }
    let x = mantissa as f64 / *POWERS_OF_TEN.get(decimals)?;
    Some(if negative { -x } else { x })
}

#[cfg(test)]
mod tests {
    use super::plain_decimal;
    use crate::content::columns::ColumnType;

    /// Every cell the quick reading reads passes its type check and holds what the standard
    /// parser reads, to the bit; the cells it leaves are left to those two.
    #[test]
    fn a_plain_decimal_is_valid_and_read_as_the_standard_parser_reads_it() {
        let mut cells: Vec<String> = [
            "0",
            "-0",
            "-0.00",
            "5",
            "5.",
            ".5",
            "+5",
            "-",
            "",
            "1e5",
            "12a",
            "1.2.3",
            "1,5",
            "9007199254740992",
            "9007199254740993",
            "0.1",
            "-223.48",
            "99999.9",
            "-0.6710",
            "1234567890123456789",
            "12345678901234567890",
            "0.0000000000000000000001",
            "0.00000000000000000000001",
            "00012.50",
            "--1",
            "1-",
            "NaN",
            "INF",
        ]
        .map(String::from)
        .to_vec();
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let digits = (state % 20) as usize + 1;
            let text: String = (0..digits)
                .map(|i| char::from(b'0' + ((state >> (i * 3)) % 10) as u8))
                .collect();
            let point = (state >> 60) as usize % (digits + 1);
            let sign = if state >> 59 & 1 == 1 { "-" } else { "" };
            cells.push(format!("{sign}{text}"));
            if point > 0 && point < digits {
                cells.push(format!("{sign}{}.{}", &text[..point], &text[point..]));
            }
        }
        let mut read = 0;
        for cell in &cells {
            for (column_type, integer) in [(ColumnType::Number, false), (ColumnType::Integer, true)]
            {
                let Some(x) = plain_decimal(cell, integer) else {
                    continue;
                };
                read += 1;
                assert!(column_type.is_valid(cell), "{cell:?}");
                assert_eq!(
                    x.to_bits(),
                    cell.parse::<f64>().unwrap().to_bits(),
                    "{cell:?}"
                );
            }
        }
        assert!(read > 20_000, "{read}");
        for left in [
            "5.",
            ".5",
            "+5",
            "1e5",
            "9007199254740993",
            "12345678901234567890",
        ] {
            assert_eq!(plain_decimal(left, false), None, "{left}");
        }
        assert_eq!(plain_decimal("1.5", true), None);
    }
}
