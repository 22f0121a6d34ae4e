//! Figures the prose quotes from its own table: every reference of the headline, kicker,
//! table note, chart captions and body is collected while the page loads, resolved in one
//! extra streaming pass over the CSV (only for pages that quote it; `scan.rs`), checked
//! (no row, several rows, unknown column, a bound figure that no longer reads as its
//! cell) and substituted: plain text where the text is plain, marked-up `<data>` in the
//! body's HTML (`apply.rs`).

mod apply;
mod compute;
mod scan;

use std::path::Path;

use serde::Serialize;

use crate::content::figures::{self, Reference};
use crate::content::markdown::{self, RawHtml};
use crate::content::spans::error_at;
use crate::content::spans::Locator;
use crate::content::{Body, DatasetFrontMatter};
use crate::dataset::schema::ColumnSpec;
use crate::diagnostics::{did_you_mean, Diagnostic};
use apply::{apply, mark_body, Texts};
use scan::Selector;

/// Where a quoted figure stands on the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    Headline,
    Kicker,
    TableNote,
    Caption(usize),
    Body,
}

/// A figure of the text, resolved: its text, and the cells it comes from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Quoted {
    pub field: Field,
    /// 1-based line in the Markdown file.
    pub line: usize,
    pub function: &'static str,
    pub text: String,
    /// The unformatted value (`10366`, `3.7342...`).
    pub value: String,
    pub column: Option<String>,
    /// 1-based data rows of the cells read.
    pub rows: Vec<u64>,
    /// Names the row(s) and column, for the page's `title`.
    #[serde(skip)]
    pub title: String,
}

/// The figures whose text changed between two loads of a page, as
/// "headline: 10,366 -> 10,412" (figures matched by place and order; a page whose list of
/// figures changed shape reports only those still at the same place).
pub fn changes(before: &[Quoted], now: &[Quoted]) -> Vec<String> {
    before
        .iter()
        .zip(now)
        .filter(|(b, n)| b.field == n.field && b.function == n.function && b.text != n.text)
        .map(|(b, n)| format!("{}: {} -> {}", n.field.name(), b.text, n.text))
        .collect()
}

impl Field {
    /// "headline", "caption 1", "body".
    pub fn name(&self) -> String {
        match self {
            Field::Headline => "headline".into(),
            Field::Kicker => "kicker".into(),
            Field::TableNote => "table note".into(),
            Field::Caption(n) => format!("caption {}", n + 1),
            Field::Body => "body".into(),
        }
    }
}

/// One text holding references, and where its first byte is in the file.
pub struct Source<'a> {
    pub field: Field,
    pub text: &'a str,
    pub offset: Option<usize>,
}

/// What the figures need of the dataset.
pub struct Table<'a> {
    pub file: &'a Path,
    pub file_text: &'a str,
    pub csv: &'a Path,
    pub columns: &'a [ColumnSpec],
    pub primary_key: &'a [String],
}

/// Where the characters of the string value at `path` start: after its opening quotes
/// (and the line break a multi-line string drops).
fn string_start(locator: &Locator, path: &str) -> Option<usize> {
    let at = locator.value(path)?;
    let rest = locator.text.get(at..)?;
    let skip = if rest.starts_with("\"\"\"") || rest.starts_with("'''") {
        3 + [("\r\n", 2), ("\n", 1)]
            .iter()
            .find(|(nl, _)| rest[3..].starts_with(nl))
            .map_or(0, |(_, n)| *n)
    } else {
        1
    };
    Some(at + skip)
}

/// Resolves and substitutes every figure of the page's texts (front matter strings and
/// body); returns the figures quoted, in order.
#[allow(clippy::too_many_arguments)]
pub fn quote(
    front: &mut DatasetFrontMatter,
    body: &mut Body,
    body_markdown: &str,
    body_offset: usize,
    locator: &Locator,
    csv: &Path,
    raw_html: RawHtml,
    shown_rows: u64,
    problems: &mut Vec<Diagnostic>,
) -> Vec<Quoted> {
    let mut sources = vec![
        Source {
            field: Field::Headline,
            text: &front.headline,
            offset: string_start(locator, "headline"),
        },
        Source {
            field: Field::Kicker,
            text: &front.kicker,
            offset: string_start(locator, "kicker"),
        },
    ];
    if let Some(note) = &front.table_note {
        sources.push(Source {
            field: Field::TableNote,
            text: note,
            offset: string_start(locator, "table_note"),
        });
    }
    for (n, chart) in front.charts.iter().enumerate() {
        if let Some(caption) = &chart.caption {
            sources.push(Source {
                field: Field::Caption(n),
                text: caption,
                offset: string_start(locator, &format!("charts[{n}].caption")),
            });
        }
    }
    sources.push(Source {
        field: Field::Body,
        text: body_markdown,
        offset: Some(body_offset),
    });
    let table = Table {
        file: locator.file,
        file_text: locator.text,
        csv,
        columns: &front.columns,
        primary_key: &front.primary_key,
    };
    let resolved = resolve(&sources, &table, problems);
    if resolved.iter().all(Vec::is_empty) {
        return Vec::new();
    }
    let mut quoted = Vec::new();
    let texts: Vec<(Field, String)> = sources
        .iter()
        .zip(&resolved)
        .map(|(source, list)| {
            let how = match source.field {
                Field::Headline | Field::Kicker => Texts::Plain,
                Field::TableNote | Field::Caption(_) => Texts::Markdown,
                Field::Body => Texts::Marked,
            };
            (
                source.field.clone(),
                apply(source.text, list, how, &mut quoted),
            )
        })
        .collect();
    for (field, text) in texts {
        match field {
            Field::Headline => front.headline = text,
            Field::Kicker => front.kicker = text,
            Field::TableNote => front.table_note = Some(text),
            Field::Caption(n) => {
                if let Some(chart) = front.charts.get_mut(n) {
                    chart.caption = Some(text);
                }
            }
            Field::Body => {
                *body = markdown::split_body(&text, raw_html);
                mark_body(body, &quoted, shown_rows);
            }
        }
    }
    quoted
}

/// A reference with its place.
struct Found {
    field: Field,
    source: usize,
    reference: Reference,
    offset: Option<usize>,
}

/// The references of `sources`, and the syntax errors among them.
fn collect(sources: &[Source], table: &Table, problems: &mut Vec<Diagnostic>) -> Vec<Found> {
    let mut found = Vec::new();
    for (n, source) in sources.iter().enumerate() {
        let (references, errors) = figures::find(source.text);
        for error in errors {
            problems.push(locate(
                table,
                source.offset.map(|o| o + error.offset),
                error.message,
            ));
        }
        for reference in references {
            let offset = source.offset.map(|o| o + reference.range.start);
            found.push(Found {
                field: source.field.clone(),
                source: n,
                reference,
                offset,
            });
        }
    }
    found
}

fn locate(table: &Table, offset: Option<usize>, message: impl Into<String>) -> Diagnostic {
    match offset {
        Some(at) => error_at(table.file, table.file_text, at, message),
        None => Diagnostic::error(table.file, message),
    }
}

/// Resolves every reference of `sources`: `None` for a text without references (nothing
/// to do), else the figures in order (one per reference, `None` where it failed).
pub fn resolve(
    sources: &[Source],
    table: &Table,
    problems: &mut Vec<Diagnostic>,
) -> Vec<Vec<(std::ops::Range<usize>, Option<Quoted>)>> {
    let mut out: Vec<Vec<_>> = sources.iter().map(|_| Vec::new()).collect();
    let found = collect(sources, table, problems);
    if found.is_empty() {
        return out;
    }
    let names: Vec<&str> = table.columns.iter().map(|c| c.name.as_str()).collect();
    let index = |name: &str| names.iter().position(|n| *n == name);
    // Selectors per reference (None: a problem was reported).
    let mut selectors = Vec::new();
    let mut plans = Vec::new();
    for f in &found {
        let plan = plan(f, &index, &names, table, problems);
        plans.push(plan.map(|list| {
            let first = selectors.len();
            selectors.extend(list);
            first
        }));
    }
    // Rows are named by their primary key, else by their first columns.
    let mut key: Vec<usize> = table.primary_key.iter().filter_map(|k| index(k)).collect();
    if key.is_empty() {
        key = (0..names.len().min(3)).collect();
    }
    let pass = match scan::run(table.csv, &selectors, |_| key.clone()) {
        Ok(pass) => pass,
        Err(e) => {
            problems.push(Diagnostic::error(
                table.file,
                format!("cannot read the CSV for the figures the text quotes: {e}"),
            ));
            return out;
        }
    };
    for (f, plan) in found.into_iter().zip(plans) {
        let quoted = plan.and_then(|first| {
            let count = if f.reference.function.is_pair() { 2 } else { 1 };
            let tallies = &pass.tallies[first..first + count];
            let chosen = &selectors[first..first + count];
            compute::compute(&f, tallies, chosen, &pass.distinct, table, problems)
        });
        out[f.source].push((f.reference.range.clone(), quoted));
    }
    out
}

/// The selectors of one reference, its columns checked.
fn plan(
    f: &Found,
    index: &dyn Fn(&str) -> Option<usize>,
    names: &[&str],
    table: &Table,
    problems: &mut Vec<Diagnostic>,
) -> Option<Vec<Selector>> {
    let r = &f.reference;
    if let Some(slug) = &r.dataset {
        problems.push(
            locate(
                table,
                f.offset,
                format!(
                    "figures from another dataset (`dataset=\"{slug}\"`) are not supported yet"
                ),
            )
            .with_hint(
                "quote the other page's figure on that page, or type it without a reference",
            ),
        );
        return None;
    }
    let mut ok = true;
    let mut column_of = |name: &str| {
        let found = index(name);
        if found.is_none() {
            ok = false;
            let hint = did_you_mean(name, names.iter().copied())
                .map(|n| format!("did you mean `{n}`?"))
                .unwrap_or_else(|| format!("the columns are: {}", names.join(", ")));
            problems.push(
                locate(
                    table,
                    f.offset,
                    format!(
                        "`{}` names column `{name}`, which the table does not have",
                        r.function.name()
                    ),
                )
                .with_hint(hint),
            );
        }
        found
    };
    let column = r.column.as_deref().and_then(&mut column_of);
    let shared: Vec<(usize, String)> = r
        .filters
        .iter()
        .filter_map(|(c, v)| Some((column_of(c)?, v.clone())))
        .collect();
    let mut with = |extra: &[(String, String)]| {
        let mut conditions = shared.clone();
        conditions.extend(
            extra
                .iter()
                .filter_map(|(c, v)| Some((column_of(c)?, v.clone()))),
        );
        Selector { conditions, column }
    };
    let list = if r.function.is_pair() {
        vec![with(&r.a), with(&r.b)]
    } else {
        vec![with(&[])]
    };
    ok.then_some(list)
}

fn describe(selector: &Selector, table: &Table) -> String {
    selector
        .conditions
        .iter()
        .map(|(c, v)| format!("{}=\"{v}\"", table.columns[*c].name))
        .collect::<Vec<_>>()
        .join(", ")
}
