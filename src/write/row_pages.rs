//! Row pages, written in the same pass over the CSV as the dataset page's table: the
//! reader that filled the page's first rows goes on, `RowPaging::per_page` rows per page,
//! into `datasets/<slug>/rows/<n>/index.html` (n from 2). Each page shows the rows that fit
//! its byte budget (`dataset::budget`; the others of the page are read past and said to be
//! in the CSV), so memory stays within one page's share whatever the rows and pages. The dataset layer's scan
//! stays free of rendering and output: this pass belongs to the write layer, and runs
//! whether or not the scan came from the cache.

use std::io::Write;
use std::sync::atomic::Ordering;

use super::{write_problem, Writer};
use crate::dataset::budget;
use crate::dataset::paging::RowPaging;
use crate::dataset::Dataset;
use crate::diagnostics::Diagnostic;
use crate::layout::urls;
use crate::render::row_page::RowPageAt;
use crate::render::table_rows::{RowRenderer, RowStream};
use crate::render::view::column_views;
use crate::render::{Renderer, STREAMED_ROWS_MARKER};
use crate::site::Site;

/// Writes pages 2..=N of a dataset's rows from `stream`, which has handed out page 1.
/// Any earlier row pages (a `serve` rebuild after the CSV shrank) are removed first.
pub fn write_row_pages(
    site: &Site,
    renderer: &Renderer,
    dataset: &Dataset,
    stream: &mut RowStream,
    writer: &Writer,
) -> Result<(), Diagnostic> {
    let folder = urls::row_pages(&dataset.slug);
    writer
        .sink
        .remove(&folder)
        .map_err(|e| write_problem(&folder, e))?;
    let Some(paging) = RowPaging::of(dataset) else {
        return Ok(());
    };
    let shown = dataset.shown_columns(site.config.table_columns);
    let columns = column_views(dataset, &shown);
    let rows = RowRenderer::for_row_pages(&dataset.front.columns)
        .with_dialect(&dataset.front)
        .in_language(&site.words)
        .with_key_links(site, dataset)
        .with_columns(shown.clone());
    for page in 2..=paging.pages {
        let at = |shown_rows| RowPageAt { page, shown_rows };
        let mut html = renderer.row_page(site, dataset, &columns, &shown, &paging, at(None))?;
        let (first, last) = paging.rows_of(page);
        let share = budget::table_share(html.len() - STREAMED_ROWS_MARKER.len());
        let mut rows_html = String::new();
        let page_rows = last + 1 - first;
        let path = urls::index_file(&urls::row_page(&dataset.slug, page));
        let filled = stream
            .fill(&rows, page_rows, share, true, &mut rows_html)
            .map_err(|e| write_problem(&path, e))?;
        if filled.read != page_rows {
            return Err(Diagnostic::error(
                &dataset.csv_display,
                "the CSV file changed while the site was being built",
            )
            .with_hint("build again once the file is saved"));
        }
        if filled.shown < page_rows {
            let at = at(Some(filled.shown));
            html = renderer.row_page(site, dataset, &columns, &shown, &paging, at)?;
        }
        let (before, after) = super::split_at_rows(&html, "templates/rows.html")?;
        let mut file = writer
            .sink
            .create(&path)
            .map_err(|e| write_problem(&path, e))?;
        let out: &mut dyn Write = file.writer();
        out.write_all(before.as_bytes())
            .and_then(|_| out.write_all(rows_html.as_bytes()))
            .and_then(|_| out.write_all(after.as_bytes()))
            .and_then(|_| file.finish())
            .map_err(|e| write_problem(&path, e))?;
        writer.files.fetch_add(1, Ordering::Relaxed);
    }
    Ok(())
}
