//! Updating the previous output in place from a staging folder that holds only part of a
//! build: when few datasets changed, moving their new files over the old ones costs a
//! rename per changed file, where replacing the whole folder costs a link per unchanged
//! file into the staging folder and an unlink per file of the old tree.
//!
//! Every file is replaced whole (a rename); a file whose bytes did not change is left as
//! it is (its inode kept). Readers of the folder may see old and new files side by side
//! for the moment the merge takes, which a whole-folder swap does not allow: the caller
//! uses it only for small changes, with every problem found before it starts.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::Path;

use rayon::prelude::*;

use super::MARKER;

/// A set of output-relative paths (`/`-separated), kept as 128-bit digests of them: a
/// catalog's rebuild keeps tens of thousands of files.
#[derive(Debug, Default)]
pub struct PathSet(HashSet<u128>);

impl PathSet {
    pub fn insert(&mut self, relative: &str) {
        self.0.insert(digest(relative));
    }

    pub fn contains(&self, relative: &str) -> bool {
        self.0.contains(&digest(relative))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Two independent 64-bit hashes of `relative`.
fn digest(relative: &str) -> u128 {
    use std::hash::{Hash, Hasher};
    let half = |salt: u8| {
        let mut hasher = std::hash::DefaultHasher::new();
        salt.hash(&mut hasher);
        relative.hash(&mut hasher);
        hasher.finish()
    };
    u128::from(half(1)) << 64 | u128::from(half(2))
}

/// Moves every file of `staging` (but its marker) into `output` where the output lacks it
/// or holds other bytes, then removes every file of `output` that is neither in `staging`
/// nor in `kept`, and the folders that leaves empty.
pub(super) fn merge(staging: &Path, output: &Path, kept: &PathSet) -> io::Result<()> {
    let mut staged = Vec::new();
    files_under(staging, "", &mut staged)?;
    staged
        .par_iter()
        .filter(|relative| relative.as_str() != MARKER)
        .try_for_each(|relative| {
            let (from, to) = (staging.join(relative), output.join(relative));
            if same_bytes(&from, &to)? {
                return Ok(());
            }
            if let Some(parent) = to.parent() {
                fs::create_dir_all(parent)?;
            }
            fs::rename(&from, &to)
        })?;
    let staged: HashSet<&str> = staged.iter().map(String::as_str).collect();
    let produced =
        |relative: &str| relative == MARKER || staged.contains(relative) || kept.contains(relative);
    remove_others(output, "", &produced)?;
    Ok(())
}

/// The files under `root`/`relative` (symbolic links included, not followed), as paths
/// relative to `root`.
fn files_under(root: &Path, relative: &str, files: &mut Vec<String>) -> io::Result<()> {
    for entry in fs::read_dir(root.join(relative))? {
        let entry = entry?;
        let Some(name) = entry.file_name().to_str().map(str::to_string) else {
            return Err(io::ErrorKind::InvalidData.into());
        };
        let path = join(relative, &name);
        match entry.file_type()?.is_dir() {
            true => files_under(root, &path, files)?,
            false => files.push(path),
        }
    }
    Ok(())
}

fn join(relative: &str, name: &str) -> String {
    match relative {
        "" => name.to_string(),
        _ => format!("{relative}/{name}"),
    }
}

/// Whether `to` is already `from`: the same file (a link made from it) or the same bytes.
fn same_bytes(from: &Path, to: &Path) -> io::Result<bool> {
    let new = fs::symlink_metadata(from)?;
    let old = match fs::symlink_metadata(to) {
        Ok(old) if old.is_file() => old,
        Ok(_) => return Ok(false),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e),
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if (new.dev(), new.ino()) == (old.dev(), old.ino()) {
            return Ok(true);
        }
    }
    Ok(new.len() == old.len() && same_stream(fs::File::open(from)?, fs::File::open(to)?)?)
}

/// Whether two readers give the same bytes, compared a block at a time (catalog files
/// run to megabytes).
fn same_stream(a: impl io::Read, b: impl io::Read) -> io::Result<bool> {
    use io::BufRead;
    let (mut a, mut b) = (
        io::BufReader::with_capacity(1 << 16, a),
        io::BufReader::with_capacity(1 << 16, b),
    );
    loop {
        let (block_a, block_b) = (a.fill_buf()?, b.fill_buf()?);
        let n = block_a.len().min(block_b.len());
        if n == 0 {
            return Ok(block_a.is_empty() && block_b.is_empty());
        }
        if block_a[..n] != block_b[..n] {
            return Ok(false);
        }
        a.consume(n);
        b.consume(n);
    }
}

/// Removes every file under `root`/`relative` that `produced` does not name, and every
/// folder left empty; returns whether the folder is empty now.
fn remove_others(
    root: &Path,
    relative: &str,
    produced: &(dyn Fn(&str) -> bool + Sync),
) -> io::Result<bool> {
    let mut entries = Vec::new();
    for entry in fs::read_dir(root.join(relative))? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        entries.push((join(relative, &name), entry.file_type()?.is_dir()));
    }
    let kept: Vec<bool> = entries
        .par_iter()
        .map(|(path, is_folder)| -> io::Result<bool> {
            if *is_folder {
                let emptied = remove_others(root, path, produced)?;
                if emptied {
                    fs::remove_dir(root.join(path))?;
                }
                return Ok(!emptied);
            }
            if produced(path) {
                return Ok(true);
            }
            fs::remove_file(root.join(path))?;
            Ok(false)
        })
        .collect::<io::Result<_>>()?;
    Ok(!kept.contains(&true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    fn ino(path: &Path) -> u64 {
        std::os::unix::fs::MetadataExt::ino(&fs::metadata(path).unwrap())
    }

    #[test]
    fn streams_compare_whatever_their_blocks() {
        let long: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let mut other = long.clone();
        other[150_000] ^= 1;
        assert!(same_stream(&long[..], &long[..]).unwrap());
        assert!(!same_stream(&long[..], &other[..]).unwrap());
        assert!(!same_stream(&long[..], &long[..199_999]).unwrap());
        assert!(same_stream(&b""[..], &b""[..]).unwrap());
        // A reader that gives a few bytes at a time.
        let chunky = io::Read::chain(&long[..7], &long[7..]);
        assert!(same_stream(chunky, &long[..]).unwrap());
    }

    /// (Unix: the files that stay are told by their inode numbers.)
    #[cfg(unix)]
    #[test]
    fn changed_files_move_in_the_same_stay_and_the_rest_goes() {
        let dir = tempfile::tempdir().unwrap();
        let (staging, output) = (dir.path().join("staging"), dir.path().join("out"));
        for folder in [&staging, &output] {
            fs::create_dir_all(folder.join("a/b")).unwrap();
            fs::write(folder.join(MARKER), "m").unwrap();
        }
        fs::create_dir_all(output.join("gone/deep")).unwrap();
        fs::write(output.join("gone/deep/x.html"), "x").unwrap();
        fs::write(output.join("kept.csv"), "k").unwrap();
        fs::write(output.join("stale.json"), "s").unwrap();
        fs::write(output.join("a/same.html"), "same").unwrap();
        fs::write(output.join("a/b/changed.html"), "old").unwrap();
        fs::write(staging.join("a/same.html"), "same").unwrap();
        fs::write(staging.join("a/b/changed.html"), "new").unwrap();
        fs::create_dir_all(staging.join("new/folder")).unwrap();
        fs::write(staging.join("new/folder/page.html"), "p").unwrap();
        let (same, kept, marker) = (
            ino(&output.join("a/same.html")),
            ino(&output.join("kept.csv")),
            ino(&output.join(MARKER)),
        );
        let staged_marker = ino(&staging.join(MARKER));
        let mut kept_paths = PathSet::default();
        kept_paths.insert("kept.csv");
        assert!(kept_paths.contains("kept.csv") && !kept_paths.contains("stale.json"));
        merge(&staging, &output, &kept_paths).unwrap();
        let read = |p: &str| fs::read_to_string(output.join(p)).unwrap();
        assert_eq!(read("a/b/changed.html"), "new");
        assert_eq!(read("new/folder/page.html"), "p");
        assert_eq!(
            ino(&output.join("a/same.html")),
            same,
            "the same bytes stay"
        );
        assert_eq!(ino(&output.join("kept.csv")), kept);
        assert_eq!(ino(&output.join(MARKER)), marker, "the output's own marker");
        assert_ne!(marker, staged_marker);
        assert!(!output.join("stale.json").exists());
        assert!(!output.join("gone").exists(), "emptied folders go too");
        let mut left = Vec::new();
        files_under(&output, "", &mut left).unwrap();
        left.sort();
        let want = [
            ".datapages-output",
            "a/b/changed.html",
            "a/same.html",
            "kept.csv",
            "new/folder/page.html",
        ];
        assert_eq!(left, want);
    }
}
