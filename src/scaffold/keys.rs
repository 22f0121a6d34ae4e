//! The keys `new --from` proposes between the tables it is given (a dataset each): a
//! primary key per table and the foreign keys between them, from one more streaming pass
//! over each table.
//!
//! A primary key is the first column that can identify rows (`suggest::is_key_candidate`:
//! unique, never empty, text or a date, or whole numbers named like an identifier), never
//! a row counter: a column named `rownames`, an unnamed first column, or whole numbers
//! exactly 1, 2, … n in row order. Composite keys are not searched for.
//!
//! A foreign key is a column whose distinct non-empty values occur, at least
//! [`MIN_SHARE`] of them, in a key column of another table (one that can identify its
//! rows, as above) of the same type; never from or to a row counter.
//!
//! Memory is bounded: a key column keeps a 64-bit fingerprint per distinct value, at most
//! [`KEY_CAP`] of them (past that it is not proposed as a target); any other column keeps
//! each distinct value's row count and first spelling (up to [`EXAMPLE_CHARS`]
//! characters), at most [`VALUE_CAP`] of them (past that it is not proposed as a foreign
//! key). About 16 bytes a fingerprint and 100 bytes a value: at most 32 MB for a key
//! column and 10 MB for another, for the columns of one table at a time.

use std::collections::HashMap;
use std::path::Path;

use rustc_hash::FxHashSet;

use super::infer::{ColumnGuess, Inference};
use super::markers::Declared;
use super::suggest::is_key_candidate;
use crate::content::columns::ColumnType;
use crate::content::dialect::CsvDialect;
use crate::diagnostics::Diagnostic;

/// The share of a column's distinct values that must name a row of the other table.
pub const MIN_SHARE: f64 = 0.8;
/// The most distinct values fingerprinted for a key column.
pub const KEY_CAP: usize = 2_000_000;
/// The most distinct values counted for any other column.
pub const VALUE_CAP: usize = 100_000;
/// How much of a value is kept to be shown as an example of a miss.
pub const EXAMPLE_CHARS: usize = 40;
/// How many examples of misses are shown.
const EXAMPLES: usize = 3;

/// One table as the proposals read it.
pub struct TableIn<'a> {
    pub csv: &'a Path,
    pub dialect: CsvDialect,
    pub inference: &'a Inference,
    pub declared: &'a [Declared],
}

/// A proposed foreign key, with what does not resolve.
#[derive(Debug, Clone, PartialEq)]
pub struct ForeignKey {
    /// (table, column) it is in.
    pub from: (usize, usize),
    /// (table, column) it names.
    pub to: (usize, usize),
    /// Distinct non-empty values of the column.
    pub distinct: u64,
    /// Rows whose value names no row of the other table, and how many distinct values.
    pub miss_rows: u64,
    pub miss_distinct: u64,
    /// The first values missed, in row order.
    pub examples: Vec<String>,
}

/// What was proposed for the dataset.
#[derive(Debug, Default)]
pub struct Proposals {
    /// Each table's primary key (a column index).
    pub primary_keys: Vec<Option<usize>>,
    /// Each table's row counters (column indexes), never keys.
    pub counters: Vec<Vec<usize>>,
    pub foreign_keys: Vec<ForeignKey>,
}

/// What one column kept during the pass.
#[derive(Default)]
struct Kept {
    /// Whole numbers 1, 2, … in row order so far.
    counter: bool,
    keys: Option<FxHashSet<u64>>,
    values: Option<HashMap<u64, Seen>>,
}

struct Seen {
    rows: u64,
    first_row: u64,
    example: Box<str>,
}

/// XXH3-64: specified, so the same in every run (std's hasher promises no algorithm).
fn fingerprint(value: &str) -> u64 {
    twox_hash::XxHash3_64::oneshot(value.as_bytes())
}

/// A column named as a row counter: R's `rownames`, or an unnamed first column.
fn named_counter(index: usize, column: &ColumnGuess) -> bool {
    column.name.eq_ignore_ascii_case("rownames") || (index == 0 && column.name.trim().is_empty())
}

/// A column of a type a key can be (measurements and true/false never are).
fn keyable(column: &ColumnGuess) -> bool {
    !matches!(column.column_type, ColumnType::Number | ColumnType::Boolean)
}

/// Reads each table once more and proposes its keys.
pub fn propose(tables: &[TableIn]) -> Result<Proposals, Vec<Diagnostic>> {
    let mut kept = Vec::with_capacity(tables.len());
    for table in tables {
        kept.push(pass(table)?);
    }
    let mut proposals = Proposals::default();
    for (table, columns) in tables.iter().zip(&kept) {
        let counters: Vec<usize> = (0..columns.len())
            .filter(|&i| named_counter(i, &table.inference.columns[i]) || columns[i].counter)
            .collect();
        let inference = table.inference;
        let key = (inference.rows >= 2 && inference.columns.len() >= 2)
            .then(|| {
                (0..inference.columns.len())
                    .find(|i| !counters.contains(i) && is_key_candidate(&inference.columns[*i]))
            })
            .flatten();
        proposals.primary_keys.push(key);
        proposals.counters.push(counters);
    }
    for (t, columns) in kept.iter().enumerate() {
        for (c, column) in columns.iter().enumerate() {
            if proposals.counters[t].contains(&c) {
                continue;
            }
            let Some(values) = &column.values else {
                continue;
            };
            if let Some(key) = best_target(tables, &kept, &proposals, (t, c), values) {
                proposals.foreign_keys.push(key);
            }
        }
    }
    drop_reverse_pairs(&mut proposals.foreign_keys, &proposals.primary_keys);
    Ok(proposals)
}

/// The key column of another table that most of the column's values name, if any.
fn best_target(
    tables: &[TableIn],
    kept: &[Vec<Kept>],
    proposals: &Proposals,
    (t, c): (usize, usize),
    values: &HashMap<u64, Seen>,
) -> Option<ForeignKey> {
    let column_type = tables[t].inference.columns[c].column_type;
    let mut best: Option<(f64, bool, ForeignKey)> = None;
    for (other, columns) in kept.iter().enumerate() {
        if other == t {
            continue;
        }
        for (k, target) in columns.iter().enumerate() {
            let guess = &tables[other].inference.columns[k];
            let Some(keys) = &target.keys else { continue };
            if proposals.counters[other].contains(&k)
                || guess.column_type != column_type
                || !is_key_candidate(guess)
                || values.is_empty()
            {
                continue;
            }
            let missed: Vec<(&u64, &Seen)> =
                values.iter().filter(|(v, _)| !keys.contains(v)).collect();
            let share = 1.0 - missed.len() as f64 / values.len() as f64;
            if share < MIN_SHARE {
                continue;
            }
            let primary = proposals.primary_keys[other] == Some(k);
            if best
                .as_ref()
                .is_some_and(|(s, p, _)| (*s, *p) >= (share, primary))
            {
                continue;
            }
            let mut examples: Vec<&Seen> = missed.iter().map(|(_, seen)| *seen).collect();
            examples.sort_by_key(|seen| seen.first_row);
            let key = ForeignKey {
                from: (t, c),
                to: (other, k),
                distinct: values.len() as u64,
                miss_rows: missed.iter().map(|(_, seen)| seen.rows).sum(),
                miss_distinct: missed.len() as u64,
                examples: (examples.iter().take(EXAMPLES))
                    .map(|seen| seen.example.to_string())
                    .collect(),
            };
            best = Some((share, primary, key));
        }
    }
    best.map(|(_, _, key)| key)
}

/// Two unique columns naming each other (one-to-one tables) are one relation: the key
/// that names a primary key is kept, else the one from the table listed later.
fn drop_reverse_pairs(keys: &mut Vec<ForeignKey>, primary_keys: &[Option<usize>]) {
    let names_primary = |to: (usize, usize)| primary_keys[to.0] == Some(to.1);
    let pairs: Vec<((usize, usize), (usize, usize))> =
        keys.iter().map(|k| (k.from, k.to)).collect();
    keys.retain(|k| {
        if !pairs.contains(&(k.to, k.from)) {
            return true;
        }
        match (names_primary(k.to), names_primary(k.from)) {
            (true, false) => true,
            (false, true) => false,
            _ => k.from.0 > k.to.0,
        }
    });
}

/// One pass over a table: for each column, whether it counts rows, the fingerprints of a
/// key column's values and the counts of any other keyable column's.
fn pass(table: &TableIn) -> Result<Vec<Kept>, Vec<Diagnostic>> {
    let columns = &table.inference.columns;
    let mut kept: Vec<Kept> = columns
        .iter()
        .enumerate()
        .map(|(i, column)| {
            let candidate = keyable(column) && !named_counter(i, column);
            Kept {
                counter: column.column_type == ColumnType::Integer && column.required,
                keys: (candidate && is_key_candidate(column)).then(FxHashSet::default),
                values: candidate.then(HashMap::new),
            }
        })
        .collect();
    let unreadable = |e: &dyn std::fmt::Display| {
        vec![Diagnostic::error(
            table.csv,
            format!("cannot read the file: {e}"),
        )]
    };
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(table.dialect.delimiter)
        .trim(if table.dialect.skip_initial_space {
            csv::Trim::Fields
        } else {
            csv::Trim::None
        })
        .flexible(true)
        .from_path(table.csv)
        .map_err(|e| unreadable(&e))?;
    let mut record = csv::StringRecord::new();
    let mut row: u64 = 0;
    while reader
        .read_record(&mut record)
        .map_err(|e| unreadable(&e))?
    {
        row += 1;
        for (i, (cell, column)) in record.iter().zip(kept.iter_mut()).enumerate() {
            let empty =
                cell.is_empty() || table.declared[i].missing_values.iter().any(|m| m == cell);
            if column.counter && cell.parse::<u64>().ok() != Some(row) {
                column.counter = false;
            }
            if empty {
                continue;
            }
            keep(column, cell, row);
        }
    }
    Ok(kept)
}

/// Notes one non-empty value of a column; a column past its cap is given up on.
fn keep(column: &mut Kept, cell: &str, row: u64) {
    let print = fingerprint(cell);
    if let Some(keys) = &mut column.keys {
        keys.insert(print);
        if keys.len() > KEY_CAP {
            column.keys = None;
        }
    }
    if let Some(values) = &mut column.values {
        values
            .entry(print)
            .or_insert_with(|| Seen {
                rows: 0,
                first_row: row,
                example: cell.chars().take(EXAMPLE_CHARS).collect(),
            })
            .rows += 1;
        if values.len() > VALUE_CAP {
            column.values = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scaffold::infer::infer_from;

    fn tables(csvs: &[&str]) -> (tempfile::TempDir, Vec<std::path::PathBuf>, Vec<Inference>) {
        let dir = tempfile::tempdir().unwrap();
        let mut paths = Vec::new();
        let mut inferences = Vec::new();
        for (i, csv) in csvs.iter().enumerate() {
            let path = dir.path().join(format!("{i}.csv"));
            std::fs::write(&path, csv).unwrap();
            inferences.push(infer_from(csv.as_bytes(), &path, b',').unwrap());
            paths.push(path);
        }
        (dir, paths, inferences)
    }

    fn proposals(csvs: &[&str]) -> Proposals {
        let (_dir, paths, inferences) = tables(csvs);
        let declared: Vec<Vec<Declared>> = inferences
            .iter()
            .map(|i| vec![Declared::default(); i.columns.len()])
            .collect();
        let ins: Vec<TableIn> = (0..csvs.len())
            .map(|i| TableIn {
                csv: &paths[i],
                dialect: CsvDialect {
                    delimiter: b',',
                    skip_initial_space: false,
                },
                inference: &inferences[i],
                declared: &declared[i],
            })
            .collect();
        propose(&ins).unwrap()
    }

    #[test]
    fn a_key_is_proposed_from_four_fifths_of_the_values_on() {
        let shops = "rownames,shop,town\n1,a,X\n2,b,Y\n3,c,Z\n4,d,W\n";
        // Five distinct shops, four known: 80 %, proposed with its one miss.
        let sales = "rownames,shop,n\n1,a,1\n2,b,2\n3,c,3\n4,d,4\n5,e,5\n6,e,6\n";
        let found = proposals(&[shops, sales]);
        assert_eq!(found.primary_keys, [Some(1), None]);
        // `n` counts its rows 1..n too.
        assert_eq!(found.counters, [vec![0], vec![0, 2]]);
        let [key] = found.foreign_keys.as_slice() else {
            panic!("{:?}", found.foreign_keys)
        };
        assert_eq!((key.from, key.to), ((1, 1), (0, 1)));
        assert_eq!((key.distinct, key.miss_rows, key.miss_distinct), (5, 2, 1));
        assert_eq!(key.examples, ["e"]);
        // Two unknown of five: 60 %, nothing proposed.
        let sales = "rownames,shop,n\n1,a,1\n2,b,2\n3,c,3\n4,f,4\n5,e,5\n";
        assert!(proposals(&[shops, sales]).foreign_keys.is_empty());
    }

    #[test]
    fn a_row_counter_is_never_a_key_nor_names_one() {
        // `id` counts the rows 1..n: not a key although named like one; `code` is.
        let people = "id,code,name\n1,p7,Ann\n2,p8,Bob\n3,p9,Cy\n";
        let visits = "id,who,n\n1,p7,5\n2,p8,6\n3,p9,7\n4,p9,8\n";
        let found = proposals(&[people, visits]);
        assert_eq!(found.counters, [vec![0], vec![0]]);
        assert_eq!(found.primary_keys, [Some(1), None]);
        let links: Vec<_> = found.foreign_keys.iter().map(|k| (k.from, k.to)).collect();
        assert_eq!(links, [((1, 1), (0, 1))]);
        // R's row names: named so, never a key, even when not 1..n.
        let named = "rownames,v\nx3,5\nx1,7\n";
        let found = proposals(&[named, "rownames,w\nx3,5\nx1,7\n"]);
        assert_eq!(found.counters, [vec![0], vec![0]]);
        assert!(found.foreign_keys.is_empty(), "{:?}", found.foreign_keys);
        assert_eq!(found.primary_keys, [None, None]);
    }

    #[test]
    fn one_to_one_tables_get_one_key() {
        let a = "code,x\np1,1\np2,2\n";
        let b = "code,y\np1,3\np2,4\n";
        let found = proposals(&[a, b]);
        let links: Vec<_> = found.foreign_keys.iter().map(|k| (k.from, k.to)).collect();
        assert_eq!(links, [((1, 0), (0, 0))]);
    }
}
