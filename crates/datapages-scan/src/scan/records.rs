//! Records and their checks: each row of a stretch of the file is counted, checked for its
//! shape, UTF-8, forbidden characters, every cell, and `unique` repeats, and measured for
//! what the page's table needs (empty cells, long columns) and what charts draw.

use std::collections::BTreeSet;

use rustc_hash::FxHashMap;
use std::path::Path;

use super::cells::{
    check_cell, format_mismatch, plain_decimal, read_cell, type_problem, CellProblem, ReadCell,
};
use super::chart::ChartPoints;
use super::declared::TypeFailures;
use super::fingerprint::fingerprint;
use super::locate::{field_offset, invalid_utf8};
use super::problems::{
    ragged_hint, ragged_message, PendingProblem, ProblemCounter, ProblemKind, Scope,
};
use super::profile::ColumnProfile;
use super::typed::Finder;
use super::{CompiledColumn, ScanInputs};
use crate::diagnostics::Diagnostic;
use crate::schema::{ColumnType, DatePrecision, Unrepresentable};

/// Rows whose cell lengths decide which columns get room to wrap long text.
pub(super) const ROWS_MEASURED: u64 = 5_000;

/// What every record of one file is checked against.
pub(super) struct ScanContext<'a> {
    pub(super) display: &'a Path,
    pub(super) inputs: ScanInputs<'a>,
    /// The header's fields (as many as a row has).
    header: &'a [String],
    width: usize,
    /// Whether the header matches the columns; cells are only checked when it does.
    header_ok: bool,
    /// Per column: whether the type is its only check (no enum, bounds, pattern or
    /// references), so that a valid cell needs nothing more.
    type_only: Vec<bool>,
    /// Per column: a number column whose cells are read as written (no missing values,
    /// other spellings of infinity, marks or `unique`) and checked for their type alone:
    /// a cell [`plain_decimal`] reads is valid, and only counted and profiled.
    plain_numbers: Vec<bool>,
    /// Per column: the same for a date column without a `format`: a cell that is an ISO
    /// 8601 date is valid, and only counted and profiled.
    plain_dates: Vec<bool>,
    /// Per column: the same for a text column: a cell that is not empty is valid, and only
    /// counted among the distinct values.
    plain_texts: Vec<bool>,
}

/// What the records of one stretch of a file told the scan.
pub(super) struct Records {
    /// Whether the stretch starts at the first data row, so that row numbers are known.
    /// The second half of a split scan does not know how many rows came before it.
    pub(super) from_start: bool,
    pub(super) rows: u64,
    pub(super) pending: Vec<PendingProblem>,
    pub(super) counter: ProblemCounter,
    /// Problems already located (invalid UTF-8).
    pub(super) diagnostics: Vec<Diagnostic>,
    /// Per `unique` column: the fingerprints seen, with the line of each (a fast hasher:
    /// the keys are hashes already).
    pub(super) unique_seen: Vec<Option<FxHashMap<u128, u64>>>,
    pub(super) has_empty_cells: bool,
    /// Second half only: the first row (counted in the half) with an empty cell.
    pub(super) first_empty_row: Option<u64>,
    pub(super) longest_cells: Vec<usize>,
    pub(super) referenced_sources: BTreeSet<String>,
    pub(super) date_precisions: Vec<u8>,
    pub(super) charts: Vec<ChartPoints>,
    /// Per column, what the Columns section shows (empty until the header matches).
    pub(super) profiles: Vec<ColumnProfile>,
    /// Per column, what its cells that fail the declared type have in common.
    pub(super) type_failures: Vec<TypeFailures>,
    /// The cells equal to the numbers the page types by hand (when it types any).
    pub(super) finder: Option<Finder>,
    /// The line and byte the last record started on, and whether it was of the wrong
    /// width: a record starting on that same line is the rest of a row a bare carriage
    /// return cut. The byte counts from the start of the stretch.
    last_line: u64,
    pub(super) last_byte: Option<u64>,
    last_ragged: bool,
    /// Where a cell in decimal commas or with group marks is read back as a plain number,
    /// reused from cell to cell.
    plain: String,
    /// The buffer a formatted date cell is rewritten into (`DateFormat::canonical`).
    shown_date: String,
    /// Set at the end of the file: whether the last record ran over a line end (inside
    /// quotes), the one case where a quote left open can have taken more than its line.
    pub(super) last_spans_lines: bool,
}

impl<'a> ScanContext<'a> {
    pub(super) fn new(
        display: &'a Path,
        inputs: ScanInputs<'a>,
        header: &'a [String],
        header_ok: bool,
    ) -> ScanContext<'a> {
        let type_only = inputs
            .columns
            .iter()
            .map(|c| {
                let spec = c.spec;
                spec.enum_values.is_none()
                    && spec.minimum.is_none()
                    && spec.maximum.is_none()
                    && c.pattern.is_none()
                    && !spec.references_sources()
            })
            .collect();
        let read_as_written = |c: &CompiledColumn, type_only: bool| {
            type_only
                && !c.missing.has_tokens()
                && c.spec.non_finite_spelling().is_none()
                && c.date_format.is_none()
                && c.marks.is_plain()
                && !c.spec.unique
        };
        let plain = |wanted: fn(ColumnType) -> bool| {
            inputs
                .columns
                .iter()
                .zip(&type_only)
                .map(|(c, &type_only)| read_as_written(c, type_only) && wanted(c.spec.column_type))
                .collect()
        };
        let plain_numbers = plain(ColumnType::is_numeric);
        let plain_dates = plain(|t| t == ColumnType::Date);
        let plain_texts = plain(|t| t == ColumnType::String);
        ScanContext {
            display,
            inputs,
            header,
            width: header.len(),
            header_ok,
            type_only,
            plain_numbers,
            plain_dates,
            plain_texts,
        }
    }
}

impl ScanContext<'_> {
    /// Whether a record has an empty cell or a declared missing value (the page's dash).
    fn any_missing(&self, record: &csv::ByteRecord) -> bool {
        record.iter().enumerate().any(|(index, field)| {
            field.is_empty()
                || self
                    .inputs
                    .columns
                    .get(index)
                    .is_some_and(|c| c.missing.has_tokens() && c.missing.is_missing_bytes(field))
        })
    }
}

impl Records {
    pub(super) fn new(ctx: &ScanContext, from_start: bool) -> Records {
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
                .map(|c| c.spec.unique.then(FxHashMap::default))
                .collect(),
            has_empty_cells: false,
            first_empty_row: None,
            longest_cells: Vec::new(),
            referenced_sources: BTreeSet::new(),
            date_precisions: vec![0; ctx.inputs.columns.len()],
            charts: vec![ChartPoints::default(); ctx.inputs.charts.len()],
            profiles: if ctx.header_ok {
                vec![ColumnProfile::default(); ctx.inputs.columns.len()]
            } else {
                Vec::new()
            },
            type_failures: vec![TypeFailures::default(); ctx.inputs.columns.len()],
            finder: (ctx.header_ok && !ctx.inputs.typed_numbers.is_empty()).then(|| {
                let numbers = ctx.inputs.typed_numbers;
                Finder::new(numbers, |_| true, ctx.header, ctx.inputs.primary_key, None)
            }),
            last_line: 0,
            last_byte: None,
            last_ragged: false,
            plain: String::new(),
            shown_date: String::new(),
            last_spans_lines: false,
        }
    }

    /// Whether anything was found that the report must show.
    pub(super) fn found_problems(&self) -> bool {
        !self.pending.is_empty() || !self.diagnostics.is_empty() || !self.counter.is_empty()
    }

    /// Keeps a problem of the row at `line` (starting at `byte`) or of one of its cells,
    /// unless enough of its kind in that scope are kept already (it is then only counted);
    /// `describe` gives its message and hint, worked out only for those kept.
    fn keep_problem(
        &mut self,
        scope: Scope,
        kind: ProblemKind,
        (line, byte): (u64, u64),
        describe: impl FnOnce() -> (String, Option<String>),
    ) {
        if self.counter.record(scope, kind) {
            let (message, hint) = describe();
            self.pending.push(PendingProblem {
                kind,
                severity: kind.severity(),
                line,
                record_byte: byte,
                field: match scope {
                    Scope::Row => None,
                    Scope::Column(index) => Some(index),
                },
                message,
                hint,
            });
        }
    }

    /// Notes where the reader ended, on line `end_line` (after the last record's line end).
    pub(super) fn ended_at(&mut self, end_line: u64) {
        self.last_spans_lines = self.last_byte.is_some() && end_line > self.last_line + 1;
    }

    /// Checks one record. `record` is handed back as it came (its buffer is reused).
    pub(super) fn check(&mut self, record: &mut csv::ByteRecord, ctx: &ScanContext) {
        self.rows += 1;
        let Some(at) = self.place(record, ctx) else {
            return;
        };
        self.measure_for_table(record, ctx);
        if !ctx.header_ok {
            return;
        }
        for (chart, points) in ctx.inputs.charts.iter().zip(self.charts.iter_mut()) {
            chart.collect(record, ctx.inputs.columns, at.1, points);
        }
        let Some(text) = self.as_text(record, ctx, at) else {
            return;
        };
        if crate::text::has_forbidden(text.as_byte_record().as_slice()) {
            self.forbidden_characters(&text, at.0, at.1, ctx);
        }
        let mut plain = std::mem::take(&mut self.plain);
        // A date cell read through its column's `format`, in the style pages show it:
        // one buffer for the whole scan.
        let mut shown = std::mem::take(&mut self.shown_date);
        for (index, cell) in text.iter().enumerate().take(ctx.inputs.columns.len()) {
            if !self.took_plainly(ctx, index, cell, &text) {
                self.check_cell(ctx, index, (cell, &text), at, (&mut plain, &mut shown));
            }
        }
        self.plain = plain;
        self.shown_date = shown;
        *record = text.into_byte_record();
    }

    /// The line and byte `record` starts at, or `None` when nothing more is checked of it:
    /// the rest of a row cut by a bare carriage return (that row's error, which names the
    /// byte, says it all), or a row of the wrong width (reported here).
    fn place(&mut self, record: &csv::ByteRecord, ctx: &ScanContext) -> Option<(u64, u64)> {
        let position = record
            .position()
            .cloned()
            .unwrap_or_else(csv::Position::new);
        let (line, byte) = (position.line(), position.byte());
        let same_line = line == self.last_line;
        let rest_of_cut_row = self.last_ragged && same_line;
        // A row of the right width cut by a bare carriage return leaves a ragged rest on
        // its line: that problem is located at the row's start, where the line begins.
        let line_start = match self.last_byte {
            Some(last) if same_line => last,
            _ => byte,
        };
        self.last_line = line;
        self.last_byte = Some(byte);
        self.last_ragged = record.len() != ctx.width;
        if rest_of_cut_row {
            return None;
        }
        if record.len() != ctx.width {
            self.counter.ragged_rows.add(record.len());
            self.keep_problem(Scope::Row, ProblemKind::Ragged, (line, line_start), || {
                (
                    ragged_message(record.len(), ctx.width),
                    Some(ragged_hint(
                        record.iter(),
                        ctx.width,
                        ctx.inputs.dialect.delimiter,
                    )),
                )
            });
            return None;
        }
        Some((line, byte))
    }

    /// What the page's table needs to know about the rows it shows: empty cells, and the
    /// longest cell of each column among the first rows.
    fn measure_for_table(&mut self, record: &csv::ByteRecord, ctx: &ScanContext) {
        if !self.from_start {
            // A row past `rows_to_render` of the half is past it in the file too.
            if self.first_empty_row.is_none()
                && self.rows <= ctx.inputs.rows_to_render
                && ctx.any_missing(record)
            {
                self.first_empty_row = Some(self.rows);
            }
        } else if self.rows <= ctx.inputs.rows_to_render {
            self.has_empty_cells |= ctx.any_missing(record);
            if self.rows <= ROWS_MEASURED {
                self.longest_cells.resize(ctx.width, 0);
                for (longest, field) in self.longest_cells.iter_mut().zip(record.iter()) {
                    let chars = String::from_utf8_lossy(field).chars().count();
                    *longest = (*longest).max(chars);
                }
            }
        }
    }

    /// `record` as text, when it is UTF-8. UTF-8 is checked once for the whole record; only
    /// a bad record is looked at field by field, to say where (and is handed back).
    fn as_text(
        &mut self,
        record: &mut csv::ByteRecord,
        ctx: &ScanContext,
        (line, byte): (u64, u64),
    ) -> Option<csv::StringRecord> {
        let error = match csv::StringRecord::from_byte_record(std::mem::take(record)) {
            Ok(text) => return Some(text),
            Err(error) => error,
        };
        let bytes = error.into_byte_record();
        for (index, field) in bytes.iter().enumerate() {
            if let (Err(e), Some(column)) =
                (std::str::from_utf8(field), ctx.inputs.columns.get(index))
            {
                if self.counter.record(Scope::Column(index), ProblemKind::Utf8) {
                    // Exact for unquoted fields: the record's start, the fields and commas
                    // before this one, and the valid bytes of this one.
                    let offset = byte + field_offset(&bytes, index, e.valid_up_to());
                    let d = invalid_utf8(ctx.display, line, offset);
                    self.diagnostics.push(d.with_hint(format!(
                        "column `{}`: {}",
                        column.spec.name,
                        crate::text::not_utf8_hint(field)
                    )));
                }
            }
        }
        *record = bytes;
        None
    }

    /// Takes the cell at `index` the short way when its column reads cells as written and
    /// the cell is of its type (most cells): counted, profiled, and offered to the typed
    /// numbers. False: check it in full ([`Records::check_cell`]).
    fn took_plainly(
        &mut self,
        ctx: &ScanContext,
        index: usize,
        cell: &str,
        text: &csv::StringRecord,
    ) -> bool {
        let column_type = ctx.inputs.columns[index].spec.column_type;
        let number = match ctx.plain_numbers[index] {
            true => plain_decimal(cell, column_type == ColumnType::Integer),
            false => None,
        };
        let kind = if let Some(x) = number {
            self.profiles[index].add_plain_number(x, cell);
            Some(x)
        } else if ctx.plain_dates[index] && crate::content::iso8601::is_iso_date(cell) {
            self.date_precisions[index] |= DatePrecision::of(cell) as u8;
            self.profiles[index].add_iso_date(cell);
            None
        } else if ctx.plain_texts[index] && !cell.is_empty() {
            let profile = &mut self.profiles[index];
            if !profile.add_seen_text(cell) {
                let _ = profile.add(cell, column_type, fingerprint(cell), None);
            }
            None
        } else {
            return false;
        };
        if let Some(finder) = &mut self.finder {
            finder.cell(index, cell, kind, text);
        }
        true
    }

    /// Checks the cell at `index` in full: read as its column says (missing values, marks,
    /// a date `format`), checked, profiled, offered to the typed numbers, and its `unique`
    /// value looked up. `buffers` are where a rewritten cell is read back into.
    fn check_cell(
        &mut self,
        ctx: &ScanContext,
        index: usize,
        (cell, text): (&str, &csv::StringRecord),
        at: (u64, u64),
        (plain, shown): (&mut String, &mut String),
    ) {
        let column = &ctx.inputs.columns[index];
        let column_type = column.spec.column_type;
        let read = read_cell(cell, column, plain, shown);
        let value = read.value;
        // Most number cells are read, and so known valid, in one pass.
        let plain_number = match column_type.is_numeric() && !read.misplaced {
            true => plain_decimal(value, column_type == ColumnType::Integer),
            false => None,
        };
        let problem = self.cell_problem(ctx, index, &read, plain_number);
        // Each number is read once, for the profile and the typed numbers alike.
        let type_ok = problem.as_ref().is_none_or(|p| p.kind != ProblemKind::Type);
        if problem.is_none() && column_type == ColumnType::Date && !value.is_empty() {
            self.date_precisions[index] |= DatePrecision::of(value) as u8;
        }
        if let Some(problem) = problem {
            if problem.kind == ProblemKind::Type {
                self.type_failures[index].add(read.written);
            }
            let scope = Scope::Column(index);
            self.keep_problem(scope, problem.kind, at, || (problem.message, problem.hint));
        }
        let number = match column_type.is_numeric() && type_ok && !value.is_empty() {
            true => plain_number.or_else(|| value.parse::<f64>().ok()),
            false => None,
        };
        if let Some(finder) = &mut self.finder {
            // The value read is the cell's own when nothing rewrote the text.
            let own_text = std::ptr::eq(value, cell);
            let parsed = number.filter(|x| own_text && x.is_finite());
            finder.cell(index, cell, parsed, text);
        }
        self.profile_and_compare(column, index, value, number, at);
    }

    /// The problem of a cell as read, if any. Most cells are not empty and need only their
    /// type checked; messages quote the cell as written.
    fn cell_problem(
        &mut self,
        ctx: &ScanContext,
        index: usize,
        read: &ReadCell,
        plain_number: Option<f64>,
    ) -> Option<CellProblem> {
        let column = &ctx.inputs.columns[index];
        let (value, written) = (read.value, read.written);
        if read.misplaced {
            return Some(type_problem(written, column));
        }
        if read.unreadable {
            return Some(format_mismatch(value, column));
        }
        let valid = ctx.type_only[index]
            && !value.is_empty()
            && (plain_number.is_some()
                || column.date_format.is_some()
                || column.spec.column_type.is_valid(value));
        if valid {
            return None;
        }
        let problem = check_cell(
            value,
            column,
            ctx.inputs.source_ids,
            &mut self.referenced_sources,
        )?;
        Some(match problem.kind {
            ProblemKind::Type if written != value => type_problem(written, column),
            _ => problem,
        })
    }

    /// Profiles a cell's value (text by fingerprint, a text counted before by its text
    /// alone) and checks a `unique` column's value against those seen.
    fn profile_and_compare(
        &mut self,
        column: &CompiledColumn,
        index: usize,
        value: &str,
        number: Option<f64>,
        (line, byte): (u64, u64),
    ) {
        let column_type = column.spec.column_type;
        let needs_print =
            self.unique_seen[index].is_some() || self.profiles[index].counts_distinct(column_type);
        let counted = needs_print
            && self.unique_seen[index].is_none()
            && !value.is_empty()
            && self.profiles[index].add_seen_text(value);
        let print = if needs_print && !counted && !value.is_empty() {
            fingerprint(value)
        } else {
            0
        };
        let unrepresentable = match counted {
            true => None,
            false => self.profiles[index].add(value, column_type, print, number),
        };
        let scope = Scope::Column(index);
        if let Some(limit) = unrepresentable {
            self.keep_problem(scope, ProblemKind::Magnitude, (line, byte), || {
                let (message, hint) = unrepresentable_number(&column.spec.name, value, limit);
                (message, Some(hint))
            });
        }
        let repeats = match self.unique_seen[index].as_mut() {
            Some(seen) if !value.is_empty() => match seen.get(&print) {
                Some(first_line) => Some(*first_line),
                None => {
                    seen.insert(print, line);
                    None
                }
            },
            _ => None,
        };
        if let Some(first_line) = repeats {
            self.keep_problem(scope, ProblemKind::Unique, (line, byte), || {
                (
                    format!(
                        "`{}` repeats the value {:?} of line {first_line}, but the column is unique",
                        column.spec.name, value
                    ),
                    Some("remove the duplicate row or drop `unique = true`".into()),
                )
            });
        }
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
            let scope = Scope::Column(index);
            self.keep_problem(scope, ProblemKind::Character, (line, byte), || {
                (
                    format!(
                        "`{}` holds {}, a character HTML and XML cannot carry",
                        column.spec.name,
                        crate::text::describe_char(c)
                    ),
                    Some("pages, charts and feeds show it as \u{fffd} and the download keeps it; remove it if the export put it there".into()),
                )
            });
        }
    }
}

/// The warning for a number cell a 64-bit float cannot hold: what readers make of it, and
/// what to write instead. A long cell is shown by its start and end.
fn unrepresentable_number(column: &str, value: &str, limit: Unrepresentable) -> (String, String) {
    let shown = crate::text::quoted_in_message(value);
    match limit {
        Unrepresentable::TooLarge => (
            format!(
                "`{column}` holds {shown}, beyond the largest number a 64-bit float can hold \
                 (about 1.8e308): pandas, R and JavaScript read it as infinity, and the \
                 column's profile leaves it out"
            ),
            "write INF or -INF if infinity is meant; otherwise give the column a larger unit, \
             so that its values fit"
                .to_string(),
        ),
        Unrepresentable::TooSmall => (
            format!(
                "`{column}` holds {shown}, closer to zero than a 64-bit float can hold \
                 (about 4.9e-324): pandas, R and JavaScript read it as 0, and the column's \
                 profile leaves it out"
            ),
            "write 0 if zero is meant; otherwise give the column a smaller unit, so that its \
             values fit"
                .to_string(),
        ),
    }
}
