//! Where a build keeps its datasets' catalog entries until it ends: each appended, as
//! JSON, to an unnamed temporary file (no name on disk, so nothing is left behind whatever
//! ends the process) and read back by position. Held in memory, the entries of 10,000
//! datasets took 43 MB (the descriptions, the files' digests, the paths); stored, memory
//! keeps each dataset's `site::Summary` only. An entry taken from the previous build's
//! record stays where it is, in that build's records file (a record is `{"entry": …, …}`):
//! a build that finds its output up to date never reads it back.

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
    /// The previous build's records file, which recalled entries stay in.
    records: Option<File>,
}

/// Where one entry is in the store: its offset and length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stored {
    at: u64,
    bytes: u32,
    /// In the previous build's records file, inside its record.
    in_records: bool,
}

/// A record of the previous build, read for its entry alone.
#[derive(serde::Deserialize)]
struct InRecord {
    entry: CatalogEntry,
}

impl EntryStore {
    /// A new store in the system's temporary folder; `None` where none can be made (the
    /// entries then stay in memory).
    pub fn new() -> Option<EntryStore> {
        let file = tempfile::tempfile().ok()?;
        Some(EntryStore {
            file,
            end: AtomicU64::new(0),
            records: None,
        })
    }

    /// The store, with `records` (the previous build's records file, unchanged while this
    /// build runs) to read recalled entries from.
    pub fn with_records(self, records: Option<File>) -> EntryStore {
        EntryStore { records, ..self }
    }

    /// Where the entry of the record at `[offset, length]` of the records file is; `None`
    /// without one (it is then put).
    pub fn recorded(&self, [at, bytes]: [u64; 2]) -> Option<Stored> {
        self.records.as_ref()?;
        Some(Stored {
            at,
            bytes: u32::try_from(bytes).ok()?,
            in_records: true,
        })
    }

    /// Appends `entry` (from any thread); where it is, or `None` when it cannot be
    /// written (it then stays in memory).
    pub fn put(&self, entry: &CatalogEntry) -> Option<Stored> {
        let text = serde_json::to_vec(entry).ok()?;
        let bytes = u32::try_from(text.len()).ok()?;
        let at = self.end.fetch_add(text.len() as u64, Ordering::Relaxed);
        write_all_at(&self.file, &text, at).ok()?;
        Some(Stored {
            at,
            bytes,
            in_records: false,
        })
    }

    /// The entry put at `stored`.
    pub fn get(&self, stored: Stored) -> io::Result<CatalogEntry> {
        let mut text = vec![0; stored.bytes as usize];
        let file = match (stored.in_records, &self.records) {
            (false, _) => &self.file,
            (true, Some(records)) => records,
            (true, None) => return Err(io::Error::other("an entry was recalled without records")),
        };
        read_exact_at(file, &mut text, stored.at)?;
        match stored.in_records {
            true => serde_json::from_slice(&text).map(|r: InRecord| r.entry),
            false => serde_json::from_slice(&text),
        }
        .map_err(io::Error::other)
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
        let stored = Stored {
            at: 10,
            bytes: 5,
            in_records: false,
        };
        assert!(store.get(stored).is_err());
    }

    /// An entry recalled from a record is read back from the records file, the record's
    /// other fields left aside; without a records file, none is placed there.
    #[test]
    fn a_recalled_entry_is_read_from_its_record() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let config = crate::config::SiteConfig::load(root).unwrap();
        let file = root
            .join(crate::layout::CONTENT_DATASETS)
            .join("nvme-server-dd-fio.md");
        let loaded = super::super::load(root, &file, &config, None);
        let entry = CatalogEntry::of(&loaded.dataset.unwrap(), Vec::new(), Vec::new());
        let record = serde_json::json!({"problems": [], "entry": entry});
        let mut records = tempfile::tempfile().unwrap();
        let text = serde_json::to_vec(&record).unwrap();
        std::io::Write::write_all(&mut records, b"{}").unwrap();
        std::io::Write::write_all(&mut records, &text).unwrap();
        let at = [2, text.len() as u64];
        assert!(EntryStore::new().unwrap().recorded(at).is_none());
        let store = EntryStore::new().unwrap().with_records(Some(records));
        let stored = store.recorded(at).unwrap();
        assert_eq!(store.get(stored).unwrap(), entry);
    }
}
