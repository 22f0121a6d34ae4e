//! What authors write: front matter (TOML) and Markdown, for datasets and plain pages.
//!
//! The types here mirror `docs/content-format.md` one to one; serde rejects unknown keys
//! so a typo in the front matter is an error with a "did you mean", not a silent default.

pub mod base_url;
pub mod chart_keys;
pub mod columns;
pub mod creators;
pub mod date_format;
pub mod dialect;
pub mod figures;
pub mod file_kind;
pub mod first_line;
pub mod front_matter;
pub mod iso8601;
pub mod language_tag;
pub mod markdown;
pub mod number_marks;
pub mod numbers;
#[cfg(test)]
mod parser_properties_tests;
pub mod placeholders;
pub mod site_values;
pub mod spans;
pub mod toml_document;
pub mod toml_escapes;
pub mod validate;

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::diagnostics::Diagnostic;
pub use chart_keys::{Aggregate, YColumns};
pub use columns::ColumnSpec;
pub use creators::{Creator, CreatorKind};
pub use markdown::Body;

/// How many table rows a page shows: a number, or every row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableRows {
    Limit(u64),
    All,
}

impl TableRows {
    /// The default cap: enough to read, small enough to keep pages light.
    pub const DEFAULT: TableRows = TableRows::Limit(1000);

    /// The row cap as a number (`u64::MAX` for all rows).
    pub fn limit(self) -> u64 {
        match self {
            TableRows::Limit(n) => n,
            TableRows::All => u64::MAX,
        }
    }
}

impl<'de> Deserialize<'de> for TableRows {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Count(u64),
            Word(String),
        }
        match Raw::deserialize(deserializer)? {
            Raw::Count(n) => Ok(TableRows::Limit(n)),
            Raw::Word(w) if w == "all" => Ok(TableRows::All),
            Raw::Word(w) => Err(serde::de::Error::custom(format!(
                "table_rows must be a whole number or \"all\", not \"{w}\""
            ))),
        }
    }
}

/// A license: a name, an optional URL, and the author's explanation.
#[derive(Debug, Clone, Deserialize, PartialEq, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct License {
    /// An SPDX or Open Definition identifier such as `CC-BY-4.0`, when the license has one.
    pub id: Option<String>,
    pub name: String,
    pub url: Option<String>,
    /// Markdown: what may be done with the figures and why.
    pub text: Option<String>,
}

/// A work the figures were taken from.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// Anchor `#source-<id>` on the page; CSV cells may reference it.
    pub id: String,
    pub title: String,
    pub publisher: Option<String>,
    /// The publication date as the source prints it ("September 2021").
    pub published: Option<String>,
    pub url: Option<String>,
    /// When the author opened it.
    pub accessed: Option<toml::value::Datetime>,
}

/// One `[[foreign_keys]]` entry: columns whose values name rows of a table, as Table
/// Schema's `foreignKeys` states it.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ForeignKey {
    /// The columns of this table whose values make the key.
    pub fields: Vec<String>,
    /// The table whose rows the key names, and the columns there it is compared with.
    pub reference: KeyReference,
    /// Rows known to name no row there, with why: stated on the page, not reported.
    pub misses: Option<KnownMisses>,
}

impl ForeignKey {
    /// Whether the key names rows of dataset `slug` itself (no `dataset`, or its own): the
    /// keys a dataset's own metadata can state.
    pub fn names_own_rows(&self, slug: &str) -> bool {
        self.reference.dataset.as_ref().is_none_or(|d| d == slug)
    }
}

/// What a foreign key names: `fields` of dataset `dataset` (this one when absent).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct KeyReference {
    pub dataset: Option<String>,
    pub fields: Vec<String>,
}

/// Rows of a foreign key known to name no row of the referenced table: how many, and why.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct KnownMisses {
    pub rows: u64,
    pub reason: Box<str>,
}

/// One `[[changes]]` entry: a published version of the dataset and what changed in it.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Change {
    pub date: toml::value::Datetime,
    pub version: Option<String>,
    /// Plain text: what changed.
    pub description: String,
    /// The data file as it was at this version (a path under `data/`): published
    /// unchanged at a versioned path and compared row by row with the next kept version.
    pub file: Option<String>,
}

/// An output's setting: always written (`true`), never (`false`), or where it pays
/// (`"auto"`: the output says where; the Parquet copy above `parquet_min_bytes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Switch {
    #[default]
    Auto,
    On,
    Off,
}

impl<'de> Deserialize<'de> for Switch {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Switch, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Switch;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("true, false or \"auto\"")
            }
            fn visit_bool<E: serde::de::Error>(self, on: bool) -> Result<Switch, E> {
                Ok(if on { Switch::On } else { Switch::Off })
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Switch, E> {
                match text {
                    "auto" => Ok(Switch::Auto),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Str(text), &self)),
                }
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// The front matter of `content/datasets/<slug>.md`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DatasetFrontMatter {
    pub title: Box<str>,
    pub kicker: Box<str>,
    pub headline: Box<str>,
    /// A one-paragraph description for metadata; the lede and the first paragraph of
    /// Method are used when absent.
    pub description: Option<Box<str>>,
    /// The period the data covers, ISO 8601 (`2021-04/2021-05`), for metadata.
    pub temporal_coverage: Option<Box<str>>,
    /// The CSV path relative to the site root; default `data/datasets/<slug>.csv`.
    pub data: Option<Box<str>>,
    /// Where this dataset's big files (CSV, Parquet, kept versions) are published instead
    /// of beside the pages (object storage, a CDN): site.toml's `data_url` when absent.
    pub data_url: Option<base_url::BaseUrl>,
    /// The CSV's field separator: `","` (the default), `";"`, `"\t"` or `"|"`.
    pub delimiter: Option<Box<str>>,
    /// Spaces after a delimiter (and at a line's start) pad the field and are not part of
    /// it, as pandas' `skipinitialspace` and Table Schema's and CSVW's `skipInitialSpace`
    /// read them: `1,   "a, b"` is `1` and `a, b`. Off by default (RFC 4180 keeps them).
    #[serde(default)]
    pub skip_initial_space: bool,
    /// Cell texts that mean "no value" in every column (Table Schema `missingValues`);
    /// the site's list when absent. The load fills it in from site.toml.
    pub missing_values: Option<Vec<String>>,
    /// The decimal mark of the number columns (`","`: `1,5`); a column's own wins.
    pub decimal: Option<number_marks::DecimalMark>,
    /// The mark between groups of three digits in number and integer columns (`"."`,
    /// `" "`…); a column's own wins.
    pub group: Option<number_marks::GroupMark>,
    #[serde(default)]
    pub tags: Vec<String>,
    /// Concepts of a theme vocabulary (e.g. the EU data themes), for DCAT catalogs.
    #[serde(default)]
    pub themes: Vec<Theme>,
    #[serde(default)]
    pub related: Vec<String>,
    pub created: Option<toml::value::Datetime>,
    pub updated: Option<toml::value::Datetime>,
    pub version: Option<Box<str>>,
    /// The change history, `[[changes]]` entries (date, version, what changed).
    #[serde(default)]
    pub changes: Vec<Change>,
    #[serde(default)]
    pub primary_key: Vec<String>,
    /// Columns whose values name rows of this or another dataset's table (`check` reads
    /// both files; the page states the misses declared).
    #[serde(default)]
    pub foreign_keys: Vec<ForeignKey>,
    pub table_rows: Option<TableRows>,
    /// The most columns the table shows (primary key first); site.toml's when absent.
    pub table_columns: Option<std::num::NonZeroU32>,
    /// Static pages for the rows past the table's cap; site.toml's `row_pages` when absent.
    pub row_pages: Option<bool>,
    /// A typed Parquet copy beside the CSV (`true`, `false` or `"auto"`); site.toml's
    /// `parquet` when absent.
    pub parquet: Option<Switch>,
    /// The RIS and CFF citations also as files beside the CSV; site.toml's
    /// `citation_files` when absent.
    pub citation_files: Option<bool>,
    /// The in-page explorer of every row (sort, filter, facets, export); site.toml's
    /// `explore` when absent.
    pub explore: Option<bool>,
    /// Markdown shown under the table.
    pub table_note: Option<Box<str>>,
    /// Read once, while loading, into the dataset's resolved license.
    pub license: Option<Box<License>>,
    /// Who made the data: credited by the citation and every metadata format (the site's
    /// author is credited when there are none).
    #[serde(default)]
    pub creators: Vec<Creator>,
    /// The works the figures were taken from (what the dataset is derived from).
    #[serde(default)]
    pub sources: Vec<Source>,
    pub columns: Vec<ColumnSpec>,
    /// Charts drawn from the table at build time, in the author's order.
    #[serde(default)]
    pub charts: Vec<ChartSpec>,
    /// Built by `serve` and `build --drafts` only; absent from every listing otherwise.
    #[serde(default)]
    pub draft: bool,
    /// Numbers of the prose that are not data (`check` does not look for them in a table).
    #[serde(default)]
    pub numbers_not_data: Vec<String>,
}

/// What a chart draws: its shape decides which columns it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChartKind {
    /// One bar per row: `x` labels it, `y` sets its length.
    Bar,
    /// Bars per `x` value, one for each `series` value.
    GroupedBar,
    /// `y` against `x`, one line per `series` value.
    Line,
    /// One dot per row, coloured and shaped by `series`.
    Dot,
}

impl ChartKind {
    /// The name used in front matter.
    pub fn as_str(self) -> &'static str {
        match self {
            ChartKind::Bar => "bar",
            ChartKind::GroupedBar => "grouped-bar",
            ChartKind::Line => "line",
            ChartKind::Dot => "dot",
        }
    }
}

/// A `[[charts]]` entry: which columns to draw, from which rows, with what words.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ChartSpec {
    /// Anchor `#chart-<id>` and file `<slug>-<id>.svg`; the slug of the title when absent.
    pub id: Option<String>,
    pub kind: ChartKind,
    pub title: String,
    /// Markdown shown under the chart.
    pub caption: Option<String>,
    /// The column along the category (or horizontal) axis.
    pub x: String,
    /// The numeric column the chart measures, or several sharing a unit, one series each.
    pub y: YColumns,
    /// The column whose values split the points into bars, lines or dot styles.
    pub series: Option<String>,
    /// The series drawn in colour and labelled; the others are thin grey context lines.
    /// Required past [`chart_keys::READABLE_SERIES`] series of a line.
    #[serde(default)]
    pub highlight: Vec<String>,
    /// How rows sharing an x and series become one point (a line joins one per x).
    pub aggregate: Option<Aggregate>,
    /// Only rows whose cell text is one of the listed values, per column.
    #[serde(default)]
    pub filter: BTreeMap<String, FilterValues>,
    /// Whether the value axis starts at zero. Bars always do; when absent, lines and dots
    /// do only where zero is near their data (see `render::chart::scale::value_domain`).
    pub y_zero: Option<bool>,
    /// `linear` (the default) or `log`: a line or dot chart's value axis; a log axis needs
    /// every value above zero.
    pub y_scale: Option<YScale>,
    /// The value axis reaches down to at least this (never above the data's lowest value).
    pub y_min: Option<f64>,
    /// The value axis reaches up to at least this (never below the data's highest value).
    pub y_max: Option<f64>,
    /// Whether a line joins its points over rows with no value; by default it breaks there.
    pub connect_gaps: Option<bool>,
}

/// How a line or dot chart's value axis maps values to heights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum YScale {
    /// Equal steps of value are equal steps of height.
    #[default]
    Linear,
    /// Equal ratios of value are equal steps of height: ticks at powers of ten.
    Log,
}

impl DatasetFrontMatter {
    /// The CSV file of the dataset `slug`, relative to the site root: `data`, else
    /// [`layout::dataset_csv`](crate::layout::dataset_csv).
    pub fn csv_file(&self, slug: &str) -> String {
        match &self.data {
            Some(data) => data.to_string(),
            None => crate::layout::dataset_csv(slug),
        }
    }
}

impl ChartSpec {
    /// The chart's id: the one given, else the ASCII slug of its title (`CO₂ by year` ->
    /// `co2-by-year`: the id names a file and an anchor, so it stays in ASCII).
    pub fn id(&self) -> String {
        match &self.id {
            Some(id) => id.clone(),
            None => markdown::ascii_slug(&self.title),
        }
    }
}

/// The values a filter keeps: one string or a list of strings, compared to the cell text.
#[derive(Debug, Clone, PartialEq)]
pub struct FilterValues(pub Vec<String>);

impl<'de> Deserialize<'de> for FilterValues {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        chart_keys::one_or_many(
            deserializer,
            "a filter value must be a string or a list of strings, e.g. [\"SATA\", \"SAS\"] (quote numbers: [\"8\"])",
        )
        .map(FilterValues)
    }
}

/// The front matter of a plain page or the home page.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PageFrontMatter {
    pub title: String,
    pub description: Option<String>,
}

/// A plain page (`content/<name>.md`) or the home page intro (`content/_index.md`).
#[derive(Debug, Clone)]
pub struct Page {
    /// URL path segment: `about` for `content/about.md`; empty for the home page.
    pub name: String,
    pub front: PageFrontMatter,
    pub html: String,
}

/// Reads a plain page, with every problem found in it.
pub fn load_page(
    site_root: &Path,
    path: &Path,
    real_path: &Path,
    raw_html: markdown::RawHtml,
) -> Result<Page, Vec<Diagnostic>> {
    let display = display_path(site_root, path);
    // Read what confinement resolved, not the path as written: a link swapped in between
    // the check and the read must not lead outside.
    let text = std::fs::read_to_string(real_path).map_err(|e| {
        vec![Diagnostic::error(
            &display,
            format!("cannot read the page: {e}"),
        )]
    })?;
    let split = front_matter::split(&display, &text).map_err(|d| vec![d])?;
    let (front_characters, body_characters) = characters_by_region(&display, &text, &split);
    if !front_characters.is_empty() {
        return Err([front_characters, body_characters].concat());
    }
    let front: PageFrontMatter = front_matter::parse_toml(
        &display,
        &text,
        split.front_matter,
        split.front_matter_offset,
    )
    .map_err(|d| vec![d])?;
    let mut problems = body_characters;
    problems.extend(validate::toml_escapes(
        &display,
        &text,
        split.front_matter,
        split.front_matter_offset,
    ));
    problems.extend(validate::markdown_body_links(
        &display,
        &text,
        split.body,
        split.body_offset,
    ));
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Page {
        name: page_name(path),
        front,
        html: markdown::to_html(split.body, raw_html),
    })
}

/// The characters HTML and XML cannot carry in a Markdown file: those of the front matter
/// (which stop the file from being read: TOML would only repeat them in its own words),
/// and those of the body.
pub fn characters_by_region(
    display: &Path,
    text: &str,
    split: &front_matter::SplitFile,
) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    use validate::{forbidden_characters, Region};
    (
        forbidden_characters(display, text, 0..split.body_offset, Region::FrontMatter),
        forbidden_characters(
            display,
            text,
            split.body_offset..text.len(),
            Region::Markdown,
        ),
    )
}

/// The URL name of a page file: `about` for `content/about.md`, empty for the home page
/// (`content/_index.md`).
pub fn page_name(path: &Path) -> String {
    match path.file_stem().and_then(|s| s.to_str()) {
        Some("_index") | None => String::new(),
        Some(stem) => stem.to_string(),
    }
}

/// A path as the author sees it: relative to the site root when it is inside it.
pub fn display_path(site_root: &Path, path: &Path) -> std::path::PathBuf {
    path.strip_prefix(site_root).unwrap_or(path).to_path_buf()
}

/// `YYYY-MM-DD` (or the shorter form given) of a TOML date.
pub fn date_string(value: &toml::value::Datetime) -> String {
    match &value.date {
        Some(d) => format!("{:04}-{:02}-{:02}", d.year, d.month, d.day),
        None => value.to_string(),
    }
}

/// A theme the dataset belongs to: a concept of a published vocabulary, with the label
/// that vocabulary gives it (DCAT-AP wants both).
#[derive(Debug, Clone, Deserialize, PartialEq, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Theme {
    /// The concept's address, e.g.
    /// `http://publications.europa.eu/resource/authority/data-theme/TECH`.
    pub iri: String,
    /// Its label, e.g. "Science and technology".
    pub label: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct Holder {
        rows: TableRows,
    }

    #[test]
    fn table_rows_is_a_number_or_all() {
        let h: Holder = toml::from_str("rows = 20").unwrap();
        assert_eq!(h.rows, TableRows::Limit(20));
        let h: Holder = toml::from_str("rows = \"all\"").unwrap();
        assert_eq!(h.rows, TableRows::All);
        assert!(toml::from_str::<Holder>("rows = \"some\"").is_err());
    }

    #[test]
    fn chart_filters_take_one_value_or_a_list() {
        #[derive(Deserialize)]
        struct Charts {
            charts: Vec<ChartSpec>,
        }
        let parsed: Charts = toml::from_str(
            "[[charts]]\nkind = \"grouped-bar\"\ntitle = \"Throughput by size\"\nx = \"a\"\ny = \"b\"\nfilter = { k = \"v\", j = [\"1\", \"2\"] }\n",
        )
        .unwrap();
        let chart = &parsed.charts[0];
        assert_eq!(chart.kind, ChartKind::GroupedBar);
        assert_eq!(chart.id(), "throughput-by-size");
        assert_eq!(chart.filter["k"], FilterValues(vec!["v".into()]));
        assert_eq!(chart.filter["j"].0, ["1", "2"]);
        let wrong = toml::from_str::<Charts>(
            "[[charts]]\nkind = \"bar\"\ntitle = \"t\"\nx = \"a\"\ny = \"b\"\nfilter = { k = 8 }\n",
        );
        assert!(wrong.err().unwrap().message().contains("quote numbers"));
    }

    #[test]
    fn dates_print_as_iso() {
        let h: toml::Table = toml::from_str("d = 2026-10-11").unwrap();
        let d = h["d"].as_datetime().unwrap();
        assert_eq!(date_string(d), "2026-10-11");
    }
}
