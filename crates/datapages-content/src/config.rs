//! `site.toml`: the settings that apply to the whole site.

mod required;

pub use crate::content::base_url::BaseUrl;

use std::num::NonZeroUsize;
use std::path::Path;

use serde::Deserialize;

use crate::content::markdown::RawHtml;
use crate::content::validate::{self, Region};
use crate::content::{front_matter::parse_toml_with_spans, License, TableRows};
use crate::diagnostics::Diagnostic;

/// A person or organisation credited as author or publisher.
#[derive(Debug, Clone, Deserialize, PartialEq, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Party {
    pub name: String,
    pub url: Option<String>,
}

/// The parsed `site.toml`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SiteConfig {
    pub title: String,
    #[serde(default)]
    pub description: String,
    /// Where the site is published, for absolute URLs; pages link relatively regardless.
    pub base_url: BaseUrl,
    /// Where the big files (the CSV, its Parquet copy, the kept versions) are published
    /// instead of beside the pages: an absolute http(s) address (object storage, a CDN).
    /// `build` writes them into a second folder (`--data-output`) and every link, snippet
    /// and metadata URL names them there. None: they live beside the pages.
    pub data_url: Option<BaseUrl>,
    #[serde(default = "default_language")]
    pub language: String,
    #[serde(default = "default_table_rows")]
    pub table_rows: TableRows,
    /// The most columns a dataset's table shows (each dataset may say otherwise).
    #[serde(default = "default_table_columns")]
    pub table_columns: usize,
    /// Static pages for the rows past the table's cap (each dataset may say otherwise).
    #[serde(default)]
    pub row_pages: bool,
    /// A typed Parquet copy beside each CSV: `"auto"` (the default: above
    /// `parquet_min_bytes` of CSV), `true` or `false` (each dataset may say otherwise).
    #[serde(default)]
    pub parquet: crate::content::Switch,
    /// The smallest CSV that gets a Parquet copy under `parquet = "auto"`, in bytes.
    #[serde(default = "default_parquet_min_bytes")]
    pub parquet_min_bytes: u64,
    /// The fewest values a number column needs for the histogram of its profile on the
    /// dataset page (0: every number column has one). Fewer values fall into bins of one or
    /// two rows: a shape the data does not have, at about 800 bytes a column.
    #[serde(default = "default_histogram_min_values")]
    pub histogram_min_values: u64,
    /// The RIS and CFF citations also as files beside the CSV (`<slug>.ris`,
    /// `<slug>.cff`); without them the page offers both texts and their downloads itself
    /// (each dataset may say otherwise).
    #[serde(default)]
    pub citation_files: bool,
    /// The syntaxes the DCAT catalog is written in: `["turtle"]` by default, `"jsonld"`
    /// on request, in the order given (at least one).
    #[serde(default = "default_dcat")]
    pub dcat: Vec<DcatSyntax>,
    /// The in-page explorer of every row on dataset pages (each dataset may say otherwise).
    #[serde(default = "default_explore")]
    pub explore: bool,
    pub author: Party,
    pub publisher: Option<Party>,
    /// Used by datasets that declare no license of their own, which all point to this one
    /// value.
    pub license: Option<std::sync::Arc<License>>,
    #[serde(default)]
    pub markdown: MarkdownSettings,
    /// Cell texts that mean "no value" in the datasets that declare no list of their own.
    pub missing_values: Option<Vec<String>>,
    /// Datasets per page of All datasets and of each tag page.
    #[serde(default = "default_paginate_by")]
    pub paginate_by: NonZeroUsize,
    /// The most recently updated datasets the home page shows.
    #[serde(default = "default_home_datasets")]
    pub home_datasets: usize,
    /// The most row pages one dataset may write (each is a file); more is an error.
    #[serde(default = "default_max_row_pages")]
    pub max_row_pages: u64,
    /// The plain pages the site navigation links, by name (`about` for content/about.md),
    /// in this order; without it, the first [`NAV_DEFAULT_PAGES`] by name. Every page
    /// carries the navigation, so it is bounded: never all of 10,000 pages on each.
    pub nav: Option<Vec<String>>,
    /// Where each `nav` entry is written, for the check that it names a page.
    #[serde(skip)]
    pub nav_places: Vec<Option<crate::content::spans::Place>>,
    /// Keeps every big file beside the pages whatever `data_url` (the site's or a
    /// dataset's) says: `serve`, and `build --data-beside`.
    #[serde(skip)]
    pub data_beside: bool,
    /// Entries of `feed.xml`, newest first.
    #[serde(default = "default_feed_entries")]
    pub feed_entries: usize,
    /// The largest CSV the dataset pages' explorer loads; past it they offer the download.
    /// Hidden: lowered only by tests.
    #[serde(default = "default_explore_max_bytes", rename = "_explore_max_bytes")]
    pub explore_max_bytes: u64,
    /// Rows of a version comparison sorted in memory before they go to disk as a sorted
    /// run (`dataset::versions`). Hidden: lowered only by tests.
    #[serde(
        default = "default_versions_chunk_rows",
        rename = "_versions_chunk_rows"
    )]
    pub versions_chunk_rows: NonZeroUsize,
    /// URLs per sitemap file (the protocol's limit); past it `sitemap.xml` becomes an index.
    /// Hidden: lowered only by tests.
    #[serde(default = "default_sitemap_urls", rename = "_sitemap_urls")]
    pub sitemap_urls: NonZeroUsize,
    /// Datasets per DCAT catalog file; past it the catalog is paged. Hidden: lowered only
    /// by tests.
    #[serde(default = "default_dcat_page_datasets", rename = "_dcat_page_datasets")]
    pub dcat_page_datasets: NonZeroUsize,
}

/// `[markdown]`: how the prose of every page is rendered.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MarkdownSettings {
    /// `"keep"` (the default) passes HTML written in Markdown through; `"escape"` shows it
    /// as text.
    #[serde(default)]
    pub raw_html: RawHtml,
}

/// One syntax of the DCAT catalog, as site.toml's `dcat` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum DcatSyntax {
    /// `data/catalog.ttl`.
    #[serde(rename = "turtle")]
    Turtle,
    /// `data/catalog.jsonld`.
    #[serde(rename = "jsonld")]
    JsonLd,
}

impl DcatSyntax {
    /// The extension of its files.
    pub fn extension(self) -> &'static str {
        match self {
            DcatSyntax::Turtle => "ttl",
            DcatSyntax::JsonLd => "jsonld",
        }
    }
}

/// Turtle only: what the DCAT harvesters read (CKAN's ckanext-dcat, piveau), at less
/// than half the bytes of the JSON-LD.
fn default_dcat() -> Vec<DcatSyntax> {
    vec![DcatSyntax::Turtle]
}

/// The plain pages the navigation links when site.toml has no `nav`.
pub const NAV_DEFAULT_PAGES: usize = 8;

/// 100 kB: measured on the benchmark tables (numbers, dates, text), the Parquet copy is
/// 94 % of a 14.6 kB CSV (its schema, statistics and column descriptions cost a few kB
/// whatever the rows), 69 % of 73 kB, 58 % of 731 kB and 47 % of 73 MB; on the bundled
/// examples (1-6 kB) it is 1.5-8 times the CSV. From 100 kB it saves about a third of
/// the download, and types every column.
fn default_histogram_min_values() -> u64 {
    HISTOGRAM_MIN_VALUES
}

/// site.toml's `histogram_min_values` unless it says otherwise.
pub const HISTOGRAM_MIN_VALUES: u64 = 50;

fn default_parquet_min_bytes() -> u64 {
    100_000
}

/// The largest CSV the explorer of every row loads (128 MiB): its worker keeps the file's
/// bytes (for a byte-exact download of the chosen rows) and about 8 bytes per cell of the
/// table's columns, so a larger file would need more memory than a phone can give a page.
/// Past it the page says so and offers the download.
pub const EXPLORE_MAX_BYTES: u64 = 128 * 1024 * 1024;

fn default_explore_max_bytes() -> u64 {
    EXPLORE_MAX_BYTES
}

/// Rows of a version comparison sorted in memory at once (32 bytes each: 8 MiB per
/// version); a longer version goes to disk as sorted runs and is merged back, which
/// measured no slower than sorting 1,000,000 rows in memory (BENCHMARKS.md).
pub const VERSIONS_CHUNK_ROWS: usize = 1 << 18;

fn default_versions_chunk_rows() -> NonZeroUsize {
    NonZeroUsize::new(VERSIONS_CHUNK_ROWS).unwrap_or(NonZeroUsize::MIN)
}

fn default_explore() -> bool {
    true
}

fn default_max_row_pages() -> u64 {
    10_000
}

fn default_language() -> String {
    "en".to_string()
}

fn default_paginate_by() -> NonZeroUsize {
    NonZeroUsize::new(100).unwrap_or(NonZeroUsize::MIN)
}

fn default_home_datasets() -> usize {
    20
}

fn default_feed_entries() -> usize {
    50
}

fn default_sitemap_urls() -> NonZeroUsize {
    NonZeroUsize::new(50_000).unwrap_or(NonZeroUsize::MIN)
}

/// One catalog file stays under about 8 MB per syntax, which a harvester fetches and parses
/// in one go (ckanext-dcat's own endpoint pages at 100).
fn default_dcat_page_datasets() -> NonZeroUsize {
    NonZeroUsize::new(1_000).unwrap_or(NonZeroUsize::MIN)
}

/// Fifty columns: wider than any table a reader scans across on a page (the widest bundled
/// table has far fewer), yet a 10,000-column CSV's page stays near 1 MB.
pub const DEFAULT_TABLE_COLUMNS: usize = 50;

fn default_table_columns() -> usize {
    DEFAULT_TABLE_COLUMNS
}

fn default_table_rows() -> TableRows {
    TableRows::DEFAULT
}

/// The problems of a `dcat` list serde read (its values are known syntaxes): empty, or a
/// syntax named twice.
fn dcat_problems(dcat: &[DcatSyntax], locator: &crate::content::spans::Locator) -> Vec<Diagnostic> {
    const HINT: &str =
        r#"write `dcat = ["turtle"]` (the default) or `dcat = ["turtle", "jsonld"]`"#;
    if dcat.is_empty() {
        let d = locator.error("`dcat` lists no syntax", locator.value("dcat"));
        return vec![d.with_hint(HINT)];
    }
    (1..dcat.len())
        .filter(|&n| dcat[..n].contains(&dcat[n]))
        .map(|n| {
            let at = locator.value(&format!("dcat[{n}]"));
            let d = locator.error("`dcat` names this syntax twice", at);
            d.with_hint("name each syntax once")
        })
        .collect()
}

impl SiteConfig {
    /// Reads `<root>/site.toml`, with every problem found in it.
    pub fn load(root: &Path) -> Result<SiteConfig, Vec<Diagnostic>> {
        let path = root.join("site.toml");
        let display = Path::new("site.toml");
        let text = std::fs::read_to_string(&path).map_err(|e| {
            vec![
                Diagnostic::error(display, format!("cannot read site.toml: {e}"))
                    .with_hint("run datapages in the site folder, or pass --root DIR"),
            ]
        })?;
        // TOML refuses most of these characters too, in words about TOML; say what they are.
        let characters =
            validate::forbidden_characters(display, &text, 0..text.len(), Region::SiteToml);
        if !characters.is_empty() {
            return Err(characters);
        }
        let parsed = parse_toml_with_spans::<SiteConfig>(display, &text, &text, 0);
        let (mut config, spans) = parsed.map_err(|d| {
            // serde stops at the first missing key; name them all, with their shapes.
            let mut all = required::problems(display, &text);
            // The same problem said better (a string `author`) replaces serde's words.
            let said =
                |r: &Diagnostic| r.message == d.message || (r.line.is_some() && r.line == d.line);
            if !all.iter().any(said) {
                all.insert(0, d);
            }
            all
        })?;
        let locator = crate::content::spans::Locator {
            file: display,
            text: &text,
            spans,
        };
        let mut problems = validate::site_settings_located(&locator);
        problems.extend(dcat_problems(&config.dcat, &locator));
        crate::content::dialect::check_missing_values(
            config.missing_values.as_deref(),
            "missing_values",
            &locator,
            &mut problems,
        );
        if !problems.is_empty() {
            return Err(problems);
        }
        config.nav_places = (0..config.nav.as_ref().map_or(0, Vec::len))
            .map(|n| locator.place_of_value(&format!("nav[{n}]")))
            .collect();
        Ok(config)
    }

    /// The publisher, defaulting to the author.
    pub fn publisher(&self) -> &Party {
        self.publisher.as_ref().unwrap_or(&self.author)
    }

    /// An absolute URL for a path relative to the site root.
    pub fn absolute_url(&self, path: &str) -> String {
        self.base_url.join(path)
    }

    /// Where the big files of a dataset whose own `data_url` is `own` are published: there,
    /// else under the site's `data_url`, else beside the pages (always, for `serve`).
    pub fn data_place<'a>(&'a self, own: Option<&'a BaseUrl>) -> DataPlace<'a> {
        let data_url = match self.data_beside {
            true => None,
            false => own.or(self.data_url.as_ref()),
        };
        DataPlace {
            data_url,
            base_url: &self.base_url,
        }
    }
}

/// Where a dataset's big files (those an output publishes elsewhere,
/// `DatasetOutput::elsewhere`) are published: under a `data_url`, or beside the pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataPlace<'a> {
    /// The `data_url` that applies, ending with `/`; none: beside the pages.
    pub data_url: Option<&'a BaseUrl>,
    base_url: &'a BaseUrl,
}

impl<'a> DataPlace<'a> {
    /// Whether the big files go elsewhere than beside the pages.
    pub fn elsewhere(&self) -> bool {
        self.data_url.is_some()
    }

    /// Where pages link a big file, before its site-relative path: the `data_url`, else
    /// `root`, the page's way back to the site root.
    pub fn root<'r>(&self, root: &'r str) -> &'r str
    where
        'a: 'r,
    {
        self.data_url.map_or(root, BaseUrl::as_str)
    }

    /// How a page shows where a big file is: its URL under `data_url`, else `/<path>`.
    pub fn file_shown(&self, path: &str) -> String {
        match self.data_url {
            Some(_) => self.file_url(path),
            None => format!("/{path}"),
        }
    }

    /// The absolute URL of a file beside the pages at site-relative `path`.
    pub fn site_url(&self, path: &str) -> String {
        self.base_url.join(path)
    }

    /// The absolute URL of a big file at site-relative `path`: under `data_url` when set,
    /// else under `base_url`.
    pub fn file_url(&self, path: &str) -> String {
        self.data_url.unwrap_or(self.base_url).join(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_and_defaults() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("site.toml"),
            "title = \"T\"\nbase_url = \"https://example.org/sub\"\n[author]\nname = \"A\"\n",
        )
        .unwrap();
        let config = SiteConfig::load(dir.path()).unwrap();
        assert_eq!(config.base_url.as_str(), "https://example.org/sub/");
        assert_eq!(config.language, "en");
        assert_eq!(config.table_rows, TableRows::DEFAULT);
        assert_eq!(config.publisher().name, "A");
        assert_eq!(
            config.absolute_url("/datasets/x/"),
            "https://example.org/sub/datasets/x/"
        );
    }

    #[test]
    fn unknown_keys_are_located() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("site.toml"),
            "title = \"T\"\nbase_ur = \"x\"\n[author]\nname = \"A\"\n",
        )
        .unwrap();
        let err = &SiteConfig::load(dir.path()).unwrap_err()[0];
        assert_eq!(err.line, Some(2));
        assert_eq!(err.hint.as_deref(), Some("did you mean `base_url`?"));
    }

    #[test]
    fn hostile_values_are_refused_with_their_place() {
        let dir = tempfile::tempdir().unwrap();
        let write = |text: &str| std::fs::write(dir.path().join("site.toml"), text).unwrap();
        write(
            "title = \"T\\u001b[2J\"\nbase_url = \"javascript:alert(1)\"\n[author]\nname = \"A\"\n",
        );
        let errors = SiteConfig::load(dir.path()).unwrap_err();
        let places: Vec<(Option<u32>, Option<u32>)> =
            errors.iter().map(|d| (d.line, d.column)).collect();
        assert_eq!(
            places,
            [(Some(1), Some(11)), (Some(2), Some(12))],
            "{errors:?}"
        );
        write("title = \"T\u{0}\"\nbase_url = \"https://x.org/\"\n[author]\nname = \"A\"\n");
        let errors = SiteConfig::load(dir.path()).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!((errors[0].line, errors[0].column), (Some(1), Some(11)));
        assert!(errors[0].message.contains("U+0000 (NUL)"), "{errors:?}");
        write("title = \"T\"\nbase_url = \"https://x.org/\"\n[author]\nname = \"A\"\n[markdown]\nraw_html = \"escape\"\n");
        let config = SiteConfig::load(dir.path()).unwrap();
        assert_eq!(config.markdown.raw_html, RawHtml::Escape);
    }

    #[test]
    fn a_dataset_s_data_url_wins_over_the_site_s_unless_files_stay_beside() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("site.toml"),
            "title = \"T\"\nbase_url = \"https://x.org/\"\ndata_url = \"https://d.org\"\n[author]\nname = \"A\"\n",
        )
        .unwrap();
        let mut config = SiteConfig::load(dir.path()).unwrap();
        let csv = "data/datasets/a.csv";
        let site = config.data_place(None);
        assert_eq!(site.file_url(csv), "https://d.org/data/datasets/a.csv");
        assert_eq!(site.root("../../"), "https://d.org/");
        let own_url = BaseUrl::from("https://own.org/a".to_string());
        let own = config.data_place(Some(&own_url));
        assert_eq!(own.file_url(csv), "https://own.org/a/data/datasets/a.csv");
        assert_eq!(own.file_shown(csv), "https://own.org/a/data/datasets/a.csv");
        assert_eq!(own.site_url(csv), "https://x.org/data/datasets/a.csv");
        config.data_beside = true;
        let beside = config.data_place(Some(&own_url));
        assert!(!beside.elsewhere());
        assert_eq!(beside.root("../../"), "../../");
        assert_eq!(beside.file_url(csv), "https://x.org/data/datasets/a.csv");
        assert_eq!(beside.file_shown(csv), "/data/datasets/a.csv");
    }
}
