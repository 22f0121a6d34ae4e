//! Row pages (`datasets/<slug>/rows/<n>/`): the page, rendered around the streamed-rows
//! marker like the dataset page, with the navigation of `row_nav`.

use serde::Serialize;

use super::row_nav::{row_range, RowNavView};
use super::view::ColumnView;
use super::{Renderer, STREAMED_ROWS_MARKER};
use crate::content::markdown;
use crate::dataset::paging::RowPaging;
use crate::dataset::Dataset;
use crate::diagnostics::Diagnostic;
use crate::layout::urls;
use crate::site::Site;

/// The table of a row page: the dataset page's columns, notes and navigation.
#[derive(Debug, Serialize)]
struct RowTableView<'a> {
    /// The dataset page's table columns, in its order.
    columns: Vec<&'a ColumnView<'a>>,
    all_columns: usize,
    hidden_columns: usize,
    rows_html: &'a str,
    style_css: String,
    total_rows: u64,
    note_html: Option<String>,
    dash_note: Option<String>,
    nav: RowNavView,
    /// How many of the page's rows it shows, when not all of them fit its byte budget.
    shown_rows: Option<u64>,
}

/// A download beside the CSV, as a row page links it.
#[derive(Debug, Serialize)]
struct RowPageFile {
    /// Site-relative URL.
    url: String,
    /// The link's text: "the typed copy".
    phrase: &'static str,
}

/// What a row page's template gets as `dataset`.
#[derive(Debug, Serialize)]
struct RowPageView<'a> {
    slug: &'a str,
    title: &'a str,
    kicker: &'a str,
    url: String,
    csv_url: String,
    /// The downloads beside the CSV that the registry's outputs offer, in their order.
    files: Vec<RowPageFile>,
    table: RowTableView<'a>,
}

/// Which row page is rendered, and how many of its rows it shows when fewer than all fit
/// its byte budget (`dataset::budget`).
#[derive(Debug, Clone, Copy)]
pub struct RowPageAt {
    pub page: u64,
    pub shown_rows: Option<u64>,
}

impl Renderer {
    /// Page `page` (from 2) of a dataset's rows, with [`STREAMED_ROWS_MARKER`] where its
    /// rows go; `columns` are the dataset's `view::column_views`, made once for all pages,
    /// and `shown` the table's columns (`Dataset::shown_columns`).
    pub fn row_page(
        &self,
        site: &Site,
        dataset: &Dataset,
        columns: &[ColumnView<'_>],
        shown: &[usize],
        paging: &RowPaging,
        at: RowPageAt,
    ) -> Result<String, Diagnostic> {
        let RowPageAt { page, shown_rows } = at;
        let front = &dataset.front;
        let empty_cells = dataset.csv.profiles.iter().any(|p| p.empty > 0);
        let in_order = super::view::table_columns(columns, shown);
        let view = RowPageView {
            slug: &dataset.slug,
            title: &front.title,
            kicker: &front.kicker,
            url: urls::dataset_page(&dataset.slug),
            csv_url: urls::csv_file(&dataset.slug),
            files: (site.outputs.offered(&site.config, dataset).into_iter())
                .map(|(download, url)| RowPageFile {
                    url,
                    phrase: download.phrase,
                })
                .collect(),
            table: RowTableView {
                style_css: super::view::table_style(&in_order),
                columns: in_order,
                all_columns: columns.len(),
                hidden_columns: columns.len().saturating_sub(shown.len()),
                rows_html: STREAMED_ROWS_MARKER,
                total_rows: dataset.csv.rows,
                note_html: front
                    .table_note
                    .as_deref()
                    .map(|m| markdown::to_html(m, site.config.markdown.raw_html)),
                dash_note: super::cite_view::dash_note(
                    empty_cells,
                    front.table_note.as_deref(),
                    &site.words,
                ),
                nav: RowNavView::new(&dataset.slug, paging, page),
                shown_rows,
            },
        };
        let mut context = Self::base_context(site, "../../../../");
        let data_root = dataset.data_place(&site.config).root("../../../../");
        context.insert("data_root", data_root);
        context.insert(
            "page_title",
            &format!(
                "{} · {}",
                front.title,
                row_range(paging, page).to_lowercase()
            ),
        );
        context.insert("dataset", &view);
        self.render("rows.html", &context)
    }
}
