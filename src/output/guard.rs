//! Which folders `--output` may name, and when an existing one may be replaced.
//!
//! Invariant: a build deletes nothing but datapages' own output. The output is compared
//! with the site's folders only after both are resolved the same way (against the working
//! directory, symlinks followed as far as the path exists), so no spelling (`./content`,
//! `x/../content`, `content/`, a symlink) slips past.

use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use super::{has_marker, MARKER};
use crate::diagnostics::Diagnostic;
use crate::layout;

/// The folders of a site that a build reads or keeps (its sources, its scan cache, its
/// history): the output may be none of them, be inside none of them, and hold none of them.
fn kept_folders() -> impl Iterator<Item = &'static str> {
    layout::SOURCE_DIRS
        .into_iter()
        .chain([".git", layout::CACHE])
}

/// Checks `output` for a build of the site in `root`; returns the output folder resolved
/// (absolute, symlinks followed), which is where the build must write.
pub fn check_output(root: &Path, output: &Path, force: bool) -> Result<PathBuf, Diagnostic> {
    let unusable = |e: io::Error| {
        Diagnostic::error(output, format!("cannot use this output folder: {e}"))
            .with_hint("choose another --output")
    };
    let root = resolve(root).map_err(unusable)?;
    let resolved = resolve(output).map_err(unusable)?;
    if let Some(problem) = clash(&root, &resolved) {
        return Err(Diagnostic::error(output, problem).with_hint(
            "choose an output folder outside the site's sources, e.g. public (the default) \
             or a folder outside the site",
        ));
    }
    match ownership(&resolved).map_err(unusable)? {
        Ownership::Missing | Ownership::Empty | Ownership::Ours => Ok(resolved),
        Ownership::NotAFolder => Err(Diagnostic::error(
            output,
            "the output path is a file, not a folder; building would replace it",
        )
        .with_hint("remove it yourself or choose another --output")),
        Ownership::Foreign if force => Ok(resolved),
        Ownership::Foreign => Err(Diagnostic::error(
            output,
            format!(
                "the output folder already exists and was not written by datapages \
                 (it has no {MARKER} file); building would delete everything in it"
            ),
        )
        .with_hint(
            "choose another --output, or pass --force to replace this folder and all it \
             holds (also once for an output of a datapages version older than the marker)",
        )),
    }
}

/// Why `output` would destroy the site, if it would.
fn clash(root: &Path, output: &Path) -> Option<String> {
    if root.starts_with(output) {
        let what = if root == output {
            "the site folder itself"
        } else {
            "a folder that holds the site"
        };
        return Some(format!(
            "the output folder is {what} ({}); building would delete the site",
            root.display()
        ));
    }
    for name in kept_folders() {
        // A source folder may itself be a symlink to elsewhere: protect where it leads.
        let folder = resolve(&root.join(name)).unwrap_or_else(|_| root.join(name));
        for protected in [root.join(name), folder] {
            let relation = if output == protected {
                "is"
            } else if output.starts_with(&protected) {
                "lies inside"
            } else if protected.starts_with(output) {
                "holds"
            } else {
                continue;
            };
            return Some(format!(
                "the output folder {relation} the site's {name}/ folder; building would \
                 replace those files"
            ));
        }
    }
    None
}

/// An absolute path with every symlink of its existing part followed and `.`/`..` removed;
/// the part that does not exist yet is normalised by its names (it holds no symlinks).
pub fn resolve(path: &Path) -> io::Result<PathBuf> {
    let absolute = std::path::absolute(path)?;
    let mut existing = absolute.as_path();
    let mut missing: Vec<OsString> = Vec::new();
    let base = loop {
        match existing.canonicalize() {
            Ok(found) => break found,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                missing.push(name.to_os_string());
                existing = parent;
            }
            // `x/..` has no file name: keep it for the lexical pass below.
            (Some(parent), None) => {
                missing.push("..".into());
                existing = parent;
            }
            (None, _) => return Err(io::Error::new(io::ErrorKind::NotFound, "no such path")),
        }
    };
    let mut resolved = base;
    for name in missing.iter().rev() {
        match Path::new(name).components().next() {
            Some(Component::ParentDir) => {
                resolved.pop();
            }
            Some(Component::CurDir) | None => {}
            Some(_) => resolved.push(name),
        }
    }
    Ok(resolved)
}

/// What stands at the output path today.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ownership {
    Missing,
    Empty,
    /// Carries datapages' marker: a previous build wrote it.
    Ours,
    Foreign,
    NotAFolder,
}

/// Reads what stands at `path` (following a symlink to a folder).
pub fn ownership(path: &Path) -> io::Result<Ownership> {
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Ownership::Missing),
        Err(e) => return Err(e),
    };
    if !meta.is_dir() {
        return Ok(Ownership::NotAFolder);
    }
    if has_marker(path) {
        return Ok(Ownership::Ours);
    }
    if fs::read_dir(path)?.next().is_none() {
        Ok(Ownership::Empty)
    } else {
        Ok(Ownership::Foreign)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn resolve_follows_symlinks_and_normalises_the_missing_part() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        fs::create_dir(base.join("content")).unwrap();
        std::os::unix::fs::symlink(base.join("content"), base.join("link")).unwrap();
        assert_eq!(resolve(&base.join("link")).unwrap(), base.join("content"));
        assert_eq!(
            resolve(&base.join("nope/../content/")).unwrap(),
            base.join("content")
        );
        assert_eq!(
            resolve(&base.join("link/new/./x/..")).unwrap(),
            base.join("content/new")
        );
    }

    #[test]
    fn clash_covers_the_root_its_ancestors_and_every_source_folder() {
        let root = Path::new("/srv/site");
        assert!(clash(root, Path::new("/srv/site")).is_some());
        assert!(clash(root, Path::new("/srv")).is_some());
        assert!(clash(root, Path::new("/")).is_some());
        assert!(clash(root, Path::new("/srv/site/content")).is_some());
        assert!(clash(root, Path::new("/srv/site/data/datasets")).is_some());
        assert!(clash(root, Path::new("/srv/site/.git")).is_some());
        assert!(clash(root, Path::new("/srv/site/public")).is_none());
        assert!(clash(root, Path::new("/srv/site-public")).is_none());
        assert!(clash(root, Path::new("/tmp/out")).is_none());
    }

    #[test]
    fn only_empty_missing_or_marked_folders_are_ours_to_replace() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        assert_eq!(ownership(&out).unwrap(), Ownership::Missing);
        fs::create_dir(&out).unwrap();
        assert_eq!(ownership(&out).unwrap(), Ownership::Empty);
        fs::write(out.join("notes.txt"), "mine").unwrap();
        assert_eq!(ownership(&out).unwrap(), Ownership::Foreign);
        fs::write(out.join(MARKER), "x").unwrap();
        assert_eq!(ownership(&out).unwrap(), Ownership::Ours);
        assert_eq!(
            ownership(&out.join("notes.txt")).unwrap(),
            Ownership::NotAFolder
        );
    }
}
