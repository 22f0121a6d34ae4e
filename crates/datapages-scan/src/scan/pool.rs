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

/// The CSV readers one thread keeps between files (the scan's here, the dataset page's
/// rows in `render::table_rows`), each under its field delimiter and read-buffer size:
/// at most `limit`, the oldest given up first. Whoever keeps a reader rewinds it first.
pub struct KeptReaders<R> {
    readers: Vec<((u8, usize), csv::Reader<R>)>,
    limit: usize,
}

impl<R> KeptReaders<R> {
    pub const fn new(limit: usize) -> Self {
        KeptReaders {
            readers: Vec::new(),
            limit,
        }
    }

    /// A kept reader for fields split at `delimiter` with a `capacity`-byte buffer.
    pub fn take(&mut self, delimiter: u8, capacity: usize) -> Option<csv::Reader<R>> {
        let at = self
            .readers
            .iter()
            .position(|(key, _)| *key == (delimiter, capacity))?;
        Some(self.readers.remove(at).1)
    }

    /// Keeps `reader`, already rewound, for the next file of its kind.
    pub fn keep(&mut self, delimiter: u8, capacity: usize, reader: csv::Reader<R>) {
        if self.readers.len() >= self.limit {
            self.readers.remove(0);
        }
        self.readers.push(((delimiter, capacity), reader));
    }
}

thread_local! {
    /// The scan's kept readers.
    static KEPT: RefCell<KeptReaders<Source>> = const { RefCell::new(KeptReaders::new(KEPT_PER_THREAD)) };
}

/// A reader of `hashing` that splits fields at `delimiter` with a read buffer of
/// `capacity` bytes: the thread's kept one when it fits, else a new one.
pub(super) fn reader(
    hashing: HashingReader<File>,
    delimiter: u8,
    capacity: usize,
) -> csv::Reader<Source> {
    if capacity <= KEPT_UP_TO {
        if let Some(mut reader) = KEPT.with(|k| k.borrow_mut().take(delimiter, capacity)) {
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
        KEPT.with(|k| k.borrow_mut().keep(delimiter, capacity, reader));
    }
    hashing
}
