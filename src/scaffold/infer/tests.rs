//! Tests of the streaming inference: kinds, markers, keys, number marks, header problems.

use super::*;

fn guess(csv: &str) -> Vec<ColumnGuess> {
    infer_from(csv.as_bytes(), Path::new("t.csv"), b',')
        .unwrap()
        .columns
}

/// Decimal commas and group points are found in a `;` file, not in a `,` file (where
/// `"1,234"` is more often a thousand), and `1.234` alone stays a plain number.
#[test]
fn decimal_commas_and_group_points_on_semicolon_files() {
    let csv = "price;count;plain;text\n1.234,5;1.234.567;1.234;a\n-0,5;12;2.5;1,5\n";
    let columns = infer_from(csv.as_bytes(), Path::new("t.csv"), b';')
        .unwrap()
        .columns;
    let found: Vec<(Kind, NumberMarks)> = columns.iter().map(|c| (c.kind, c.marks)).collect();
    let grouped = |decimal| NumberMarks {
        decimal,
        group: Some(GroupMark::Point),
    };
    assert_eq!(
        found,
        [
            (Kind::Number, grouped(DecimalMark::Comma)),
            (Kind::Integer, grouped(DecimalMark::Point)),
            (Kind::Number, NumberMarks::PLAIN),
            (Kind::Text, NumberMarks::PLAIN),
        ]
    );
    let commas = guess("price,count\n\"1,5\",\"1.234.567\"\n");
    assert!(commas
        .iter()
        .all(|c| c.kind == Kind::Text && c.marks.is_plain()));
}

#[test]
fn kinds() {
    let columns = guess(
        "\u{feff}id,share,day,at,ok,year,zip,label\r\n\
         1,0.5,2021-01-02,2021-01-02T10:00:00Z,true,1999,02134,a\r\n\
         2,1e3,2021-02,2021-01-02T11:00:00+01:00,False,2001,10001,\"b, quoted\"\r\n",
    );
    let kinds: Vec<Kind> = columns.iter().map(|c| c.kind).collect();
    use Kind::*;
    assert_eq!(
        kinds,
        [Integer, Number, Date, DateTime, Boolean, Year, Text, Text]
    );
    assert_eq!(columns[0].name, "id", "the BOM is not part of the name");
    assert!(columns.iter().all(|c| c.required));
    assert_eq!(columns[0].uniqueness, Uniqueness::Unique);
}

#[test]
fn markers_make_text_and_empty_cells_are_missing() {
    let columns = guess("a,b,c\n1,NA,x\n,2.5,x\n3,inf,x\n4,5,x\n");
    assert_eq!(columns[0].kind, Kind::Integer);
    assert!(!columns[0].required);
    assert_eq!(columns[0].uniqueness, Uniqueness::Repeats);
    assert_eq!(columns[1].kind, Kind::Number);
    assert_eq!(columns[1].column_type, ColumnType::String);
    assert_eq!(
        columns[1].markers,
        [("NA".to_string(), 1), ("inf".to_string(), 1)]
    );
    assert_eq!(columns[2].enum_values, Some(vec!["x".to_string()]));
    assert_eq!(columns[2].uniqueness, Uniqueness::Repeats);
}

#[test]
fn enums_need_repetition_and_short_values() {
    let columns = guess("a,b\nx,y\nz,w\n");
    assert_eq!(columns[0].enum_values, None, "as many values as rows");
    let long = "l".repeat(ENUM_MAX_CHARS + 1);
    let columns = guess(&format!("a\n{long}\n{long}\n{long}\n"));
    assert_eq!(columns[0].enum_values, None);
}

#[test]
fn ragged_rows_and_bad_bytes_are_located() {
    let problems = infer_from(&b"a,b\n1,2\n3\n4,\xff\n"[..], Path::new("t.csv"), b',').unwrap_err();
    let lines: Vec<_> = problems.iter().map(|d| d.line).collect();
    assert_eq!(lines, [Some(3), Some(4)]);
}

#[test]
fn uniqueness_gives_up_past_the_budget_and_frees_it() {
    let mut budget = 2;
    let mut column = Tally::new("id".into());
    for cell in ["1", "2", "3"] {
        column.add(cell, &mut budget);
    }
    assert_eq!(column.uniqueness, Uniqueness::Unknown);
    assert_eq!(budget, 2, "the fingerprints are given back");
    let mut repeated = Tally::new("k".into());
    for cell in ["a", "b", "a"] {
        repeated.add(cell, &mut budget);
    }
    assert_eq!(repeated.uniqueness, Uniqueness::Repeats);
    assert_eq!(budget, 2);
}

#[test]
fn header_names_must_be_there_and_distinct() {
    let problems = infer_from(&b"a,,a\n1,2,3\n"[..], Path::new("t.csv"), b',').unwrap_err();
    let messages: Vec<&str> = problems.iter().map(|d| &*d.message).collect();
    assert_eq!(
        messages,
        ["column 2 has no name", "two columns are named `a`"]
    );
    // R's row names: an empty first header is a column, not a problem.
    let columns = guess("\"\",\"a\"\n\"x\",1\n\"y\",2\n");
    assert_eq!(columns[0].name, "");
    assert_eq!(columns[0].kind, Kind::Text);
}

#[test]
fn all_empty_column_is_text() {
    let columns = guess("a,b\n1,\n2,\n");
    assert_eq!(columns[1].kind, Kind::Empty);
    assert_eq!(columns[1].column_type, ColumnType::String);
    assert!(!columns[1].required);
}

/// Whole numbers written with `.0` (pandas writes R's integer columns with gaps so) are
/// numbers shown without decimals; years and clock times among them without group marks.
#[test]
fn whole_numbers_written_with_a_point_zero_are_shown_whole() {
    let csv = "year,dep_time,delay,seats,ratio\n\
               2004.0,1120.0,-4.0,55.0,0.5\n\
               ,517.0,2.0,,1.0\n\
               1998.0,2359.0,0.0,182.0,2.0\n";
    let found: Vec<(String, Kind, bool, Option<&str>)> = (guess(csv).into_iter())
        .map(|c| (c.name, c.kind, c.whole, c.ungrouped))
        .collect();
    let column = |name: &str, whole, ungrouped| (name.to_string(), Kind::Number, whole, ungrouped);
    assert_eq!(
        found,
        [
            column("year", true, Some("years")),
            column("dep_time", true, Some("clock times written HHMM")),
            column("delay", true, None),
            column("seats", true, None),
            column("ratio", false, None),
        ]
    );
    // Integers have no decimals to leave out; one real decimal keeps them all.
    assert!(!guess("n\n1\n2\n")[0].whole);
    assert!(!guess("x\n1.0\n2.5\n")[0].whole);
}
