//! Writing `public/` safely: everything goes into a staging folder beside it, which
//! replaces the old output only after the whole build has succeeded.
//!
//! Invariant: a failed or interrupted build never touches the previous output; the staging
//! folder is removed when it is dropped without being committed.

use std::collections::HashSet;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Somewhere a build writes its files: a staging folder (full builds) or the live output
/// folder that `serve` is serving (incremental rebuilds).
pub trait OutputSink: Sync {
    /// The folder files land in.
    fn root(&self) -> &Path;

    /// Where to write a file first, and where it must end up (the same path when nobody
    /// can see the folder yet). Creates the parent folders.
    fn paths(&self, relative: &str) -> io::Result<(PathBuf, PathBuf)>;

    /// Opens a file for writing; it appears under its name only when finished.
    fn create(&self, relative: &str) -> io::Result<PendingFile> {
        let (temp, target) = self.paths(relative)?;
        PendingFile::open(temp, target)
    }

    /// Writes a whole file.
    fn write(&self, relative: &str, bytes: &[u8]) -> io::Result<()> {
        let (temp, target) = self.paths(relative)?;
        fs::write(&temp, bytes)?;
        move_into_place(&temp, &target)
    }

    /// Copies a file byte for byte.
    fn copy(&self, from: &Path, relative: &str) -> io::Result<()> {
        let (temp, target) = self.paths(relative)?;
        fs::copy(from, &temp)?;
        move_into_place(&temp, &target)
    }

    /// Removes a file or a folder, if it exists.
    fn remove(&self, relative: &str) -> io::Result<()> {
        let path = self.root().join(relative);
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_dir() => fs::remove_dir_all(path),
            Ok(_) => fs::remove_file(path),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e),
        }
    }
}

fn move_into_place(temp: &Path, target: &Path) -> io::Result<()> {
    if temp != target {
        fs::rename(temp, target)?;
    }
    Ok(())
}

/// Creates each output folder once: a build writes thousands of files into a few folders.
#[derive(Debug, Default)]
struct Folders {
    made: Mutex<HashSet<PathBuf>>,
}

impl Folders {
    fn ensure(&self, folder: &Path) -> io::Result<()> {
        let mut made = self.made.lock().unwrap_or_else(|p| p.into_inner());
        if !made.contains(folder) {
            fs::create_dir_all(folder)?;
            made.insert(folder.to_path_buf());
        }
        Ok(())
    }
}

/// A file being written; `finish` makes it visible under its final name.
pub struct PendingFile {
    writer: BufWriter<fs::File>,
    temp: PathBuf,
    target: PathBuf,
}

impl PendingFile {
    fn open(temp: PathBuf, target: PathBuf) -> io::Result<PendingFile> {
        let file = fs::File::create(&temp)?;
        Ok(PendingFile {
            // Below the allocator's mmap threshold: thousands of small pages must not
            // each map and unmap a buffer.
            writer: BufWriter::with_capacity(64 * 1024, file),
            temp,
            target,
        })
    }

    /// Where to write the content.
    pub fn writer(&mut self) -> &mut BufWriter<fs::File> {
        &mut self.writer
    }

    /// Flushes and moves the file into place.
    pub fn finish(mut self) -> io::Result<()> {
        self.writer.flush()?;
        move_into_place(&self.temp, &self.target)
    }
}

/// The live output folder of `serve`: every file is written to a hidden temporary name
/// beside its target and renamed into place, so a reader never sees half a file.
#[derive(Debug)]
pub struct LiveDir {
    dir: PathBuf,
    counter: AtomicU64,
    folders: Folders,
}

impl LiveDir {
    pub fn new(dir: &Path) -> LiveDir {
        LiveDir {
            dir: dir.to_path_buf(),
            counter: AtomicU64::new(0),
            folders: Folders::default(),
        }
    }
}

impl OutputSink for LiveDir {
    fn root(&self) -> &Path {
        &self.dir
    }

    fn paths(&self, relative: &str) -> io::Result<(PathBuf, PathBuf)> {
        let target = self.dir.join(relative);
        if let Some(parent) = target.parent() {
            self.folders.ensure(parent)?;
        }
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let temp = target.with_file_name(format!(".{name}.partial-{}-{n}", std::process::id()));
        Ok((temp, target))
    }
}

/// A build's output in progress.
#[derive(Debug)]
pub struct Staging {
    target: PathBuf,
    dir: PathBuf,
    committed: bool,
    folders: Folders,
}

impl Staging {
    /// Creates an empty staging folder next to `target` (same file system, so the final
    /// swap is a rename).
    pub fn create(target: &Path) -> io::Result<Staging> {
        let parent = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        fs::create_dir_all(&parent)?;
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "public".into());
        let dir = parent.join(format!(".{name}.staging-{}", std::process::id()));
        if dir.exists() {
            fs::remove_dir_all(&dir)?;
        }
        fs::create_dir_all(&dir)?;
        Ok(Staging {
            target: target.to_path_buf(),
            dir,
            committed: false,
            folders: Folders::default(),
        })
    }

    /// Where a relative output path lands inside the staging folder.
    pub fn path(&self, relative: &str) -> PathBuf {
        self.dir.join(relative)
    }

    /// Replaces the target with the staged output.
    pub fn commit(mut self) -> io::Result<()> {
        let old = self.dir.with_file_name(format!(
            ".{}.old-{}",
            self.target
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            std::process::id()
        ));
        let had_old = self.target.exists();
        if had_old {
            if old.exists() {
                fs::remove_dir_all(&old)?;
            }
            fs::rename(&self.target, &old)?;
        }
        if let Err(e) = fs::rename(&self.dir, &self.target) {
            if had_old {
                // Put the previous output back rather than leave nothing.
                let _ = fs::rename(&old, &self.target);
            }
            return Err(e);
        }
        self.committed = true;
        if had_old {
            fs::remove_dir_all(&old)?;
        }
        Ok(())
    }
}

impl OutputSink for Staging {
    fn root(&self) -> &Path {
        &self.dir
    }

    fn paths(&self, relative: &str) -> io::Result<(PathBuf, PathBuf)> {
        // Nobody reads the staging folder until it is committed: write in place.
        let path = self.path(relative);
        if let Some(parent) = path.parent() {
            self.folders.ensure(parent)?;
        }
        Ok((path.clone(), path))
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_writes_appear_whole_and_leave_no_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let live = LiveDir::new(dir.path());
        let mut file = live.create("a/b.html").unwrap();
        file.writer().write_all(b"half").unwrap();
        assert!(
            !dir.path().join("a/b.html").exists(),
            "not visible before finish"
        );
        file.finish().unwrap();
        assert_eq!(
            fs::read_to_string(dir.path().join("a/b.html")).unwrap(),
            "half"
        );
        live.copy(&dir.path().join("a/b.html"), "c.txt").unwrap();
        live.remove("a").unwrap();
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["c.txt"]);
    }

    #[test]
    fn commit_replaces_and_drop_discards() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("public");
        fs::create_dir_all(target.join("old")).unwrap();
        fs::write(target.join("old/a.txt"), "old").unwrap();

        let staging = Staging::create(&target).unwrap();
        staging.write("new/b.txt", b"new").unwrap();
        drop(staging);
        assert!(!target.join("new").exists());
        assert_eq!(fs::read_to_string(target.join("old/a.txt")).unwrap(), "old");
        assert!(!target.join("new").exists());

        let staging = Staging::create(&target).unwrap();
        staging.write("new/b.txt", b"new").unwrap();
        staging.commit().unwrap();
        assert!(!target.join("old").exists());
        assert_eq!(fs::read_to_string(target.join("new/b.txt")).unwrap(), "new");
        let leftovers: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "only public/ remains");
    }
}
