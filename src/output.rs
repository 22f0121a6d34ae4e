//! Writing `public/` safely: everything goes into a staging folder beside it, which
//! replaces the old output only after the whole build has succeeded.
//!
//! Invariant: a failed or interrupted build never touches the previous output; the staging
//! folder is removed when it is dropped without being committed.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// A build's output in progress.
#[derive(Debug)]
pub struct Staging {
    target: PathBuf,
    dir: PathBuf,
    committed: bool,
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
        })
    }

    /// Where a relative output path lands inside the staging folder.
    pub fn path(&self, relative: &str) -> PathBuf {
        self.dir.join(relative)
    }

    /// Writes a file, creating its folders.
    pub fn write(&self, relative: &str, bytes: &[u8]) -> io::Result<()> {
        let path = self.path(relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::write(path, bytes)
    }

    /// Creates a file for streaming output, creating its folders.
    pub fn create_file(&self, relative: &str) -> io::Result<fs::File> {
        let path = self.path(relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::File::create(path)
    }

    /// Copies a file byte for byte.
    pub fn copy(&self, from: &Path, relative: &str) -> io::Result<u64> {
        let path = self.path(relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::copy(from, path)
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
    fn commit_replaces_and_drop_discards() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("public");
        fs::create_dir_all(target.join("old")).unwrap();
        fs::write(target.join("old/a.txt"), "old").unwrap();

        let staging = Staging::create(&target).unwrap();
        staging.write("new/b.txt", b"new").unwrap();
        drop(staging);
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
