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
    modified_ns: Nanos,
    changed_ns: Nanos,
}

/// Nanoseconds since the epoch (before 1970 and past 2262 too), stored as two 64-bit
/// halves and written as the one number: an `i128` field would make every struct holding a
/// stamp 16-byte aligned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Nanos {
    high: i64,
    low: u64,
}

impl Nanos {
    fn new(value: i128) -> Nanos {
        Nanos {
            high: (value >> 64) as i64,
            low: value as u64,
        }
    }

    fn get(self) -> i128 {
        (i128::from(self.high) << 64) | i128::from(self.low)
    }
}

impl Serialize for Nanos {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_i128(self.get())
    }
}

impl<'de> Deserialize<'de> for Nanos {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Nanos, D::Error> {
        i128::deserialize(deserializer).map(Nanos::new)
    }
}

impl FileStamp {
    /// The stamp of the file at `path` now; `None` where the platform has no ctime.
    pub fn of(path: &Path) -> Option<FileStamp> {
        FileStamp::from_metadata(&std::fs::metadata(path).ok()?)
    }

    /// The running program file's stamp, written out (worked out once): what the caches
    /// key on besides the version, so that a rebuilt or reinstalled binary of the same
    /// version does not reuse what another one made. `None` where the file is not found.
    pub fn program() -> Option<&'static str> {
        static PROGRAM: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
        PROGRAM
            .get_or_init(|| {
                let program = std::env::current_exe().ok()?;
                Some(format!("{:?}", FileStamp::of(&program)?))
            })
            .as_deref()
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
            modified_ns: Nanos::new(ns(m.mtime(), m.mtime_nsec())),
            changed_ns: Nanos::new(ns(m.ctime(), m.ctime_nsec())),
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
        let modified = self.modified_ns.get();
        if modified >= 0 {
            SystemTime::UNIX_EPOCH + nanos(modified)
        } else {
            SystemTime::UNIX_EPOCH - nanos(-modified)
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
        self.modified_ns.get() < limit && self.changed_ns.get() < limit
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

    /// Written as the one number it was when it was an `i128`: stamps in caches and
    /// records read the same.
    #[test]
    fn nanoseconds_keep_every_value_and_their_written_form() {
        for value in [
            0,
            1,
            -1,
            i128::from(i64::MAX) * 7,
            i128::MIN,
            i128::MAX,
            -1_234_567_890_123_456_789_012,
        ] {
            let nanos = Nanos::new(value);
            assert_eq!(nanos.get(), value);
            let text = serde_json::to_string(&nanos).unwrap();
            assert_eq!(text, serde_json::to_string(&value).unwrap());
            assert_eq!(serde_json::from_str::<Nanos>(&text).unwrap(), nanos);
        }
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
            modified_ns: Nanos::new(ns - age.as_nanos() as i128),
            changed_ns: Nanos::new(ns - age.as_nanos() as i128),
        };
        assert!(!stamp(Duration::from_millis(10)).older_than(SETTLED, now));
        assert!(!stamp(Duration::from_millis(1999)).older_than(SETTLED, now));
        assert!(stamp(Duration::from_secs(3)).older_than(SETTLED, now));
        let mut recent_change = stamp(Duration::from_secs(3));
        recent_change.changed_ns = Nanos::new(ns);
        assert!(!recent_change.older_than(SETTLED, now));
    }
}
