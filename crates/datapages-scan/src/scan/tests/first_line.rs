//! A first line that is not the header (#52), as the scan of `build` and `check` tells it:
//! one problem at line 1 in place of the header's problems and every ragged row's, and
//! headers of numbers the front matter documents left alone.

use super::{column, run};
use crate::schema::ColumnSpec;

/// `count` number columns `f1`, `f2`, …
fn numbered(count: usize) -> Vec<ColumnSpec> {
    (1..=count)
        .map(|c| column(&format!("f{c}"), "number", ""))
        .collect()
}

#[test]
fn a_shape_line_above_rows_of_another_width_is_one_problem() {
    let mut csv = String::from("569,30,malignant,benign\n");
    for row in 0..40 {
        let cells: Vec<String> = (0..31).map(|c| format!("{row}.{c}")).collect();
        csv.push_str(&(cells.join(",") + "\n"));
    }
    let (_, problems) = run(csv.as_bytes(), &numbered(31));
    assert_eq!(problems.len(), 1, "{problems:#?}");
    let problem = &problems[0];
    assert_eq!((problem.line, problem.column), (Some(1), Some(1)));
    assert!(
        problem.message.contains("the rows have 31")
            && problem.message.contains("(569, 30)")
            && problem.message.contains("the table's shape"),
        "{problem:?}"
    );
    let hint = problem.hint.as_deref().unwrap();
    assert!(hint.contains("naming the 31 columns"), "{hint}");
    assert!(
        hint.contains("documents 31 columns: `f1`, `f2`, `f3`, …"),
        "{hint}"
    );
}

#[test]
fn a_header_that_names_the_documented_columns_keeps_its_ragged_rows() {
    // Every row with a decimal comma: the rows' problem, told as it was.
    let specs = [column("a", "number", ""), column("b", "number", "")];
    let (_, problems) = run(b"a,b\n1,5,2\n3,5,4\n6,5,7\n", &specs);
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(problems
        .iter()
        .all(|p| p.message == "row has 3 fields, the header has 2"));
    assert!(problems[0]
        .hint
        .as_deref()
        .unwrap()
        .contains("decimal comma"));
}

#[test]
fn a_first_line_of_data_is_one_problem_where_it_shows() {
    let specs = [
        column("id", "string", ""),
        column("code", "string", ""),
        column("county", "string", ""),
        column("population", "integer", ""),
    ];
    let csv =
        b"CN010010,01,\"Autauga County, AL\",54571\nCN010030,03,\"Baldwin County, AL\",182265\n";
    let (_, problems) = run(csv, &specs);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert_eq!((problems[0].line, problems[0].column), (Some(1), Some(10)));
    assert!(problems[0].message.contains("looks like data"));
    assert!(problems[0].message.contains("(`01`)"));
    let hint = problems[0].hint.as_deref().unwrap();
    assert!(
        hint.contains("documents 4 columns: `id`, `code`, `county`, …"),
        "{hint}"
    );

    let positions: Vec<String> = (0..12).map(|c| c.to_string()).collect();
    let csv = format!("{}\n{}\n", positions.join(","), positions.join(","));
    let (_, problems) = run(csv.as_bytes(), &numbered(12));
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(problems[0]
        .message
        .contains("its 12 fields are all numbers"));
}

#[test]
fn headers_of_numbers_the_front_matter_documents_are_names() {
    let years = [
        column("country", "string", ""),
        column("1990", "number", ""),
        column("1991", "number", ""),
    ];
    assert!(run(b"country,1990,1991\nPeru,1,2\n", &years).1.is_empty());
    // A code-like name documented as written, and R's row names above class bounds.
    let codes = [column("01", "integer", ""), column("02", "integer", "")];
    assert!(run(b"01,02\n1,2\n", &codes).1.is_empty());
    let crimtab = [
        column("", "number", ""),
        column("142.24", "integer", ""),
        column("144.78", "integer", ""),
    ];
    assert!(run(b"\"\",142.24,144.78\n9.4,0,1\n", &crimtab).1.is_empty());
    // A first line naming a documented column is the header: its other names are near
    // misses (a documented year misspelt, `01` for `1`), not data.
    let (_, problems) = run(b"country,1990,1992\nPeru,1,2\n", &years);
    assert!(
        problems.iter().any(|p| p.message.contains("`1992`")),
        "{problems:#?}"
    );
    let ids = [column("id", "string", ""), column("1", "integer", "")];
    let (_, problems) = run(b"id,01\nx,2\n", &ids);
    assert!(
        problems
            .iter()
            .any(|p| p.message == "column `01` is in the CSV but not documented"),
        "{problems:#?}"
    );
}
