//! The reuse manifest: per dataset, the key of its inputs, the output files it wrote and
//! the digests of its metadata files, for one output folder. It lives in
//! `<root>/.datapages-cache/reuse/<digest of the output path>.json`, is written through a
//! temporary file and a rename, and names the output's marker file by its identity
//! (device, inode, times), so it describes that output and no other. A damaged, foreign or
//! stale manifest is ignored: the build then writes everything.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::key::FORMAT;
use crate::dataset::scan::hex;
use crate::dataset::stamp::FileStamp;
use crate::dataset::FileDigest;
use crate::layout;
use crate::output::MARKER;

/// What one dataset wrote, under the key of its inputs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Entry {
    pub key: String,
    /// Output files, `/`-separated, relative to the output folder, sorted.
    pub files: Vec<String>,
    /// The metadata files' (path, size, SHA-256), which the DCAT catalog states.
    pub digests: Vec<(String, u64, String)>,
}

impl Entry {
    pub fn digests(&self) -> Vec<FileDigest> {
        self.digests
            .iter()
            .map(|(path, bytes, sha256)| FileDigest {
                path: path.clone(),
                bytes: *bytes,
                sha256: sha256.clone(),
            })
            .collect()
    }

    pub fn digest_fields(digests: &[FileDigest]) -> Vec<(String, u64, String)> {
        digests
            .iter()
            .map(|d| (d.path.clone(), d.bytes, d.sha256.clone()))
            .collect()
    }
}

/// The whole file.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Manifest {
    format: u32,
    version: String,
    /// The output folder it describes (resolved).
    output: PathBuf,
    /// The identity of that folder's marker file when it was written.
    marker: FileStamp,
    pub datasets: BTreeMap<String, Entry>,
}

/// Where the manifest of `output` lives.
fn path(root: &Path, output: &Path) -> PathBuf {
    let digest = Sha256::digest(output.as_os_str().as_encoded_bytes());
    reuse_dir(root).join(format!("{}.json", &hex(&digest)[..32]))
}

fn reuse_dir(root: &Path) -> PathBuf {
    root.join(layout::CACHE).join("reuse")
}

/// The cache folders are plain folders of ours (or not there yet): a symbolic link in
/// their place, committed to the site, could lead outside it.
fn folders_are_own(root: &Path) -> bool {
    [root.join(layout::CACHE), reuse_dir(root)].iter().all(
        |folder| match std::fs::symlink_metadata(folder) {
            Ok(m) => m.file_type().is_dir(),
            Err(e) => e.kind() == std::io::ErrorKind::NotFound,
        },
    )
}

/// A relative path of plain names only: nothing a manifest lists may lead out of the
/// output folder.
fn is_plain_relative(file: &str) -> bool {
    !file.is_empty()
        && Path::new(file)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

/// The datasets of the manifest of `output`, when it is ours, intact, of this version,
/// and describes the output folder as it is now (same marker file).
pub(super) fn load(root: &Path, output: &Path) -> Option<BTreeMap<String, Entry>> {
    let file = path(root, output);
    if !folders_are_own(root)
        || !std::fs::symlink_metadata(&file).is_ok_and(|m| m.file_type().is_file())
    {
        return None;
    }
    parse(&std::fs::read(&file).ok()?, output)
}

/// The datasets of a manifest's text, if it describes `output` as it is now.
fn parse(text: &[u8], output: &Path) -> Option<BTreeMap<String, Entry>> {
    let manifest: Manifest = serde_json::from_slice(text).ok()?;
    let marker = FileStamp::of(&output.join(MARKER))?;
    let valid = manifest.format == FORMAT
        && manifest.version == env!("CARGO_PKG_VERSION")
        && manifest.output == output
        && manifest.marker == marker
        && manifest
            .datasets
            .values()
            .all(|e| e.files.iter().all(|f| is_plain_relative(f)));
    valid.then_some(manifest.datasets)
}

/// Writes the manifest of `output`, whose marker file is `marker`. Failing to write is not
/// an error: the manifest only saves time.
pub(super) fn save(
    root: &Path,
    output: &Path,
    marker: FileStamp,
    datasets: BTreeMap<String, Entry>,
) {
    let manifest = Manifest {
        format: FORMAT,
        version: env!("CARGO_PKG_VERSION").to_string(),
        output: output.to_path_buf(),
        marker,
        datasets,
    };
    let file = path(root, output);
    if !folders_are_own(root) || std::fs::create_dir_all(reuse_dir(root)).is_err() {
        return;
    }
    let Ok(json) = serde_json::to_vec(&manifest) else {
        return;
    };
    let temporary = file.with_extension(format!("partial-{}", std::process::id()));
    if std::fs::write(&temporary, json).is_err() || std::fs::rename(&temporary, &file).is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(files: &[&str]) -> Entry {
        Entry {
            key: "k".into(),
            files: files.iter().map(|f| f.to_string()).collect(),
            digests: vec![("datasets/a.json".into(), 3, "ab".into())],
        }
    }

    #[test]
    fn a_manifest_is_read_back_only_for_the_same_output_and_marker() {
        let dir = tempfile::tempdir().unwrap();
        let (root, output) = (dir.path().join("site"), dir.path().join("public"));
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(&output).unwrap();
        std::fs::write(output.join(MARKER), "m").unwrap();
        let marker = FileStamp::of(&output.join(MARKER)).unwrap();
        let datasets = BTreeMap::from([("a".to_string(), entry(&["datasets/a/index.html"]))]);
        save(&root, &output, marker, datasets.clone());
        assert_eq!(load(&root, &output), Some(datasets.clone()));
        assert_eq!(load(&root, &dir.path().join("other")), None);
        // A new output folder (a new marker file) is another folder.
        std::fs::remove_file(output.join(MARKER)).unwrap();
        std::fs::write(output.join(MARKER), "m").unwrap();
        assert_eq!(load(&root, &output), None);
    }

    #[test]
    fn a_corrupt_or_foreign_manifest_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let (root, output) = (dir.path().join("site"), dir.path().join("public"));
        std::fs::create_dir_all(&output).unwrap();
        std::fs::write(output.join(MARKER), "m").unwrap();
        let marker = FileStamp::of(&output.join(MARKER)).unwrap();
        save(&root, &output, marker, BTreeMap::new());
        let file = path(&root, &output);
        let good = std::fs::read(&file).unwrap();
        assert!(load(&root, &output).is_some());
        for bad in [
            b"{not json".to_vec(),
            Vec::new(),
            good[..good.len() / 2].to_vec(),
            b"{\"format\": 1}".to_vec(),
        ] {
            std::fs::write(&file, &bad).unwrap();
            assert_eq!(load(&root, &output), None);
        }
        // A path leading out of the output folder makes the whole manifest foreign.
        for escaping in ["../../etc/passwd", "/etc/passwd", "a/../../b", ""] {
            let datasets = BTreeMap::from([("a".to_string(), entry(&[escaping]))]);
            save(&root, &output, marker, datasets);
            assert_eq!(load(&root, &output), None, "{escaping}");
        }
        // Another version's manifest.
        let text = String::from_utf8(good).unwrap().replace(
            &format!("\"version\":\"{}\"", env!("CARGO_PKG_VERSION")),
            "\"version\":\"0.0.0-other\"",
        );
        std::fs::write(&file, text).unwrap();
        assert_eq!(load(&root, &output), None);
    }
}
