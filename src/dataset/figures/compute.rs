//! Computing one figure from what the CSV pass found: the single row of a `cell` (or of
//! each side of a pair) with its problems (no row, several rows), the pair arithmetic,
//! the aggregates, rounding, and the check of a bound figure.

use std::collections::{BTreeMap, BTreeSet};

use super::scan::{Selector, Tally, DISTINCT};
use super::{describe, locate, Found, Quoted, Table};
use crate::content::figures::{condition_key, Function};
use crate::dataset::schema::{ColumnSpec, ColumnType};
use crate::dataset::shown;
use crate::diagnostics::{did_you_mean, Diagnostic};

type Distinct = BTreeMap<usize, BTreeSet<String>>;

/// The one row a `cell` (or each side of a pair) selects, or the problem.
fn single<'t>(
    f: &Found,
    tally: &'t Tally,
    selector: &Selector,
    distinct: &Distinct,
    table: &Table,
) -> Result<&'t Tally, Diagnostic> {
    let wanted = describe(selector, table);
    let of = table
        .quoted
        .map(|slug| format!(" of `{slug}`"))
        .unwrap_or_default();
    match tally.matches {
        1 => Ok(tally),
        0 => {
            let mut hints: Vec<String> = Vec::new();
            for (c, v) in &selector.conditions {
                let values = distinct.get(c).cloned().unwrap_or_default();
                if !values.contains(v) {
                    let name = condition_key(&table.columns[*c].name);
                    let hint = match did_you_mean(v, values.iter().map(String::as_str)) {
                        Some(near) => format!("did you mean `{near}`? no row has {name}=\"{v}\""),
                        None => {
                            let listed: Vec<&str> = values.iter().map(String::as_str).collect();
                            let more = if values.len() >= DISTINCT {
                                ", …"
                            } else {
                                ""
                            };
                            format!(
                                "no row has {name}=\"{v}\"; it holds: {}{more}",
                                listed.join(", ")
                            )
                        }
                    };
                    hints.push(hint);
                }
            }
            if hints.is_empty() {
                hints.push("each condition matches some row, but no row matches them all".into());
            }
            Err(
                locate(table, f.offset, format!("no row{of} matches {wanted}"))
                    .with_hint(hints.join("; ")),
            )
        }
        n => Err(locate(
            table,
            f.offset,
            format!(
                "{n} rows{of} match {wanted}: {}",
                tally.candidates.join("; ")
            ),
        )
        .with_hint(match table.primary_key.is_empty() {
            true => "add a condition that tells these rows apart".to_string(),
            false => format!(
                "add a condition on the primary key: {}",
                table.primary_key.join(", ")
            ),
        })),
    }
}

pub(super) fn compute(
    f: &Found,
    tallies: &[Tally],
    selectors: &[Selector],
    distinct: &Distinct,
    table: &Table,
    problems: &mut Vec<Diagnostic>,
) -> Option<Quoted> {
    let column = selectors[0].column.map(|c| &table.columns[c]);
    let figure = Figure {
        f,
        tallies,
        selectors,
        distinct,
        table,
        column,
        column_title: column.map(|c| c.title.as_str()).unwrap_or("rows"),
    };
    let computed = match f.reference.function {
        Function::Cell => figure.cell(problems)?,
        Function::Ratio | Function::Difference | Function::PercentChange => {
            figure.pair(problems)?
        }
        Function::Count => figure.count(),
        Function::Min | Function::Max | Function::Sum | Function::Mean => {
            let dates = selectors[0]
                .column
                .and_then(|c| table.readings.get(c))
                .is_some_and(|reading| reading.is_time());
            if dates {
                let title = figure.column_title;
                return extreme_date(f, &tallies[0], &selectors[0], table, title, problems);
            }
            figure.aggregate(problems)?
        }
    };
    // Numbers are written in the page's marks; a cell of text, or as the CSV has it, is not.
    let r = &f.reference;
    let number = match r.function {
        Function::Cell => {
            !r.as_in_csv
                && (r.digits.is_some() || column.is_some_and(|c| c.column_type.is_numeric()))
        }
        _ => true,
    };
    check_bound(f, table, computed, (column, number), problems)
}

/// A figure as computed: its value, its text as the page shows it, the title that says
/// how it was found, and the rows it reads.
struct Computed {
    value: String,
    text: String,
    title: String,
    rows: Vec<u64>,
}

/// What one figure is computed from: the reference, what the CSV pass tallied for each of
/// its selectors, and the column it reads (if any).
struct Figure<'a> {
    f: &'a Found,
    tallies: &'a [Tally],
    selectors: &'a [Selector],
    distinct: &'a Distinct,
    table: &'a Table<'a>,
    column: Option<&'a ColumnSpec>,
    column_title: &'a str,
}

impl Figure<'_> {
    /// Adds the problem `message`, located at the figure; `None`.
    fn fail(&self, problems: &mut Vec<Diagnostic>, message: String) -> Option<Computed> {
        problems.push(locate(self.table, self.f.offset, message));
        None
    }

    /// The one row selector `k` selects, or its problem added.
    fn single(&self, k: usize, problems: &mut Vec<Diagnostic>) -> Option<&Tally> {
        let (tally, selector) = (&self.tallies[k], &self.selectors[k]);
        single(self.f, tally, selector, self.distinct, self.table)
            .map_err(|d| problems.push(d))
            .ok()
    }

    /// `cell`: the one cell, as written (`as_in_csv`), at `digits`, or as the table shows it.
    fn cell(&self, problems: &mut Vec<Diagnostic>) -> Option<Computed> {
        let r = &self.f.reference;
        let t = self.single(0, problems)?;
        let name = || self.column.map(|c| c.name.as_str());
        if t.first_cell.is_empty() {
            let message = format!("the cell `{}` of row {} is empty", name()?, t.rows[0]);
            return self.fail(problems, message);
        }
        let text = match (r.as_in_csv, r.digits) {
            (true, _) => t.first_cell.clone(),
            (false, Some(digits)) => match number(t) {
                Some(v) => round(v, digits),
                None => {
                    let message = format!(
                        "`digits` rounds numbers; the cell `{}` of row {} is not one",
                        name()?,
                        t.rows[0]
                    );
                    return self.fail(problems, message);
                }
            },
            (false, None) => shown::cell(self.column?, &t.first_value),
        };
        Some(Computed {
            value: t.first_value.clone(),
            text,
            title: format!("{}, {}", self.column_title, t.candidates[0]),
            rows: t.rows.clone(),
        })
    }

    /// `ratio`, `difference` and `percent_change` of two cells' numbers.
    fn pair(&self, problems: &mut Vec<Diagnostic>) -> Option<Computed> {
        let function = self.f.reference.function;
        let (a, b) = (self.single(0, problems), self.single(1, problems));
        let (a, b) = (a?, b?);
        let (Some(x), Some(y)) = (number(a), number(b)) else {
            let message = format!(
                "`{}` needs two numbers; the cells read `{}` and `{}`",
                function.name(),
                a.first_value,
                b.first_value
            );
            return self.fail(problems, message);
        };
        let v = match function {
            Function::Ratio => x / y,
            Function::Difference => x - y,
            _ => (x - y) / y * 100.0,
        };
        if !v.is_finite() {
            return self.fail(problems, format!("`{}` divides by zero", function.name()));
        }
        let title = format!(
            "{} of {}: {} against {}",
            function.name().replace('_', " "),
            self.column_title,
            a.candidates[0],
            b.candidates[0]
        );
        // A difference is in the column's unit, so at its `digits`; a ratio and a percent
        // change are not.
        let column_digits = match function {
            Function::Difference => self.column.and_then(ColumnSpec::shown_digits),
            _ => None,
        };
        Some(Computed {
            value: v.to_string(),
            text: round(v, self.f.reference.digits.or(column_digits).unwrap_or(2)),
            title,
            rows: vec![a.rows[0], b.rows[0]],
        })
    }

    /// `count`: the rows that match, or the cells of the column in them.
    fn count(&self) -> Computed {
        let t = &self.tallies[0];
        let n = match self.column {
            Some(_) => t.numbers + t.non_numeric,
            None => t.matches,
        };
        let where_ = where_clause(&self.selectors[0], self.table);
        Computed {
            value: n.to_string(),
            text: round(n as f64, 0),
            title: format!("count of {}{where_}", self.column_title),
            rows: t.rows.clone(),
        }
    }

    /// `min`, `max`, `sum` and `mean` of a column's numbers, in the column's unit.
    fn aggregate(&self, problems: &mut Vec<Diagnostic>) -> Option<Computed> {
        let (function, t) = (self.f.reference.function, &self.tallies[0]);
        if t.numbers == 0 || t.non_numeric > 0 {
            let message = format!(
                "`{}` needs numbers: {} matching rows, {} numeric cells, {} not numeric",
                function.name(),
                t.matches,
                t.numbers,
                t.non_numeric
            );
            return self.fail(problems, message);
        }
        let extreme = match function {
            Function::Min => t.min.as_ref(),
            Function::Max => t.max.as_ref(),
            _ => None,
        };
        let v = match function {
            Function::Sum => t.sum,
            Function::Mean => t.sum / t.numbers as f64,
            _ => extreme.map(|(v, _)| *v).unwrap_or_default(),
        };
        // At the figure's `digits`, else the column's.
        let digits = (self.f.reference.digits).or(self.column.and_then(ColumnSpec::shown_digits));
        let text = match (extreme, digits, self.column) {
            (Some((_, read)), None, Some(column)) => shown::cell(column, read),
            (Some((_, read)), None, None) => {
                let mut s = String::new();
                crate::dataset::schema::format_cell(ColumnType::Number, read, &mut s);
                s
            }
            _ => round(v, digits.unwrap_or(2)),
        };
        // A mean year reads as a year (`2003.33`, not `2,003.33`).
        let text = match (function, self.column) {
            (Function::Mean, Some(column)) => shown::ungrouped_year(column, text),
            _ => text,
        };
        let title = format!(
            "{} of {} over {}{}",
            function.name(),
            self.column_title,
            rows_text(t.numbers),
            where_clause(&self.selectors[0], self.table)
        );
        Some(Computed {
            value: v.to_string(),
            text,
            title,
            rows: t.rows.clone(),
        })
    }
}

/// The first value of a tally as a finite number, if it is one.
fn number(t: &Tally) -> Option<f64> {
    t.first_value.parse::<f64>().ok().filter(|n| n.is_finite())
}

/// The earliest (`min`) or latest (`max`) date of a date column, in the shown style;
/// `sum`, `mean` and `digits` are for numbers.
fn extreme_date(
    f: &Found,
    t: &Tally,
    selector: &Selector,
    table: &Table,
    column_title: &str,
    problems: &mut Vec<Diagnostic>,
) -> Option<Quoted> {
    let r = &f.reference;
    let extreme = match r.function {
        Function::Min => t.min.clone(),
        Function::Max => t.max.clone(),
        _ => None,
    };
    let problem = match (&extreme, r.digits) {
        (None, _) if matches!(r.function, Function::Min | Function::Max) => Some(format!(
            "`{}` needs dates: {} matching rows, {} dates",
            r.function.name(),
            t.matches,
            t.numbers
        )),
        (None, _) => Some(format!(
            "`{}` needs numbers; this column holds dates (`min` and `max` give the earliest and latest)",
            r.function.name()
        )),
        (Some(_), Some(_)) => Some("`digits` rounds numbers; this column holds dates".into()),
        _ if t.non_numeric > 0 => Some(format!(
            "`{}` needs dates: {} matching rows, {} dates, {} not dates",
            r.function.name(),
            t.matches,
            t.numbers,
            t.non_numeric
        )),
        _ => None,
    };
    if let Some(message) = problem {
        problems.push(locate(table, f.offset, message));
        return None;
    }
    let (_, shown) = extreme?;
    let title = format!(
        "{} of {column_title} over {}{}",
        match r.function {
            Function::Min => "earliest",
            _ => "latest",
        },
        rows_text(t.numbers),
        where_clause(selector, table)
    );
    let column = selector.column.map(|c| &table.columns[c]);
    let computed = Computed {
        value: shown.clone(),
        text: shown,
        title,
        rows: t.rows.clone(),
    };
    check_bound(f, table, computed, (column, false), problems)
}

/// The figure, its text in the page's number marks when it is a `number`, unless it is
/// bound (`figure = "..."`) to a text it no longer reads as.
fn check_bound(
    f: &Found,
    table: &Table,
    computed: Computed,
    (column, number): (Option<&ColumnSpec>, bool),
    problems: &mut Vec<Diagnostic>,
) -> Option<Quoted> {
    let r = &f.reference;
    let Computed {
        value,
        text: english,
        title,
        rows,
    } = computed;
    let marks = table.marks;
    let text = match number {
        true => marks.number(&english).into_owned(),
        false => english.clone(),
    };
    if let Some(typed) = &r.bound {
        // Where the language groups with a space, any space typed for it reads as one.
        if marks.same_spaces(typed) != marks.same_spaces(&text) {
            let by = match r.function {
                Function::Cell => "its cell".to_string(),
                other => format!("`{}`", other.name()),
            };
            let (marked, hint) = match marks.is_english() || *typed != english {
                true => ("", format!("write `{text}` (or correct the table if the figure is right)")),
                false => (
                    " in the number marks of the page's language",
                    format!(
                        "write the figure as the page's language does, `{text}`{}, or quote the cell as the CSV has it with `format=\"csv\"`",
                        match marks.group_is_space() {
                            true => " (a space between the groups of digits)",
                            false => "",
                        }
                    ),
                ),
            };
            let message = format!("the figure reads `{typed}` but {by} gives `{text}`{marked}");
            problems.push(locate(table, f.offset, message).with_hint(hint));
            return None;
        }
    }
    Some(Quoted {
        field: f.field.clone(),
        line: f
            .offset
            .map(|o| table.file_text[..o].matches('\n').count() + 1)
            .unwrap_or(0),
        function: r.function.name(),
        text,
        value,
        column: column.map(|c| c.name.clone()),
        rows,
        title,
        dataset: None,
        shown_rows: None,
        from_draft: false,
    })
}

/// `v` at `digits` decimals, thousands grouped, never `-0`.
fn round(v: f64, digits: u32) -> String {
    shown::fixed(v, digits)
}

/// `" where a=\"x\""` for a selector with conditions; nothing for a whole column.
fn where_clause(selector: &Selector, table: &Table) -> String {
    match describe(selector, table) {
        conditions if conditions.is_empty() => String::new(),
        conditions => format!(" where {conditions}"),
    }
}

/// `"1 row"`, `"1,000,000 rows"`.
fn rows_text(n: u64) -> String {
    match n {
        1 => "1 row".into(),
        n => format!("{} rows", crate::dataset::schema::thousands(n)),
    }
}
