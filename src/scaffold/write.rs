//! Where scaffold commands write, confined like reading (`confine`): every file planned
//! is checked before the first one is written, and a folder on the way that is a
//! symbolic link leading out of the site, or a planned file that is a symbolic link, is
//! refused. Each file is written beside its place and renamed over it, so nothing is ever
//! written through a link or into a file that other names share (a hard link).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::diagnostics::Diagnostic;

/// A file a scaffold command writes, relative to the site root.
pub struct PlannedFile {
    pub path: String,
    pub contents: Contents,
}

/// What goes into a planned file.
pub enum Contents {
    Bytes(Vec<u8>),
    /// A byte-for-byte copy of a file outside the site (the author's CSV).
    CopyOf(PathBuf),
}

/// Whether files that already exist may be replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    Refuse,
    Overwrite,
}

/// Writes every planned file under `root`, or none: with [`Existing::Refuse`], each file
/// that is already there is one error and nothing is written; a symbolic link on the way
/// that leaves the site, or in a planned file's place, is one error and nothing is
/// written (whichever [`Existing`]). Never deletes anything.
pub fn write_all(
    root: &Path,
    files: &[PlannedFile],
    existing: Existing,
    hint: &str,
) -> Result<(), Vec<Diagnostic>> {
    let links = links_on_the_way(root, files);
    if !links.is_empty() {
        return Err(links);
    }
    if existing == Existing::Refuse {
        let taken: Vec<Diagnostic> = files
            .iter()
            .filter(|f| root.join(&f.path).symlink_metadata().is_ok())
            .map(|f| {
                Diagnostic::error(&f.path, "the file already exists").with_hint(hint.to_string())
            })
            .collect();
        if !taken.is_empty() {
            return Err(taken);
        }
    }
    let mut problems = Vec::new();
    for file in files {
        if let Err(e) = write_one(root, file) {
            problems.push(Diagnostic::error(
                &file.path,
                format!("cannot write the file: {e}"),
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

const LINK_OUT_HINT: &str = "datapages writes only inside the site folder: replace the link \
     with a real folder (or remove it), then run the command again; nothing was written";

const LINKED_FILE_HINT: &str = "datapages never writes through a symbolic link: remove the \
     link (or put a copy of the file in its place), then run the command again; nothing was \
     written";

/// One error per symbolic link that a planned file would be written through: a folder on
/// its way that leads outside the site (or nowhere), or the planned file itself.
fn links_on_the_way(root: &Path, files: &[PlannedFile]) -> Vec<Diagnostic> {
    // A root that does not exist yet holds no link; the root itself is the user's choice.
    let Ok(root_canonical) = std::fs::canonicalize(root) else {
        return Vec::new();
    };
    let mut problems: Vec<Diagnostic> = Vec::new();
    let mut report = |problem: Diagnostic| {
        if !problems.iter().any(|p| p.file == problem.file) {
            problems.push(problem);
        }
    };
    for file in files {
        let relative = Path::new(&file.path);
        let mut on_the_way = PathBuf::new();
        for component in relative.parent().into_iter().flat_map(Path::components) {
            on_the_way.push(component);
            let place = root.join(&on_the_way);
            let Ok(metadata) = place.symlink_metadata() else {
                break; // Created by the write: nothing below it exists either.
            };
            if !metadata.file_type().is_symlink() {
                continue;
            }
            let message = match std::fs::canonicalize(&place) {
                Ok(real) if real.starts_with(&root_canonical) => continue,
                Ok(_) => "is a symbolic link that leads outside the site folder",
                Err(_) => "is a symbolic link that leads nowhere (or loops)",
            };
            let shown = on_the_way.display();
            report(
                Diagnostic::error(
                    &on_the_way,
                    format!(
                        "{shown} {message}; {} would be written through it",
                        file.path
                    ),
                )
                .with_hint(LINK_OUT_HINT),
            );
        }
        let is_link = root
            .join(relative)
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink());
        if is_link {
            report(
                Diagnostic::error(
                    relative,
                    format!(
                        "{} is a symbolic link, which datapages does not replace",
                        file.path
                    ),
                )
                .with_hint(LINKED_FILE_HINT),
            );
        }
    }
    problems
}

/// Writes one file as a new file beside its place, then renames it over the place: a
/// link or a hard link there is replaced, never written through.
fn write_one(root: &Path, file: &PlannedFile) -> std::io::Result<()> {
    let target = root.join(&file.path);
    let parent = target.parent().unwrap_or(root);
    std::fs::create_dir_all(parent)?;
    remove_stale_temporaries(parent);
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    let temporary = parent.join(format!(".{name}.datapages-{}.tmp", std::process::id()));
    let written = (|| {
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)?;
        match &file.contents {
            Contents::Bytes(bytes) => out.write_all(bytes)?,
            Contents::CopyOf(source) => {
                std::io::copy(&mut std::fs::File::open(source)?, &mut out)?;
            }
        }
        out.flush()?;
        drop(out);
        std::fs::rename(&temporary, &target)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// Removes what killed runs left in `folder`: a plain file named `.NAME.datapages-PID.tmp`
/// (the copy [`write_one`] renames into place) whose process is gone. Nothing else is
/// touched; where a process cannot be asked about, nothing is removed.
fn remove_stale_temporaries(folder: &Path) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    let own = std::process::id();
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(temporary_pid) else {
            continue;
        };
        let plain = entry.file_type().is_ok_and(|t| t.is_file());
        if plain && pid != own && !crate::output::swap::process_alive(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The process id in a temporary file's name, `.NAME.datapages-PID.tmp`.
fn temporary_pid(file_name: &str) -> Option<u32> {
    let rest = file_name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (_, digits) = rest.rsplit_once(".datapages-")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().filter(|&pid| pid > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planned(path: &str) -> PlannedFile {
        PlannedFile {
            path: path.into(),
            contents: Contents::Bytes(b"new".to_vec()),
        }
    }

    #[test]
    fn temporary_names_give_their_process() {
        assert_eq!(temporary_pid(".a.csv.datapages-12.tmp"), Some(12));
        assert_eq!(temporary_pid("..datapages-7.tmp"), Some(7));
        for name in [
            "a.csv.datapages-12.tmp",
            ".a.csv.datapages-.tmp",
            ".a.csv.datapages-0.tmp",
            ".a.csv.datapages-1x.tmp",
            ".a.csv.datapages-12",
            ".a.csv.tmp",
        ] {
            assert_eq!(temporary_pid(name), None, "{name}");
        }
    }

    #[test]
    fn refusing_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b.txt"), "mine").unwrap();
        let files = [planned("a/a.txt"), planned("b.txt")];
        let errors = write_all(dir.path(), &files, Existing::Refuse, "h").unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].file, Path::new("b.txt"));
        assert!(!dir.path().join("a/a.txt").exists());
        write_all(dir.path(), &files, Existing::Overwrite, "h").unwrap();
        assert_eq!(std::fs::read(dir.path().join("b.txt")).unwrap(), b"new");
    }

    #[cfg(unix)]
    #[test]
    fn links_out_of_the_site_and_linked_files_are_never_written_through() {
        use std::os::unix::fs::symlink;
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret.txt");
        std::fs::write(&secret, "outside").unwrap();
        let site = tempfile::tempdir().unwrap();
        let root = site.path();
        symlink(outside.path(), root.join("content")).unwrap();
        std::fs::create_dir_all(root.join("static/inner")).unwrap();
        symlink("inner", root.join("static/linked")).unwrap();
        symlink(&secret, root.join("static/style.css")).unwrap();
        symlink(root.join("missing"), root.join("data")).unwrap();
        let files = [
            planned("content/secret.txt"),
            planned("content/other.txt"),
            planned("static/style.css"),
            planned("static/linked/ok.txt"),
            planned("data/datasets/x.csv"),
        ];
        for existing in [Existing::Overwrite, Existing::Refuse] {
            let errors = write_all(root, &files, existing, "h").unwrap_err();
            let places: Vec<&Path> = errors.iter().map(|d| d.file.as_path()).collect();
            assert_eq!(
                places,
                [
                    Path::new("content"),
                    Path::new("static/style.css"),
                    Path::new("data")
                ],
                "{errors:?}"
            );
            assert!(errors[0].message.contains("leads outside the site folder"));
            assert!(errors[2].message.contains("leads nowhere"));
        }
        assert_eq!(std::fs::read(&secret).unwrap(), b"outside");
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 1);
        assert!(
            !root.join("static/inner/ok.txt").exists(),
            "nothing written"
        );
        assert!(!root.join("missing").exists());
        // A link that stays inside the site is followed.
        write_all(
            root,
            &[planned("static/linked/ok.txt")],
            Existing::Refuse,
            "h",
        )
        .unwrap();
        assert_eq!(
            std::fs::read(root.join("static/inner/ok.txt")).unwrap(),
            b"new"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_hard_link_is_replaced_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let other = dir.path().join("other.txt");
        std::fs::write(&other, "shared").unwrap();
        std::fs::create_dir(dir.path().join("site")).unwrap();
        std::fs::hard_link(&other, dir.path().join("site/b.txt")).unwrap();
        let root = dir.path().join("site");
        write_all(&root, &[planned("b.txt")], Existing::Overwrite, "h").unwrap();
        assert_eq!(std::fs::read(root.join("b.txt")).unwrap(), b"new");
        assert_eq!(std::fs::read(&other).unwrap(), b"shared");
        assert_eq!(
            std::fs::read_dir(&root).unwrap().count(),
            1,
            "no temporary left"
        );
    }
}
