//! Writing `public/` safely: everything goes into a staging folder beside it, which
//! replaces the old output only after the whole build has succeeded.
//!
//! Invariant: a failed or interrupted build never touches the previous output; the staging
//! folder is removed when it is dropped without being committed, and by the next build
//! when the process was killed. Only folders that carry [`MARKER`] are ever replaced
//! ([`guard`]); the replacement is atomic where the system allows ([`swap`]).

mod at;
pub mod guard;
pub mod hosts;
pub mod swap;

use rayon::prelude::*;
use std::collections::HashSet;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// The file every output (and every staging folder) holds, so that datapages can tell its
/// own folders from anyone else's. A dotfile: static hosts serve it as plain text at most,
/// and nothing links to it.
pub const MARKER: &str = ".datapages-output";

const MARKER_TEXT: &str = "This folder is written by datapages and replaced by every build: \
do not edit or add files here (datapages deletes them).\n";

/// Whether `folder` holds datapages' marker file.
pub fn has_marker(folder: &Path) -> bool {
    fs::symlink_metadata(folder.join(MARKER)).is_ok_and(|m| m.is_file())
}

/// Removes a file, a symlink or a folder, if it exists (never following a symlink).
fn remove_path(path: &Path) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Removes one of our folders with its marker last: a removal cut short by a kill leaves a
/// folder that the next build can still prove is ours (`swap::remove_stale`).
/// Folders are emptied in parallel: the old output of a large catalog holds a folder per
/// dataset, and removing it one file at a time was a serial tail of every build.
fn remove_marked_folder(folder: &Path) -> io::Result<()> {
    empty_folder(&at::Folder::open(folder)?, Some(MARKER))?;
    fs::remove_dir_all(folder)
}

/// Removes everything inside `folder` but the entry named `keep`, entries in parallel, by
/// name inside the open folder; the type of each comes from the folder listing (no `stat`
/// per file). Symbolic links are removed, never followed.
fn empty_folder(folder: &at::Folder, keep: Option<&str>) -> io::Result<()> {
    let mut entries = Vec::new();
    for entry in fs::read_dir(folder.path())? {
        let entry = entry?;
        let name = entry.file_name();
        if keep.is_none_or(|keep| name != keep) {
            entries.push((name, entry.file_type()?.is_dir()));
        }
    }
    entries.par_iter().try_for_each(|(name, is_folder)| {
        if *is_folder {
            empty_folder(&at::Folder::open(&folder.path().join(name))?, None)?;
        }
        match folder.remove(name, *is_folder) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            done => done,
        }
    })
}

/// Somewhere a build writes its files: a staging folder (full builds), the live output
/// folder that `serve` is serving (incremental rebuilds), or nowhere (`check`).
pub trait OutputSink: Sync {
    /// The folder files land in.
    fn root(&self) -> &Path;

    /// The size of an output file that is already there (from an earlier write), so a
    /// rebuild can keep a large copy it made before.
    fn existing_len(&self, relative: &str) -> Option<u64> {
        let metadata = fs::metadata(self.root().join(relative)).ok()?;
        metadata.is_file().then_some(metadata.len())
    }

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
        remove_path(&self.root().join(relative))
    }

    /// Puts a file of the previous output (`from`) at `relative`: a hard link where the
    /// sink can make one (the staging folder, `build::reuse`), else a copy.
    fn link(&self, from: &Path, relative: &str) -> io::Result<()> {
        self.copy(from, relative)
    }

    /// Whether every file is dropped (`check`): a writer may then skip work whose only
    /// result is a file's bytes (a typed copy's encoding).
    fn keeps_nothing(&self) -> bool {
        false
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

/// How many folders [`Folders`] remembers: a catalog has a folder per dataset, written
/// together, so a short memory saves the same calls and stays flat in the catalog (a
/// forgotten folder costs one more `create_dir_all`).
const REMEMBERED_FOLDERS: usize = 1024;

impl Folders {
    fn ensure(&self, folder: &Path) -> io::Result<()> {
        let mut made = self.made.lock().unwrap_or_else(|p| p.into_inner());
        if !made.contains(folder) {
            fs::create_dir_all(folder)?;
            if made.len() >= REMEMBERED_FOLDERS {
                made.clear();
            }
            made.insert(folder.to_path_buf());
        }
        Ok(())
    }
}

/// A file being written; `finish` makes it visible under its final name.
pub struct PendingFile {
    writer: BufWriter<Destination>,
    /// Where it is written and where it must end up; none for a discarded file.
    place: Option<(PathBuf, PathBuf)>,
}

/// Where a pending file's bytes go.
pub enum Destination {
    File(fs::File),
    /// Nowhere: `check` renders every page but keeps none.
    Discarded,
}

impl Write for Destination {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            Destination::File(file) => file.write(bytes),
            Destination::Discarded => Ok(bytes.len()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Destination::File(file) => file.flush(),
            Destination::Discarded => Ok(()),
        }
    }
}

/// Below the allocator's mmap threshold: thousands of small pages must not each map and
/// unmap a buffer.
const PAGE_BUFFER: usize = 64 * 1024;

impl PendingFile {
    fn open(temp: PathBuf, target: PathBuf) -> io::Result<PendingFile> {
        let file = fs::File::create(&temp)?;
        Ok(PendingFile {
            writer: BufWriter::with_capacity(PAGE_BUFFER, Destination::File(file)),
            place: Some((temp, target)),
        })
    }

    fn discarded() -> PendingFile {
        PendingFile {
            writer: BufWriter::with_capacity(PAGE_BUFFER, Destination::Discarded),
            place: None,
        }
    }

    /// Where to write the content.
    pub fn writer(&mut self) -> &mut BufWriter<Destination> {
        &mut self.writer
    }

    /// Flushes and moves the file into place.
    pub fn finish(mut self) -> io::Result<()> {
        self.writer.flush()?;
        match &self.place {
            Some((temp, target)) => move_into_place(temp, target),
            None => Ok(()),
        }
    }
}

/// An output that keeps nothing: `check` renders every page and file into it, so every
/// problem a build would meet while rendering is found, without a folder to write.
#[derive(Debug, Default)]
pub struct Discard;

impl OutputSink for Discard {
    /// No folder: nothing lands anywhere.
    fn root(&self) -> &Path {
        Path::new("")
    }

    fn paths(&self, relative: &str) -> io::Result<(PathBuf, PathBuf)> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            format!("{relative} is discarded, never written"),
        ))
    }

    fn existing_len(&self, _relative: &str) -> Option<u64> {
        None
    }

    fn create(&self, _relative: &str) -> io::Result<PendingFile> {
        Ok(PendingFile::discarded())
    }

    fn write(&self, _relative: &str, _bytes: &[u8]) -> io::Result<()> {
        Ok(())
    }

    /// The source must still open, as a build's copy needs it to.
    fn copy(&self, from: &Path, _relative: &str) -> io::Result<()> {
        fs::File::open(from).map(|_| ())
    }

    fn remove(&self, _relative: &str) -> io::Result<()> {
        Ok(())
    }

    fn keeps_nothing(&self) -> bool {
        true
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
    /// Files hard-linked from the previous output (hashes of their paths): they share its
    /// inodes, so a later write to one of these paths first unlinks it instead of writing
    /// into the old output. A collision only unlinks a file that is about to be replaced.
    linked: Mutex<HashSet<u64>>,
    any_linked: AtomicBool,
    link_folders: Mutex<LinkFolders>,
}

/// The pair of folders (old output, staging) that files are being linked between, opened
/// once: most linked files share one folder (`data/datasets/`). A folder is opened only
/// when two links in a row come from it, as a dataset's own folder holds one page.
#[derive(Debug, Default)]
struct LinkFolders {
    open: Option<(PathBuf, std::sync::Arc<(at::Folder, at::Folder)>)>,
    last_miss: Option<PathBuf>,
}

impl Staging {
    /// Creates an empty staging folder (holding only the marker) next to `target` (same
    /// file system, so the final swap is a rename), after removing the leftovers of killed
    /// builds. `target` should be resolved (`guard::check_output`).
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
        swap::remove_stale(&parent, &name);
        let dir = parent.join(format!(".{name}.staging-{}", std::process::id()));
        remove_path(&dir)?;
        fs::create_dir_all(&dir)?;
        fs::write(dir.join(MARKER), MARKER_TEXT)?;
        Ok(Staging {
            target: target.to_path_buf(),
            dir,
            committed: false,
            folders: Folders::default(),
            linked: Mutex::default(),
            any_linked: AtomicBool::new(false),
            link_folders: Mutex::default(),
        })
    }

    /// Where a relative output path lands inside the staging folder.
    pub fn path(&self, relative: &str) -> PathBuf {
        self.dir.join(relative)
    }

    /// The open pair of folders to link `from_folder`'s files into `to_folder`, when it is
    /// worth opening (see [`LinkFolders`]).
    fn link_folders(
        &self,
        from_folder: &Path,
        to_folder: &Path,
    ) -> Option<std::sync::Arc<(at::Folder, at::Folder)>> {
        let mut cache = self.link_folders.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((folder, pair)) = &cache.open {
            if folder == from_folder && pair.1.path() == to_folder {
                return Some(pair.clone());
            }
        }
        if cache.last_miss.as_deref() != Some(from_folder) {
            cache.last_miss = Some(from_folder.to_path_buf());
            return None;
        }
        let pair = (
            at::Folder::open(from_folder).ok()?,
            at::Folder::open(to_folder).ok()?,
        );
        let pair = std::sync::Arc::new(pair);
        cache.open = Some((from_folder.to_path_buf(), pair.clone()));
        Some(pair)
    }

    /// Replaces the target with the staged output (`swap::publish`).
    pub fn commit(mut self) -> io::Result<()> {
        let name = self
            .target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let aside = self
            .dir
            .with_file_name(format!(".{name}.old-{}", std::process::id()));
        swap::publish(&self.dir, &self.target, &aside)?;
        self.committed = true;
        Ok(())
    }
}

impl OutputSink for Staging {
    fn root(&self) -> &Path {
        &self.dir
    }

    fn paths(&self, relative: &str) -> io::Result<(PathBuf, PathBuf)> {
        // Nobody reads the staging folder until it is committed: write in place, but never
        // into a file linked from the previous output.
        let path = self.path(relative);
        if let Some(parent) = path.parent() {
            self.folders.ensure(parent)?;
        }
        if self.any_linked.load(Ordering::Acquire) {
            let mut linked = self.linked.lock().unwrap_or_else(|p| p.into_inner());
            if linked.remove(&path_hash(&path)) {
                remove_when_free(&path)?;
            }
        }
        Ok((path.clone(), path))
    }

    /// A hard link to the previous output's file; a copy where the file system refuses
    /// links (another device, no permission). A missing `from` is an error.
    fn link(&self, from: &Path, relative: &str) -> io::Result<()> {
        let (_, target) = self.paths(relative)?;
        let folders = match (from.parent(), target.parent(), from.file_name()) {
            (Some(from_folder), Some(to_folder), Some(name))
                if target.file_name() == Some(name) =>
            {
                self.link_folders(from_folder, to_folder)
                    .map(|pair| (pair, name))
            }
            _ => None,
        };
        let linked = match folders {
            Some((pair, name)) => pair.0.link(name, &pair.1, name),
            None => fs::hard_link(from, &target),
        };
        match linked {
            Ok(()) => {
                let mut linked = self.linked.lock().unwrap_or_else(|p| p.into_inner());
                linked.insert(path_hash(&target));
                self.any_linked.store(true, Ordering::Release);
                Ok(())
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Err(e),
            Err(_) => fs::copy(from, &target).map(|_| ()),
        }
    }
}

/// Removes `path`. On Windows a file that another process has open (the preview server
/// sending the previous build's page, which this one shares through a hard link) refuses
/// to go until it is closed: the refusal is retried for up to 2 s (a page is sent in
/// milliseconds). Under Wine, `serve`'s rebuild failed this way in 2 of 8 CI runs.
fn remove_when_free(path: &Path) -> io::Result<()> {
    let mut waited = std::time::Duration::ZERO;
    let step = std::time::Duration::from_millis(20);
    loop {
        match remove_path(path) {
            Err(e) if cfg!(windows) && e.kind() == io::ErrorKind::PermissionDenied => {
                if waited >= std::time::Duration::from_secs(2) {
                    return Err(e);
                }
                std::thread::sleep(step);
                waited += step;
            }
            done => return done,
        }
    }
}

/// XXH3-64 of a path's components: the same in every run (std's hasher promises none).
fn path_hash(path: &Path) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = twox_hash::XxHash3_64::default();
    path.hash(&mut hasher);
    hasher.finish()
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = remove_marked_folder(&self.dir);
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
    fn discard_takes_every_write_and_keeps_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("a.csv");
        fs::write(&source, "a\n1\n").unwrap();
        let sink = Discard;
        let mut file = sink.create("datasets/a/index.html").unwrap();
        file.writer().write_all(b"<html>").unwrap();
        file.finish().unwrap();
        sink.write("feed.xml", b"<feed/>").unwrap();
        sink.copy(&source, "data/datasets/a.csv").unwrap();
        sink.remove("datasets").unwrap();
        assert_eq!(sink.existing_len("data/datasets/a.csv"), None);
        assert!(sink.copy(&dir.path().join("gone.csv"), "b.csv").is_err());
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "only the source file is there");
    }

    #[test]
    fn a_write_over_a_linked_file_leaves_the_old_output_alone() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("old.html");
        fs::write(&old, "old").unwrap();
        let staging = Staging::create(&dir.path().join("public")).unwrap();
        staging.link(&old, "a/index.html").unwrap();
        assert_eq!(
            fs::read_to_string(staging.path("a/index.html")).unwrap(),
            "old"
        );
        staging.write("a/index.html", b"new").unwrap();
        let mut file = staging.create("b.html").unwrap();
        file.writer().write_all(b"b").unwrap();
        file.finish().unwrap();
        assert_eq!(fs::read_to_string(&old).unwrap(), "old");
        assert_eq!(
            fs::read_to_string(staging.path("a/index.html")).unwrap(),
            "new"
        );
        assert!(staging.link(&dir.path().join("gone"), "c.html").is_err());
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
        assert!(has_marker(&target));
        let leftovers: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "only public/ remains");
    }
}
