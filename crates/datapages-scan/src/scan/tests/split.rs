//! The split scan reports exactly what one pass reports: clean halves are put together,
//! and a cut inside a quoted field, a problem in the second half or a duplicate across the
//! halves makes the first half read on as one pass (property tests over generated files).
//! Column profiles included: joined halves give the figures one pass gives.

use std::collections::HashSet;
use std::path::Path;

use super::column;
use crate::diagnostics::Diagnostic;
use crate::scan::split::HALVES_JOINED;
use crate::scan::{scan_file, ChartColumns, CompiledColumn, CsvSummary, ScanInputs};

/// Everything a scan reports, for comparing a split scan with a single pass.
fn report(result: (Option<CsvSummary>, Vec<Diagnostic>)) -> String {
    let (summary, mut problems) = result;
    // The "more problems not shown" lines come in no particular order.
    problems.sort_by_key(|d| format!("{d:?}"));
    let summary = summary.map(|s| {
        (
            s.header,
            s.rows,
            s.bytes,
            s.sha256,
            s.has_empty_cells,
            s.referenced_sources,
            s.date_precisions,
            s.longest_cells,
            s.charts,
            s.profiles,
            s.typed_cells,
        )
    });
    format!("{summary:?}\n{problems:#?}")
}

/// The scan of `csv` in one pass and split in the middle must report the same. Returns
/// whether the split scan put two halves together (rather than reading on as one pass).
fn assert_split_agrees(csv: &[u8], rows_to_render: u64) -> bool {
    assert_split_agrees_in(csv, rows_to_render, b',')
}

/// [`assert_split_agrees`] for a file separated by `delimiter`, whose `v` column declares
/// `NA` missing.
fn assert_split_agrees_in(csv: &[u8], rows_to_render: u64, delimiter: u8) -> bool {
    agreed_report(csv, rows_to_render, delimiter).0
}

/// Whether the halves were joined, and the report both scans agree on.
fn agreed_report(csv: &[u8], rows_to_render: u64, delimiter: u8) -> (bool, String) {
    let specs = [
        column("id", "integer", "unique = true"),
        column("v", "number", "minimum = 0"),
        column("when", "date", ""),
        column("src", "string", "references = \"sources\""),
        column("note", "string", ""),
    ];
    let mut compiled = CompiledColumn::without_patterns(&specs);
    let na = ["".to_string(), "NA".to_string()];
    compiled[1].missing = crate::content::dialect::MissingValues::resolve(&[Some(&na)]);
    let charts = [ChartColumns {
        id: "v".into(),
        x: 0,
        y: 1,
        series: None,
        columns_as_series: Vec::new(),
        filter: Vec::new(),
        gaps: true,
        reduce: Some(super::super::XPosition::Number),
    }];
    let ids: HashSet<&str> = ["a", "b"].into_iter().collect();
    // Numbers a page might type: their cells are counted in both halves, the first kept.
    let typed = ["12", "5.5", "7"].map(|n| crate::content::numbers::Typed {
        offset: 0,
        number: n.to_string(),
        raw: n.to_string(),
    });
    let inputs = ScanInputs {
        columns: &compiled,
        charts: &charts,
        source_ids: &ids,
        rows_to_render,
        dialect: crate::content::dialect::CsvDialect {
            delimiter,
            skip_initial_space: false,
        },
        typed_numbers: &typed,
        primary_key: &[],
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv");
    std::fs::write(&path, csv).unwrap();
    let display = Path::new("t.csv");
    let one_pass = report(scan_file(&path, display, &inputs, None));
    let joined_before = HALVES_JOINED.with(|n| n.get());
    let split = report(scan_file(&path, display, &inputs, Some(0)));
    assert_eq!(split, one_pass, "{}", String::from_utf8_lossy(csv));
    (HALVES_JOINED.with(|n| n.get()) > joined_before, one_pass)
}

#[test]
fn semicolon_and_tab_files_split_as_comma_files_do() {
    for delimiter in [b';', b'\t'] {
        let d = char::from(delimiter);
        let mut csv = format!("id{d}v{d}when{d}src{d}note\n");
        for i in 0..3000 {
            // `NA` is missing in `v`; commas are plain text here; some notes are quoted.
            let v = if i % 5 == 0 {
                "NA".to_string()
            } else {
                format!("{}.5", i % 31)
            };
            let note = if i % 3 == 0 {
                format!("\"a{d}b\"")
            } else {
                format!("x, {i}")
            };
            csv.push_str(&format!("{i}{d}{v}{d}2021-0{}{d}a{d}{note}\n", i % 9 + 1));
        }
        assert!(
            assert_split_agrees_in(csv.as_bytes(), 100, delimiter),
            "the halves were joined"
        );
        // An `NA` outside `v` is a type error, found in the second half: one pass instead.
        csv.push_str(&format!("3000{d}1{d}NA{d}a{d}x\n"));
        assert!(!assert_split_agrees_in(csv.as_bytes(), 100, delimiter));
    }
}

#[test]
fn clean_halves_are_put_together() {
    let rows = |count: usize| {
        let mut csv = String::from("id,v,when,src,note\n");
        for i in 0..count {
            let v = if i % 7 == 0 {
                String::new()
            } else {
                format!("{}.{}", i % 97, i % 10)
            };
            csv.push_str(&format!(
                "{i},{v},2021-{:02},a,\"row {i}, quoted\"\n",
                i % 12 + 1
            ));
        }
        csv.into_bytes()
    };
    assert!(
        assert_split_agrees(&rows(3000), 1000),
        "the halves were joined"
    );
    assert!(
        assert_split_agrees(&rows(3000), 1),
        "the halves were joined"
    );
    assert!(
        assert_split_agrees(&rows(12_000), u64::MAX),
        "the halves were joined"
    );
    // With every row shown, the page measures the first 5,000 rows, which the first
    // half of 3,000 rows does not hold: one pass instead.
    assert!(!assert_split_agrees(&rows(3000), u64::MAX));
    // Distinct text: within the cap in all, and beyond it only once the halves are joined.
    for distinct in [800, 1500] {
        let mut csv = String::from("id,v,when,src,note\n");
        for i in 0..3000 {
            let note = if distinct == 800 { i % 800 } else { i / 2 };
            csv.push_str(&format!(
                "{i},{}.25,2021-03-0{},b,n{note}\n",
                i % 13,
                i % 9 + 1
            ));
        }
        assert!(
            assert_split_agrees(csv.as_bytes(), 10),
            "the halves were joined"
        );
    }
}

#[test]
fn a_cut_inside_a_quoted_field_reads_on_as_one_pass() {
    let mut csv = String::from("id,v,when,src,note\r\n");
    for i in 0..40 {
        csv.push_str(&format!("{i},{i}.5,2021-0{},a,plain\r\n", i % 9 + 1));
    }
    // A note of many lines straddles the middle of the file.
    let lines: String = (0..200).map(|i| format!("line {i}\n")).collect();
    csv.push_str(&format!("40,1,2021,b,\"{lines}\"\r\n"));
    for i in 41..80 {
        csv.push_str(&format!("{i},{i},2021-05,a,\"x, y\"\r\n"));
    }
    assert!(!assert_split_agrees(csv.as_bytes(), 1000));
    assert!(!assert_split_agrees(csv.as_bytes(), 3));
    // And with a problem in the second half, and a duplicate across the halves.
    let broken = csv.replace("79,79,", "79,-4,").replace("78,78", "3,78");
    assert!(!assert_split_agrees(broken.as_bytes(), 1000));
}

#[test]
fn a_quote_left_open_in_the_second_half_is_reported_as_by_one_pass() {
    let mut csv = String::from("id,v,when,src,note\n");
    for i in 0..3000 {
        csv.push_str(&format!("{i},{i}.5,2021-0{},a,plain\n", i % 9 + 1));
    }
    // The last note opens a quote that the file never closes: the record it starts has
    // the right width, so the second half finds nothing wrong and the halves are joined.
    csv.push_str("3000,1,2021-01,a,\"never closed\n3001,2,2021,a,x\n");
    let (joined, report) = agreed_report(csv.as_bytes(), 10, b',');
    assert!(joined, "the halves were joined");
    assert!(
        report.contains("a quote opened here is never closed")
            && report.contains("3002,\n        ),\n        column: Some(\n            18,")
            && report.contains("end of the file (line 3003)"),
        "{report}"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, ..Default::default() })]

    /// Rows drawn from good and bad cells, quoted commas and newlines, blank lines,
    /// ragged rows, CRLF and LF: splitting never changes what the scan reports.
    #[test]
    fn a_split_scan_reports_what_one_pass_reports(
        rows in proptest::collection::vec(
            (0u8..6, 0u8..6, 0u8..5, 0u8..4, 0u8..6),
            0..120,
        ),
        crlf in proptest::bool::ANY,
        clean in proptest::bool::ANY,
        rows_to_render in proptest::sample::select(vec![1u64, 5, 1000, u64::MAX]),
    ) {
        let end = if crlf { "\r\n" } else { "\n" };
        let mut csv = format!("id,v,when,src,note{end}");
        for (i, &(id, v, when, src, note)) in rows.iter().enumerate() {
            // Clean files are the ones whose halves are put together.
            let (id, v, when, src, note) = if clean {
                (3, [0, 2, 4][v as usize % 3], [0, 1, 3, 4][when as usize % 4], src % 2, [0, 1, 2, 5][note as usize % 4])
            } else {
                (id, v, when, src, note)
            };
            let id = match id { 0 => String::new(), 1 => "x".into(), 2 => "7".into(), _ => i.to_string() };
            let v = ["1.5", "-2", "", "1,000", "2.5e3", "abc"][v as usize];
            let when = ["2021", "2021-02", "2021-02-30", "", "2021-05-21T10:00:00Z"][when as usize];
            let src = ["a", "b", "c", ""][src as usize];
            match note {
                0 => csv.push_str(&format!("{id},{v},{when},{src},plain{end}")),
                1 => csv.push_str(&format!("{id},\"{v}\",{when},{src},\"a, b\"{end}")),
                2 => csv.push_str(&format!("{id},{v},{when},{src},\"two\nlines\"{end}")),
                3 => csv.push_str(&format!("{id},{v},{when}{end}")),
                4 => csv.push_str(&format!("{end}{id},{v},{when},{src},{end}")),
                _ => csv.push_str(&format!("{id},{v},{when},{src},\"say \"\"hi\"\"\"{end}")),
            }
        }
        assert_split_agrees(csv.as_bytes(), rows_to_render);
    }

    /// A duplicate across the halves of an otherwise clean file is still reported.
    #[test]
    fn a_duplicate_across_the_halves_is_found(rows in 50usize..400, from in 0usize..10, to in 0usize..10) {
        let mut csv = String::from("id,v,when,src,note\n");
        for i in 0..rows {
            let id = if i == rows - 1 - to { from } else { i + 10 };
            csv.push_str(&format!("{id},1.5,2021,a,x\n"));
        }
        assert_split_agrees(csv.as_bytes(), 1000);
    }
}
