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

/// What the script needs to read the CSV as the page reads it.
#[derive(Debug, Serialize)]
struct ExploreMeta<'a> {
    /// The dataset's title, for the explorer table's caption.
    title: &'a str,
    /// Site-relative URL of the published CSV.
    csv: String,
    rows: u64,
    bytes: u64,
    delimiter: String,
    /// Spaces after a delimiter pad the fields (`skip_initial_space`).
    skip_initial_space: bool,
    quote: &'static str,
    /// The table's columns, in its order.
    columns: Vec<ExploreColumn<'a>>,
    /// Rows of the dataset page's own table (`#row-<n>` links there).
    shown_rows: u64,
    /// Row pages: the dataset page's URL (site-relative) and rows per page.
    row_pages: Option<RowPagesMeta>,
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
    missing: Vec<String>,
    decimal: &'static str,
    group: Option<&'static str>,
    digits: Option<u32>,
    /// An `integer` year column: years shown without a group mark.
    year: bool,
    /// `grouping = false` (codes, clock times): every number shown without group marks.
    ungrouped: bool,
    /// A date or datetime column's `format` (strftime directives).
    format: Option<&'a str>,
    /// Cells are source ids, linked to the Sources section.
    source: bool,
    /// Long text: its cells wrap, as in the static table.
    wide: bool,
    #[serde(rename = "enum")]
    enum_values: Option<&'a [String]>,
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
        let columns = shown
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
                })
            })
            .collect();
        let meta = ExploreMeta {
            title: &front.title,
            csv: urls::csv_file(&dataset.slug),
            rows: dataset.csv.rows,
            bytes: dataset.csv.bytes,
            delimiter: char::from(front.field_delimiter()).to_string(),
            skip_initial_space: front.skip_initial_space,
            quote: "\"",
            columns,
            shown_rows,
            row_pages: RowPaging::of(dataset).map(|paging| RowPagesMeta {
                base: urls::dataset_page(&dataset.slug),
                per_page: paging.per_page,
            }),
        };
        Some(ExploreView {
            meta_json: crate::metadata::script_safe_json(&meta),
            too_large: dataset.csv.bytes > site.config.explore_max_bytes,
            limit: super::words::shown_size(site.config.explore_max_bytes, &site.words),
            rows: dataset.csv.rows,
        })
    }
}
