//! Tests of the scan: counts, hashes, cell and header problems, their locations and caps,
//! and chart points; the split scan's own tests are in `tests/split.rs`, property tests in `tests/properties.rs`.

mod first_line;
mod formats;
mod profile;
mod properties;
mod split;

use super::chart::CHART_POINTS_CAP;
use super::problems::ERRORS_SHOWN_PER_COLUMN;
use super::*;
use crate::schema::{ColumnSpec, ColumnType};

pub(super) fn column(name: &str, t: &str, extra: &str) -> ColumnSpec {
    toml::from_str(&format!(
        "name = \"{name}\"\ntitle = \"{name}\"\ntype = \"{t}\"\ndescription = \"d\"\n{extra}"
    ))
    .unwrap()
}

pub(super) fn run(csv: &[u8], specs: &[ColumnSpec]) -> (Option<CsvSummary>, Vec<Diagnostic>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv");
    std::fs::write(&path, csv).unwrap();
    let compiled: Vec<CompiledColumn> = specs
        .iter()
        .map(|spec| CompiledColumn {
            spec,
            pattern: spec
                .pattern
                .as_ref()
                .map(|p| Regex::new(&format!("^(?:{p})$")).unwrap()),
            date_format: spec.format.as_ref().map(|f| {
                crate::content::date_format::DateFormat::compile(f, spec.column_type).unwrap()
            }),
            missing: crate::content::dialect::MissingValues::resolve(&[spec
                .missing_values
                .as_deref()]),
            marks: match spec.column_type.is_numeric() {
                true => NumberMarks::resolve((spec.decimal, spec.group), (None, None)),
                false => NumberMarks::PLAIN,
            },
        })
        .collect();
    let ids: HashSet<&str> = ["src-a"].into_iter().collect();
    scan(&path, Path::new("t.csv"), &compiled, &ids, 100)
}

#[test]
fn counts_and_hashes() {
    let specs = [column("a", "string", ""), column("n", "integer", "")];
    let (summary, problems) = run(b"a,n\nx,10366\n<b>,\n", &specs);
    let summary = summary.unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(summary.rows, 2);
    assert_eq!(summary.bytes, 17);
    assert_eq!(
        summary.sha256,
        crate::checksum::Sha256::of(b"a,n\nx,10366\n<b>,\n")
    );
    assert!(summary.has_empty_cells);
}

#[test]
fn bom_crlf_and_quoted_newlines_are_accepted() {
    let specs = [column("a", "string", ""), column("b", "number", "")];
    let (summary, problems) = run(b"\xef\xbb\xbfa,b\r\n\"x, \"\"y\"\"\nz\",1.5\r\n", &specs);
    assert!(problems.is_empty(), "{problems:?}");
    let summary = summary.unwrap();
    assert_eq!(summary.header, ["a", "b"]);
    assert_eq!(summary.rows, 1);
}

#[test]
fn forbidden_characters_in_cells_are_warnings() {
    let specs = [column("a", "string", ""), column("b", "string", "")];
    let csv = b"a,b\nok,\"tab\there\nnew line\"\nx\x1b[31m,\x00\n\xc2\x85,\xef\xbf\xbe\n";
    let (summary, problems) = run(csv, &specs);
    assert_eq!(summary.unwrap().rows, 3);
    let found: Vec<(Option<u32>, Option<u32>, &str)> = problems
        .iter()
        .map(|d| (d.line, d.column, &*d.message))
        .collect();
    assert_eq!(
        found,
        [
            (
                Some(4),
                Some(1),
                "`a` holds U+001B (ESC), a character HTML and XML cannot carry"
            ),
            (
                Some(4),
                Some(8),
                "`b` holds U+0000 (NUL), a character HTML and XML cannot carry"
            ),
            (
                Some(5),
                Some(1),
                "`a` holds U+0085 (C1 control), a character HTML and XML cannot carry"
            ),
            (
                Some(5),
                Some(3),
                "`b` holds U+FFFE (noncharacter), a character HTML and XML cannot carry"
            ),
        ]
    );
    assert!(problems
        .iter()
        .all(|d| d.severity == crate::diagnostics::Severity::Warning));
}

/// A number a 64-bit float cannot hold is valid Table Schema, but readers turn it into
/// infinity or 0: each is a warning at its cell, and the profile leaves it out.
#[test]
fn numbers_a_float_cannot_hold_are_warnings_at_their_cells() {
    let specs = [column("a", "string", ""), column("n", "number", "")];
    let long = format!("1{}", "0".repeat(400));
    let csv = format!(
        "a,n\nw,1.5\nx,1E309\ny,-2e400\nz,1e-400\nzero,0e-999\nzeros,0.000e-400\n\
         inf,INF\nnan,NaN\nneg,-INF\nsmall,5e-324\nbig,1.7e308\nlong,{long}\n"
    );
    let (summary, problems) = run(csv.as_bytes(), &specs);
    let found: Vec<(Option<u32>, Option<u32>, bool)> = problems
        .iter()
        .map(|d| (d.line, d.column, d.message.contains("beyond the largest")))
        .collect();
    assert_eq!(
        found,
        [
            (Some(3), Some(3), true),
            (Some(4), Some(3), true),
            (Some(5), Some(3), false),
            (Some(13), Some(6), true),
        ],
        "{problems:#?}"
    );
    assert!(problems
        .iter()
        .all(|d| d.severity == crate::diagnostics::Severity::Warning));
    assert!(problems[0]
        .message
        .starts_with("`n` holds 1E309, beyond the largest number a 64-bit float can hold"));
    assert!(problems[2].message.contains("read it as 0"));
    assert!(problems[0].hint.as_deref().unwrap().contains("INF"));
    // The long cell is shown by its ends and its length, not 401 digits.
    assert!(
        problems[3].message.contains("(401 characters)"),
        "{}",
        problems[3].message
    );
    // The profile holds only what a float holds: 1.5, the two zeros, 5e-324 and 1.7e308.
    let profile = &summary.unwrap().profiles[1];
    let numbers = profile.numbers.as_ref().unwrap();
    assert_eq!(numbers.count, 5);
    assert_eq!((numbers.min, numbers.max), (0.0, 1.7e308));
}

#[test]
fn type_errors_name_line_column_and_value() {
    let specs = [column("a", "string", ""), column("n", "integer", "")];
    let (_, problems) = run(b"a,n\nx,1\ny,1.5\n", &specs);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let p = &problems[0];
    assert_eq!((p.line, p.column), (Some(3), Some(3)));
    assert!(
        p.message
            .contains("`n` is declared integer, but \"1.5\" is not"),
        "{}",
        p.message
    );
    assert_eq!(p.source_line.as_deref(), Some("y,1.5"));
}

#[test]
fn ragged_rows_say_expected_and_found() {
    let specs = [column("a", "string", ""), column("b", "string", "")];
    let (_, problems) = run(b"a,b\nx\n", &specs);
    assert_eq!(problems[0].line, Some(2));
    assert!(problems[0]
        .message
        .contains("row has 1 field, the header has 2"));
}

#[test]
fn constraints_are_checked() {
    let specs = [
        column(
            "k",
            "string",
            "required = true\nunique = true\nenum = [\"SATA\", \"SAS\"]",
        ),
        column("v", "number", "minimum = 0\nmaximum = 10"),
        column("p", "string", "pattern = \"[0-9]+K\""),
        column("s", "string", "references = \"sources\""),
    ];
    let (summary, problems) = run(
        b"k,v,p,s\nSATA,1,32K,src-a\nSATA,11,32,src-b\nSAT,-1,1K,src-a\n,5,2K,src-a\n",
        &specs,
    );
    let messages: Vec<&str> = problems.iter().map(|p| &*p.message).collect();
    let text = messages.join("\n");
    assert!(
        text.contains("repeats the value \"SATA\" of line 2"),
        "{text}"
    );
    assert!(text.contains("beyond the maximum 10"), "{text}");
    assert!(text.contains("beyond the minimum 0"), "{text}");
    assert!(text.contains("does not match the pattern"), "{text}");
    assert!(text.contains("names the source \"src-b\""), "{text}");
    assert!(text.contains("does not allow \"SAT\""), "{text}");
    assert!(
        text.contains("`k` is empty, but the column is required"),
        "{text}"
    );
    assert_eq!(
        summary
            .unwrap()
            .referenced_sources
            .into_iter()
            .collect::<Vec<_>>(),
        ["src-a"]
    );
}

#[test]
fn header_mismatches_are_reported_with_near_misses() {
    let specs = [column("alpha", "string", ""), column("beta", "string", "")];
    let (_, problems) = run(b"alpha,betta,gamma\n1,2,3\n", &specs);
    let text: Vec<String> = problems
        .iter()
        .map(|p| format!("{} | {:?}", p.message, p.hint))
        .collect();
    let text = text.join("\n");
    assert!(
        text.contains("column `betta` is in the CSV but not documented"),
        "{text}"
    );
    assert!(text.contains("did you mean `beta`"), "{text}");
    assert!(
        text.contains("column `gamma` is in the CSV but not documented"),
        "{text}"
    );
    assert!(
        text.contains("documented column `beta` is missing"),
        "{text}"
    );
}

#[test]
fn empty_and_header_only_files() {
    let specs = [column("a", "string", "")];
    let (summary, problems) = run(b"", &specs);
    assert!(summary.is_none());
    assert!(problems[0].message.contains("empty"));
    let (_, problems) = run(b"a\n", &specs);
    assert_eq!(problems[0].severity, crate::diagnostics::Severity::Warning);
}

#[test]
fn invalid_utf8_is_located() {
    let specs = [column("a", "string", "")];
    let (_, problems) = run(b"a\nok\nbad\xff\n", &specs);
    assert_eq!(problems[0].line, Some(3));
    assert!(problems[0].message.contains("invalid UTF-8"));
}

#[test]
fn problems_are_capped_per_column() {
    let specs = [column("n", "integer", "")];
    let mut csv = b"n\n".to_vec();
    for _ in 0..20 {
        csv.extend_from_slice(b"x\n1\n1\n");
    }
    let (summary, problems) = run(&csv, &specs);
    assert!(summary.unwrap().wrong_types.is_empty());
    assert_eq!(problems.len(), ERRORS_SHOWN_PER_COLUMN + 1);
    assert!(problems
        .last()
        .unwrap()
        .message
        .contains("15 more type problems in column `n`"));
}

#[test]
fn a_column_whose_cells_mostly_fail_its_type_is_one_wrong_declaration() {
    let specs = [column("n", "integer", ""), column("s", "integer", "")];
    let mut csv = b"n,s\n".to_vec();
    for i in 0..1704 {
        csv.extend_from_slice(format!("{i}.5,{i}\n").as_bytes());
    }
    csv.extend_from_slice(b"7,x\n");
    let (summary, problems) = run(&csv, &specs);
    let wrong = summary.unwrap().wrong_types;
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    assert_eq!(
        (wrong[0].column, wrong[0].failed, wrong[0].filled),
        (0, 1704, 1705)
    );
    assert_eq!(wrong[0].examples, ["0.5", "1.5", "2.5"]);
    assert_eq!(wrong[0].looks_like, ColumnType::Number);
    // Column `s` keeps its one cell error, located; column `n` has none of its own.
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].line, Some(1706));
    assert!(problems[0].message.contains("`s` is declared integer"));
}

#[test]
fn charts_collect_filtered_points_in_the_same_pass() {
    let specs = [
        column("k", "string", ""),
        column("s", "string", ""),
        column("v", "number", ""),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv");
    let mut csv = String::from("k,s,v\nx,a,10366\nx,b,\ny,a,1.5\nz,a,2\n");
    for _ in 0..CHART_POINTS_CAP {
        csv.push_str("w,a,1\n");
    }
    std::fs::write(&path, csv).unwrap();
    let compiled = CompiledColumn::without_patterns(&specs);
    let filtered = ChartColumns {
        id: "filtered".into(),
        x: 0,
        y: 2,
        series: Some(1),
        columns_as_series: Vec::new(),
        filter: vec![(0, vec!["x".into(), "y".into()])],
        gaps: false,
        reduce: None,
    };
    let all = ChartColumns {
        id: "all".into(),
        x: 0,
        y: 2,
        series: None,
        columns_as_series: Vec::new(),
        filter: Vec::new(),
        gaps: false,
        reduce: None,
    };
    let charts = [filtered, all];
    let ids = HashSet::new();
    let inputs = ScanInputs {
        columns: &compiled,
        charts: &charts,
        source_ids: &ids,
        rows_to_render: 10,
        dialect: crate::content::dialect::CsvDialect::COMMA,
        typed_numbers: &[],
        primary_key: &[],
    };
    let (summary, problems) = scan_with_charts(&path, Path::new("t.csv"), &inputs);
    let (split, split_problems) = scan_file(&path, Path::new("t.csv"), &inputs, Some(0));
    assert_eq!(
        split_problems, problems,
        "the halves put together say the same"
    );
    let summary = summary.unwrap();
    assert_eq!(split.unwrap().charts, summary.charts);
    let first = &summary.charts[0];
    assert_eq!(first.points.len(), 2);
    assert_eq!(first.points[0].y_text, "10,366");
    assert_eq!(first.points[0].series.as_deref(), Some("a"));
    assert_eq!(first.points[1].y, 1.5);
    assert_eq!(first.missing, 1);
    let second = &summary.charts[1];
    assert_eq!(second.points.len(), CHART_POINTS_CAP);
    assert_eq!(second.dropped, 3);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0]
        .message
        .contains("chart `all` draws only the first 5,000 of 5,003 points"));
}

#[test]
fn ragged_rows_past_the_cap_are_counted_for_the_rows() {
    let specs = [column("a", "string", ""), column("b", "string", "")];
    let mut csv = b"a,b\n".to_vec();
    for _ in 0..8 {
        csv.extend_from_slice(b"x\n");
    }
    let (_, problems) = run(&csv, &specs);
    assert_eq!(problems.len(), ERRORS_SHOWN_PER_COLUMN + 1);
    let last = problems.last().unwrap();
    assert_eq!(last.message, "3 more ragged problems in rows not shown");
    assert_eq!(last.severity, crate::diagnostics::Severity::Error);
}

#[test]
fn forbidden_characters_past_the_cap_stay_warnings() {
    let specs = [column("a", "string", "")];
    let mut csv = b"a\n".to_vec();
    for _ in 0..7 {
        csv.extend_from_slice(b"x\x01\n");
    }
    let (_, problems) = run(&csv, &specs);
    assert_eq!(problems.len(), ERRORS_SHOWN_PER_COLUMN + 1);
    let last = problems.last().unwrap();
    assert_eq!(
        last.message,
        "2 more character problems in column `a` not shown"
    );
    assert_eq!(last.severity, crate::diagnostics::Severity::Warning);
}

/// A thread keeps its reader for small files (`pool`): a file scanned after others, the
/// last of them cut off inside a quoted field, gets exactly what a fresh reader gives it
/// (rows, hash, header, problems and their lines and columns).
#[test]
fn a_kept_reader_scans_the_next_file_as_a_new_one_would() {
    // Written anew each time: only the file's times differ.
    fn scanned(csv: &[u8]) -> String {
        let specs = [column("a", "string", ""), column("n", "integer", "")];
        let (mut summary, problems) = run(csv, &specs);
        if let Some(summary) = &mut summary {
            (summary.modified, summary.stamp) = (None, None);
        }
        format!("{:?}", (summary, problems))
    }
    let small: &[u8] = b"a,n\nx,1\n\"q\"\"uoted\",2\ny,not a number\nz\n";
    // Over 16 KiB: a reader with a 32 KiB buffer, kept beside the 8 KiB one.
    let mut larger = small.to_vec();
    for n in 0..3000 {
        larger.extend_from_slice(format!("r,{n}\n").as_bytes());
    }
    let mut cut_off_larger = larger.clone();
    cut_off_larger.extend_from_slice(b"\"never closed,9\n");
    for next in [small, &larger[..]] {
        let owned = next.to_vec();
        let fresh = std::thread::spawn(move || scanned(&owned)).join().unwrap();
        for before in [
            &b"a,n\nx,1\n\"cut off, 2\n"[..],
            b"",
            b"a,n\r\nlonger,3\r\nrows,4\r\nthan,5\r\nthe,6\r\nnext,7\r\n",
            b"\xef\xbb\xbfa,n\nbom,8\n",
            &cut_off_larger,
            &larger,
        ] {
            let _ = scanned(before);
            assert_eq!(scanned(next), fresh, "after {} bytes", before.len());
        }
        assert!(fresh.contains("not a number"), "{fresh}");
    }
}

/// Decimal commas and group marks are checked and profiled as the plain numbers they
/// write; a misplaced mark is a type error quoting the cell as written, with a hint in the
/// column's own marks.
#[test]
fn decimal_commas_and_group_marks_are_read_as_numbers() {
    let specs = [
        column("a", "string", ""),
        column("n", "number", "decimal = \",\"\ngroup = \".\""),
        column("k", "integer", "group = \" \""),
    ];
    let csv = "a,n,k\nw,\"1.234,5\",1 000\nx,\"-0,5\",12\ny,\"1,5e3\",-12 345 678\n";
    let (summary, problems) = run(csv.as_bytes(), &specs);
    assert!(problems.is_empty(), "{problems:#?}");
    let summary = summary.unwrap();
    let n = summary.profiles[1].numbers.as_ref().unwrap();
    assert_eq!((n.min, n.max), (-0.5, 1500.0));
    assert_eq!(
        (n.min_text.as_str(), n.max_text.as_str()),
        ("-0.5", "1.5e3")
    );
    let k = summary.profiles[2].numbers.as_ref().unwrap();
    assert_eq!((k.min, k.max), (-12_345_678.0, 1000.0));

    // Most cells are right: the wrong ones are reported at their cells.
    let bad = format!(
        "a,n,k\nw,\"1.23,4\",1 000\nx,1.5,1 0\n{}",
        "y,\"2,5\",12\n".repeat(6)
    );
    let (_, problems) = run(bad.as_bytes(), &specs);
    let found: Vec<(Option<u32>, &str)> = problems.iter().map(|d| (d.line, &*d.message)).collect();
    assert_eq!(
        found,
        [
            (Some(2), "`n` is declared number, but \"1.23,4\" is not"),
            (Some(3), "`n` is declared number, but \"1.5\" is not"),
            (Some(3), "`k` is declared integer, but \"1 0\" is not"),
        ],
        "{problems:#?}"
    );
    let hint = problems[0].hint.as_deref().unwrap();
    assert!(hint.contains("such as 1.234,5 or -0,5"), "{hint}");
    assert!(
        hint.contains("`.` between groups of three digits"),
        "{hint}"
    );
}

/// A plain number column whose cell is grouped names the keys that would read it.
#[test]
fn a_grouped_cell_in_a_plain_column_names_the_group_key() {
    let specs = [column("n", "integer", "")];
    let (_, problems) = run(b"n\n\"1,000\"\n", &specs);
    let hint = problems[0].hint.as_deref().unwrap();
    assert!(hint.contains("`group = \",\"`"), "{hint}");
    let (_, problems) = run(b"n\nabc\n", &specs);
    assert!(!problems[0].hint.as_deref().unwrap().contains("group"));
}

#[test]
fn a_row_split_by_decimal_commas_is_told_so() {
    let specs = [column("a", "string", ""), column("b", "number", "")];
    let (_, problems) = run(b"a,b\nx,2\ny,1,5\n", &specs);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let hint = problems[0].hint.as_deref().unwrap();
    assert!(
        hint.contains("decimal comma (`1,5`, fields 2 and 3)"),
        "{hint}"
    );
    // Extra fields that are not halves of numbers keep the plain hint.
    let (_, problems) = run(b"a,b\nx,2\ny,q,r\n", &specs);
    assert_eq!(problems[0].hint.as_deref(), Some(super::RAGGED_HINT));
}
