//! The cells that equal the numbers a page types by hand: one streaming pass over a CSV
//! counts, for each number, the cells equal to it (as numbers shown at 15 significant
//! digits, or as the text with a unit glued on, case ignored) and keeps the first one's
//! column and row key, from which a `{{ cell(...) }}` reference can be written.

use std::path::Path;

use crate::content::figures::{condition_key, quote};
use crate::content::numbers::Typed;

/// The first cell equal to a number: where a reference finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// The dataset's slug when the cell is not the page's own table's.
    pub dataset: Option<String>,
    pub column: String,
    /// The row's key: each key column's name and the row's value in it.
    pub key: Vec<(String, String)>,
}

/// The cells equal to one number, over the tables looked at so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Matches {
    pub count: u64,
    pub first: Option<Hit>,
}

impl Hit {
    /// The reference to paste in place of the typed number:
    /// `{{ cell(country="France", col="value") }}`.
    pub fn reference(&self) -> String {
        let mut args: Vec<String> = self
            .key
            .iter()
            .map(|(name, value)| format!("{}={}", condition_key(name), quote(value)))
            .collect();
        args.push(format!("col={}", quote(&self.column)));
        if let Some(slug) = &self.dataset {
            args.push(format!("dataset={}", quote(slug)));
        }
        format!("{{{{ cell({}) }}}}", args.join(", "))
    }
}

/// One table to look in: its CSV, delimiter, key columns (the first column when it
/// declares no `primary_key`) and its slug when it is another dataset than the page's.
pub struct Table<'a> {
    pub csv: &'a Path,
    pub delimiter: u8,
    pub key: &'a [String],
    pub dataset: Option<&'a str>,
}

/// Streams `table`, adding to `matches[n]` the cells equal to `numbers[n]` for each `n`
/// that `wanted` accepts.
pub fn count(
    table: &Table,
    numbers: &[Typed],
    wanted: impl Fn(usize) -> bool,
    matches: &mut [Matches],
) -> Result<(), csv::Error> {
    let values: Vec<Option<f64>> = numbers.iter().map(|t| as_shown(&t.number)).collect();
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(table.delimiter)
        .flexible(true)
        .from_path(table.csv)?;
    let header = reader.headers()?.clone();
    let key_columns: Vec<usize> = match table.key.is_empty() {
        true => vec![0],
        false => table
            .key
            .iter()
            .filter_map(|k| header.iter().position(|h| h == k))
            .collect(),
    };
    let wanted: Vec<usize> = (0..numbers.len()).filter(|n| wanted(*n)).collect();
    let mut record = csv::StringRecord::new();
    while reader.read_record(&mut record)? {
        for (column, cell) in record.iter().enumerate() {
            let cell = cell.trim();
            if cell.is_empty() || !cell.bytes().any(|b| b.is_ascii_digit()) {
                continue;
            }
            let number = as_shown(&cell.replace(',', ""));
            let lower = cell.to_lowercase();
            for &n in &wanted {
                let equal = (number.is_some() && number == values[n]) || lower == numbers[n].raw;
                if !equal {
                    continue;
                }
                let found = &mut matches[n];
                found.count += 1;
                if found.first.is_none() {
                    found.first = Some(Hit {
                        dataset: table.dataset.map(str::to_string),
                        column: header.get(column).unwrap_or_default().to_string(),
                        key: key_columns
                            .iter()
                            .map(|&k| {
                                let name = header.get(k).unwrap_or_default();
                                let value = record.get(k).unwrap_or_default();
                                (name.to_string(), value.to_string())
                            })
                            .collect(),
                    });
                }
            }
        }
    }
    Ok(())
}

/// A number's value as the page shows it: to 15 significant digits, so a figure typed as
/// the table shows it (`7.052`) equals the cell pandas wrote as `7.0520000000000005`. Only
/// texts long enough to hold more digits are rounded.
fn as_shown(text: &str) -> Option<f64> {
    let value = text.parse::<f64>().ok()?;
    if text.len() <= crate::dataset::schema::SHOWN_DIGITS || !value.is_finite() {
        return Some(value);
    }
    format!("{value:.14e}").parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_figure_typed_as_shown_equals_a_cell_with_float_noise() {
        assert_eq!(as_shown("7.052"), as_shown("7.0520000000000005"));
        assert_eq!(as_shown("70.198"), as_shown("70.19800000000001"));
        assert_ne!(as_shown("7.05"), as_shown("7.0520000000000005"));
        assert_eq!(as_shown("12"), Some(12.0));
        assert_eq!(as_shown("x"), None);
    }

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
            delimiter: b',',
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
