//! The second streaming pass over a CSV for the figures its prose quotes: each selector
//! keeps only what it needs (match count, first matching row and cell, a few candidate
//! rows, running min/max/sum), so memory stays flat in rows whatever the table's size.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io;
use std::path::Path;

use super::reading::{Condition, Reading};
use crate::content::dialect::{CsvDialect, MissingValues};

/// Rows a selector picks: every condition (column index, value) holds, and the cell of
/// `column` is read.
#[derive(Debug, Clone)]
pub struct Selector {
    pub conditions: Vec<(usize, String)>,
    pub column: Option<usize>,
}

/// How many candidate rows a diagnostic lists, and how many distinct values of a
/// condition column a hint offers.
const CANDIDATES: usize = 10;
pub const DISTINCT: usize = 25;
/// How many rows an aggregate lists in the metadata.
pub const LISTED_ROWS: usize = 100;

/// What one selector found.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub matches: u64,
    /// 1-based data row numbers of the first matches (up to `LISTED_ROWS`).
    pub rows: Vec<u64>,
    /// The first matching cell as the CSV has it.
    pub first_cell: String,
    /// The same cell as the table reads it (`Reading::read`: a plain number, a date in
    /// the shown style).
    pub first_value: String,
    /// The first matching rows, described by `describe` columns.
    pub candidates: Vec<String>,
    /// Cells that are numbers (in a date column: dates), and those that are not.
    pub numbers: u64,
    pub non_numeric: u64,
    pub sum: f64,
    /// The lowest and highest cell, as its number (a date's day position) and read text.
    pub min: Option<(f64, String)>,
    pub max: Option<(f64, String)>,
}

/// Tallies of every selector, and up to `DISTINCT` values of each condition column.
pub struct Pass {
    pub tallies: Vec<Tally>,
    pub distinct: BTreeMap<usize, BTreeSet<String>>,
}

/// Reads `path` once. `describe` names the columns that identify a row in messages;
/// `missing` holds each column's missing values (`NA`…), read as empty cells; `readings`
/// how each column's cells are read (dates through their `format`, numbers through their
/// marks).
pub fn run(
    path: &Path,
    dialect: CsvDialect,
    missing: &[MissingValues],
    readings: &[Reading],
    selectors: &[Selector],
    describe: impl Fn(&[String]) -> Vec<usize>,
) -> io::Result<Pass> {
    let mut reader = dialect.builder().from_reader(File::open(path)?);
    let mut record = csv::ByteRecord::new();
    dialect
        .read(&mut reader, &mut record)
        .map_err(io::Error::other)?;
    let header: Vec<String> = record
        .iter()
        .map(|f| String::from_utf8_lossy(f).into_owned())
        .collect();
    let described = describe(&header);
    let mut tallies = vec![Tally::default(); selectors.len()];
    let mut distinct: BTreeMap<usize, BTreeSet<String>> = selectors
        .iter()
        .flat_map(|s| s.conditions.iter().map(|(c, _)| (*c, BTreeSet::new())))
        .collect();
    let mut row = 0u64;
    let plain = Reading::default();
    let reading = |c: usize| readings.get(c).unwrap_or(&plain);
    // Each selector's conditions, read once for all rows.
    let conditions: Vec<Vec<(usize, Condition)>> = selectors
        .iter()
        .map(|s| {
            s.conditions
                .iter()
                .map(|(c, v)| (*c, reading(*c).condition(v)))
                .collect()
        })
        .collect();
    while dialect
        .read(&mut reader, &mut record)
        .map_err(io::Error::other)?
    {
        row += 1;
        let field = |i: usize| std::str::from_utf8(record.get(i).unwrap_or_default()).unwrap_or("");
        for (column, values) in distinct.iter_mut() {
            if values.len() < DISTINCT {
                values.insert(field(*column).to_string());
            }
        }
        for ((selector, conditions), tally) in
            selectors.iter().zip(&conditions).zip(tallies.iter_mut())
        {
            if !conditions
                .iter()
                .all(|(c, condition)| reading(*c).meets(field(*c), condition))
            {
                continue;
            }
            tally.matches += 1;
            if tally.rows.len() < LISTED_ROWS {
                tally.rows.push(row);
            }
            let value = match selector.column {
                Some(c) if !missing.get(c).is_some_and(|m| m.is_missing(field(c))) => field(c),
                _ => "",
            };
            let read = selector.column.map(|c| reading(c).read(value));
            if tally.matches == 1 {
                tally.first_cell = value.to_string();
                tally.first_value = read.as_deref().unwrap_or_default().to_string();
            }
            if tally.candidates.len() < CANDIDATES {
                let keys: Vec<String> = described
                    .iter()
                    .filter_map(|&i| Some(format!("{}={}", header.get(i)?, field(i))))
                    .collect();
                tally
                    .candidates
                    .push(format!("row {row} ({})", keys.join(", ")));
            }
            if let (Some(c), Some(read)) = (selector.column, read) {
                match reading(c).is_time() {
                    true => add_moment(tally, reading(c).moment(value), &read),
                    false => add_number(tally, &read),
                }
            }
        }
    }
    Ok(Pass { tallies, distinct })
}

/// For each wanted `(column, value)` that no row has, the nearest cell of that column
/// (as [`did_you_mean`](crate::diagnostics::did_you_mean) judges), over every row: a second
/// pass, made only when a figure matched nothing and the first pass's few values had no
/// near one.
pub fn near_misses(
    path: &Path,
    dialect: CsvDialect,
    wanted: &[(usize, String)],
) -> io::Result<Vec<Option<String>>> {
    let mut reader = dialect
        .builder()
        .has_headers(true)
        .from_reader(File::open(path)?);
    let mut best: Vec<Option<(f64, String)>> = vec![None; wanted.len()];
    let mut record = csv::ByteRecord::new();
    while dialect
        .read(&mut reader, &mut record)
        .map_err(io::Error::other)?
    {
        for ((column, value), best) in wanted.iter().zip(best.iter_mut()) {
            let cell = std::str::from_utf8(record.get(*column).unwrap_or_default()).unwrap_or("");
            if cell == value {
                continue;
            }
            if let Some(score) = crate::diagnostics::nearness(value, cell) {
                if best.as_ref().is_none_or(|(b, _)| score > *b) {
                    *best = Some((score, cell.to_string()));
                }
            }
        }
    }
    Ok(best.into_iter().map(|b| b.map(|(_, cell)| cell)).collect())
}

/// A date cell: counted, and kept when it is the earliest or latest so far.
fn add_moment(tally: &mut Tally, moment: Option<f64>, read: &str) {
    if read.is_empty() {
        return;
    }
    let Some(moment) = moment else {
        tally.non_numeric += 1;
        return;
    };
    tally.numbers += 1;
    if tally.min.as_ref().is_none_or(|(m, _)| moment < *m) {
        tally.min = Some((moment, read.to_string()));
    }
    if tally.max.as_ref().is_none_or(|(m, _)| moment > *m) {
        tally.max = Some((moment, read.to_string()));
    }
}

fn add_number(tally: &mut Tally, value: &str) {
    if value.is_empty() {
        return;
    }
    let Ok(number) = value.parse::<f64>() else {
        tally.non_numeric += 1;
        return;
    };
    if !number.is_finite() {
        tally.non_numeric += 1;
        return;
    }
    tally.numbers += 1;
    tally.sum += number;
    if tally.min.as_ref().is_none_or(|(m, _)| number < *m) {
        tally.min = Some((number, value.to_string()));
    }
    if tally.max.as_ref().is_none_or(|(m, _)| number > *m) {
        tally.max = Some((number, value.to_string()));
    }
}
