//! The manifest entries a build records, written to a file as each dataset is done rather
//! than kept in memory until the build ends: on 10,000 datasets they were a fifth of the
//! build's peak memory (about 1 KB per dataset). The manifest is then streamed from it.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;

use serde::ser::{Error as _, SerializeMap};
use serde::{Serialize, Serializer};

use super::manifest::WrittenFiles;

/// One `[slug, entry]` JSON line per recorded dataset, in the order they were done, and
/// beside it the records file: each dataset's record, which its entry points to.
pub(super) struct Spill {
    path: PathBuf,
    /// None once a write failed (or the file could not be made): no manifest is saved.
    out: Option<BufWriter<File>>,
    records: Option<RecordsOut>,
}

/// The records file being written, and how many bytes it holds.
struct RecordsOut {
    path: PathBuf,
    out: BufWriter<File>,
    written: u64,
}

impl Spill {
    /// A new, empty spill file at `path` (a file of the cache folder, replaced if there).
    /// Whatever is at that name is unlinked first and the file made anew, so a link put
    /// there (the cache folder may come with the site) is never followed.
    /// The records go to `records`, made the same way (none when it cannot be made).
    pub fn create(path: PathBuf, records: Option<PathBuf>) -> Spill {
        let records = records.and_then(|path| {
            let out = create_new(&path)?;
            Some(RecordsOut {
                path,
                out,
                written: 0,
            })
        });
        Spill {
            out: create_new(&path),
            path,
            records,
        }
    }

    /// Records `entry`, and `record` (a dataset's record, JSON) in the records file
    /// with the entry pointing to it.
    pub fn push(&mut self, slug: &str, entry: &WrittenFiles, record: Option<&[u8]>) {
        let Some(out) = &mut self.out else {
            return;
        };
        let mut entry = std::borrow::Cow::Borrowed(entry);
        if let (Some(record), Some(records)) = (record, &mut self.records) {
            let at = [records.written, record.len() as u64];
            match records.out.write_all(record) {
                Ok(()) => {
                    records.written += at[1];
                    entry.to_mut().record = Some(at);
                }
                Err(_) => self.records = None,
            }
        } else if entry.record.is_some() {
            entry.to_mut().record = None;
        }
        let written = serde_json::to_writer(&mut *out, &(slug, &*entry)).is_ok()
            && out.write_all(b"\n").is_ok();
        if !written {
            self.out = None;
        }
    }

    /// Everything pushed, to be serialized as the manifest's map of datasets; None when
    /// some entry could not be written.
    pub fn finish(mut self) -> Option<Recorded> {
        let mut out = self.out.take()?;
        out.flush().ok()?;
        // Entries that point into a records file that could not be finished point nowhere:
        // the manifest is saved without it, and reading a record then fails its check.
        if let Some(records) = &mut self.records {
            if records.out.flush().is_err() {
                self.records = None;
            }
        }
        Some(Recorded(self))
    }
}

/// A new file at `path`, whatever had that name unlinked first, so a link put there (the
/// cache folder may come with the site) is never followed.
fn create_new(path: &std::path::Path) -> Option<BufWriter<File>> {
    let _ = std::fs::remove_file(path);
    File::options()
        .write(true)
        .create_new(true)
        .open(path)
        .ok()
        .map(BufWriter::new)
}

impl Drop for Spill {
    fn drop(&mut self) {
        self.out = None;
        let _ = std::fs::remove_file(&self.path);
        if let Some(records) = self.records.take() {
            drop(records.out);
            // Gone already when the manifest took it.
            let _ = std::fs::remove_file(&records.path);
        }
    }
}

/// The entries of a finished [`Spill`], serialized as a map from slug to entry, read back
/// one line at a time. The file is removed when this is dropped.
pub(super) struct Recorded(Spill);

impl Recorded {
    /// The records file the entries point into, when it was written whole.
    pub fn records(&self) -> Option<&std::path::Path> {
        self.0.records.as_ref().map(|r| r.path.as_path())
    }
}

impl Serialize for Recorded {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let file = File::open(&self.0.path).map_err(S::Error::custom)?;
        let mut map = serializer.serialize_map(None)?;
        for line in BufReader::new(file).lines() {
            let line = line.map_err(S::Error::custom)?;
            let (slug, entry): (String, WrittenFiles) =
                serde_json::from_str(&line).map_err(S::Error::custom)?;
            map.serialize_entry(&slug, &entry)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::FileDigest;

    #[test]
    fn the_entries_pushed_read_back_as_a_map_and_the_file_goes_away() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("spill");
        let mut spill = Spill::create(path.clone(), None);
        let digest = |p: &str| FileDigest {
            path: p.into(),
            bytes: 3,
            sha256: crate::checksum::Sha256::of(b"ab"),
        };
        let b = WrittenFiles::new("kb".into(), &["x/b.html".into()], &[digest("b.json")]).unwrap();
        let a = WrittenFiles::new("ka".into(), &["x/a \"q\".html".into()], &[digest("a.json")])
            .unwrap();
        spill.push("b", &b, None);
        spill.push("a", &a, None);
        let recorded = spill.finish().unwrap();
        let text = serde_json::to_string(&recorded).unwrap();
        let back: std::collections::BTreeMap<String, WrittenFiles> =
            serde_json::from_str(&text).unwrap();
        assert_eq!(back, [("a".into(), a), ("b".into(), b)].into());
        drop(recorded);
        assert!(!path.exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_at_the_spill_files_name_is_replaced_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside.txt");
        std::fs::write(&outside, "keep me").unwrap();
        let path = dir.path().join("spill");
        std::os::unix::fs::symlink(&outside, &path).unwrap();
        let mut spill = Spill::create(path.clone(), None);
        let entry = WrittenFiles::new("k".into(), &["a.html".into()], &[]).unwrap();
        spill.push("a", &entry, None);
        let recorded = spill.finish().unwrap();
        assert!(serde_json::to_string(&recorded).unwrap().contains("a.html"));
        drop(recorded);
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep me");
        assert!(std::fs::symlink_metadata(&path).is_err());
    }

    #[test]
    fn each_entry_points_at_its_own_record() {
        let dir = tempfile::tempdir().unwrap();
        let (path, records) = (dir.path().join("spill"), dir.path().join("records"));
        let mut spill = Spill::create(path.clone(), Some(records.clone()));
        let mut stale = WrittenFiles::new("k".into(), &["a.html".into()], &[]).unwrap();
        stale.record = Some([99, 1]);
        spill.push("a", &stale, Some(b"{\"a\":1}"));
        spill.push("b", &stale, None);
        spill.push("c", &stale, Some(b"[2]"));
        let recorded = spill.finish().unwrap();
        assert_eq!(recorded.records(), Some(records.as_path()));
        let text = serde_json::to_string(&recorded).unwrap();
        let back: std::collections::BTreeMap<String, WrittenFiles> =
            serde_json::from_str(&text).unwrap();
        let bytes = std::fs::read(&records).unwrap();
        let at = |slug: &str| {
            back[slug]
                .record
                .map(|[o, n]| &bytes[o as usize..(o + n) as usize])
        };
        assert_eq!(at("a"), Some(&b"{\"a\":1}"[..]));
        assert_eq!(at("b"), None);
        assert_eq!(at("c"), Some(&b"[2]"[..]));
        drop(recorded);
        assert!(!records.exists() && !path.exists());
    }
}
