//! The manifest entries a build records, written to a file as each dataset is done rather
//! than kept in memory until the build ends: on 10,000 datasets they were a fifth of the
//! build's peak memory (about 1 KB per dataset). The manifest is then streamed from it.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;

use serde::ser::{Error as _, SerializeMap};
use serde::{Serialize, Serializer};

use super::manifest::Entry;

/// One `[slug, entry]` JSON line per recorded dataset, in the order they were done.
pub(super) struct Spill {
    path: PathBuf,
    /// None once a write failed (or the file could not be made): no manifest is saved.
    out: Option<BufWriter<File>>,
}

impl Spill {
    /// A new, empty spill file at `path` (a file of the cache folder, replaced if there).
    /// Whatever is at that name is unlinked first and the file made anew, so a link put
    /// there (the cache folder may come with the site) is never followed.
    pub fn create(path: PathBuf) -> Spill {
        let _ = std::fs::remove_file(&path);
        let out = File::options()
            .write(true)
            .create_new(true)
            .open(&path)
            .ok()
            .map(BufWriter::new);
        Spill { path, out }
    }

    pub fn push(&mut self, slug: &str, entry: &Entry) {
        let Some(out) = &mut self.out else {
            return;
        };
        let written = serde_json::to_writer(&mut *out, &(slug, entry)).is_ok()
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
        Some(Recorded(self))
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        self.out = None;
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The entries of a finished [`Spill`], serialized as a map from slug to entry, read back
/// one line at a time. The file is removed when this is dropped.
pub(super) struct Recorded(Spill);

impl Serialize for Recorded {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let file = File::open(&self.0.path).map_err(S::Error::custom)?;
        let mut map = serializer.serialize_map(None)?;
        for line in BufReader::new(file).lines() {
            let line = line.map_err(S::Error::custom)?;
            let (slug, entry): (String, Entry) =
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
        let mut spill = Spill::create(path.clone());
        let digest = |p: &str| FileDigest {
            path: p.into(),
            bytes: 3,
            sha256: "ab".repeat(32),
        };
        let b = Entry::new("kb".into(), &["x/b.html".into()], &[digest("b.json")]).unwrap();
        let a = Entry::new("ka".into(), &["x/a \"q\".html".into()], &[digest("a.json")]).unwrap();
        spill.push("b", &b);
        spill.push("a", &a);
        let recorded = spill.finish().unwrap();
        let text = serde_json::to_string(&recorded).unwrap();
        let back: std::collections::BTreeMap<String, Entry> = serde_json::from_str(&text).unwrap();
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
        let mut spill = Spill::create(path.clone());
        let entry = Entry::new("k".into(), &["a.html".into()], &[]).unwrap();
        spill.push("a", &entry);
        let recorded = spill.finish().unwrap();
        assert!(serde_json::to_string(&recorded).unwrap().contains("a.html"));
        drop(recorded);
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep me");
        assert!(std::fs::symlink_metadata(&path).is_err());
    }
}
