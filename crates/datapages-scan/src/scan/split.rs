//! The two-half scan of a large file and the rules for joining it: a second thread checks
//! the records from the first line end past the middle while the first reads from the
//! start (and a third hashes); the halves are put together only when that is provably what
//! one pass would have found, otherwise the first half reads on as one pass.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use super::digest::hash_file;
use super::locate::csv_error;
use super::records::{Records, ScanContext, ROWS_MEASURED};
use super::READ_BUFFER_BYTES;
use crate::diagnostics::Diagnostic;

/// Files at least this large are checked in two halves at once when there are two cores
/// (see [`super::scan_with_charts`]); below this the second thread costs more than it saves.
pub(super) const SPLIT_FROM_BYTES: u64 = 8 * 1024 * 1024;

/// How far past the middle of a file the split looks for the end of a line.
const SPLIT_SEARCH_BYTES: usize = 64 * 1024;

/// What reading the records of a file gave.
pub(super) struct ReadRecords {
    /// Every record, as one pass would have found them.
    pub(super) records: Records,
    /// The (hex SHA-256, bytes) of the hashing thread, when the file was hashed separately
    /// (`Some(None)`: that thread failed).
    pub(super) hashed_separately: Option<Option<(crate::checksum::Sha256, u64)>>,
}

/// Reads and checks every record after the header. With a `split`, a second thread checks
/// the second half and, when `hash_separately`, a third hashes the whole file.
pub(super) fn read_records<R: Read>(
    path: &Path,
    reader: &mut csv::Reader<R>,
    split: Option<Split>,
    hash_separately: bool,
    ctx: &ScanContext,
    diagnostics: &mut Vec<Diagnostic>,
) -> ReadRecords {
    let mut record = csv::ByteRecord::new();
    let mut records = Records::new(ctx, true);
    let cancelled = AtomicBool::new(false);
    let hashed_separately = std::thread::scope(|scope| {
        let mut second_half = split.as_ref().map(|s| {
            let cancelled = &cancelled;
            scope.spawn(move || scan_tail(path, s.at, ctx, cancelled))
        });
        let hashing_thread = hash_separately.then(|| scope.spawn(|| hash_file(path)));
        loop {
            if let (Some(split), Some(_)) = (&split, &second_half) {
                let position = reader.position().byte();
                if split.reached(position) {
                    let tail = second_half.take().and_then(|h| h.join().ok()).flatten();
                    if tail.is_some_and(|tail| records.absorb(tail, ctx, split)) {
                        break;
                    }
                } else if position > split.at {
                    // The cut fell inside a quoted field: read on as one pass.
                    cancelled.store(true, Ordering::Relaxed);
                    second_half = None;
                }
            }
            match ctx.inputs.dialect.read(reader, &mut record) {
                Ok(false) => {
                    records.ended_at(reader.position().line());
                    break;
                }
                Ok(true) => {}
                Err(e) => {
                    diagnostics.push(csv_error(ctx.display, &e));
                    break;
                }
            }
            records.check(&mut record, ctx);
        }
        cancelled.store(true, Ordering::Relaxed);
        hashing_thread.map(|h| h.join().ok().and_then(Result::ok))
    });
    ReadRecords {
        records,
        hashed_separately,
    }
}

impl Records {
    /// Adds the second half of a split scan, if the result is exactly what one pass over
    /// the whole file would have found; otherwise returns false and changes nothing. The
    /// tail's byte offsets count from where `split` cut the file.
    pub(super) fn absorb(&mut self, tail: Records, ctx: &ScanContext, split: &Split) -> bool {
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
        if let Some(byte) = tail.last_byte {
            self.last_byte = Some(split.offset(byte));
            self.last_spans_lines = tail.last_spans_lines;
        }
        self.referenced_sources.extend(tail.referenced_sources);
        for (mine, theirs) in self.date_precisions.iter_mut().zip(tail.date_precisions) {
            *mine |= theirs;
        }
        for ((mine, theirs), chart) in self
            .charts
            .iter_mut()
            .zip(tail.charts)
            .zip(ctx.inputs.charts)
        {
            mine.append(theirs, chart, &|byte| split.offset(byte));
        }
        for (mine, theirs) in self.profiles.iter_mut().zip(tail.profiles) {
            mine.merge(theirs);
        }
        if let (Some(mine), Some(theirs)) = (&mut self.finder, tail.finder) {
            mine.append(theirs);
        }
        #[cfg(test)]
        HALVES_JOINED.with(|n| n.set(n.get() + 1));
        true
    }
}

#[cfg(test)]
thread_local! {
    /// Split scans whose halves were put together, so tests can tell them from one pass.
    pub(super) static HALVES_JOINED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Where a split scan cuts the file: just after the first line end past the middle.
pub(super) struct Split {
    /// The byte where the second half starts.
    pub(super) at: u64,
    /// Whether the line ends with `\r\n` (the parser ends a record at the `\r`).
    crlf: bool,
}

impl Split {
    /// Where to cut a file of `file_bytes`, if it has `from_bytes` or more.
    pub(super) fn find(path: &Path, file_bytes: u64, from_bytes: Option<u64>) -> Option<Split> {
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
    /// The offset one pass reports for a record the second half found at `byte`: after a
    /// `\r\n` one pass has the first record start at the `\n` (the parser ended the
    /// record before at the `\r`).
    fn offset(&self, byte: u64) -> u64 {
        if byte == 0 && self.crlf {
            self.at - 1
        } else {
            self.at + byte
        }
    }

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
    let mut reader = ctx
        .inputs
        .dialect
        .builder()
        .buffer_capacity(READ_BUFFER_BYTES)
        .from_reader(file);
    let mut records = Records::new(ctx, false);
    let mut record = csv::ByteRecord::new();
    loop {
        match ctx.inputs.dialect.read(&mut reader, &mut record) {
            Ok(true) => {}
            Ok(false) => {
                records.ended_at(reader.position().line());
                return Some(records);
            }
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
