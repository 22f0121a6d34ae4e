//! Figures the prose quotes from its own table: every reference of the headline, kicker,
//! table note, chart captions and body is collected while the page loads, resolved in one
//! extra streaming pass over the CSV (only for pages that quote it; `scan.rs`), checked
//! (no row, several rows, unknown column, a bound figure that no longer reads as its
//! cell) and substituted: plain text where the text is plain, marked-up `<data>` in the
//! body's HTML (`apply.rs`).

mod apply;
mod compute;
mod foreign;
mod reading;
mod scan;
mod typed;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
pub use typed::{typed_numbers, TypedNumber};

use serde::Serialize;

use crate::content::dialect::columns_missing_values;
use crate::content::figures::{self, Reference};
use crate::content::markdown::{self, RawHtml};
use crate::content::spans::error_at;
use crate::content::spans::Locator;
use crate::content::{Body, DatasetFrontMatter, TableRows};
use crate::dataset::schema::ColumnSpec;
use crate::diagnostics::{did_you_mean, Diagnostic};
use crate::i18n::locale::NumberMarks;
use apply::{apply, mark_body, markdown_html, plain_html, Texts};
pub use foreign::{open as open_table, ForeignTable, Refused};
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
    /// The dataset quoted (`dataset="<slug>"`), when it is not the page's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dataset: Option<String>,
    /// Rows the quoted dataset's page shows, for a figure from another dataset.
    #[serde(skip)]
    pub shown_rows: Option<u64>,
    /// Quoted from a draft a normal build leaves out: the text keeps the figure, but
    /// nothing published names the draft (no link, no slug, not in `datapages:quotes`).
    #[serde(skip)]
    pub from_draft: bool,
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

/// The HTML of the headline, kicker and chart captions whose figures are marked up
/// (`<data>`, as in the body); `None` where the text quotes no figure.
#[derive(Debug, Clone, Default)]
pub struct FigureHtml {
    pub headline: Option<String>,
    pub kicker: Option<String>,
    pub captions: Vec<Option<String>>,
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
    /// The byte between fields of `csv` (the dataset's `delimiter`).
    pub dialect: crate::content::dialect::CsvDialect,
    /// The dataset's `missing_values` (columns may have their own).
    pub missing_values: Option<&'a [String]>,
    /// How each column's cells are read (date `format`, number marks).
    pub readings: &'a [reading::Reading],
    /// The slug of the dataset quoted, when it is not the page's own.
    pub quoted: Option<&'a str>,
    /// The number marks of the page's language, which its figures are written in.
    pub marks: &'a NumberMarks,
}

impl Table<'_> {
    /// "the table", or "the table of `<slug>`" for another dataset's.
    fn what(&self) -> String {
        match self.quoted {
            None => "the table".into(),
            Some(slug) => format!("the table of `{slug}`"),
        }
    }
}

/// Where the page lives, for the references to other datasets.
pub struct Site<'a> {
    /// The site root, canonical.
    pub root: &'a Path,
    /// `table_rows` of site.toml.
    pub default_rows: TableRows,
    /// `missing_values` of site.toml, for datasets that declare none.
    pub missing_values: Option<&'a [String]>,
    /// The number marks of the site's `language`: figures are written in them.
    pub marks: &'a NumberMarks,
}

/// The CSV file that references to dataset `slug` read, when it can be quoted: what a
/// quoting page depends on besides that dataset's Markdown (`build::reuse` keys it).
pub fn quoted_csv(site: &Site, slug: &str) -> Option<std::path::PathBuf> {
    foreign::open(site, slug).ok().map(|table| table.csv)
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

/// The texts of a page that may quote figures, each with where it starts in the file:
/// headline, kicker, table note, chart captions, then the body.
pub fn sources<'a>(
    front: &'a DatasetFrontMatter,
    body_markdown: &'a str,
    body_offset: usize,
    locator: &Locator,
) -> Vec<Source<'a>> {
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
    sources
}

/// Resolves and substitutes every figure of the page's texts (front matter strings and
/// body); returns the figures quoted, in order, and the other datasets the references name
/// (the page depends on them).
#[allow(clippy::too_many_arguments)]
pub fn quote(
    site: &Site,
    front: &mut DatasetFrontMatter,
    body: &mut Body,
    body_markdown: &str,
    body_offset: usize,
    locator: &Locator,
    csv: &Path,
    raw_html: RawHtml,
    shown_rows: u64,
    html: &mut FigureHtml,
    problems: &mut Vec<Diagnostic>,
) -> (Vec<Quoted>, BTreeSet<String>) {
    let readings = reading::of_columns(front);
    let sources = sources(front, body_markdown, body_offset, locator);
    let table = Table {
        file: locator.file,
        file_text: locator.text,
        csv,
        columns: &front.columns,
        primary_key: &front.primary_key,
        dialect: front.csv_dialect(),
        missing_values: front.missing_values.as_deref(),
        readings: &readings,
        quoted: None,
        marks: site.marks,
    };
    let open = |slug: &str| foreign::open(site, slug);
    let (resolved, datasets) = resolve(&sources, &table, &open, problems);
    if resolved.iter().all(Vec::is_empty) {
        return (Vec::new(), datasets);
    }
    html.captions = vec![None; front.charts.len()];
    for (source, list) in sources.iter().zip(&resolved) {
        if list.iter().all(|(_, q)| q.is_none()) {
            continue;
        }
        match source.field {
            Field::Headline => html.headline = Some(plain_html(source.text, list)),
            Field::Kicker => html.kicker = Some(plain_html(source.text, list)),
            Field::Caption(n) => {
                html.captions[n] = Some(markdown_html(source.text, list, raw_html, shown_rows))
            }
            Field::TableNote | Field::Body => {}
        }
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
            Field::Headline => front.headline = text.into(),
            Field::Kicker => front.kicker = text.into(),
            Field::TableNote => front.table_note = Some(text.into()),
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
    (quoted, datasets)
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
        let (references, errors) = match source.field {
            Field::Headline | Field::Kicker => figures::find(source.text),
            _ => figures::find_in_markdown(source.text),
        };
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

fn locate(
    table: &Table,
    offset: Option<usize>,
    message: impl Into<std::borrow::Cow<'static, str>>,
) -> Diagnostic {
    match offset {
        Some(at) => error_at(table.file, table.file_text, at, message),
        None => Diagnostic::error(table.file, message),
    }
}

/// The figures of each source, in order (one per reference, `None` where it failed).
type Resolved = Vec<Vec<(std::ops::Range<usize>, Option<Quoted>)>>;

/// Resolves every reference of `sources`, those naming another dataset against its table
/// (read by `open`); returns the figures and the other datasets named.
pub fn resolve(
    sources: &[Source],
    table: &Table,
    open: &dyn Fn(&str) -> Result<ForeignTable, Refused>,
    problems: &mut Vec<Diagnostic>,
) -> (Resolved, BTreeSet<String>) {
    let mut out: Resolved = sources.iter().map(|_| Vec::new()).collect();
    let mut groups: BTreeMap<Option<String>, Vec<Found>> = BTreeMap::new();
    for f in collect(sources, table, problems) {
        groups
            .entry(f.reference.dataset.clone())
            .or_default()
            .push(f);
    }
    let datasets = groups.keys().flatten().cloned().collect();
    for (dataset, group) in groups {
        let resolved = match &dataset {
            None => resolve_table(group, table, problems),
            Some(slug) => match open(slug) {
                Err(refused) => {
                    // Once, at the first reference: the others fail for the same reason.
                    problems.push(
                        locate(table, group[0].offset, refused.message).with_hint(refused.hint),
                    );
                    group
                        .into_iter()
                        .map(|f| (f.source, f.reference.range, None))
                        .collect()
                }
                Ok(foreign) => {
                    let other = Table {
                        csv: &foreign.csv,
                        columns: &foreign.columns,
                        primary_key: &foreign.primary_key,
                        dialect: foreign.dialect,
                        missing_values: foreign.missing_values.as_deref(),
                        readings: &foreign.readings,
                        quoted: Some(slug),
                        ..*table
                    };
                    let mut list = resolve_table(group, &other, problems);
                    for q in list.iter_mut().filter_map(|(_, _, q)| q.as_mut()) {
                        q.shown_rows = Some(foreign.shown_rows);
                        if foreign.draft {
                            q.from_draft = true;
                        } else {
                            q.dataset = Some(slug.clone());
                            q.title = format!("{slug}: {}", q.title);
                        }
                    }
                    list
                }
            },
        };
        for (source, range, quoted) in resolved {
            out[source].push((range, quoted));
        }
    }
    for list in &mut out {
        list.sort_by_key(|(range, _)| range.start);
    }
    (out, datasets)
}

/// Resolves references of one table in one pass over its CSV: (source, range, figure).
fn resolve_table(
    found: Vec<Found>,
    table: &Table,
    problems: &mut Vec<Diagnostic>,
) -> Vec<(usize, std::ops::Range<usize>, Option<Quoted>)> {
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
    let failed = |found: Vec<Found>| {
        found
            .into_iter()
            .map(|f| (f.source, f.reference.range, None))
            .collect()
    };
    if selectors.is_empty() {
        return failed(found);
    }
    let mut pass = match scan::run(
        table.csv,
        table.dialect,
        &columns_missing_values(table.columns, table.missing_values),
        table.readings,
        &selectors,
        |_| key.clone(),
    ) {
        Ok(pass) => pass,
        Err(e) => {
            problems.push(Diagnostic::error(
                table.file,
                format!(
                    "cannot read the CSV of {} for the figures the text quotes: {e}",
                    table.what()
                ),
            ));
            return failed(found);
        }
    };
    add_near_misses(&mut pass, &selectors, table);
    found
        .into_iter()
        .zip(plans)
        .map(|(f, plan)| {
            let quoted = plan.and_then(|first| {
                let count = if f.reference.function.is_pair() { 2 } else { 1 };
                let tallies = &pass.tallies[first..first + count];
                let chosen = &selectors[first..first + count];
                compute::compute(&f, tallies, chosen, &pass.distinct, table, problems)
            });
            (f.source, f.reference.range.clone(), quoted)
        })
        .collect()
}

/// Puts the nearest value of the whole column beside the few values the pass kept, for
/// each condition that no row meets and that none of those few is near (so "did you
/// mean" works in a column of many values). Reads the CSV again, only then.
fn add_near_misses(pass: &mut scan::Pass, selectors: &[Selector], table: &Table) {
    let mut wanted: Vec<(usize, String)> = Vec::new();
    for (selector, tally) in selectors.iter().zip(&pass.tallies) {
        if tally.matches > 0 {
            continue;
        }
        for (column, value) in &selector.conditions {
            let kept = pass.distinct.get(column);
            let known = kept.is_some_and(|values| {
                values.contains(value)
                    || did_you_mean(value, values.iter().map(String::as_str)).is_some()
            });
            if !known && !wanted.contains(&(*column, value.clone())) {
                wanted.push((*column, value.clone()));
            }
        }
    }
    if wanted.is_empty() {
        return;
    }
    // Unreadable now: the first pass read it, so the hint just goes without the value.
    let Ok(near) = scan::near_misses(table.csv, table.dialect, &wanted) else {
        return;
    };
    for ((column, _), near) in wanted.into_iter().zip(near) {
        if let Some(value) = near {
            pass.distinct.entry(column).or_default().insert(value);
        }
    }
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
    let mut ok = true;
    // A condition's column is written as a key (`"Country Name"=`), `col`'s as a value.
    let mut column_of = |name: &str, condition: bool| {
        let found = index(name);
        if found.is_none() {
            ok = false;
            let hint = did_you_mean(name, names.iter().copied())
                .map(|n| match condition {
                    true => format!("did you mean `{}`?", figures::condition_key(n)),
                    false => format!("did you mean `{n}`?"),
                })
                .unwrap_or_else(|| format!("the columns are: {}", names.join(", ")));
            problems.push(
                locate(
                    table,
                    f.offset,
                    format!(
                        "`{}` names column `{name}`, which {} does not have",
                        r.function.name(),
                        table.what()
                    ),
                )
                .with_hint(hint),
            );
        }
        found
    };
    let column = r.column.as_deref().and_then(|name| column_of(name, false));
    let shared: Vec<(usize, String)> = r
        .filters
        .iter()
        .filter_map(|(c, v)| Some((column_of(c, true)?, v.clone())))
        .collect();
    let mut with = |extra: &[(String, String)]| {
        let mut conditions = shared.clone();
        conditions.extend(
            extra
                .iter()
                .filter_map(|(c, v)| Some((column_of(c, true)?, v.clone()))),
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
        .map(|(c, v)| {
            let key = figures::condition_key(&table.columns[*c].name);
            format!("{key}=\"{v}\"")
        })
        .collect::<Vec<_>>()
        .join(", ")
}
