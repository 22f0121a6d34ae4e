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
    let r = &f.reference;
    let column = selectors[0].column.map(|c| &table.columns[c]);
    let column_title = column.map(|c| c.title.as_str()).unwrap_or("rows");
    let fail = |problems: &mut Vec<Diagnostic>, message: String| {
        problems.push(locate(table, f.offset, message));
        None
    };
    let number = |t: &Tally| t.first_value.parse::<f64>().ok().filter(|n| n.is_finite());
    let (value, text, title, rows) = match r.function {
        Function::Cell => {
            let t = single(f, &tallies[0], &selectors[0], distinct, table)
                .map_err(|d| problems.push(d))
                .ok()?;
            if t.first_cell.is_empty() {
                return fail(
                    problems,
                    format!("the cell `{}` of row {} is empty", column?.name, t.rows[0]),
                );
            }
            let mut text = String::new();
            match (r.as_in_csv, r.digits) {
                (true, _) => text.push_str(&t.first_cell),
                (false, Some(digits)) => match number(t) {
                    Some(v) => text = round(v, digits),
                    None => {
                        return fail(
                            problems,
                            format!(
                                "`digits` rounds numbers; the cell `{}` of row {} is not one",
                                column?.name, t.rows[0]
                            ),
                        )
                    }
                },
                (false, None) => shown::push_cell(column?, &t.first_value, &mut text),
            }
            let title = format!("{column_title}, {}", t.candidates[0]);
            (t.first_value.clone(), text, title, t.rows.clone())
        }
        Function::Ratio | Function::Difference | Function::PercentChange => {
            let a = single(f, &tallies[0], &selectors[0], distinct, table)
                .map_err(|d| problems.push(d));
            let b = single(f, &tallies[1], &selectors[1], distinct, table)
                .map_err(|d| problems.push(d));
            let (a, b) = (a.ok()?, b.ok()?);
            let (Some(x), Some(y)) = (number(a), number(b)) else {
                return fail(
                    problems,
                    format!(
                        "`{}` needs two numbers; the cells read `{}` and `{}`",
                        r.function.name(),
                        a.first_value,
                        b.first_value
                    ),
                );
            };
            let v = match r.function {
                Function::Ratio => x / y,
                Function::Difference => x - y,
                _ => (x - y) / y * 100.0,
            };
            if !v.is_finite() {
                return fail(problems, format!("`{}` divides by zero", r.function.name()));
            }
            let title = format!(
                "{} of {column_title}: {} against {}",
                r.function.name().replace('_', " "),
                a.candidates[0],
                b.candidates[0]
            );
            // A difference is in the column's unit, so at its `digits`; a ratio and a
            // percent change are not.
            let column_digits = match r.function {
                Function::Difference => column.and_then(ColumnSpec::shown_digits),
                _ => None,
            };
            (
                v.to_string(),
                round(v, r.digits.or(column_digits).unwrap_or(2)),
                title,
                vec![a.rows[0], b.rows[0]],
            )
        }
        Function::Count => {
            let t = &tallies[0];
            let n = if column.is_some() {
                t.numbers + t.non_numeric
            } else {
                t.matches
            };
            (
                n.to_string(),
                round(n as f64, 0),
                format!(
                    "count of {column_title}{}",
                    where_clause(&selectors[0], table)
                ),
                t.rows.clone(),
            )
        }
        Function::Min | Function::Max | Function::Sum | Function::Mean => {
            let t = &tallies[0];
            let dates = selectors[0]
                .column
                .and_then(|c| table.readings.get(c))
                .is_some_and(|reading| reading.is_time());
            if dates {
                return extreme_date(f, t, &selectors[0], table, column_title, problems);
            }
            if t.numbers == 0 || t.non_numeric > 0 {
                return fail(
                    problems,
                    format!(
                        "`{}` needs numbers: {} matching rows, {} numeric cells, {} not numeric",
                        r.function.name(),
                        t.matches,
                        t.numbers,
                        t.non_numeric
                    ),
                );
            }
            let extreme = match r.function {
                Function::Min => t.min.clone(),
                Function::Max => t.max.clone(),
                _ => None,
            };
            let v = match r.function {
                Function::Sum => t.sum,
                Function::Mean => t.sum / t.numbers as f64,
                _ => extreme.as_ref().map(|(v, _)| *v).unwrap_or_default(),
            };
            // In the column's unit: at the figure's `digits`, else the column's.
            let digits = r.digits.or(column.and_then(ColumnSpec::shown_digits));
            let text = match (&extreme, digits, column) {
                (Some((_, read)), None, Some(column)) => shown::cell(column, read),
                (Some((_, read)), None, None) => {
                    let mut s = String::new();
                    crate::dataset::schema::format_cell(ColumnType::Number, read, &mut s);
                    s
                }
                _ => round(v, digits.unwrap_or(2)),
            };
            // A mean year reads as a year (`2003.33`, not `2,003.33`).
            let text = match (r.function, column) {
                (Function::Mean, Some(column)) => shown::ungrouped_year(column, text),
                _ => text,
            };
            let title = format!(
                "{} of {column_title} over {}{}",
                r.function.name(),
                rows_text(t.numbers),
                where_clause(&selectors[0], table)
            );
            (v.to_string(), text, title, t.rows.clone())
        }
    };
    check_bound(f, table, value, text, title, rows, column, problems)
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
    check_bound(
        f,
        table,
        shown.clone(),
        shown,
        title,
        t.rows.clone(),
        column,
        problems,
    )
}

/// The figure, unless it is bound (`figure = "..."`) to a text it no longer reads as.
#[allow(clippy::too_many_arguments)]
fn check_bound(
    f: &Found,
    table: &Table,
    value: String,
    text: String,
    title: String,
    rows: Vec<u64>,
    column: Option<&ColumnSpec>,
    problems: &mut Vec<Diagnostic>,
) -> Option<Quoted> {
    let r = &f.reference;
    let fail = |problems: &mut Vec<Diagnostic>, message: String| {
        problems.push(locate(table, f.offset, message));
        None
    };
    if let Some(typed) = &r.bound {
        if *typed != text {
            return fail(
                problems,
                format!(
                    "the figure reads `{typed}` but {} gives `{text}`",
                    match r.function {
                        Function::Cell => "its cell".to_string(),
                        other => format!("`{}`", other.name()),
                    }
                ),
            )
            .or_else(|| {
                if let Some(last) = problems.last_mut() {
                    *last = last.clone().with_hint(format!(
                        "write `{text}` (or correct the table if the figure is right)"
                    ));
                }
                None
            });
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
