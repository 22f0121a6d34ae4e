//! The checks of a dataset's `[[sources]]` and `[[columns]]` that need no CSV: ids,
//! duplicates, `references`, `pattern`, `digits`, a date `format` and `primary_key`. Each
//! problem points at the key or value at fault, found by its TOML span.

use std::borrow::Cow;
use std::collections::HashSet;

use regex::Regex;

use super::is_valid_slug;
use super::scan::CompiledColumn;
use crate::content::columns::{ColumnSpec, ColumnType, NonFinite, MAX_DIGITS};
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
        let entry = ColumnEntry {
            column,
            path: format!("columns[{n}]"),
            locator,
        };
        if n > 0 && column.is_row_names() {
            problems.push(
                locator
                    .error(
                        format!("column {} has an empty name", n + 1),
                        entry.value("name"),
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
                entry.value("name"),
            ));
        }
        if let Some(reference) = column.references.as_ref().filter(|r| *r != "sources") {
            let message = format!("unknown references target {reference:?}");
            problems.push(entry.at_key("references", message, "the only target is \"sources\""));
        }
        let pattern = entry.compile_pattern(problems);
        let date_format = entry.compile_format(problems);
        entry.check_display_keys(problems);
        dialect::check_missing_values(
            column.missing_values.as_deref(),
            &format!("{}.missing_values", entry.path),
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

/// One `[[columns]]` entry under check: its problems name the column and point at its keys.
struct ColumnEntry<'a> {
    column: &'a ColumnSpec,
    /// `columns[n]`: where the entry sits in the front matter.
    path: String,
    locator: &'a Locator<'a>,
}

impl ColumnEntry<'_> {
    /// Where the value of the entry's `key` starts.
    fn value(&self, key: &str) -> Option<usize> {
        self.locator.value(&format!("{}.{key}", self.path))
    }

    /// The error "column `name`: `message`" at `at`, with its hint.
    fn error(
        &self,
        at: Option<usize>,
        message: impl std::fmt::Display,
        hint: impl Into<Cow<'static, str>>,
    ) -> Diagnostic {
        let message = format!("column `{}`: {message}", self.column.name);
        self.locator.error(message, at).with_hint(hint)
    }

    /// [`Self::error`] at the entry's `key`.
    fn at_key(
        &self,
        key: &str,
        message: impl std::fmt::Display,
        hint: impl Into<Cow<'static, str>>,
    ) -> Diagnostic {
        self.error(
            self.locator.key(&format!("{}.{key}", self.path)),
            message,
            hint,
        )
    }

    /// The column's `pattern`, compiled to match whole cells; a problem at the key otherwise.
    fn compile_pattern(&self, problems: &mut Vec<Diagnostic>) -> Option<Regex> {
        let pattern = self.column.pattern.as_ref()?;
        Regex::new(&format!("^(?:{pattern})$"))
            .map_err(|e| {
                let detail = e.to_string();
                let hint = detail.lines().last().unwrap_or_default().trim().to_string();
                let message = "the pattern is not a valid regular expression";
                problems.push(self.at_key("pattern", message, hint));
            })
            .ok()
    }

    /// A `date` or `datetime` column's `format`, compiled; a problem at the key otherwise.
    fn compile_format(&self, problems: &mut Vec<Diagnostic>) -> Option<DateFormat> {
        let column = self.column;
        let pattern = column.format.as_deref()?;
        if !column.column_type.is_time() {
            let message = "`format` applies to date and datetime columns only";
            let hint = "declare type = \"date\" or \"datetime\", or remove `format`";
            problems.push(self.at_key("format", message, hint));
            return None;
        }
        DateFormat::compile(pattern, column.column_type)
            .map_err(|p| problems.push(self.at_key("format", p.message, p.hint)))
            .ok()
    }

    /// The keys that say how numbers are read and shown (`pandas_numbers`, `non_finite`,
    /// `digits`, `grouping`): each only on the column types it applies to.
    fn check_display_keys(&self, problems: &mut Vec<Diagnostic>) {
        let column = self.column;
        for (key, set) in [
            ("pandas_numbers", column.pandas_numbers),
            ("non_finite", column.non_finite.is_some()),
        ] {
            if set && column.column_type != ColumnType::Number {
                let message = format!("`{key}` applies to number columns only");
                let hint = format!("set `type = \"number\"`, or remove `{key}`");
                problems.push(self.at_key(key, message, hint));
            }
        }
        if column.pandas_numbers && column.non_finite == Some(NonFinite::R) {
            let message = "`pandas_numbers` and `non_finite = \"r\"` name two spellings";
            let hint = "a column takes one: remove `pandas_numbers`";
            problems.push(self.at_key("pandas_numbers", message, hint));
        }
        if let Some(digits) = column.digits {
            problems.extend(self.digits_problem(digits));
        }
        if column.grouping.is_some() && !column.column_type.is_numeric() {
            let message = format!(
                "`grouping` applies to number and integer columns only, and this one is `{}`",
                column.column_type.as_str()
            );
            let hint = "remove `grouping`: text is always shown as written";
            problems.push(self.at_key("grouping", message, hint));
        }
    }

    /// `digits`: decimal places from 0 to [`MAX_DIGITS`], on a number or integer column.
    fn digits_problem(&self, digits: i64) -> Option<Diagnostic> {
        let column_type = self.column.column_type;
        let (message, hint) = if !column_type.is_numeric() {
            (
                format!(
                    "`digits` applies to number and integer columns only, and this one is `{}`",
                    column_type.as_str()
                ),
                "remove `digits`, or set `type = \"number\"` if the column holds numbers"
                    .to_string(),
            )
        } else if !(0..=MAX_DIGITS).contains(&digits) {
            (
                format!("`digits = {digits}` is not a number of decimal places from 0 to {MAX_DIGITS}"),
                format!(
                    "`digits` is how many decimal places the column is shown at: `digits = 2` shows 1234.5678 as 1,234.57; past {MAX_DIGITS} a double has only noise"
                ),
            )
        } else {
            return None;
        };
        Some(self.error(self.value("digits"), message, hint))
    }
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
