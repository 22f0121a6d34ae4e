//! The typed Parquet copy of a dataset's CSV (`data/datasets/<slug>.parquet`): one pass
//! over the CSV, its cells read with the declared types into column buffers, written as a
//! row group every [`ROW_GROUP_ROWS`] rows (or [`ROW_GROUP_BYTES`] of text), so memory stays
//! flat however long the table. Snappy-compressed; the column descriptions and units are
//! in the file's key-value metadata under [`METADATA_KEY`].

mod cells;

use std::io::{self, Write};
use std::sync::Arc;

use parquet::basic::{Compression, LogicalType, Repetition, TimeUnit, Type as Physical};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;

use cells::{CellReader, Kind, Value};

use crate::checksum::Sha256;
use crate::content::columns::field_name;
use crate::content::dialect::columns_missing_values;
use crate::dataset::{Dataset, FileDigest};
use crate::metadata::table_schema_type;

/// Rows per row group: large enough for good compression and fast scans, small enough
/// that the buffered values of a wide table stay a few megabytes.
pub const ROW_GROUP_ROWS: usize = 65_536;

/// Text bytes buffered before a row group is written early (long text cells).
pub const ROW_GROUP_BYTES: usize = 32 << 20;

/// The key-value metadata entry that describes the columns: a JSON object
/// `{"columns": [{"name", "title", "type", "description", "unit"}]}` (`unit` only when
/// declared; `type` as declared in the front matter).
pub const METADATA_KEY: &str = "datapages";

/// A writer that counts and hashes what goes through it.
struct Digesting<W: Write> {
    inner: W,
    hasher: sha2::Sha256,
    bytes: u64,
}

impl<W: Write> Write for Digesting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        use sha2::Digest as _;
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// One column's values of the row group being filled.
enum Buffer {
    Integer(Vec<i64>),
    Number(Vec<f64>),
    Boolean(Vec<bool>),
    Date(Vec<i32>),
    Timestamp(Vec<i64>),
    /// The text of every cell, one after another, and where each ends.
    Text(Vec<u8>, Vec<usize>),
}

struct Column {
    reader: CellReader,
    values: Buffer,
    /// 1 for a value, 0 for a null (Parquet's definition levels).
    levels: Vec<i16>,
}

/// Writes the Parquet copy of `dataset`'s CSV into `out`; its size and SHA-256.
pub fn write(dataset: &Dataset, path: String, out: impl Write + Send) -> io::Result<FileDigest> {
    let front = &dataset.front;
    let missing = columns_missing_values(&front.columns, front.missing_values.as_deref());
    let mut columns: Vec<Column> = front
        .columns
        .iter()
        .zip(missing)
        .enumerate()
        .map(|(index, (spec, missing))| {
            let schema_type = table_schema_type(dataset, index, spec.column_type);
            let magnitude = dataset
                .csv
                .profiles
                .get(index)
                .and_then(|p| p.numbers.as_ref())
                .map(|n| n.min.abs().max(n.max.abs()));
            let reader = CellReader::new(
                spec,
                schema_type,
                magnitude,
                front.number_marks(spec),
                missing,
            );
            let values = match reader.kind {
                Kind::Integer => Buffer::Integer(Vec::new()),
                Kind::Number => Buffer::Number(Vec::new()),
                Kind::Boolean => Buffer::Boolean(Vec::new()),
                Kind::Date => Buffer::Date(Vec::new()),
                Kind::Timestamp { .. } => Buffer::Timestamp(Vec::new()),
                Kind::Text => Buffer::Text(Vec::new(), Vec::new()),
            };
            Column {
                reader,
                values,
                levels: Vec::new(),
            }
        })
        .collect();
    let schema = Arc::new(schema(dataset, &columns).map_err(io::Error::other)?);
    let properties = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_key_value_metadata(Some(vec![KeyValue::new(
            METADATA_KEY.to_string(),
            described_columns(dataset),
        )]))
        .build();
    let digesting = Digesting {
        inner: out,
        hasher: Default::default(),
        bytes: 0,
    };
    let mut file = SerializedFileWriter::new(digesting, schema, Arc::new(properties))
        .map_err(io::Error::other)?;
    let mut csv = csv::ReaderBuilder::new()
        .delimiter(front.field_delimiter())
        .flexible(true)
        .has_headers(true)
        .from_path(&dataset.csv_path)
        .map_err(io::Error::other)?;
    let mut record = csv::ByteRecord::new();
    let (mut rows, mut text_bytes) = (0usize, 0usize);
    while csv
        .read_byte_record(&mut record)
        .map_err(io::Error::other)?
    {
        for (index, column) in columns.iter_mut().enumerate() {
            let field = record.get(index).unwrap_or_default();
            let cell = String::from_utf8_lossy(field);
            let value = column.reader.read(&cell);
            column.levels.push(i16::from(value != Value::Null));
            match (&mut column.values, value) {
                (_, Value::Null) => {}
                (Buffer::Integer(v), Value::Integer(n)) => v.push(n),
                (Buffer::Number(v), Value::Number(n)) => v.push(n),
                (Buffer::Boolean(v), Value::Boolean(b)) => v.push(b),
                (Buffer::Date(v), Value::Date(d)) => v.push(d),
                (Buffer::Timestamp(v), Value::Timestamp(t)) => v.push(t),
                (Buffer::Text(bytes, ends), _) => {
                    bytes.extend_from_slice(cell.as_bytes());
                    ends.push(bytes.len());
                    text_bytes += cell.len();
                }
                // A reader gives only its own kind of value.
                _ => *column.levels.last_mut().expect("just pushed") = 0,
            }
        }
        rows += 1;
        if rows == ROW_GROUP_ROWS || text_bytes >= ROW_GROUP_BYTES {
            write_row_group(&mut file, &mut columns)?;
            (rows, text_bytes) = (0, 0);
        }
    }
    if rows > 0 {
        write_row_group(&mut file, &mut columns)?;
    }
    let mut digesting = file.into_inner().map_err(io::Error::other)?;
    digesting.flush()?;
    Ok(FileDigest {
        path,
        bytes: digesting.bytes,
        sha256: Sha256::finish(digesting.hasher),
    })
}

/// Writes the buffered values as one row group and empties the buffers.
fn write_row_group<W: Write + Send>(
    file: &mut SerializedFileWriter<W>,
    columns: &mut [Column],
) -> io::Result<()> {
    let mut group = file.next_row_group().map_err(io::Error::other)?;
    for column in columns.iter_mut() {
        let Some(mut writer) = group.next_column().map_err(io::Error::other)? else {
            break;
        };
        let levels = Some(column.levels.as_slice());
        let written = match &mut column.values {
            Buffer::Integer(v) => writer.typed::<Int64Type>().write_batch(v, levels, None),
            Buffer::Number(v) => writer.typed::<DoubleType>().write_batch(v, levels, None),
            Buffer::Boolean(v) => writer.typed::<BoolType>().write_batch(v, levels, None),
            Buffer::Date(v) => writer.typed::<Int32Type>().write_batch(v, levels, None),
            Buffer::Timestamp(v) => writer.typed::<Int64Type>().write_batch(v, levels, None),
            Buffer::Text(bytes, ends) => {
                // The next group's text gets a buffer of this one's size (no regrowing).
                let next = Vec::with_capacity(bytes.len());
                let all = bytes::Bytes::from(std::mem::replace(bytes, next));
                let mut start = 0;
                let values: Vec<ByteArray> = ends
                    .iter()
                    .map(|&end| {
                        let value = ByteArray::from(all.slice(start..end));
                        start = end;
                        value
                    })
                    .collect();
                ends.clear();
                writer
                    .typed::<ByteArrayType>()
                    .write_batch(&values, levels, None)
            }
        };
        written.map_err(io::Error::other)?;
        writer.close().map_err(io::Error::other)?;
        match &mut column.values {
            Buffer::Integer(v) | Buffer::Timestamp(v) => v.clear(),
            Buffer::Number(v) => v.clear(),
            Buffer::Boolean(v) => v.clear(),
            Buffer::Date(v) => v.clear(),
            Buffer::Text(..) => {}
        }
        column.levels.clear();
    }
    group.close().map_err(io::Error::other)?;
    Ok(())
}

/// The file's schema: one optional column per CSV column, named as the metadata names it
/// (R's empty row-names header as `rownames`).
fn schema(dataset: &Dataset, columns: &[Column]) -> parquet::errors::Result<Type> {
    let fields = dataset
        .front
        .columns
        .iter()
        .zip(columns)
        .map(|(spec, column)| {
            let (physical, logical) = match column.reader.kind {
                Kind::Integer => (Physical::INT64, None),
                Kind::Number => (Physical::DOUBLE, None),
                Kind::Boolean => (Physical::BOOLEAN, None),
                Kind::Date => (Physical::INT32, Some(LogicalType::Date)),
                Kind::Timestamp { utc } => (
                    Physical::INT64,
                    Some(LogicalType::timestamp(utc, TimeUnit::MICROS)),
                ),
                Kind::Text => (Physical::BYTE_ARRAY, Some(LogicalType::String)),
            };
            Type::primitive_type_builder(field_name(&spec.name), physical)
                .with_repetition(Repetition::OPTIONAL)
                .with_logical_type(logical)
                .build()
                .map(Arc::new)
        })
        .collect::<parquet::errors::Result<Vec<_>>>()?;
    Type::group_type_builder("schema")
        .with_fields(fields)
        .build()
}

/// The JSON of [`METADATA_KEY`].
fn described_columns(dataset: &Dataset) -> String {
    #[derive(serde::Serialize)]
    struct Described<'a> {
        name: &'a str,
        title: &'a str,
        #[serde(rename = "type")]
        column_type: &'static str,
        description: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        unit: Option<&'a str>,
    }
    #[derive(serde::Serialize)]
    struct Columns<'a> {
        columns: Vec<Described<'a>>,
    }
    let columns = dataset
        .front
        .columns
        .iter()
        .map(|c| Described {
            name: field_name(&c.name),
            title: &c.title,
            column_type: c.column_type.as_str(),
            description: &c.description,
            unit: c.unit.as_deref(),
        })
        .collect();
    serde_json::to_string(&Columns { columns }).unwrap_or_default()
}
