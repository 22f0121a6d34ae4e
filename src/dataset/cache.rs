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
//!   source ids, the rows the page shows, the datapages version, and the program file
//!   itself (its stamp: a rebuilt binary of the same version may scan differently).
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
use super::stamp::FileStamp;

/// The cache folder, relative to the site root.
pub const CACHE_DIR: &str = ".datapages-cache";

/// Files smaller than this are scanned every time: reading an entry would cost about as much.
const CACHED_FROM_BYTES: u64 = 1024 * 1024;

/// How long a file must have stayed unchanged before its scan is remembered.
pub(crate) const SETTLED: Duration = Duration::from_secs(2);

/// Bumped whenever the entry layout or the meaning of a summary changes (2: a clean scan
/// also means no cell holds a character HTML and XML cannot carry; 3: column profiles;
/// 5: nor a number a 64-bit float cannot hold; 6: the cells equal to the typed numbers,
/// fingerprints' lower half from a fast hasher; 7: whether a text column holds a value
/// pandas reads as missing).
const FORMAT: u32 = 7;

/// Where scans are remembered; `None` in a build that does not use the cache.
#[derive(Debug, Clone)]
pub struct ScanCache {
    dir: PathBuf,
}

/// One remembered scan.
#[derive(Serialize, Deserialize)]
struct RememberedScan {
    format: u32,
    version: String,
    path: PathBuf,
    stamp: FileStamp,
    inputs: String,
    summary: CsvSummary,
}

/// A digest of everything besides the file that changes what the scan reports.
fn fingerprint(inputs: &ScanInputs) -> String {
    // Entries made by another build of datapages are not used, even of the same version:
    // FORMAT covers deliberate changes to what a scan reports, this the ones nobody
    // remembered to bump it for.
    fingerprint_of(inputs, FileStamp::program().unwrap_or_default())
}

/// [`fingerprint`], with the program's stamp given.
fn fingerprint_of(inputs: &ScanInputs, program: &str) -> String {
    let specs: Vec<_> = inputs
        .columns
        .iter()
        .map(|c| (c.spec, &c.missing, c.marks))
        .collect();
    let mut ids: Vec<&str> = inputs.source_ids.iter().copied().collect();
    ids.sort_unstable();
    let description = format!(
        "{specs:?}\n{:?}\n{ids:?}\n{}\n{:?}\n{}",
        inputs.charts, inputs.rows_to_render, inputs.dialect, program
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

    /// See [`plain_folders`]: a cache whose folders are not is not used.
    fn folders_are_own(&self) -> bool {
        plain_folders(
            [self.dir.parent(), Some(self.dir.as_path())]
                .into_iter()
                .flatten(),
        )
    }

    /// An entry is named by the file's canonical path (links followed), so that every
    /// spelling of the site's root finds it.
    fn entry_path(&self, csv: &Path) -> PathBuf {
        let canonical = std::fs::canonicalize(csv)
            .or_else(|_| std::path::absolute(csv))
            .unwrap_or_else(|_| csv.to_path_buf());
        let digest = Sha256::digest(canonical.as_os_str().as_encoded_bytes());
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
            Some(stamp) if stamp.size() >= CACHED_FROM_BYTES && self.folders_are_own() => stamp,
            _ => return scan(),
        };
        let fingerprint = fingerprint(inputs);
        let entry_path = self.entry_path(csv);
        if let Some(summary) = self.recall(&entry_path, csv, &before, (inputs, &fingerprint)) {
            return (Some(summary), Vec::new());
        }
        let started = SystemTime::now();
        let (summary, problems) = scan();
        if let Some(summary) = &summary {
            let unchanged = FileStamp::of(csv) == Some(before) && summary.bytes == before.size();
            if problems.is_empty() && unchanged && before.older_than(SETTLED, started) {
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
        (inputs, fingerprint): (&ScanInputs, &str),
    ) -> Option<CsvSummary> {
        // An entry is a plain file datapages wrote: never follow a link in its place.
        if !std::fs::symlink_metadata(entry_path).is_ok_and(|m| m.file_type().is_file()) {
            return None;
        }
        let text = std::fs::read(entry_path).ok()?;
        // A damaged or foreign entry is not an error: the file is scanned again.
        let entry: RememberedScan = serde_json::from_slice(&text).ok()?;
        let matches = entry.format == FORMAT
            && entry.version == env!("CARGO_PKG_VERSION")
            && entry.path == csv
            && entry.stamp == *stamp
            && entry.inputs == fingerprint;
        if !matches {
            return None;
        }
        let mut summary = entry.summary;
        // The typed numbers are not part of the key (editing the prose's numbers does not
        // scan again): matches looked for with other numbers are dropped, and `check`
        // reads the file for them.
        let typed = (inputs.typed_numbers, inputs.primary_key);
        if summary
            .typed_cells
            .as_ref()
            .is_some_and(|t| !t.is_for(typed.0, typed.1))
        {
            summary.typed_cells = None;
        }
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
        let entry = RememberedScan {
            format: FORMAT,
            version: env!("CARGO_PKG_VERSION").to_string(),
            path: csv.to_path_buf(),
            stamp,
            inputs,
            summary: summary.clone(),
        };
        if std::fs::create_dir_all(&self.dir).is_err() {
            return;
        }
        write_json_atomically(entry_path, &entry);
    }
}

/// Whether each of `folders` is a plain folder (or not there yet). A symbolic link in the
/// place of a cache folder, committed to the site, could lead outside it: entries would be
/// read from there and written there. Shared by the scan cache and the reuse manifest.
pub(crate) fn plain_folders<'a>(folders: impl IntoIterator<Item = &'a Path>) -> bool {
    folders
        .into_iter()
        .all(|folder| match std::fs::symlink_metadata(folder) {
            Ok(m) => m.file_type().is_dir(),
            Err(e) => e.kind() == std::io::ErrorKind::NotFound,
        })
}

/// Writes `value` as JSON to `path` through a temporary file and a rename, so a reader
/// never sees half of it; on any failure the temporary file is removed and nothing else
/// happens (a cache only saves time).
pub(crate) fn write_json_atomically(path: &Path, value: &impl Serialize) {
    use std::io::Write;
    let temporary = path.with_extension(format!("partial-{}", std::process::id()));
    // Made anew (O_EXCL) after unlinking whatever has its name: a link there is not followed.
    let _ = std::fs::remove_file(&temporary);
    let created = std::fs::File::options()
        .write(true)
        .create_new(true)
        .open(&temporary);
    let written = created.is_ok_and(|out| {
        let mut out = std::io::BufWriter::new(out);
        serde_json::to_writer(&mut out, value).is_ok() && out.flush().is_ok()
    });
    if !written || std::fs::rename(&temporary, path).is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The program file is found, and another program file gives another fingerprint, so
    /// that a rebuilt binary scans again.
    // Unix only: Windows gives no file stamp, so nothing is cached there (README, "On Windows").
    #[cfg(unix)]
    #[test]
    fn entries_are_keyed_by_the_program_file() {
        let program = FileStamp::program().expect("the test program is found");
        assert!(program.contains("inode"), "{program}");
        let no_sources = std::collections::HashSet::new();
        let inputs = ScanInputs {
            columns: &[],
            charts: &[],
            source_ids: &no_sources,
            rows_to_render: 10,
            dialect: crate::content::dialect::CsvDialect::COMMA,
            typed_numbers: &[],
            primary_key: &[],
        };
        assert_eq!(fingerprint(&inputs), fingerprint_of(&inputs, program));
        assert_ne!(
            fingerprint(&inputs),
            fingerprint_of(&inputs, "another build")
        );
    }
}
