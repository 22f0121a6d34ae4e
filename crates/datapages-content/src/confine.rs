//! Confinement: datapages reads only files inside the site folder.
//!
//! Content may come from a pull request, so a path an author writes (`data = "…"`) or a
//! symbolic link in `content/`, `data/`, `templates/` or `static/` must never make the
//! build read (and publish, or quote in a diagnostic) a file elsewhere on the machine.
//! Every reader resolves its path here first, with symbolic links followed, and reads
//! the resolved path: links that stay inside the site are followed, links that leave it
//! are errors, loops are errors, and nothing is opened before the check (so a FIFO or a
//! device is refused from its metadata, never read).
//!
//! Inside the site, hidden files and folders (any path segment starting with `.`: `.git`,
//! `.env`, `.ssh`) are never read either, as written or where a link leads: a checkout
//! holds its secrets there. Walks skip them silently; a path or link that names one is
//! refused. The one exception is `static/.well-known/` (RFC 8615), which exists to be
//! published; hidden names inside it are refused all the same.

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use crate::diagnostics::Diagnostic;
use crate::layout;

/// Why a path may not be read.
#[derive(Debug)]
pub enum Refusal {
    /// Written as an absolute path: author paths are relative to the site folder, so a
    /// site builds the same on every machine.
    Absolute,
    /// Resolves to a place outside the site folder; `through_link` when the path as written
    /// stays inside and a symbolic link leads out.
    Outside { through_link: bool },
    /// Nothing is there; `dangling_link` when a symbolic link leads to nothing.
    Missing { dangling_link: bool },
    /// A step cannot be followed: a symbolic link loop, a file used as a folder.
    Unresolvable(io::Error),
    /// Something other than a regular file ("a folder", "a FIFO (named pipe)", …).
    NotAFile(&'static str),
    /// A hidden file or folder (a segment starting with `.`), as written or, with
    /// `through_link`, where a symbolic link leads.
    Hidden { through_link: bool },
    /// Inside the site but not under the folder this kind of file must be in.
    NotUnder(&'static str),
}

impl Refusal {
    /// What is wrong with `shown`, the path as the user knows it.
    pub fn message(&self, shown: &Path) -> String {
        let shown = shown.display();
        match self {
            Refusal::Absolute => format!("{shown} is an absolute path"),
            Refusal::Outside { through_link: true } => {
                format!("{shown} is a symbolic link that leads outside the site folder")
            }
            Refusal::Outside {
                through_link: false,
            } => {
                format!("{shown} points outside the site folder")
            }
            Refusal::Missing {
                dangling_link: true,
            } => format!("{shown} is a symbolic link to a file that does not exist"),
            Refusal::Missing {
                dangling_link: false,
            } => format!("{shown} does not exist"),
            Refusal::Unresolvable(e) => format!("{shown} cannot be followed: {e}"),
            Refusal::NotAFile(kind) => format!("{shown} is not a regular file but {kind}"),
            Refusal::Hidden {
                through_link: false,
            } => format!("{shown} is a hidden file or folder (its name starts with `.`)"),
            Refusal::Hidden { through_link: true } => {
                format!("{shown} is a symbolic link to a hidden file or folder")
            }
            Refusal::NotUnder(folder) => format!(
                "{shown} is not in the {folder}/ folder (a symbolic link must lead into it too)"
            ),
        }
    }

    /// What to do about it.
    pub fn hint(&self) -> &'static str {
        match self {
            Refusal::Absolute => {
                "write the path relative to the site folder, e.g. data/datasets/<slug>.csv (absolute paths are refused so that a site builds the same anywhere)"
            }
            Refusal::Outside { .. } => {
                "datapages reads only files inside the site folder: move the file into it (symbolic links may point only inside it)"
            }
            Refusal::Missing { .. } => "create the file, or remove the link",
            Refusal::Unresolvable(_) => {
                "a symbolic link that leads back to itself (a loop) can never be read: point it at a file inside the site folder, or remove it"
            }
            Refusal::NotAFile(_) => "point it at a regular file inside the site folder",
            Refusal::Hidden { .. } => {
                "datapages never reads hidden files or folders (.git, .env, …), so a checkout's secrets are never published: give the file a name without a leading dot"
            }
            Refusal::NotUnder(folder) => match *folder {
                layout::DATA => "a dataset's CSV must be in the data/ folder, e.g. data/datasets/<slug>.csv",
                _ => "move the file into that folder",
            },
        }
    }

    /// A diagnostic against `shown` itself (for files found by walking a folder).
    pub fn diagnostic(&self, shown: &Path) -> Diagnostic {
        Diagnostic::error(shown, self.message(shown)).with_hint(self.hint())
    }
}

/// The site folder with every symbolic link resolved: the boundary of what may be read.
pub fn canonical_root(root: &Path) -> Result<PathBuf, Diagnostic> {
    fs::canonicalize(root).map_err(|e| {
        Diagnostic::error(root, format!("cannot open the site folder: {e}"))
            .with_hint("run datapages in the site folder, or pass --root DIR")
    })
}

/// Where `relative` (a path under the site folder, as written) really leads, when that is
/// inside `root_canonical`. A path whose `..` steps climb out is refused without touching
/// the file system, so its answer never tells whether something exists out there.
pub fn resolve_inside(root_canonical: &Path, relative: &Path) -> Result<PathBuf, Refusal> {
    refuse_as_written(relative)?;
    if let Some((real, _)) = without_links(root_canonical, relative) {
        return Ok(real);
    }
    let joined = root_canonical.join(relative);
    match fs::canonicalize(&joined) {
        Ok(real) => match real.strip_prefix(root_canonical) {
            Ok(inside) if is_hidden_inside(inside) => Err(Refusal::Hidden { through_link: true }),
            Ok(_) => Ok(real),
            Err(_) => Err(Refusal::Outside { through_link: true }),
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(Refusal::Missing {
            dangling_link: fs::symlink_metadata(&joined).is_ok_and(|m| m.file_type().is_symlink()),
        }),
        Err(e) => Err(Refusal::Unresolvable(e)),
    }
}

/// What is refused of a path as written, without touching the file system: an absolute
/// one, one whose `..` steps climb out, one through a hidden name.
fn refuse_as_written(relative: &Path) -> Result<(), Refusal> {
    if relative.has_root()
        || relative
            .components()
            .any(|c| matches!(c, Component::Prefix(_)))
    {
        return Err(Refusal::Absolute);
    }
    if !stays_inside_as_written(relative) {
        return Err(Refusal::Outside {
            through_link: false,
        });
    }
    if is_hidden_inside(relative) {
        return Err(Refusal::Hidden {
            through_link: false,
        });
    }
    Ok(())
}

/// `root_canonical` joined with `relative` and that file's metadata, when every name of
/// `relative` is a plain one (no `.` or `..`) and none is a symbolic link: then the joined
/// path is already the real one, found with one `lstat` per name instead of a `readlink`
/// per name from `/` that `canonicalize` costs. `None`: resolve it in full.
fn without_links(root_canonical: &Path, relative: &Path) -> Option<(PathBuf, fs::Metadata)> {
    let mut real = root_canonical.to_path_buf();
    let mut metadata = None;
    for component in relative.components() {
        let Component::Normal(name) = component else {
            return None;
        };
        real.push(name);
        let found = fs::symlink_metadata(&real).ok()?;
        if found.file_type().is_symlink() {
            return None;
        }
        metadata = Some(found);
    }
    Some((real, metadata?))
}

/// Like [`resolve_inside`], and the result must be a regular file. The check reads only
/// metadata: a FIFO or a device is refused without being opened.
pub fn resolve_file(root_canonical: &Path, relative: &Path) -> Result<PathBuf, Refusal> {
    refuse_as_written(relative)?;
    let (real, metadata) = match without_links(root_canonical, relative) {
        Some(found) => found,
        None => {
            let real = resolve_inside(root_canonical, relative)?;
            let metadata = fs::metadata(&real).map_err(Refusal::Unresolvable)?;
            (real, metadata)
        }
    };
    not_a_file(&metadata.file_type()).map_or(Ok(real), |kind| Err(Refusal::NotAFile(kind)))
}

/// Like [`resolve_file`], and the file must be under `folder` (a folder of the site root,
/// such as [`layout::DATA`]), as written and where links lead.
pub fn resolve_file_under(
    root_canonical: &Path,
    relative: &Path,
    folder: &'static str,
) -> Result<PathBuf, Refusal> {
    let real = resolve_file(root_canonical, relative)?;
    let lexical: PathBuf = relative
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect();
    if lexical.starts_with(folder) && real.starts_with(root_canonical.join(folder)) {
        Ok(real)
    } else {
        Err(Refusal::NotUnder(folder))
    }
}

/// Resolves a file given as a path under `root` (as the walks below and the callers of
/// `dataset::load` have it), for readers that are handed joined paths.
pub fn resolve_under(root: &Path, path: &Path) -> Result<PathBuf, Diagnostic> {
    let root_canonical = canonical_root(root)?;
    let relative = path.strip_prefix(root).unwrap_or(path);
    resolve_file(&root_canonical, relative).map_err(|r| r.diagnostic(relative))
}

/// `None` for a regular file, else what it is, in words.
pub fn not_a_file(file_type: &fs::FileType) -> Option<&'static str> {
    if file_type.is_file() {
        return None;
    }
    if file_type.is_dir() {
        return Some("a folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return Some("a device");
        }
        if file_type.is_socket() {
            return Some("a socket");
        }
    }
    Some("something else")
}

/// Whether a path inside the site (relative to its root) has a hidden segment, outside
/// `static/.well-known/`'s own name.
pub fn is_hidden_inside(relative: &Path) -> bool {
    let mut parts = relative.components().filter_map(|c| match c {
        Component::Normal(name) => Some(name),
        _ => None,
    });
    let first = parts.next();
    let well_known = first == Some(layout::STATIC.as_ref());
    first.into_iter().chain(parts).enumerate().any(|(i, name)| {
        name.as_encoded_bytes().first() == Some(&b'.')
            && !(well_known && i == 1 && name == ".well-known")
    })
}

/// Whether a relative path's `..` steps never climb above its start.
fn stays_inside_as_written(relative: &Path) -> bool {
    let mut depth: usize = 0;
    for component in relative.components() {
        match component {
            Component::Normal(_) => depth += 1,
            Component::ParentDir => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
        }
    }
    true
}

/// A file found by [`walk`].
#[derive(Debug, Clone)]
pub struct Found {
    /// As the user knows it: `<root>/<folder>/…`, symbolic links not replaced.
    pub path: PathBuf,
    /// Where it really is, inside the site folder: read this one.
    pub real: PathBuf,
    /// Its path inside the walked folder, `/`-separated: `partials/list.html`.
    pub name: String,
}

/// The files of one folder, and every problem met on the way.
#[derive(Debug, Default)]
pub struct Walk {
    /// Sorted by `path`.
    pub files: Vec<Found>,
    pub problems: Vec<Diagnostic>,
}

/// How many symbolic links to folders may be nested: a bound besides the loop check.
const MAX_LINKED_FOLDERS: usize = 32;

/// Every regular file under `<root>/<folder>` whose path inside the folder `wanted`
/// accepts. Symbolic links are followed when they stay inside the site (into folders
/// too) and reported when they leave it, loop, or lead nowhere; nothing outside the site
/// is opened, not even a folder listing. A missing folder yields nothing.
pub fn walk(
    root: &Path,
    root_canonical: &Path,
    folder: &Path,
    wanted: &dyn Fn(&Path) -> bool,
) -> Walk {
    let mut walk = Walk::default();
    match resolve_inside(root_canonical, folder) {
        Ok(real) if real.is_dir() => {
            let mut walker = Walker {
                root,
                root_canonical,
                folder,
                wanted,
                link_parents: Vec::new(),
                walk: &mut walk,
            };
            walker.folder(folder, &real);
        }
        Ok(_) | Err(Refusal::Missing { .. }) => {}
        Err(refusal) => walk.problems.push(refusal.diagnostic(folder)),
    }
    walk.files.sort_by(|a, b| a.path.cmp(&b.path));
    walk
}

struct Walker<'a> {
    root: &'a Path,
    root_canonical: &'a Path,
    folder: &'a Path,
    wanted: &'a dyn Fn(&Path) -> bool,
    /// The real folders holding the symbolic links being followed: a link to one of them
    /// (or to a folder above one) would walk forever.
    link_parents: Vec<PathBuf>,
    walk: &'a mut Walk,
}

impl Walker<'_> {
    /// Walks `relative` (under the root), which really is `real`.
    fn folder(&mut self, relative: &Path, real: &Path) {
        let start = self.root.join(relative);
        // Hidden files and folders are never entered, listed or read (not even their
        // problems are reported: an editor's `.#lock` link to nothing is no mistake).
        let visible = |entry: &walkdir::DirEntry| {
            let inside_start = entry.path().strip_prefix(&start).unwrap_or(entry.path());
            !is_hidden_inside(&relative.join(inside_start))
        };
        for entry in walkdir::WalkDir::new(&start)
            .min_depth(1)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(visible)
        {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    let shown = e
                        .path()
                        .and_then(|p| p.strip_prefix(self.root).ok())
                        .unwrap_or(relative)
                        .to_path_buf();
                    self.walk.problems.push(Diagnostic::error(
                        &shown,
                        format!("cannot read {}: {e}", shown.display()),
                    ));
                    continue;
                }
            };
            let inside_start = entry.path().strip_prefix(&start).unwrap_or(entry.path());
            let shown = relative.join(inside_start);
            let file_type = entry.file_type();
            if file_type.is_dir() {
                continue;
            }
            if file_type.is_symlink() {
                self.link(&shown, &real.join(inside_start));
                continue;
            }
            if !self.wants(&shown) {
                continue;
            }
            match not_a_file(&file_type) {
                None => {
                    let found = self.found(&shown, real.join(inside_start));
                    self.walk.files.push(found);
                }
                Some(kind) => self
                    .walk
                    .problems
                    .push(Refusal::NotAFile(kind).diagnostic(&shown)),
            }
        }
    }

    /// Follows the symbolic link `shown` (under the root), which sits at `at` (its folder
    /// resolved, the link itself not).
    fn link(&mut self, shown: &Path, at: &Path) {
        let real = match resolve_inside(self.root_canonical, shown) {
            Ok(real) => real,
            Err(Refusal::Missing { .. }) if !self.wants(shown) => {
                // A link to nothing that would not be read anyway.
                return;
            }
            Err(refusal) => {
                self.walk.problems.push(refusal.diagnostic(shown));
                return;
            }
        };
        let metadata = match fs::metadata(&real) {
            Ok(m) => m,
            Err(e) => {
                self.walk
                    .problems
                    .push(Refusal::Unresolvable(e).diagnostic(shown));
                return;
            }
        };
        if metadata.is_dir() {
            let parent = at.parent().unwrap_or(at).to_path_buf();
            let loops =
                parent.starts_with(&real) || self.link_parents.iter().any(|p| p.starts_with(&real));
            if loops || self.link_parents.len() >= MAX_LINKED_FOLDERS {
                self.walk.problems.push(
                    Diagnostic::error(
                        shown,
                        format!(
                            "{} is a symbolic link to a folder that contains it (a loop)",
                            shown.display()
                        ),
                    )
                    .with_hint("point it at a folder inside the site folder that does not hold the link, or remove it"),
                );
                return;
            }
            self.link_parents.push(parent);
            self.folder(shown, &real);
            self.link_parents.pop();
            return;
        }
        if !self.wants(shown) {
            return;
        }
        match not_a_file(&metadata.file_type()) {
            None => {
                let found = self.found(shown, real);
                self.walk.files.push(found);
            }
            Some(kind) => self
                .walk
                .problems
                .push(Refusal::NotAFile(kind).diagnostic(shown)),
        }
    }

    fn found(&self, shown: &Path, real: PathBuf) -> Found {
        Found {
            path: self.root.join(shown),
            real,
            name: shown
                .strip_prefix(self.folder)
                .unwrap_or(shown)
                .to_string_lossy()
                .replace('\\', "/"),
        }
    }

    /// Whether the caller reads the file at `shown` (a path under the root).
    fn wants(&self, shown: &Path) -> bool {
        (self.wanted)(shown.strip_prefix(self.folder).unwrap_or(shown))
    }
}

#[cfg(all(test, unix))]
mod tests;
