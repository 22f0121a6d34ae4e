//! The typed contract between datapages and templates: exactly the fields a template may
//! use, built per page. A page's context holds its own data and small summaries of the
//! others, never the whole site.

use serde::Serialize;

use crate::content::{self, markdown};
use crate::dataset::Dataset;
use crate::i18n::Words;
use crate::layout::urls;
use crate::metadata;
use crate::render::columns_section::{column_list, column_summary};
use crate::render::{cite_view, words::shown_size, RenderedChart};
use crate::site::outputs::Download;
use crate::site::{Site, Summary};

/// Site-wide settings, on every page as `site`.
#[derive(Debug, Serialize)]
pub struct SiteView<'a> {
    pub title: &'a str,
    pub description: &'a str,
    pub base_url: &'a str,
    pub language: &'a str,
    pub author: &'a crate::config::Party,
    pub publisher: &'a crate::config::Party,
}

impl<'a> SiteView<'a> {
    pub fn new(site: &'a Site) -> Self {
        SiteView {
            title: &site.config.title,
            description: &site.config.description,
            base_url: site.config.base_url.as_str(),
            language: &site.config.language,
            author: &site.config.author,
            publisher: site.config.publisher(),
        }
    }
}

/// A link with its text.
#[derive(Debug, Serialize)]
pub struct LinkView {
    pub text: String,
    /// Relative to the page's folder (prefix with `root`).
    pub url: String,
}

/// One dataset in a listing (home, All datasets, tag pages, related links).
#[derive(Debug, Serialize)]
pub struct DatasetSummaryView<'a> {
    pub slug: &'a str,
    pub title: &'a str,
    pub headline: &'a str,
    pub kicker: &'a str,
    /// Site-relative URL of the page.
    pub url: String,
    pub rows: u64,
    pub columns: usize,
    pub tags: Vec<LinkView>,
    /// The tags' slugs, space-separated, for the All datasets filter.
    pub tag_slugs: String,
    pub updated: Option<String>,
}

impl<'a> DatasetSummaryView<'a> {
    pub fn new(dataset: &'a Summary) -> Self {
        DatasetSummaryView {
            slug: &dataset.slug,
            title: &dataset.title,
            headline: &dataset.headline,
            kicker: &dataset.kicker,
            url: urls::dataset_page(&dataset.slug),
            rows: dataset.rows,
            columns: dataset.columns as usize,
            tags: tag_links(dataset.tags.iter().map(|t| &**t)),
            tag_slugs: (dataset.tags.iter())
                .map(|tag| markdown::slugify(tag))
                .collect::<Vec<_>>()
                .join(" "),
            updated: dataset.updated(),
        }
    }
}

fn tag_links<'a>(tags: impl IntoIterator<Item = &'a str>) -> Vec<LinkView> {
    tags.into_iter()
        .map(|name| LinkView {
            text: name.to_string(),
            url: urls::tag_page(&markdown::slugify(name)),
        })
        .collect()
}

/// A tag in the All datasets list and its filter.
#[derive(Debug, Serialize)]
pub struct TagView<'a> {
    pub name: &'a str,
    pub slug: &'a str,
    /// Datasets carrying the tag.
    pub count: usize,
    /// "NVMe (3)".
    pub text: String,
    /// Relative to the site root.
    pub url: String,
}

/// A `## ` section of the author's prose.
#[derive(Debug, Serialize)]
pub struct SectionView<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub html: &'a str,
}

/// One documented column.
#[derive(Debug, Serialize)]
pub struct ColumnView<'a> {
    pub name: &'a str,
    pub title: &'a str,
    #[serde(rename = "type")]
    pub column_type: &'static str,
    pub description: &'a str,
    pub unit: Option<&'a str>,
    pub numeric: bool,
    /// Long text: the table gives the column room to wrap into readable lines.
    pub wide: bool,
    /// Tells the rows apart (`Dataset::is_key`): the table keeps it in view while
    /// scrolling sideways.
    pub key: bool,
    /// In the page's table (`Dataset::shown_columns`): the Columns section gives it a full
    /// profile, and the others one line each.
    pub shown: bool,
}

/// One source, with its anchor id.
#[derive(Debug, Serialize)]
pub struct SourceView<'a> {
    pub id: &'a str,
    pub title: &'a str,
    pub publisher: Option<&'a str>,
    pub published: Option<&'a str>,
    pub url: Option<&'a str>,
    pub accessed: Option<String>,
}

/// The download block.
#[derive(Debug, Serialize)]
pub struct DownloadView {
    /// Site-relative URLs.
    pub csv_url: String,
    pub json_url: String,
    /// The file path as shown to readers: `/data/datasets/<slug>.csv`.
    pub csv_path: String,
    pub rows: u64,
    pub columns: usize,
    pub bytes: u64,
    /// "2.1 kB".
    pub size: String,
    pub sha256: String,
    /// The downloads beside the CSV that the registry's outputs offer (a typed copy),
    /// in their order.
    pub files: Vec<FileView>,
}

/// A download beside the CSV, offered by an output of the registry.
#[derive(Debug, Serialize)]
pub struct FileView {
    /// How the page names it: `key`, `label`, `name`, `phrase`.
    #[serde(flatten)]
    pub download: Download,
    /// Site-relative URL: `data/datasets/<slug>.<extension>`.
    pub url: String,
    /// As shown to readers: `/data/datasets/<slug>.<extension>`.
    pub path: String,
    pub bytes: u64,
    /// "2.1 kB".
    pub size: String,
    pub sha256: String,
}

impl FileView {
    fn of(download: &Download, file: &crate::dataset::FileDigest, words: &Words) -> FileView {
        FileView {
            download: *download,
            path: format!("/{}", file.path),
            bytes: file.bytes,
            size: shown_size(file.bytes, words),
            sha256: file.sha256.to_string(),
            url: file.path.clone(),
        }
    }
}

/// A kept version on the page: where its file is (site-relative) and its size in words,
/// beside what the Data Package states of it.
#[derive(Debug, Serialize)]
pub struct VersionFileView {
    pub url: String,
    /// "2.1 kB".
    pub size: String,
    #[serde(flatten)]
    pub entry: crate::metadata::versions::VersionView,
}

/// The generated table.
#[derive(Debug, Serialize)]
pub struct TableView<'a> {
    /// The columns shown, in the table's order (the primary key first when some are left out).
    pub columns: Vec<&'a ColumnView<'a>>,
    /// Every column of the CSV, and those the table leaves out (they are in the download).
    pub all_columns: usize,
    pub hidden_columns: usize,
    /// The finished, escaped `<tr>` rows (or the streaming marker).
    pub rows_html: &'a str,
    /// The rules of the table's `<style>` ([`table_style`]).
    pub style_css: String,
    pub shown_rows: u64,
    pub total_rows: u64,
    pub truncated: bool,
    /// Fewer rows than the cap: the others did not fit the page's byte budget.
    pub budget_cut: bool,
    pub has_empty_cells: bool,
    pub note_html: Option<String>,
    /// The one generated sentence about dashes, worded so it never contradicts the note.
    pub dash_note: Option<String>,
    /// Page 1 of the row pages, when the rows past the cap have them.
    pub nav: Option<crate::render::row_nav::RowNavView>,
}

/// One chart, drawn at build time.
#[derive(Debug, Serialize)]
pub struct ChartView<'a> {
    /// Anchor `#chart-<id>`.
    pub id: &'a str,
    pub kind: &'static str,
    pub title: &'a str,
    pub caption_html: Option<String>,
    /// The finished, escaped `<svg>` element; past the charts' share of the page budget
    /// (`dataset::budget::CHARTS_BYTES`), an `<img>` of the chart's SVG file.
    pub svg: std::borrow::Cow<'a, str>,
    /// Site-relative URL of the standalone SVG file.
    pub svg_url: String,
}

/// The license section.
#[derive(Debug, Serialize)]
pub struct LicenseView<'a> {
    pub name: &'a str,
    pub url: Option<&'a str>,
    pub html: Option<String>,
}

/// Everything a dataset page shows, in the template as `dataset`.
#[derive(Debug, Serialize)]
pub struct DatasetPageView<'a> {
    pub slug: &'a str,
    pub title: &'a str,
    pub kicker: &'a str,
    pub headline: &'a str,
    /// The kicker and headline with their quoted figures marked up, when they quote any.
    pub kicker_html: Option<&'a str>,
    pub headline_html: Option<&'a str>,
    pub lede_html: &'a str,
    pub intro_html: &'a str,
    pub download: DownloadView,
    pub tags: Vec<LinkView>,
    pub related: Vec<LinkView>,
    pub sections: Vec<SectionView<'a>>,
    pub charts: Vec<ChartView<'a>>,
    pub table: TableView<'a>,
    /// The Columns section's `<li>` items, finished and escaped (`columns_section`): the
    /// columns in the table with their profiles, and one line for each of the others.
    pub column_list_html: String,
    pub column_summary_html: String,
    pub license: LicenseView<'a>,
    /// The rows each foreign key declares to name no row (`misses`), for Limits.
    pub key_misses: Vec<crate::render::keys_view::KeyMissView>,
    pub sources: Vec<SourceView<'a>>,
    pub created: Option<String>,
    pub updated: Option<String>,
    pub version: Option<&'a str>,
    /// The suggested citation (also the JSON-LD `creditText`).
    pub citation: String,
    pub csvw_url: String,
    pub croissant_url: String,
    /// "Cite this dataset": the BibTeX, and the RIS and CFF files.
    pub cite: crate::render::cite_view::CiteView,
    /// The change history, newest first.
    pub changes: Vec<crate::render::cite_view::ChangeView>,
    /// The kept versions of the CSV, oldest first, each with what changed to the next.
    pub versions: Vec<VersionFileView>,
    /// "Use this data": pandas, Polars, R, DuckDB and curl one-liners.
    pub use_data: crate::render::use_view::UseDataView,
}

/// A chart as the dataset page shows it: its inline `<svg>` when it is the first or while
/// the charts drawn so far (`inline_bytes`) stay within their share of the page budget,
/// else an image of its SVG file (the same drawing, a few hundred bytes of page).
fn chart_markup<'a>(
    inline_bytes: &mut usize,
    drawn: &'a RenderedChart,
    slug: &str,
    title: &str,
) -> std::borrow::Cow<'a, str> {
    let first = *inline_bytes == 0;
    *inline_bytes += drawn.inline.len();
    if first || *inline_bytes <= crate::dataset::budget::CHARTS_BYTES {
        return std::borrow::Cow::Borrowed(&drawn.inline);
    }
    let mut img = String::from("<img class=\"chart-file\" loading=\"lazy\" src=\"../../");
    crate::text::escape_html_into(&urls::chart_file(slug, &drawn.id), &mut img);
    img.push_str("\" alt=\"");
    crate::text::escape_html_into(title, &mut img);
    img.push_str("\">");
    std::borrow::Cow::Owned(img)
}

/// Cells longer than this (in characters) make a column wide.
pub const WIDE_CELL_CHARS: usize = 48;

/// The columns of a dataset, for the table header and the Columns section, in the CSV's
/// order; `shown` are those the table shows (`Dataset::shown_columns`).
pub fn column_views<'a>(dataset: &'a Dataset, shown: &[usize]) -> Vec<ColumnView<'a>> {
    let in_table = dataset.in_table(shown);
    (dataset.front.columns.iter().enumerate())
        .map(|(index, c)| ColumnView {
            name: &c.name,
            title: &c.title,
            column_type: c.column_type.as_str(),
            description: &c.description,
            unit: c.unit.as_deref(),
            numeric: c.column_type.is_numeric(),
            wide: dataset.csv.longest_cells.get(index).copied().unwrap_or(0) > WIDE_CELL_CHARS,
            key: dataset.is_key(index),
            shown: in_table.get(index).copied().unwrap_or(false),
        })
        .collect()
}

/// The table's body as the page gets it: the finished `<tr>` rows (or a marker the writer
/// replaces) and how many rows they are (those that fit the page's byte budget).
#[derive(Debug, Clone, Copy)]
pub struct TableBody<'a> {
    pub rows_html: &'a str,
    pub shown_rows: u64,
}

impl<'a> DatasetPageView<'a> {
    /// The page view; `body` is the table's rows (or a marker the writer replaces) and their
    /// count. `(columns, shown)`: every column's view and the table's columns; `written`: the
    /// table's files as written.
    pub fn new(
        site: &'a Site,
        dataset: &'a Dataset,
        (columns, shown): (&'a [ColumnView<'a>], &[usize]),
        body: TableBody<'a>,
        (charts, citations): (
            &'a [RenderedChart],
            &crate::metadata::citation_files::Citations,
        ),
        written: &[crate::dataset::FileDigest],
    ) -> Self {
        let (front, slug) = (&dataset.front, &dataset.slug);
        let column_list_html = column_list(site, dataset, shown);
        let summary_room =
            crate::dataset::budget::COLUMNS_BYTES.saturating_sub(column_list_html.len());
        let md = |m: &str| markdown::to_html(m, site.config.markdown.raw_html);
        let raw_html = site.config.markdown.raw_html;
        DatasetPageView {
            slug,
            title: &front.title,
            kicker: &front.kicker,
            headline: &front.headline,
            kicker_html: dataset.figure_html.kicker.as_deref(),
            headline_html: dataset.figure_html.headline.as_deref(),
            lede_html: &dataset.body.lede_html,
            intro_html: &dataset.body.intro_html,
            download: DownloadView::new(site, dataset, written),
            tags: tag_links(front.tags.iter().map(String::as_str)),
            related: (front.related.iter())
                .filter_map(|slug| {
                    let text = site.title_of(slug)?.to_string();
                    Some(LinkView {
                        text,
                        url: urls::dataset_page(slug),
                    })
                })
                .collect(),
            sections: (dataset.body.sections.iter())
                .map(|s| SectionView {
                    id: &s.id,
                    title: &s.title,
                    html: &s.html,
                })
                .collect(),
            charts: chart_views(dataset, charts, raw_html),
            table: TableView::new(dataset, (columns, shown), body, (raw_html, &site.words)),
            column_summary_html: column_summary(dataset, shown, summary_room, &site.words),
            column_list_html,
            license: LicenseView {
                name: &dataset.license.name,
                url: dataset.license.url.as_deref(),
                html: dataset.license.text.as_deref().map(md),
            },
            key_misses: crate::render::keys_view::key_misses(site, dataset, raw_html),
            sources: front.sources.iter().map(SourceView::of).collect(),
            created: front.created.as_ref().map(content::date_string),
            updated: metadata::updated(site, dataset),
            version: front.version.as_deref(),
            citation: metadata::citation(site, dataset),
            csvw_url: urls::csvw_file(slug),
            croissant_url: urls::croissant_file(slug),
            cite: cite_view::CiteView::new(&site.config, dataset, citations),
            changes: cite_view::changes(dataset),
            versions: (metadata::versions::versions(site, dataset).into_iter())
                .map(|entry| VersionFileView {
                    url: urls::version_file(slug, &entry.version),
                    size: shown_size(entry.bytes, &site.words),
                    entry,
                })
                .collect(),
            use_data: crate::render::use_view::UseDataView::new(&metadata::snippets::Table::of(
                site, dataset,
            )),
        }
    }
}

impl DownloadView {
    /// The CSV's download and the files beside it that the registry's outputs wrote.
    fn new(site: &Site, dataset: &Dataset, written: &[crate::dataset::FileDigest]) -> Self {
        let csv = &dataset.csv;
        DownloadView {
            csv_url: urls::csv_file(&dataset.slug),
            json_url: urls::json_file(&dataset.slug),
            csv_path: (dataset.data_place(&site.config)).file_shown(&urls::csv_file(&dataset.slug)),
            rows: csv.rows,
            columns: csv.header.len(),
            bytes: csv.bytes,
            size: shown_size(csv.bytes, &site.words),
            sha256: csv.sha256.to_string(),
            files: (site.outputs.downloads(&dataset.slug, written).into_iter())
                .map(|(download, file)| FileView::of(download, file, &site.words))
                .collect(),
        }
    }
}

impl<'a> TableView<'a> {
    /// The table of the `shown` columns, with its rows (`body`) and the notes under it
    /// (its own Markdown with `raw_html`, ours in `words`).
    fn new(
        dataset: &'a Dataset,
        (columns, shown): (&'a [ColumnView<'a>], &[usize]),
        body: TableBody<'a>,
        (raw_html, words): (markdown::RawHtml, &crate::i18n::Words),
    ) -> Self {
        let (csv, note) = (&dataset.csv, dataset.front.table_note.as_deref());
        let in_order = table_columns(columns, shown);
        TableView {
            style_css: table_style(&in_order),
            columns: in_order,
            all_columns: columns.len(),
            hidden_columns: columns.len().saturating_sub(shown.len()),
            rows_html: body.rows_html,
            shown_rows: body.shown_rows,
            total_rows: csv.rows,
            truncated: body.shown_rows < csv.rows,
            budget_cut: body.shown_rows < dataset.shown_rows().min(csv.rows),
            has_empty_cells: csv.has_empty_cells,
            dash_note: cite_view::dash_note(csv.has_empty_cells, note, words),
            note_html: note.map(|m| markdown::to_html(m, raw_html)),
            nav: crate::render::row_nav::RowNavView::of(dataset, 1),
        }
    }
}

impl<'a> SourceView<'a> {
    /// A source of the front matter, its dates as text.
    fn of(s: &'a crate::content::Source) -> Self {
        SourceView {
            id: &s.id,
            title: &s.title,
            publisher: s.publisher.as_deref(),
            published: s.published.as_deref(),
            url: s.url.as_deref(),
            accessed: s.accessed.as_ref().map(content::date_string),
        }
    }
}

/// The dataset's charts as drawn (`charts`, one per `[[charts]]`), with their captions.
fn chart_views<'a>(
    dataset: &'a Dataset,
    charts: &'a [RenderedChart],
    raw_html: markdown::RawHtml,
) -> Vec<ChartView<'a>> {
    let mut inline_bytes = 0usize;
    let captions = &dataset.figure_html.captions;
    (dataset.front.charts.iter().zip(charts).enumerate())
        .map(|(n, (spec, drawn))| ChartView {
            id: &drawn.id,
            kind: spec.kind.as_str(),
            title: &spec.title,
            caption_html: (captions.get(n).cloned().flatten())
                .or_else(|| (spec.caption.as_deref()).map(|m| markdown::to_html(m, raw_html))),
            svg: chart_markup(&mut inline_bytes, drawn, &dataset.slug, &spec.title),
            svg_url: urls::chart_file(&dataset.slug, &drawn.id),
        })
        .collect()
}

/// The columns a table shows, in its order: `shown` indexes into `columns`.
pub fn table_columns<'a>(
    columns: &'a [ColumnView<'a>],
    shown: &[usize],
) -> Vec<&'a ColumnView<'a>> {
    shown.iter().filter_map(|&i| columns.get(i)).collect()
}

/// The CSS for a table of `columns` (in its order): numbers and their dashes align right,
/// only long text wraps, and the key (the first key column) stays in view while the table
/// scrolls sideways. One rule per kind, its columns listed.
pub fn table_style(columns: &[&ColumnView<'_>]) -> String {
    use std::fmt::Write as _;
    let cells = |wanted: fn(&ColumnView<'_>) -> bool| {
        let mut selectors = String::new();
        for (n, _) in columns.iter().enumerate().filter(|(_, c)| wanted(c)) {
            let comma = if selectors.is_empty() { "" } else { "," };
            // Writing into a String cannot fail.
            let _ = write!(selectors, "{comma}#table td:nth-child({})", n + 1);
        }
        selectors
    };
    let mut css = String::new();
    let right = cells(|c| c.numeric);
    if !right.is_empty() {
        css.push_str(&right);
        css.push_str("{text-align:right;font-variant-numeric:tabular-nums lining-nums}");
    }
    let wide = cells(|c| c.wide);
    if !wide.is_empty() {
        css.push_str(&wide);
        css.push_str("{white-space:normal;min-width:min(24rem,70vw)}");
    }
    if let Some(key) = columns.iter().position(|c| c.key).map(|n| n + 1) {
        let _ = write!(
            css,
            "#table tr>:nth-child({key}){{position:sticky;left:0;z-index:1;background:var(--paper);\
             box-shadow:var(--key-edge);min-width:min(9rem,30vw);white-space:normal;\
             overflow-wrap:break-word}}#table thead tr>:nth-child({key}){{z-index:3;\
             background:var(--panel);box-shadow:var(--key-edge),inset 0 -1px 0 var(--rule)}}\
             #table tbody tr:hover>:nth-child({key}){{background:var(--panel)}}"
        );
    }
    css
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(name: &str, numeric: bool, wide: bool, key: bool) -> ColumnView<'_> {
        ColumnView {
            name,
            title: name,
            column_type: if numeric { "number" } else { "string" },
            description: "",
            unit: None,
            numeric,
            wide,
            key,
            shown: true,
        }
    }

    #[test]
    fn the_table_style_lists_each_kind_of_column_by_its_place() {
        let (a, b, c, d) = (
            column("a", false, false, true),
            column("b", true, false, false),
            column("c", false, true, true),
            column("d", true, false, false),
        );
        let css = table_style(&[&a, &b, &c, &d]);
        assert!(css.starts_with(
            "#table td:nth-child(2),#table td:nth-child(4){text-align:right;font-variant-numeric:tabular-nums lining-nums}\
             #table td:nth-child(3){white-space:normal;min-width:min(24rem,70vw)}\
             #table tr>:nth-child(1){position:sticky;"
        ));
        // The first key column stays in view, no other.
        assert!(css.contains("#table thead tr>:nth-child(1){z-index:3;"));
        assert!(css.ends_with("#table tbody tr:hover>:nth-child(1){background:var(--panel)}"));
        assert!(!css.contains("nth-child(3){position"));
        let plain = column("e", false, false, false);
        assert_eq!(table_style(&[&plain]), "");
        assert_eq!(table_style(&[]), "");
    }
}
