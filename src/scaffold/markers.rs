//! What `new --from` makes of the missing-value markers a column holds: R's and
//! spreadsheets' `NA`, `NULL`, `-`… become the column's `missing_values`, pandas' `inf`,
//! `-inf`, `nan` or R's `Inf`, `-Inf` in a number column its `non_finite`; a column whose
//! every marker is so declared keeps the type of its values instead of falling back to
//! text. In a text column only the markers pandas reads as missing (`NA`, `NULL`…) are
//! declared, so that every reader of the metadata agrees with pandas-based loaders.

use super::infer::{ColumnGuess, Kind};
use crate::content::columns::NonFinite;
use crate::dataset::schema::ColumnType;

/// Markers that mean "no value" whatever the column's type.
const MISSING: &[&str] = &["NA", "N/A", "n/a", "NULL", "null", "None", "-"];

/// Markers a number column reads as Table Schema spells them.
const TABLE_SCHEMA_NUMBERS: &[&str] = &["NaN", "INF", "-INF"];

/// Markers a number column reads with `non_finite = "pandas"`…
const PANDAS_NUMBERS: &[&str] = &["inf", "-inf", "nan"];

/// …and with `non_finite = "r"` (R's `NaN` is Table Schema's).
const R_NUMBERS: &[&str] = &["Inf", "-Inf"];

/// How one column's markers are declared.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Declared {
    /// The `missing_values` to write, `""` first; empty when there is nothing to declare.
    pub missing_values: Vec<String>,
    pub non_finite: Option<NonFinite>,
}

/// Declares the markers of `column` when every one of them can be, and then types it by
/// its values (a column with a marker no key covers stays text, with its note).
pub fn declare(column: &mut ColumnGuess) -> Declared {
    if column.markers.is_empty() {
        return Declared::default();
    }
    let number = column.kind == Kind::Number || column.kind == Kind::Integer;
    let mut declared = Declared::default();
    for (marker, _) in &column.markers {
        let marker = marker.as_str();
        if MISSING.contains(&marker) {
            if declared.missing_values.is_empty() {
                declared.missing_values.push(String::new());
            }
            declared.missing_values.push(marker.to_string());
        } else if number && PANDAS_NUMBERS.contains(&marker) {
            if declared.non_finite == Some(NonFinite::R) {
                return Declared::default();
            }
            declared.non_finite = Some(NonFinite::Pandas);
        } else if number && R_NUMBERS.contains(&marker) {
            if declared.non_finite == Some(NonFinite::Pandas) {
                return Declared::default();
            }
            declared.non_finite = Some(NonFinite::R);
        } else if !(number && TABLE_SCHEMA_NUMBERS.contains(&marker)) {
            return Declared::default();
        }
    }
    // Special numbers make an integer column a number column.
    let has_specials = column.markers.iter().any(|(m, _)| {
        [PANDAS_NUMBERS, R_NUMBERS, TABLE_SCHEMA_NUMBERS]
            .iter()
            .any(|list| list.contains(&m.as_str()))
    });
    column.column_type = if has_specials {
        ColumnType::Number
    } else {
        column.kind.column_type()
    };
    // Missing cells: the column is not required, and a declared type needs no enum.
    if !declared.missing_values.is_empty() {
        column.required = false;
    }
    if column.column_type != ColumnType::String {
        column.enum_values = None;
    }
    if let Some(values) = &mut column.enum_values {
        values.retain(|v| !declared.missing_values.contains(v));
    }
    column.markers.clear();
    declared
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scaffold::infer::infer_from;
    use std::path::Path;

    fn guesses(csv: &str) -> Vec<(ColumnGuess, Declared)> {
        let inference = infer_from(csv.as_bytes(), Path::new("t.csv"), b',').unwrap();
        inference
            .columns
            .into_iter()
            .map(|mut c| {
                let d = declare(&mut c);
                (c, d)
            })
            .collect()
    }

    #[test]
    fn r_and_pandas_markers_are_declared_and_the_type_kept() {
        let columns =
            guesses("name,value,growth,count\nA,1.5,NA,1\nB,NA,inf,NA\nC,2.5,-inf,3\nD,3,0.1,4\n");
        let (value, d) = &columns[1];
        assert_eq!(value.column_type, ColumnType::Number);
        assert_eq!(d.missing_values, ["", "NA"]);
        assert!(d.non_finite.is_none() && !value.required);
        let (growth, d) = &columns[2];
        assert_eq!(growth.column_type, ColumnType::Number);
        assert_eq!(d.non_finite, Some(NonFinite::Pandas));
        let (count, d) = &columns[3];
        assert_eq!(count.column_type, ColumnType::Integer);
        assert_eq!(d.missing_values, ["", "NA"]);
        assert!(growth.markers.is_empty());
    }

    /// R's `Inf`, `-Inf`, `NaN` and `NA`: the number column keeps its type; `NA` in a
    /// text column is declared missing (pandas, and so mlcroissant, reads it so), while a
    /// `-` there stays text; pandas' and R's spellings in one column are not declared.
    #[test]
    fn r_numbers_and_na_in_text_columns_are_declared() {
        let columns = guesses(
            "v,name,dash,mixed\n1.5,a,x,inf\nInf,NA,-,Inf\n-Inf,b,y,1\nNaN,a,x,2\nNA,b,y,3\n2,a,x,4\n",
        );
        let (v, d) = &columns[0];
        assert_eq!(v.column_type, ColumnType::Number);
        assert_eq!(d.non_finite, Some(NonFinite::R));
        assert_eq!(d.missing_values, ["", "NA"]);
        let (name, d) = &columns[1];
        assert_eq!(name.column_type, ColumnType::String);
        assert_eq!(d.missing_values, ["", "NA"]);
        assert_eq!(
            name.enum_values.as_deref(),
            Some(&["a".to_string(), "b".to_string()][..])
        );
        let (dash, d) = &columns[2];
        assert_eq!(
            (dash.column_type, d),
            (ColumnType::String, &Declared::default())
        );
        let (mixed, d) = &columns[3];
        assert_eq!(
            (mixed.column_type, d),
            (ColumnType::String, &Declared::default())
        );
    }

    #[test]
    fn a_marker_no_key_covers_keeps_the_column_text() {
        let columns = guesses("day,n\n2021-01-01,1\nInfinity,2\n2021-01-03,3\n");
        let (day, d) = &columns[0];
        assert_eq!(day.column_type, ColumnType::String);
        assert_eq!(*d, Declared::default());
        assert!(!day.markers.is_empty());
    }
}
