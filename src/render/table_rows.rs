//! The rows of a dataset page's table: CSV records rendered as HTML `<tr>` rows (numbers
//! grouped, formatted dates in ISO style, references linked, empty cells marked, every
//! cell escaped) and streamed from the file straight into the page, so no table is held
//! in memory.

use std::fs::File;
use std::io;
use std::path::Path;

use crate::content::date_format::DateFormat;
use crate::content::dialect::{columns_missing_values, CsvDialect, MissingValues};
use crate::content::number_marks::NumberMarks;
use crate::content::DatasetFrontMatter;
use crate::dataset::budget::{fit_rows, CELL_CHARS};
use crate::dataset::scan::pool::KeptReaders;
use crate::dataset::schema::{ColumnSpec, ColumnType};
use crate::dataset::shown::{push_number_html, Ungrouped};
use crate::dataset::Dataset;
use crate::render::keys_view::{key_links, push_query_text, KeyLink};
use crate::site::Site;
use crate::text::escape_html_into;

/// Renders CSV records as the `<tr>` rows of a dataset page's table.
#[derive(Debug, Clone)]
pub struct RowRenderer {
    /// Per column: its type, whether it references sources, its `digits`, whether its
    /// numbers are shown without group marks (`shown::Ungrouped`: years, codes).
    columns: Vec<(ColumnType, bool, Option<u32>, Option<Ungrouped>)>,
    /// Per column, its date `format`: such cells are shown in ISO style (`2019-03-04`).
    date_formats: Vec<Option<DateFormat>>,
    /// Where a source reference links: `#source-` on the dataset page.
    source_link: &'static str,
    /// Per column, the cell texts shown as the empty dash (`NA`…).
    missing: Vec<MissingValues>,
    /// Per column, the marks its numbers are written with (`1.234,5`): shown in the
    /// site's style (`1,234.5`).
    marks: Vec<NumberMarks>,
    dialect: CsvDialect,
    /// The columns shown, in order (`Dataset::shown_columns`); `None`: every column.
    shown: Option<Vec<usize>>,
    /// Per column, where the cells of a one-column foreign key link (`keys_view`).
    key_links: Vec<Option<KeyLink>>,
    /// The marks the page's language writes numbers with (`2 693,5` in French).
    page_marks: crate::i18n::locale::NumberMarks,
}

impl RowRenderer {
    pub fn new(columns: &[ColumnSpec]) -> Self {
        RowRenderer {
            columns: columns
                .iter()
                .map(|c| {
                    (
                        c.column_type,
                        c.references_sources(),
                        c.shown_digits(),
                        Ungrouped::of(c),
                    )
                })
                .collect(),
            date_formats: columns
                .iter()
                .map(|c| DateFormat::compile(c.format.as_deref()?, c.column_type).ok())
                .collect(),
            source_link: "#source-",
            missing: Vec::new(),
            marks: Vec::new(),
            dialect: CsvDialect::COMMA,
            shown: None,
            key_links: Vec::new(),
            page_marks: crate::i18n::locale::NumberMarks::english(),
        }
    }

    /// Rows for a row page (`datasets/<slug>/rows/<n>/`): source references link to the
    /// dataset page's Sources.
    pub fn for_row_pages(columns: &[ColumnSpec]) -> Self {
        RowRenderer {
            source_link: "../../#source-",
            ..Self::new(columns)
        }
    }

    /// How this dataset's CSV splits into fields.
    pub fn dialect(&self) -> CsvDialect {
        self.dialect
    }

    /// The dataset's dialect: its field separator, and the missing values of each column
    /// (shown as the empty dash).
    pub fn with_dialect(mut self, front: &DatasetFrontMatter) -> Self {
        self.missing = columns_missing_values(&front.columns, front.missing_values.as_deref());
        self.marks = front
            .columns
            .iter()
            .map(|c| front.number_marks(c))
            .collect();
        self.dialect = front.csv_dialect();
        self
    }

    /// Writes the numbers in the marks of `words`' language (the page's).
    pub fn in_language(mut self, words: &crate::i18n::Words) -> Self {
        self.page_marks = words.locale.marks.clone();
        self
    }

    /// Shows only these columns, in this order (indices into the record); every column
    /// when they are all of them in order.
    pub fn with_columns(mut self, shown: Vec<usize>) -> Self {
        let all_in_order =
            shown.len() == self.columns.len() && shown.iter().enumerate().all(|(n, &i)| n == i);
        self.shown = (!all_in_order).then_some(shown);
        self
    }

    /// Links the cells of `dataset`'s one-column foreign keys to the rows they name
    /// (`keys_view::key_links`), from the dataset page or a row page as made.
    pub fn with_key_links(mut self, site: &Site, dataset: &Dataset) -> Self {
        // The dataset page is `datasets/<slug>/`, its row pages two folders below.
        let to_own = self.source_link.trim_end_matches("#source-");
        self.key_links = key_links(site, dataset, &format!("../../{to_own}"), to_own);
        self
    }

    /// Opens the link of a cell of column `index` holding `value` when the column is a
    /// foreign key; whether it did (the caller then closes it after the cell's text).
    fn open_key_link(&self, index: usize, value: &str, out: &mut String) -> bool {
        let Some(link) = self.key_links.get(index).and_then(Option::as_ref) else {
            return false;
        };
        out.push_str("<a href=\"");
        escape_html_into(&link.href, out);
        if link.filtered {
            push_query_text(value, out);
        }
        out.push_str("\">");
        true
    }

    /// Appends one `<tr>`, with the id the prose's figures link to (`row-1` is the
    /// first data row).
    pub fn render(&self, record: &csv::ByteRecord, row: u64, out: &mut String) {
        out.push_str("<tr id=\"row-");
        out.push_str(&row.to_string());
        out.push_str("\">");
        let mut shown_date = String::new();
        let fields: Box<dyn Iterator<Item = (usize, &[u8])>> = match &self.shown {
            None => Box::new(record.iter().enumerate()),
            Some(shown) => Box::new(
                shown
                    .iter()
                    .filter_map(|&i| record.get(i).map(|field| (i, field))),
            ),
        };
        let mut plain = String::new();
        let mut cell = String::new();
        for (index, field) in fields {
            let value = match std::str::from_utf8(field) {
                Ok(v) => std::borrow::Cow::Borrowed(v),
                Err(_) => String::from_utf8_lossy(field),
            };
            let (column_type, is_reference, digits, ungrouped) = self
                .columns
                .get(index)
                .copied()
                .unwrap_or((ColumnType::String, false, None, None));
            let declared_missing = self
                .missing
                .get(index)
                .is_some_and(|m| m.has_tokens() && m.is_missing(&value));
            if value.is_empty() || declared_missing {
                out.push_str("<td class=\"empty\">—</td>");
                continue;
            }
            if is_reference {
                out.push_str("<td><a href=\"");
                out.push_str(self.source_link);
                escape_html_into(&value, out);
                out.push_str("\">");
                escape_html_into(&value, out);
                out.push_str("</a></td>");
            } else if column_type.is_numeric() {
                let marks = self.marks.get(index).copied().unwrap_or_default();
                cell.clear();
                let is_number = match marks.plain(&value, &mut plain) {
                    Some(number) => {
                        push_shown_number(number, digits, ungrouped, &mut cell);
                        true
                    }
                    None => {
                        escape_html_into(&value, &mut cell);
                        false
                    }
                };
                out.push_str("<td");
                // The page's filter reads a number as written from the shown one less its
                // group marks (in English marks); where that is not the cell's text, the
                // text comes along.
                if !same_without_commas(&cell, &value) {
                    push_written(&value, out);
                }
                out.push('>');
                let linked = self.open_key_link(index, &value, out);
                match is_number {
                    true => out.push_str(&self.page_marks.number(&cell)),
                    false => out.push_str(&cell),
                }
                out.push_str(if linked { "</a></td>" } else { "</td>" });
            } else {
                let format = self.date_formats.get(index).and_then(Option::as_ref);
                let reformatted = matches!(format, Some(format) if format.canonical(&value, &mut shown_date) && shown_date != *value);
                out.push_str("<td");
                if reformatted {
                    push_written(&value, out);
                }
                out.push('>');
                let linked = self.open_key_link(index, &value, out);
                let (shown, cut) = cut_cell(if reformatted { &shown_date } else { &value });
                escape_html_into(shown, out);
                if cut {
                    out.push('…');
                }
                out.push_str(if linked { "</a></td>" } else { "</td>" });
            }
        }
        out.push_str("</tr>\n");
    }
}

/// Whether `html`, a number cell as the table shows it (escaped), less its group marks is
/// `written`, the cell as the CSV writes it: then the page's filter finds the written text
/// without a copy of it (`static/table.js`, `searchedText`).
fn same_without_commas(html: &str, written: &str) -> bool {
    // A cell escaping changes (`&`, `<`, a control character) compares unequal: repeated.
    html.bytes().filter(|&b| b != b',').eq(written.bytes())
}

/// ` data-v="…"`: a cell's text as the CSV writes it, where the table shows it otherwise
/// (a date in ISO style, a number rounded to its `digits` or with other marks), so that
/// the page's filter finds a row by either. A cut cell's text is not repeated.
fn push_written(written: &str, out: &mut String) {
    if written.len() > CELL_CHARS {
        return;
    }
    out.push_str(" data-v=\"");
    escape_html_into(written, out);
    out.push('"');
}

/// A cell's text as the table shows it: at most [`CELL_CHARS`] characters, and whether it
/// was cut (the page marks the cut with `…`; the download holds the whole cell).
fn cut_cell(value: &str) -> (&str, bool) {
    if value.len() <= CELL_CHARS {
        return (value, false);
    }
    match value.char_indices().nth(CELL_CHARS) {
        Some((end, _)) => (&value[..end], true),
        None => (value, false),
    }
}

/// Streams the first `limit` table rows of `path` (skipping the header) into `out`.
/// A number cell of the table: as written in a column without group marks (a year, or
/// any plain number with `grouping = false` and no `digits`), else grouped at `digits`
/// (and then without its group marks when `grouping = false`).
fn push_shown_number(
    number: &str,
    digits: Option<u32>,
    ungrouped: Option<Ungrouped>,
    out: &mut String,
) {
    match (ungrouped, ungrouped.and_then(|u| u.shown(number))) {
        (Some(Ungrouped::Years), Some(written)) => out.push_str(written),
        (Some(Ungrouped::AsWritten), Some(written)) if digits.is_none() => out.push_str(written),
        (Some(Ungrouped::AsWritten), _) => {
            let start = out.len();
            push_number_html(number, digits, out);
            let shown = out[start..].replace(',', "");
            out.truncate(start);
            out.push_str(&shown);
        }
        _ => push_number_html(number, digits, out),
    }
}

#[cfg(test)]
fn stream_rows(
    path: &Path,
    renderer: &RowRenderer,
    limit: u64,
    out: &mut impl io::Write,
) -> io::Result<()> {
    let mut rows = String::new();
    RowStream::open(path, renderer.dialect)?.fill(renderer, limit, usize::MAX, false, &mut rows)?;
    out.write_all(rows.as_bytes())
}

/// How much of the CSV is read at a time.
const CHUNK_BYTES: usize = 64 * 1024;

/// One pass over a CSV's rows, handed out in runs: the dataset page's rows, then each row
/// page's, so that every row is read once and numbered exactly.
pub struct RowStream {
    /// Always there until the stream is dropped, which hands it back to the thread.
    reader: Option<csv::Reader<KeptFile>>,
    dialect: CsvDialect,
    record: csv::ByteRecord,
    /// Rows read so far.
    row: u64,
}

/// The CSV file a [`RowStream`]'s reader reads; `None` while the reader waits in its
/// thread's [`KEPT_READERS`] for the next file.
struct KeptFile(Option<File>);

impl io::Read for KeptFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match &mut self.0 {
            Some(file) => file.read(buf),
            None => Ok(0),
        }
    }
}

impl io::Seek for KeptFile {
    /// Only the rewind that resets a reader before it is kept (the file already closed).
    fn seek(&mut self, to: io::SeekFrom) -> io::Result<u64> {
        match (&self.0, to) {
            (None, io::SeekFrom::Start(0)) => Ok(0),
            _ => Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "a table's rows are read once, front to back",
            )),
        }
    }
}

/// How many readers a thread keeps (one stream is open at a time; a second only when a
/// thread is lent another dataset's page while it writes one).
const KEPT_PER_THREAD: usize = 2;

thread_local! {
    /// Readers of finished streams, reset, with their field delimiter. Building a
    /// `csv::Reader` builds its parser's transition table (about 3,600 steps) and zeroes
    /// its buffer: 2 % of a build of 10,000 small datasets, one per page.
    static KEPT_READERS: std::cell::RefCell<KeptReaders<KeptFile>> =
        const { std::cell::RefCell::new(KeptReaders::new(KEPT_PER_THREAD)) };
}

impl RowStream {
    /// Opens `path` (fields split on `delimiter`) and reads past its header.
    pub fn open(path: &Path, dialect: CsvDialect) -> io::Result<RowStream> {
        let file = File::open(path)?;
        let delimiter = dialect.delimiter;
        let kept = KEPT_READERS.with(|kept| kept.borrow_mut().take(delimiter, CHUNK_BYTES));
        let reader = match kept {
            Some(mut reader) => {
                *reader.get_mut() = KeptFile(Some(file));
                reader
            }
            // The header is read as a record: a kept reader, rewound by `seek_raw`, no
            // longer knows where headers are.
            None => dialect
                .builder()
                .buffer_capacity(CHUNK_BYTES)
                .from_reader(KeptFile(Some(file))),
        };
        let mut stream = RowStream {
            reader: Some(reader),
            dialect,
            record: csv::ByteRecord::new(),
            row: 0,
        };
        if let Some(reader) = &mut stream.reader {
            dialect
                .read(reader, &mut stream.record)
                .map_err(io::Error::other)?;
        }
        Ok(stream)
    }

    /// Reads the next row into `record` as it is written (for a typed copy); false
    /// past the last.
    pub fn read_into(&mut self, record: &mut csv::ByteRecord) -> io::Result<bool> {
        let Some(reader) = &mut self.reader else {
            return Ok(false);
        };
        let read = self
            .dialect
            .read(reader, record)
            .map_err(io::Error::other)?;
        self.row += u64::from(read);
        Ok(read)
    }

    /// Renders the next rows into `out` as `<tr>` rows, as many as fit `share` bytes
    /// (`budget::fit_rows`), at most `limit`; how many it rendered. With `whole_page`,
    /// the rest of the `limit` rows are read past unshown (a row page's rows that did not
    /// fit), so the next page starts where it should; how many were read is `read`.
    pub fn fill(
        &mut self,
        renderer: &RowRenderer,
        limit: u64,
        share: usize,
        whole_page: bool,
        out: &mut String,
    ) -> io::Result<Filled> {
        let mut filled = Filled { shown: 0, read: 0 };
        let Some(reader) = &mut self.reader else {
            return Ok(filled);
        };
        let mut fits = true;
        while filled.read < limit && (fits || whole_page) {
            if !self
                .dialect
                .read(reader, &mut self.record)
                .map_err(io::Error::other)?
            {
                break;
            }
            filled.read += 1;
            self.row += 1;
            if !fits {
                continue;
            }
            let start = out.len();
            renderer.render(&self.record, self.row, out);
            let size = out.len() - start;
            fits = fit_rows([size], share.saturating_sub(start), 1) == 1;
            if fits {
                filled.shown += 1;
            } else {
                out.truncate(start);
            }
        }
        Ok(filled)
    }
}

/// What [`RowStream::fill`] did: rows rendered, and rows read (the same unless a page's
/// rows were read past unshown).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Filled {
    pub shown: u64,
    pub read: u64,
}

impl Drop for RowStream {
    /// Closes the file and keeps the reader, rewound, for the thread's next stream.
    fn drop(&mut self) {
        let Some(mut reader) = self.reader.take() else {
            return;
        };
        reader.get_mut().0 = None;
        let rewound = reader.seek_raw(io::SeekFrom::Start(0), csv::Position::new());
        if rewound.is_err() {
            return;
        }
        KEPT_READERS.with(|kept| {
            kept.borrow_mut()
                .keep(self.dialect.delimiter, CHUNK_BYTES, reader)
        });
    }
}

#[cfg(test)]
#[path = "table_rows_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "cells_conformance_tests.rs"]
mod cells_conformance;
