//! The Frictionless Data Package (v2) descriptor written to `data/datasets/<slug>.json`,
//! the page's "JSON metadata" link: one tabular resource with its schema, size and hash.

use serde_json::{json, Map, Value};

use crate::content::date_string;
use crate::content::dialect::MissingValues;
use crate::dataset::Dataset;
use crate::site::Site;

/// The Data Package v2 profile.
pub const PROFILE: &str = "https://datapackage.org/profiles/2.0/datapackage.json";

/// The descriptor for one dataset.
pub fn descriptor(site: &Site, dataset: &Dataset) -> Value {
    let front = &dataset.front;
    let mut package = Map::new();
    package.insert("$schema".into(), json!(PROFILE));
    package.insert("name".into(), json!(dataset.slug));
    package.insert("title".into(), json!(front.title));
    package.insert("description".into(), json!(super::description(dataset)));
    package.insert("homepage".into(), json!(super::page_url(site, dataset)));
    // Not a Data Package property (custom properties are allowed): the same CSV described
    // for machine-learning platforms.
    package.insert(
        "croissant".into(),
        json!(site
            .config
            .absolute_url(&crate::layout::urls::croissant_file(&dataset.slug))),
    );
    package.insert("keywords".into(), json!(front.tags));
    package.insert("licenses".into(), json!([license(site, dataset)]));
    package.insert(
        "sources".into(),
        Value::Array(front.sources.iter().map(source).collect()),
    );
    package.insert("contributors".into(), contributors(site));
    package.insert("resources".into(), json!([resource(dataset)]));
    if let Some(version) = &front.version {
        package.insert("version".into(), json!(version));
    }
    if let Some(created) = &front.created {
        // The profile wants an RFC 3339 date-time; content dates are days.
        package.insert(
            "created".into(),
            json!(format!("{}T00:00:00Z", date_string(created))),
        );
    }
    if let Some(updated) = super::updated(site, dataset) {
        package.insert("updated".into(), json!(updated));
    }
    if !front.changes.is_empty() {
        // A custom property (allowed by the profile): the page's change history.
        package.insert("changes".into(), json!(super::changes(dataset)));
    }
    if !dataset.figures.is_empty() {
        // A custom property: the cells the page's text quotes (rows numbered from 1).
        let published: Vec<_> = dataset.figures.iter().filter(|q| !q.from_draft).collect();
        package.insert("datapages:quotes".into(), json!(published));
    }
    Value::Object(package)
}

/// A license needs a `name` (an Open Definition id) or a `path`; a license without either
/// points at the page's License section, where its terms are explained.
fn license(site: &Site, dataset: &Dataset) -> Value {
    let mut license = Map::new();
    license.insert("title".into(), json!(dataset.license.name));
    if let Some(id) = &dataset.license.id {
        license.insert("name".into(), json!(id));
    }
    license.insert("path".into(), json!(super::license_url(site, dataset)));
    Value::Object(license)
}

fn source(source: &crate::content::Source) -> Value {
    let mut out = Map::new();
    out.insert("title".into(), json!(source.title));
    out.insert("id".into(), json!(source.id));
    if let Some(url) = &source.url {
        out.insert("path".into(), json!(url));
    }
    if let Some(publisher) = &source.publisher {
        out.insert("publisher".into(), json!(publisher));
    }
    if let Some(published) = &source.published {
        out.insert("published".into(), json!(published));
    }
    if let Some(accessed) = &source.accessed {
        out.insert("accessed".into(), json!(date_string(accessed)));
    }
    Value::Object(out)
}

fn contributors(site: &Site) -> Value {
    let author = &site.config.author;
    let publisher = site.config.publisher();
    let entry = |party: &crate::config::Party, role: &str| {
        let mut out = Map::new();
        out.insert("title".into(), json!(party.name));
        out.insert("roles".into(), json!([role]));
        if let Some(url) = &party.url {
            out.insert("path".into(), json!(url));
        }
        Value::Object(out)
    };
    let mut list = vec![entry(author, "author")];
    if publisher != author {
        list.push(entry(publisher, "publisher"));
    }
    Value::Array(list)
}

fn resource(dataset: &Dataset) -> Value {
    let fields: Vec<Value> = dataset
        .front
        .columns
        .iter()
        .enumerate()
        .map(|(index, column)| {
            let mut field = Map::new();
            field.insert("name".into(), json!(column.name));
            field.insert("title".into(), json!(column.title));
            field.insert(
                "type".into(),
                json!(super::table_schema_type(dataset, index, column.column_type)),
            );
            field.insert("description".into(), json!(column.description));
            if let Some(unit) = &column.unit {
                field.insert("unit".into(), json!(unit));
            }
            if let Some(own) = &column.missing_values {
                // Table Schema v2: a field's own list replaces the schema's.
                let own = MissingValues::resolve(&[Some(own)]);
                field.insert("missingValues".into(), json!(own.list()));
            }
            if column.pandas_numbers {
                // A custom property: cells may read `inf`, `-inf`, `nan` (pandas), meaning
                // Table Schema's `INF`, `-INF`, `NaN`.
                field.insert(
                    "datapages:pandasNumbers".into(),
                    json!({"inf": "INF", "-inf": "-INF", "nan": "NaN"}),
                );
            }
            let mut constraints = Map::new();
            if column.required {
                constraints.insert("required".into(), json!(true));
            }
            if column.unique {
                constraints.insert("unique".into(), json!(true));
            }
            if let Some(values) = &column.enum_values {
                constraints.insert("enum".into(), json!(values));
            }
            if let Some(pattern) = &column.pattern {
                constraints.insert("pattern".into(), json!(pattern));
            }
            for (key, bound) in [("minimum", &column.minimum), ("maximum", &column.maximum)] {
                if let Some(bound) = bound {
                    constraints.insert(key.into(), toml_to_json(bound));
                }
            }
            if !constraints.is_empty() {
                field.insert("constraints".into(), Value::Object(constraints));
            }
            if let Some(profile) = dataset.csv.profiles.get(index) {
                field.insert(
                    "datapages:profile".into(),
                    super::profile::profile_json(profile),
                );
            }
            Value::Object(field)
        })
        .collect();
    let mut schema = Map::new();
    schema.insert("fields".into(), Value::Array(fields));
    let missing = MissingValues::resolve(&[dataset.front.missing_values.as_deref()]);
    schema.insert("missingValues".into(), json!(missing.list()));
    if !dataset.front.primary_key.is_empty() {
        schema.insert("primaryKey".into(), json!(dataset.front.primary_key));
    }
    let mut resource = json!({
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
    if let Some(delimiter) = &dataset.front.delimiter {
        resource["dialect"] = json!({ "delimiter": delimiter });
    }
    resource
}

fn toml_to_json(value: &toml::Value) -> Value {
    match value {
        toml::Value::Integer(i) => json!(i),
        toml::Value::Float(f) => json!(f),
        toml::Value::Datetime(d) => json!(date_string(d)),
        toml::Value::String(s) => json!(s),
        other => json!(other.to_string()),
    }
}
