//! The explorer of every row on a dataset page (`static/explore.js`, its worker
//! `static/explore-worker.js`): what the page tells the script about the published CSV —
//! its dialect, and per column the type, missing values, number marks, date format and
//! `digits` the static table formats with — as one JSON object in the page, built from the
//! same front matter the Data Package states. `explore = false` (dataset or site) or a CSV
//! over [`crate::config::EXPLORE_MAX_BYTES`] (site.toml's hidden `_explore_max_bytes`)
//! leaves the explorer out or offers the download instead.

use serde::Serialize;

use crate::content::dialect::columns_missing_values;
use crate::dataset::paging::RowPaging;
use crate::dataset::Dataset;
use crate::layout::urls;
use crate::render::keys_view::{key_links, push_query_text, KeyLink};
use crate::site::Site;

/// The explorer's part of a dataset page, in the template as `explore`.
#[derive(Debug, Serialize)]
pub struct ExploreView {
    /// [`ExploreMeta`] as JSON that is safe inside a `<script>` element.
    pub meta_json: String,
    /// The CSV is larger than the limit: the page offers the download.
    pub too_large: bool,
    /// The limit as readers read it ("134.2 MB").
    pub limit: String,
    pub rows: u64,
}

/// What the script needs to read the CSV as the page reads it. A setting at its usual
/// value (a comma, no padding, a column without marks, `digits` or `format`) is left out,
/// and static/explore.js puts it back ([`ExploreColumn`]): most columns need their name,
/// title and type only.
#[derive(Debug, Serialize)]
struct ExploreMeta<'a> {
    /// The dataset's title, for the explorer table's caption.
    title: &'a str,
    /// Site-relative URL of the published CSV.
    csv: String,
    rows: u64,
    bytes: u64,
    #[serde(skip_serializing_if = "is_comma")]
    delimiter: String,
    /// Spaces after a delimiter pad the fields (`skip_initial_space`).
    #[serde(skip_serializing_if = "is_false")]
    skip_initial_space: bool,
    /// The table's columns, in its order.
    columns: Vec<ExploreColumn<'a>>,
    /// Rows of the dataset page's own table (`#row-<n>` links there).
    shown_rows: u64,
    /// Row pages: the dataset page's URL (site-relative) and rows per page.
    #[serde(skip_serializing_if = "Option::is_none")]
    row_pages: Option<RowPagesMeta>,
    /// The other datasets whose rows name these rows by a one-column key: each row links
    /// to theirs, on their explorer.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pointed: Vec<PointedMeta>,
}

/// Rows of another dataset that name this one's: its title, its column, the link to its
/// explorer filtered on that column (site-relative, the value to append) and the place in
/// `columns` of the column they name.
#[derive(Debug, Serialize)]
struct PointedMeta {
    title: String,
    field: String,
    href: String,
    column: usize,
}

#[derive(Debug, Serialize)]
struct RowPagesMeta {
    base: String,
    per_page: u64,
}

/// One column as the static table shows it.
#[derive(Debug, Serialize)]
struct ExploreColumn<'a> {
    /// Its place in the CSV's records.
    index: usize,
    name: &'a str,
    title: &'a str,
    #[serde(rename = "type")]
    column_type: &'static str,
    /// Cell texts shown as the empty dash, besides the empty cell.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    missing: Vec<String>,
    #[serde(skip_serializing_if = "is_point")]
    decimal: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    group: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    digits: Option<u32>,
    /// An `integer` year column: years shown without a group mark.
    #[serde(skip_serializing_if = "is_false")]
    year: bool,
    /// `grouping = false` (codes, clock times): every number shown without group marks.
    #[serde(skip_serializing_if = "is_false")]
    ungrouped: bool,
    /// A date or datetime column's `format` (strftime directives).
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<&'a str>,
    /// Cells are source ids, linked to the Sources section.
    #[serde(skip_serializing_if = "is_false")]
    source: bool,
    /// Long text: its cells wrap, as in the static table.
    #[serde(skip_serializing_if = "is_false")]
    wide: bool,
    #[serde(rename = "enum", skip_serializing_if = "Option::is_none")]
    enum_values: Option<&'a [String]>,
    /// A one-column foreign key: where its cells link, as in the static table.
    #[serde(skip_serializing_if = "Option::is_none")]
    link: Option<KeyLink>,
}

fn is_false(value: &bool) -> bool {
    !value
}

fn is_comma(value: &str) -> bool {
    value == ","
}

fn is_point(value: &&str) -> bool {
    *value == "."
}

impl ExploreView {
    /// The explorer of `dataset`'s page, whose table shows the columns `shown` and the
    /// first `shown_rows` rows; `None` when
    /// `explore = false` in its front matter, or in site.toml and the dataset does not say.
    pub fn of(
        site: &Site,
        dataset: &Dataset,
        shown: &[usize],
        shown_rows: u64,
    ) -> Option<ExploreView> {
        let front = &dataset.front;
        if !front.explore.unwrap_or(site.config.explore) {
            return None;
        }
        let missing = columns_missing_values(&front.columns, front.missing_values.as_deref());
        let mut links = key_links(site, dataset, "", "");
        let columns: Vec<ExploreColumn> = shown
            .iter()
            .filter_map(|&index| {
                let c = front.columns.get(index)?;
                let marks = front.number_marks(c);
                Some(ExploreColumn {
                    index,
                    name: &c.name,
                    title: &c.title,
                    column_type: c.column_type.as_str(),
                    missing: missing
                        .get(index)
                        .map(|m| m.list().into_iter().filter(|t| !t.is_empty()).collect())
                        .unwrap_or_default(),
                    decimal: marks.decimal.as_str(),
                    group: marks.group.map(|g| g.as_str()),
                    digits: c.shown_digits(),
                    year: crate::dataset::shown::is_year_column(c) && c.grouping.is_none(),
                    ungrouped: c.grouping == Some(false) && c.column_type.is_numeric(),
                    format: c.format.as_deref().filter(|_| c.column_type.is_time()),
                    source: c.references_sources(),
                    wide: dataset.csv.longest_cells.get(index).copied().unwrap_or(0)
                        > crate::render::view::WIDE_CELL_CHARS,
                    enum_values: c.enum_values.as_deref(),
                    link: links.get_mut(index).and_then(Option::take),
                })
            })
            .collect();
        let pointed = pointed(site, dataset, &columns);
        let meta = ExploreMeta {
            title: &front.title,
            csv: urls::csv_file(&dataset.slug),
            rows: dataset.csv.rows,
            bytes: dataset.csv.bytes,
            delimiter: char::from(front.field_delimiter()).to_string(),
            skip_initial_space: front.skip_initial_space,
            columns,
            shown_rows,
            row_pages: RowPaging::of(dataset).map(|paging| RowPagesMeta {
                base: urls::dataset_page(&dataset.slug),
                per_page: paging.per_page,
            }),
            pointed,
        };
        Some(ExploreView {
            meta_json: crate::metadata::script_safe_json(&meta),
            too_large: dataset.csv.bytes > site.config.explore_max_bytes,
            limit: super::words::shown_size(site.config.explore_max_bytes, &site.words),
            rows: dataset.csv.rows,
        })
    }
}

/// The one-column keys of other datasets that name `dataset`'s rows by a column the
/// explorer shows (`columns`), where the naming dataset is published with an explorer.
fn pointed(site: &Site, dataset: &Dataset, columns: &[ExploreColumn]) -> Vec<PointedMeta> {
    (site.pointing_at(&dataset.slug))
        .filter(|p| p.explore.unwrap_or(site.config.explore))
        .filter_map(|p| {
            let column = columns.iter().position(|c| c.name == p.to_field)?;
            let mut href = format!("{}#explore?k.", urls::dataset_page(&p.from));
            push_query_text(&p.field, &mut href);
            href.push('=');
            Some(PointedMeta {
                title: site.title_of(&p.from)?.to_string(),
                field: p.field.clone(),
                href,
                column,
            })
        })
        .collect()
}
