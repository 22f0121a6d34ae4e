//! The output against the documented limits of free static hosts (GitHub Pages, Cloudflare
//! Pages, GitLab Pages; Netlify documents none of these): an output folder measured (files,
//! bytes, its largest files), and a warning for each limit it breaks, naming the files. The
//! table with its sources is in docs/publishing.md.

use std::io;
use std::path::{Path, PathBuf};

use crate::diagnostics::Diagnostic;
use crate::site::outputs::{DatasetOutput, Registry};

/// What a host limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// The bytes of the whole published site.
    SiteBytes,
    /// The files of the site.
    Files,
    /// The bytes of any one file.
    FileBytes,
}

/// One documented limit of one host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostLimit {
    pub host: &'static str,
    pub measure: Measure,
    pub most: u64,
    /// The limit as the host's documentation words it.
    pub stated: &'static str,
}

const MIB: u64 = 1024 * 1024;

/// The limits `check` compares the output with (docs/publishing.md gives their sources).
pub const LIMITS: &[HostLimit] = &[
    HostLimit {
        host: "GitHub Pages",
        measure: Measure::SiteBytes,
        most: 1_000_000_000,
        stated: "1 GB per site",
    },
    HostLimit {
        host: "GitHub Pages",
        measure: Measure::FileBytes,
        most: 100 * MIB,
        stated: "100 MiB per file",
    },
    HostLimit {
        host: "Cloudflare Pages",
        measure: Measure::Files,
        most: 20_000,
        stated: "20,000 files per site on the free plan",
    },
    HostLimit {
        host: "Cloudflare Pages",
        measure: Measure::FileBytes,
        most: 25 * MIB,
        stated: "25 MiB per file",
    },
    HostLimit {
        host: "GitLab Pages",
        measure: Measure::SiteBytes,
        most: 1_000_000_000,
        stated: "1 GB per site on GitLab.com",
    },
    HostLimit {
        host: "GitLab Pages",
        measure: Measure::Files,
        most: 200_000,
        stated: "200,000 files per site on GitLab.com",
    },
];

/// The smallest per-file limit: files above it are kept by name while measuring.
pub fn smallest_file_limit() -> u64 {
    LIMITS
        .iter()
        .filter(|l| l.measure == Measure::FileBytes)
        .map(|l| l.most)
        .min()
        .unwrap_or(u64::MAX)
}

/// How many of the largest files a report names.
const LARGEST_NAMED: usize = 3;

/// An output folder, measured.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OutputSize {
    pub files: u64,
    pub bytes: u64,
    /// The largest files (path relative to the folder, with `/`; size), largest first.
    pub largest: Vec<(String, u64)>,
    /// Every file over the smallest per-file limit, largest first.
    pub over: Vec<(String, u64)>,
}

/// How many files are under `dir`, read from its folders alone (no file's metadata), the
/// folders listed in parallel: an output of 10,000 datasets has 10,000 of them, and this
/// count is most of what a build that finds its output up to date does at the end.
pub fn file_count(dir: &Path) -> io::Result<u64> {
    use rayon::prelude::*;
    let mut folders = Vec::new();
    let mut files = 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        match entry.file_type()?.is_dir() {
            true => folders.push(entry.path()),
            false => files += 1,
        }
    }
    let below: u64 = folders
        .par_iter()
        .map(|f| file_count(f))
        .sum::<io::Result<u64>>()?;
    Ok(files + below)
}

/// Measures every file under `dir` (symbolic links not followed: the output has none).
pub fn measure(dir: &Path) -> io::Result<OutputSize> {
    let mut size = OutputSize::default();
    let limit = smallest_file_limit();
    let mut stack = vec![PathBuf::new()];
    while let Some(relative) = stack.pop() {
        for entry in std::fs::read_dir(dir.join(&relative))? {
            let entry = entry?;
            let kind = entry.file_type()?;
            let name = relative.join(entry.file_name());
            if kind.is_dir() {
                stack.push(name);
                continue;
            }
            let bytes = entry.metadata()?.len();
            size.files += 1;
            size.bytes += bytes;
            let shown = || name.to_string_lossy().replace('\\', "/");
            if bytes > limit {
                size.over.push((shown(), bytes));
            }
            let smallest = size.largest.last().map_or(0, |l| l.1);
            if size.largest.len() < LARGEST_NAMED || bytes > smallest {
                size.largest.push((shown(), bytes));
                size.largest
                    .sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
                size.largest.truncate(LARGEST_NAMED);
            }
        }
    }
    size.over
        .sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(size)
}

impl OutputSize {
    /// "18,351 files, 1.03 GB; largest data/datasets/x.csv (60.1 MB)".
    pub fn summary(&self) -> String {
        let mut line = format!(
            "{} files, {}",
            crate::dataset::schema::thousands(self.files),
            crate::metadata::human_size(self.bytes)
        );
        if let Some((name, bytes)) = self.largest.first() {
            line.push_str(&format!(
                "; largest {name} ({})",
                crate::metadata::human_size(*bytes)
            ));
        }
        line
    }

    /// The limits this output breaks, each with the files over it (none for the limits
    /// of the whole site).
    pub fn broken(&self) -> Vec<(&'static HostLimit, Vec<&(String, u64)>)> {
        LIMITS
            .iter()
            .filter_map(|limit| match limit.measure {
                Measure::SiteBytes => (self.bytes > limit.most).then(|| (limit, Vec::new())),
                Measure::Files => (self.files > limit.most).then(|| (limit, Vec::new())),
                Measure::FileBytes => {
                    let over: Vec<_> = self.over.iter().filter(|f| f.1 > limit.most).collect();
                    (!over.is_empty()).then_some((limit, over))
                }
            })
            .collect()
    }
}

/// The warnings of an output folder (`shown` as the reader knows it, `public`) against the
/// hosts' limits: one per file over a per-file limit (naming every limit it breaks),
/// located by `locate` (the source the file comes from and the slug of its dataset, or
/// `None` for the output path), and one per limit of the whole site, located at
/// site.toml. The hints name the settings of `outputs` that turn a file off.
pub fn warnings(
    size: &OutputSize,
    shown: &Path,
    outputs: &Registry,
    locate: &dyn Fn(&str) -> Option<(PathBuf, String)>,
) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    for (name, bytes) in &size.over {
        let broken: Vec<String> = LIMITS
            .iter()
            .filter(|l| l.measure == Measure::FileBytes && *bytes > l.most)
            .map(|l| format!("{}' {}", l.host, l.stated))
            .collect();
        let (file, slug) = locate(name).unwrap_or_else(|| (shown.join(name), String::new()));
        let owner = outputs.iter().find(|output| output.owns(&slug, name));
        problems.push(
            Diagnostic::warning(
                file,
                format!(
                    "{}/{name} is {}: over {}",
                    shown.display(),
                    crate::metadata::human_size(*bytes),
                    broken.join(" and ")
                ),
            )
            .with_hint(file_hint(owner)),
        );
    }
    // The settings that turn off a copy of the table: one file less per dataset.
    let off: Vec<String> = (outputs.iter())
        .filter(|output| output.elsewhere())
        .filter_map(|output| Some(format!("`{} = false`", output.setting()?)))
        .collect();
    let turn_off = |why: &str, then: &str| match off.is_empty() {
        true => String::new(),
        false => format!("set {} in site.toml ({why}){then} ", off.join(" and ")),
    };
    for (limit, _) in size.broken() {
        let (what, hint) = match limit.measure {
            Measure::FileBytes => continue,
            Measure::SiteBytes => (
                format!("is {}", crate::metadata::human_size(size.bytes)),
                format!("{}leave out row pages (`row_pages = false`), or publish on a host without this limit; the largest files are named in the build's last line", turn_off("the CSV stays", ",")),
            ),
            Measure::Files => (
                format!("holds {} files", crate::dataset::schema::thousands(size.files)),
                format!("{}leave out row pages (`row_pages = false`), or publish on a host that allows more files (Cloudflare's paid plans, GitLab Pages, GitHub Pages)", turn_off("one file less per dataset", " and")),
            ),
        };
        problems.push(
            Diagnostic::warning(
                crate::layout::SITE_TOML,
                format!(
                    "the output {} {what}: over {}' {}",
                    shown.display(),
                    limit.host,
                    limit.stated
                ),
            )
            .with_hint(hint),
        );
    }
    problems
}

/// What to do about one file over a host's per-file limit, by the output that writes it:
/// turn the output off where a setting does, split a table (the CSV, a kept version).
fn file_hint(owner: Option<&dyn DatasetOutput>) -> String {
    match (owner.and_then(|output| output.setting()), owner) {
        (Some(setting), _) => format!("set `{setting} = false` in the dataset's front matter (the CSV stays the download), or publish on a host that allows larger files"),
        (None, Some(output)) if output.elsewhere() => "split the table into smaller datasets, or publish on a host that allows larger files (GitHub Pages: 100 MiB, GitLab Pages, Netlify)".into(),
        _ => "make the file smaller, or publish on a host that allows larger files".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::outputs::WriteContext;
    use std::sync::Arc;

    /// A copy of the table that a setting turns off, as a typed copy is.
    struct Copy;

    impl DatasetOutput for Copy {
        fn file_for(&self, slug: &str) -> Option<String> {
            Some(format!("data/datasets/{slug}.copy"))
        }
        fn elsewhere(&self) -> bool {
            true
        }
        fn setting(&self) -> Option<&'static str> {
            Some("copy")
        }
        fn media_type(&self) -> &'static str {
            "application/octet-stream"
        }
        fn write(&self, _: &WriteContext) -> Result<Vec<crate::dataset::FileDigest>, Diagnostic> {
            Ok(Vec::new())
        }
    }

    /// The built-in outputs, with [`Copy`] as the one copy of the table.
    fn outputs() -> Registry {
        Registry::new(crate::metadata::outputs::built_in(vec![Arc::new(Copy)]))
    }

    fn sized(files: u64, bytes: u64, over: &[(&str, u64)]) -> OutputSize {
        OutputSize {
            files,
            bytes,
            largest: Vec::new(),
            over: over.iter().map(|(n, b)| (n.to_string(), *b)).collect(),
        }
    }

    #[test]
    fn each_limit_breaks_just_past_its_number() {
        let hosts = |s: &OutputSize| -> Vec<String> {
            s.broken()
                .iter()
                .map(|(l, _)| format!("{} {}", l.host, l.stated))
                .collect()
        };
        assert!(hosts(&sized(20_000, 1_000_000_000, &[("a.csv", 25 * MIB)])).is_empty());
        assert_eq!(
            hosts(&sized(20_001, 1_000_000_001, &[("a.csv", 25 * MIB + 1)])),
            [
                "GitHub Pages 1 GB per site",
                "Cloudflare Pages 20,000 files per site on the free plan",
                "Cloudflare Pages 25 MiB per file",
                "GitLab Pages 1 GB per site on GitLab.com",
            ]
        );
        assert!(hosts(&sized(200_001, 1, &[("b.csv", 100 * MIB + 1)]))
            .contains(&"GitHub Pages 100 MiB per file".to_string()));
    }

    #[test]
    fn warnings_name_each_file_once_with_every_limit_it_breaks() {
        let size = sized(
            30_000,
            2_000_000_000,
            &[
                ("data/datasets/big.csv", 120 * MIB),
                ("data/datasets/big.copy", 30 * MIB),
                ("static/video.mp4", 30 * MIB),
            ],
        );
        let locate = |name: &str| {
            name.starts_with("data/datasets/big")
                .then(|| (PathBuf::from("content/datasets/big.md"), "big".to_string()))
        };
        let warnings = warnings(&size, Path::new("public"), &outputs(), &locate);
        let texts: Vec<String> = warnings.iter().map(|d| d.message.to_string()).collect();
        let hints: Vec<&str> = warnings
            .iter()
            .map(|d| d.hint.as_deref().unwrap_or(""))
            .collect();
        assert_eq!(texts.len(), 6, "{texts:#?}");
        assert!(texts[0].starts_with("public/data/datasets/big.csv is 125.8 MB: over GitHub Pages' 100 MiB per file and Cloudflare Pages' 25 MiB per file"), "{}", texts[0]);
        assert_eq!(warnings[0].file, PathBuf::from("content/datasets/big.md"));
        // Each file's hint is its output's: the CSV is split, the copy turned off by its
        // setting, a file of no output made smaller.
        assert!(hints[0].starts_with("split the table"), "{}", hints[0]);
        assert!(hints[1].starts_with("set `copy = false` in the dataset's front matter"));
        assert!(
            hints[2].starts_with("make the file smaller"),
            "{}",
            hints[2]
        );
        assert_eq!(warnings[2].file, PathBuf::from("public/static/video.mp4"));
        // The site's hints name the copy's setting in site.toml.
        assert!(
            hints[3].starts_with(
                "set `copy = false` in site.toml (the CSV stays), leave out row pages"
            ),
            "{}",
            hints[3]
        );
        assert!(hints[4].starts_with("set `copy = false` in site.toml (one file less per dataset) and leave out row pages"), "{}", hints[4]);
        // Without such an output the site's hints go straight to row pages.
        let plain = Registry::new(crate::metadata::outputs::built_in(Vec::new()));
        let bare = super::warnings(&size, Path::new("public"), &plain, &locate);
        assert!(bare[3]
            .hint
            .as_deref()
            .unwrap_or("")
            .starts_with("leave out row pages"));
        assert!(
            texts[3].contains("over GitHub Pages' 1 GB per site"),
            "{}",
            texts[3]
        );
        assert_eq!(warnings[3].file, PathBuf::from("site.toml"));
        assert!(texts
            .iter()
            .any(|t| t.contains("holds 30,000 files: over Cloudflare Pages' 20,000 files")));
    }

    #[test]
    fn a_folder_is_measured_with_its_largest_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        for (name, len) in [
            ("x.html", 10),
            ("a/y.csv", 300),
            ("a/b/z.json", 20),
            ("a/b/w", 5),
        ] {
            std::fs::write(dir.path().join(name), vec![b'x'; len]).unwrap();
        }
        let size = measure(dir.path()).unwrap();
        assert_eq!((size.files, size.bytes), (4, 335));
        let names: Vec<&str> = size.largest.iter().map(|l| l.0.as_str()).collect();
        assert_eq!(names, ["a/y.csv", "a/b/z.json", "x.html"]);
        assert!(size.over.is_empty());
        assert_eq!(size.summary(), "4 files, 335 B; largest a/y.csv (300 B)");
    }
}
