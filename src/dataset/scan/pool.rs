//! CSV readers kept per thread for files up to 64 KiB, one per read-buffer size. Building a
//! `csv::Reader` builds its parser's transition table (every state times every byte value,
//! about 3,600 steps), which was a quarter of the scan of a 20-row file and 5 % of a
//! rebuild of 10,000 of them. A kept reader is reset before it is kept (`seek_raw` to the
//! start: parser state, line, position, end of file, read buffer), so no file sees
//! anything of the one before.

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};

use super::digest::HashingReader;

/// The read buffer of files under 8 KiB (`read_buffer_bytes`' smallest).
pub(super) const SMALL_BUFFER: usize = 8 * 1024;

/// Readers with a read buffer up to this size are kept (buffers are powers of two from
/// [`SMALL_BUFFER`]: four sizes); a larger file's scan dwarfs building its reader.
const KEPT_UP_TO: usize = 64 * 1024;

/// How many readers a thread keeps: one of each size.
const KEPT_PER_THREAD: usize = 4;

/// The file being scanned, hashed as it is read; empty while the reader is kept.
pub(super) struct Source(Option<HashingReader<File>>);

impl Read for Source {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match &mut self.0 {
            Some(hashing) => hashing.read(buf),
            None => Ok(0),
        }
    }
}

impl Seek for Source {
    /// Only the rewind that resets a kept reader: to the start of a source that has read
    /// nothing.
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let unread = self.0.as_ref().is_none_or(|h| h.bytes == 0);
        match to {
            SeekFrom::Start(0) if unread => Ok(0),
            _ => Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "a scanned CSV is read once, front to back",
            )),
        }
    }
}

thread_local! {
    /// The kept readers, each with its field delimiter and read-buffer size.
    static KEPT: RefCell<Vec<(u8, usize, csv::Reader<Source>)>> = const { RefCell::new(Vec::new()) };
}

/// A reader of `hashing` that splits fields at `delimiter` with a read buffer of
/// `capacity` bytes: the thread's kept one when it fits, else a new one.
pub(super) fn reader(
    hashing: HashingReader<File>,
    delimiter: u8,
    capacity: usize,
) -> csv::Reader<Source> {
    if capacity <= KEPT_UP_TO {
        let kept = KEPT.with(|k| {
            let mut kept = k.borrow_mut();
            let at = kept
                .iter()
                .position(|(d, c, _)| (*d, *c) == (delimiter, capacity))?;
            Some(kept.swap_remove(at).2)
        });
        if let Some(mut reader) = kept {
            *reader.get_mut() = Source(Some(hashing));
            return reader;
        }
    }
    csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .has_headers(false)
        .buffer_capacity(capacity)
        .from_reader(Source(Some(hashing)))
}

/// The file's hashing reader back from `reader`, which is reset and kept for the thread's
/// next file of its size (replacing the oldest kept one when the thread keeps enough).
pub(super) fn finish(
    mut reader: csv::Reader<Source>,
    delimiter: u8,
    capacity: usize,
) -> Option<HashingReader<File>> {
    let hashing = reader.get_mut().0.take();
    let reset = reader.seek_raw(SeekFrom::Start(0), csv::Position::new());
    if capacity <= KEPT_UP_TO && reset.is_ok() {
        KEPT.with(|k| {
            let mut kept = k.borrow_mut();
            if kept.len() >= KEPT_PER_THREAD {
                kept.remove(0);
            }
            kept.push((delimiter, capacity, reader));
        });
    }
    hashing
}
