//! The built-in per-dataset outputs that need nothing above this layer: the CSV download,
//! the three JSON metadata files, the kept versions, the charts' SVG files and the citation
//! files (`citation_files`) ([`crate::site::outputs`] declares what an output is; the typed copies of the
//! table are in `write`).

use std::collections::HashSet;
use std::sync::Arc;

use crate::config::SiteConfig;
use crate::dataset::{Dataset, FileDigest};
use crate::diagnostics::Diagnostic;
use crate::layout::urls;
use crate::site::outputs::{digest_of, DatasetOutput, Distribution, Stage, WriteContext};
use crate::site::Site;

/// The built-in outputs, in the order the DCAT catalog lists them: the CSV, its three
/// metadata files, `copies` (the table in other formats), the kept versions, the charts'
/// SVG files and the citation files.
pub fn built_in(copies: Vec<Arc<dyn DatasetOutput>>) -> Vec<Arc<dyn DatasetOutput>> {
    let mut outputs: Vec<Arc<dyn DatasetOutput>> = vec![
        Arc::new(Csv),
        Arc::new(Json {
            path: urls::json_file,
            media_type: "application/json",
            distribution: Distribution {
                fragment: "datapackage",
                title: "Data Package",
                description: "Frictionless Data Package (v2) descriptor of the CSV: schema, constraints, size and SHA-256.",
                file_type: "JSON",
                conforms_to: Some(super::datapackage::PROFILE),
            },
            catalog_key: Some("metadata"),
            render: |site, dataset, written| {
                super::json_file(&super::datapackage::descriptor(site, dataset, written))
            },
        }),
        Arc::new(Json {
            path: urls::csvw_file,
            media_type: "application/csvm+json",
            distribution: Distribution {
                fragment: "csvw",
                title: "CSVW metadata",
                description: "CSV on the Web (W3C) table metadata for the CSV.",
                file_type: "JSON_LD",
                conforms_to: Some("http://www.w3.org/ns/csvw"),
            },
            catalog_key: Some("csvw"),
            render: |site, dataset, _| super::json_file(&super::csvw::table(site, dataset)),
        }),
        Arc::new(Json {
            path: urls::croissant_file,
            media_type: "application/ld+json",
            distribution: Distribution {
                fragment: "croissant",
                title: "Croissant metadata",
                description: "Croissant (MLCommons) metadata: the CSV as a file object and one record set of typed fields.",
                file_type: "JSON_LD",
                conforms_to: Some(super::croissant::CONFORMS_TO),
            },
            catalog_key: None,
            render: |site, dataset, written| {
                super::json_file(&super::croissant::dataset(site, dataset, written))
            },
        }),
    ];
    outputs.extend(copies);
    outputs.extend([
        Arc::new(KeptVersions) as Arc<dyn DatasetOutput>,
        Arc::new(Rendered {
            file: None,
            charts: true,
            media_type: "image/svg+xml",
        }),
        // RIS and CFF, in the order the page links them (the BibTeX is on the page only).
        Arc::new(CitationFile(Rendered {
            file: Some(|slug| urls::citation_file(slug, "ris")),
            charts: false,
            media_type: super::citation_files::RIS_MEDIA_TYPE,
        })),
        Arc::new(CitationFile(Rendered {
            file: Some(|slug| urls::citation_file(slug, "cff")),
            charts: false,
            media_type: super::citation_files::CFF_MEDIA_TYPE,
        })),
    ]);
    outputs
}

/// The CSV, byte for byte.
struct Csv;

const CSV: Distribution = Distribution {
    fragment: "csv",
    title: "CSV",
    description: "The table as a CSV file (UTF-8, comma-separated, one header row), byte for byte as the page describes it.",
    file_type: "CSV",
    conforms_to: None,
};

impl DatasetOutput for Csv {
    fn file_for(&self, slug: &str) -> Option<String> {
        Some(urls::csv_file(slug))
    }
    fn elsewhere(&self) -> bool {
        true
    }
    fn media_type(&self) -> &'static str {
        "text/csv"
    }
    fn distribution(&self) -> Option<&Distribution> {
        Some(&CSV)
    }
    fn catalog_key(&self) -> Option<&'static str> {
        Some("csv")
    }
    fn stage(&self) -> Stage {
        Stage::Table
    }
    /// The same file unchanged.
    fn still_holds(&self, _before: &Dataset, _now: &Dataset) -> bool {
        true
    }
    /// Copied byte for byte: its size and SHA-256 are the scan's.
    fn write(&self, context: &WriteContext) -> Result<Vec<FileDigest>, Diagnostic> {
        let dataset = context.dataset;
        let path = urls::csv_file(&dataset.slug);
        context.files.put_copy(&dataset.csv_path, &path)?;
        Ok(vec![FileDigest {
            path,
            bytes: dataset.csv.bytes,
            sha256: dataset.csv.sha256,
        }])
    }
}

/// A JSON metadata file rendered from the dataset.
struct Json {
    path: fn(&str) -> String,
    media_type: &'static str,
    distribution: Distribution,
    catalog_key: Option<&'static str>,
    /// The file, from the site, the dataset and the table's files as written.
    render: fn(&Site, &Dataset, &[FileDigest]) -> Vec<u8>,
}

impl DatasetOutput for Json {
    fn file_for(&self, slug: &str) -> Option<String> {
        Some((self.path)(slug))
    }
    fn media_type(&self) -> &'static str {
        self.media_type
    }
    fn distribution(&self) -> Option<&Distribution> {
        Some(&self.distribution)
    }
    fn catalog_key(&self) -> Option<&'static str> {
        self.catalog_key
    }
    fn write(&self, context: &WriteContext) -> Result<Vec<FileDigest>, Diagnostic> {
        let bytes = (self.render)(context.site, context.dataset, context.written);
        let path = (self.path)(&context.dataset.slug);
        context.files.put(&path, &bytes)?;
        Ok(vec![digest_of(path, &bytes)])
    }
}

/// Each kept version of the CSV (`[[changes]]` `file`), copied byte for byte every time
/// (an edited file of the same size must not keep an old copy): the page states the size
/// and SHA-256 measured when it was loaded, so a file whose size moved since then fails
/// the build.
struct KeptVersions;

impl DatasetOutput for KeptVersions {
    fn files(&self, dataset: &Dataset) -> Vec<String> {
        let kept = dataset.versions.iter().flat_map(|v| &v.kept);
        kept.map(|k| urls::version_file(&dataset.slug, &k.version))
            .collect()
    }
    fn elsewhere(&self) -> bool {
        true
    }
    /// `data/datasets/<slug>/v<version>.csv`.
    fn owns(&self, slug: &str, path: &str) -> bool {
        let folder = urls::version_file(slug, "");
        path.strip_prefix(folder.trim_end_matches(".csv"))
            .is_some_and(|rest| rest.ends_with(".csv") && !rest.contains('/'))
    }
    fn media_type(&self) -> &'static str {
        "text/csv"
    }
    fn write(&self, context: &WriteContext) -> Result<Vec<FileDigest>, Diagnostic> {
        let dataset = context.dataset;
        for kept in dataset.versions.iter().flat_map(|v| &v.kept) {
            let path = urls::version_file(&dataset.slug, &kept.version);
            context.files.put_copy(&kept.path, &path)?;
            let now = std::fs::metadata(&kept.path).map(|m| m.len()).ok();
            if now != Some(kept.bytes) {
                return Err(Diagnostic::error(
                    &kept.display,
                    "the kept version's file changed while the site was being built",
                )
                .with_hint("build again once the file is saved"));
            }
        }
        Ok(Vec::new())
    }
}

/// A citation file (RIS, CFF), written only with `citation_files = true`: the page
/// carries each text and its download anyway.
struct CitationFile(Rendered);

impl DatasetOutput for CitationFile {
    fn is_on(&self, config: &SiteConfig, dataset: &Dataset) -> bool {
        super::citation_files::files_on(config, dataset)
    }
    fn file_for(&self, slug: &str) -> Option<String> {
        self.0.file_for(slug)
    }
    fn media_type(&self) -> &'static str {
        self.0.media_type()
    }
    fn setting(&self) -> Option<&'static str> {
        Some("citation_files")
    }
    fn write(&self, context: &WriteContext) -> Result<Vec<FileDigest>, Diagnostic> {
        self.0.write(context)
    }
}

/// Files drawn for the page anyway (the charts' SVG files, the citation files): written
/// from [`WriteContext::rendered`].
struct Rendered {
    /// Its one file, named by the slug.
    file: Option<fn(&str) -> String>,
    /// Or one file per chart.
    charts: bool,
    media_type: &'static str,
}

impl DatasetOutput for Rendered {
    fn file_for(&self, slug: &str) -> Option<String> {
        self.file.map(|file| file(slug))
    }
    fn files(&self, dataset: &Dataset) -> Vec<String> {
        let slug = &dataset.slug;
        match self.charts {
            true => (dataset.front.charts.iter())
                .map(|chart| urls::chart_file(slug, &chart.id()))
                .collect(),
            false => self.file_for(slug).into_iter().collect(),
        }
    }
    fn media_type(&self) -> &'static str {
        self.media_type
    }
    fn write(&self, context: &WriteContext) -> Result<Vec<FileDigest>, Diagnostic> {
        // Only what was drawn: a chart that could not be drawn has no file.
        let own: HashSet<String> = self.files(context.dataset).into_iter().collect();
        for (path, text) in context.rendered {
            if own.contains(path) {
                context.files.put(path, text.as_bytes())?;
            }
        }
        Ok(Vec::new())
    }
}
