//! Where a build keeps its datasets' catalog entries until it ends: each appended, as
//! JSON, to an unnamed temporary file (no name on disk, so nothing is left behind whatever
//! ends the process) and read back by position. Held in memory, the entries of 10,000
//! datasets took 43 MB (the descriptions, the files' digests, the paths); stored, memory
//! keeps each dataset's `site::Summary` only.

use std::fs::File;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};

use super::entry::CatalogEntry;
use crate::positioned::{read_exact_at, write_all_at};

/// The temporary file entries are appended to from any thread.
#[derive(Debug)]
pub struct EntryStore {
    file: File,
    /// Where the next entry goes: each writer reserves its bytes first.
    end: AtomicU64,
}

/// Where one entry is in the store: its offset and length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stored {
    at: u64,
    bytes: u32,
}

impl EntryStore {
    /// A new store in the system's temporary folder; `None` where none can be made (the
    /// entries then stay in memory).
    pub fn new() -> Option<EntryStore> {
        let file = tempfile::tempfile().ok()?;
        Some(EntryStore {
            file,
            end: AtomicU64::new(0),
        })
    }

    /// Appends `entry` (from any thread); where it is, or `None` when it cannot be
    /// written (it then stays in memory).
    pub fn put(&self, entry: &CatalogEntry) -> Option<Stored> {
        let text = serde_json::to_vec(entry).ok()?;
        let bytes = u32::try_from(text.len()).ok()?;
        let at = self.end.fetch_add(text.len() as u64, Ordering::Relaxed);
        write_all_at(&self.file, &text, at).ok()?;
        Some(Stored { at, bytes })
    }

    /// The entry put at `stored`.
    pub fn get(&self, stored: Stored) -> io::Result<CatalogEntry> {
        let mut text = vec![0; stored.bytes as usize];
        read_exact_at(&self.file, &mut text, stored.at)?;
        serde_json::from_slice(&text).map_err(io::Error::other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entries put from two threads come back exactly, each from where it was put.
    #[test]
    fn entries_put_from_any_thread_come_back_exactly() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let config = crate::config::SiteConfig::load(root).unwrap();
        let folder = root.join(crate::layout::CONTENT_DATASETS);
        let entries: Vec<CatalogEntry> = std::fs::read_dir(folder)
            .unwrap()
            .map(|file| {
                let loaded = super::super::load(root, &file.unwrap().path(), &config, None);
                CatalogEntry::of(&loaded.dataset.unwrap(), Vec::new(), Vec::new())
            })
            .collect();
        assert!(entries.len() >= 4);
        let store = EntryStore::new().expect("a temporary file");
        let kept: Vec<Stored> = std::thread::scope(|scope| {
            let halves: Vec<_> = entries
                .chunks(entries.len() / 2)
                .map(|half| {
                    let store = &store;
                    scope.spawn(move || {
                        half.iter()
                            .map(|e| store.put(e).unwrap())
                            .collect::<Vec<Stored>>()
                    })
                })
                .collect();
            halves
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect::<Vec<Stored>>()
        });
        for (entry, stored) in entries.iter().zip(&kept) {
            assert_eq!(&store.get(*stored).unwrap(), entry);
        }
    }

    /// A position past what was put is an error, not an entry.
    #[test]
    fn a_position_past_the_end_is_an_error() {
        let store = EntryStore::new().expect("a temporary file");
        let stored = Stored { at: 10, bytes: 5 };
        assert!(store.get(stored).is_err());
    }
}
