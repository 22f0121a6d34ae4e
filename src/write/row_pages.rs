//! Row pages, written in the same pass over the CSV as the dataset page's table: the
//! reader that filled the page's first `table_rows` rows goes on, `table_rows` rows per
//! page, into `datasets/<slug>/rows/<n>/index.html` (n from 2). Rows are streamed into each
//! file in 64 KiB chunks, so memory stays flat in rows and pages. The dataset layer's scan
//! stays free of rendering and output: this pass belongs to the write layer, and runs
//! whether or not the scan came from the cache.

use std::io::Write;
use std::sync::atomic::Ordering;

use super::{write_problem, Writer};
use crate::dataset::paging::RowPaging;
use crate::dataset::Dataset;
use crate::diagnostics::Diagnostic;
use crate::layout::urls;
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
        .with_columns(shown.clone());
    for page in 2..=paging.pages {
        let html = renderer.row_page(site, dataset, &columns, &shown, &paging, page)?;
        let (before, after) = html.split_once(STREAMED_ROWS_MARKER).ok_or_else(|| {
            Diagnostic::error(
                "templates/rows.html",
                "the template does not output dataset.table.rows_html",
            )
            .with_hint("render `{{ dataset.table.rows_html | safe }}` inside the table body")
        })?;
        let path = urls::index_file(&urls::row_page(&dataset.slug, page));
        let mut file = writer
            .sink
            .create(&path)
            .map_err(|e| write_problem(&path, e))?;
        let out: &mut dyn Write = file.writer();
        let (first, last) = paging.rows_of(page);
        let written = out
            .write_all(before.as_bytes())
            .and_then(|_| stream.copy(&rows, paging.per_page, out))
            .map_err(|e| write_problem(&path, e))?;
        if written != last + 1 - first {
            return Err(Diagnostic::error(
                &dataset.csv_display,
                "the CSV file changed while the site was being built",
            )
            .with_hint("build again once the file is saved"));
        }
        out.write_all(after.as_bytes())
            .and_then(|_| file.finish())
            .map_err(|e| write_problem(&path, e))?;
        writer.files.fetch_add(1, Ordering::Relaxed);
    }
    Ok(())
}
