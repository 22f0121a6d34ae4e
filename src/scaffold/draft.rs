//! One table drafted as a dataset page: the front matter with a `[[columns]]` entry per
//! column (inferred type and constraints), the keys and `related` datasets `new` proposes
//! for it, a suggested chart, and `TODO:` placeholders for the prose only the author can
//! write; or the skeleton page written without a table.

use std::fmt::Write as _;
use std::path::Path;

use super::infer::{ColumnGuess, Inference, Kind};
use super::markers::Declared;
use super::sources::{Read, Source};
use super::suggest::{suggest_chart, ChartSuggestion};
use super::{column_notes, conversion, dialect, names, toml_string, Contents, PlannedFile};
use crate::content::columns::NonFinite;
use crate::content::placeholders::MARKER;
use crate::diagnostics::{Diagnostic, Error};
use crate::text::visible_line as shown;

/// The refusal of a slug `check` would refuse, located at the page it would name.
pub(super) fn slug_refused(slug: &str) -> Option<Error> {
    let problem = crate::dataset::slug_problem(slug)?;
    Some(Error::from(vec![Diagnostic::error(
        format!("content/datasets/{slug}.md"),
        problem.message(slug),
    )
    .with_hint(problem.hint(slug, false))]))
}

/// What ties a dataset to the others drafted with it: its primary key (a column index),
/// the datasets it is `related` to, and its `[[foreign_keys]]` entries as TOML.
#[derive(Default)]
pub(super) struct Links {
    pub key: Option<usize>,
    pub related: Vec<String>,
    pub foreign_keys: String,
}

/// One table to draft as dataset `slug`.
pub(super) struct Draft<'a> {
    pub slug: &'a str,
    pub source: &'a Source,
    pub read: &'a Read,
    pub links: &'a Links,
}

impl Draft<'_> {
    /// Plans the dataset's CSV (unless already in its place) and page into `files`, and
    /// says in `report` what was read and converted.
    pub(super) fn plan(
        &self,
        root: &Path,
        needs_license: bool,
        report: &mut String,
        files: &mut Vec<PlannedFile>,
    ) {
        let (source, read, slug) = (self.source, self.read, self.slug);
        let csv_path = crate::layout::dataset_csv(slug);
        let suggestion = suggest_chart(&read.inference, &source.csv, read.detected.csv_dialect());
        let table = Table {
            inference: &read.inference,
            declared: &read.declared,
            detected: read.detected,
        };
        report_inference(
            report,
            &source.original,
            &table,
            &suggestion,
            self.links.key,
        );
        // A CSV already in its place is used as it is, not copied onto itself; "its
        // place" only inside the site (a linked folder or file leading out is refused
        // by `write_all`, as for any other file).
        let placed = crate::confine::canonical_root(root)
            .ok()
            .and_then(|root| crate::confine::resolve_file(&root, Path::new(&csv_path)).ok());
        let in_place = placed.is_some() && placed == std::fs::canonicalize(&source.csv).ok();
        if !in_place {
            files.push(PlannedFile {
                path: csv_path.clone(),
                contents: Contents::CopyOf(source.csv.clone()),
            });
        }
        let chart = suggestion.as_ref().ok();
        let mut page = page_from(slug, &table, chart, needs_license, self.links);
        if let Some(note) = conversion::method_note(source, &csv_path) {
            conversion::report(report, source, &csv_path);
            page = conversion::with_method_note(&page, &note);
        }
        files.push(PlannedFile {
            path: format!("content/datasets/{slug}.md"),
            contents: Contents::Bytes(page.into_bytes()),
        });
    }
}

/// What `new --from` read, as the page and the report use it.
struct Table<'a> {
    inference: &'a Inference,
    declared: &'a [Declared],
    detected: dialect::Detected,
}

fn report_inference(
    report: &mut String,
    from: &Path,
    table: &Table,
    chart: &Result<ChartSuggestion, String>,
    key: Option<usize>,
) {
    let inference = table.inference;
    let _ = writeln!(
        report,
        "Read {}: {}, {} rows, {} columns",
        shown(&from.to_string_lossy()),
        table.detected.delimiter.describe(),
        inference.rows,
        inference.columns.len()
    );
    if table.detected.padded {
        let _ = writeln!(
            report,
            "Note: spaces pad the fields after each {}: read without them, as pandas' \
             `skipinitialspace=True` reads them (`skip_initial_space = true`).",
            match table.detected.delimiter {
                dialect::Delimiter::Comma => "comma",
                dialect::Delimiter::Semicolon => "semicolon",
                dialect::Delimiter::Tab => "tab",
            }
        );
    }
    if let [only] = inference.columns.as_slice() {
        if only.name.contains([' ', '\t']) {
            let _ = writeln!(
                report,
                "Note: one column, whose name holds spaces: if the file is separated by \
                 spaces, it cannot be read as a table. Save it with commas, semicolons or tabs."
            );
        }
    }
    for (index, column) in inference.columns.iter().enumerate() {
        let notes = column_notes::notes(column, &table.declared[index], Some(index) == key);
        let notes = if notes.is_empty() {
            String::new()
        } else {
            format!(" ({})", notes.join(", "))
        };
        let _ = writeln!(
            report,
            "  {} -> {}{notes}",
            shown(&column.name),
            column.column_type.as_str()
        );
    }
    match chart {
        Ok(c) => {
            let y: Vec<String> = c.y.iter().map(|y| shown(y).into_owned()).collect();
            let mut what = format!("{} of {} by {}", c.kind, y.join(", "), shown(&c.x));
            if let Some(series) = &c.series {
                let _ = write!(what, " per {}", shown(series));
            }
            if let Some(how) = c.aggregate {
                let _ = write!(what, " ({how} per {})", shown(&c.x));
            }
            let _ = writeln!(report, "Suggested chart: {what}: {}.", c.reason);
        }
        Err(why) => {
            let _ = writeln!(report, "No chart suggested: {why}.");
        }
    }
}

/// A readable title from the slug: `seattle-weather` -> "Seattle weather".
fn title_from_slug(slug: &str) -> String {
    names::title_and_unit(slug).0
}

/// The front matter's prose keys, to be written by the author.
const PROSE_KEYS: &str = "\
kicker = \"TODO: one line of context: who measured what, where, when\"
headline = \"TODO: the main finding in one sentence, with its key figure\"
creators = [{ name = \"TODO: who made the data, as Family, Given (an organisation: add kind = 'organization')\" }]
tags = []
";

/// The one column entry of a page written without a table at hand.
const SKELETON_COLUMN: &str = "
[[columns]]   # one entry per CSV column, in CSV order
name = \"TODO: the first column's header, exactly\"
title = \"TODO: its title for readers, unit included\"
type = \"string\"   # string | integer | number | date | boolean
description = \"TODO: what the column holds\"
";

/// What the front matter's head says beyond the prose keys.
struct Head<'a> {
    key: Option<&'a str>,
    related: &'a [String],
    detected: dialect::Detected,
}

fn front_matter_head(page: &mut String, slug: &str, needs_license: bool, head: &Head) {
    let detected = head.detected;
    let today = super::today();
    let _ = writeln!(page, "+++");
    let _ = writeln!(page, "title = {}", toml_string(&title_from_slug(slug)));
    page.push_str(PROSE_KEYS);
    // Croissant recommends a version; a new page is the first.
    let _ = writeln!(
        page,
        "created = {today}\nupdated = {today}\nversion = \"1.0.0\""
    );
    if let Some(key) = head.key {
        let _ = writeln!(page, "primary_key = [{}]", toml_string(key));
    }
    if !head.related.is_empty() {
        let slugs: Vec<String> = head.related.iter().map(|s| toml_string(s)).collect();
        let _ = writeln!(page, "related = [{}]", slugs.join(", "));
    }
    if let Some(line) = detected.delimiter.front_matter_line() {
        let _ = writeln!(page, "{line}");
    }
    if detected.padded {
        let _ = writeln!(
            page,
            "skip_initial_space = true   # the spaces after each delimiter pad the fields"
        );
    }
    if needs_license {
        let _ = writeln!(page, "\n[license]");
        let _ = writeln!(
            page,
            "name = \"{MARKER} the license, e.g. CC BY 4.0 (or set a default [license] in site.toml)\""
        );
    }
}

const BODY: &str = "\
TODO: the lede: one paragraph on what the table shows, with its key figures.

## Method

TODO: how the figures were obtained: sources, instruments, selection, processing.

## Limits

TODO: what the table does not show, and what a reader should not conclude from it.
";

fn page_from(
    slug: &str,
    table: &Table,
    chart: Option<&ChartSuggestion>,
    needs_license: bool,
    links: &Links,
) -> String {
    let inference = table.inference;
    let key = links.key.map(|i| inference.columns[i].name.as_str());
    let mut page = String::new();
    let head = Head {
        key,
        related: &links.related,
        detected: table.detected,
    };
    front_matter_head(&mut page, slug, needs_license, &head);
    for (column, declared) in inference.columns.iter().zip(table.declared) {
        write_column(
            &mut page,
            column,
            declared,
            Some(column.name.as_str()) == key,
        );
    }
    page.push_str(&links.foreign_keys);
    if let Some(chart) = chart {
        let title_of = |name: &str| names::title_and_unit(name).0;
        let _ = writeln!(page, "\n[[charts]]");
        let _ = writeln!(page, "kind = \"{}\"", chart.kind);
        let measured: Vec<String> = chart.y.iter().map(|y| title_of(y)).collect();
        let title = format!(
            "{} by {}",
            measured.join(", "),
            title_of(&chart.x).to_lowercase()
        );
        let _ = writeln!(page, "title = {}", toml_string(&title));
        let _ = writeln!(
            page,
            "caption = \"{MARKER} what the chart draws and what it leaves out\""
        );
        let _ = writeln!(page, "x = {}", toml_string(&chart.x));
        let list = |values: &[String]| -> String {
            let quoted: Vec<String> = values.iter().map(|v| toml_string(v)).collect();
            format!("[{}]", quoted.join(", "))
        };
        match chart.y.as_slice() {
            [one] => {
                let _ = writeln!(page, "y = {}", toml_string(one));
            }
            several => {
                let _ = writeln!(page, "y = {}", list(several));
            }
        }
        if let Some(series) = &chart.series {
            let _ = writeln!(page, "series = {}", toml_string(series));
        }
        if !chart.highlight.is_empty() {
            let _ = writeln!(
                page,
                "highlight = {}   # {MARKER} the series your text is about",
                list(&chart.highlight)
            );
        }
        if let Some(how) = chart.aggregate {
            let _ = writeln!(page, "aggregate = \"{how}\"");
        }
    }
    let _ = writeln!(page, "+++\n");
    page.push_str(BODY);
    page
}

fn write_column(page: &mut String, column: &ColumnGuess, declared: &Declared, key: bool) {
    let (title, unit) = match column.name.is_empty() {
        true => (ROW_NAMES_TITLE.to_string(), None),
        false => names::title_and_unit(&column.name),
    };
    let _ = writeln!(page, "\n[[columns]]");
    let _ = writeln!(page, "name = {}", toml_string(&column.name));
    let _ = writeln!(page, "title = {}", toml_string(&title));
    let _ = writeln!(page, "type = \"{}\"", column.column_type.as_str());
    if let (Some(why), true) = (column.ungrouped, column.column_type.is_numeric()) {
        let _ = writeln!(page, "grouping = false   # {why}");
    }
    if column.whole && column.column_type.is_numeric() {
        let _ = writeln!(page, "digits = 0   # whole numbers, written with `.0`");
    }
    let date_format = column
        .date_format
        .as_ref()
        .filter(|_| column.column_type.is_time());
    if let Some(found) = date_format {
        let _ = writeln!(page, "format = {}", toml_string(found.pattern));
    }
    let mut description = match column.name.is_empty() {
        true => ROW_NAMES_DESCRIPTION.to_string(),
        false => format!("{MARKER} what the column holds"),
    };
    if let Some(other) = date_format.and_then(|f| f.other_reading) {
        let _ = write!(
            description,
            ". {MARKER} no day is past 12, so the dates were read as {} (month first); \
             if they are {other}, change `format`",
            date_format.map_or("", |f| f.pattern)
        );
    }
    if !column.markers.is_empty() {
        let _ = write!(
            description,
            ". It holds {} values but also the markers {}, which no column type accepts yet, \
             so it is typed as text",
            kind_word(column.kind),
            column_notes::marker_list(column)
        );
    }
    let _ = writeln!(page, "description = {}", toml_string(&description));
    if let Some(unit) = unit {
        let _ = writeln!(page, "unit = {}", toml_string(&unit));
    }
    if column.required {
        let _ = writeln!(page, "required = true");
    }
    if key {
        let _ = writeln!(page, "unique = true");
    }
    if !declared.missing_values.is_empty() {
        let list: Vec<String> = declared
            .missing_values
            .iter()
            .map(|v| toml_string(v))
            .collect();
        let _ = writeln!(page, "missing_values = [{}]", list.join(", "));
    }
    if let Some(spelling) = declared.non_finite {
        let words = match spelling {
            NonFinite::Pandas => "inf, -inf, nan as pandas writes them",
            NonFinite::R => "Inf, -Inf, NaN as R writes them",
        };
        let _ = writeln!(page, "non_finite = \"{}\"   # {words}", spelling.as_str());
    }
    if let Some(note) = column_notes::marks_note(column) {
        let marks = column.marks;
        if column.kind == Kind::Number {
            let decimal = toml_string(marks.decimal.as_str());
            let _ = writeln!(page, "decimal = {decimal}   # {note}: check");
        }
        if let Some(group) = marks.group {
            let _ = writeln!(page, "group = {}", toml_string(group.as_str()));
        }
    }
    if let Some(values) = &column.enum_values {
        let list: Vec<String> = values.iter().map(|v| toml_string(v)).collect();
        let _ = writeln!(page, "enum = [{}]", list.join(", "));
    }
}

/// The title and description `new` gives R's row names (`name = ""`).
const ROW_NAMES_TITLE: &str = "Row name";
const ROW_NAMES_DESCRIPTION: &str =
    "R's row names: the first column R's write.csv writes, under an empty header.";

fn kind_word(kind: Kind) -> &'static str {
    match kind {
        Kind::Integer => "whole-number",
        Kind::Number => "numeric",
        Kind::Year | Kind::Date => "date",
        Kind::DateTime => "date-and-time",
        Kind::Boolean => "true/false",
        Kind::Text | Kind::Empty => "text",
    }
}

/// The page to fill in by hand, for a table that is not at hand yet.
pub(super) fn skeleton(slug: &str, needs_license: bool) -> String {
    let mut page = String::new();
    let comma = dialect::Detected {
        delimiter: dialect::Delimiter::Comma,
        padded: false,
    };
    let head = Head {
        key: None,
        related: &[],
        detected: comma,
    };
    front_matter_head(&mut page, slug, needs_license, &head);
    page.push_str(SKELETON_COLUMN);
    let _ = writeln!(page, "+++\n");
    page.push_str(BODY);
    page
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inference(csv: &str) -> Inference {
        crate::scaffold::infer::infer_from(csv.as_bytes(), Path::new("t.csv"), b',').unwrap()
    }

    #[test]
    fn the_page_parses_and_keeps_odd_names() {
        let found = inference("\"we\"\"ird, name\",n\nx,1\ny,NA\n");
        let declared = vec![Declared::default(); found.columns.len()];
        let table = Table {
            inference: &found,
            declared: &declared,
            detected: dialect::Detected {
                delimiter: dialect::Delimiter::Semicolon,
                padded: false,
            },
        };
        let links = Links {
            key: crate::scaffold::suggest::proposed_key(&found),
            ..Links::default()
        };
        let page = page_from("odd", &table, None, true, &links);
        let front = page.split("+++").nth(1).unwrap();
        let parsed: crate::content::DatasetFrontMatter = toml::from_str(front).unwrap();
        assert_eq!(parsed.columns[0].name, "we\"ird, name");
        assert_eq!(parsed.primary_key, ["we\"ird, name"]);
        assert_eq!(parsed.delimiter.as_deref(), Some(";"));
        // The data's creators are asked for, never filled in with the site's author.
        assert!(parsed.creators[0].name.starts_with("TODO:"));
        // Croissant recommends a version: without one mlcroissant warns.
        assert_eq!(parsed.version.as_deref(), Some("1.0.0"));
        assert!(parsed.columns[1].description.contains("`NA` ×1"));
        let placeholders = crate::content::placeholders::find(Path::new("p"), &page);
        assert_eq!(
            placeholders.len(),
            3 + 1 + 2 + 3,
            "kicker, headline, creators, license, columns, body"
        );
        let skeleton = skeleton("odd", false);
        let front = skeleton.split("+++").nth(1).unwrap();
        assert!(toml::from_str::<crate::content::DatasetFrontMatter>(front).is_ok());
    }
}
