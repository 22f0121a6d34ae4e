//! Croissant (MLCommons) metadata per dataset, `data/datasets/<slug>.croissant.json`, for the
//! machine-learning and dataset-search platforms that read it (Hugging Face, Kaggle, OpenML,
//! Google Dataset Search): the CSV as a `FileObject` and one `RecordSet` whose fields are
//! extracted from its columns, typed from the front matter and the scan.

use serde_json::{json, Map, Value};

use crate::dataset::schema::ColumnType;
use crate::dataset::Dataset;
use crate::layout::urls;
use crate::site::Site;

/// The version of the Croissant specification the files conform to.
pub const CONFORMS_TO: &str = "http://mlcommons.org/croissant/1.0";

/// The `@context` of Croissant 1.0, exactly as the reference implementation (mlcroissant)
/// expects it: it warns about any missing key.
pub fn context() -> Value {
    json!({
        "@language": "en",
        "@vocab": "https://schema.org/",
        "citeAs": "cr:citeAs",
        "column": "cr:column",
        "conformsTo": "dct:conformsTo",
        "cr": "http://mlcommons.org/croissant/",
        "rai": "http://mlcommons.org/croissant/RAI/",
        "data": {"@id": "cr:data", "@type": "@json"},
        "dataType": {"@id": "cr:dataType", "@type": "@vocab"},
        "dct": "http://purl.org/dc/terms/",
        "equivalentProperty": "cr:equivalentProperty",
        "examples": {"@id": "cr:examples", "@type": "@json"},
        "extract": "cr:extract",
        "field": "cr:field",
        "fileProperty": "cr:fileProperty",
        "fileObject": "cr:fileObject",
        "fileSet": "cr:fileSet",
        "format": "cr:format",
        "includes": "cr:includes",
        "isLiveDataset": "cr:isLiveDataset",
        "jsonPath": "cr:jsonPath",
        "key": "cr:key",
        "md5": "cr:md5",
        "parentField": "cr:parentField",
        "path": "cr:path",
        "recordSet": "cr:recordSet",
        "references": "cr:references",
        "regex": "cr:regex",
        "repeated": "cr:repeated",
        "replace": "cr:replace",
        "samplingRate": "cr:samplingRate",
        "sc": "https://schema.org/",
        "separator": "cr:separator",
        "source": "cr:source",
        "subField": "cr:subField",
        "transform": "cr:transform"
    })
}

/// The Croissant data type of a column: dates at the precision their cells use.
fn data_type(dataset: &Dataset, index: usize, column_type: ColumnType) -> &'static str {
    match super::table_schema_type(dataset, index, column_type) {
        "integer" => "sc:Integer",
        "number" => "sc:Float",
        "boolean" => "sc:Boolean",
        "datetime" => "sc:DateTime",
        "date" | "yearmonth" | "year" => "sc:Date",
        _ => "sc:Text",
    }
}

/// The Croissant description of one dataset.
pub fn dataset(site: &Site, dataset: &Dataset) -> Value {
    let front = &dataset.front;
    let slug = &dataset.slug;
    let file_id = format!("{slug}.csv");
    let fields: Vec<Value> = front
        .columns
        .iter()
        .enumerate()
        .map(|(index, column)| {
            let mut description = column.description.clone();
            if let Some(unit) = &column.unit {
                // Croissant 1.0 has no unit property: the unit is stated in words.
                description.push_str(&format!(" Unit: {unit}."));
            }
            json!({
                "@type": "cr:Field",
                "@id": format!("{slug}/{}", column.name),
                "name": column.name,
                "description": description,
                "dataType": data_type(dataset, index, column.column_type),
                "source": {
                    "fileObject": {"@id": file_id},
                    "extract": {"column": column.name},
                },
            })
        })
        .collect();
    let mut out = Map::new();
    out.insert("@context".into(), context());
    out.insert("@type".into(), json!("sc:Dataset"));
    out.insert("conformsTo".into(), json!(CONFORMS_TO));
    out.insert("name".into(), json!(front.title));
    out.insert("description".into(), json!(super::description(dataset)));
    out.insert("url".into(), json!(super::page_url(site, dataset)));
    out.insert("license".into(), json!(super::license_url(site, dataset)));
    out.insert(
        "creator".into(),
        super::jsonld::organization(&site.config.author),
    );
    out.insert(
        "publisher".into(),
        super::jsonld::organization(site.config.publisher()),
    );
    out.insert("citeAs".into(), json!(super::citation(site, dataset)));
    out.insert("keywords".into(), json!(front.tags));
    out.insert("isLiveDataset".into(), json!(false));
    if let Some(version) = &front.version {
        out.insert("version".into(), json!(version));
    }
    if let Some(created) = &front.created {
        out.insert(
            "dateCreated".into(),
            json!(crate::content::date_string(created)),
        );
    }
    let created = front.created.as_ref().map(crate::content::date_string);
    let updated = super::updated(site, dataset);
    // First published when the page was created; else the date the page states.
    if let Some(published) = created.as_ref().or(updated.as_ref()) {
        out.insert("datePublished".into(), json!(published));
    }
    if let Some(updated) = updated {
        out.insert("dateModified".into(), json!(updated));
    }
    if let Some(coverage) = &front.temporal_coverage {
        out.insert("temporalCoverage".into(), json!(coverage));
    }
    out.insert(
        "distribution".into(),
        json!([{
            "@type": "cr:FileObject",
            "@id": file_id,
            "name": file_id,
            "contentUrl": site.config.absolute_url(&urls::csv_file(slug)),
            "contentSize": format!("{} B", dataset.csv.bytes),
            "encodingFormat": "text/csv",
            "sha256": dataset.csv.sha256,
        }]),
    );
    out.insert(
        "recordSet".into(),
        json!([{
            "@type": "cr:RecordSet",
            "@id": slug,
            "name": slug,
            "description": format!("The rows of {file_id}, one record per row."),
            "field": fields,
        }]),
    );
    Value::Object(out)
}
