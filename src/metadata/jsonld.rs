//! schema.org JSON-LD: a `Dataset` in every dataset page (what Google Dataset Search reads)
//! and a `DataCatalog` on the home page. It states only what the page shows.

use std::borrow::Cow;

use serde::Serialize;
use serde_json::{json, Value};

use super::credit::Agent;
use super::human_size;
use crate::dataset::{Dataset, FileDigest};
use crate::layout::urls;
use crate::site::Site;

/// A schema.org `Organization` (also read by Croissant, whose vocabulary is schema.org).
#[derive(Serialize)]
pub(super) struct Organization<'a> {
    #[serde(rename = "@type")]
    kind: &'static str,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<&'a str>,
}

pub(super) fn organization(party: &crate::config::Party) -> Organization<'_> {
    Organization {
        kind: "Organization",
        name: &party.name,
        url: party.url.as_deref(),
    }
}

/// The schema.org `Dataset` of a dataset page, keys in sorted order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonLdDataset<'a> {
    #[serde(rename = "@context")]
    context: &'static str,
    #[serde(rename = "@id")]
    id: String,
    #[serde(rename = "@type")]
    kind: &'static str,
    creator: Vec<Agent>,
    credit_text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    date_created: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    date_modified: Option<String>,
    description: String,
    /// The CSV, its Data Package, and the alternates of the CSV written for it.
    distribution: Vec<DataDownload>,
    headline: &'a str,
    included_in_data_catalog: CatalogReference<'a>,
    is_accessible_for_free: bool,
    /// The works the figures were taken from (`[[sources]]`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    is_based_on: Vec<CreativeWork<'a>>,
    keywords: &'a [String],
    license: String,
    name: &'a str,
    publisher: Organization<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    temporal_coverage: Option<&'a str>,
    url: String,
    variable_measured: Vec<PropertyValue<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<&'a str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CreativeWork<'a> {
    #[serde(rename = "@type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    date_published: Option<&'a str>,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    publisher: Option<Organization<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<&'a str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DataDownload {
    #[serde(rename = "@type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    content_size: Option<String>,
    content_url: String,
    encoding_format: &'static str,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    sha256: Option<String>,
    /// A kept earlier version of the CSV (`[[changes]]` `file`): the version it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<String>,
}

#[derive(Serialize)]
struct CatalogReference<'a> {
    #[serde(rename = "@type")]
    kind: &'static str,
    name: &'a str,
    url: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PropertyValue<'a> {
    #[serde(rename = "@type")]
    kind: &'static str,
    /// Only for the columns the page's table shows: a very wide table's page stays bounded,
    /// and the descriptors it links to describe every column in full.
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    name: &'a str,
    #[serde(rename = "propertyID")]
    property_id: Cow<'a, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unit_text: Option<&'a str>,
}

/// The `Dataset` object for one dataset page.
pub fn dataset<'a>(
    site: &'a Site,
    dataset: &'a Dataset,
    written: &[FileDigest],
) -> JsonLdDataset<'a> {
    let page = super::page_url(site, dataset);
    let front = &dataset.front;
    JsonLdDataset {
        context: "https://schema.org/",
        id: page.clone(),
        kind: "Dataset",
        creator: super::credit::agents(site, dataset),
        credit_text: super::citation(site, dataset),
        date_created: front.created.as_ref().map(crate::content::date_string),
        date_modified: super::updated(site, dataset),
        description: dataset.description(),
        distribution: distribution(site, dataset, written),
        headline: &front.headline,
        included_in_data_catalog: CatalogReference {
            kind: "DataCatalog",
            name: &site.config.title,
            url: site.config.base_url.as_str(),
        },
        is_accessible_for_free: true,
        is_based_on: front.sources.iter().map(CreativeWork::of).collect(),
        keywords: &front.tags,
        license: super::license_url(site, dataset),
        name: &front.title,
        publisher: organization(site.config.publisher()),
        temporal_coverage: front.temporal_coverage.as_deref(),
        url: page,
        variable_measured: variables(site, dataset),
        version: front.version.as_deref(),
    }
}

/// The columns as `PropertyValue`s: every column while they are few; past that the
/// table's, so the page keeps its byte budget (the descriptors it links to name every
/// column).
fn variables<'a>(site: &Site, dataset: &'a Dataset) -> Vec<PropertyValue<'a>> {
    let columns = &dataset.front.columns;
    let in_table = dataset.in_table(&dataset.shown_columns(site.config.table_columns));
    let row_names = crate::content::columns::row_names_field(columns);
    let every = columns.len() <= crate::dataset::budget::JSONLD_COLUMNS;
    (columns.iter().zip(in_table))
        .filter(|(_, shown)| every || *shown)
        .map(|(column, shown)| PropertyValue {
            kind: "PropertyValue",
            description: shown.then_some(&*column.description),
            name: &column.title,
            property_id: match column.is_row_names() {
                true => Cow::Owned(row_names.to_string()),
                false => Cow::Borrowed(&column.name),
            },
            unit_text: column.unit.as_deref(),
        })
        .collect()
}

impl<'a> CreativeWork<'a> {
    /// A `[[sources]]` entry, a work the figures were taken from.
    fn of(source: &'a crate::content::Source) -> Self {
        CreativeWork {
            kind: "CreativeWork",
            date_published: source.published.as_deref(),
            name: &source.title,
            publisher: source.publisher.as_deref().map(|name| Organization {
                kind: "Organization",
                name,
                url: None,
            }),
            url: source.url.as_deref(),
        }
    }
}

/// The downloads: the CSV, its Data Package, the alternates of the CSV written for it
/// and its kept earlier versions.
fn distribution(site: &Site, dataset: &Dataset, written: &[FileDigest]) -> Vec<DataDownload> {
    let slug = &dataset.slug;
    let place = dataset.data_place(&site.config);
    let csv = DataDownload {
        kind: "DataDownload",
        content_size: Some(human_size(dataset.csv.bytes)),
        content_url: (site.outputs).url_of(&place, slug, &urls::csv_file(slug)),
        encoding_format: "text/csv",
        name: format!("{slug}.csv"),
        sha256: Some(dataset.csv.sha256.to_string()),
        version: None,
    };
    let package = DataDownload {
        kind: "DataDownload",
        content_size: None,
        content_url: site.config.absolute_url(&urls::json_file(slug)),
        encoding_format: "application/vnd.datapackage+json",
        name: format!("{slug}.json"),
        sha256: None,
        version: None,
    };
    let alternates =
        (site.outputs.alternates(slug, written)).map(|(output, _, file)| DataDownload {
            kind: "DataDownload",
            content_size: Some(human_size(file.bytes)),
            content_url: site.outputs.url_of(&place, slug, &file.path),
            encoding_format: output.media_type(),
            name: super::file_name(&file.path).to_string(),
            sha256: Some(file.sha256.to_string()),
            version: None,
        });
    let versions =
        (super::versions::versions(site, dataset).into_iter()).map(|kept| DataDownload {
            kind: "DataDownload",
            content_size: Some(human_size(kept.bytes)),
            content_url: kept.path,
            encoding_format: "text/csv",
            name: format!("{slug}-v{}.csv", kept.version),
            sha256: Some(kept.sha256),
            version: Some(kept.version),
        });
    [csv, package]
        .into_iter()
        .chain(alternates)
        .chain(versions)
        .collect()
}

/// The `DataCatalog` of the home page, listing the datasets it shows (indexes into
/// `Site::datasets`); the whole catalog is in `data/catalog.ttl` (DCAT) and `catalog.json`.
/// `Err` when a dataset's entry cannot be read back.
pub fn catalog(site: &Site, shown: &[usize]) -> std::io::Result<Value> {
    let datasets: Vec<Value> = shown
        .iter()
        .map(|&i| {
            let d = site.datasets.entry(i)?;
            let page = super::slug_page_url(site, &d.slug);
            Ok(json!({
                "@type": "Dataset",
                "@id": page,
                "url": page,
                "name": d.title,
                "description": d.description,
                "license": super::slug_license_url(site, &d.slug, &d.license),
            }))
        })
        .collect::<std::io::Result<_>>()?;
    Ok(json!({
        "@context": "https://schema.org/",
        "@type": "DataCatalog",
        "@id": site.config.base_url.as_str(),
        "url": site.config.base_url.as_str(),
        "name": site.config.title,
        "description": site.config.description,
        "publisher": organization(site.config.publisher()),
        "dataset": datasets,
    }))
}
