//! schema.org JSON-LD: a `Dataset` in every dataset page (what Google Dataset Search reads)
//! and a `DataCatalog` on the home page. It states only what the page shows.

use serde_json::{json, Map, Value};

use super::human_size;
use crate::dataset::Dataset;
use crate::layout::urls;
use crate::site::Site;

/// A schema.org `Organization` (also read by Croissant, whose vocabulary is schema.org).
pub(super) fn organization(party: &crate::config::Party) -> Value {
    let mut out = Map::new();
    out.insert("@type".into(), json!("Organization"));
    out.insert("name".into(), json!(party.name));
    if let Some(url) = &party.url {
        out.insert("url".into(), json!(url));
    }
    Value::Object(out)
}

fn catalog_reference(site: &Site) -> Value {
    json!({
        "@type": "DataCatalog",
        "name": site.config.title,
        "url": site.config.base_url,
    })
}

/// The `Dataset` object for one dataset page.
pub fn dataset(site: &Site, dataset: &Dataset) -> Value {
    let page = super::page_url(site, dataset);
    let front = &dataset.front;
    let variables: Vec<Value> = front
        .columns
        .iter()
        .map(|column| {
            let mut out = Map::new();
            out.insert("@type".into(), json!("PropertyValue"));
            out.insert("name".into(), json!(column.title));
            out.insert("propertyID".into(), json!(column.name));
            out.insert("description".into(), json!(column.description));
            if let Some(unit) = &column.unit {
                out.insert("unitText".into(), json!(unit));
            }
            Value::Object(out)
        })
        .collect();
    let citations: Vec<Value> = front
        .sources
        .iter()
        .map(|source| {
            let mut out = Map::new();
            out.insert("@type".into(), json!("CreativeWork"));
            out.insert("name".into(), json!(source.title));
            if let Some(publisher) = &source.publisher {
                out.insert(
                    "publisher".into(),
                    json!({"@type": "Organization", "name": publisher}),
                );
            }
            if let Some(published) = &source.published {
                out.insert("datePublished".into(), json!(published));
            }
            if let Some(url) = &source.url {
                out.insert("url".into(), json!(url));
            }
            Value::Object(out)
        })
        .collect();
    let distribution = json!([
        {
            "@type": "DataDownload",
            "name": format!("{}.csv", dataset.slug),
            "contentUrl": site.config.absolute_url(&urls::csv_file(&dataset.slug)),
            "encodingFormat": "text/csv",
            "contentSize": human_size(dataset.csv.bytes),
            "sha256": dataset.csv.sha256,
        },
        {
            "@type": "DataDownload",
            "name": format!("{}.json", dataset.slug),
            "contentUrl": site.config.absolute_url(&urls::json_file(&dataset.slug)),
            "encodingFormat": "application/vnd.datapackage+json",
        },
    ]);
    let mut out = Map::new();
    out.insert("@context".into(), json!("https://schema.org/"));
    out.insert("@type".into(), json!("Dataset"));
    out.insert("@id".into(), json!(page));
    out.insert("url".into(), json!(page));
    out.insert("name".into(), json!(front.title));
    out.insert("headline".into(), json!(front.headline));
    out.insert("description".into(), json!(super::description(dataset)));
    out.insert("license".into(), json!(super::license_url(site, dataset)));
    out.insert("creator".into(), organization(&site.config.author));
    out.insert("publisher".into(), organization(site.config.publisher()));
    out.insert("keywords".into(), json!(front.tags));
    out.insert("isAccessibleForFree".into(), json!(true));
    out.insert("creditText".into(), json!(super::citation(site, dataset)));
    out.insert("citation".into(), Value::Array(citations));
    out.insert("variableMeasured".into(), Value::Array(variables));
    out.insert("distribution".into(), distribution);
    out.insert("includedInDataCatalog".into(), catalog_reference(site));
    if let Some(version) = &front.version {
        out.insert("version".into(), json!(version));
    }
    if let Some(updated) = super::updated(site, dataset) {
        out.insert("dateModified".into(), json!(updated));
    }
    if let Some(created) = &front.created {
        out.insert(
            "dateCreated".into(),
            json!(crate::content::date_string(created)),
        );
    }
    if let Some(coverage) = &front.temporal_coverage {
        out.insert("temporalCoverage".into(), json!(coverage));
    }
    Value::Object(out)
}

/// The `DataCatalog` of the home page, listing the datasets it shows (indexes into
/// `Site::datasets`); the whole catalog is in `data/catalog.jsonld` (DCAT) and `catalog.json`.
pub fn catalog(site: &Site, shown: &[usize]) -> Value {
    let datasets: Vec<Value> = shown
        .iter()
        .map(|&i| {
            let d = &site.datasets[i];
            json!({
                "@type": "Dataset",
                "@id": super::page_url(site, d),
                "url": super::page_url(site, d),
                "name": d.front.title,
                "description": super::description(d),
                "license": super::license_url(site, d),
            })
        })
        .collect();
    json!({
        "@context": "https://schema.org/",
        "@type": "DataCatalog",
        "@id": site.config.base_url,
        "url": site.config.base_url,
        "name": site.config.title,
        "description": site.config.description,
        "publisher": organization(site.config.publisher()),
        "dataset": datasets,
    })
}
