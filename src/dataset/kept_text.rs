//! Texts a full build keeps for every dataset until it ends (the description, which the
//! catalogs, the feed and the search index state once all datasets are written), held in
//! an unnamed temporary file instead of memory. On 10,000 synthetic datasets the
//! descriptions were a quarter of what the slim copies held (about 900 bytes each).

use std::fs::File;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// Texts shorter than this stay in memory: a stored one costs as much as their bytes.
const STORE_FROM_BYTES: usize = 64;

/// An unnamed temporary file (no name on disk, so nothing is left behind whatever ends
/// the process) that texts are appended to from any thread and read back by position.
#[derive(Debug)]
pub struct TextStore {
    file: File,
    /// Where the next text goes: each writer reserves its bytes first.
    #[cfg_attr(not(unix), allow(dead_code))]
    end: AtomicU64,
    /// The first text that could not be read back: the build must then fail rather than
    /// publish pages without it.
    read_failure: OnceLock<String>,
}

impl TextStore {
    /// A new store in the system's temporary folder; `None` where none can be made (texts
    /// then stay in memory).
    pub fn new() -> Option<Arc<TextStore>> {
        if !cfg!(unix) {
            return None;
        }
        let file = tempfile::tempfile().ok()?;
        Some(Arc::new(TextStore {
            file,
            end: AtomicU64::new(0),
            read_failure: OnceLock::new(),
        }))
    }

    /// Why a stored text could not be read back, if one could not.
    pub fn read_failure(&self) -> Option<&str> {
        self.read_failure.get().map(String::as_str)
    }

    fn write(&self, text: &str) -> Option<u64> {
        self.append(text.as_bytes())
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

    fn read(&self, at: u64, bytes: u32) -> std::io::Result<String> {
        String::from_utf8(self.read_raw(at, bytes)?).map_err(std::io::Error::other)
    }
}

/// A text kept until the build ends: in memory, or in a [`TextStore`].
#[derive(Clone)]
pub enum KeptText {
    Here(Box<str>),
    Stored {
        store: Arc<TextStore>,
        at: u64,
        bytes: u32,
        chars: u32,
    },
}

impl KeptText {
    /// `text`, written to `store` when there is one and the text is long enough to be
    /// worth it; kept in memory when the write fails.
    pub fn new(text: String, store: Option<&Arc<TextStore>>) -> KeptText {
        let stored = store
            .filter(|_| text.len() >= STORE_FROM_BYTES)
            .and_then(|store| {
                let bytes = u32::try_from(text.len()).ok()?;
                let chars = u32::try_from(text.chars().count()).ok()?;
                let at = store.write(&text)?;
                Some(KeptText::Stored {
                    store: Arc::clone(store),
                    at,
                    bytes,
                    chars,
                })
            });
        stored.unwrap_or_else(|| KeptText::Here(text.into_boxed_str()))
    }

    /// The text. A stored text that cannot be read back comes back empty, and its store
    /// remembers why ([`TextStore::read_failure`]), so that the build fails.
    pub fn text(&self) -> String {
        match self {
            KeptText::Here(text) => text.to_string(),
            KeptText::Stored {
                store, at, bytes, ..
            } => store.read(*at, *bytes).unwrap_or_else(|e| {
                let _ = store.read_failure.set(format!(
                    "cannot read back a text kept in a temporary file: {e}"
                ));
                String::new()
            }),
        }
    }

    /// How many characters the text has, without reading it back.
    pub fn chars(&self) -> usize {
        match self {
            KeptText::Here(text) => text.chars().count(),
            KeptText::Stored { chars, .. } => *chars as usize,
        }
    }
}

/// The text itself, wherever it is kept: two slim datasets compare equal in tests when
/// their texts do.
impl std::fmt::Debug for KeptText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("KeptText").field(&self.text()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_texts_come_back_exactly_from_any_thread() {
        let store = TextStore::new().expect("a temporary file");
        let texts: Vec<String> = (0..200)
            .map(|n| format!("Déjà {n}: ").repeat(n % 17 + 1))
            .collect();
        let kept: Vec<KeptText> = std::thread::scope(|scope| {
            let halves = texts.chunks(100).map(|half| {
                let store = &store;
                scope.spawn(move || {
                    half.iter()
                        .map(|t| KeptText::new(t.clone(), Some(store)))
                        .collect::<Vec<_>>()
                })
            });
            halves
                .collect::<Vec<_>>()
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect()
        });
        for (text, kept) in texts.iter().zip(&kept) {
            assert_eq!(&kept.text(), text);
            assert_eq!(kept.chars(), text.chars().count());
            let stored = matches!(kept, KeptText::Stored { .. });
            assert_eq!(stored, text.len() >= STORE_FROM_BYTES, "{text}");
        }
        assert!(store.read_failure().is_none());
    }

    #[test]
    fn a_text_that_cannot_be_read_back_is_reported_by_its_store() {
        let store = TextStore::new().expect("a temporary file");
        let kept = KeptText::new("x".repeat(100), Some(&store));
        // A position past the end of the file, as a damaged store would give.
        let KeptText::Stored { bytes, chars, .. } = kept else {
            panic!("a long text is stored");
        };
        let broken = KeptText::Stored {
            store: Arc::clone(&store),
            at: 1 << 20,
            bytes,
            chars,
        };
        assert_eq!(broken.text(), "");
        assert!(store
            .read_failure()
            .is_some_and(|why| why.contains("cannot read back")));
    }

    #[test]
    fn without_a_store_texts_stay_in_memory() {
        let kept = KeptText::new("y".repeat(100), None);
        assert!(matches!(kept, KeptText::Here(_)));
        assert_eq!(kept.text(), "y".repeat(100));
    }
}
