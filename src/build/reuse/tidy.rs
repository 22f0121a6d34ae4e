//! Keeps the reuse folder from growing without bound. A build killed mid-way (Ctrl-C, a CI
//! timeout) leaves its spill files (`<digest>.entries-PID`, `.records-PID`, and a
//! half-written manifest, `.partial-PID`): about 36 MB at 10,000 datasets, never read
//! again. Each output folder ever built also leaves a manifest and its records file,
//! which only a build into that same folder reads. Every build with reuse removes the
//! leftovers of processes that are gone and all but the [`KEPT_MANIFESTS`] most recently
//! saved manifests. Only plain files named the way datapages names them are removed.

use std::path::Path;
use std::time::SystemTime;

/// How many output folders keep their manifest: `public/` and a few others (a preview
/// folder, `--output` of a script) keep reusing; the oldest beyond these is forgotten, and
/// the next build into its folder simply renders everything.
pub(super) const KEPT_MANIFESTS: usize = 8;

/// Removes from the reuse folder `dir` the spill files of processes that no longer run,
/// records files without their manifest, and the manifests (with their records files)
/// beyond the [`KEPT_MANIFESTS`] most recent. `current`, the manifest of the output being
/// built, always stays and counts as the most recent.
pub(super) fn tidy(dir: &Path, current: &Path) {
    let current = current.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let own = std::process::id();
    let mut manifests: Vec<(SystemTime, String)> = Vec::new();
    let mut records: Vec<String> = Vec::new();
    for entry in entries.flatten() {
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        let Ok(metadata) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        if !metadata.file_type().is_file() {
            continue;
        }
        match classify(&name) {
            Some(Kind::Leftover(pid)) if pid != own && !crate::output::swap::process_alive(pid) => {
                let _ = std::fs::remove_file(entry.path());
            }
            Some(Kind::Manifest(digest)) if digest == current => {}
            Some(Kind::Manifest(digest)) => {
                let saved = metadata.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                manifests.push((saved, digest.to_string()));
            }
            Some(Kind::RecordsFile(digest)) => records.push(digest.to_string()),
            _ => {}
        }
    }
    // Left by a build killed between moving its records file into place and saving the
    // manifest, or by a manifest that was forgotten: nothing will read it.
    for digest in records {
        if digest != current && !dir.join(format!("{digest}.json")).exists() {
            let _ = std::fs::remove_file(dir.join(format!("{digest}.records")));
        }
    }
    // Newest first; equal times by name, so that which ones stay does not depend on the
    // order the folder lists them in.
    manifests.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    for (_, digest) in manifests.into_iter().skip(KEPT_MANIFESTS - 1) {
        // The manifest first: a records file without its manifest is never read.
        let _ = std::fs::remove_file(dir.join(format!("{digest}.json")));
        let _ = std::fs::remove_file(dir.join(format!("{digest}.records")));
    }
}

/// What a file of the reuse folder is, by its name.
#[derive(Debug, PartialEq, Eq)]
enum Kind<'a> {
    /// `<digest>.json`: the manifest of one output folder.
    Manifest(&'a str),
    /// `<digest>.records`: the records its entries point into.
    RecordsFile(&'a str),
    /// `<digest>.entries-PID`, `.records-PID` or `.partial-PID`: a build's files while it
    /// runs.
    Leftover(u32),
}

/// The kind of the reuse folder's file `name`; None for any name datapages does not give.
fn classify(name: &str) -> Option<Kind<'_>> {
    let (digest, extension) = name.split_once('.')?;
    let is_digest = digest.len() == 32 && digest.bytes().all(|b| b.is_ascii_hexdigit());
    if !is_digest {
        return None;
    }
    match extension {
        "json" => return Some(Kind::Manifest(digest)),
        "records" => return Some(Kind::RecordsFile(digest)),
        _ => {}
    }
    let (what, pid) = extension.split_once('-')?;
    let ours = matches!(what, "entries" | "records" | "partial");
    let digits = !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit());
    match (ours, digits) {
        (true, true) => pid.parse().ok().filter(|&p| p > 0).map(Kind::Leftover),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIGEST: &str = "47e29b2545064f7fb4bf54ba18b4421e";

    #[test]
    fn only_the_names_datapages_gives_are_recognised() {
        let name = |rest: &str| format!("{DIGEST}.{rest}");
        assert_eq!(classify(&name("json")), Some(Kind::Manifest(DIGEST)));
        for (rest, pid) in [("entries-9294", 9294), ("records-1", 1), ("partial-77", 77)] {
            assert_eq!(classify(&name(rest)), Some(Kind::Leftover(pid)), "{rest}");
        }
        assert_eq!(classify(&name("records")), Some(Kind::RecordsFile(DIGEST)));
        for other in [
            name("entries-"),
            name("entries-12a"),
            name("records-0"),
            name("other-12"),
            name("json.bak"),
            format!("{}.json", &DIGEST[1..]),
            "notes.json".into(),
            "zz29b2545064f7fb4bf54ba18b4421e0.json".into(),
        ] {
            assert_eq!(classify(&other), None, "{other}");
        }
    }

    /// The pid of a process that has ended.
    #[cfg(target_os = "linux")]
    fn ended_pid() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn leftovers_of_ended_processes_go_and_those_of_running_ones_stay() {
        let dir = tempfile::tempdir().unwrap();
        let dead = ended_pid();
        let own = std::process::id();
        let file = |rest: String| {
            let path = dir.path().join(format!("{DIGEST}.{rest}"));
            std::fs::write(&path, "x").unwrap();
            path
        };
        let gone = [
            file(format!("entries-{dead}")),
            file(format!("records-{dead}")),
            file(format!("partial-{dead}")),
        ];
        let kept = [
            file(format!("entries-{own}")),
            file("records-1".into()),
            file("json".into()),
            file("records".into()),
        ];
        let foreign = dir.path().join(format!("notes-{dead}.txt"));
        std::fs::write(&foreign, "mine").unwrap();
        // A folder with a leftover's name is not a file of ours.
        let folder = dir.path().join(format!("{DIGEST}.entries-{}", dead + 1));
        std::fs::create_dir(&folder).unwrap();
        tidy(dir.path(), &dir.path().join(format!("{:032x}.json", 1)));
        for path in &gone {
            assert!(!path.exists(), "{} should be gone", path.display());
        }
        for path in kept.iter().chain([&foreign, &folder]) {
            assert!(path.exists(), "{} should stay", path.display());
        }
    }

    #[test]
    fn only_the_most_recently_saved_manifests_stay_with_their_records() {
        let dir = tempfile::tempdir().unwrap();
        let total = KEPT_MANIFESTS + 3;
        let base = SystemTime::now() - std::time::Duration::from_secs(3600);
        let digest = |n: usize| format!("{n:032x}");
        let path =
            |n: usize, extension: &str| dir.path().join(format!("{}.{extension}", digest(n)));
        for n in 0..total {
            for extension in ["json", "records"] {
                std::fs::write(path(n, extension), "{}").unwrap();
                let saved = base + std::time::Duration::from_secs(n as u64 * 60);
                let file = std::fs::File::options()
                    .write(true)
                    .open(path(n, extension))
                    .unwrap();
                file.set_modified(saved).unwrap();
            }
        }
        // Records files without a manifest: one of the output being built, one of nothing.
        let (current, orphan) = (total, total + 1);
        std::fs::write(path(current, "records"), "[]").unwrap();
        std::fs::write(path(orphan, "records"), "[]").unwrap();
        tidy(dir.path(), &path(current, "json"));
        // The current output counts as the newest: the KEPT_MANIFESTS - 1 newest others stay.
        for n in 0..total {
            let stays = n > total - KEPT_MANIFESTS;
            for extension in ["json", "records"] {
                assert_eq!(path(n, extension).exists(), stays, "{n}.{extension}");
            }
        }
        assert!(path(current, "records").exists());
        assert!(!path(orphan, "records").exists());
        // The oldest manifest is kept when it is the current output's.
        tidy(dir.path(), &path(total - KEPT_MANIFESTS + 1, "json"));
        assert!(path(total - KEPT_MANIFESTS + 1, "json").exists());
    }
}
