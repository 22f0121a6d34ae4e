//! The identity of one version of a file on disk (`FileStamp`): what the scan cache, the
//! download check and `serve`'s kept CSV copies compare to know a file did not change.

use std::path::Path;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

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

    /// The file's size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Whether both times are at least `age` before `now` (a file changed more recently
    /// might change again within the file system's timestamp granularity, stamp unmoved).
    pub fn older_than(&self, age: Duration, now: SystemTime) -> bool {
        let Ok(now) = now.duration_since(SystemTime::UNIX_EPOCH) else {
            return false;
        };
        let limit = now.as_nanos() as i128 - age.as_nanos() as i128;
        self.modified_ns < limit && self.changed_ns < limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETTLED: Duration = Duration::from_secs(2);

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
        assert!(!stamp(Duration::from_millis(10)).older_than(SETTLED, now));
        assert!(!stamp(Duration::from_millis(1999)).older_than(SETTLED, now));
        assert!(stamp(Duration::from_secs(3)).older_than(SETTLED, now));
        let mut recent_change = stamp(Duration::from_secs(3));
        recent_change.changed_ns = ns;
        assert!(!recent_change.older_than(SETTLED, now));
    }
}
