//! Kept versions of a dataset's CSV (`[[changes]]` entries with a `file`): each checked
//! (a path under `data/`, confined like every read; a version that can be a path segment),
//! measured (size, SHA-256) and compared row by row with the next kept version, the
//! current CSV being the newest (`compare`, streaming in bounded memory: `runs`).

mod compare;
mod runs;
mod window;

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::checksum::Sha256;
use crate::confine::{self, Refusal};
use crate::content::spans::Locator;
use crate::content::{self, DatasetFrontMatter};
use crate::diagnostics::Diagnostic;
use crate::layout;

/// Rows of each kind (added, removed, changed) a comparison names.
pub const EXAMPLES: usize = 5;

/// The longest version a kept file may have (it is a path segment of its URL).
const VERSION_MAX: usize = 64;

/// The kept versions, oldest first, and the comparison of each with the next.
#[derive(Debug, Clone, Default)]
pub struct Versions {
    pub kept: Vec<KeptVersion>,
    /// `comparisons[i]` goes from `kept[i]` to `kept[i + 1]`, the last to the current CSV.
    pub comparisons: Vec<Comparison>,
    /// What the current CSV is called in the comparisons: its `version`, else "current".
    pub current: String,
}

/// One kept version of the CSV, published unchanged at `layout::urls::version_file`.
#[derive(Debug, Clone)]
pub struct KeptVersion {
    pub version: String,
    /// `YYYY-MM-DD`, the change entry's date.
    pub date: String,
    /// On disk, links resolved (inside the site's `data/` folder).
    pub path: PathBuf,
    /// As the author wrote it.
    pub display: PathBuf,
    pub bytes: u64,
    pub sha256: Sha256,
}

/// What changed between two versions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Compared by `primary_key` (else as multisets of whole rows, counts only).
    pub keyed: bool,
    pub added: u64,
    pub removed: u64,
    pub changed: u64,
    /// Each column with changed cells and how many, in the newer header's order.
    pub changed_columns: Vec<(String, u64)>,
    pub columns_added: Vec<String>,
    pub columns_removed: Vec<String>,
    /// The keys of the first rows added, removed (file order), at most [`EXAMPLES`].
    pub first_added: Vec<String>,
    pub first_removed: Vec<String>,
    pub first_changed: Vec<ChangedRow>,
}

/// A changed row: its key and each changed column with the value before and after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangedRow {
    pub key: String,
    pub columns: Vec<(String, String, String)>,
}

/// Whether `version` can name a kept file: a path segment of letters, digits, `.`, `-`
/// and `_`, starting with a letter or digit (so never `.` or `..`), at most 64 bytes.
pub fn segment_problem(version: &str) -> Option<&'static str> {
    let starts_well = version
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphanumeric());
    if !starts_well {
        return Some("it must start with a letter or digit");
    }
    if version.len() > VERSION_MAX {
        return Some("it is longer than 64 characters");
    }
    let allowed = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_');
    if !version.bytes().all(allowed) {
        return Some("it may hold only letters, digits, `.`, `-` and `_`");
    }
    None
}

/// What the load knows when it reaches the versions.
pub(super) struct Inputs<'a> {
    pub root: &'a Path,
    pub front: &'a DatasetFrontMatter,
    pub locator: &'a Locator<'a>,
    pub csv_path: &'a Path,
    /// The current CSV as the author knows it (relative to the site root).
    pub csv_display: &'a Path,
    pub dialect: crate::content::dialect::CsvDialect,
    pub chunk_rows: usize,
}

/// The kept versions, checked, measured and compared; `None` when there are none or a
/// problem stopped them (it is in `problems`).
pub(super) fn collect(inputs: &Inputs, problems: &mut Vec<Diagnostic>) -> Option<Versions> {
    let front = inputs.front;
    let locator = inputs.locator;
    let mut kept: Vec<(usize, KeptVersion)> = Vec::new();
    let before = problems.len();
    for (n, change) in front.changes.iter().enumerate() {
        let Some(file) = &change.file else { continue };
        let at_file = locator.value(&format!("changes[{n}].file"));
        let Some(version) = &change.version else {
            problems.push(
                locator
                    .error("a kept `file` needs the `version` it was", at_file)
                    .with_hint(
                        "add `version = \"…\"` to this [[changes]] entry: it names the file's URL",
                    ),
            );
            continue;
        };
        let at_version = locator.value(&format!("changes[{n}].version"));
        if let Some(why) = segment_problem(version) {
            problems.push(
                locator
                    .error(format!("version `{version}` cannot name a kept file: {why}"), at_version)
                    .with_hint("write the version with letters, digits, `.`, `-` and `_`, e.g. \"2024.1\" or \"1.2.0\""),
            );
            continue;
        }
        if front.version.as_deref() == Some(version.as_str()) {
            problems.push(
                locator
                    .error(format!("version `{version}` is the current data's `version`"), at_version)
                    .with_hint("a kept file is an earlier version: give it its own version, or remove `file` (the current CSV is the newest version)"),
            );
            continue;
        }
        // `vA.csv` and `va.csv` are one file where names ignore case (macOS, Windows).
        let taken = kept.iter().map(|(_, k)| &k.version);
        if let Some(other) = taken.into_iter().find(|k| k.eq_ignore_ascii_case(version)) {
            let message = match other == version {
                true => format!("version `{version}` has a kept file twice"),
                false => format!(
                    "versions `{other}` and `{version}` differ only in case: their kept files \
                     would be one file on macOS and Windows"
                ),
            };
            problems.push(
                locator
                    .error(message, at_version)
                    .with_hint("each kept file needs its own version, differing in more than case"),
            );
            continue;
        }
        let display = PathBuf::from(file);
        let path = match confine::resolve_file_under(inputs.root, &display, layout::DATA) {
            Ok(path) => path,
            Err(refusal) => {
                problems.push(refused(&refusal, &display, locator, at_file));
                continue;
            }
        };
        let (bytes, sha256) = match measure(&path) {
            Ok(measured) => measured,
            Err(e) => {
                problems.push(locator.error(format!("cannot read {file}: {e}"), at_file));
                continue;
            }
        };
        kept.push((
            n,
            KeptVersion {
                version: version.clone(),
                date: content::date_string(&change.date),
                path,
                display,
                bytes,
                sha256,
            },
        ));
    }
    if kept.is_empty() || problems.len() > before {
        return None;
    }
    // Oldest first; entries of one date in the order the front matter gives them.
    kept.sort_by(|a, b| a.1.date.cmp(&b.1.date));
    let mut comparisons = Vec::with_capacity(kept.len());
    for (i, (n, version)) in kept.iter().enumerate() {
        let (newer_path, newer_entry) = match kept.get(i + 1) {
            Some((m, newer)) => (newer.path.as_path(), Some(*m)),
            None => (inputs.csv_path, None),
        };
        let compared = compare::compare(
            &version.path,
            newer_path,
            inputs.dialect,
            &front.primary_key,
            inputs.chunk_rows,
        );
        match compared {
            Ok(comparison) => comparisons.push(comparison),
            Err(problem) => {
                problems.push(comparison_problem(problem, *n, newer_entry, inputs));
                return None;
            }
        }
    }
    Some(Versions {
        kept: kept.into_iter().map(|(_, k)| k).collect(),
        comparisons,
        current: front.version.as_deref().unwrap_or("current").to_string(),
    })
}

/// The file's size and SHA-256, read once.
fn measure(path: &Path) -> std::io::Result<(u64, Sha256)> {
    use sha2::Digest as _;
    let mut file = std::fs::File::open(path)?;
    let mut hasher = sha2::Sha256::new();
    let mut buffer = vec![0u8; 64 * 1024];
    let mut bytes = 0u64;
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            return Ok((bytes, Sha256::finish(hasher)));
        }
        bytes += n as u64;
        hasher.update(&buffer[..n]);
    }
}

fn refused(refusal: &Refusal, display: &Path, locator: &Locator, at: Option<usize>) -> Diagnostic {
    let shown = display.display();
    let (message, hint) = match refusal {
        Refusal::Missing { .. } => (
            format!("the kept file {shown} does not exist"),
            "put the version's CSV there (under data/), or fix the `file` path (relative to the site root)".to_string(),
        ),
        Refusal::NotUnder(folder) => (
            format!("a kept `file` must be in the {folder}/ folder"),
            format!("{shown} is elsewhere; {}", refusal.hint()),
        ),
        Refusal::Hidden { .. } => (
            "a kept `file` names a hidden file or folder".to_string(),
            format!("{}; {}", refusal.message(display), refusal.hint()),
        ),
        other => (
            format!("a kept `file` cannot be read: {}", other.message(display)),
            other.hint().to_string(),
        ),
    };
    locator.error(message, at).with_hint(hint)
}

/// A comparison that failed, at the older version's `file` (the newer's when the problem
/// is in it; the current CSV's own duplicates are the scan's errors already).
fn comparison_problem(
    problem: compare::Problem,
    older: usize,
    newer: Option<usize>,
    inputs: &Inputs,
) -> Diagnostic {
    let locator = inputs.locator;
    let file_of = |n: usize| inputs.front.changes[n].file.clone().unwrap_or_default();
    let at = |n: usize| locator.value(&format!("changes[{n}].file"));
    match problem {
        compare::Problem::Io(e) => locator.error(
            format!(
                "cannot compare {} with the next version: {e}",
                file_of(older)
            ),
            at(older),
        ),
        compare::Problem::KeyColumnMissing {
            column,
            newer: is_newer,
        } => {
            // The current CSV's header is checked against `primary_key` by the scan.
            let n = if is_newer {
                newer.unwrap_or(older)
            } else {
                older
            };
            locator
                .error(
                    format!(
                        "the kept file {} has no column `{column}` of the primary key",
                        file_of(n)
                    ),
                    at(n),
                )
                .with_hint(
                    "rows are compared by `primary_key`: every kept version needs its columns",
                )
        }
        compare::Problem::DuplicateKey {
            newer: is_newer,
            lines,
            key,
        } => {
            let (what, at) = match (is_newer, newer) {
                (false, _) => (format!("the kept file {}", file_of(older)), at(older)),
                (true, Some(n)) => (format!("the kept file {}", file_of(n)), at(n)),
                // The current CSV: its duplicates matter only to the comparison.
                (true, None) => (
                    format!("the data file {}", inputs.csv_display.display()),
                    locator.key("primary_key"),
                ),
            };
            locator
                .error(
                    format!(
                        "{what} has two rows with the primary key `{key}` (lines {} and {})",
                        lines.0, lines.1
                    ),
                    at,
                )
                .with_hint("kept versions are compared by `primary_key`, which must be unique in every version: fix the file, or remove the kept `file`")
        }
    }
}
