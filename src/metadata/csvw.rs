//! CSV on the Web metadata, written as `data/datasets/<slug>.csv-metadata.json`: the name
//! CSVW processors look for beside `<slug>.csv`.

use serde_json::{json, Map, Value};

use crate::content::dialect::columns_missing_values;
use crate::dataset::schema::ColumnType;
use crate::dataset::Dataset;
use crate::site::Site;

/// The CSVW table description for one dataset.
pub fn table(site: &Site, dataset: &Dataset) -> Value {
    let front = &dataset.front;
    let missing = columns_missing_values(&front.columns, front.missing_values.as_deref());
    let columns: Vec<Value> = dataset
        .front
        .columns
        .iter()
        .enumerate()
        .map(|(index, column)| {
            let mut out = Map::new();
            out.insert("name".into(), json!(column.name));
            out.insert("titles".into(), json!(column.name));
            out.insert(
                "datatype".into(),
                json!(datatype(
                    super::table_schema_type(dataset, index, column.column_type),
                    column.column_type
                )),
            );
            out.insert("required".into(), json!(column.required));
            let missing = &missing[index];
            if missing.has_tokens() {
                out.insert("null".into(), json!(missing.list()));
            } else {
                out.insert("null".into(), json!(""));
            }
            out.insert("dc:title".into(), json!(column.title));
            out.insert("dc:description".into(), json!(column.description));
            if let Some(unit) = &column.unit {
                out.insert("schema:unitText".into(), json!(unit));
            }
            Value::Object(out)
        })
        .collect();
    let mut schema = Map::new();
    schema.insert("columns".into(), Value::Array(columns));
    if !dataset.front.primary_key.is_empty() {
        schema.insert("primaryKey".into(), json!(dataset.front.primary_key));
    }
    let mut table = Map::new();
    table.insert(
        "@context".into(),
        json!(["http://www.w3.org/ns/csvw", {"@language": site.config.language}]),
    );
    table.insert("url".into(), json!(format!("{}.csv", dataset.slug)));
    table.insert("dc:title".into(), json!(dataset.front.title));
    table.insert("dc:description".into(), json!(super::description(dataset)));
    table.insert(
        "dc:license".into(),
        json!({"@id": super::license_url(site, dataset)}),
    );
    table.insert("dcat:keyword".into(), json!(dataset.front.tags));
    table.insert("dc:publisher".into(), json!(site.config.publisher().name));
    if let Some(updated) = super::updated(site, dataset) {
        table.insert(
            "dc:modified".into(),
            json!({"@value": updated, "@type": "xsd:date"}),
        );
    }
    if let Some(delimiter) = &front.delimiter {
        table.insert("dialect".into(), json!({ "delimiter": delimiter }));
    }
    table.insert("tableSchema".into(), Value::Object(schema));
    Value::Object(table)
}

/// CSVW built-in datatypes for the Table Schema types datapages writes.
fn datatype(table_schema_type: &str, column_type: ColumnType) -> &'static str {
    match (table_schema_type, column_type) {
        ("year", _) => "gYear",
        ("yearmonth", _) => "gYearMonth",
        ("datetime", _) => "datetime",
        ("date", _) => "date",
        (_, ColumnType::Integer) => "integer",
        (_, ColumnType::Number) => "number",
        (_, ColumnType::Boolean) => "boolean",
        _ => "string",
    }
}
