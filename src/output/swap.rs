//! Putting a finished staging folder at the output path, and clearing what killed builds
//! left behind.
//!
//! Invariant: wherever the output folder can be renamed, the output path holds the
//! complete old output or the complete new one at every instant. On Linux the two folders
//! are exchanged in one step (`renameat2` with `RENAME_EXCHANGE`); where that is missing
//! (other systems, file systems without it) the old folder is renamed aside and the new one
//! into place, which leaves a moment without output. An output folder that cannot be
//! renamed (a mount point) has its contents replaced instead: not atomic.

use std::fs;
use std::io;
use std::path::Path;

use super::{has_marker, remove_marked_folder, remove_path, MARKER};

/// How the staged output replaces the old one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// No output yet: one rename.
    Rename,
    /// Both folders exchanged in one step, then the old tree removed.
    Exchange,
    /// The old folder renamed aside, the new one into place: briefly no output.
    TwoRenames,
    /// The output folder stays (it cannot be renamed); what it holds is replaced.
    ReplaceContents,
}

/// The method to try first.
pub fn first_choice(output_exists: bool, mount_point: bool) -> Method {
    match (output_exists, mount_point) {
        (false, _) => Method::Rename,
        (true, true) => Method::ReplaceContents,
        (true, false) => Method::Exchange,
    }
}

/// The method to try after `method` failed with `error`, if any.
pub fn fallback(method: Method, error: &io::Error) -> Option<Method> {
    use io::ErrorKind::{CrossesDevices, InvalidInput, ResourceBusy, Unsupported};
    match (method, error.kind()) {
        (Method::Exchange | Method::TwoRenames, ResourceBusy | CrossesDevices) => {
            Some(Method::ReplaceContents)
        }
        // No RENAME_EXCHANGE here (EINVAL from older kernels and some file systems).
        (Method::Exchange, Unsupported | InvalidInput) => Some(Method::TwoRenames),
        _ => None,
    }
}

/// Replaces `output` with `staging`; `aside` is the name for the old output in the
/// two-rename fallback. The old tree is removed afterwards; if that fails it stays under a
/// name the next build recognises and removes.
pub fn publish(staging: &Path, output: &Path, aside: &Path) -> io::Result<()> {
    let exists = fs::symlink_metadata(output).is_ok();
    let mut method = first_choice(exists, exists && is_mount_point(output));
    loop {
        let result = match method {
            Method::Rename => fs::rename(staging, output),
            Method::Exchange => exchange(staging, output).map(|()| {
                let _ = remove_marked_folder(staging);
            }),
            Method::TwoRenames => two_renames(staging, output, aside),
            Method::ReplaceContents => replace_contents(staging, output),
        };
        match result {
            Ok(()) => return Ok(()),
            Err(e) => match fallback(method, &e) {
                Some(next) => method = next,
                None => return Err(e),
            },
        }
    }
}

/// Swaps two folders atomically.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let a = CString::new(a.as_os_str().as_bytes())?;
    let b = CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: both are valid NUL-terminated paths that outlive the call; the syscall does
    // not keep them.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> io::Result<()> {
    Err(io::ErrorKind::Unsupported.into())
}

fn two_renames(staging: &Path, output: &Path, aside: &Path) -> io::Result<()> {
    remove_path(aside)?;
    fs::rename(output, aside)?;
    if let Err(e) = fs::rename(staging, output) {
        // Put the previous output back rather than leave nothing.
        let _ = fs::rename(aside, output);
        return Err(e);
    }
    let _ = remove_marked_folder(aside);
    Ok(())
}

/// What an [`io::Error`] from [`publish`] starts with when the output folder was left
/// neither old nor new (a mount point whose old files could not be put back).
pub const INCOMPLETE: &str = "the output folder is now incomplete";

/// Replaces what `output` holds (it stays: a mount point) with what `staging` holds, in
/// two steps. First the new files are moved or copied into a hidden folder inside the
/// output, on its own file system, the old files untouched: a full disk fails here and
/// leaves the output as it was. Then the old entries are renamed aside and the new ones
/// into place, renames within one file system that need no space; if one fails, the
/// old entries are put back. The marker stays throughout (the new one renamed over it).
fn replace_contents(staging: &Path, output: &Path) -> io::Result<()> {
    let pid = std::process::id();
    let incoming = output.join(format!(".datapages-incoming-{pid}"));
    let old = output.join(format!(".datapages-old-{pid}"));
    remove_path(&incoming)?;
    remove_path(&old)?;
    if let Err(e) = move_tree(staging, &incoming) {
        let _ = remove_path(&incoming);
        return Err(e);
    }
    let ours = |name: &std::ffi::OsStr| {
        name == MARKER
            || *name == *incoming.file_name().unwrap_or_default()
            || *name == *old.file_name().unwrap_or_default()
    };
    let result = fs::create_dir(&old)
        .and_then(|()| move_entries(output, &old, &ours))
        .and_then(|()| move_entries(&incoming, output, &|_| false));
    if let Err(e) = result {
        // Back as it was: the new entries out, the old ones in.
        let restored = move_entries_named(output, &incoming, &old)
            .and_then(|()| move_entries(&old, output, &|_| false));
        let _ = remove_path(&incoming);
        return match restored {
            Ok(()) => {
                let _ = remove_path(&old);
                Err(e)
            }
            Err(again) => Err(io::Error::other(format!(
                "{INCOMPLETE} ({e}; putting the old files back failed too: {again}; the old files are in {}): run `datapages build --no-cache` again to write it whole",
                old.display()
            ))),
        };
    }
    let _ = remove_path(&incoming);
    let _ = remove_path(&old);
    let _ = fs::remove_dir_all(staging);
    Ok(())
}

/// `from` to `to` (which must not exist): renamed, or copied across file systems.
fn move_tree(from: &Path, to: &Path) -> io::Result<()> {
    match fs::rename(from, to) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::CrossesDevices => copy_tree(from, to),
        Err(e) => Err(e),
    }
}

/// Renames every entry of `from` into `to`, but those `skip` names.
fn move_entries(from: &Path, to: &Path, skip: &dyn Fn(&std::ffi::OsStr) -> bool) -> io::Result<()> {
    for entry in fs::read_dir(from)? {
        let name = entry?.file_name();
        if !skip(&name) {
            fs::rename(from.join(&name), to.join(&name))?;
        }
    }
    Ok(())
}

/// Renames back from `output` into `incoming` the entries that came from there: those not
/// among the old entries moved into `old`, nor ours.
fn move_entries_named(output: &Path, incoming: &Path, old: &Path) -> io::Result<()> {
    for entry in fs::read_dir(output)? {
        let name = entry?.file_name();
        let path = output.join(&name);
        if name == MARKER || path == incoming || path == old {
            continue;
        }
        if fs::symlink_metadata(old.join(&name)).is_err() {
            fs::rename(&path, incoming.join(&name))?;
        }
    }
    Ok(())
}

fn copy_tree(from: &Path, to: &Path) -> io::Result<()> {
    if fs::symlink_metadata(from)?.is_dir() {
        fs::create_dir_all(to)?;
        for entry in fs::read_dir(from)? {
            let entry = entry?;
            copy_tree(&entry.path(), &to.join(entry.file_name()))?;
        }
        Ok(())
    } else {
        fs::copy(from, to).map(|_| ())
    }
}

/// A folder on another file system than its parent: it cannot be renamed.
#[cfg(unix)]
pub fn is_mount_point(path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let parent = path.parent().unwrap_or(path);
    match (fs::metadata(path), fs::metadata(parent)) {
        (Ok(own), Ok(up)) => own.dev() != up.dev() || own.ino() == up.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
pub fn is_mount_point(_: &Path) -> bool {
    false
}

/// Removes `.NAME.staging-PID` and `.NAME.old-PID` folders in `parent` that killed builds
/// left: only those whose process is gone and that hold datapages' marker (or nothing at
/// all, a build killed before writing it). Returns how many were removed.
pub fn remove_stale(parent: &Path, name: &str) -> usize {
    let Ok(entries) = fs::read_dir(parent) else {
        return 0;
    };
    let own = std::process::id();
    let mut removed = 0;
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name.to_str().and_then(|n| leftover_pid(n, name)) else {
            continue;
        };
        let path = entry.path();
        let is_folder = fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
        if pid == own || !is_folder || process_alive(pid) {
            continue;
        }
        let empty = fs::read_dir(&path).is_ok_and(|mut d| d.next().is_none());
        if (has_marker(&path) || empty) && remove_marked_folder(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The pid in a leftover folder's name `.NAME.staging-PID` or `.NAME.old-PID`.
pub fn leftover_pid(file_name: &str, name: &str) -> Option<u32> {
    let rest = file_name.strip_prefix('.')?.strip_prefix(name)?;
    let digits = rest
        .strip_prefix(".staging-")
        .or_else(|| rest.strip_prefix(".old-"))?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().filter(|&pid| pid > 0)
}

/// Whether a process with this id exists (then its folders are left alone).
#[cfg(unix)]
pub fn process_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    // SAFETY: signal 0 only checks that the process exists; pid > 0 names one process.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Whether a process with this id exists and has not ended (Windows keeps an ended
/// process's id while a handle to it is open; its exit code then tells).
#[cfg(windows)]
pub fn process_alive(pid: u32) -> bool {
    use windows_sys::Win32::Foundation::{CloseHandle, GetLastError, ERROR_INVALID_PARAMETER};
    use windows_sys::Win32::System::Threading::{
        GetExitCodeProcess, OpenProcess, PROCESS_QUERY_LIMITED_INFORMATION,
    };
    /// The exit code of a process still running (`STILL_ACTIVE`).
    const STILL_ACTIVE: u32 = 259;
    // SAFETY: plain calls on a process id; the handle is closed before returning.
    unsafe {
        let handle = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid);
        if handle.is_null() {
            // No such process; any other failure (access denied) counts as alive.
            return GetLastError() != ERROR_INVALID_PARAMETER;
        }
        let mut code = 0u32;
        let asked = GetExitCodeProcess(handle, &mut code);
        CloseHandle(handle);
        asked == 0 || code == STILL_ACTIVE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_method_follows_what_the_output_is_and_what_failed() {
        assert_eq!(first_choice(false, false), Method::Rename);
        assert_eq!(first_choice(true, false), Method::Exchange);
        assert_eq!(first_choice(true, true), Method::ReplaceContents);
        let busy = io::Error::from(io::ErrorKind::ResourceBusy);
        let other_device = io::Error::from(io::ErrorKind::CrossesDevices);
        let unsupported = io::Error::from(io::ErrorKind::Unsupported);
        let invalid = io::Error::from(io::ErrorKind::InvalidInput);
        let denied = io::Error::from(io::ErrorKind::PermissionDenied);
        for e in [&busy, &other_device] {
            assert_eq!(fallback(Method::Exchange, e), Some(Method::ReplaceContents));
            assert_eq!(
                fallback(Method::TwoRenames, e),
                Some(Method::ReplaceContents)
            );
        }
        for e in [&unsupported, &invalid] {
            assert_eq!(fallback(Method::Exchange, e), Some(Method::TwoRenames));
        }
        assert_eq!(fallback(Method::Exchange, &denied), None);
        assert_eq!(fallback(Method::ReplaceContents, &busy), None);
        assert_eq!(fallback(Method::Rename, &busy), None);
    }

    #[test]
    fn every_method_leaves_the_new_output_and_nothing_else() {
        for method in [
            Method::Exchange,
            Method::TwoRenames,
            Method::ReplaceContents,
        ] {
            let dir = tempfile::tempdir().unwrap();
            let (staging, output) = (dir.path().join(".out.staging-1"), dir.path().join("out"));
            let aside = dir.path().join(".out.old-1");
            fs::create_dir_all(output.join("gone")).unwrap();
            fs::write(output.join(MARKER), "old").unwrap();
            fs::create_dir_all(staging.join("new")).unwrap();
            fs::write(staging.join(MARKER), "new").unwrap();
            fs::write(staging.join("new/a.txt"), "a").unwrap();
            match method {
                Method::Exchange => match exchange(&staging, &output) {
                    Ok(()) => fs::remove_dir_all(&staging).unwrap(),
                    Err(e) if cfg!(target_os = "linux") => panic!("exchange: {e}"),
                    Err(_) => two_renames(&staging, &output, &aside).unwrap(),
                },
                Method::TwoRenames => two_renames(&staging, &output, &aside).unwrap(),
                _ => replace_contents(&staging, &output).unwrap(),
            }
            assert!(!output.join("gone").exists(), "{method:?}");
            assert_eq!(fs::read_to_string(output.join("new/a.txt")).unwrap(), "a");
            let names: Vec<_> = fs::read_dir(dir.path()).unwrap().flatten().collect();
            assert_eq!(names.len(), 1, "{method:?}: only the output remains");
        }
    }

    #[test]
    fn only_provably_stale_folders_are_removed() {
        assert_eq!(leftover_pid(".public.staging-12", "public"), Some(12));
        assert_eq!(leftover_pid(".public.old-7", "public"), Some(7));
        assert_eq!(leftover_pid(".public.old-", "public"), None);
        assert_eq!(leftover_pid(".public.old-0", "public"), None);
        assert_eq!(leftover_pid(".public.old-1x", "public"), None);
        assert_eq!(leftover_pid(".other.old-7", "public"), None);
        assert_eq!(leftover_pid("public.old-7", "public"), None);

        let dir = tempfile::tempdir().unwrap();
        // Beyond the kernel's largest pid (2^22): surely not running.
        let dead = 2_000_000_000u32;
        let marked = dir.path().join(format!(".public.staging-{dead}"));
        let empty = dir.path().join(format!(".public.old-{dead}"));
        let foreign = dir.path().join(".public.old-1999999999");
        let alive = dir
            .path()
            .join(format!(".public.staging-{}", std::process::id()));
        for folder in [&marked, &empty, &foreign, &alive] {
            fs::create_dir(folder).unwrap();
        }
        fs::write(marked.join(MARKER), "x").unwrap();
        fs::write(foreign.join("thesis.tex"), "mine").unwrap();
        fs::write(alive.join(MARKER), "x").unwrap();
        let removed = remove_stale(dir.path(), "public");
        assert_eq!(removed, 2);
        assert!(!marked.exists() && !empty.exists());
        assert!(foreign.exists(), "no marker: not provably ours");
        assert!(alive.exists(), "this process is alive");
    }
}
