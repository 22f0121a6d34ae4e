//! A slim dataset ([`Dataset::slim`]) with its load problems, as a record that can be written
//! to disk and read back exactly: a rebuild whose Markdown and CSV did not change takes the
//! dataset from its record instead of loading it (parsing the front matter and prose,
//! scanning the CSV). The front matter's own deserializers check what authors write, so
//! the record spells each kept field out plainly rather than round-tripping those types.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::scan::CsvSummary;
use super::stamp::FileStamp;
use super::{Dataset, FileDigest, Loaded};
use crate::confine;
use crate::content::spans::Place;
use crate::content::{
    ChartKind, ChartSpec, Creator, DatasetFrontMatter, License, TableRows, Theme,
};
use crate::diagnostics::Diagnostic;
use crate::layout;

/// What a slim dataset holds, and the problems its load reported.
#[derive(Debug, Serialize, Deserialize)]
pub struct SlimRecord {
    slug: String,
    markdown_path: PathBuf,
    csv_path: PathBuf,
    /// The CSV's path as the page names it (relative to the site): resolved again to see
    /// that it still leads to `csv_path`.
    pub csv_display: PathBuf,
    /// The CSV's stamp when it was scanned: the record stands only while it is unchanged.
    pub csv_stamp: FileStamp,
    title: Box<str>,
    kicker: Box<str>,
    headline: Box<str>,
    temporal_coverage: Option<Box<str>>,
    delimiter: Option<Box<str>>,
    tags: Vec<String>,
    /// `(iri, label)` of each theme.
    themes: Vec<(String, String)>,
    /// The DCAT catalog credits them (their serde is plain: no check to pass again).
    creators: Vec<Creator>,
    related: Vec<String>,
    /// TOML dates as written (their `Display`, which parses back to the same value).
    created: Option<String>,
    updated: Option<String>,
    version: Option<Box<str>>,
    /// The front matter's own `table_rows`: `None`, `Some(None)` for "all", a count.
    front_table_rows: Option<Option<u64>>,
    front_row_pages: Option<bool>,
    front_parquet: Option<bool>,
    #[serde(default)]
    front_explore: Option<bool>,
    front_table_columns: Option<std::num::NonZeroU32>,
    /// `(id, kind)` of each chart: a slim dataset keeps no more of them.
    charts: Vec<(String, String)>,
    draft: bool,
    csv: CsvSummary,
    license: License,
    /// `None` for "all".
    table_rows: Option<u64>,
    row_pages: bool,
    parquet: bool,
    related_places: Vec<Option<Place>>,
    quoted_datasets: BTreeSet<String>,
    dataset_links: Vec<(String, Place)>,
    page_links: Vec<(String, Place)>,
    /// `(path, bytes, sha256)` of each metadata file.
    metadata_digests: Vec<FileDigest>,
    description: String,
    columns: usize,
    typed_numbers: u32,
    /// [`Dataset::column_names`].
    #[serde(default)]
    column_names: String,
    problems: Vec<Diagnostic>,
}

fn rows_limit(rows: TableRows) -> Option<u64> {
    match rows {
        TableRows::Limit(n) => Some(n),
        TableRows::All => None,
    }
}

fn table_rows(limit: Option<u64>) -> TableRows {
    limit.map_or(TableRows::All, TableRows::Limit)
}

impl SlimRecord {
    /// The record of `dataset`, already slim, whose CSV is at `csv_display` and whose
    /// load reported `problems`. `None` for a dataset that is not slim, or whose CSV has no
    /// stamp (nothing would tell that it is unchanged).
    pub fn of(
        dataset: &Dataset,
        csv_display: PathBuf,
        problems: &[Diagnostic],
    ) -> Option<SlimRecord> {
        let csv_stamp = dataset.csv.stamp?;
        if !dataset.is_slim() {
            return None;
        }
        let front = &dataset.front;
        let charts = front.charts.iter();
        Some(SlimRecord {
            slug: dataset.slug.clone(),
            markdown_path: dataset.markdown_path.clone(),
            csv_path: dataset.csv_path.clone(),
            csv_display,
            csv_stamp,
            title: front.title.clone(),
            kicker: front.kicker.clone(),
            headline: front.headline.clone(),
            temporal_coverage: front.temporal_coverage.clone(),
            delimiter: front.delimiter.clone(),
            tags: front.tags.clone(),
            themes: front
                .themes
                .iter()
                .map(|t| (t.iri.clone(), t.label.clone()))
                .collect(),
            creators: front.creators.clone(),
            related: front.related.clone(),
            created: front.created.as_ref().map(ToString::to_string),
            updated: front.updated.as_ref().map(ToString::to_string),
            version: front.version.clone(),
            front_table_rows: front.table_rows.map(rows_limit),
            front_row_pages: front.row_pages,
            front_parquet: front.parquet,
            front_explore: front.explore,
            front_table_columns: front.table_columns,
            charts: charts
                .map(|c| (c.id(), c.kind.as_str().to_string()))
                .collect(),
            draft: front.draft,
            csv: dataset.csv.clone(),
            license: License::clone(&dataset.license),
            table_rows: rows_limit(dataset.table_rows),
            row_pages: dataset.row_pages,
            parquet: dataset.parquet,
            related_places: dataset.related_places.clone(),
            quoted_datasets: dataset.quoted_datasets.clone(),
            dataset_links: dataset.dataset_links.clone(),
            page_links: dataset.page_links.clone(),
            metadata_digests: dataset.metadata_digests.clone(),
            description: dataset.description(),
            columns: dataset.column_count(),
            typed_numbers: dataset.typed_numbers,
            column_names: dataset.column_names(),
            problems: problems.to_vec(),
        })
    }

    /// Whether the record still describes the dataset of `markdown_path` (relative to the
    /// site root, whose canonical path is `root_canonical`) as far as its CSV goes: its
    /// `data` path still leads, inside the site, to the file scanned, and that file's stamp
    /// has not moved. The Markdown's bytes are the caller's to compare (the reuse key).
    /// The dataset's title as recorded (pages that list it under `related` show it).
    pub fn title(&self) -> &str {
        &self.title
    }

    /// Whether the dataset lists others under `related` (its page shows their titles).
    pub fn has_related(&self) -> bool {
        !self.related.is_empty()
    }

    pub fn csv_unchanged(&self, root_canonical: &Path, markdown_path: &Path) -> bool {
        self.markdown_path == markdown_path
            && confine::resolve_file_under(root_canonical, &self.csv_display, layout::DATA)
                .is_ok_and(|real| real == self.csv_path)
            && FileStamp::of(&self.csv_path) == Some(self.csv_stamp)
    }

    /// The slim dataset and its problems, as [`super::load`] and [`Dataset::slim`] made
    /// them; `None` when a field does not read back (a damaged record). A license equal to
    /// `site_license` (the site's default) points to it, as a loaded dataset's does.
    pub fn into_loaded(self, site_license: Option<&Arc<License>>) -> Option<Loaded> {
        self.into_loaded_as(site_license, false)
    }

    /// [`SlimRecord::into_loaded`], as a slim copy whose files are still to be written
    /// ([`Dataset::slim_for_later`]) when `pending`: it keeps the CSV path its page names.
    pub fn into_loaded_as(
        self,
        site_license: Option<&Arc<License>>,
        pending: bool,
    ) -> Option<Loaded> {
        let csv_display = match pending {
            true => self.csv_display.clone(),
            false => PathBuf::new(),
        };
        let date = |text: Option<String>| match text {
            Some(text) => text.parse::<toml::value::Datetime>().ok().map(Some),
            None => Some(None),
        };
        let charts = self
            .charts
            .into_iter()
            .map(|(id, kind)| Some(ChartSpec::id_only(id, ChartKind::from_name(&kind)?)))
            .collect::<Option<Vec<_>>>()?;
        let front = DatasetFrontMatter {
            title: self.title,
            kicker: self.kicker,
            headline: self.headline,
            description: None,
            temporal_coverage: self.temporal_coverage,
            data: None,
            delimiter: self.delimiter,
            missing_values: None,
            decimal: None,
            group: None,
            tags: self.tags,
            themes: self
                .themes
                .into_iter()
                .map(|(iri, label)| Theme { iri, label })
                .collect(),
            related: self.related,
            created: date(self.created)?,
            updated: date(self.updated)?,
            version: self.version,
            changes: Vec::new(),
            primary_key: Vec::new(),
            table_rows: self.front_table_rows.map(table_rows),
            table_columns: self.front_table_columns,
            row_pages: self.front_row_pages,
            parquet: self.front_parquet,
            explore: self.front_explore,
            table_note: None,
            license: None,
            creators: self.creators,
            sources: Vec::new(),
            columns: Vec::new(),
            charts,
            draft: self.draft,
            numbers_not_data: Vec::new(),
        };
        let mut csv = self.csv;
        csv.stamp = Some(self.csv_stamp);
        csv.modified = Some(self.csv_stamp.modified());
        let digests = self.metadata_digests;
        let draft = front.draft;
        let (body, figure_html) = super::slim::empty_page_parts();
        let dataset = Dataset {
            slug: self.slug.clone(),
            markdown_path: self.markdown_path,
            csv_path: self.csv_path,
            csv_display,
            front,
            body,
            csv,
            license: match site_license {
                Some(shared) if **shared == self.license => Arc::clone(shared),
                _ => Arc::new(self.license),
            },
            table_rows: table_rows(self.table_rows),
            row_pages: self.row_pages,
            parquet: self.parquet,
            parquet_digest: Default::default(),
            versions: None,
            related_places: self.related_places,
            figures: Vec::new(),
            quoted_datasets: self.quoted_datasets,
            figure_html,
            dataset_links: self.dataset_links,
            page_links: self.page_links,
            metadata_digests: digests,
            slim_description: Some(self.description.into_boxed_str()),
            typed_numbers: self.typed_numbers,
            slim_columns: u32::try_from(self.columns).unwrap_or(u32::MAX),
            slim_column_names: Some(self.column_names.into_boxed_str()),
            slimmed: true,
            files_pending: pending,
            dcat_parts: None,
        };
        Some(Loaded {
            dataset: Some(dataset),
            problems: self.problems,
            slug: self.slug,
            draft,
            record: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SiteConfig;

    /// Every dataset of the bundled site (charts, themes, `related`, quoted cells of other
    /// datasets, prose links) comes back from its record as the very slim copy it was
    /// made from, problems included.
    #[test]
    fn a_record_gives_back_the_slim_dataset_it_was_made_of() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let config = SiteConfig::load(root).unwrap();
        let folder = root.join(crate::layout::CONTENT_DATASETS);
        let (mut seen, mut sharing, mut loaded_sharing) = (0, 0, 0);
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            let loaded = super::super::load(root, &path, &config, None);
            let full = loaded.dataset.unwrap();
            let csv_display = full.csv_display.clone();
            let digest = FileDigest {
                path: format!("data/datasets/{}.json", full.slug),
                bytes: 4321,
                sha256: crate::checksum::Sha256::of(b"0a"),
            };
            let slim = full.slim(vec![digest]);
            let mut problems = loaded.problems;
            problems.push(
                Diagnostic::warning(&slim.markdown_path, "a \"warning\"\twith\ncontrol")
                    .with_hint("do this"),
            );
            let record = SlimRecord::of(&slim, csv_display.clone(), &problems).unwrap();
            assert_eq!(record.csv_display, csv_display);
            let text = serde_json::to_string(&record).unwrap();
            let back: SlimRecord = serde_json::from_str(&text).unwrap();
            // The site's license shared again when it is the one recorded (by value: a
            // dataset may name the same license itself).
            let site_license = config.license.as_ref();
            loaded_sharing +=
                usize::from(site_license.is_some_and(|l| Arc::ptr_eq(l, &slim.license)));
            let uses_site_license = site_license.is_some_and(|l| **l == *slim.license);
            let again = back.into_loaded(site_license).unwrap();
            let again_license = &again.dataset.as_ref().unwrap().license;
            let shared = site_license.is_some_and(|l| Arc::ptr_eq(l, again_license));
            assert_eq!(shared, uses_site_license, "{}", slim.slug);
            sharing += usize::from(shared);
            assert_eq!(format!("{:?}", again.dataset.unwrap()), format!("{slim:?}"));
            assert_eq!(again.problems, problems);
            assert_eq!(
                (again.slug, again.draft),
                (slim.slug.clone(), slim.front.draft)
            );
            seen += 1;
        }
        assert!(seen >= 4);
        // The bundled site's datasets each name a license; one is the site's.
        assert!(
            sharing >= 1 && sharing >= loaded_sharing,
            "{sharing} of {seen}"
        );
    }

    /// Datasets without a license of their own point to the site's one value, loaded or
    /// taken from their records.
    #[test]
    fn datasets_share_the_sites_license() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("content/datasets")).unwrap();
        std::fs::create_dir_all(root.join("data/datasets")).unwrap();
        std::fs::write(
            root.join("site.toml"),
            "title = \"T\"\nbase_url = \"https://example.org/\"\n[author]\nname = \"A\"\n[license]\nname = \"CC0 1.0\"\nurl = \"https://creativecommons.org/publicdomain/zero/1.0/\"\n",
        )
        .unwrap();
        let config = SiteConfig::load(root).unwrap();
        let site_license = config.license.as_ref().unwrap();
        for slug in ["a", "b"] {
            std::fs::write(
                root.join(format!("content/datasets/{slug}.md")),
                "+++\ntitle = \"T\"\nkicker = \"k\"\nheadline = \"H\"\nupdated = 2024-01-01\n[[columns]]\nname = \"v\"\ntitle = \"V\"\ntype = \"integer\"\ndescription = \"A value.\"\n+++\n\nA lede.\n\n## Method\n\nM.\n\n## Limits\n\nL.\n",
            )
            .unwrap();
            std::fs::write(root.join(format!("data/datasets/{slug}.csv")), "v\n1\n").unwrap();
            let path = root.join(format!("content/datasets/{slug}.md"));
            let loaded = super::super::load(root, &path, &config, None);
            let error = crate::diagnostics::Severity::Error;
            assert!(
                loaded.problems.iter().all(|p| p.severity != error),
                "{:?}",
                loaded.problems
            );
            let full = loaded.dataset.unwrap();
            assert!(Arc::ptr_eq(&full.license, site_license), "{slug} loaded");
            let csv_display = full.csv_display.clone();
            let slim = full.slim(Vec::new());
            assert!(Arc::ptr_eq(&slim.license, site_license), "{slug} slim");
            let record = SlimRecord::of(&slim, csv_display, &[]).unwrap();
            let back = record.into_loaded(Some(site_license)).unwrap();
            assert!(
                Arc::ptr_eq(&back.dataset.unwrap().license, site_license),
                "{slug} recalled"
            );
        }
    }

    #[test]
    fn a_dataset_that_is_not_slim_has_no_record() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let config = SiteConfig::load(root).unwrap();
        let path = root.join(crate::layout::dataset_markdown(
            "storage-link-payload-ceilings",
        ));
        let full = super::super::load(root, &path, &config, None)
            .dataset
            .unwrap();
        assert!(SlimRecord::of(&full, full.csv_display.clone(), &[]).is_none());
    }
}
