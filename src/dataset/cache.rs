//! Remembers the scans of large CSV files that have not changed, so that a rebuild (and every
//! reload of `serve`) does not check a million rows again when only the prose changed.
//!
//! An entry is kept in `<root>/.datapages-cache/scans/` and used only when all of these are
//! the same as when it was written:
//! - the file's identity and stamp: device, inode, size, and modification and status-change
//!   times to the nanosecond. The status-change time (ctime) is set by the kernel on every
//!   write and cannot be set back by programs, so an edit that restores the old mtime is
//!   still seen;
//! - everything the scan depended on: the columns and their constraints, the charts, the
//!   source ids, the rows the page shows, and the datapages version.
//!
//! A file that changed less than [`SETTLED`] before it was scanned is not remembered (the
//! "racy" case of Git's index: a second write within the file system's timestamp granularity
//! would keep the same stamp). Neither is a scan that found any problem, so that every
//! problem is reported on every build. The cache can be deleted at any time, and
//! `--no-cache` ignores it.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::scan::{hex, CsvSummary, ScanInputs};

/// The cache folder, relative to the site root.
pub const CACHE_DIR: &str = ".datapages-cache";

/// Files smaller than this are scanned every time: reading an entry would cost about as much.
const CACHED_FROM_BYTES: u64 = 1024 * 1024;

/// How long a file must have stayed unchanged before its scan is remembered.
const SETTLED: Duration = Duration::from_secs(2);

/// Bumped whenever the entry layout or the meaning of a summary changes (2: a clean scan
/// also means no cell holds a character HTML and XML cannot carry).
const FORMAT: u32 = 2;

/// Where scans are remembered; `None` in a build that does not use the cache.
#[derive(Debug, Clone)]
pub struct ScanCache {
    dir: PathBuf,
}

/// What identifies one version of a file on disk: equal stamps mean the same bytes (the
/// kernel moves the status-change time on every write, and programs cannot set it back).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStamp {
    device: u64,
    inode: u64,
    size: u64,
    modified_ns: i128,
    changed_ns: i128,
}

impl FileStamp {
    /// The stamp of the file at `path` now; `None` where the platform has no ctime.
    pub fn of(path: &Path) -> Option<FileStamp> {
        FileStamp::from_metadata(&std::fs::metadata(path).ok()?)
    }

    /// The stamp of an open file, from its metadata.
    #[cfg(unix)]
    pub fn from_metadata(m: &std::fs::Metadata) -> Option<FileStamp> {
        use std::os::unix::fs::MetadataExt;
        let ns = |secs: i64, nanos: i64| i128::from(secs) * 1_000_000_000 + i128::from(nanos);
        Some(FileStamp {
            device: m.dev(),
            inode: m.ino(),
            size: m.size(),
            modified_ns: ns(m.mtime(), m.mtime_nsec()),
            changed_ns: ns(m.ctime(), m.ctime_nsec()),
        })
    }

    /// Without a status-change time there is no safe stamp: never cache.
    #[cfg(not(unix))]
    pub fn from_metadata(_m: &std::fs::Metadata) -> Option<FileStamp> {
        None
    }

    /// The modification time the stamp records.
    pub fn modified(&self) -> SystemTime {
        let nanos = |ns: i128| Duration::from_nanos(u64::try_from(ns).unwrap_or(u64::MAX));
        if self.modified_ns >= 0 {
            SystemTime::UNIX_EPOCH + nanos(self.modified_ns)
        } else {
            SystemTime::UNIX_EPOCH - nanos(-self.modified_ns)
        }
    }

    /// Whether both times are at least [`SETTLED`] before `now`.
    fn settled(&self, now: SystemTime) -> bool {
        let Ok(now) = now.duration_since(SystemTime::UNIX_EPOCH) else {
            return false;
        };
        let limit = now.as_nanos() as i128 - SETTLED.as_nanos() as i128;
        self.modified_ns < limit && self.changed_ns < limit
    }
}

/// One remembered scan.
#[derive(Serialize, Deserialize)]
struct Entry {
    format: u32,
    version: String,
    path: PathBuf,
    stamp: FileStamp,
    inputs: String,
    summary: CsvSummary,
}

/// A digest of everything besides the file that changes what the scan reports.
fn fingerprint(inputs: &ScanInputs) -> String {
    let specs: Vec<_> = inputs.columns.iter().map(|c| c.spec).collect();
    let mut ids: Vec<&str> = inputs.source_ids.iter().copied().collect();
    ids.sort_unstable();
    let description = format!(
        "{specs:?}\n{:?}\n{ids:?}\n{}",
        inputs.charts, inputs.rows_to_render
    );
    hex(&Sha256::digest(description.as_bytes()))
}

impl ScanCache {
    /// The cache of the site at `root`.
    pub fn in_site(root: &Path) -> ScanCache {
        ScanCache {
            dir: root.join(CACHE_DIR).join("scans"),
        }
    }

    /// The cache folders are datapages' own plain folders (or not there yet). A symbolic link
    /// in their place, committed to the site, could lead outside it: entries would be read
    /// from there and written there, so such a cache is not used.
    fn folders_are_own(&self) -> bool {
        [self.dir.parent(), Some(self.dir.as_path())]
            .into_iter()
            .flatten()
            .all(|folder| match std::fs::symlink_metadata(folder) {
                Ok(m) => m.file_type().is_dir(),
                Err(e) => e.kind() == std::io::ErrorKind::NotFound,
            })
    }

    fn entry_path(&self, csv: &Path) -> PathBuf {
        let absolute = std::path::absolute(csv).unwrap_or_else(|_| csv.to_path_buf());
        let digest = Sha256::digest(absolute.as_os_str().as_encoded_bytes());
        self.dir.join(format!("{}.json", &hex(&digest)[..32]))
    }

    /// Scans `csv` unless an entry for this exact file and these inputs exists; remembers
    /// the result when it is safe to.
    pub fn scan(
        &self,
        csv: &Path,
        inputs: &ScanInputs,
        scan: impl FnOnce() -> (Option<CsvSummary>, Vec<crate::diagnostics::Diagnostic>),
    ) -> (Option<CsvSummary>, Vec<crate::diagnostics::Diagnostic>) {
        let before = match FileStamp::of(csv) {
            Some(stamp) if stamp.size >= CACHED_FROM_BYTES && self.folders_are_own() => stamp,
            _ => return scan(),
        };
        let fingerprint = fingerprint(inputs);
        let entry_path = self.entry_path(csv);
        if let Some(summary) = self.recall(&entry_path, csv, &before, &fingerprint) {
            return (Some(summary), Vec::new());
        }
        let started = SystemTime::now();
        let (summary, problems) = scan();
        if let Some(summary) = &summary {
            let unchanged = FileStamp::of(csv) == Some(before) && summary.bytes == before.size;
            if problems.is_empty() && unchanged && before.settled(started) {
                self.remember(&entry_path, csv, before, fingerprint, summary);
            }
        }
        (summary, problems)
    }

    fn recall(
        &self,
        entry_path: &Path,
        csv: &Path,
        stamp: &FileStamp,
        fingerprint: &str,
    ) -> Option<CsvSummary> {
        // An entry is a plain file datapages wrote: never follow a link in its place.
        if !std::fs::symlink_metadata(entry_path).is_ok_and(|m| m.file_type().is_file()) {
            return None;
        }
        let text = std::fs::read(entry_path).ok()?;
        // A damaged or foreign entry is not an error: the file is scanned again.
        let entry: Entry = serde_json::from_slice(&text).ok()?;
        let matches = entry.format == FORMAT
            && entry.version == env!("CARGO_PKG_VERSION")
            && entry.path == csv
            && entry.stamp == *stamp
            && entry.inputs == fingerprint;
        if !matches {
            return None;
        }
        let mut summary = entry.summary;
        summary.modified = Some(stamp.modified());
        summary.stamp = Some(*stamp);
        Some(summary)
    }

    /// Writes the entry through a temporary file and a rename, so a reader never sees half
    /// of one. Failing to write is not an error: the cache only saves time.
    fn remember(
        &self,
        entry_path: &Path,
        csv: &Path,
        stamp: FileStamp,
        inputs: String,
        summary: &CsvSummary,
    ) {
        let entry = Entry {
            format: FORMAT,
            version: env!("CARGO_PKG_VERSION").to_string(),
            path: csv.to_path_buf(),
            stamp,
            inputs,
            summary: summary.clone(),
        };
        let Ok(json) = serde_json::to_vec(&entry) else {
            return;
        };
        if std::fs::create_dir_all(&self.dir).is_err() {
            return;
        }
        let temporary = entry_path.with_extension(format!("partial-{}", std::process::id()));
        if std::fs::write(&temporary, json).is_ok()
            && std::fs::rename(&temporary, entry_path).is_err()
        {
            let _ = std::fs::remove_file(&temporary);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_stamp_records_the_modification_time_the_file_system_reports() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        std::fs::write(&path, "a\n1\n").unwrap();
        let stamp = FileStamp::of(&path).unwrap();
        let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
        assert_eq!(stamp.modified(), modified);
    }

    #[test]
    fn a_stamp_is_settled_only_after_the_margin() {
        let now = SystemTime::now();
        let ns = now
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.as_nanos() as i128)
            .unwrap_or_default();
        let stamp = |age: Duration| FileStamp {
            device: 1,
            inode: 2,
            size: 3,
            modified_ns: ns - age.as_nanos() as i128,
            changed_ns: ns - age.as_nanos() as i128,
        };
        assert!(!stamp(Duration::from_millis(10)).settled(now));
        assert!(!stamp(Duration::from_millis(1999)).settled(now));
        assert!(stamp(Duration::from_secs(3)).settled(now));
        let mut recent_change = stamp(Duration::from_secs(3));
        recent_change.changed_ns = ns;
        assert!(!recent_change.settled(now));
    }
}
