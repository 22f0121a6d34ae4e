//! The cells that equal the numbers a page types by hand, in a table the scan did not look
//! through for them (another dataset's, or the page's own when its scan was recalled for
//! other numbers): one streaming pass counts, for each number, the cells equal to it and
//! keeps the first one's column and row key (`dataset::scan::Finder`, the scan's own
//! matching), from which a `{{ cell(...) }}` reference can be written.

use std::path::Path;

use crate::content::dialect::CsvDialect;
use crate::content::numbers::Typed;
use crate::dataset::scan::{Finder, Hit, Matches};

/// One table to look in: its CSV, delimiter, key columns (the first column when it
/// declares no `primary_key`) and its slug when it is another dataset than the page's.
pub struct Table<'a> {
    pub csv: &'a Path,
    pub dialect: CsvDialect,
    pub key: &'a [String],
    pub dataset: Option<&'a str>,
}

/// Streams `table`, adding to `matches[n]` the cells equal to `numbers[n]` for each `n`
/// that `wanted` accepts (what was found before a read error included).
pub fn count(
    table: &Table,
    numbers: &[Typed],
    wanted: impl Fn(usize) -> bool,
    matches: &mut [Matches],
) -> Result<(), csv::Error> {
    let dialect = table.dialect;
    let mut reader = dialect.builder().from_path(table.csv)?;
    let mut bytes = csv::ByteRecord::new();
    dialect.read(&mut reader, &mut bytes)?;
    let header: Vec<String> = bytes
        .iter()
        .map(|name| String::from_utf8_lossy(name).into_owned())
        .collect();
    let mut finder = Finder::new(numbers, wanted, &header, table.key, table.dataset);
    if finder.is_idle() {
        return Ok(());
    }
    let read = loop {
        match dialect.read(&mut reader, &mut bytes) {
            Ok(true) => {}
            Ok(false) => break Ok(()),
            Err(e) => break Err(e),
        }
        // Cells that are not UTF-8 are the scan's error; here they only fail to match.
        let record = csv::StringRecord::from_byte_record_lossy(bytes.clone());
        for (column, cell) in record.iter().enumerate() {
            finder.cell(column, cell, None, &record);
        }
    };
    finder.add_to(matches);
    read
}

/// Picks, for each hit of `table` found without a declared key, the columns of its row that
/// tell it apart from every other row, in one more pass over the table: the first column
/// (not the cell's own) whose value no other row has, else the fewest leading columns
/// (the cell's own left out) that no other row shares;
/// none (an empty key) when another row is the same in every column. So that a proposed
/// `{{ cell(...) }}` resolves to exactly one row.
pub fn identify(table: &Table, hits: &mut [&mut Hit]) -> Result<(), csv::Error> {
    if hits.is_empty() {
        return Ok(());
    }
    let dialect = table.dialect;
    let mut reader = dialect.builder().from_path(table.csv)?;
    let mut bytes = csv::ByteRecord::new();
    dialect.read(&mut reader, &mut bytes)?;
    // Per hit: rows equal to its row in each column; rows whose first `m` cells (and no
    // more) equal its row's, by `m`.
    let mut alone: Vec<Vec<u64>> = hits.iter().map(|h| vec![0; h.row.len()]).collect();
    let mut leading: Vec<Vec<u64>> = hits.iter().map(|h| vec![0; h.row.len() + 1]).collect();
    while dialect.read(&mut reader, &mut bytes)? {
        let record = csv::StringRecord::from_byte_record_lossy(bytes.clone());
        for (h, hit) in hits.iter().enumerate() {
            let mut same_so_far = true;
            let mut m = 0;
            // The cell's own column names no row: a reference would quote its value.
            for (c, (_, value)) in hit.row.iter().enumerate() {
                let same = hit.row[c].0 == hit.column || record.get(c).unwrap_or_default() == value;
                alone[h][c] += u64::from(same);
                same_so_far &= same;
                m += usize::from(same_so_far);
            }
            leading[h][m] += 1;
        }
    }
    for (h, hit) in hits.iter_mut().enumerate() {
        let row = std::mem::take(&mut hit.row);
        // Rows sharing the first `k` cells: those whose run of equal leading cells is `k` or longer.
        let sharing = |k: usize| leading[h][k..].iter().sum::<u64>();
        let other = |c: &usize| row[*c].0 != hit.column;
        hit.key = match (0..row.len()).filter(other).find(|&c| alone[h][c] == 1) {
            Some(c) => vec![row[c].clone()],
            None => match (1..=row.len()).find(|&k| sharing(k) == 1) {
                Some(k) => (0..k).filter(other).map(|c| row[c].clone()).collect(),
                None => Vec::new(),
            },
        };
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(number: &str) -> Typed {
        Typed {
            offset: 0,
            number: number.to_string(),
            raw: number.to_string(),
        }
    }

    #[test]
    fn each_number_counts_its_cells_and_keeps_the_first_row_key() {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("t.csv");
        std::fs::write(
            &csv,
            "country,year,value,note\nFrance,2020,372.0,\"say \"\"hi\"\"\"\nPeru,2021,372,x\nChad,2021,12.5,x\n",
        )
        .unwrap();
        let key = ["country".to_string(), "year".to_string()];
        let table = Table {
            csv: &csv,
            dialect: CsvDialect::COMMA,
            key: &key,
            dataset: Some("other"),
        };
        let numbers = [typed("372.0"), typed("12.5"), typed("99")];
        let mut matches = vec![Matches::default(); 3];
        count(&table, &numbers, |_| true, &mut matches).unwrap();
        assert_eq!(matches[0].count, 2);
        assert_eq!(matches[1].count, 1);
        assert_eq!(matches[2], Matches::default());
        assert_eq!(
            matches[1].first.as_ref().unwrap().reference(),
            r#"{{ cell(country="Chad", year="2021", col="value", dataset="other") }}"#
        );
        // Without a key the first column names the row; quotes in a value are escaped.
        let table = Table {
            key: &[],
            dataset: None,
            ..table
        };
        let mut matches = vec![Matches::default(); 1];
        count(&table, &[typed("2021")], |_| true, &mut matches).unwrap();
        assert_eq!(matches[0].count, 2);
        let hit = Hit {
            dataset: None,
            column: "v".into(),
            key: vec![("note".into(), "say \"hi\"".into())],
            row: Vec::new(),
        };
        assert_eq!(hit.reference(), r#"{{ cell(note="say \"hi\"", col="v") }}"#);
        let spaced = Hit {
            key: vec![("Country Name".into(), "Niger".into())],
            ..hit.clone()
        };
        assert_eq!(
            spaced.reference(),
            r#"{{ cell("Country Name"="Niger", col="v") }}"#
        );
    }
}
