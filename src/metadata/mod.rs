//! Machine-readable descriptions of each dataset, from the same source of truth as the page.
//!
//! The JSON metadata file is shaped as a Frictionless Data Package (v2) descriptor with one
//! table resource, so data tools can read it as is. Keys are emitted in sorted order
//! (serde_json's default map), which keeps output byte-identical between builds.

use serde_json::{json, Map, Value};

use crate::dataset::Dataset;
use crate::render::urls;
use crate::site::Site;

/// The Data Package v2 profile.
pub const DATA_PACKAGE_PROFILE: &str = "https://datapackage.org/profiles/2.0/datapackage.json";

/// The descriptor written to `data/datasets/<slug>.json`.
pub fn data_package(site: &Site, dataset: &Dataset) -> Value {
    let front = &dataset.front;
    let description = front
        .description
        .clone()
        .unwrap_or_else(|| dataset.body.lede_text.clone());
    let mut license = Map::new();
    license.insert("title".into(), json!(dataset.license.name));
    if let Some(url) = &dataset.license.url {
        license.insert("path".into(), json!(url));
    }
    let sources: Vec<Value> = front
        .sources
        .iter()
        .map(|s| {
            let mut source = Map::new();
            source.insert("title".into(), json!(s.title));
            source.insert("id".into(), json!(s.id));
            if let Some(url) = &s.url {
                source.insert("path".into(), json!(url));
            }
            if let Some(p) = &s.publisher {
                source.insert("publisher".into(), json!(p));
            }
            if let Some(p) = &s.published {
                source.insert("published".into(), json!(p));
            }
            if let Some(a) = &s.accessed {
                source.insert("accessed".into(), json!(crate::content::date_string(a)));
            }
            Value::Object(source)
        })
        .collect();
    let fields: Vec<Value> = front
        .columns
        .iter()
        .map(|c| {
            let mut field = Map::new();
            field.insert("name".into(), json!(c.name));
            field.insert("title".into(), json!(c.title));
            field.insert("type".into(), json!(c.column_type.as_str()));
            field.insert("description".into(), json!(c.description));
            if let Some(unit) = &c.unit {
                field.insert("unit".into(), json!(unit));
            }
            let mut constraints = Map::new();
            if c.required {
                constraints.insert("required".into(), json!(true));
            }
            if c.unique {
                constraints.insert("unique".into(), json!(true));
            }
            if let Some(values) = &c.enum_values {
                constraints.insert("enum".into(), json!(values));
            }
            if let Some(p) = &c.pattern {
                constraints.insert("pattern".into(), json!(p));
            }
            for (key, bound) in [("minimum", &c.minimum), ("maximum", &c.maximum)] {
                if let Some(bound) = bound {
                    constraints.insert(key.into(), toml_to_json(bound));
                }
            }
            if !constraints.is_empty() {
                field.insert("constraints".into(), Value::Object(constraints));
            }
            Value::Object(field)
        })
        .collect();
    let mut schema = Map::new();
    schema.insert("fields".into(), Value::Array(fields));
    schema.insert("missingValues".into(), json!([""]));
    if !front.primary_key.is_empty() {
        schema.insert("primaryKey".into(), json!(front.primary_key));
    }
    let resource = json!({
        "name": dataset.slug,
        "type": "table",
        "path": format!("{}.csv", dataset.slug),
        "format": "csv",
        "mediatype": "text/csv",
        "encoding": "utf-8",
        "bytes": dataset.csv.bytes,
        "hash": format!("sha256:{}", dataset.csv.sha256),
        "rows": dataset.csv.rows,
        "columns": dataset.csv.header.len(),
        "schema": Value::Object(schema),
    });
    let publisher = site.config.publisher();
    let mut contributors = vec![json!({"title": site.config.author.name, "roles": ["author"]})];
    if publisher != &site.config.author {
        contributors.push(json!({"title": publisher.name, "roles": ["publisher"]}));
    }
    let mut package = Map::new();
    package.insert("$schema".into(), json!(DATA_PACKAGE_PROFILE));
    package.insert("name".into(), json!(dataset.slug));
    package.insert("title".into(), json!(front.title));
    package.insert("description".into(), json!(description));
    package.insert(
        "homepage".into(),
        json!(site.config.absolute_url(&urls::dataset_page(&dataset.slug))),
    );
    package.insert("keywords".into(), json!(front.tags));
    package.insert("licenses".into(), json!([Value::Object(license)]));
    package.insert("sources".into(), Value::Array(sources));
    package.insert("contributors".into(), Value::Array(contributors));
    package.insert("resources".into(), json!([resource]));
    if let Some(v) = &front.version {
        package.insert("version".into(), json!(v));
    }
    if let Some(created) = &front.created {
        package.insert(
            "created".into(),
            json!(crate::content::date_string(created)),
        );
    }
    if let Some(updated) = dataset.updated() {
        package.insert("updated".into(), json!(updated));
    }
    Value::Object(package)
}

fn toml_to_json(value: &toml::Value) -> Value {
    match value {
        toml::Value::Integer(i) => json!(i),
        toml::Value::Float(f) => json!(f),
        toml::Value::Datetime(d) => json!(crate::content::date_string(d)),
        other => json!(other.to_string().trim_matches('"')),
    }
}
