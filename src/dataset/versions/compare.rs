//! The row-level comparison of two versions of a CSV, streaming: each version becomes a
//! sorted stream of (key hash, row hash, offset) entries (`runs`), the two streams are
//! merge-joined, and only rows that changed are read again (by offset) to name the columns
//! that differ. Cells are compared as the CSV parser yields them (after unquoting, with the
//! dataset's delimiter), over the columns both versions have.

use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader};
use std::path::Path;

use super::runs::{Collector, KeyedRow, Sorted, ENTRY_BYTES};
use super::window::Window;
use super::{ChangedRow, Comparison, EXAMPLES};
use crate::content::dialect::CsvDialect;

/// Characters of a key or a changed cell the page and the Data Package show: a long text
/// cell does not make the page long.
const SHOWN_CHARS: usize = 100;

/// Why two versions could not be compared.
#[derive(Debug)]
pub enum Problem {
    /// Reading either file failed.
    Io(io::Error),
    /// A key column is not in the older version's header (`newer`: the newer's).
    KeyColumnMissing { column: String, newer: bool },
    /// Two rows of the older version (`newer: false`) or the newer share a key: the
    /// 1-based lines where each starts, and the key's cells.
    DuplicateKey {
        newer: bool,
        lines: (u64, u64),
        key: String,
    },
}

impl From<io::Error> for Problem {
    fn from(e: io::Error) -> Problem {
        Problem::Io(e)
    }
}

impl From<csv::Error> for Problem {
    fn from(e: csv::Error) -> Problem {
        Problem::Io(io::Error::other(e))
    }
}

/// One version's file and the columns read from it.
struct Side<'a> {
    path: &'a Path,
    header: Vec<String>,
}

fn reader(path: &Path, dialect: CsvDialect, headers: bool) -> io::Result<csv::Reader<File>> {
    Ok(dialect
        .builder()
        .has_headers(headers)
        .from_reader(File::open(path)?))
}

fn header(path: &Path, dialect: CsvDialect) -> Result<Vec<String>, Problem> {
    let mut reader = reader(path, dialect, false)?;
    let mut record = csv::ByteRecord::new();
    dialect.read(&mut reader, &mut record)?;
    Ok(record
        .iter()
        .map(|cell| String::from_utf8_lossy(cell).into_owned())
        .collect())
}

/// Compares `old` with `new`: by the `key` columns when there are any, else as multisets
/// of whole rows (counts only). At most `chunk` entries per version are held in memory.
pub fn compare(
    old: &Path,
    new: &Path,
    dialect: CsvDialect,
    key: &[String],
    chunk: usize,
) -> Result<Comparison, Problem> {
    let old = Side {
        path: old,
        header: header(old, dialect)?,
    };
    let new = Side {
        path: new,
        header: header(new, dialect)?,
    };
    let common: Vec<&String> = new
        .header
        .iter()
        .filter(|name| old.header.contains(name))
        .collect();
    let position = |side: &Side, name: &String| side.header.iter().position(|c| c == name);
    let mut key_columns = (Vec::new(), Vec::new());
    for name in key {
        let missing = |newer| Problem::KeyColumnMissing {
            column: name.clone(),
            newer,
        };
        let in_old = position(&old, name).ok_or_else(|| missing(false))?;
        let in_new = position(&new, name).ok_or_else(|| missing(true))?;
        key_columns.0.push(in_old);
        key_columns.1.push(in_new);
    }
    let compared = (
        common
            .iter()
            .filter_map(|n| position(&old, n))
            .collect::<Vec<_>>(),
        common
            .iter()
            .filter_map(|n| position(&new, n))
            .collect::<Vec<_>>(),
    );
    let keyed = !key.is_empty();
    let mut comparison = Comparison {
        keyed,
        columns_added: new
            .header
            .iter()
            .filter(|n| !old.header.contains(n))
            .cloned()
            .collect(),
        columns_removed: old
            .header
            .iter()
            .filter(|n| !new.header.contains(n))
            .cloned()
            .collect(),
        ..Comparison::default()
    };
    let (old_key, new_key) = if keyed {
        (&key_columns.0, &key_columns.1)
    } else {
        (&compared.0, &compared.1)
    };
    let mut old_sorted = entries(old.path, dialect, old_key, &compared.0, keyed, chunk)?;
    let mut new_sorted = entries(new.path, dialect, new_key, &compared.1, keyed, chunk)?;
    let mut join = Join::default();
    let mut changes = Changes {
        old_rows: RowReader::new(old.path, dialect)?,
        new_rows: RowReader::new(new.path, dialect)?,
        columns: (compared.0.as_slice(), compared.1.as_slice()),
        names: &common,
        key: new_key,
        counts: vec![0; common.len()],
        first: Vec::new(),
        batch: Vec::new(),
        batch_rows: (chunk.saturating_mul(ENTRY_BYTES) / (16 + 8 * common.len())).max(1),
    };
    if keyed {
        join.keyed(&mut old_sorted, &mut new_sorted, &mut changes)?;
    } else {
        join.counted(&mut old_sorted, &mut new_sorted, &mut comparison)?;
    }
    if let Some((newer, a, b)) = join.duplicate {
        let path = if newer { new.path } else { old.path };
        let (first, second) = (a.min(b), a.max(b));
        let mut rows = RowReader::new(path, dialect)?;
        let cells = rows.at(first)?;
        let key_cells = if newer { new_key } else { old_key };
        return Err(Problem::DuplicateKey {
            newer,
            lines: (line_of(path, first)?, line_of(path, second)?),
            key: joined(&cells, key_cells),
        });
    }
    if keyed {
        comparison.added = join.added;
        comparison.removed = join.removed;
        comparison.changed = join.changed;
        changes.finish(&mut comparison)?;
        for offset in join.first_added.sorted() {
            let cells = changes.new_rows.at(offset)?;
            comparison.first_added.push(joined(&cells, new_key));
        }
        for offset in join.first_removed.sorted() {
            let cells = changes.old_rows.at(offset)?;
            comparison.first_removed.push(joined(&cells, old_key));
        }
    }
    Ok(comparison)
}

/// One version's entries in key order.
fn entries(
    path: &Path,
    dialect: CsvDialect,
    key_columns: &[usize],
    compared: &[usize],
    keyed: bool,
    chunk: usize,
) -> Result<Sorted, Problem> {
    let mut reader = reader(path, dialect, true)?;
    let mut collector = Collector::new(chunk);
    let mut record = csv::ByteRecord::new();
    let mut buffer = Vec::new();
    while dialect.read(&mut reader, &mut record)? {
        let offset = record.position().map_or(0, |p| p.byte());
        let key = hash(&record, key_columns, &mut buffer);
        // Without a key the whole row is the key: nothing more to compare.
        let row = if keyed {
            hash(&record, compared, &mut buffer) as u64
        } else {
            0
        };
        collector.push(KeyedRow { key, row, offset })?;
    }
    Ok(collector.finish()?)
}

/// XXH3-128 of the chosen cells, each preceded by its length (so `a,bc` and `ab,c`
/// differ); a cell missing from a short row counts as empty.
fn hash(record: &csv::ByteRecord, columns: &[usize], buffer: &mut Vec<u8>) -> u128 {
    buffer.clear();
    for &column in columns {
        let cell = record.get(column).unwrap_or_default();
        buffer.extend_from_slice(&(cell.len() as u64).to_le_bytes());
        buffer.extend_from_slice(cell);
    }
    twox_hash::XxHash3_128::oneshot(buffer)
}

/// The merge-join's findings: counts, and the offsets of the first rows of each kind.
#[derive(Default)]
struct Join {
    added: u64,
    removed: u64,
    changed: u64,
    first_added: Firsts,
    first_removed: Firsts,
    duplicate: Option<(bool, u64, u64)>,
}

/// The smallest offsets seen (the rows nearest the top of the file), at most [`EXAMPLES`].
#[derive(Default)]
struct Firsts(BinaryHeap<u64>);

impl Firsts {
    fn offer(&mut self, offset: u64) {
        self.0.push(offset);
        if self.0.len() > EXAMPLES {
            self.0.pop();
        }
    }

    fn sorted(&self) -> Vec<u64> {
        let mut offsets = self.0.clone().into_vec();
        offsets.sort_unstable();
        offsets
    }
}

/// The next entry of a stream, with a duplicate key noted (it ends the join).
fn advance(
    sorted: &mut Sorted,
    last: &mut Option<KeyedRow>,
    newer: bool,
    duplicate: &mut Option<(bool, u64, u64)>,
) -> Result<Option<KeyedRow>, Problem> {
    let next = sorted.next()?;
    if let (Some(previous), Some(entry)) = (last.as_ref(), next.as_ref()) {
        if previous.key == entry.key && duplicate.is_none() {
            *duplicate = Some((newer, previous.offset, entry.offset));
        }
    }
    *last = next;
    Ok(next)
}

impl Join {
    fn keyed(
        &mut self,
        old: &mut Sorted,
        new: &mut Sorted,
        changes: &mut Changes,
    ) -> Result<(), Problem> {
        let (mut last_old, mut last_new) = (None, None);
        let mut a = advance(old, &mut last_old, false, &mut self.duplicate)?;
        let mut b = advance(new, &mut last_new, true, &mut self.duplicate)?;
        while self.duplicate.is_none() {
            match (a, b) {
                (None, None) => break,
                (Some(x), Some(y)) if x.key == y.key => {
                    if x.row != y.row {
                        self.changed += 1;
                        changes.row(x.offset, y.offset)?;
                    }
                    a = advance(old, &mut last_old, false, &mut self.duplicate)?;
                    b = advance(new, &mut last_new, true, &mut self.duplicate)?;
                }
                (Some(x), Some(y)) if x.key < y.key => {
                    self.removed += 1;
                    self.first_removed.offer(x.offset);
                    a = advance(old, &mut last_old, false, &mut self.duplicate)?;
                }
                (Some(x), None) => {
                    self.removed += 1;
                    self.first_removed.offer(x.offset);
                    a = advance(old, &mut last_old, false, &mut self.duplicate)?;
                }
                (_, Some(y)) => {
                    self.added += 1;
                    self.first_added.offer(y.offset);
                    b = advance(new, &mut last_new, true, &mut self.duplicate)?;
                }
            }
        }
        Ok(())
    }

    /// Whole rows as multisets: a row written three times before and once now is two
    /// removed.
    fn counted(
        &mut self,
        old: &mut Sorted,
        new: &mut Sorted,
        comparison: &mut Comparison,
    ) -> Result<(), Problem> {
        let mut a = old.next()?;
        let mut b = new.next()?;
        loop {
            let key = match (a, b) {
                (None, None) => break,
                (Some(x), Some(y)) => x.key.min(y.key),
                (Some(x), None) => x.key,
                (None, Some(y)) => y.key,
            };
            let (mut before, mut after) = (0u64, 0u64);
            while a.is_some_and(|x| x.key == key) {
                before += 1;
                a = old.next()?;
            }
            while b.is_some_and(|y| y.key == key) {
                after += 1;
                b = new.next()?;
            }
            comparison.added += after.saturating_sub(before);
            comparison.removed += before.saturating_sub(after);
        }
        Ok(())
    }
}

/// Reads single rows by the byte offset where they start, through a [`Window`].
struct RowReader {
    reader: csv::Reader<Window>,
    dialect: CsvDialect,
    record: csv::ByteRecord,
}

impl RowReader {
    fn new(path: &Path, dialect: CsvDialect) -> io::Result<RowReader> {
        let reader = dialect
            .builder()
            .buffer_capacity(1024)
            .from_reader(Window::new(File::open(path)?));
        Ok(RowReader {
            reader,
            dialect,
            record: csv::ByteRecord::new(),
        })
    }

    fn record_at(&mut self, offset: u64) -> Result<&csv::ByteRecord, Problem> {
        let mut position = csv::Position::new();
        position.set_byte(offset);
        self.reader.seek(position)?;
        self.dialect.read(&mut self.reader, &mut self.record)?;
        Ok(&self.record)
    }

    fn at(&mut self, offset: u64) -> Result<Vec<String>, Problem> {
        Ok(self
            .record_at(offset)?
            .iter()
            .map(|cell| String::from_utf8_lossy(cell).into_owned())
            .collect())
    }
}

fn joined(cells: &[String], columns: &[usize]) -> String {
    let cell = |&c: &usize| cells.get(c).map_or("", String::as_str);
    let key = columns.iter().map(cell).collect::<Vec<_>>().join(", ");
    crate::text::shortened(&key, SHOWN_CHARS)
}

/// The 1-based line of the file where byte `offset` is.
fn line_of(path: &Path, offset: u64) -> io::Result<u64> {
    use std::io::Read;
    let mut file = BufReader::new(File::open(path)?).take(offset);
    let mut buffer = [0u8; 64 * 1024];
    let mut lines = 1;
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            return Ok(lines);
        }
        lines += buffer[..n].iter().filter(|&&b| b == b'\n').count() as u64;
    }
}

/// The changed rows, read again to name the columns that differ, in batches: a batch's
/// old rows in file order, each compared cell's hash kept, then its new rows in file order,
/// compared with those hashes. Each file is read forwards through its window instead of
/// seeked row by row in the order of the keys' hashes. The rows nearest the top of the new
/// file are kept for the page.
struct Changes<'a> {
    old_rows: RowReader,
    new_rows: RowReader,
    /// The compared columns' positions in the old and the new header.
    columns: (&'a [usize], &'a [usize]),
    names: &'a [&'a String],
    /// The key's positions in the new header.
    key: &'a [usize],
    counts: Vec<u64>,
    first: Vec<(u64, ChangedRow)>,
    /// The batch: each changed row's offset in the old file and in the new.
    batch: Vec<(u64, u64)>,
    /// The most rows a batch holds (its hashes take about as much memory as a chunk of
    /// entries).
    batch_rows: usize,
}

impl Changes<'_> {
    fn row(&mut self, in_old: u64, in_new: u64) -> Result<(), Problem> {
        self.batch.push((in_old, in_new));
        if self.batch.len() >= self.batch_rows {
            self.compare_batch()?;
        }
        Ok(())
    }

    fn compare_batch(&mut self) -> Result<(), Problem> {
        let width = self.columns.0.len();
        let mut batch = std::mem::take(&mut self.batch);
        batch.sort_unstable();
        let mut hashes = vec![0u64; batch.len() * width];
        for (n, &(in_old, _)) in batch.iter().enumerate() {
            let record = self.old_rows.record_at(in_old)?;
            for (c, &column) in self.columns.0.iter().enumerate() {
                hashes[n * width + c] = cell_hash(record, column);
            }
        }
        let mut order: Vec<usize> = (0..batch.len()).collect();
        order.sort_unstable_by_key(|&n| batch[n].1);
        let mut differ = Vec::new();
        for n in order {
            let record = self.new_rows.record_at(batch[n].1)?;
            differ.clear();
            for (c, &column) in self.columns.1.iter().enumerate() {
                if cell_hash(record, column) != hashes[n * width + c] {
                    self.counts[c] += 1;
                    differ.push(c);
                }
            }
            self.example(batch[n], &differ)?;
        }
        batch.clear();
        self.batch = batch;
        Ok(())
    }

    /// Keeps the changed row for the page when it is among the first of the new file.
    fn example(&mut self, (in_old, in_new): (u64, u64), differ: &[usize]) -> Result<(), Problem> {
        let latest_kept = self.first.iter().map(|(offset, _)| *offset).max();
        let kept = self.first.len() < EXAMPLES || latest_kept.is_some_and(|l| in_new < l);
        if !kept {
            return Ok(());
        }
        let before = self.old_rows.at(in_old)?;
        let after = self.new_rows.at(in_new)?;
        let shown = |cells: &[String], c: usize| {
            crate::text::shortened(cells.get(c).map_or("", String::as_str), SHOWN_CHARS)
        };
        let columns = differ
            .iter()
            .map(|&n| {
                let (o, c) = (self.columns.0[n], self.columns.1[n]);
                (self.names[n].clone(), shown(&before, o), shown(&after, c))
            })
            .collect();
        if self.first.len() == EXAMPLES {
            if let Some(latest) = (0..self.first.len()).max_by_key(|&i| self.first[i].0) {
                self.first.swap_remove(latest);
            }
        }
        let key = joined(&after, self.key);
        self.first.push((in_new, ChangedRow { key, columns }));
        Ok(())
    }

    fn finish(&mut self, comparison: &mut Comparison) -> Result<(), Problem> {
        if !self.batch.is_empty() {
            self.compare_batch()?;
        }
        comparison.changed_columns = self
            .names
            .iter()
            .zip(&self.counts)
            .filter(|(_, count)| **count > 0)
            .map(|(name, count)| ((*name).clone(), *count))
            .collect();
        self.first.sort_by_key(|(offset, _)| *offset);
        comparison.first_changed = self.first.drain(..).map(|(_, row)| row).collect();
        Ok(())
    }
}

/// A cell's 64-bit hash (XXH3-128 cut), for comparing it with the same column's cell in the
/// other version; a cell missing from a short row counts as empty.
fn cell_hash(record: &csv::ByteRecord, column: usize) -> u64 {
    twox_hash::XxHash3_128::oneshot(record.get(column).unwrap_or_default()) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// Two versions of `rows` rows with every row changed (the new file in another order).
    fn versions(dir: &Path, rows: u64) -> (PathBuf, PathBuf) {
        let (old, new) = (dir.join("old.csv"), dir.join("new.csv"));
        let mut before = String::from("id,region,value\n");
        let mut after = String::from("id,value,region\n");
        for id in 0..rows {
            before.push_str(&format!("{id},r{},{}\n", id % 7, id * 3));
            let id = rows - 1 - id;
            after.push_str(&format!("{id},{},r{}\n", id * 3 + 1, id % 7));
        }
        std::fs::write(&old, before).unwrap();
        std::fs::write(&new, after).unwrap();
        (old, new)
    }

    /// The read system calls of this thread so far (Linux's per-thread I/O counters).
    #[cfg(target_os = "linux")]
    fn reads_so_far() -> u64 {
        let io = std::fs::read_to_string("/proc/thread-self/io").unwrap();
        io.lines()
            .find_map(|line| line.strip_prefix("syscr: "))
            .and_then(|n| n.parse().ok())
            .unwrap()
    }

    /// Every row changed: the changed rows are read again in file order through a window,
    /// not with a seek and a read each (20,000,000 of them took 66 s for 10^7 rows).
    #[cfg(target_os = "linux")]
    #[test]
    fn changed_rows_are_read_again_in_file_order_not_one_seek_each() {
        let dir = tempfile::tempdir().unwrap();
        let rows = 20_000;
        let (old, new) = versions(dir.path(), rows);
        let key = ["id".to_string()];
        let before = reads_so_far();
        let comparison = compare(&old, &new, CsvDialect::COMMA, &key, 1 << 18).unwrap();
        let reads = reads_so_far() - before;
        assert_eq!(comparison.changed, rows);
        assert_eq!(comparison.changed_columns, [("value".to_string(), rows)]);
        assert_eq!(comparison.first_changed.len(), EXAMPLES);
        assert_eq!(comparison.first_changed[0].key, (rows - 1).to_string());
        assert!(reads < rows / 20, "{reads} reads for {rows} changed rows");
        // Batches of a few rows (a small chunk) give the same answer.
        assert_eq!(
            compare(&old, &new, CsvDialect::COMMA, &key, 3).unwrap(),
            comparison
        );
    }
}
