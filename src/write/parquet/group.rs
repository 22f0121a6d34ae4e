//! One row group's typed values, column by column, as the CSV is read into it, and what
//! they tell the encoder: whether a column's values repeat enough for a dictionary.

use std::hash::Hash;
use std::io::{self, Write};

use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
use parquet::file::writer::SerializedFileWriter;
use rustc_hash::FxHashSet;

use super::cells::{CellReader, Kind, Value};

/// Rows per row group: large enough for good compression and fast scans, small enough
/// that the buffered values of a wide table stay a few megabytes.
pub const ROW_GROUP_ROWS: usize = 65_536;

/// Bytes of values buffered before a row group is written early: a wide table (1,504
/// columns of modeldata's `grants_other`) or long text cells. Every value counts, its
/// null flag included, so the copy's memory is bounded by bytes whatever the table's shape.
pub const ROW_GROUP_BYTES: usize = 16 << 20;

/// A column is dictionary-encoded when its first row group holds at most one distinct
/// value per this many values: below that, the dictionary and its indices outweigh the
/// plain values, and every value costs a hash for nothing.
const DICTIONARY_RATIO: usize = 2;

/// One column's values of a row group.
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
    values: Buffer,
    /// 1 for a value, 0 for a null (Parquet's definition levels).
    levels: Vec<i16>,
}

/// The rows of one row group.
pub struct Group {
    columns: Vec<Column>,
    rows: usize,
    /// The bytes one row costs whatever its text: each value's fixed width (a text cell's
    /// end offset) and its null flag.
    row_bytes: usize,
    /// The bytes buffered so far.
    bytes: usize,
}

impl Group {
    /// An empty group for columns of `kinds`.
    pub fn new(kinds: &[Kind]) -> Group {
        let columns = kinds
            .iter()
            .map(|kind| Column {
                values: match kind {
                    Kind::Integer => Buffer::Integer(Vec::new()),
                    Kind::Number => Buffer::Number(Vec::new()),
                    Kind::Boolean => Buffer::Boolean(Vec::new()),
                    Kind::Date => Buffer::Date(Vec::new()),
                    Kind::Timestamp { .. } => Buffer::Timestamp(Vec::new()),
                    Kind::Text => Buffer::Text(Vec::new(), Vec::new()),
                },
                levels: Vec::new(),
            })
            .collect();
        let row_bytes = kinds.iter().map(|kind| 2 + width(kind)).sum();
        Group {
            columns,
            rows: 0,
            row_bytes,
            bytes: 0,
        }
    }

    /// Adds one row: `cell(index)` is the cell of column `index` (empty when the row is
    /// short).
    pub fn add<'a>(&mut self, readers: &mut [CellReader], cell: impl Fn(usize) -> &'a str) {
        for (index, (column, reader)) in self.columns.iter_mut().zip(readers).enumerate() {
            let cell = cell(index);
            let value = reader.read(cell);
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
                    self.bytes += cell.len();
                }
                // A reader gives only its own kind of value.
                _ => *column.levels.last_mut().expect("just pushed") = 0,
            }
        }
        self.rows += 1;
        self.bytes += self.row_bytes;
    }

    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Whether the group is as large as a row group may be.
    pub fn is_full(&self) -> bool {
        self.rows == ROW_GROUP_ROWS || self.bytes >= ROW_GROUP_BYTES
    }

    /// Per column, whether its values hold at most one distinct value per
    /// [`DICTIONARY_RATIO`] (counting stops as soon as they do not).
    pub fn repeats(&self) -> Vec<bool> {
        self.columns.iter().map(|c| repeats(&c.values)).collect()
    }

    /// Writes the rows as one row group of `file` and empties the group.
    pub fn write_into<W: Write + Send>(
        &mut self,
        file: &mut SerializedFileWriter<W>,
    ) -> io::Result<()> {
        let mut group = file.next_row_group().map_err(io::Error::other)?;
        for column in &mut self.columns {
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
        (self.rows, self.bytes) = (0, 0);
        Ok(())
    }
}

/// The bytes a value of `kind` takes in its buffer (a text cell: its end offset; its text
/// counts apart).
fn width(kind: &Kind) -> usize {
    match kind {
        Kind::Integer | Kind::Number | Kind::Timestamp { .. } | Kind::Text => 8,
        Kind::Date => 4,
        Kind::Boolean => 1,
    }
}

/// Whether `values` hold at most one distinct value per [`DICTIONARY_RATIO`].
fn repeats(values: &Buffer) -> bool {
    fn few<T: Hash + Eq>(count: usize, values: impl Iterator<Item = T>) -> bool {
        let limit = count / DICTIONARY_RATIO;
        let mut seen = FxHashSet::default();
        for value in values {
            if seen.insert(value) && seen.len() > limit {
                return false;
            }
        }
        count > 0
    }
    match values {
        Buffer::Integer(v) | Buffer::Timestamp(v) => few(v.len(), v.iter()),
        Buffer::Number(v) => few(v.len(), v.iter().map(|n| n.to_bits())),
        Buffer::Boolean(v) => few(v.len(), v.iter()),
        Buffer::Date(v) => few(v.len(), v.iter()),
        Buffer::Text(bytes, ends) => {
            let starts = std::iter::once(0).chain(ends.iter().copied());
            few(
                ends.len(),
                starts.zip(ends).map(|(start, &end)| &bytes[start..end]),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dictionary_only_where_values_repeat() {
        let repeated = Buffer::Number((0..100).map(|i| f64::from(i % 10)).collect());
        assert!(repeats(&repeated));
        let distinct = Buffer::Number((0..100).map(f64::from).collect());
        assert!(!repeats(&distinct));
        // Exactly one distinct value in two still pays.
        let half = Buffer::Integer((0..100).map(|i| i / 2).collect());
        assert!(repeats(&half));
        let text = |cells: &[&str]| {
            let mut bytes = Vec::new();
            let ends = cells
                .iter()
                .map(|c| {
                    bytes.extend_from_slice(c.as_bytes());
                    bytes.len()
                })
                .collect();
            Buffer::Text(bytes, ends)
        };
        assert!(repeats(&text(&["ab", "a", "ab", "a"])));
        assert!(!repeats(&text(&["ab", "a", "b", "aba"])));
        assert!(!repeats(&Buffer::Date(Vec::new())), "nothing to encode");
    }

    /// Rows added to a group of `columns` columns of `column_type` until it is full.
    fn rows_until_full(columns: usize, column_type: &str, cell: &str) -> usize {
        use crate::content::dialect::MissingValues;
        use crate::content::number_marks::NumberMarks;
        let spec: crate::dataset::schema::ColumnSpec = toml::from_str(&format!(
            "name = \"v\"\ntitle = \"V\"\ntype = \"{column_type}\"\ndescription = \"d\""
        ))
        .unwrap();
        let mut readers: Vec<CellReader> = (0..columns)
            .map(|_| {
                let missing = MissingValues::default();
                CellReader::new(&spec, column_type, None, NumberMarks::PLAIN, missing)
            })
            .collect();
        let kinds: Vec<Kind> = readers.iter().map(|r| r.kind).collect();
        let mut group = Group::new(&kinds);
        let mut rows = 0;
        while !group.is_full() {
            group.add(&mut readers, |_| cell);
            rows += 1;
        }
        rows
    }

    #[test]
    fn a_group_is_bounded_by_its_bytes_whatever_the_tables_shape() {
        // 1,504 number columns (modeldata's grants_other): 10 bytes a value with its null
        // flag, so 1,116 rows make the 16 MiB, where 65,536 rows would buffer 940 MiB.
        assert_eq!(rows_until_full(1_504, "number", "1.5"), 1_116);
        // A narrow table reaches the row count first.
        assert_eq!(rows_until_full(3, "integer", "7"), ROW_GROUP_ROWS);
        // Long text: 1,000 bytes and its end offset and flag a cell, in 2 columns.
        let long = "x".repeat(1_000);
        assert_eq!(rows_until_full(2, "string", &long), 8_306);
    }
}
