//! The rows of a table small enough to chart, read again after inference, and what the
//! chart suggestion asks of them: which columns count rows, how many distinct values a
//! column has, whether a pair of columns is unique.

use std::collections::HashSet;
use std::path::Path;

use crate::content::dialect::CsvDialect;

/// Every row of the table as text (at most the rows a chart draws).
pub(super) struct TableSample {
    rows: Vec<csv::StringRecord>,
}

impl TableSample {
    /// The rows of `path`, or `None` when it cannot be read again.
    pub(super) fn read(path: &Path, dialect: CsvDialect, limit: u64) -> Option<TableSample> {
        let file = std::fs::File::open(path).ok()?;
        let mut reader = dialect
            .builder()
            .has_headers(true)
            .from_reader(std::io::BufReader::new(file));
        let mut rows = Vec::new();
        let mut record = csv::ByteRecord::new();
        while dialect.read(&mut reader, &mut record).ok()? {
            if rows.len() as u64 >= limit {
                return None;
            }
            let text: Vec<String> = record
                .iter()
                .map(|cell| String::from_utf8_lossy(cell).into_owned())
                .collect();
            rows.push(csv::StringRecord::from(text));
        }
        Some(TableSample { rows })
    }

    fn cell(&self, row: usize, column: usize) -> &str {
        self.rows[row].get(column).unwrap_or_default()
    }

    /// Whether `column` numbers the rows: 1, 2, … n or 0, 1, … n - 1 (R's `rownames`,
    /// pandas' index written out).
    pub(super) fn counts_rows(&self, column: usize) -> bool {
        let values: Vec<Option<i64>> = (0..self.rows.len())
            .map(|row| self.cell(row, column).trim().parse().ok())
            .collect();
        let from = |first: i64| {
            values
                .iter()
                .enumerate()
                .all(|(i, v)| *v == Some(first + i as i64))
        };
        values.len() > 1 && (from(1) || from(0))
    }

    /// The distinct values of `column` in order of first appearance.
    pub(super) fn distinct(&self, column: usize) -> Vec<&str> {
        let mut seen = HashSet::new();
        (0..self.rows.len())
            .map(|row| self.cell(row, column))
            .filter(|value| seen.insert(*value))
            .collect()
    }

    /// The distinct values of `column`, in order of first appearance, on the rows that
    /// have a date-or-text `x` and a number `y`: the series a line of `y` along `x` draws.
    pub(super) fn distinct_drawn(&self, column: usize, x: usize, y: usize) -> Vec<&str> {
        let mut seen = HashSet::new();
        (0..self.rows.len())
            .filter(|&row| !self.cell(row, x).trim().is_empty())
            .filter(|&row| {
                let number = self.cell(row, y).trim().parse::<f64>();
                number.is_ok_and(f64::is_finite)
            })
            .map(|row| self.cell(row, column))
            .filter(|value| seen.insert(*value))
            .collect()
    }

    /// Whether no two rows share both `a` and `b` (`b` absent: `a` alone).
    pub(super) fn unique(&self, a: usize, b: Option<usize>) -> bool {
        let mut seen = HashSet::new();
        (0..self.rows.len())
            .all(|row| seen.insert((self.cell(row, a), b.map(|b| self.cell(row, b)))))
    }

    /// How many rows share the most common value of `column`.
    pub(super) fn most_per_value(&self, column: usize) -> usize {
        let mut counts = std::collections::HashMap::new();
        for row in 0..self.rows.len() {
            *counts.entry(self.cell(row, column)).or_insert(0) += 1;
        }
        counts.into_values().max().unwrap_or(0)
    }
}
