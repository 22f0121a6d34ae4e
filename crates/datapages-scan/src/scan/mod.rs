//! The one streaming pass over a CSV file: check its structure and every cell against the
//! documented columns, count rows, hash the bytes, and note what the page's table and
//! charts need. This file holds the entry points and puts the jobs together; each job has
//! its own file (records, cells, header, split, digest, chart, problems, locate).
//!
//! Memory stays flat in the row count: a record is read, checked, and dropped. Only
//! `unique` columns keep something per row: a 128-bit fingerprint of each value seen (24
//! bytes a row, whatever the cell length).

mod cells;
mod chart;
mod declared;
mod digest;
mod exact_sum;
mod fingerprint;
mod header;
mod histogram;
mod locate;
mod point;
pub mod pool;
mod problems;
mod profile;
mod quoting;
mod records;
mod reduce;
mod sketch;
mod split;
#[cfg(test)]
mod tests;
mod typed;

use std::collections::{BTreeSet, HashSet};
use std::fs::File;
use std::path::Path;

use regex::Regex;

use crate::checksum::Sha256;
use crate::content::date_format::DateFormat;
use crate::content::dialect::{CsvDialect, MissingValues};
use crate::content::number_marks::NumberMarks;
use crate::content::numbers::Typed;
use crate::diagnostics::Diagnostic;
use crate::schema::ColumnSpec;
use crate::stamp::FileStamp;
pub use chart::{ChartColumns, ChartGap, ChartPoint, ChartPoints, Reduced, XPosition};
pub use declared::WrongType;
pub use digest::hex;
use digest::{Digester, HashingReader};
pub use histogram::Histogram;
pub use locate::{line_at, ragged_row, unclosed_quote_at_end};
pub use problems::{ragged_message, RAGGED_HINT};
use problems::{ProblemKind, Scope};
pub use profile::{ColumnProfile, DISTINCT_CAP};
use records::{Records, ScanContext};
use split::{ReadRecords, Split, SPLIT_FROM_BYTES};
pub use typed::{Finder, Hit, Matches, TypedCells};

/// The read buffer of the CSV parser: few system calls on large files.
const READ_BUFFER_BYTES: usize = 256 * 1024;

/// The read buffer for a file of `file_bytes`: the power of two that holds it (the buffer
/// is zeroed when made, and a catalog's many small CSVs would each pay for 256 KiB; a
/// thread keeps a reader of each size up to 64 KiB: `pool`).
fn read_buffer_bytes(file_bytes: u64) -> usize {
    usize::try_from(file_bytes)
        .unwrap_or(usize::MAX)
        .saturating_add(1)
        .checked_next_power_of_two()
        .unwrap_or(usize::MAX)
        .clamp(pool::SMALL_BUFFER, READ_BUFFER_BYTES)
}

/// A column with its constraints ready to check.
#[derive(Debug)]
pub struct CompiledColumn<'a> {
    pub spec: &'a ColumnSpec,
    pub pattern: Option<Regex>,
    /// A date column's `format`, compiled.
    pub date_format: Option<DateFormat>,
    /// The cell texts that mean "no value" in this column.
    pub missing: MissingValues,
    /// The decimal and group marks its numbers are written with.
    pub marks: NumberMarks,
}

impl CompiledColumn<'_> {
    /// The columns of `specs` without their patterns (for checks that ignore them).
    #[cfg(test)]
    pub fn without_patterns(specs: &[ColumnSpec]) -> Vec<CompiledColumn<'_>> {
        specs
            .iter()
            .map(|spec| CompiledColumn {
                spec,
                pattern: None,
                date_format: None,
                missing: MissingValues::default(),
                marks: NumberMarks::PLAIN,
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
    /// The SHA-256 of the file's bytes.
    pub sha256: Sha256,
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
    /// Per documented column, its profile (empty when the header does not match).
    pub profiles: Vec<ColumnProfile>,
    /// Columns whose declared type most filled cells fail: reported once, at the
    /// declaration, instead of at each cell.
    #[serde(default)]
    pub wrong_types: Vec<WrongType>,
    /// The cells equal to the numbers the page types by hand (`None` when it types none,
    /// or its header does not match its columns).
    #[serde(default)]
    pub typed_cells: Option<TypedCells>,
}

/// Scans `path` against `columns`. `display` is the path shown in messages.
#[cfg(test)]
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
        dialect: CsvDialect::COMMA,
        typed_numbers: &[],
        primary_key: &[],
    };
    scan_with_charts(path, display, &inputs)
}

/// `scan` that also collects the points of `charts` in the same pass.
///
/// A file of `SPLIT_FROM_BYTES` or more is checked by two threads at once: this one from
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
    scan_file(
        path,
        display,
        inputs,
        two_cores().then_some(SPLIT_FROM_BYTES),
    )
}

/// Whether the machine has two cores or more for the split scan. Asked once per process:
/// the standard library reads the cgroup files on every call, which cost 3 % of a build of
/// 10,000 small datasets when it was asked per file.
fn two_cores() -> bool {
    static TWO_CORES: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *TWO_CORES.get_or_init(|| std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2))
}

/// What the scan of a file depends on besides the file (the scan cache's key includes it).
#[derive(Clone, Copy)]
pub struct ScanInputs<'a> {
    pub columns: &'a [CompiledColumn<'a>],
    pub charts: &'a [ChartColumns],
    pub source_ids: &'a HashSet<&'a str>,
    /// Rows the page's table shows.
    pub rows_to_render: u64,
    /// How lines split into fields (`delimiter`, `skip_initial_space` in the front matter).
    pub dialect: CsvDialect,
    /// The numbers the page types by hand, looked for among the cells ([`TypedCells`]),
    /// and the key naming a row (the scan cache keeps the matches only for these).
    pub typed_numbers: &'a [Typed],
    pub primary_key: &'a [String],
}

/// The scan; files of `split_from` bytes or more are checked in two halves at once.
fn scan_file(
    path: &Path,
    display: &Path,
    inputs: &ScanInputs,
    split_from: Option<u64>,
) -> (Option<CsvSummary>, Vec<Diagnostic>) {
    let delimiter = inputs.dialect.delimiter;
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) => {
            let d = Diagnostic::error(display, format!("cannot open the CSV file: {e}"))
                .with_hint("check the `data` path in the front matter, or put the file at data/datasets/<slug>.csv");
            return (None, vec![d]);
        }
    };
    let mut diagnostics = Vec::new();
    let Some(mut read) = read_file(file, path, display, inputs, split_from, &mut diagnostics)
    else {
        return (None, diagnostics);
    };
    let records = &mut read.records;
    diagnostics.extend(unclosed_quote(records, path, display, delimiter));
    let wrong_types = declared::take_wrong_types(
        std::mem::take(&mut records.type_failures),
        &records.profiles,
        &mut records.counter,
        &mut records.pending,
    );
    diagnostics.append(&mut records.diagnostics);
    if records.rows == 0 {
        diagnostics.push(
            Diagnostic::warning(display, "the CSV file has a header but no rows")
                .at_line(1)
                .with_hint("add the data rows, or remove the dataset until it has some"),
        );
    }
    let pending = std::mem::take(&mut records.pending);
    diagnostics.extend(locate::locate(path, display, pending, delimiter));
    let not_shown = std::mem::take(&mut records.counter).not_shown(display, inputs.columns);
    let summary = read.into_summary(wrong_types, inputs);
    diagnostics.extend(chart::cap_warnings(display, inputs.charts, &summary.charts));
    diagnostics.extend(not_shown);
    (Some(summary), diagnostics)
}

/// A CSV file read through: its header, its records checked, and its bytes as hashed.
struct ReadFile {
    header: Vec<String>,
    records: Records,
    sha256: Sha256,
    bytes: u64,
    modified: Option<std::time::SystemTime>,
    stamp: Option<FileStamp>,
}

/// Reads the header and checks it, then checks every record (in two halves at once when
/// the file has `split_from` bytes or more) while the bytes are hashed; `None` when the
/// file has no header or could not be hashed (the reason is in `diagnostics`).
fn read_file(
    file: File,
    path: &Path,
    display: &Path,
    inputs: &ScanInputs,
    split_from: Option<u64>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<ReadFile> {
    let metadata = file.metadata().ok();
    let file_bytes = metadata.as_ref().map(|m| m.len()).unwrap_or(0);
    let split = Split::find(path, file_bytes, split_from);
    // Decided before the header is read: the hashing thread reads the file on its own.
    let hash_separately = split.is_some();
    let hashing = HashingReader {
        inner: file,
        digester: if hash_separately {
            Digester::Elsewhere
        } else {
            Digester::new(file_bytes)
        },
        bytes: 0,
    };
    let (delimiter, capacity) = (inputs.dialect.delimiter, read_buffer_bytes(file_bytes));
    let mut reader = pool::reader(hashing, delimiter, capacity);
    let mut header_record = csv::ByteRecord::new();
    let header = header::read_header(
        &mut reader,
        inputs.dialect,
        &mut header_record,
        (path, display),
        diagnostics,
    )?;
    let header_problems = diagnostics.len();
    let header_ok = header::check_header(display, &header, inputs.columns, delimiter, diagnostics);
    let header_problems = header_problems..diagnostics.len();
    let ctx = ScanContext::new(display, *inputs, &header, header_ok);
    // A split only pays when the header was read within the first half.
    let split = split.filter(|s| reader.position().byte() < s.at);
    let ReadRecords {
        mut records,
        hashed_separately,
    } = split::read_records(path, &mut reader, split, hash_separately, &ctx, diagnostics);
    let ragged = &records.counter.ragged_rows;
    let (columns, fitting) = ((delimiter, inputs.columns), records.rows - ragged.count());
    if let Some(problem) = header::shape_line_problem(ragged, display, &header, columns, fitting) {
        // One cause: the header's problems and every ragged row followed from it.
        diagnostics.splice(header_problems, [problem]);
        records.pending.retain(|p| p.kind != ProblemKind::Ragged);
        records.counter.forget(Scope::Row, ProblemKind::Ragged);
    }
    let hashing = pool::finish(reader, delimiter, capacity);
    let digest = hashed_separately.unwrap_or_else(|| hashing.and_then(HashingReader::finish));
    let Some((sha256, bytes)) = digest else {
        diagnostics.push(Diagnostic::error(display, "hashing the CSV file failed"));
        return None;
    };
    Some(ReadFile {
        header,
        records,
        sha256,
        bytes,
        stamp: metadata.as_ref().and_then(FileStamp::from_metadata),
        modified: metadata.and_then(|m| m.modified().ok()),
    })
}

/// A quote the file ends inside took the rest of the file as one cell: that is the
/// problem, not the shape or type of the cell it made, whose problems are dropped. (A quote
/// left open on the last line took nothing but that line's end: the cell reads as written.)
fn unclosed_quote(
    records: &mut Records,
    path: &Path,
    display: &Path,
    delimiter: u8,
) -> Option<Diagnostic> {
    let byte = records.last_byte.filter(|_| records.last_spans_lines)?;
    let d = unclosed_quote_at_end(path, display, byte, delimiter)?;
    records.pending.retain(|p| p.record_byte != byte);
    Some(d)
}

impl ReadFile {
    /// What the scan learned, its charts finished and its profiles compacted.
    fn into_summary(self, wrong_types: Vec<WrongType>, inputs: &ScanInputs) -> CsvSummary {
        let records = self.records;
        CsvSummary {
            header: self.header,
            rows: records.rows,
            bytes: self.bytes,
            sha256: self.sha256,
            has_empty_cells: records.has_empty_cells,
            referenced_sources: records.referenced_sources,
            date_precisions: records.date_precisions,
            modified: self.modified,
            stamp: self.stamp,
            longest_cells: records.longest_cells,
            charts: records
                .charts
                .into_iter()
                .map(chart::ChartPoints::finished)
                .collect(),
            profiles: records
                .profiles
                .into_iter()
                .map(|mut profile| {
                    profile.compact();
                    profile
                })
                .collect(),
            wrong_types,
            typed_cells: records
                .finder
                .map(|f| f.into_typed_cells(inputs.typed_numbers, inputs.primary_key)),
        }
    }
}
