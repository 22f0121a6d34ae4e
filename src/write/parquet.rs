//! The typed Parquet copy of a dataset's CSV (`data/datasets/<slug>.parquet`): one pass
//! over the CSV, its cells read with the declared types into column buffers, written as a
//! row group every 65,536 rows or 32 MiB of text (`group.rs`), so memory stays flat
//! however long the table. Snappy-compressed; the column descriptions and units are
//! in the file's key-value metadata under [`METADATA_KEY`].
//!
//! The encoding costs only what it saves: a column gets a dictionary only when its values
//! repeat (decided from the first row group, `group.rs`), and statistics are kept per row
//! group, not per page as well (a page index of one or a few pages per column chunk
//! repeats them). A CSV of more than one row group is read on this thread while another
//! encodes the group read before.

mod cells;
mod group;

use std::io::{self, Write};
use std::sync::{mpsc, Arc};

use parquet::basic::{Compression, LogicalType, Repetition, TimeUnit, Type as Physical};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{ColumnPath, Type};

use cells::{CellReader, Kind};
use group::{Group, ROW_GROUP_ROWS};

use crate::checksum::Sha256;
use crate::config::SiteConfig;
use crate::content::columns::{field_name, row_names_field};
use crate::content::dialect::columns_missing_values;
use crate::content::Switch;
use crate::dataset::{Dataset, FileDigest};
use crate::diagnostics::Diagnostic;
use crate::layout;
use crate::metadata::table_schema_type;
use crate::render::table_rows::RowStream;
use crate::site::outputs::{DatasetOutput, Distribution, Download, Stage, WriteContext};

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

/// Writes the Parquet copy of `dataset`'s CSV into `out`; its size and SHA-256.
pub fn write(dataset: &Dataset, path: String, out: impl Write + Send) -> io::Result<FileDigest> {
    let front = &dataset.front;
    let missing = columns_missing_values(&front.columns, front.missing_values.as_deref());
    let mut readers: Vec<CellReader> = front
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
            CellReader::new(
                spec,
                schema_type,
                magnitude,
                front.number_marks(spec),
                missing,
            )
        })
        .collect();
    let kinds: Vec<Kind> = readers.iter().map(|r| r.kind).collect();
    let mut output = Output {
        dataset,
        kinds: &kinds,
        unopened: Some(Digesting {
            inner: out,
            hasher: Default::default(),
            bytes: 0,
        }),
        file: None,
    };
    // The page's row reader: kept per thread, so a small file does not pay for building
    // the CSV parser (a quarter of the copy of a 20-row file).
    let mut csv = RowStream::open(&dataset.csv_path, front.csv_dialect())?;
    let first = Group::new(&kinds);
    if dataset.csv.rows <= ROW_GROUP_ROWS as u64 {
        read_groups(&mut csv, &mut readers, first, |mut group| {
            output.write_group(&mut group)?;
            Ok(group)
        })?;
    } else {
        output = encoded_elsewhere(output, |full| {
            read_groups(&mut csv, &mut readers, first, full)
        })?;
    }
    let digesting = output.finish()?;
    Ok(FileDigest {
        path,
        bytes: digesting.bytes,
        sha256: Sha256::finish(digesting.hasher),
    })
}

/// Reads the CSV's rows into `group`; each full group goes to `full`, which gives back
/// an empty one to fill next. The last group goes too unless it is empty.
fn read_groups(
    csv: &mut RowStream,
    readers: &mut [CellReader],
    mut group: Group,
    mut full: impl FnMut(Group) -> io::Result<Group>,
) -> io::Result<()> {
    let mut record = csv::ByteRecord::new();
    while csv.read_into(&mut record)? {
        // UTF-8 checked once for the whole record. A cell that is not UTF-8 failed the
        // scan; read lossily, it cannot fail here.
        match csv::StringRecord::from_byte_record(std::mem::take(&mut record)) {
            Ok(text) => {
                group.add(readers, |index| text.get(index).unwrap_or_default());
                record = text.into_byte_record();
            }
            Err(error) => {
                record = error.into_byte_record();
                let cells: Vec<String> = record
                    .iter()
                    .map(|field| String::from_utf8_lossy(field).into_owned())
                    .collect();
                group.add(readers, |index| cells.get(index).map_or("", String::as_str));
            }
        }
        if group.is_full() {
            group = full(group)?;
        }
    }
    if !group.is_empty() {
        full(group)?;
    }
    Ok(())
}

/// Runs `read` here while another thread writes each full group it is given into
/// `output`; a group is handed back for refilling once it is written, so two are in use
/// at most. The output, once both are done.
fn encoded_elsewhere<'a, W: Write + Send>(
    mut output: Output<'a, W>,
    read: impl FnOnce(&mut dyn FnMut(Group) -> io::Result<Group>) -> io::Result<()>,
) -> io::Result<Output<'a, W>> {
    let kinds = output.kinds;
    // A rendezvous: the reader waits while the encoder is still busy with a group.
    let (to_encoder, full) = mpsc::sync_channel::<Group>(0);
    let (to_reader, empty) = mpsc::channel::<Group>();
    std::thread::scope(|scope| {
        let encoder = scope.spawn(move || -> io::Result<Output<'a, W>> {
            for mut group in full {
                output.write_group(&mut group)?;
                // The reader may have stopped; the group is then dropped.
                let _ = to_reader.send(group);
            }
            Ok(output)
        });
        let read = read(&mut |group| {
            to_encoder
                .send(group)
                .map_err(|_| io::Error::other("the Parquet encoder stopped"))?;
            Ok(empty.try_recv().unwrap_or_else(|_| Group::new(kinds)))
        });
        drop(to_encoder);
        // The encoder's own failure says more than the reader's "stopped".
        let output = encoder
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
        read.map(|()| output)
    })
}

/// The output, and its file writer once the first row group is full: which columns get
/// a dictionary is decided from that group's values.
struct Output<'a, W: Write + Send> {
    dataset: &'a Dataset,
    kinds: &'a [Kind],
    unopened: Option<Digesting<W>>,
    file: Option<SerializedFileWriter<Digesting<W>>>,
}

impl<W: Write + Send> Output<'_, W> {
    /// The file writer, opened on the first call; `first` is the first row group
    /// (`None` when the CSV has no rows).
    fn file(
        &mut self,
        first: Option<&Group>,
    ) -> io::Result<&mut SerializedFileWriter<Digesting<W>>> {
        if let Some(out) = self.unopened.take() {
            let schema = schema(self.dataset, self.kinds).map_err(io::Error::other)?;
            let repeats = first.map(Group::repeats).unwrap_or_default();
            let properties = properties(self.dataset, &repeats);
            let file = SerializedFileWriter::new(out, Arc::new(schema), Arc::new(properties))
                .map_err(io::Error::other)?;
            self.file = Some(file);
        }
        self.file.as_mut().ok_or_else(not_open)
    }

    /// Writes `group` as the next row group and empties it.
    fn write_group(&mut self, group: &mut Group) -> io::Result<()> {
        let file = self.file(Some(group))?;
        group.write_into(file)
    }

    /// Closes the file (opened now when the CSV has no rows); the output, flushed.
    fn finish(mut self) -> io::Result<Digesting<W>> {
        self.file(None)?;
        let file = self.file.ok_or_else(not_open)?;
        let mut out = file.into_inner().map_err(io::Error::other)?;
        out.flush()?;
        Ok(out)
    }
}

/// A file whose opening failed is not written to again (the failure was returned).
fn not_open() -> io::Error {
    io::Error::other("the Parquet file could not be opened")
}

/// Snappy, row groups of [`ROW_GROUP_ROWS`], statistics per row group, the column
/// descriptions, and a dictionary for each column whose first row group `repeats`.
fn properties(dataset: &Dataset, repeats: &[bool]) -> WriterProperties {
    let mut builder = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_dictionary_enabled(false)
        .set_key_value_metadata(Some(vec![KeyValue::new(
            METADATA_KEY.to_string(),
            described_columns(dataset),
        )]));
    let row_names = row_names_field(&dataset.front.columns);
    for (spec, _) in dataset
        .front
        .columns
        .iter()
        .zip(repeats)
        .filter(|(_, r)| **r)
    {
        let path = ColumnPath::new(vec![field_name(&spec.name, &row_names).to_string()]);
        builder = builder.set_column_dictionary_enabled(path, true);
    }
    builder.build()
}

/// The file's schema: one optional column per CSV column, named as the metadata names it
/// (R's empty row-names header as `rownames`, or another name no column has).
fn schema(dataset: &Dataset, kinds: &[Kind]) -> parquet::errors::Result<Type> {
    let row_names = row_names_field(&dataset.front.columns);
    let fields = dataset
        .front
        .columns
        .iter()
        .zip(kinds)
        .map(|(spec, kind)| {
            let (physical, logical) = match *kind {
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
            Type::primitive_type_builder(field_name(&spec.name, &row_names), physical)
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
    let row_names = row_names_field(&dataset.front.columns);
    #[derive(serde::Serialize)]
    struct Columns<'a> {
        columns: Vec<Described<'a>>,
    }
    let columns = dataset
        .front
        .columns
        .iter()
        .map(|c| Described {
            name: field_name(&c.name, &row_names),
            title: &c.title,
            column_type: c.column_type.as_str(),
            description: &c.description,
            unit: c.unit.as_deref(),
        })
        .collect();
    serde_json::to_string(&Columns { columns }).unwrap_or_default()
}

/// The Parquet copy as a per-dataset output (`parquet = false` turns it off): kept by
/// `serve` when the CSV and the columns are the same.
pub struct ParquetCopy;

const DISTRIBUTION: Distribution = Distribution {
    fragment: "parquet",
    title: "Parquet",
    description:
        "The same table as Apache Parquet, each column typed as declared, missing values as nulls.",
    file_type: "PARQUET",
    conforms_to: None,
};

const DOWNLOAD: Download = Download {
    key: "parquet",
    label: "Typed copy",
    name: "Parquet",
    phrase: "the typed Parquet copy",
    order: 1,
};

/// The Parquet copy's file, beside the CSV.
pub fn file(slug: &str) -> String {
    format!("{}/{slug}.parquet", layout::DATA_DATASETS)
}

impl DatasetOutput for ParquetCopy {
    /// The dataset's own `parquet`, else site.toml's; `"auto"` from `parquet_min_bytes`
    /// of CSV.
    fn is_on(&self, config: &SiteConfig, dataset: &Dataset) -> bool {
        match dataset.front.parquet.unwrap_or(config.parquet) {
            Switch::On => true,
            Switch::Off => false,
            Switch::Auto => {
                dataset.csv.bytes >= config.parquet_min_bytes
                    || crate::metadata::croissant::csv_needs_typed_copy(dataset)
            }
        }
    }
    fn file_for(&self, slug: &str) -> Option<String> {
        Some(file(slug))
    }
    fn elsewhere(&self) -> bool {
        true
    }
    /// Registered with IANA in 2024.
    fn media_type(&self) -> &'static str {
        "application/vnd.apache.parquet"
    }
    fn distribution(&self) -> Option<&Distribution> {
        Some(&DISTRIBUTION)
    }
    fn alternate(&self) -> Option<&'static str> {
        Some("parquet")
    }
    /// mlcroissant reads no other name for it.
    fn croissant_format(&self) -> &'static str {
        "application/x-parquet"
    }
    fn typed_copy(&self) -> Option<&'static str> {
        Some("typed Parquet copy")
    }
    fn download(&self) -> Option<&Download> {
        Some(&DOWNLOAD)
    }
    fn catalog_key(&self) -> Option<&'static str> {
        Some("parquet")
    }
    fn setting(&self) -> Option<&'static str> {
        Some("parquet")
    }
    fn stage(&self) -> Stage {
        Stage::Table
    }
    /// The same bytes from the same CSV: the same columns (names, types, words, formats,
    /// marks, missing values), delimiter, dataset-wide missing values and marks.
    fn still_holds(&self, before: &Dataset, now: &Dataset) -> bool {
        let (a, b) = (&before.front, &now.front);
        a.columns == b.columns
            && a.delimiter == b.delimiter
            && a.skip_initial_space == b.skip_initial_space
            && a.missing_values == b.missing_values
            && a.decimal == b.decimal
            && a.group == b.group
    }
    fn write(&self, context: &WriteContext) -> Result<Vec<FileDigest>, Diagnostic> {
        let (dataset, files) = (context.dataset, context.files);
        // `check` keeps no file: the copy is only its bytes (the CSV's cells were checked).
        if files.keeps_nothing() {
            return Ok(Vec::new());
        }
        let path = file(&dataset.slug);
        let mut digest = None;
        files
            .put_stream(&path, &mut |out| {
                digest = Some(write(dataset, path.clone(), out)?);
                Ok(())
            })
            .map_err(|e| {
                Diagnostic::error(
                    &dataset.csv_display,
                    format!("cannot write its Parquet copy {path}: {e}"),
                )
                .with_hint("check free disk space; or set `parquet = false` in its front matter")
            })?;
        Ok(digest.into_iter().collect())
    }
}
