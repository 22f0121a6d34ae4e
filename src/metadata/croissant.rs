//! Croissant (MLCommons) metadata per dataset, `data/datasets/<slug>.croissant.json`, for the
//! machine-learning and dataset-search platforms that read it (Hugging Face, Kaggle, OpenML,
//! Google Dataset Search): the CSV as a `FileObject` and one `RecordSet` whose fields are
//! extracted from its columns, typed from the front matter and the scan. Typed structs,
//! keys in sorted order.

use serde::ser::{Serialize, SerializeMap, Serializer};

use super::credit::Agent;
use super::jsonld::{organization, Organization};
use crate::dataset::schema::ColumnType;
use crate::dataset::{Dataset, FileDigest};
use crate::layout::urls;
use crate::site::Site;

/// The version of the Croissant specification the files conform to.
pub const CONFORMS_TO: &str = "http://mlcommons.org/croissant/1.0";

/// A term of the `@context`: an IRI, or an IRI with a type.
enum Term {
    Iri(&'static str),
    Typed(&'static str, &'static str),
}

/// The `@context` of Croissant 1.0, exactly as the reference implementation (mlcroissant)
/// expects it: it warns about any missing key. Sorted by key.
const CONTEXT: [(&str, Term); 36] = [
    ("@language", Term::Iri("en")),
    ("@vocab", Term::Iri("https://schema.org/")),
    ("citeAs", Term::Iri("cr:citeAs")),
    ("column", Term::Iri("cr:column")),
    ("conformsTo", Term::Iri("dct:conformsTo")),
    ("cr", Term::Iri("http://mlcommons.org/croissant/")),
    ("data", Term::Typed("cr:data", "@json")),
    ("dataType", Term::Typed("cr:dataType", "@vocab")),
    ("dct", Term::Iri("http://purl.org/dc/terms/")),
    ("equivalentProperty", Term::Iri("cr:equivalentProperty")),
    ("examples", Term::Typed("cr:examples", "@json")),
    ("extract", Term::Iri("cr:extract")),
    ("field", Term::Iri("cr:field")),
    ("fileObject", Term::Iri("cr:fileObject")),
    ("fileProperty", Term::Iri("cr:fileProperty")),
    ("fileSet", Term::Iri("cr:fileSet")),
    ("format", Term::Iri("cr:format")),
    ("includes", Term::Iri("cr:includes")),
    ("isLiveDataset", Term::Iri("cr:isLiveDataset")),
    ("jsonPath", Term::Iri("cr:jsonPath")),
    ("key", Term::Iri("cr:key")),
    ("md5", Term::Iri("cr:md5")),
    ("parentField", Term::Iri("cr:parentField")),
    ("path", Term::Iri("cr:path")),
    ("rai", Term::Iri("http://mlcommons.org/croissant/RAI/")),
    ("recordSet", Term::Iri("cr:recordSet")),
    ("references", Term::Iri("cr:references")),
    ("regex", Term::Iri("cr:regex")),
    ("repeated", Term::Iri("cr:repeated")),
    ("replace", Term::Iri("cr:replace")),
    ("samplingRate", Term::Iri("cr:samplingRate")),
    ("sc", Term::Iri("https://schema.org/")),
    ("separator", Term::Iri("cr:separator")),
    ("source", Term::Iri("cr:source")),
    ("subField", Term::Iri("cr:subField")),
    ("transform", Term::Iri("cr:transform")),
];

/// The `@context` object ([`CONTEXT`]).
struct Context;

impl Serialize for Context {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(CONTEXT.len()))?;
        for (key, term) in &CONTEXT {
            match term {
                Term::Iri(iri) => map.serialize_entry(key, iri)?,
                Term::Typed(id, kind) => map.serialize_entry(key, &TypedTerm { id, kind })?,
            }
        }
        map.end()
    }
}

#[derive(serde::Serialize)]
struct TypedTerm<'a> {
    #[serde(rename = "@id")]
    id: &'a str,
    #[serde(rename = "@type")]
    kind: &'a str,
}

/// The Croissant data type of a column: dates at the precision their cells use. A column of
/// bare years (`1948`) is `sc:Integer`: mlcroissant reads an `sc:Date` of `1948` as
/// nanoseconds after 1970 (`1970-01-01 00:00:00.000001948`), and a year is a whole number.
/// Numbers in decimal commas or with group marks are `sc:Text`: Croissant has no way to
/// declare the marks, and mlcroissant's CSV reader (pandas) reads such numbers as text.
/// A formatted date column (`04/03/2019`) is `sc:Text` too, its format stated in the
/// description: mlcroissant reads an `sc:Date` with pandas' guess, month first, and its
/// `format` only writes dates, it does not read them.
fn data_type(dataset: &Dataset, index: usize, column_type: ColumnType) -> &'static str {
    let marked = dataset
        .front
        .columns
        .get(index)
        .is_some_and(|column| !dataset.front.number_marks(column).is_plain());
    match super::table_schema_type(dataset, index, column_type) {
        _ if marked => "sc:Text",
        "date" | "datetime" if super::date_format(dataset, index).is_some() => "sc:Text",
        other => data_type_of(other),
    }
}

/// The Croissant data type for a Table Schema type.
fn data_type_of(table_schema_type: &str) -> &'static str {
    match table_schema_type {
        "integer" | "year" => "sc:Integer",
        "number" => "sc:Float",
        "boolean" => "sc:Boolean",
        "datetime" => "sc:DateTime",
        "date" | "yearmonth" => "sc:Date",
        _ => "sc:Text",
    }
}

/// A Croissant `sc:Dataset`, keys in sorted order.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CroissantDataset<'a> {
    #[serde(rename = "@context")]
    context: Context,
    #[serde(rename = "@type")]
    kind: &'static str,
    cite_as: String,
    conforms_to: &'static str,
    creator: Vec<Agent>,
    #[serde(skip_serializing_if = "Option::is_none")]
    date_created: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    date_modified: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    date_published: Option<String>,
    description: String,
    /// The CSV, and each alternate of it the registry's outputs wrote. The fields extract
    /// from the CSV, or from a typed copy when the CSV needs a reading option Croissant
    /// cannot state ([`typed_copy`]).
    distribution: Vec<FileObject<'a>>,
    is_live_dataset: bool,
    keywords: &'a [String],
    license: String,
    name: &'a str,
    publisher: Organization<'a>,
    record_set: [RecordSet<'a>; 1],
    #[serde(skip_serializing_if = "Option::is_none")]
    temporal_coverage: Option<&'a str>,
    url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<&'a str>,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct FileObject<'a> {
    #[serde(rename = "@id")]
    id: CsvName<'a>,
    #[serde(rename = "@type")]
    kind: &'static str,
    content_size: String,
    content_url: String,
    encoding_format: &'static str,
    name: CsvName<'a>,
    sha256: crate::checksum::Sha256,
}

#[derive(serde::Serialize)]
struct RecordSet<'a> {
    #[serde(rename = "@id")]
    id: &'a str,
    #[serde(rename = "@type")]
    kind: &'static str,
    description: String,
    field: Vec<Field<'a>>,
    /// The fields of the `primary_key`: they tell the records apart.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    key: Vec<IdOf>,
    name: &'a str,
}

/// A reference to a node by its `@id` (here a field's).
#[derive(serde::Serialize)]
struct IdOf {
    #[serde(rename = "@id")]
    id: String,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Field<'a> {
    #[serde(rename = "@id")]
    id: String,
    #[serde(rename = "@type")]
    kind: &'static str,
    data_type: &'static str,
    description: String,
    name: &'a str,
    source: FieldSource<'a>,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct FieldSource<'a> {
    extract: Extract<'a>,
    file_object: IdRef<'a>,
}

#[derive(serde::Serialize)]
struct Extract<'a> {
    column: &'a str,
}

#[derive(serde::Serialize)]
struct IdRef<'a> {
    #[serde(rename = "@id")]
    id: CsvName<'a>,
}

/// The Croissant description of one dataset.
pub fn dataset<'a>(
    site: &'a Site,
    dataset: &'a Dataset,
    written: &[FileDigest],
) -> CroissantDataset<'a> {
    let front = &dataset.front;
    let slug = &dataset.slug;
    let copy = typed_copy(site, dataset, written);
    let file_id = CsvName(slug, copy.map_or("csv", |(format, _)| format));
    // R's row names (an empty header) are left out: mlcroissant's CSV reader (pandas)
    // renames that header `Unnamed: 0`, so no field could name it.
    let field = front
        .columns
        .iter()
        .enumerate()
        .filter(|(_, column)| !column.is_row_names())
        .map(|(index, column)| {
            let mut description = column.description.clone();
            if let Some(unit) = &column.unit {
                // Croissant 1.0 has no unit property: the unit is stated in words.
                description.push_str(&format!(" Unit: {unit}."));
            }
            if let Some(pattern) = &column.format {
                description.push_str(&super::format_sentence(pattern));
            }
            Field {
                id: field_id(slug, &column.name),
                kind: "cr:Field",
                data_type: data_type(dataset, index, column.column_type),
                description,
                name: &column.name,
                source: FieldSource {
                    extract: Extract {
                        column: &column.name,
                    },
                    file_object: IdRef { id: file_id },
                },
            }
        })
        .collect();
    let created = front.created.as_ref().map(crate::content::date_string);
    let updated = super::updated(site, dataset);
    CroissantDataset {
        context: Context,
        kind: "sc:Dataset",
        cite_as: super::citation(site, dataset),
        conforms_to: CONFORMS_TO,
        creator: super::credit::agents(site, dataset),
        // First published when the page was created; else the date the page states.
        date_published: created.clone().or_else(|| updated.clone()),
        date_created: created,
        date_modified: updated,
        description: dataset.description(),
        distribution: std::iter::once(FileObject {
            id: CsvName(slug, "csv"),
            kind: "cr:FileObject",
            content_size: format!("{} B", dataset.csv.bytes),
            content_url: site.outputs.url_of(
                &dataset.data_place(&site.config),
                slug,
                &urls::csv_file(slug),
            ),
            encoding_format: "text/csv",
            name: CsvName(slug, "csv"),
            sha256: dataset.csv.sha256,
        })
        .chain(
            site.outputs
                .alternates(slug, written)
                .map(|(output, format, file)| {
                    let id = CsvName(slug, format);
                    FileObject {
                        id,
                        kind: "cr:FileObject",
                        content_size: format!("{} B", file.bytes),
                        content_url: site.outputs.url_of(
                            &dataset.data_place(&site.config),
                            slug,
                            &file.path,
                        ),
                        encoding_format: output.croissant_format(),
                        name: id,
                        sha256: file.sha256,
                    }
                }),
        )
        .collect(),
        is_live_dataset: false,
        keywords: &front.tags,
        license: super::license_url(site, dataset),
        name: &front.title,
        publisher: organization(site.config.publisher()),
        record_set: [RecordSet {
            id: slug,
            kind: "cr:RecordSet",
            description: match copy {
                Some((_, named)) => {
                    format!("The rows of {slug}.csv, one record per row, read from its {named}.")
                }
                None => format!("The rows of {slug}.csv, one record per row."),
            },
            field,
            key: record_key(dataset),
            name: slug,
        }],
        temporal_coverage: front.temporal_coverage.as_deref(),
        url: super::page_url(site, dataset),
        version: front.version.as_deref(),
    }
}

/// Whether the CSV needs a reading option that Croissant (mlcroissant reads a CSV with
/// pandas' defaults) and some snippets' readers (Polars, DuckDB) cannot state, so that they
/// would load other values than the page: padded fields (`skip_initial_space`), a missing
/// value pandas does not know (`-` in a column of integers), or a text value pandas takes
/// for a missing one (the Italian town `None`, Namibia's `NA`). A typed copy's `"auto"`
/// writes it for such a CSV whatever its size.
pub fn csv_needs_typed_copy(dataset: &Dataset) -> bool {
    let front = &dataset.front;
    let unknown_missing = crate::content::dialect::columns_missing_values(
        &front.columns,
        front.missing_values.as_deref(),
    )
    .iter()
    .any(|missing| {
        missing
            .list()
            .iter()
            .any(|t| !crate::content::dialect::PANDAS_MISSING.contains(&t.as_str()))
    });
    let lost_text = dataset.csv.profiles.iter().any(|p| p.pandas_missing);
    front.skip_initial_space || unknown_missing || lost_text
}

/// The typed copy the fields extract from rather than the CSV, as its format name and
/// how a description names it: the first the registry's outputs wrote
/// ([`crate::site::outputs::DatasetOutput::typed_copy`]), when the CSV needs one
/// ([`csv_needs_typed_copy`]).
fn typed_copy(
    site: &Site,
    dataset: &Dataset,
    written: &[FileDigest],
) -> Option<(&'static str, &'static str)> {
    if !csv_needs_typed_copy(dataset) {
        return None;
    }
    (site.outputs.alternates(&dataset.slug, written))
        .find_map(|(output, format, _)| Some((format, output.typed_copy()?)))
}

/// The RecordSet's `key`: the fields of the `primary_key`, none when it names R's row
/// names (an empty header, which has no field).
fn record_key(dataset: &Dataset) -> Vec<IdOf> {
    let front = &dataset.front;
    let column = |name: &String| front.columns.iter().find(|c| &c.name == name);
    let fields: Option<Vec<IdOf>> = (front.primary_key.iter())
        .map(|name| {
            let named = column(name).filter(|c| !c.is_row_names())?;
            Some(IdOf {
                id: field_id(&dataset.slug, &named.name),
            })
        })
        .collect();
    fields.unwrap_or_default()
}

/// `<slug>.csv` (or `.<format>` of an alternate), the `@id` of a `FileObject`, written without a copy per
/// field.
#[derive(Clone, Copy)]
struct CsvName<'a>(&'a str, &'static str);

impl Serialize for CsvName<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&format_args!("{}.{}", self.0, self.1))
    }
}

/// A column's field `@id`: `<slug>/` and the column's name percent-encoded (every byte
/// but letters, digits and `-._~`, and the dots of a name that is only dots), so each
/// column has its own: `x/../id` stays apart from `id`, and `../cols` or `..` never
/// resolve onto the RecordSet or the file.
fn field_id(slug: &str, name: &str) -> String {
    use std::fmt::Write as _;
    let mut id = String::with_capacity(slug.len() + 1 + name.len());
    id.push_str(slug);
    id.push('/');
    let only_dots = name.bytes().all(|b| b == b'.');
    for byte in name.bytes() {
        let kept = byte.is_ascii_alphanumeric()
            || matches!(byte, b'-' | b'_' | b'~')
            || (byte == b'.' && !only_dots);
        if kept {
            id.push(char::from(byte));
        } else {
            let _ = write!(id, "%{byte:02X}");
        }
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_ids_are_encoded_and_one_per_column() {
        assert_eq!(field_id("s", "rate_2024.v1"), "s/rate_2024.v1");
        assert_eq!(field_id("s", "x/../id"), "s/x%2F..%2Fid");
        assert_eq!(field_id("s", "../cols"), "s/..%2Fcols");
        assert_eq!(field_id("s", ".."), "s/%2E%2E");
        assert_eq!(field_id("s", "a b#é"), "s/a%20b%23%C3%A9");
        let names = [
            "id", "x/../id", "../cols", "cols", "..", ".", "%2E", "a%20b", "a b",
        ];
        let ids: std::collections::HashSet<String> =
            names.iter().map(|n| field_id("s", n)).collect();
        assert_eq!(ids.len(), names.len());
        assert!(!ids.contains("s"), "no field takes the RecordSet's id");
    }

    #[test]
    fn years_are_integers_and_other_dates_dates() {
        assert_eq!(data_type_of("year"), "sc:Integer");
        assert_eq!(data_type_of("integer"), "sc:Integer");
        assert_eq!(data_type_of("yearmonth"), "sc:Date");
        assert_eq!(data_type_of("date"), "sc:Date");
        assert_eq!(data_type_of("datetime"), "sc:DateTime");
        assert_eq!(data_type_of("boolean"), "sc:Boolean");
        assert_eq!(data_type_of("string"), "sc:Text");
    }
}
