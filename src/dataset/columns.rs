//! The checks of a dataset's `[[sources]]` and `[[columns]]` that need no CSV: ids,
//! duplicates, `references`, `pattern`, `digits`, a date `format` and `primary_key`. Each
//! problem points at the key or value at fault, found by its TOML span.

use std::collections::HashSet;

use regex::Regex;

use super::is_valid_slug;
use super::scan::CompiledColumn;
use crate::content::columns::{ColumnSpec, MAX_DIGITS};
use crate::content::date_format::DateFormat;
use crate::content::dialect::{self, MissingValues};
use crate::content::spans::Locator;
use crate::content::DatasetFrontMatter;
use crate::diagnostics::{did_you_mean, Diagnostic};

/// The ids of the dataset's sources, each reported when it is not a slug or repeats.
pub(super) fn source_ids<'a>(
    front: &'a DatasetFrontMatter,
    locator: &Locator,
    problems: &mut Vec<Diagnostic>,
) -> HashSet<&'a str> {
    let mut ids = HashSet::new();
    for (n, source) in front.sources.iter().enumerate() {
        let at = locator.value(&format!("sources[{n}].id"));
        if !is_valid_slug(&source.id) {
            problems.push(
                locator
                    .error(format!("source id `{}` is not valid", source.id), at)
                    .with_hint(
                        "use lowercase letters, digits and hyphens: it becomes the anchor #source-<id>",
                    ),
            );
        }
        if !ids.insert(source.id.as_str()) {
            problems.push(locator.error(format!("source id `{}` is defined twice", source.id), at));
        }
    }
    ids
}

/// The dataset's own `delimiter`, `missing_values` (before the site's list fills in) and
/// number marks; whether the number marks can read the cells.
pub(super) fn check_dialect(
    front: &DatasetFrontMatter,
    locator: &Locator,
    problems: &mut Vec<Diagnostic>,
) -> bool {
    dialect::check_delimiter(front.delimiter.as_deref(), "delimiter", locator, problems);
    dialect::check_missing_values(
        front.missing_values.as_deref(),
        "missing_values",
        locator,
        problems,
    );
    dialect::check_number_marks(front, locator, problems)
}

/// The documented columns, with their patterns compiled.
pub(super) struct Columns<'a> {
    pub compiled: Vec<CompiledColumn<'a>>,
    pub names: HashSet<&'a str>,
}

/// Checks every `[[columns]]` entry and compiles its pattern.
pub(super) fn compile_columns<'a>(
    front: &'a DatasetFrontMatter,
    locator: &Locator,
    problems: &mut Vec<Diagnostic>,
) -> Columns<'a> {
    let mut compiled = Vec::with_capacity(front.columns.len());
    let mut names = HashSet::new();
    for (n, column) in front.columns.iter().enumerate() {
        let path = format!("columns[{n}]");
        if n > 0 && column.is_row_names() {
            problems.push(
                locator
                    .error(
                        format!("column {} has an empty name", n + 1),
                        locator.value(&format!("{path}.name")),
                    )
                    .with_hint(
                        "only the first column may: R's row names, written with an empty header; \
                         write the column's header here",
                    ),
            );
        }
        if !names.insert(column.name.as_str()) {
            problems.push(locator.error(
                format!("column `{}` is documented twice", column.name),
                locator.value(&format!("{path}.name")),
            ));
        }
        if let Some(reference) = &column.references {
            if reference != "sources" {
                problems.push(
                    locator
                        .error(
                            format!(
                                "column `{}`: unknown references target {reference:?}",
                                column.name
                            ),
                            locator.key(&format!("{path}.references")),
                        )
                        .with_hint("the only target is \"sources\""),
                );
            }
        }
        let pattern = column.pattern.as_ref().and_then(|p| {
            Regex::new(&format!("^(?:{p})$"))
                .map_err(|e| {
                    let detail = e.to_string();
                    let hint = detail.lines().last().unwrap_or_default().trim().to_string();
                    problems.push(
                        locator
                            .error(
                                format!(
                                    "column `{}`: the pattern is not a valid regular expression",
                                    column.name
                                ),
                                locator.key(&format!("{path}.pattern")),
                            )
                            .with_hint(hint),
                    );
                })
                .ok()
        });
        let date_format = compile_format(column, &path, locator, problems);
        for (key, set) in [
            ("pandas_numbers", column.pandas_numbers),
            ("non_finite", column.non_finite.is_some()),
        ] {
            if set && column.column_type != crate::content::columns::ColumnType::Number {
                problems.push(
                    locator
                        .error(
                            format!(
                                "column `{}`: `{key}` applies to number columns only",
                                column.name
                            ),
                            locator.key(&format!("{path}.{key}")),
                        )
                        .with_hint(format!("set `type = \"number\"`, or remove `{key}`")),
                );
            }
        }
        if column.pandas_numbers && column.non_finite == Some(crate::content::columns::NonFinite::R)
        {
            problems.push(
                locator
                    .error(
                        format!(
                            "column `{}`: `pandas_numbers` and `non_finite = \"r\"` name two spellings",
                            column.name
                        ),
                        locator.key(&format!("{path}.pandas_numbers")),
                    )
                    .with_hint("a column takes one: remove `pandas_numbers`"),
            );
        }
        if let Some(digits) = column.digits {
            check_digits(column, digits, &format!("{path}.digits"), locator, problems);
        }
        if column.grouping.is_some() && !column.column_type.is_numeric() {
            problems.push(
                locator
                    .error(
                        format!(
                            "column `{}`: `grouping` applies to number and integer columns only, and this one is `{}`",
                            column.name,
                            column.column_type.as_str()
                        ),
                        locator.key(&format!("{path}.grouping")),
                    )
                    .with_hint("remove `grouping`: text is always shown as written"),
            );
        }
        dialect::check_missing_values(
            column.missing_values.as_deref(),
            &format!("{path}.missing_values"),
            locator,
            problems,
        );
        compiled.push(CompiledColumn {
            spec: column,
            pattern,
            marks: front.number_marks(column),
            date_format,
            missing: MissingValues::resolve(&[
                column.missing_values.as_deref(),
                front.missing_values.as_deref(),
            ]),
        });
    }
    if front.columns.is_empty() {
        let at = locator.key("columns").or(Some(opening_fence(locator.text)));
        problems.push(
            locator
                .error("no [[columns]] are documented", at)
                .with_hint(
                    "add a [[columns]] entry for every CSV column: name, title, type, description",
                ),
        );
    }
    Columns { compiled, names }
}

/// A `date` or `datetime` column's `format`, compiled; a problem at the key otherwise.
fn compile_format(
    column: &ColumnSpec,
    path: &str,
    locator: &Locator,
    problems: &mut Vec<Diagnostic>,
) -> Option<DateFormat> {
    let pattern = column.format.as_deref()?;
    let at = locator.key(&format!("{path}.format"));
    if !column.column_type.is_time() {
        let message = format!(
            "column `{}`: `format` applies to date and datetime columns only",
            column.name
        );
        let hint = "declare type = \"date\" or \"datetime\", or remove `format`";
        problems.push(locator.error(message, at).with_hint(hint));
        return None;
    }
    DateFormat::compile(pattern, column.column_type)
        .map_err(|p| {
            let message = format!("column `{}`: {}", column.name, p.message);
            problems.push(locator.error(message, at).with_hint(p.hint));
        })
        .ok()
}

/// `digits`: decimal places from 0 to [`MAX_DIGITS`], on a number or integer column.
fn check_digits(
    column: &ColumnSpec,
    digits: i64,
    path: &str,
    locator: &Locator,
    problems: &mut Vec<Diagnostic>,
) {
    let (message, hint) = if !column.column_type.is_numeric() {
        (
            format!(
                "column `{}`: `digits` applies to number and integer columns only, and this one is `{}`",
                column.name,
                column.column_type.as_str()
            ),
            "remove `digits`, or set `type = \"number\"` if the column holds numbers".to_string(),
        )
    } else if !(0..=MAX_DIGITS).contains(&digits) {
        (
            format!(
                "column `{}`: `digits = {digits}` is not a number of decimal places from 0 to {MAX_DIGITS}",
                column.name
            ),
            format!(
                "`digits` is how many decimal places the column is shown at: `digits = 2` shows 1234.5678 as 1,234.57; past {MAX_DIGITS} a double has only noise"
            ),
        )
    } else {
        return;
    };
    problems.push(locator.error(message, locator.value(path)).with_hint(hint));
}

/// Where the opening `+++` is: after a byte order mark, if the file has one.
fn opening_fence(text: &str) -> usize {
    if text.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    }
}

/// `primary_key` must name documented columns.
pub(super) fn check_primary_key(
    front: &DatasetFrontMatter,
    names: &HashSet<&str>,
    locator: &Locator,
    problems: &mut Vec<Diagnostic>,
) {
    for key in &front.primary_key {
        if !names.contains(key.as_str()) {
            let hint = did_you_mean(key, names.iter().copied())
                .map(|n| format!("did you mean `{n}`?"))
                .unwrap_or_else(|| "name documented columns".into());
            problems.push(
                locator
                    .error(
                        format!("primary_key names `{key}`, which is not a column"),
                        locator.key("primary_key"),
                    )
                    .with_hint(hint),
            );
        }
    }
}
