//! CSV on the Web metadata, written as `data/datasets/<slug>.csv-metadata.json`: the name
//! CSVW processors look for beside `<slug>.csv`. A typed struct, keys in sorted order.

use std::collections::BTreeSet;

use serde::Serialize;

use super::datapackage::Dialect;
use crate::content::columns::{field_name, row_names_field};
use crate::content::date_format::DateKind;
use crate::content::dialect::columns_missing_values;
use crate::content::number_marks::{DecimalMark, GroupMark, NumberMarks};
use crate::dataset::schema::{BooleanSpelling, ColumnType};
use crate::dataset::Dataset;
use crate::site::Site;

/// A CSVW table description, keys in sorted order.
#[derive(Serialize)]
pub struct Table<'a> {
    #[serde(rename = "@context")]
    context: (&'static str, Language<'a>),
    #[serde(rename = "dc:description")]
    description: String,
    #[serde(rename = "dc:license")]
    license: Id,
    #[serde(rename = "dc:modified", skip_serializing_if = "Option::is_none")]
    modified: Option<TypedDate>,
    #[serde(rename = "dc:publisher")]
    publisher: &'a str,
    #[serde(rename = "dc:title")]
    title: &'a str,
    #[serde(rename = "dcat:keyword")]
    keyword: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    dialect: Option<Dialect<'a>>,
    #[serde(rename = "tableSchema")]
    table_schema: TableSchema<'a>,
    url: String,
}

#[derive(Serialize)]
struct Language<'a> {
    #[serde(rename = "@language")]
    language: &'a str,
}

#[derive(Serialize)]
struct Id {
    #[serde(rename = "@id")]
    id: String,
}

#[derive(Serialize)]
struct TypedDate {
    #[serde(rename = "@type")]
    kind: &'static str,
    #[serde(rename = "@value")]
    value: String,
}

#[derive(Serialize)]
struct TableSchema<'a> {
    columns: Vec<Column<'a>>,
    #[serde(rename = "primaryKey", skip_serializing_if = "Vec::is_empty")]
    primary_key: Vec<String>,
    /// The keys to this table's own rows (the reference names the table's own `url`).
    #[serde(rename = "foreignKeys", skip_serializing_if = "Vec::is_empty")]
    foreign_keys: Vec<serde_json::Value>,
}

#[derive(Serialize)]
struct Column<'a> {
    datatype: Datatype,
    #[serde(rename = "dc:description")]
    description: String,
    #[serde(rename = "dc:title")]
    title: &'a str,
    name: String,
    null: Null,
    required: bool,
    #[serde(rename = "schema:unitText", skip_serializing_if = "Option::is_none")]
    unit: Option<&'a str>,
    titles: &'a str,
}

/// A built-in datatype by name, or one derived from it with a `format`.
#[derive(Serialize)]
#[serde(untagged)]
enum Datatype {
    Name(&'static str),
    Derived {
        base: &'static str,
        format: String,
    },
    /// A number written with a decimal comma or group marks (`1.234,5`).
    Marked {
        base: &'static str,
        format: MarkFormat,
    },
}

/// CSVW's numeric `format`: the marks a number column's cells are written with.
#[derive(Serialize)]
struct MarkFormat {
    #[serde(rename = "decimalChar", skip_serializing_if = "Option::is_none")]
    decimal_char: Option<&'static str>,
    #[serde(rename = "groupChar", skip_serializing_if = "Option::is_none")]
    group_char: Option<&'static str>,
}

/// A number or integer column's datatype: the built-in one, or derived from it with the
/// column's decimal and group marks.
fn numeric_datatype(column_type: ColumnType, marks: NumberMarks) -> Datatype {
    let base = match column_type {
        ColumnType::Integer => "integer",
        _ => "decimal",
    };
    let decimal_char = (column_type == ColumnType::Number && marks.decimal != DecimalMark::Point)
        .then(|| marks.decimal.as_str());
    Datatype::Marked {
        base,
        format: MarkFormat {
            decimal_char,
            group_char: marks.group.map(GroupMark::as_str),
        },
    }
}

/// The cell texts that mean "no value": the list, or `""` alone when only the empty cell does.
#[derive(Serialize)]
#[serde(untagged)]
enum Null {
    List(Vec<String>),
    Empty(&'static str),
}

/// The CSVW table description for one dataset.
pub fn table<'a>(site: &'a Site, dataset: &'a Dataset) -> Table<'a> {
    let front = &dataset.front;
    let missing = columns_missing_values(&front.columns, front.missing_values.as_deref());
    let row_names = row_names_field(&front.columns);
    let url = super::file_reference(site, dataset, &crate::layout::urls::csv_file(&dataset.slug));
    let columns = front
        .columns
        .iter()
        .zip(&missing)
        .enumerate()
        .map(|(index, (column, missing))| Column {
            datatype: match column.column_type {
                ColumnType::Boolean => boolean_datatype(dataset, index),
                numeric if !front.number_marks(column).is_plain() => {
                    numeric_datatype(numeric, front.number_marks(column))
                }
                _ if column.format.is_some() => date_datatype(dataset, index),
                other => Datatype::Name(datatype(
                    super::table_schema_type(dataset, index, other),
                    other,
                )),
            },
            description: match &column.format {
                Some(pattern) => column.description.clone() + &super::format_sentence(pattern),
                None => column.description.clone(),
            },
            title: &column.title,
            name: column_name(field_name(&column.name, &row_names)),
            null: match missing.has_tokens() {
                true => Null::List(missing.list()),
                false => Null::Empty(""),
            },
            required: column.required,
            unit: column.unit.as_deref(),
            titles: &column.name,
        })
        .collect();
    Table {
        context: (
            "http://www.w3.org/ns/csvw",
            Language {
                language: &site.config.language,
            },
        ),
        description: dataset.description(),
        license: Id {
            id: super::license_url(site, dataset),
        },
        modified: super::updated(site, dataset).map(|value| TypedDate {
            kind: "xsd:date",
            value,
        }),
        publisher: &site.config.publisher().name,
        title: &front.title,
        keyword: &front.tags,
        dialect: (front.delimiter.is_some() || front.skip_initial_space).then(|| Dialect {
            delimiter: front.delimiter.as_deref(),
            skip_initial_space: front.skip_initial_space.then_some(true),
            ..Dialect::default()
        }),
        table_schema: TableSchema {
            columns,
            primary_key: front
                .primary_key
                .iter()
                .map(|k| column_name(field_name(k, &row_names)))
                .collect(),
            foreign_keys: own_keys(dataset, &row_names, &url),
        },
        url,
    }
}

/// The dataset's foreign keys to its own rows, as CSVW states them (the columns by `name`,
/// the table by its `url`); keys to another dataset's table are not in this one's metadata.
fn own_keys(dataset: &Dataset, row_names: &str, url: &str) -> Vec<serde_json::Value> {
    let names = |fields: &[String]| -> Vec<String> {
        let named = fields.iter().map(|f| column_name(field_name(f, row_names)));
        named.collect()
    };
    (dataset.front.foreign_keys.iter())
        .filter(|key| key.names_own_rows(&dataset.slug))
        .map(|key| {
            serde_json::json!({
                "columnReference": names(&key.fields),
                "reference": { "resource": url, "columnReference": names(&key.reference.fields) },
            })
        })
        .collect()
}

/// A column's CSVW `name`: the header itself when it is a URI template variable name
/// (letters, digits and `_`, not leading), else that header percent-encoded, as CSVW
/// derives a name from a title ("Rural Male" -> `Rural%20Male`). `titles` keeps the header.
fn column_name(header: &str) -> String {
    let mut name = String::with_capacity(header.len());
    for (index, byte) in header.bytes().enumerate() {
        if byte.is_ascii_alphanumeric() || (byte == b'_' && index > 0) {
            name.push(byte as char);
        } else {
            name.push_str(&format!("%{byte:02X}"));
        }
    }
    name
}

/// A boolean column's datatype in the spelling its cells use: CSVW reads `true`, `false`,
/// `1` and `0` by default, and any other pair only through a `format` naming that one pair
/// (`TRUE|FALSE`). A column mixing `TRUE` with `true`, or `True` with `1`, has no single
/// format: it is declared `string`, which CSVW validators accept (the Data Package still says
/// `boolean`, with the spellings as `trueValues` and `falseValues`).
fn boolean_datatype(dataset: &Dataset, index: usize) -> Datatype {
    let formats: BTreeSet<Option<&'static str>> = super::boolean_spellings(dataset, index)
        .into_iter()
        .map(BooleanSpelling::csvw_format)
        .collect();
    let mut formats = formats.into_iter();
    match (formats.next(), formats.next()) {
        (Some(Some(format)), None) => Datatype::Derived {
            base: "boolean",
            format: format.to_string(),
        },
        (None, _) | (Some(None), None) => Datatype::Name("boolean"),
        (Some(_), Some(_)) => Datatype::Name("string"),
    }
}

/// A formatted date column's datatype: CSVW's own date or date-time format where its fixed
/// list has one that reads the cells (`d/M/yyyy`), `gYear`/`gYearMonth` for `%Y`/`%Y-%m`,
/// else a string whose `format` is the regular expression the cells match.
fn date_datatype(dataset: &Dataset, index: usize) -> Datatype {
    let Some((pattern, format)) = super::date_format(dataset, index) else {
        return Datatype::Name("string");
    };
    let base = match format.kind() {
        DateKind::Year if pattern == "%Y" => return Datatype::Name("gYear"),
        DateKind::YearMonth if pattern == "%Y-%m" => return Datatype::Name("gYearMonth"),
        DateKind::DateTime { .. } => "datetime",
        _ => "date",
    };
    match format.csvw_format() {
        Some(format) => Datatype::Derived { base, format },
        None => Datatype::Derived {
            base: "string",
            format: format.regex(),
        },
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_names_are_uri_template_variables() {
        assert_eq!(column_name("throughput_mb_s"), "throughput_mb_s");
        assert_eq!(column_name("Rural Male"), "Rural%20Male");
        assert_eq!(column_name("_id"), "%5Fid");
        assert_eq!(column_name("a.b"), "a%2Eb");
        assert_eq!(column_name("é"), "%C3%A9");
        assert_eq!(
            column_name(field_name("", "rownames")),
            "rownames",
            "R's row names"
        );
    }
}
