//! The built-in per-dataset outputs that need nothing above this layer: the CSV download,
//! the three JSON metadata files, the kept versions, the charts' SVG files and the citation
//! files ([`crate::site::outputs`] declares what an output is; the Parquet copy is
//! `write::parquet`).

use std::collections::HashSet;
use std::sync::Arc;

use crate::dataset::{Dataset, FileDigest};
use crate::diagnostics::Diagnostic;
use crate::layout::urls;
use crate::site::outputs::{digest_of, CsvCopy, DatasetOutput, Distribution, Kept, WriteContext};
use crate::site::Site;

/// The built-in outputs before the Parquet copy, in the order the DCAT catalog lists them.
pub fn before_parquet() -> Vec<Arc<dyn DatasetOutput>> {
    vec![
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
            render: |site, dataset| super::json_file(&super::datapackage::descriptor(site, dataset)),
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
            render: |site, dataset| super::json_file(&super::csvw::table(site, dataset)),
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
            render: |site, dataset| super::json_file(&super::croissant::dataset(site, dataset)),
        }),
    ]
}

/// The built-in outputs after the Parquet copy.
pub fn after_parquet() -> Vec<Arc<dyn DatasetOutput>> {
    vec![
        Arc::new(KeptVersions),
        Arc::new(Rendered {
            files: |dataset| {
                let slug = &dataset.slug;
                let charts = dataset.front.charts.iter();
                charts.map(|c| urls::chart_file(slug, &c.id())).collect()
            },
            media_type: "image/svg+xml",
        }),
        // RIS and CFF, in the order the page links them (the BibTeX is on the page only).
        Arc::new(Rendered {
            files: |dataset| vec![urls::citation_file(&dataset.slug, "ris")],
            media_type: "application/x-research-info-systems",
        }),
        Arc::new(Rendered {
            files: |dataset| vec![urls::citation_file(&dataset.slug, "cff")],
            media_type: "application/yaml",
        }),
    ]
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
    fn files(&self, dataset: &Dataset) -> Vec<String> {
        vec![urls::csv_file(&dataset.slug)]
    }
    fn media_type(&self) -> &'static str {
        "text/csv"
    }
    fn distribution(&self) -> Option<&Distribution> {
        Some(&CSV)
    }
    fn kept(&self) -> Kept {
        Kept::WhenUnchanged
    }
    fn write(&self, context: &WriteContext) -> Result<Option<FileDigest>, Diagnostic> {
        let dataset = context.dataset;
        let path = urls::csv_file(&dataset.slug);
        let kept = context.keep == CsvCopy::KeepIfPresent
            && context.files.existing_len(&path) == Some(dataset.csv.bytes);
        if !kept {
            context.files.put_copy(&dataset.csv_path, &path)?;
        }
        Ok(None)
    }
    fn digest(&self, _site: &Site, dataset: &Dataset) -> Option<FileDigest> {
        Some(FileDigest {
            path: urls::csv_file(&dataset.slug),
            bytes: dataset.csv.bytes,
            sha256: dataset.csv.sha256,
        })
    }
}

/// A JSON metadata file rendered from the dataset.
struct Json {
    path: fn(&str) -> String,
    media_type: &'static str,
    distribution: Distribution,
    render: fn(&Site, &Dataset) -> Vec<u8>,
}

impl DatasetOutput for Json {
    fn files(&self, dataset: &Dataset) -> Vec<String> {
        vec![(self.path)(&dataset.slug)]
    }
    fn media_type(&self) -> &'static str {
        self.media_type
    }
    fn distribution(&self) -> Option<&Distribution> {
        Some(&self.distribution)
    }
    fn write(&self, context: &WriteContext) -> Result<Option<FileDigest>, Diagnostic> {
        let bytes = (self.render)(context.site, context.dataset);
        let path = (self.path)(&context.dataset.slug);
        context.files.put(&path, &bytes)?;
        Ok(Some(digest_of(path, &bytes)))
    }
    fn digest(&self, site: &Site, dataset: &Dataset) -> Option<FileDigest> {
        let bytes = (self.render)(site, dataset);
        Some(digest_of((self.path)(&dataset.slug), &bytes))
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
    fn media_type(&self) -> &'static str {
        "text/csv"
    }
    fn write(&self, context: &WriteContext) -> Result<Option<FileDigest>, Diagnostic> {
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
        Ok(None)
    }
}

/// Files drawn for the page anyway (the charts' SVG files, the citation files): written
/// from [`WriteContext::rendered`].
struct Rendered {
    files: fn(&Dataset) -> Vec<String>,
    media_type: &'static str,
}

impl DatasetOutput for Rendered {
    fn files(&self, dataset: &Dataset) -> Vec<String> {
        (self.files)(dataset)
    }
    fn media_type(&self) -> &'static str {
        self.media_type
    }
    fn write(&self, context: &WriteContext) -> Result<Option<FileDigest>, Diagnostic> {
        // Only what was drawn: a chart that could not be drawn has no file.
        let own: HashSet<String> = (self.files)(context.dataset).into_iter().collect();
        for (path, text) in context.rendered {
            if own.contains(path) {
                context.files.put(path, text.as_bytes())?;
            }
        }
        Ok(None)
    }
}
