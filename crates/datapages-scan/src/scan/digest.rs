//! The SHA-256 of a scanned file: inline for small files, on a second thread for large ones
//! (parsing and hashing then use two cores), or read separately during a split scan.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use sha2::{Digest, Sha256};

use super::READ_BUFFER_BYTES;

/// Files at least this large are hashed on a second thread while the first parses.
const HASH_THREAD_FROM_BYTES: u64 = 4 * 1024 * 1024;

/// Where the bytes of a file go to be hashed.
pub(super) enum Digester {
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
    pub(super) fn new(file_bytes: u64) -> Digester {
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

    /// The digest; `None` if the hashing thread died (or hashes elsewhere).
    pub(super) fn finish(self) -> Option<crate::checksum::Sha256> {
        let hasher = match self {
            Digester::Inline(hasher) => hasher,
            Digester::Thread { chunks, done } => {
                drop(chunks);
                done.join().ok()?
            }
            Digester::Elsewhere => return None,
        };
        Some(crate::checksum::Sha256::finish(hasher))
    }
}

/// Hashes and counts every byte read through it.
pub(super) struct HashingReader<R> {
    pub(super) inner: R,
    pub(super) digester: Digester,
    pub(super) bytes: u64,
}

impl<R> HashingReader<R> {
    /// The SHA-256 and length of what was read (`None` when hashed elsewhere, or when the
    /// hashing thread failed).
    pub(super) fn finish(self) -> Option<(crate::checksum::Sha256, u64)> {
        let bytes = self.bytes;
        self.digester.finish().map(|digest| (digest, bytes))
    }
}

impl<R: Read> Read for HashingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.digester.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }
}

/// Reads a whole file on its own, for a split scan: (its SHA-256, bytes).
pub(super) fn hash_file(path: &Path) -> io::Result<(crate::checksum::Sha256, u64)> {
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
    Ok((crate::checksum::Sha256::finish(hasher), bytes))
}

/// Lowercase hexadecimal, as digests are written in metadata.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}
