//! One version's rows as (key hash, row hash, byte offset) entries in key order: sorted in
//! memory up to a fixed number of entries, past that written to an unnamed temporary file
//! as sorted runs and merged back, so memory stays flat whatever the table's length.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufWriter, Write};

use crate::positioned::read_exact_at;

/// One row: what identifies it (the key's cells, or the whole row without a key), what it
/// holds (the compared cells), and where it starts in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct KeyedRow {
    pub key: u128,
    pub row: u64,
    pub offset: u64,
}

/// Bytes of one entry, in memory and on disk.
pub const ENTRY_BYTES: usize = 32;

/// Bytes read at once from each run while merging.
const RUN_BUFFER: usize = 64 * 1024;

impl KeyedRow {
    fn to_bytes(self) -> [u8; ENTRY_BYTES] {
        let mut out = [0u8; ENTRY_BYTES];
        out[..16].copy_from_slice(&self.key.to_le_bytes());
        out[16..24].copy_from_slice(&self.row.to_le_bytes());
        out[24..].copy_from_slice(&self.offset.to_le_bytes());
        out
    }

    fn from_bytes(bytes: &[u8]) -> KeyedRow {
        let mut key = [0u8; 16];
        let mut row = [0u8; 8];
        let mut offset = [0u8; 8];
        key.copy_from_slice(&bytes[..16]);
        row.copy_from_slice(&bytes[16..24]);
        offset.copy_from_slice(&bytes[24..32]);
        KeyedRow {
            key: u128::from_le_bytes(key),
            row: u64::from_le_bytes(row),
            offset: u64::from_le_bytes(offset),
        }
    }
}

/// Collects entries; [`Collector::finish`] gives them back in order.
pub struct Collector {
    chunk: Vec<KeyedRow>,
    capacity: usize,
    spill: Option<Spill>,
}

/// The temporary file and where each sorted run starts and ends in it.
struct Spill {
    file: BufWriter<File>,
    runs: Vec<(u64, u64)>,
    written: u64,
}

impl Collector {
    /// At most `capacity` entries are held in memory.
    pub fn new(capacity: usize) -> Collector {
        let capacity = capacity.max(1);
        Collector {
            chunk: Vec::with_capacity(capacity.min(1 << 16)),
            capacity,
            spill: None,
        }
    }

    pub fn push(&mut self, entry: KeyedRow) -> io::Result<()> {
        self.chunk.push(entry);
        if self.chunk.len() >= self.capacity {
            self.spill_chunk()?;
        }
        Ok(())
    }

    /// Whether any run went to disk.
    #[cfg(test)]
    pub fn spilled(&self) -> bool {
        self.spill.is_some()
    }

    fn spill_chunk(&mut self) -> io::Result<()> {
        self.chunk.sort_unstable();
        let spill = match &mut self.spill {
            Some(spill) => spill,
            None => self.spill.insert(Spill {
                file: BufWriter::with_capacity(RUN_BUFFER, tempfile::tempfile()?),
                runs: Vec::new(),
                written: 0,
            }),
        };
        let start = spill.written;
        for entry in self.chunk.drain(..) {
            spill.file.write_all(&entry.to_bytes())?;
            spill.written += ENTRY_BYTES as u64;
        }
        spill.runs.push((start, spill.written));
        Ok(())
    }

    /// Every entry pushed, in order.
    pub fn finish(mut self) -> io::Result<Sorted> {
        if self.spill.is_none() {
            self.chunk.sort_unstable();
            return Ok(Sorted::Memory(self.chunk.into_iter()));
        }
        if !self.chunk.is_empty() {
            self.spill_chunk()?;
        }
        let Some(spill) = self.spill else {
            return Ok(Sorted::Memory(Vec::new().into_iter()));
        };
        let file = spill.file.into_inner().map_err(|e| e.into_error())?;
        let mut runs: Vec<RunReader> = spill
            .runs
            .iter()
            .map(|&(start, end)| RunReader {
                next: start,
                end,
                buffer: Vec::new(),
                at: 0,
            })
            .collect();
        let mut heap = BinaryHeap::with_capacity(runs.len());
        for (n, run) in runs.iter_mut().enumerate() {
            if let Some(entry) = run.next(&file)? {
                heap.push(Reverse((entry, n)));
            }
        }
        Ok(Sorted::Merged(Merge { file, runs, heap }))
    }
}

/// A sorted run of the temporary file, read a buffer at a time.
struct RunReader {
    next: u64,
    end: u64,
    buffer: Vec<u8>,
    at: usize,
}

impl RunReader {
    fn next(&mut self, file: &File) -> io::Result<Option<KeyedRow>> {
        if self.at >= self.buffer.len() {
            let left = self.end - self.next;
            if left == 0 {
                return Ok(None);
            }
            let take = left.min(RUN_BUFFER as u64) as usize;
            self.buffer.resize(take, 0);
            read_exact_at(file, &mut self.buffer, self.next)?;
            self.next += take as u64;
            self.at = 0;
        }
        let entry = KeyedRow::from_bytes(&self.buffer[self.at..self.at + ENTRY_BYTES]);
        self.at += ENTRY_BYTES;
        Ok(Some(entry))
    }
}

/// The runs merged: the smallest head of all runs next.
pub struct Merge {
    file: File,
    runs: Vec<RunReader>,
    heap: BinaryHeap<Reverse<(KeyedRow, usize)>>,
}

/// A version's entries in order.
pub enum Sorted {
    Memory(std::vec::IntoIter<KeyedRow>),
    Merged(Merge),
}

impl Sorted {
    pub fn next(&mut self) -> io::Result<Option<KeyedRow>> {
        match self {
            Sorted::Memory(entries) => Ok(entries.next()),
            Sorted::Merged(merge) => {
                let Some(Reverse((entry, n))) = merge.heap.pop() else {
                    return Ok(None);
                };
                if let Some(following) = merge.runs[n].next(&merge.file)? {
                    merge.heap.push(Reverse((following, n)));
                }
                Ok(Some(entry))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(mut sorted: Sorted) -> Vec<KeyedRow> {
        let mut out = Vec::new();
        while let Some(entry) = sorted.next().unwrap() {
            out.push(entry);
        }
        out
    }

    #[test]
    fn spilled_runs_merge_to_the_order_memory_gives() {
        let entries: Vec<KeyedRow> = (0..10_007u64)
            .map(|n| KeyedRow {
                key: u128::from(n.wrapping_mul(0x9e37_79b9_7f4a_7c15) % 5_003) << 70,
                row: n % 7,
                offset: n,
            })
            .collect();
        let mut small = Collector::new(100);
        let mut large = Collector::new(1 << 20);
        for entry in &entries {
            small.push(*entry).unwrap();
            large.push(*entry).unwrap();
        }
        assert!(small.spilled() && !large.spilled());
        let merged = drain(small.finish().unwrap());
        let mut expected = entries.clone();
        expected.sort_unstable();
        assert_eq!(merged, expected);
        assert_eq!(drain(large.finish().unwrap()), expected);
    }
}
