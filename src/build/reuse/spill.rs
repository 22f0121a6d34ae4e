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
    pub fn create(path: PathBuf) -> Spill {
        let out = File::create(&path).ok().map(BufWriter::new);
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
}
