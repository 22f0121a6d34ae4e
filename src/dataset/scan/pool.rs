//! One CSV reader kept per thread for small files. Building a `csv::Reader` builds its
//! parser's transition table (every state times every byte value, about 3,600 steps),
//! which was a quarter of the scan of a 20-row file and 5 % of a rebuild of 10,000 of
//! them. A kept reader is reset before it is kept (`seek_raw` to the start: parser state,
//! line, position, end of file, read buffer), so no file sees anything of the one before.

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};

use super::digest::HashingReader;

/// The read buffer of files under 8 KiB (`read_buffer_bytes`' smallest): only readers of
/// this size are kept; a larger file's scan dwarfs building its reader.
pub(super) const SMALL_BUFFER: usize = 8 * 1024;

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
    /// The kept reader and its field delimiter.
    static KEPT: RefCell<Option<(u8, csv::Reader<Source>)>> = const { RefCell::new(None) };
}

/// A reader of `hashing` that splits fields at `delimiter` with a read buffer of
/// `capacity` bytes: the thread's kept one when it fits, else a new one.
pub(super) fn reader(
    hashing: HashingReader<File>,
    delimiter: u8,
    capacity: usize,
) -> csv::Reader<Source> {
    if capacity == SMALL_BUFFER {
        let kept = KEPT.with(|k| k.borrow_mut().take());
        if let Some((kept_delimiter, mut reader)) = kept {
            if kept_delimiter == delimiter {
                *reader.get_mut() = Source(Some(hashing));
                return reader;
            }
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
/// next small file.
pub(super) fn finish(
    mut reader: csv::Reader<Source>,
    delimiter: u8,
    capacity: usize,
) -> Option<HashingReader<File>> {
    let hashing = reader.get_mut().0.take();
    let reset = reader.seek_raw(SeekFrom::Start(0), csv::Position::new());
    if capacity == SMALL_BUFFER && reset.is_ok() {
        KEPT.with(|k| *k.borrow_mut() = Some((delimiter, reader)));
    }
    hashing
}
