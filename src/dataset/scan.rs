//! The one streaming pass over a CSV file: check its structure and every cell against the
//! documented columns, count rows, hash the bytes, and render the rows the page shows.
//!
//! Memory stays flat in the row count: a record is read, checked, rendered if the page
//! shows it, and dropped. Only `unique` columns keep something per row: a 128-bit
//! fingerprint of each value seen (24 bytes a row, whatever the cell length).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use regex::Regex;
use sha2::{Digest, Sha256};

use super::cache::FileStamp;
use super::schema::{
    compare_to_bound, format_cell, format_number_html, ColumnSpec, ColumnType, DatePrecision,
};
use crate::diagnostics::{did_you_mean, Diagnostic, Severity};
use crate::text::escape_html_into;

/// Problems shown per column and kind before the rest are only counted.
pub const ERRORS_SHOWN_PER_COLUMN: usize = 5;

/// The kind of problem counted for cells with forbidden characters (a warning).
const FORBIDDEN_KIND: &str = "character";

/// Rows whose cell lengths decide which columns get room to wrap long text.
const ROWS_MEASURED: u64 = 5_000;

/// Most points one chart keeps; past this the rest are counted, reported and not drawn,
/// so a chart of a million-row table stays a readable, bounded SVG.
pub const CHART_POINTS_CAP: usize = 5_000;

/// Which columns a chart reads (by index in the CSV) and which rows it keeps.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartColumns {
    /// The chart's id, for messages.
    pub id: String,
    pub x: usize,
    pub y: usize,
    pub series: Option<usize>,
    /// A row is kept when, for every entry, its cell text is one of the values.
    pub filter: Vec<(usize, Vec<String>)>,
}

/// One point of a chart, read from one row.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChartPoint {
    pub x: String,
    pub series: Option<String>,
    pub y: f64,
    /// `y` as the table shows it (`10,366`, `1.969`), for labels.
    pub y_text: String,
}

/// What one chart collected during the scan.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChartPoints {
    pub points: Vec<ChartPoint>,
    /// Rows the filter kept whose `y` cell is empty: not drawn, and said so.
    pub missing: u64,
    /// Points past [`CHART_POINTS_CAP`]: not drawn, and said so.
    pub dropped: u64,
}

impl ChartColumns {
    /// Adds the point of one well-formed record, if the filter keeps it.
    fn collect(&self, record: &csv::ByteRecord, column_type: ColumnType, into: &mut ChartPoints) {
        let cell = |index: usize| std::str::from_utf8(record.get(index).unwrap_or_default()).ok();
        let kept = self.filter.iter().all(|(index, values)| {
            cell(*index).is_some_and(|text| values.iter().any(|v| v == text))
        });
        if !kept {
            return;
        }
        let Some(y_cell) = cell(self.y) else { return };
        if y_cell.is_empty() {
            into.missing += 1;
            return;
        }
        // A cell of the wrong type is reported by the type check; it is not drawn.
        let Ok(y) = y_cell.parse::<f64>() else { return };
        if !y.is_finite() || column_type.check(y_cell).is_err() {
            return;
        }
        if into.points.len() >= CHART_POINTS_CAP {
            into.dropped += 1;
            return;
        }
        let mut y_text = String::new();
        format_cell(column_type, y_cell, &mut y_text);
        into.points.push(ChartPoint {
            x: cell(self.x).unwrap_or_default().to_string(),
            series: self
                .series
                .map(|index| cell(index).unwrap_or_default().to_string()),
            y,
            y_text,
        });
    }
}

/// A column with its constraints ready to check.
#[derive(Debug)]
pub struct CompiledColumn<'a> {
    pub spec: &'a ColumnSpec,
    pub pattern: Option<Regex>,
}

impl CompiledColumn<'_> {
    /// The columns of `specs` without their patterns (for checks that ignore them).
    pub fn without_patterns(specs: &[ColumnSpec]) -> Vec<CompiledColumn<'_>> {
        specs
            .iter()
            .map(|spec| CompiledColumn {
                spec,
                pattern: None,
            })
            .collect()
    }
}

/// What the scan learned about a CSV file.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct CsvSummary {
    pub header: Vec<String>,
    /// Data rows, not counting the header.
    pub rows: u64,
    pub bytes: u64,
    /// Lowercase hex SHA-256 of the file's bytes.
    pub sha256: String,
    /// Whether any cell of the rows the page shows is empty (the page explains the dash).
    pub has_empty_cells: bool,
    /// Source ids that cells reference.
    pub referenced_sources: BTreeSet<String>,
    /// Per column, the `DatePrecision`s seen in valid date cells, as a bit mask.
    pub date_precisions: Vec<u8>,
    /// The file's modification time when it was scanned: pages stream rows from the file
    /// later, and must not publish rows that were never checked.
    #[serde(skip)]
    pub modified: Option<std::time::SystemTime>,
    /// The file's stamp when it was scanned (`None` where the platform has none): the
    /// download is published only while it still matches, and `serve` need not copy a CSV
    /// whose stamp did not move.
    #[serde(skip)]
    pub stamp: Option<FileStamp>,
    /// The longest cell of each column among the rendered rows, in characters: long text
    /// columns get a wider column so their cells wrap into readable lines.
    pub longest_cells: Vec<usize>,
    /// The points of each chart, in the order the charts were given.
    pub charts: Vec<ChartPoints>,
}

/// Renders CSV records as table rows; shared by the scan and the streaming page writer.
#[derive(Debug, Clone)]
pub struct RowRenderer {
    columns: Vec<(ColumnType, bool)>,
}

impl RowRenderer {
    pub fn new(columns: &[ColumnSpec]) -> Self {
        RowRenderer {
            columns: columns
                .iter()
                .map(|c| (c.column_type, c.references_sources()))
                .collect(),
        }
    }

    /// Appends one `<tr>`.
    pub fn render(&self, record: &csv::ByteRecord, out: &mut String) {
        out.push_str("<tr>");
        for (index, field) in record.iter().enumerate() {
            let value = match std::str::from_utf8(field) {
                Ok(v) => std::borrow::Cow::Borrowed(v),
                Err(_) => String::from_utf8_lossy(field),
            };
            let (column_type, is_reference) = self
                .columns
                .get(index)
                .copied()
                .unwrap_or((ColumnType::String, false));
            if value.is_empty() {
                out.push_str("<td class=\"empty\">—</td>");
                continue;
            }
            if is_reference {
                out.push_str("<td><a href=\"#source-");
                escape_html_into(&value, out);
                out.push_str("\">");
                escape_html_into(&value, out);
                out.push_str("</a></td>");
            } else if column_type.is_numeric() {
                out.push_str("<td class=\"num\">");
                format_number_html(&value, out);
                out.push_str("</td>");
            } else {
                out.push_str("<td>");
                escape_html_into(&value, out);
                out.push_str("</td>");
            }
        }
        out.push_str("</tr>\n");
    }
}

/// Files at least this large are hashed on a second thread while the first parses.
const HASH_THREAD_FROM_BYTES: u64 = 4 * 1024 * 1024;

/// Files at least this large are checked in two halves at once when there are two cores
/// (see [`scan_with_charts`]); below this the second thread costs more than it saves.
const SPLIT_FROM_BYTES: u64 = 8 * 1024 * 1024;

/// How far past the middle of a file the split looks for the end of a line.
const SPLIT_SEARCH_BYTES: usize = 64 * 1024;

/// The read buffer of the CSV parser: few system calls on large files.
const READ_BUFFER_BYTES: usize = 256 * 1024;

/// Where the bytes of a file go to be hashed.
enum Digester {
    Inline(Sha256),
    /// A thread hashing chunks as they are read, so parsing and hashing use two cores.
    Thread {
        chunks: std::sync::mpsc::SyncSender<Vec<u8>>,
        done: std::thread::JoinHandle<Sha256>,
    },
    /// A split scan hashes the file on its own thread, reading it separately.
    Elsewhere,
}

impl Digester {
    fn new(file_bytes: u64) -> Digester {
        if file_bytes < HASH_THREAD_FROM_BYTES {
            return Digester::Inline(Sha256::new());
        }
        let (chunks, received) = std::sync::mpsc::sync_channel::<Vec<u8>>(8);
        let done = std::thread::spawn(move || {
            let mut hasher = Sha256::new();
            for chunk in received {
                hasher.update(&chunk);
            }
            hasher
        });
        Digester::Thread { chunks, done }
    }

    fn update(&mut self, bytes: &[u8]) {
        match self {
            Digester::Inline(hasher) => hasher.update(bytes),
            Digester::Thread { chunks, .. } => {
                // The thread only ends when the sender is dropped, so this cannot fail
                // unless it panicked; `finish` reports that.
                let _ = chunks.send(bytes.to_vec());
            }
            Digester::Elsewhere => {}
        }
    }

    /// The lowercase hex digest; `None` if the hashing thread died (or hashes elsewhere).
    fn finish(self) -> Option<String> {
        let hasher = match self {
            Digester::Inline(hasher) => hasher,
            Digester::Thread { chunks, done } => {
                drop(chunks);
                done.join().ok()?
            }
            Digester::Elsewhere => return None,
        };
        Some(hex(&hasher.finalize()))
    }
}

/// Hashes and counts every byte read through it.
struct HashingReader<R> {
    inner: R,
    digester: Digester,
    bytes: u64,
}

impl<R: Read> Read for HashingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.digester.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }
}

/// Reads a whole file on its own, for a split scan: (hex SHA-256, bytes).
fn hash_file(path: &Path) -> io::Result<(String, u64)> {
    let mut file = File::open(path)?;
    let mut buffer = vec![0; READ_BUFFER_BYTES];
    let mut hasher = Sha256::new();
    let mut bytes = 0;
    loop {
        let n = match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        hasher.update(&buffer[..n]);
        bytes += n as u64;
    }
    Ok((hex(&hasher.finalize()), bytes))
}

/// A cell problem found during the scan, located once the scan is over.
struct PendingProblem {
    severity: Severity,
    line: u64,
    record_byte: u64,
    field: Option<usize>,
    message: String,
    hint: Option<String>,
}

/// Counts problems per (column, kind) so a column full of bad cells does not drown the report.
#[derive(Default)]
struct ProblemCounter {
    counts: HashMap<(usize, &'static str), usize>,
}

impl ProblemCounter {
    /// Whether this problem is among the first few of its kind in its column.
    fn record(&mut self, column: usize, kind: &'static str) -> bool {
        let count = self.counts.entry((column, kind)).or_insert(0);
        *count += 1;
        *count <= ERRORS_SHOWN_PER_COLUMN
    }
}

/// Scans `path` against `columns`. `display` is the path shown in messages.
pub fn scan(
    path: &Path,
    display: &Path,
    columns: &[CompiledColumn],
    source_ids: &HashSet<&str>,
    rows_to_render: u64,
) -> (Option<CsvSummary>, Vec<Diagnostic>) {
    let inputs = ScanInputs {
        columns,
        charts: &[],
        source_ids,
        rows_to_render,
    };
    scan_with_charts(path, display, &inputs)
}

/// What every record of one file is checked against.
struct ScanContext<'a> {
    display: &'a Path,
    inputs: ScanInputs<'a>,
    /// Fields per row: the header's.
    width: usize,
    /// Whether the header matches the columns; cells are only checked when it does.
    header_ok: bool,
    /// Per column: whether the type is its only check (no enum, bounds, pattern or
    /// references), so that a valid cell needs nothing more.
    type_only: Vec<bool>,
}

/// What the records of one stretch of a file told the scan.
struct Records {
    /// Whether the stretch starts at the first data row, so that row numbers are known.
    /// The second half of a split scan does not know how many rows came before it.
    from_start: bool,
    rows: u64,
    pending: Vec<PendingProblem>,
    counter: ProblemCounter,
    /// Problems already located (invalid UTF-8).
    diagnostics: Vec<Diagnostic>,
    unique_seen: Vec<Option<HashMap<u128, u64>>>,
    has_empty_cells: bool,
    /// Second half only: the first row (counted in the half) with an empty cell.
    first_empty_row: Option<u64>,
    longest_cells: Vec<usize>,
    referenced_sources: BTreeSet<String>,
    date_precisions: Vec<u8>,
    charts: Vec<ChartPoints>,
}

impl Records {
    fn new(ctx: &ScanContext, from_start: bool) -> Records {
        Records {
            from_start,
            rows: 0,
            pending: Vec::new(),
            counter: ProblemCounter::default(),
            diagnostics: Vec::new(),
            unique_seen: ctx
                .inputs
                .columns
                .iter()
                .map(|c| c.spec.unique.then(HashMap::new))
                .collect(),
            has_empty_cells: false,
            first_empty_row: None,
            longest_cells: Vec::new(),
            referenced_sources: BTreeSet::new(),
            date_precisions: vec![0; ctx.inputs.columns.len()],
            charts: vec![ChartPoints::default(); ctx.inputs.charts.len()],
        }
    }

    /// Whether anything was found that the report must show.
    fn found_problems(&self) -> bool {
        !self.pending.is_empty() || !self.diagnostics.is_empty() || !self.counter.counts.is_empty()
    }

    /// Checks one record. `record` is handed back as it came (its buffer is reused).
    fn check(&mut self, record: &mut csv::ByteRecord, ctx: &ScanContext) {
        self.rows += 1;
        let position = record
            .position()
            .cloned()
            .unwrap_or_else(csv::Position::new);
        let (line, byte) = (position.line(), position.byte());
        if record.len() != ctx.width {
            if self.counter.record(usize::MAX, "ragged") {
                self.pending.push(PendingProblem {
                    severity: Severity::Error,
                    line,
                    record_byte: byte,
                    field: None,
                    message: format!(
                        "row has {} fields, the header has {}",
                        record.len(),
                        ctx.width
                    ),
                    hint: Some(
                        "every row needs one value per column; quote values that contain commas"
                            .into(),
                    ),
                });
            }
            return;
        }
        if !self.from_start {
            if self.first_empty_row.is_none() && record.iter().any(<[u8]>::is_empty) {
                self.first_empty_row = Some(self.rows);
            }
        } else if self.rows <= ctx.inputs.rows_to_render {
            // What the page's table needs to know about the rows it shows.
            self.has_empty_cells |= record.iter().any(<[u8]>::is_empty);
            if self.rows <= ROWS_MEASURED {
                self.longest_cells.resize(ctx.width, 0);
                for (longest, field) in self.longest_cells.iter_mut().zip(record.iter()) {
                    let chars = String::from_utf8_lossy(field).chars().count();
                    *longest = (*longest).max(chars);
                }
            }
        }
        if !ctx.header_ok {
            return;
        }
        for (chart, points) in ctx.inputs.charts.iter().zip(self.charts.iter_mut()) {
            if let Some(y_column) = ctx.inputs.columns.get(chart.y) {
                chart.collect(record, y_column.spec.column_type, points);
            }
        }
        // UTF-8 is checked once for the whole record; only a bad record is looked at
        // field by field, to say where.
        let text = match csv::StringRecord::from_byte_record(std::mem::take(record)) {
            Ok(text) => text,
            Err(error) => {
                let bytes = error.into_byte_record();
                for (index, field) in bytes.iter().enumerate() {
                    if let (Err(e), Some(column)) =
                        (std::str::from_utf8(field), ctx.inputs.columns.get(index))
                    {
                        if self.counter.record(index, "utf8") {
                            // Exact for unquoted fields: the record's start, the fields and
                            // commas before this one, and the valid bytes of this one.
                            let offset = byte + field_offset(&bytes, index, e.valid_up_to());
                            let d = invalid_utf8(ctx.display, line, offset);
                            self.diagnostics.push(d.with_hint(format!(
                                "column `{}`: save the file as UTF-8",
                                column.spec.name
                            )));
                        }
                    }
                }
                *record = bytes;
                return;
            }
        };
        if crate::text::has_forbidden(text.as_byte_record().as_slice()) {
            self.forbidden_characters(&text, line, byte, ctx);
        }
        for (index, (value, column)) in text.iter().zip(ctx.inputs.columns).enumerate() {
            let column_type = column.spec.column_type;
            // Most cells are non-empty and need only their type checked.
            let problem =
                if ctx.type_only[index] && !value.is_empty() && column_type.is_valid(value) {
                    None
                } else {
                    check_cell(
                        value,
                        column,
                        ctx.inputs.source_ids,
                        &mut self.referenced_sources,
                    )
                };
            if problem.is_none() && column_type == ColumnType::Date && !value.is_empty() {
                self.date_precisions[index] |= DatePrecision::of(value) as u8;
            }
            if let Some((kind, message, hint)) = problem {
                if self.counter.record(index, kind) {
                    self.pending.push(PendingProblem {
                        severity: Severity::Error,
                        line,
                        record_byte: byte,
                        field: Some(index),
                        message,
                        hint,
                    });
                }
            }
            if let Some(seen) = self.unique_seen[index].as_mut() {
                if !value.is_empty() {
                    if let Some(first_line) = seen.get(&fingerprint(value)) {
                        if self.counter.record(index, "unique") {
                            self.pending.push(PendingProblem {
                                severity: Severity::Error,
                                line,
                                record_byte: byte,
                                field: Some(index),
                                message: format!(
                                    "`{}` repeats the value {:?} of line {first_line}, but the column is unique",
                                    column.spec.name, value
                                ),
                                hint: Some("remove the duplicate row or drop `unique = true`".into()),
                            });
                        }
                    } else {
                        seen.insert(fingerprint(value), line);
                    }
                }
            }
        }
        *record = text.into_byte_record();
    }

    /// Cells with characters HTML and XML cannot carry: a warning, since the outputs
    /// replace them (U+FFFD) and the download keeps the file as it is.
    fn forbidden_characters(
        &mut self,
        text: &csv::StringRecord,
        line: u64,
        byte: u64,
        ctx: &ScanContext,
    ) {
        for (index, (value, column)) in text.iter().zip(ctx.inputs.columns).enumerate() {
            let Some(c) = value.chars().find(|c| crate::text::is_forbidden(*c)) else {
                continue;
            };
            if self.counter.record(index, FORBIDDEN_KIND) {
                self.pending.push(PendingProblem {
                    severity: Severity::Warning,
                    line,
                    record_byte: byte,
                    field: Some(index),
                    message: format!(
                        "`{}` holds {}, a character HTML and XML cannot carry",
                        column.spec.name,
                        crate::text::describe_char(c)
                    ),
                    hint: Some("pages, charts and feeds show it as \u{fffd} and the download keeps it; remove it if the export put it there".into()),
                });
            }
        }
    }

    /// Adds the second half of a split scan, if the result is exactly what one pass over
    /// the whole file would have found; otherwise returns false and changes nothing.
    fn absorb(&mut self, tail: Records, ctx: &ScanContext) -> bool {
        // The first half must cover every row whose details the page needs.
        let needs_rows = ctx.inputs.rows_to_render.min(ROWS_MEASURED);
        let unique_overlap = self
            .unique_seen
            .iter()
            .zip(&tail.unique_seen)
            .any(|(head, tail)| match (head, tail) {
                (Some(head), Some(tail)) => tail.keys().any(|key| head.contains_key(key)),
                _ => false,
            });
        if tail.found_problems() || unique_overlap || self.rows < needs_rows {
            return false;
        }
        if let Some(row) = tail.first_empty_row {
            self.has_empty_cells |= self.rows.saturating_add(row) <= ctx.inputs.rows_to_render;
        }
        self.rows += tail.rows;
        self.referenced_sources.extend(tail.referenced_sources);
        for (mine, theirs) in self.date_precisions.iter_mut().zip(tail.date_precisions) {
            *mine |= theirs;
        }
        for (mine, theirs) in self.charts.iter_mut().zip(tail.charts) {
            mine.missing += theirs.missing;
            mine.dropped += theirs.dropped;
            for point in theirs.points {
                if mine.points.len() < CHART_POINTS_CAP {
                    mine.points.push(point);
                } else {
                    mine.dropped += 1;
                }
            }
        }
        #[cfg(test)]
        HALVES_JOINED.with(|n| n.set(n.get() + 1));
        true
    }
}

#[cfg(test)]
thread_local! {
    /// Split scans whose halves were put together, so tests can tell them from one pass.
    static HALVES_JOINED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Where a split scan cuts the file: just after the first line end past the middle.
struct Split {
    /// The byte where the second half starts.
    at: u64,
    /// Whether the line ends with `\r\n` (the parser ends a record at the `\r`).
    crlf: bool,
}

impl Split {
    /// Where to cut a file of `file_bytes`, if it has `from_bytes` or more.
    fn find(path: &Path, file_bytes: u64, from_bytes: Option<u64>) -> Option<Split> {
        if from_bytes.is_none_or(|from| file_bytes < from) || file_bytes < 4 {
            return None;
        }
        let from = file_bytes / 2 - 1;
        let mut file = File::open(path).ok()?;
        file.seek(SeekFrom::Start(from)).ok()?;
        let mut window = vec![0; SPLIT_SEARCH_BYTES];
        let mut filled = 0;
        while filled < window.len() {
            match file.read(&mut window[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return None,
            }
        }
        // window[0] is the byte before the middle, so a `\r` before the first `\n` is seen.
        let newline = window[1..filled].iter().position(|&b| b == b'\n')? + 1;
        Some(Split {
            at: from + newline as u64 + 1,
            crlf: window[newline - 1] == b'\r',
        })
    }

    /// Whether a parser that has read everything before `position` is exactly where the
    /// second half starts: between records.
    fn reached(&self, position: u64) -> bool {
        position == self.at || (self.crlf && position + 1 == self.at)
    }
}

/// The second half of a split scan: every record from `split.at` to the end. Stops early
/// (returning what it has, which [`Records::absorb`] then refuses) at the first problem or
/// when the first half asks it to.
fn scan_tail(
    path: &Path,
    split_at: u64,
    ctx: &ScanContext,
    cancelled: &std::sync::atomic::AtomicBool,
) -> Option<Records> {
    let mut file = File::open(path).ok()?;
    file.seek(SeekFrom::Start(split_at)).ok()?;
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .has_headers(false)
        .buffer_capacity(READ_BUFFER_BYTES)
        .from_reader(file);
    let mut records = Records::new(ctx, false);
    let mut record = csv::ByteRecord::new();
    loop {
        match reader.read_byte_record(&mut record) {
            Ok(true) => {}
            Ok(false) => return Some(records),
            Err(_) => return None,
        }
        records.check(&mut record, ctx);
        if records.found_problems()
            || (records.rows.is_multiple_of(4096)
                && cancelled.load(std::sync::atomic::Ordering::Relaxed))
        {
            return None;
        }
    }
}

/// [`scan`] that also collects the points of `charts` in the same pass.
///
/// A file of [`SPLIT_FROM_BYTES`] or more is checked by two threads at once: this one from
/// the start, another from the first line end past the middle, while a third hashes it. The
/// halves are put together only when that is provably what one pass would have found: the
/// first half's parser must arrive exactly where the second half started (so the cut was not
/// inside a quoted field), the second half must have found no problem at all (so every
/// message, line number and count comes from one pass), `unique` values must not repeat
/// across the halves, and the first half must hold every row whose details the page needs.
/// Otherwise the first half simply reads on to the end, as a single pass.
pub fn scan_with_charts(
    path: &Path,
    display: &Path,
    inputs: &ScanInputs,
) -> (Option<CsvSummary>, Vec<Diagnostic>) {
    let two_cores = std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2);
    scan_file(path, display, inputs, two_cores.then_some(SPLIT_FROM_BYTES))
}

/// What the scan of a file depends on besides the file (the scan cache's key includes it).
#[derive(Clone, Copy)]
pub struct ScanInputs<'a> {
    pub columns: &'a [CompiledColumn<'a>],
    pub charts: &'a [ChartColumns],
    pub source_ids: &'a HashSet<&'a str>,
    /// Rows the page's table shows.
    pub rows_to_render: u64,
}

/// The scan; files of `split_from` bytes or more are checked in two halves at once.
fn scan_file(
    path: &Path,
    display: &Path,
    inputs: &ScanInputs,
    split_from: Option<u64>,
) -> (Option<CsvSummary>, Vec<Diagnostic>) {
    let columns = inputs.columns;
    let mut diagnostics = Vec::new();
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) => {
            let d = Diagnostic::error(display, format!("cannot open the CSV file: {e}"))
                .with_hint("check the `data` path in the front matter, or put the file at data/datasets/<slug>.csv");
            return (None, vec![d]);
        }
    };
    let metadata = file.metadata().ok();
    let file_bytes = metadata.as_ref().map(|m| m.len()).unwrap_or(0);
    let stamp = metadata.as_ref().and_then(FileStamp::from_metadata);
    let modified = metadata.and_then(|m| m.modified().ok());
    let split = Split::find(path, file_bytes, split_from);
    // Decided before the header is read: the hashing thread reads the file on its own.
    let hash_separately = split.is_some();
    let mut hashing = HashingReader {
        inner: file,
        digester: if hash_separately {
            Digester::Elsewhere
        } else {
            Digester::new(file_bytes)
        },
        bytes: 0,
    };
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .has_headers(false)
        .buffer_capacity(READ_BUFFER_BYTES)
        .from_reader(&mut hashing);
    let mut record = csv::ByteRecord::new();
    let mut summary = CsvSummary::default();

    // The header.
    match reader.read_byte_record(&mut record) {
        Ok(false) => {
            diagnostics.push(
                Diagnostic::error(display, "the CSV file is empty").with_hint(
                    "the first line must be the header: the column names, separated by commas",
                ),
            );
            return (None, diagnostics);
        }
        Err(e) => {
            diagnostics.push(csv_error(display, &e));
            return (None, diagnostics);
        }
        Ok(true) => {}
    }
    for (index, field) in record.iter().enumerate() {
        match std::str::from_utf8(field) {
            Ok(name) => summary.header.push(strip_bom(index, name).to_string()),
            Err(e) => {
                let offset = field_offset(&record, index, e.valid_up_to());
                diagnostics.push(invalid_utf8(display, 1, offset));
                summary
                    .header
                    .push(String::from_utf8_lossy(field).into_owned());
            }
        }
    }
    let header_ok = check_header(display, &summary.header, columns, &mut diagnostics);
    let ctx = ScanContext {
        display,
        inputs: *inputs,
        width: summary.header.len(),
        header_ok,
        type_only: columns
            .iter()
            .map(|c| {
                let spec = c.spec;
                spec.enum_values.is_none()
                    && spec.minimum.is_none()
                    && spec.maximum.is_none()
                    && c.pattern.is_none()
                    && !spec.references_sources()
            })
            .collect(),
    };
    // A split only pays when the header was read within the first half.
    let split = split.filter(|s| reader.position().byte() < s.at);
    let mut records = Records::new(&ctx, true);
    let cancelled = std::sync::atomic::AtomicBool::new(false);
    let hashed = std::thread::scope(|scope| {
        let mut second_half = split.as_ref().map(|s| {
            let (ctx, cancelled) = (&ctx, &cancelled);
            scope.spawn(move || scan_tail(path, s.at, ctx, cancelled))
        });
        let hashing_thread = hash_separately.then(|| scope.spawn(|| hash_file(path)));
        loop {
            if let (Some(split), Some(_)) = (&split, &second_half) {
                let position = reader.position().byte();
                if split.reached(position) {
                    let tail = second_half.take().and_then(|h| h.join().ok()).flatten();
                    if tail.is_some_and(|tail| records.absorb(tail, &ctx)) {
                        break;
                    }
                } else if position > split.at {
                    // The cut fell inside a quoted field: read on as one pass.
                    cancelled.store(true, std::sync::atomic::Ordering::Relaxed);
                    second_half = None;
                }
            }
            match reader.read_byte_record(&mut record) {
                Ok(false) => break,
                Ok(true) => {}
                Err(e) => {
                    diagnostics.push(csv_error(display, &e));
                    break;
                }
            }
            records.check(&mut record, &ctx);
        }
        cancelled.store(true, std::sync::atomic::Ordering::Relaxed);
        hashing_thread.map(|h| h.join().ok().and_then(Result::ok))
    });
    drop(reader);
    let digest = match hashed {
        Some(hashed) => hashed,
        None => {
            let bytes = hashing.bytes;
            hashing.digester.finish().map(|digest| (digest, bytes))
        }
    };
    match digest {
        Some((digest, bytes)) => {
            summary.sha256 = digest;
            summary.bytes = bytes;
        }
        None => {
            diagnostics.push(Diagnostic::error(display, "hashing the CSV file failed"));
            return (None, diagnostics);
        }
    }
    summary.modified = modified;
    summary.stamp = stamp;
    summary.rows = records.rows;
    summary.has_empty_cells = records.has_empty_cells;
    summary.longest_cells = records.longest_cells;
    summary.referenced_sources = records.referenced_sources;
    summary.date_precisions = records.date_precisions;
    summary.charts = records.charts;
    diagnostics.extend(records.diagnostics);

    if summary.rows == 0 {
        diagnostics.push(
            Diagnostic::warning(display, "the CSV file has a header but no rows")
                .at_line(1)
                .with_hint("add the data rows, or remove the dataset until it has some"),
        );
    }
    diagnostics.extend(locate(path, display, records.pending));
    for (chart, points) in inputs.charts.iter().zip(&summary.charts) {
        if points.dropped > 0 {
            let (mut cap, mut total) = (String::new(), String::new());
            format_cell(ColumnType::Integer, &CHART_POINTS_CAP.to_string(), &mut cap);
            let count = points.points.len() as u64 + points.dropped;
            format_cell(ColumnType::Integer, &count.to_string(), &mut total);
            diagnostics.push(
                Diagnostic::warning(
                    display,
                    format!(
                        "chart `{}` draws only the first {cap} of {total} points",
                        chart.id
                    ),
                )
                .with_hint("narrow the chart with `filter = { column = [\"value\"] }`"),
            );
        }
    }
    for ((column, kind), count) in records.counter.counts {
        if count > ERRORS_SHOWN_PER_COLUMN {
            let name = if column == usize::MAX {
                "rows".to_string()
            } else {
                format!("column `{}`", columns[column].spec.name)
            };
            let severity = if kind == FORBIDDEN_KIND {
                Severity::Warning
            } else {
                Severity::Error
            };
            diagnostics.push(
                Diagnostic::error(
                    display,
                    format!(
                        "{} more {kind} problems in {name} not shown",
                        count - ERRORS_SHOWN_PER_COLUMN
                    ),
                )
                .with_severity(severity),
            );
        }
    }
    (Some(summary), diagnostics)
}

/// A 128-bit fingerprint of a cell for `unique` checks: 24 bytes a row whatever the cell's
/// length, with a chance of a false duplicate around 1e-26 at a million rows.
fn fingerprint(value: &str) -> u128 {
    use std::hash::{Hash, Hasher};
    let mut first = std::hash::DefaultHasher::new();
    value.hash(&mut first);
    let mut second = std::hash::DefaultHasher::new();
    (0x9e37_79b9_7f4a_7c15_u64, value).hash(&mut second);
    (u128::from(first.finish()) << 64) | u128::from(second.finish())
}

fn strip_bom(index: usize, name: &str) -> &str {
    if index == 0 {
        name.strip_prefix('\u{feff}').unwrap_or(name)
    } else {
        name
    }
}

/// Checks one cell; returns (kind, message, hint) of the first problem.
fn check_cell(
    value: &str,
    column: &CompiledColumn,
    source_ids: &HashSet<&str>,
    referenced: &mut BTreeSet<String>,
) -> Option<(&'static str, String, Option<String>)> {
    let spec = column.spec;
    if value.is_empty() {
        return spec.required.then(|| {
            (
                "required",
                format!("`{}` is empty, but the column is required", spec.name),
                Some(
                    "fill in the value, or drop `required = true` if the column may be blank"
                        .into(),
                ),
            )
        });
    }
    if let Err(expected) = spec.column_type.check(value) {
        return Some((
            "type",
            format!(
                "`{}` is declared {}, but {:?} is not",
                spec.name,
                spec.column_type.as_str(),
                value
            ),
            Some(format!("write {expected}, or leave the cell empty")),
        ));
    }
    if let Some(allowed) = &spec.enum_values {
        if !allowed.iter().any(|a| a == value) {
            let near = did_you_mean(value, allowed.iter().map(String::as_str));
            let hint = match near {
                Some(n) => format!("did you mean {n:?}? allowed: {}", allowed.join(", ")),
                None => format!("allowed: {}", allowed.join(", ")),
            };
            return Some((
                "enum",
                format!("`{}` does not allow {:?}", spec.name, value),
                Some(hint),
            ));
        }
    }
    for (bound, is_min) in [(&spec.minimum, true), (&spec.maximum, false)] {
        if let Some(bound) = bound {
            if let Some(ordering) = compare_to_bound(spec.column_type, value, bound) {
                let out_of_range = if is_min {
                    ordering.is_lt()
                } else {
                    ordering.is_gt()
                };
                if out_of_range {
                    let word = if is_min { "minimum" } else { "maximum" };
                    return Some((
                        "range",
                        format!("`{}` value {value} is beyond the {word} {bound}", spec.name),
                        Some(format!(
                            "check the figure, or change `{word}` in the front matter"
                        )),
                    ));
                }
            }
        }
    }
    if let Some(pattern) = &column.pattern {
        if !pattern.is_match(value) {
            return Some((
                "pattern",
                format!(
                    "`{}` value {:?} does not match the pattern {}",
                    spec.name,
                    value,
                    spec.pattern.as_deref().unwrap_or_default()
                ),
                None,
            ));
        }
    }
    if spec.references_sources() {
        if source_ids.contains(value) {
            referenced.insert(value.to_string());
        } else {
            let near = did_you_mean(value, source_ids.iter().copied());
            let hint = match near {
                Some(n) => format!("did you mean {n:?}?"),
                None => "add a [[sources]] entry with this id to the front matter".to_string(),
            };
            return Some((
                "reference",
                format!(
                    "`{}` names the source {:?}, which is not defined",
                    spec.name, value
                ),
                Some(hint),
            ));
        }
    }
    None
}

/// Compares the CSV header to the documented columns; false when cells cannot be checked.
fn check_header(
    display: &Path,
    header: &[String],
    columns: &[CompiledColumn],
    out: &mut Vec<Diagnostic>,
) -> bool {
    let header_line = header.join(",");
    let at = |index: usize| {
        let column = header[..index]
            .iter()
            .map(|h| h.chars().count() + 1)
            .sum::<usize>()
            + 1;
        (1, column)
    };
    let mut ok = true;
    let mut seen = HashSet::new();
    for (index, name) in header.iter().enumerate() {
        let (line, column) = at(index);
        if name.trim().is_empty() {
            ok = false;
            out.push(
                Diagnostic::error(
                    display,
                    format!("column {} of the header has no name", index + 1),
                )
                .at(line, column)
                .with_source_line(&header_line)
                .with_hint("name every column in the first line"),
            );
        } else if !seen.insert(name.as_str()) {
            ok = false;
            out.push(
                Diagnostic::error(display, format!("the header names `{name}` twice"))
                    .at(line, column)
                    .with_source_line(&header_line)
                    .with_hint("give each column its own name"),
            );
        }
    }
    let documented: Vec<&str> = columns.iter().map(|c| c.spec.name.as_str()).collect();
    let documented_set: HashSet<&str> = documented.iter().copied().collect();
    for (index, name) in header.iter().enumerate() {
        if !name.trim().is_empty() && !documented_set.contains(name.as_str()) {
            ok = false;
            let (line, column) = at(index);
            let missing: Vec<&str> = documented
                .iter()
                .copied()
                .filter(|d| !header.iter().any(|h| h == d))
                .collect();
            let hint = match did_you_mean(name, missing.iter().copied()) {
                Some(near) => format!("did you mean `{near}`? the front matter documents `{near}`"),
                None => {
                    "document the column in the front matter with a [[columns]] entry, or remove it"
                        .into()
                }
            };
            out.push(
                Diagnostic::error(
                    display,
                    format!("column `{name}` is in the CSV but not documented"),
                )
                .at(line, column)
                .with_source_line(&header_line)
                .with_hint(hint),
            );
        }
    }
    for name in &documented {
        if !header.iter().any(|h| h == name) {
            ok = false;
            let extra: Vec<&str> = header
                .iter()
                .map(String::as_str)
                .filter(|h| !documented_set.contains(h))
                .collect();
            let hint = match did_you_mean(name, extra.iter().copied()) {
                Some(near) => format!("did you mean `{near}`? the CSV header has `{near}`"),
                None => "add the column to the CSV, or remove its [[columns]] entry".into(),
            };
            out.push(
                Diagnostic::error(
                    display,
                    format!("documented column `{name}` is missing from the CSV header"),
                )
                .at(1, 1)
                .with_source_line(&header_line)
                .with_hint(hint),
            );
        }
    }
    if ok
        && header
            .iter()
            .map(String::as_str)
            .ne(documented.iter().copied())
    {
        ok = false;
        out.push(
            Diagnostic::error(
                display,
                "the columns are documented in a different order than the CSV header",
            )
            .at(1, 1)
            .with_source_line(&header_line)
            .with_hint(format!(
                "list the [[columns]] in CSV order: {}",
                header.join(", ")
            )),
        );
    }
    ok
}

fn csv_error(display: &Path, error: &csv::Error) -> Diagnostic {
    let mut d = Diagnostic::error(display, format!("cannot read the CSV: {error}"));
    if let Some(position) = error.position() {
        d = d.at_line(position.line() as usize);
    }
    d
}

fn invalid_utf8(display: &Path, line: u64, byte_offset: u64) -> Diagnostic {
    Diagnostic::error(
        display,
        format!("invalid UTF-8 on line {line}, at byte offset {byte_offset}"),
    )
    .at_line(line as usize)
    .with_hint("save the file as UTF-8")
}

/// Byte offset within a record's line of `valid_up_to` bytes into field `index`.
fn field_offset(record: &csv::ByteRecord, index: usize, valid_up_to: usize) -> u64 {
    (record.range(index).map_or(0, |r| r.start) + index + valid_up_to) as u64
}

/// Turns pending problems into diagnostics with the source line and the column of the cell.
fn locate(path: &Path, display: &Path, pending: Vec<PendingProblem>) -> Vec<Diagnostic> {
    let mut file = File::open(path).ok().map(BufReader::new);
    pending
        .into_iter()
        .map(|problem| {
            let mut d = Diagnostic::error(PathBuf::from(display), problem.message)
                .with_severity(problem.severity)
                .at_line(problem.line as usize);
            if let Some(text) = file
                .as_mut()
                .and_then(|f| read_line_at(f, problem.record_byte))
            {
                let column = problem
                    .field
                    .and_then(|field| field_column(&text, field))
                    .unwrap_or(1);
                d = d.at(problem.line as usize, column).with_source_line(text);
            }
            if let Some(hint) = problem.hint {
                d = d.with_hint(hint);
            }
            d
        })
        .collect()
}

fn read_line_at(file: &mut BufReader<File>, byte: u64) -> Option<String> {
    file.seek(SeekFrom::Start(byte)).ok()?;
    let mut raw = Vec::new();
    file.read_until(b'\n', &mut raw).ok()?;
    let text = String::from_utf8_lossy(&raw);
    Some(text.trim_end_matches(['\n', '\r']).to_string())
}

/// The 1-based character column where field `field` starts on a CSV line (quote-aware).
fn field_column(line: &str, field: usize) -> Option<usize> {
    if field == 0 {
        return Some(1);
    }
    let mut in_quotes = false;
    let mut seen = 0;
    for (column, c) in line.chars().enumerate() {
        match c {
            '"' => in_quotes = !in_quotes,
            ',' if !in_quotes => {
                seen += 1;
                if seen == field {
                    return Some(column + 2);
                }
            }
            _ => {}
        }
    }
    None
}

/// Lowercase hexadecimal, as digests are written in metadata.
pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// Streams every table row of `path` (skipping the header) into `out`; used for pages that
/// show more rows than the scan keeps in memory.
pub fn stream_rows(
    path: &Path,
    renderer: &RowRenderer,
    limit: u64,
    out: &mut impl Write,
) -> io::Result<()> {
    let file = File::open(path)?;
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .has_headers(true)
        .buffer_capacity(64 * 1024)
        .from_reader(file);
    let mut record = csv::ByteRecord::new();
    let mut chunk = String::with_capacity(64 * 1024);
    let mut written = 0;
    while written < limit
        && reader
            .read_byte_record(&mut record)
            .map_err(io::Error::other)?
    {
        renderer.render(&record, &mut chunk);
        written += 1;
        if chunk.len() > 60 * 1024 {
            out.write_all(chunk.as_bytes())?;
            chunk.clear();
        }
    }
    out.write_all(chunk.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::schema::ColumnSpec;

    fn column(name: &str, t: &str, extra: &str) -> ColumnSpec {
        toml::from_str(&format!(
            "name = \"{name}\"\ntitle = \"{name}\"\ntype = \"{t}\"\ndescription = \"d\"\n{extra}"
        ))
        .unwrap()
    }

    fn run(csv: &[u8], specs: &[ColumnSpec]) -> (Option<CsvSummary>, Vec<Diagnostic>) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        std::fs::write(&path, csv).unwrap();
        let compiled: Vec<CompiledColumn> = specs
            .iter()
            .map(|spec| CompiledColumn {
                spec,
                pattern: spec
                    .pattern
                    .as_ref()
                    .map(|p| Regex::new(&format!("^(?:{p})$")).unwrap()),
            })
            .collect();
        let ids: HashSet<&str> = ["src-a"].into_iter().collect();
        scan(&path, Path::new("t.csv"), &compiled, &ids, 100)
    }

    #[test]
    fn counts_hashes_and_renders() {
        let specs = [column("a", "string", ""), column("n", "integer", "")];
        let (summary, problems) = run(b"a,n\nx,10366\n<b>,\n", &specs);
        let summary = summary.unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(summary.rows, 2);
        assert_eq!(summary.bytes, 17);
        assert_eq!(summary.sha256.len(), 64);
        assert!(summary.has_empty_cells);
        let html = rendered(b"a,n\nx,10366\n<b>,\n", &specs);
        assert!(html.contains("<td class=\"num\">10,366</td>"), "{html}");
        assert!(
            html.contains("<td>&lt;b&gt;</td><td class=\"empty\">—</td>"),
            "{html}"
        );
    }

    fn rendered(csv: &[u8], specs: &[ColumnSpec]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        std::fs::write(&path, csv).unwrap();
        let mut out = Vec::new();
        stream_rows(&path, &RowRenderer::new(specs), u64::MAX, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn rows_render_escaped_and_grouped() {
        let specs = [
            column("s", "string", ""),
            column("n", "number", ""),
            column("r", "string", "references = \"sources\""),
        ];
        let html = rendered(
            b"s,n,r\n\"a&'\\\"\"\",-1234567.50,src-a\nz,2.5e3,\n",
            &specs,
        );
        assert!(html.contains("<td>a&amp;&#39;\\&quot;</td>"), "{html}");
        assert!(
            html.contains("<td class=\"num\">-1,234,567.50</td>"),
            "{html}"
        );
        assert!(
            html.contains("<td><a href=\"#source-src-a\">src-a</a></td>"),
            "{html}"
        );
        assert!(html.contains("<td class=\"num\">2.5e3</td>"), "{html}");
        assert_eq!(
            rendered(b"s,n,r\na,1,b\nc,2,d\n", &specs)
                .matches("<tr>")
                .count(),
            2
        );
    }

    #[test]
    fn bom_crlf_and_quoted_newlines_are_accepted() {
        let specs = [column("a", "string", ""), column("b", "number", "")];
        let (summary, problems) = run(b"\xef\xbb\xbfa,b\r\n\"x, \"\"y\"\"\nz\",1.5\r\n", &specs);
        assert!(problems.is_empty(), "{problems:?}");
        let summary = summary.unwrap();
        assert_eq!(summary.header, ["a", "b"]);
        assert_eq!(summary.rows, 1);
        let html = rendered(b"\xef\xbb\xbfa,b\r\n\"x, \"\"y\"\"\nz\",1.5\r\n", &specs);
        assert!(html.contains("x, &quot;y&quot;\nz"), "{html}");
    }

    #[test]
    fn forbidden_characters_in_cells_are_warnings_and_never_rendered() {
        let specs = [column("a", "string", ""), column("b", "string", "")];
        let csv = b"a,b\nok,\"tab\there\nnew line\"\nx\x1b[31m,\x00\n\xc2\x85,\xef\xbf\xbe\n";
        let (summary, problems) = run(csv, &specs);
        assert_eq!(summary.unwrap().rows, 3);
        let found: Vec<(Option<u32>, Option<u32>, &str)> = problems
            .iter()
            .map(|d| (d.line, d.column, d.message.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                (
                    Some(4),
                    Some(1),
                    "`a` holds U+001B (ESC), a character HTML and XML cannot carry"
                ),
                (
                    Some(4),
                    Some(8),
                    "`b` holds U+0000 (NUL), a character HTML and XML cannot carry"
                ),
                (
                    Some(5),
                    Some(1),
                    "`a` holds U+0085 (C1 control), a character HTML and XML cannot carry"
                ),
                (
                    Some(5),
                    Some(3),
                    "`b` holds U+FFFE (noncharacter), a character HTML and XML cannot carry"
                ),
            ]
        );
        assert!(problems
            .iter()
            .all(|d| d.severity == crate::diagnostics::Severity::Warning));
        let html = rendered(csv, &specs);
        assert!(!html.chars().any(crate::text::is_forbidden), "{html:?}");
        assert!(
            html.contains("<td>x\u{fffd}[31m</td><td>\u{fffd}</td>"),
            "{html:?}"
        );
    }

    #[test]
    fn type_errors_name_line_column_and_value() {
        let specs = [column("a", "string", ""), column("n", "integer", "")];
        let (_, problems) = run(b"a,n\nx,1\ny,1.5\n", &specs);
        assert_eq!(problems.len(), 1, "{problems:?}");
        let p = &problems[0];
        assert_eq!((p.line, p.column), (Some(3), Some(3)));
        assert!(
            p.message
                .contains("`n` is declared integer, but \"1.5\" is not"),
            "{}",
            p.message
        );
        assert_eq!(p.source_line.as_deref(), Some("y,1.5"));
    }

    #[test]
    fn ragged_rows_say_expected_and_found() {
        let specs = [column("a", "string", ""), column("b", "string", "")];
        let (_, problems) = run(b"a,b\nx\n", &specs);
        assert_eq!(problems[0].line, Some(2));
        assert!(problems[0]
            .message
            .contains("row has 1 fields, the header has 2"));
    }

    #[test]
    fn constraints_are_checked() {
        let specs = [
            column(
                "k",
                "string",
                "required = true\nunique = true\nenum = [\"SATA\", \"SAS\"]",
            ),
            column("v", "number", "minimum = 0\nmaximum = 10"),
            column("p", "string", "pattern = \"[0-9]+K\""),
            column("s", "string", "references = \"sources\""),
        ];
        let (summary, problems) = run(
            b"k,v,p,s\nSATA,1,32K,src-a\nSATA,11,32,src-b\nSAT,-1,1K,src-a\n,5,2K,src-a\n",
            &specs,
        );
        let messages: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
        let text = messages.join("\n");
        assert!(
            text.contains("repeats the value \"SATA\" of line 2"),
            "{text}"
        );
        assert!(text.contains("beyond the maximum 10"), "{text}");
        assert!(text.contains("beyond the minimum 0"), "{text}");
        assert!(text.contains("does not match the pattern"), "{text}");
        assert!(text.contains("names the source \"src-b\""), "{text}");
        assert!(text.contains("does not allow \"SAT\""), "{text}");
        assert!(
            text.contains("`k` is empty, but the column is required"),
            "{text}"
        );
        assert_eq!(
            summary
                .unwrap()
                .referenced_sources
                .into_iter()
                .collect::<Vec<_>>(),
            ["src-a"]
        );
    }

    #[test]
    fn header_mismatches_are_reported_with_near_misses() {
        let specs = [column("alpha", "string", ""), column("beta", "string", "")];
        let (_, problems) = run(b"alpha,betta,gamma\n1,2,3\n", &specs);
        let text: Vec<String> = problems
            .iter()
            .map(|p| format!("{} | {:?}", p.message, p.hint))
            .collect();
        let text = text.join("\n");
        assert!(
            text.contains("column `betta` is in the CSV but not documented"),
            "{text}"
        );
        assert!(text.contains("did you mean `beta`"), "{text}");
        assert!(
            text.contains("column `gamma` is in the CSV but not documented"),
            "{text}"
        );
        assert!(
            text.contains("documented column `beta` is missing"),
            "{text}"
        );
    }

    #[test]
    fn empty_and_header_only_files() {
        let specs = [column("a", "string", "")];
        let (summary, problems) = run(b"", &specs);
        assert!(summary.is_none());
        assert!(problems[0].message.contains("empty"));
        let (_, problems) = run(b"a\n", &specs);
        assert_eq!(problems[0].severity, crate::diagnostics::Severity::Warning);
    }

    #[test]
    fn invalid_utf8_is_located() {
        let specs = [column("a", "string", "")];
        let (_, problems) = run(b"a\nok\nbad\xff\n", &specs);
        assert_eq!(problems[0].line, Some(3));
        assert!(problems[0].message.contains("invalid UTF-8"));
    }

    #[test]
    fn problems_are_capped_per_column() {
        let specs = [column("n", "integer", "")];
        let mut csv = b"n\n".to_vec();
        for _ in 0..20 {
            csv.extend_from_slice(b"x\n");
        }
        let (_, problems) = run(&csv, &specs);
        assert_eq!(problems.len(), ERRORS_SHOWN_PER_COLUMN + 1);
        assert!(problems
            .last()
            .unwrap()
            .message
            .contains("15 more type problems in column `n`"));
    }

    #[test]
    fn charts_collect_filtered_points_in_the_same_pass() {
        let specs = [
            column("k", "string", ""),
            column("s", "string", ""),
            column("v", "number", ""),
        ];
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        let mut csv = String::from("k,s,v\nx,a,10366\nx,b,\ny,a,1.5\nz,a,2\n");
        for _ in 0..CHART_POINTS_CAP {
            csv.push_str("w,a,1\n");
        }
        std::fs::write(&path, csv).unwrap();
        let compiled = CompiledColumn::without_patterns(&specs);
        let filtered = ChartColumns {
            id: "filtered".into(),
            x: 0,
            y: 2,
            series: Some(1),
            filter: vec![(0, vec!["x".into(), "y".into()])],
        };
        let all = ChartColumns {
            id: "all".into(),
            x: 0,
            y: 2,
            series: None,
            filter: Vec::new(),
        };
        let charts = [filtered, all];
        let ids = HashSet::new();
        let inputs = ScanInputs {
            columns: &compiled,
            charts: &charts,
            source_ids: &ids,
            rows_to_render: 10,
        };
        let (summary, problems) = scan_with_charts(&path, Path::new("t.csv"), &inputs);
        let (split, split_problems) = scan_file(&path, Path::new("t.csv"), &inputs, Some(0));
        assert_eq!(
            split_problems, problems,
            "the halves put together say the same"
        );
        let summary = summary.unwrap();
        assert_eq!(split.unwrap().charts, summary.charts);
        let first = &summary.charts[0];
        assert_eq!(first.points.len(), 2);
        assert_eq!(first.points[0].y_text, "10,366");
        assert_eq!(first.points[0].series.as_deref(), Some("a"));
        assert_eq!(first.points[1].y, 1.5);
        assert_eq!(first.missing, 1);
        let second = &summary.charts[1];
        assert_eq!(second.points.len(), CHART_POINTS_CAP);
        assert_eq!(second.dropped, 3);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0]
            .message
            .contains("chart `all` draws only the first 5,000 of 5,003 points"));
    }

    #[test]
    fn field_columns_respect_quotes() {
        assert_eq!(field_column("a,\"b,c\",d", 2), Some(9));
        assert_eq!(field_column("a,b", 5), None);
    }

    /// Everything a scan reports, for comparing a split scan with a single pass.
    fn report(result: (Option<CsvSummary>, Vec<Diagnostic>)) -> String {
        let (summary, mut problems) = result;
        // The "more problems not shown" lines come in no particular order.
        problems.sort_by_key(|d| format!("{d:?}"));
        let summary = summary.map(|s| {
            (
                s.header,
                s.rows,
                s.bytes,
                s.sha256,
                s.has_empty_cells,
                s.referenced_sources,
                s.date_precisions,
                s.longest_cells,
                s.charts,
            )
        });
        format!("{summary:?}\n{problems:#?}")
    }

    /// The scan of `csv` in one pass and split in the middle must report the same. Returns
    /// whether the split scan put two halves together (rather than reading on as one pass).
    fn assert_split_agrees(csv: &[u8], rows_to_render: u64) -> bool {
        let specs = [
            column("id", "integer", "unique = true"),
            column("v", "number", "minimum = 0"),
            column("when", "date", ""),
            column("src", "string", "references = \"sources\""),
            column("note", "string", ""),
        ];
        let compiled = CompiledColumn::without_patterns(&specs);
        let charts = [ChartColumns {
            id: "v".into(),
            x: 0,
            y: 1,
            series: None,
            filter: Vec::new(),
        }];
        let ids: HashSet<&str> = ["a", "b"].into_iter().collect();
        let inputs = ScanInputs {
            columns: &compiled,
            charts: &charts,
            source_ids: &ids,
            rows_to_render,
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        std::fs::write(&path, csv).unwrap();
        let display = Path::new("t.csv");
        let one_pass = report(scan_file(&path, display, &inputs, None));
        let joined_before = HALVES_JOINED.with(|n| n.get());
        let split = report(scan_file(&path, display, &inputs, Some(0)));
        assert_eq!(split, one_pass, "{}", String::from_utf8_lossy(csv));
        HALVES_JOINED.with(|n| n.get()) > joined_before
    }

    #[test]
    fn clean_halves_are_put_together() {
        let rows = |count: usize| {
            let mut csv = String::from("id,v,when,src,note\n");
            for i in 0..count {
                let v = if i % 7 == 0 {
                    String::new()
                } else {
                    format!("{}.{}", i % 97, i % 10)
                };
                csv.push_str(&format!(
                    "{i},{v},2021-{:02},a,\"row {i}, quoted\"\n",
                    i % 12 + 1
                ));
            }
            csv.into_bytes()
        };
        assert!(
            assert_split_agrees(&rows(3000), 1000),
            "the halves were joined"
        );
        assert!(
            assert_split_agrees(&rows(3000), 1),
            "the halves were joined"
        );
        assert!(
            assert_split_agrees(&rows(12_000), u64::MAX),
            "the halves were joined"
        );
        // With every row shown, the page measures the first 5,000 rows, which the first
        // half of 3,000 rows does not hold: one pass instead.
        assert!(!assert_split_agrees(&rows(3000), u64::MAX));
    }

    #[test]
    fn a_cut_inside_a_quoted_field_reads_on_as_one_pass() {
        let mut csv = String::from("id,v,when,src,note\r\n");
        for i in 0..40 {
            csv.push_str(&format!("{i},{i}.5,2021-0{},a,plain\r\n", i % 9 + 1));
        }
        // A note of many lines straddles the middle of the file.
        let lines: String = (0..200).map(|i| format!("line {i}\n")).collect();
        csv.push_str(&format!("40,1,2021,b,\"{lines}\"\r\n"));
        for i in 41..80 {
            csv.push_str(&format!("{i},{i},2021-05,a,\"x, y\"\r\n"));
        }
        assert!(!assert_split_agrees(csv.as_bytes(), 1000));
        assert!(!assert_split_agrees(csv.as_bytes(), 3));
        // And with a problem in the second half, and a duplicate across the halves.
        let broken = csv.replace("79,79,", "79,-4,").replace("78,78", "3,78");
        assert!(!assert_split_agrees(broken.as_bytes(), 1000));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, ..Default::default() })]

        /// Rows drawn from good and bad cells, quoted commas and newlines, blank lines,
        /// ragged rows, CRLF and LF: splitting never changes what the scan reports.
        #[test]
        fn a_split_scan_reports_what_one_pass_reports(
            rows in proptest::collection::vec(
                (0u8..6, 0u8..6, 0u8..5, 0u8..4, 0u8..6),
                0..120,
            ),
            crlf in proptest::bool::ANY,
            clean in proptest::bool::ANY,
            rows_to_render in proptest::sample::select(vec![1u64, 5, 1000, u64::MAX]),
        ) {
            let end = if crlf { "\r\n" } else { "\n" };
            let mut csv = format!("id,v,when,src,note{end}");
            for (i, &(id, v, when, src, note)) in rows.iter().enumerate() {
                // Clean files are the ones whose halves are put together.
                let (id, v, when, src, note) = if clean {
                    (3, [0, 2, 4][v as usize % 3], [0, 1, 3, 4][when as usize % 4], src % 2, [0, 1, 2, 5][note as usize % 4])
                } else {
                    (id, v, when, src, note)
                };
                let id = match id { 0 => String::new(), 1 => "x".into(), 2 => "7".into(), _ => i.to_string() };
                let v = ["1.5", "-2", "", "1,000", "2.5e3", "abc"][v as usize];
                let when = ["2021", "2021-02", "2021-02-30", "", "2021-05-21T10:00:00Z"][when as usize];
                let src = ["a", "b", "c", ""][src as usize];
                match note {
                    0 => csv.push_str(&format!("{id},{v},{when},{src},plain{end}")),
                    1 => csv.push_str(&format!("{id},\"{v}\",{when},{src},\"a, b\"{end}")),
                    2 => csv.push_str(&format!("{id},{v},{when},{src},\"two\nlines\"{end}")),
                    3 => csv.push_str(&format!("{id},{v},{when}{end}")),
                    4 => csv.push_str(&format!("{end}{id},{v},{when},{src},{end}")),
                    _ => csv.push_str(&format!("{id},{v},{when},{src},\"say \"\"hi\"\"\"{end}")),
                }
            }
            assert_split_agrees(csv.as_bytes(), rows_to_render);
        }

        /// A duplicate across the halves of an otherwise clean file is still reported.
        #[test]
        fn a_duplicate_across_the_halves_is_found(rows in 50usize..400, from in 0usize..10, to in 0usize..10) {
            let mut csv = String::from("id,v,when,src,note\n");
            for i in 0..rows {
                let id = if i == rows - 1 - to { from } else { i + 10 };
                csv.push_str(&format!("{id},1.5,2021,a,x\n"));
            }
            assert_split_agrees(csv.as_bytes(), 1000);
        }
    }
}
