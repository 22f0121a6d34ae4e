//! What a full build keeps of a dataset once its own files are written: the small part that
//! listings, the feed, the sitemap, the catalogs and other datasets' pages read (in the
//! build's temporary file as its record, `site::datasets`, with its listing in memory).

use std::sync::{Arc, OnceLock};

use thin_vec::ThinVec;

use crate::content::Body;

use super::figures::FigureHtml;
use super::Dataset;

/// The size and SHA-256 of one metadata file of a dataset, as written (the DCAT catalog
/// states them; kept so the catalog need not render the file again).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileDigest {
    /// The output path, site-relative (`datasets/<slug>.json`).
    pub path: String,
    pub bytes: u64,
    /// Lowercase hex.
    pub sha256: String,
}

/// A [`FileDigest`] as a slim copy keeps it: for one of the dataset's own metadata files
/// (its path follows from the slug) with a SHA-256 of 64 lowercase hex digits, which is
/// every digest a build records, 48 bytes (its kind, size and the hash's 32 bytes) instead
/// of the path, the 64 characters and their allocations; anything else as given.
#[derive(Debug, Clone)]
pub(super) enum KeptDigest {
    Own {
        /// Index into [`OWN_PATHS`].
        kind: u8,
        bytes: u64,
        sha256: [u8; 32],
    },
    Other(Box<FileDigest>),
}

/// How the path of each of a dataset's own metadata files (the ones digests are kept
/// for) follows from its slug.
const OWN_PATHS: [fn(&str) -> String; 3] = {
    use crate::layout::urls;
    [urls::json_file, urls::csvw_file, urls::croissant_file]
};

/// Which of [`OWN_PATHS`] `path` is for the dataset `slug`, compared without building the
/// paths (every slim copy read back from a build's temporary file names three).
fn own_path_kind(path: &str, slug: &str) -> Option<usize> {
    static AROUND: OnceLock<Vec<(String, String)>> = OnceLock::new();
    let around = AROUND.get_or_init(|| {
        // What each path has before and after the slug (which holds no NUL).
        let around = |own: &fn(&str) -> String| {
            let path = own("\0");
            let (before, after) = path.split_once('\0').unwrap_or((&path, ""));
            (before.to_string(), after.to_string())
        };
        OWN_PATHS.iter().map(around).collect()
    });
    around.iter().position(|(before, after)| {
        path.strip_prefix(before.as_str())
            .and_then(|rest| rest.strip_prefix(slug))
            .is_some_and(|rest| rest == after)
    })
}

impl KeptDigest {
    /// `digest`, of a file of the dataset `slug`.
    pub(super) fn new(digest: FileDigest, slug: &str) -> KeptDigest {
        let kind = own_path_kind(&digest.path, slug);
        match (kind, from_hex(&digest.sha256)) {
            (Some(kind), Some(sha256)) => KeptDigest::Own {
                kind: kind as u8,
                bytes: digest.bytes,
                sha256,
            },
            _ => KeptDigest::Other(Box::new(digest)),
        }
    }

    /// The file's path, site-relative.
    fn path(&self, slug: &str) -> String {
        match self {
            KeptDigest::Own { kind, .. } => OWN_PATHS[usize::from(*kind)](slug),
            KeptDigest::Other(digest) => digest.path.clone(),
        }
    }

    pub(super) fn digest(&self, slug: &str) -> FileDigest {
        match self {
            KeptDigest::Own { bytes, sha256, .. } => FileDigest {
                path: self.path(slug),
                bytes: *bytes,
                sha256: super::scan::hex(sha256),
            },
            KeptDigest::Other(digest) => FileDigest::clone(digest),
        }
    }
}

/// The 32 bytes that 64 lowercase hex digits spell, so that [`super::scan::hex`] gives the
/// same text back.
pub(crate) fn from_hex(text: &str) -> Option<[u8; 32]> {
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    let text = text.as_bytes();
    if text.len() != 64 {
        return None;
    }
    let mut bytes = [0u8; 32];
    for (byte, pair) in bytes.iter_mut().zip(text.chunks_exact(2)) {
        *byte = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    Some(bytes)
}

impl Dataset {
    /// This dataset without what only its own page and files need (prose, column specs,
    /// sources, profiles, chart points, quoted figures, the license's text), with the digests
    /// of its metadata files as written. What stays: slug, the Markdown and CSV paths,
    /// titles, dates, tags, themes, license name and URL, [`Dataset::description`] (in place
    /// of the body), the column count (in place of the header), chart ids (checked across
    /// datasets), the `related` entries and prose links with their places, the quoted
    /// datasets, the delimiter, and the CSV's rows, size and SHA-256. Every kept string and
    /// list is shrunk to its length: without a temporary file to keep them in
    /// (`site::Held`), thousands of these stay until the build ends.
    pub fn slim(mut self, digests: Vec<FileDigest>) -> Dataset {
        self.slim_description = Some(self.description().into_boxed_str());
        // A CSV of more than 4 billion columns cannot be read; saturate all the same.
        self.slim_columns = u32::try_from(self.column_count()).unwrap_or(u32::MAX);
        self.slim_column_names = Some(self.column_names().into_boxed_str());
        self.body = shared_empty(&EMPTY_BODY);
        self.csv_display = Default::default();
        self.markdown_path.shrink_to_fit();
        self.csv_path.shrink_to_fit();
        self.slug.shrink_to_fit();
        // The titles are boxed: already exactly their length.
        let front = &mut self.front;
        front.description = None;
        front.data = None;
        front.missing_values = None;
        // Number marks are read with the columns, which a slim copy has not.
        front.decimal = None;
        front.group = None;
        shrink_all(&mut front.tags);
        shrink_all(&mut front.related);
        front.themes.shrink_to_fit();
        front.changes = ThinVec::new();
        front.primary_key = ThinVec::new();
        front.table_note = None;
        front.license = None;
        front.sources = ThinVec::new();
        front.columns = ThinVec::new();
        front.numbers_not_data = ThinVec::new();
        // Only the ids are read again (two charts must not write one file).
        for chart in &mut front.charts {
            *chart = crate::content::ChartSpec::id_only(chart.id(), chart.kind);
        }
        front.charts.shrink_to_fit();
        // The site's shared license is not copied for this: only a text of the dataset's own.
        if self.license.text.is_some() {
            Arc::make_mut(&mut self.license).text = None;
        }
        let csv = &mut self.csv;
        csv.header = ThinVec::new();
        csv.referenced_sources = Default::default();
        csv.date_precisions = ThinVec::new();
        csv.longest_cells = ThinVec::new();
        csv.charts = ThinVec::new();
        csv.profiles = ThinVec::new();
        self.figures = ThinVec::new();
        self.figure_html = shared_empty(&EMPTY_FIGURE_HTML);
        self.related_places.shrink_to_fit();
        self.dataset_links.shrink_to_fit();
        self.page_links.shrink_to_fit();
        self.metadata_digests = digests
            .into_iter()
            .map(|d| KeptDigest::new(d, &self.slug))
            .collect();
        self.dcat_parts = None;
        self.slimmed = true;
        self
    }

    /// [`Dataset::slim`] before any file is written: the page lists other datasets under
    /// `related` by title, known only once all are loaded. The build loads it again then
    /// and writes its files ([`Dataset::files_pending`]): holding thousands of whole
    /// datasets until then would make memory grow with the catalog.
    /// It keeps the CSV path its page names (part of its reuse key).
    pub fn slim_for_later(self) -> Dataset {
        let csv_display = self.csv_display.clone();
        let mut slim = self.slim(Vec::new());
        slim.csv_display = csv_display;
        slim.files_pending = true;
        slim
    }

    /// Whether this slim copy's files are still to be written ([`Dataset::slim_for_later`]).
    pub fn files_pending(&self) -> bool {
        self.files_pending
    }

    /// Records the digests of the metadata files just written, so the DCAT catalog need
    /// not render them again (`serve` keeps whole datasets and rewrites DCAT on each edit).
    pub fn record_digests(&mut self, digests: Vec<FileDigest>) {
        self.metadata_digests = digests
            .into_iter()
            .map(|d| KeptDigest::new(d, &self.slug))
            .collect();
        // The catalog states the digests: its part is stale.
        self.dcat_parts = Some(Box::default());
    }

    /// Whether [`Dataset::slim`] dropped the parts its own page needs.
    pub fn is_slim(&self) -> bool {
        self.slimmed
    }

    /// The recorded digest of the metadata file at `path`, if the dataset was slimmed.
    pub fn metadata_digest(&self, path: &str) -> Option<FileDigest> {
        // Paths first: the SHA-256 is spelled out only for the digest asked for.
        self.metadata_digests
            .iter()
            .find(|d| d.path(&self.slug) == path)
            .map(|d| d.digest(&self.slug))
    }
}

static EMPTY_BODY: OnceLock<Arc<Body>> = OnceLock::new();
static EMPTY_FIGURE_HTML: OnceLock<Arc<FigureHtml>> = OnceLock::new();

/// The one empty value that every slim copy points to, rather than an allocation each.
pub(super) fn shared_empty<T: Default>(cell: &OnceLock<Arc<T>>) -> Arc<T> {
    Arc::clone(cell.get_or_init(Default::default))
}

/// The empty body and figure markup of slim copies (also those read from records).
pub(super) fn empty_page_parts() -> (Arc<Body>, Arc<FigureHtml>) {
    (shared_empty(&EMPTY_BODY), shared_empty(&EMPTY_FIGURE_HTML))
}

/// `list` and each of its strings without spare capacity.
fn shrink_all(list: &mut ThinVec<String>) {
    list.shrink_to_fit();
    for text in list {
        text.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kind found without building paths is the one the paths give.
    #[test]
    fn own_paths_are_recognised_as_building_them_would() {
        let slugs = ["a", "ab", "set-00001", "b"];
        let mut paths: Vec<String> = Vec::new();
        for slug in slugs {
            paths.extend(OWN_PATHS.iter().map(|own| own(slug)));
        }
        paths.extend(
            ["x", "", "data/datasets/.json", "data/datasets/a.json.json"].map(String::from),
        );
        for slug in slugs {
            for path in &paths {
                let built = OWN_PATHS.iter().position(|own| own(slug) == *path);
                assert_eq!(own_path_kind(path, slug), built, "{path} of {slug}");
            }
        }
        assert_eq!(own_path_kind(&OWN_PATHS[2]("ab"), "ab"), Some(2));
    }

    #[test]
    fn a_kept_digest_gives_back_exactly_the_digest_it_was_given() {
        let hex = super::super::scan::hex(&[0xab; 32]).replace("abab", "0f9e");
        for sha256 in [
            hex.clone(),
            hex.to_uppercase(),
            "not hex".to_string(),
            hex[2..].into(),
        ] {
            for path in [
                "data/datasets/a.croissant.json",
                "data/datasets/b.json",
                "x",
            ] {
                let digest = FileDigest {
                    path: path.into(),
                    bytes: 7,
                    sha256: sha256.clone(),
                };
                assert_eq!(KeptDigest::new(digest.clone(), "a").digest("a"), digest);
            }
        }
        let own = |path: &str, sha256: &str| {
            let digest = FileDigest {
                path: path.into(),
                bytes: 1,
                sha256: sha256.into(),
            };
            KeptDigest::new(digest, "a")
        };
        assert!(matches!(
            own("data/datasets/a.csv-metadata.json", &hex),
            KeptDigest::Own { kind: 1, .. }
        ));
        assert!(matches!(
            own("data/datasets/ab.json", &hex),
            KeptDigest::Other(_)
        ));
        assert!(matches!(
            own("data/datasets/a.json", "x"),
            KeptDigest::Other(_)
        ));
        assert_eq!(std::mem::size_of::<KeptDigest>(), 48);
        assert!(from_hex(&hex).is_some());
        assert!(from_hex(&hex.to_uppercase()).is_none());
    }
}
