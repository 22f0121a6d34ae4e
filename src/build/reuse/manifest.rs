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
use crate::dataset::cache::{plain_folders, write_json_atomically};
use crate::dataset::scan::hex;
use crate::dataset::stamp::FileStamp;
use crate::dataset::FileDigest;
use crate::layout;
use crate::output::MARKER;

/// What one dataset wrote, under the key of its inputs. Kept as three strings, so that a
/// catalog's manifest costs a few hundred bytes per dataset in memory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct WrittenFiles {
    pub key: String,
    /// Output files, `/`-separated, relative to the output folder, sorted, one a line.
    files: String,
    /// The metadata files, which the DCAT catalog states: `path<TAB>size<TAB>sha256` lines.
    digests: String,
    /// Where the dataset's record (`record`) is in the records file:
    /// offset and length. A dataset that has one need not be loaded while its Markdown
    /// and CSV are unchanged.
    #[serde(default)]
    pub record: Option<[u64; 2]>,
}

impl WrittenFiles {
    /// The entry of files and digests whose paths hold no line break or tab (else none:
    /// such a dataset is simply rendered next time).
    pub fn new(key: String, files: &[String], digests: &[FileDigest]) -> Option<WrittenFiles> {
        let plain = |p: &str| !p.contains(['\n', '\t']);
        if !files.iter().all(|f| plain(f)) || !digests.iter().all(|d| plain(&d.path)) {
            return None;
        }
        let digests = digests
            .iter()
            .map(|d| format!("{}\t{}\t{}", d.path, d.bytes, d.sha256))
            .collect::<Vec<_>>()
            .join("\n");
        Some(WrittenFiles {
            key,
            files: files.join("\n"),
            digests,
            record: None,
        })
    }

    pub fn files(&self) -> impl Iterator<Item = &str> {
        self.files.split('\n').filter(|f| !f.is_empty())
    }

    /// The digests, or `None` when a line does not read.
    pub fn digests(&self) -> Option<Vec<FileDigest>> {
        self.digests
            .split('\n')
            .filter(|line| !line.is_empty())
            .map(|line| {
                let mut parts = line.split('\t');
                let (path, bytes, sha256) = (parts.next()?, parts.next()?, parts.next()?);
                Some(FileDigest {
                    path: path.to_string(),
                    bytes: bytes.parse().ok()?,
                    sha256: crate::checksum::Sha256::from_hex(sha256)?,
                })
            })
            .collect()
    }
}

/// The whole file; `D`: its map of datasets (read whole, written from a spill file).
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Manifest<D> {
    format: u32,
    version: String,
    /// The output folder it describes (resolved).
    output: PathBuf,
    /// The identity of that folder's marker file when it was written.
    marker: FileStamp,
    /// The identity of the records file the entries point into, when there is one.
    #[serde(default)]
    records: Option<FileStamp>,
    /// The key of everything the output holds (`key::output_key`) and its pages and
    /// files: a build whose inputs give the same key has nothing to write.
    #[serde(default)]
    whole: Option<Whole>,
    pub datasets: D,
}

/// What a whole output was built from, and how much it holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(in crate::build) struct Whole {
    pub key: String,
    pub pages: usize,
    pub files: usize,
    /// The output folder as measured once in place (the host report of a build that finds
    /// it up to date).
    pub size: crate::output::hosts::OutputSize,
}

/// Where a build that writes into `output` records its entries as it goes (see `spill`),
/// or None when the cache folder is not one datapages can use.
pub(super) fn spill_path(root: &Path, output: &Path) -> Option<PathBuf> {
    let file = path(root, output);
    reuse_dir_ready(root).then(|| file.with_extension(format!("entries-{}", std::process::id())))
}

/// Where a build that writes into `output` puts the records of its datasets until
/// the manifest is saved.
pub(super) fn records_spill_path(root: &Path, output: &Path) -> Option<PathBuf> {
    spill_path(root, output).map(|p| p.with_extension(format!("records-{}", std::process::id())))
}

/// Where the records file of the manifest of `output` lives.
fn records_path(root: &Path, output: &Path) -> PathBuf {
    path(root, output).with_extension("records")
}

/// The records file a manifest points into, opened when it is the very file the manifest
/// was saved with (same identity): entries' offsets mean nothing in another.
pub(super) struct RecordsFile(std::fs::File);

impl RecordsFile {
    /// Another handle on the file, for reading entries back later in the build.
    pub fn handle(&self) -> Option<std::fs::File> {
        self.0.try_clone().ok()
    }

    /// The `[offset, length]` bytes of the file, or `None` past its end.
    pub fn read(&self, at: [u64; 2]) -> Option<Vec<u8>> {
        let mut bytes = vec![0; usize::try_from(at[1]).ok().filter(|&n| n < 1 << 26)?];
        crate::positioned::read_exact_at(&self.0, &mut bytes, at[0]).ok()?;
        Some(bytes)
    }
}

/// Where the manifest of `output` lives.
pub(super) fn path(root: &Path, output: &Path) -> PathBuf {
    let digest = Sha256::digest(output.as_os_str().as_encoded_bytes());
    reuse_dir(root).join(format!("{}.json", &hex(&digest)[..32]))
}

/// The reuse folder, when it is a plain folder of ours (created if need be).
pub(super) fn ready_reuse_dir(root: &Path) -> Option<PathBuf> {
    reuse_dir_ready(root).then(|| reuse_dir(root))
}

fn reuse_dir(root: &Path) -> PathBuf {
    root.join(layout::CACHE).join("reuse")
}

/// The reuse folder exists and is a plain folder of ours.
fn reuse_dir_ready(root: &Path) -> bool {
    folders_are_own(root) && std::fs::create_dir_all(reuse_dir(root)).is_ok()
}

/// The cache folders are plain folders of ours (or not there yet).
fn folders_are_own(root: &Path) -> bool {
    plain_folders([
        root.join(layout::CACHE).as_path(),
        reuse_dir(root).as_path(),
    ])
}

/// A relative path of plain names only: nothing a manifest lists may lead out of the
/// output folder.
fn is_plain_relative(file: &str) -> bool {
    !file.is_empty()
        && Path::new(file)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

/// What a previous build left: its entries, the records file they point into, and what
/// its whole output was built from.
#[derive(Default)]
pub(super) struct Left {
    pub datasets: BTreeMap<String, WrittenFiles>,
    pub records: Option<RecordsFile>,
    pub whole: Option<Whole>,
}

/// The datasets of the manifest of `output`, when it is ours, intact, of this version,
/// and describes the output folder as it is now (same marker file), with its records file
/// when that is the one it was saved with.
pub(super) fn load(root: &Path, output: &Path) -> Option<Left> {
    let file = path(root, output);
    let plain =
        |file: &Path| std::fs::symlink_metadata(file).is_ok_and(|m| m.file_type().is_file());
    if !folders_are_own(root) || !plain(&file) {
        return None;
    }
    let manifest = parse(&std::fs::read(&file).ok()?, output)?;
    let records_file = records_path(root, output);
    let records = manifest
        .records
        .filter(|_| plain(&records_file))
        .and_then(|stamp| {
            let opened = std::fs::File::open(&records_file).ok()?;
            let now = FileStamp::from_metadata(&opened.metadata().ok()?)?;
            (now == stamp).then_some(RecordsFile(opened))
        });
    Some(Left {
        datasets: manifest.datasets,
        records,
        whole: manifest.whole,
    })
}

/// A manifest's text, if it describes `output` as it is now.
fn parse(text: &[u8], output: &Path) -> Option<Manifest<BTreeMap<String, WrittenFiles>>> {
    let manifest: Manifest<BTreeMap<String, WrittenFiles>> = serde_json::from_slice(text).ok()?;
    let marker = FileStamp::of(&output.join(MARKER))?;
    let valid = manifest.format == FORMAT
        && manifest.version == env!("CARGO_PKG_VERSION")
        && manifest.output == output
        && manifest.marker == marker
        && manifest
            .datasets
            .values()
            .all(|e| e.files().all(is_plain_relative) && e.digests().is_some());
    valid.then_some(manifest)
}

/// Writes the manifest of `output`, whose marker file is `marker`, moving the records file
/// written beside it (`records`, at [`records_spill_path`]) into place first. Failing to
/// write is not an error: the manifest only saves time.
pub(super) fn save(
    root: &Path,
    output: &Path,
    marker: FileStamp,
    datasets: impl Serialize,
    records: Option<&Path>,
    whole: Option<Whole>,
) {
    if !reuse_dir_ready(root) {
        return;
    }
    let records = records.and_then(|written| {
        let file = records_path(root, output);
        std::fs::rename(written, &file).ok()?;
        FileStamp::of(&file)
    });
    let manifest = Manifest {
        format: FORMAT,
        version: env!("CARGO_PKG_VERSION").to_string(),
        output: output.to_path_buf(),
        marker,
        records,
        whole,
        datasets,
    };
    write_json_atomically(&path(root, output), &manifest);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(files: &[&str]) -> WrittenFiles {
        WrittenFiles {
            key: "k".into(),
            files: files.join("\n"),
            digests: format!(
                "data/datasets/a.json\t3\t{}",
                crate::checksum::Sha256::of(b"a")
            ),
            record: None,
        }
    }

    #[test]
    fn an_entry_reads_back_its_files_and_digests() {
        let digest = FileDigest {
            path: "data/datasets/a.json".into(),
            bytes: 21270,
            sha256: crate::checksum::Sha256::of(b"a"),
        };
        let files = [
            "data/datasets/a.csv".to_string(),
            "datasets/a/index.html".into(),
        ];
        let entry = WrittenFiles::new("k".into(), &files, std::slice::from_ref(&digest)).unwrap();
        assert_eq!(entry.files().collect::<Vec<_>>(), files);
        assert_eq!(entry.digests(), Some(vec![digest]));
        assert_eq!(WrittenFiles::new("k".into(), &["a\nb".into()], &[]), None);
        let broken = WrittenFiles {
            digests: "data/datasets/a.json\tmany\tab".into(),
            ..entry
        };
        assert_eq!(broken.digests(), None);
    }

    // Unix only: Windows gives no file stamp, so nothing is reused there (README, "On Windows").
    #[cfg(unix)]
    #[test]
    fn a_manifest_is_read_back_only_for_the_same_output_and_marker() {
        let dir = tempfile::tempdir().unwrap();
        let (root, output) = (dir.path().join("site"), dir.path().join("public"));
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(&output).unwrap();
        std::fs::write(output.join(MARKER), "m").unwrap();
        let marker = FileStamp::of(&output.join(MARKER)).unwrap();
        let datasets = BTreeMap::from([("a".to_string(), entry(&["datasets/a/index.html"]))]);
        let whole = Whole {
            key: "w".into(),
            pages: 3,
            files: 9,
            size: crate::output::hosts::OutputSize {
                files: 10,
                bytes: 1234,
                largest: vec![("data/datasets/a.csv".into(), 1000)],
                over: Vec::new(),
            },
        };
        save(
            &root,
            &output,
            marker,
            datasets.clone(),
            None,
            Some(whole.clone()),
        );
        let previous = load(&root, &output).unwrap();
        assert_eq!(previous.datasets, datasets);
        assert_eq!(previous.whole, Some(whole));
        assert!(load(&root, &dir.path().join("other")).is_none());
        // A new output folder (a new marker file) is another folder.
        std::fs::remove_file(output.join(MARKER)).unwrap();
        std::fs::write(output.join(MARKER), "m").unwrap();
        assert!(load(&root, &output).is_none());
    }

    // Unix only: Windows gives no file stamp, so nothing is reused there (README, "On Windows").
    #[cfg(unix)]
    #[test]
    fn a_corrupt_or_foreign_manifest_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let (root, output) = (dir.path().join("site"), dir.path().join("public"));
        std::fs::create_dir_all(&output).unwrap();
        std::fs::write(output.join(MARKER), "m").unwrap();
        let marker = FileStamp::of(&output.join(MARKER)).unwrap();
        save(
            &root,
            &output,
            marker,
            BTreeMap::<String, WrittenFiles>::new(),
            None,
            None,
        );
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
            assert!(load(&root, &output).is_none());
        }
        // A path leading out of the output folder makes the whole manifest foreign.
        for escaping in ["../../etc/passwd", "/etc/passwd", "a/../../b", "./a"] {
            let datasets = BTreeMap::from([("a".to_string(), entry(&[escaping]))]);
            save(&root, &output, marker, datasets, None, None);
            assert!(load(&root, &output).is_none(), "{escaping}");
        }
        // Another version's manifest.
        let text = String::from_utf8(good).unwrap().replace(
            &format!("\"version\":\"{}\"", env!("CARGO_PKG_VERSION")),
            "\"version\":\"0.0.0-other\"",
        );
        std::fs::write(&file, text).unwrap();
        assert!(load(&root, &output).is_none());
    }

    // Unix only: Windows gives no file stamp, so nothing is reused there (README, "On Windows").
    #[cfg(unix)]
    #[test]
    fn records_are_read_only_from_the_file_the_manifest_was_saved_with() {
        let dir = tempfile::tempdir().unwrap();
        let (root, output) = (dir.path().join("site"), dir.path().join("public"));
        std::fs::create_dir_all(&output).unwrap();
        std::fs::write(output.join(MARKER), "m").unwrap();
        let marker = FileStamp::of(&output.join(MARKER)).unwrap();
        let datasets = BTreeMap::from([("a".to_string(), entry(&["datasets/a/index.html"]))]);
        let written = records_spill_path(&root, &output).unwrap();
        std::fs::write(&written, "0123456789").unwrap();
        save(
            &root,
            &output,
            marker,
            datasets.clone(),
            Some(&written),
            None,
        );
        let previous = load(&root, &output).unwrap();
        assert_eq!(previous.datasets, datasets);
        let records = previous.records.unwrap();
        assert_eq!(records.read([2, 3]).unwrap(), b"234");
        assert!(records.read([8, 5]).is_none());
        // Another file in its place (a later build's, or an edit) is not read.
        let file = records_path(&root, &output);
        std::fs::remove_file(&file).unwrap();
        std::fs::write(&file, "0123456789").unwrap();
        let previous = load(&root, &output).unwrap();
        assert_eq!(previous.datasets, datasets);
        assert!(previous.records.is_none());
    }
}
