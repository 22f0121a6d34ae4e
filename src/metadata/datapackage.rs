//! The Frictionless Data Package (v2) descriptor written to `data/datasets/<slug>.json`,
//! the page's "JSON metadata" link: one tabular resource with its schema, size and hash.
//!
//! Typed structs borrowed from the dataset, serialized straight to bytes (no
//! `serde_json::Value` tree per dataset). Fields are declared in sorted key order, the
//! order the files have always had (tests/it/metadata_bytes.rs checks it).

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Serialize, Serializer};

use super::profile::Profile;
use super::ChangeView;
use crate::config::Party;
use crate::content::columns::{field_name, row_names_field};
use crate::content::date_string;
use crate::content::dialect::MissingValues;
use crate::content::number_marks::{DecimalMark, GroupMark};
use crate::content::{ColumnSpec, CreatorKind};
use crate::dataset::figures::{Field, Quoted};
use crate::dataset::schema::ColumnType;
use crate::dataset::{Dataset, FileDigest};
use crate::site::Site;

/// The Data Package v2 profile.
pub const PROFILE: &str = "https://datapackage.org/profiles/2.0/datapackage.json";

/// A Data Package descriptor, keys in sorted order.
#[derive(Serialize)]
pub struct Descriptor<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    /// A custom property (allowed by the profile): the page's change history.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    changes: Vec<ChangeView>,
    contributors: Vec<Contributor<'a>>,
    /// The profile wants an RFC 3339 date-time; content dates are days.
    #[serde(skip_serializing_if = "Option::is_none")]
    created: Option<String>,
    /// Not a Data Package property (custom properties are allowed): the same CSV described
    /// for machine-learning platforms.
    croissant: String,
    /// A custom property: the cells the page's text quotes (rows numbered from 1).
    /// Present when the text quotes any figure, even if all of them are from drafts.
    #[serde(rename = "datapages:quotes", skip_serializing_if = "Option::is_none")]
    quotes: Option<Vec<Quote<'a>>>,
    /// A custom property: the kept versions of the CSV (`[[changes]]` `file`), each
    /// published unchanged with its size and SHA-256, and what changed from it to the next.
    #[serde(rename = "datapages:versions", skip_serializing_if = "Vec::is_empty")]
    versions: Vec<super::versions::VersionView>,
    description: String,
    homepage: String,
    keywords: &'a [String],
    licenses: [License<'a>; 1],
    name: &'a str,
    resources: [Resource<'a>; 1],
    sources: Vec<Source<'a>>,
    title: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    updated: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<&'a str>,
}

/// The descriptor for one dataset whose table's files are `written`.
pub fn descriptor<'a>(
    site: &'a Site,
    dataset: &'a Dataset,
    written: &[FileDigest],
) -> Descriptor<'a> {
    let front = &dataset.front;
    Descriptor {
        schema: PROFILE,
        changes: super::changes(dataset),
        contributors: contributors(site, dataset),
        created: front
            .created
            .as_ref()
            .map(|created| format!("{}T00:00:00Z", date_string(created))),
        croissant: site
            .config
            .absolute_url(&crate::layout::urls::croissant_file(&dataset.slug)),
        quotes: (!dataset.figures.is_empty()).then(|| {
            let published = dataset.figures.iter().filter(|q| !q.from_draft);
            published.map(Quote::from).collect()
        }),
        versions: super::versions::versions(site, dataset),
        description: dataset.description(),
        homepage: super::page_url(site, dataset),
        keywords: &front.tags,
        licenses: [License {
            name: dataset.license.id.as_deref(),
            path: super::license_url(site, dataset),
            title: &dataset.license.name,
        }],
        name: &dataset.slug,
        resources: [resource(site, dataset, written)],
        sources: front.sources.iter().map(Source::from).collect(),
        title: &front.title,
        updated: super::updated(site, dataset),
        version: front.version.as_deref(),
    }
}

/// A license needs a `name` (an Open Definition id) or a `path`; a license without either
/// points at the page's License section, where its terms are explained.
#[derive(Serialize)]
struct License<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    path: String,
    title: &'a str,
}

#[derive(Serialize)]
struct Source<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    accessed: Option<String>,
    id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    published: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    publisher: Option<&'a str>,
    title: &'a str,
}

impl<'a> From<&'a crate::content::Source> for Source<'a> {
    fn from(source: &'a crate::content::Source) -> Self {
        Source {
            accessed: source.accessed.as_ref().map(date_string),
            id: &source.id,
            path: source.url.as_deref(),
            published: source.published.as_deref(),
            publisher: source.publisher.as_deref(),
            title: &source.title,
        }
    }
}

/// A Data Package v2 contributor, keys in sorted order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Contributor<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    family_name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    given_name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    organization: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<String>,
    roles: [&'static str; 1],
    title: String,
}

/// The dataset's creators (role `creator`), then the site's publisher and, when it is
/// another party, its author (`dataCurator`); without creators, the site's author is the
/// `author` as before.
fn contributors<'a>(site: &'a Site, dataset: &'a Dataset) -> Vec<Contributor<'a>> {
    let author = &site.config.author;
    let publisher = site.config.publisher();
    fn entry<'a>(party: &'a Party, role: &'static str) -> Contributor<'a> {
        Contributor {
            family_name: None,
            given_name: None,
            organization: None,
            path: party.url.clone(),
            roles: [role],
            title: party.name.clone(),
        }
    }
    if dataset.front.creators.is_empty() {
        let mut list = vec![entry(author, "author")];
        if publisher != author {
            list.push(entry(publisher, "publisher"));
        }
        return list;
    }
    let mut list: Vec<Contributor> = dataset
        .front
        .creators
        .iter()
        .map(|creator| {
            let person = creator.kind == CreatorKind::Person;
            let parts = creator.person_name();
            Contributor {
                family_name: person.then_some(parts.family),
                given_name: parts.given.filter(|_| person),
                organization: creator.affiliation.as_deref(),
                path: creator.orcid_url().or_else(|| creator.url.clone()),
                roles: ["creator"],
                title: creator.reading_name(),
            }
        })
        .collect();
    list.push(entry(publisher, "publisher"));
    if publisher != author {
        list.push(entry(author, "dataCurator"));
    }
    list
}

/// A quoted figure as `datapages:quotes` lists it.
#[derive(Serialize)]
struct Quote<'a> {
    /// None for a figure computed from several columns (no `null` is written).
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dataset: Option<&'a str>,
    field: &'a Field,
    function: &'static str,
    line: usize,
    rows: &'a [u64],
    text: &'a str,
    value: &'a str,
}

impl<'a> From<&'a Quoted> for Quote<'a> {
    fn from(q: &'a Quoted) -> Self {
        Quote {
            column: q.column.as_deref(),
            dataset: q.dataset.as_deref(),
            field: &q.field,
            function: q.function,
            line: q.line,
            rows: &q.rows,
            text: &q.text,
            value: &q.value,
        }
    }
}

#[derive(Serialize)]
struct Resource<'a> {
    bytes: u64,
    columns: usize,
    /// Custom properties (allowed by the profile), `datapages:<format>`: the same table in
    /// another format beside the CSV (a typed copy), an alternate of this
    /// resource rather than a second one (its rows are this resource's rows; tools that
    /// read only the CSV are not asked to read it). Each output that names an alternate
    /// (`DatasetOutput::alternate`) and has a file for this dataset.
    #[serde(flatten)]
    alternates: BTreeMap<String, Alternate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dialect: Option<Dialect<'a>>,
    encoding: &'static str,
    format: &'static str,
    hash: String,
    mediatype: &'static str,
    name: &'a str,
    path: String,
    rows: u64,
    schema: Schema<'a>,
    #[serde(rename = "type")]
    kind: &'static str,
}

/// An alternate file as a [`Resource`] states it: `path` beside the descriptor, `format`,
/// `mediatype`, `bytes`, `hash` as the resource's own are.
#[derive(Serialize)]
struct Alternate {
    bytes: u64,
    format: &'static str,
    hash: String,
    mediatype: &'static str,
    path: String,
}

/// The `datapages:<format>` alternates of the resource of the dataset `slug`, among its
/// files `written`.
fn alternates(
    site: &Site,
    dataset: &Dataset,
    written: &[FileDigest],
) -> BTreeMap<String, Alternate> {
    let alternates = site.outputs.alternates(&dataset.slug, written);
    alternates
        .map(|(output, format, file)| {
            let alternate = Alternate {
                bytes: file.bytes,
                format,
                hash: format!("sha256:{}", file.sha256),
                mediatype: output.media_type(),
                path: super::file_reference(site, dataset, &file.path),
            };
            (format!("datapages:{format}"), alternate)
        })
        .collect()
}

/// `{"delimiter": …}`, also CSVW's dialect; `"skipInitialSpace": true` for padded fields
/// (the name and meaning in both). With R's row names (an empty first header,
/// which frictionless reports as a blank label) the header is read as a comment row and
/// the fields by position: `{"commentRows": [1], "header": false}`.
#[derive(Serialize, Default)]
pub(super) struct Dialect<'a> {
    #[serde(rename = "commentRows", skip_serializing_if = "Option::is_none")]
    pub comment_rows: Option<[u32; 1]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delimiter: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub header: Option<bool>,
    #[serde(rename = "skipInitialSpace", skip_serializing_if = "Option::is_none")]
    pub skip_initial_space: Option<bool>,
}

#[derive(Serialize)]
struct Schema<'a> {
    fields: Vec<SchemaField<'a>>,
    #[serde(rename = "missingValues")]
    missing_values: Vec<String>,
    #[serde(rename = "primaryKey", skip_serializing_if = "Vec::is_empty")]
    primary_key: Vec<Cow<'a, str>>,
    /// The keys to this table's own rows (a reference without `resource`, Data Package
    /// 2.0); keys to another dataset's table name a resource of another package, which
    /// Table Schema cannot state.
    #[serde(rename = "foreignKeys", skip_serializing_if = "Vec::is_empty")]
    foreign_keys: Vec<serde_json::Value>,
}

#[derive(Serialize)]
struct SchemaField<'a> {
    #[serde(skip_serializing_if = "Constraints::is_empty")]
    constraints: Constraints<'a>,
    /// A custom property: the spellings of infinity and not-a-number the cells may use
    /// (pandas' `inf`, R's `Inf`…), each with Table Schema's (`INF`, `-INF`, `NaN`).
    /// frictionless and csvw read them as those already.
    #[serde(
        rename = "datapages:nonFinite",
        skip_serializing_if = "Option::is_none"
    )]
    non_finite: Option<std::collections::BTreeMap<&'static str, &'static str>>,
    #[serde(rename = "datapages:profile", skip_serializing_if = "Option::is_none")]
    profile: Option<Profile<'a>>,
    /// The decimal mark of a number column, when it is not a point.
    #[serde(rename = "decimalChar", skip_serializing_if = "Option::is_none")]
    decimal_char: Option<&'static str>,
    description: String,
    /// A boolean's spellings in the CSV (Table Schema's defaults read them too; stated so
    /// a reader need not know the defaults).
    #[serde(rename = "falseValues", skip_serializing_if = "Vec::is_empty")]
    false_values: Vec<&'static str>,
    /// The mark between groups of three digits, when the column declares one.
    #[serde(rename = "groupChar", skip_serializing_if = "Option::is_none")]
    group_char: Option<&'static str>,
    /// A date column's strftime pattern, where Python's `strptime` (Frictionless) reads it.
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<&'a str>,
    /// Table Schema v2: a field's own list replaces the schema's.
    #[serde(rename = "missingValues", skip_serializing_if = "Option::is_none")]
    missing_values: Option<Vec<String>>,
    name: Cow<'a, str>,
    title: &'a str,
    #[serde(rename = "trueValues", skip_serializing_if = "Vec::is_empty")]
    true_values: Vec<&'static str>,
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    unit: Option<&'a str>,
}

#[derive(Serialize)]
struct Constraints<'a> {
    #[serde(rename = "enum", skip_serializing_if = "Option::is_none")]
    enum_values: Option<&'a [String]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    maximum: Option<Bound<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    minimum: Option<Bound<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pattern: Option<String>,
    #[serde(skip_serializing_if = "is_false")]
    required: bool,
    #[serde(skip_serializing_if = "is_false")]
    unique: bool,
}

impl Constraints<'_> {
    fn is_empty(&self) -> bool {
        self.enum_values.is_none()
            && self.maximum.is_none()
            && self.minimum.is_none()
            && self.pattern.is_none()
            && !self.required
            && !self.unique
    }
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// A `minimum` or `maximum` as JSON: numbers as numbers, dates as `YYYY-MM-DD`, anything
/// else as its TOML text.
struct Bound<'a>(&'a toml::Value);

impl Serialize for Bound<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            toml::Value::Integer(i) => serializer.serialize_i64(*i),
            toml::Value::Float(f) => serializer.serialize_f64(*f),
            toml::Value::Datetime(d) => serializer.serialize_str(&date_string(d)),
            toml::Value::String(s) => serializer.serialize_str(s),
            other => serializer.serialize_str(&other.to_string()),
        }
    }
}

/// One field; `profiled`: the column is in the page's table, so its profile is given as the
/// page shows it (the others, on a very wide table, are named and typed without one).
fn schema_field<'a>(
    dataset: &'a Dataset,
    index: usize,
    column: &'a ColumnSpec,
    profiled: bool,
    row_names: &str,
) -> SchemaField<'a> {
    let spellings = match column.column_type {
        ColumnType::Boolean => super::boolean_spellings(dataset, index),
        _ => Default::default(),
    };
    let marks = dataset.front.number_marks(column);
    // frictionless (5.21) reads integer cells only bare: an integer column with group marks
    // is declared a number with them, with a decimal mark other than its group mark.
    let grouped_integer = column.column_type == ColumnType::Integer && marks.group.is_some();
    let decimal_char = match (grouped_integer, marks.group) {
        (true, Some(GroupMark::Point)) => Some(DecimalMark::Comma.as_str()),
        (true, _) => None,
        (false, _) => (marks.decimal != DecimalMark::Point).then(|| marks.decimal.as_str()),
    };
    let date_format = super::date_format(dataset, index);
    let mut description = column.description.clone();
    let (mut format, mut format_regex) = (None, None);
    if let Some((pattern, compiled)) = &date_format {
        description.push_str(&super::format_sentence(pattern));
        match compiled.strptime_reads() {
            true => format = Some(*pattern),
            // Weeks and quarters are strings, matched by the pattern the format implies.
            false => format_regex = Some(compiled.regex()),
        }
    }
    SchemaField {
        constraints: Constraints {
            enum_values: column.enum_values.as_deref(),
            maximum: column.maximum.as_ref().map(Bound),
            minimum: column.minimum.as_ref().map(Bound),
            pattern: column.pattern.clone().or(format_regex),
            required: column.required,
            unique: column.unique,
        },
        non_finite: column
            .non_finite_spelling()
            .map(|spelling| spelling.spellings().into_iter().collect()),
        decimal_char,
        group_char: marks.group.map(GroupMark::as_str),
        profile: match profiled {
            true => dataset.csv.profiles.get(index).map(Profile::of),
            false => None,
        },
        description,
        format,
        missing_values: column
            .missing_values
            .as_ref()
            .map(|own| MissingValues::resolve(&[Some(own)]).list()),
        name: match column.is_row_names() {
            true => Cow::Owned(row_names.to_string()),
            false => Cow::Borrowed(&column.name),
        },
        title: &column.title,
        true_values: spellings.iter().map(|s| s.forms().0).collect(),
        false_values: spellings.iter().map(|s| s.forms().1).collect(),
        kind: match grouped_integer {
            true => "number",
            false => super::table_schema_type(dataset, index, column.column_type),
        },
        unit: column.unit.as_deref(),
    }
}

fn resource<'a>(site: &Site, dataset: &'a Dataset, written: &[FileDigest]) -> Resource<'a> {
    let table_columns = site.config.table_columns;
    let front = &dataset.front;
    let mut profiled = vec![false; front.columns.len()];
    for i in dataset.shown_columns(table_columns) {
        if let Some(flag) = profiled.get_mut(i) {
            *flag = true;
        }
    }
    let row_names = row_names_field(&front.columns);
    let fields = front
        .columns
        .iter()
        .zip(profiled)
        .enumerate()
        .map(|(index, (column, profiled))| {
            schema_field(dataset, index, column, profiled, &row_names)
        })
        .collect();
    let missing = MissingValues::resolve(&[front.missing_values.as_deref()]);
    Resource {
        bytes: dataset.csv.bytes,
        columns: dataset.csv.header.len(),
        alternates: alternates(site, dataset, written),
        dialect: {
            let row_names = front.columns.first().is_some_and(ColumnSpec::is_row_names);
            let dialect = Dialect {
                comment_rows: row_names.then_some([1]),
                delimiter: front.delimiter.as_deref(),
                header: row_names.then_some(false),
                skip_initial_space: front.skip_initial_space.then_some(true),
            };
            (row_names || dialect.delimiter.is_some() || front.skip_initial_space)
                .then_some(dialect)
        },
        encoding: "utf-8",
        format: "csv",
        hash: format!("sha256:{}", dataset.csv.sha256),
        mediatype: "text/csv",
        name: &dataset.slug,
        path: super::file_reference(site, dataset, &crate::layout::urls::csv_file(&dataset.slug)),
        rows: dataset.csv.rows,
        schema: Schema {
            fields,
            missing_values: missing.list(),
            primary_key: front
                .primary_key
                .iter()
                .map(|k| Cow::Owned(field_name(k, &row_names).to_string()))
                .collect(),
            foreign_keys: (front.foreign_keys.iter())
                .filter(|key| key.names_own_rows(&dataset.slug))
                .map(|key| {
                    let names = |fields: &[String]| -> Vec<String> {
                        let named = fields.iter().map(|f| field_name(f, &row_names).to_string());
                        named.collect()
                    };
                    serde_json::json!({
                        "fields": names(&key.fields),
                        "reference": { "fields": names(&key.reference.fields) },
                    })
                })
                .collect(),
        },
        kind: "table",
    }
}
