//! Where a full build keeps what it no longer needs in memory until it ends: each slim
//! copy's record (`site::datasets`), appended to an unnamed temporary file and read back
//! by position. On 10,000 synthetic datasets the slim copies made a build's memory grow
//! from 19 to 35 MiB; the descriptions alone were a quarter of that.

use std::fs::File;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// An unnamed temporary file (no name on disk, so nothing is left behind whatever ends
/// the process) that records are appended to from any thread and read back by position.
#[derive(Debug)]
pub struct RecordStore {
    file: File,
    /// Where the next record goes: each writer reserves its bytes first.
    #[cfg_attr(not(unix), allow(dead_code))]
    end: AtomicU64,
    /// The first record that could not be read back: the build must then fail rather than
    /// publish pages without it.
    read_failure: OnceLock<String>,
}

impl RecordStore {
    /// A new store in the system's temporary folder; `None` where none can be made (records
    /// then stay in memory).
    pub fn new() -> Option<Arc<RecordStore>> {
        if !cfg!(unix) {
            return None;
        }
        let file = tempfile::tempfile().ok()?;
        Some(Arc::new(RecordStore {
            file,
            end: AtomicU64::new(0),
            read_failure: OnceLock::new(),
        }))
    }

    /// Why a stored record could not be read back, if one could not.
    pub fn read_failure(&self) -> Option<&str> {
        self.read_failure.get().map(String::as_str)
    }

    /// Appends `bytes` (from any thread); where they start, or `None` when they cannot be
    /// written.
    #[cfg(unix)]
    pub fn append(&self, bytes: &[u8]) -> Option<u64> {
        use std::os::unix::fs::FileExt;
        let at = self.end.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        self.file.write_all_at(bytes, at).ok()?;
        Some(at)
    }

    #[cfg(not(unix))]
    pub fn append(&self, _bytes: &[u8]) -> Option<u64> {
        None
    }

    /// The `length` bytes appended at `at`; `None`, remembered as the store's read
    /// failure, when they cannot be read.
    pub fn read_bytes(&self, at: u64, length: u32) -> Option<Vec<u8>> {
        match self.read_raw(at, length) {
            Ok(bytes) => Some(bytes),
            Err(e) => {
                self.note_failure(&format!("cannot read back what a temporary file kept: {e}"));
                None
            }
        }
    }

    /// Remembers the first reason something kept here could not be had back.
    pub fn note_failure(&self, why: &str) {
        let _ = self.read_failure.set(why.to_string());
    }

    #[cfg(unix)]
    fn read_raw(&self, at: u64, length: u32) -> std::io::Result<Vec<u8>> {
        use std::os::unix::fs::FileExt;
        let mut buffer = vec![0; length as usize];
        self.file.read_exact_at(&mut buffer, at)?;
        Ok(buffer)
    }

    #[cfg(not(unix))]
    fn read_raw(&self, _at: u64, _length: u32) -> std::io::Result<Vec<u8>> {
        Err(std::io::Error::other(
            "nothing is kept in a file on this platform",
        ))
    }
}

/// Why a dataset kept in the build's record store could not be had back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadBackFailed(pub String);

impl std::fmt::Display for ReadBackFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<ReadBackFailed> for std::io::Error {
    fn from(failed: ReadBackFailed) -> std::io::Error {
        std::io::Error::other(failed.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appended_bytes_come_back_exactly_from_any_thread() {
        let store = RecordStore::new().expect("a temporary file");
        let texts: Vec<String> = (0..200)
            .map(|n| format!("Déjà {n}: ").repeat(n % 17 + 1))
            .collect();
        let kept: Vec<(u64, u32)> = std::thread::scope(|scope| {
            let halves = texts.chunks(100).map(|half| {
                let store = &store;
                scope.spawn(move || {
                    half.iter()
                        .map(|t| (store.append(t.as_bytes()).unwrap(), t.len() as u32))
                        .collect::<Vec<_>>()
                })
            });
            halves
                .collect::<Vec<_>>()
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect()
        });
        for (text, &(at, length)) in texts.iter().zip(&kept) {
            assert_eq!(store.read_bytes(at, length).unwrap(), text.as_bytes());
        }
        assert!(store.read_failure().is_none());
    }

    #[test]
    fn bytes_that_cannot_be_read_back_are_reported_by_the_store() {
        let store = RecordStore::new().expect("a temporary file");
        let at = store.append(&[b'x'; 100]).unwrap();
        assert_eq!(store.read_bytes(at, 100).unwrap(), vec![b'x'; 100]);
        // A position past the end of the file, as a damaged store would give.
        assert!(store.read_bytes(1 << 20, 100).is_none());
        assert!(store
            .read_failure()
            .is_some_and(|why| why.contains("cannot read back")));
    }
}
