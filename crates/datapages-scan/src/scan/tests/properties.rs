//! Property tests over the CSV scan and the type checks: arbitrary tables round-trip through
//! the streaming scan, the type checks agree with Rust's own parsers, and bad cells are
//! always found. Case counts are bounded so the suite stays fast. (Formerly
//! tests/csv_properties.rs: they use the scan's internals, which the library keeps private;
//! the streamed rows' property is in render/table_rows.rs.)

use std::collections::HashSet;
use std::path::Path;

use crate::diagnostics::Severity;
use crate::scan::{scan, CompiledColumn};
use crate::schema::{format_cell, ColumnSpec, ColumnType};
use proptest::prelude::*;
use sha2::{Digest, Sha256};

fn column(name: &str, column_type: &str) -> ColumnSpec {
    toml::from_str(&format!(
        "name = \"{name}\"\ntitle = \"{name}\"\ntype = \"{column_type}\"\ndescription = \"d\"\n"
    ))
    .expect("valid column")
}

fn write_csv(
    rows: &[Vec<String>],
    header: &[&str],
) -> (tempfile::TempDir, std::path::PathBuf, Vec<u8>) {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(header).unwrap();
    for row in rows {
        writer.write_record(row).unwrap();
    }
    let bytes = writer.into_inner().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv");
    std::fs::write(&path, &bytes).unwrap();
    (dir, path, bytes)
}

fn compiled(specs: &[ColumnSpec]) -> Vec<CompiledColumn<'_>> {
    CompiledColumn::without_patterns(specs)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Any table of text (commas, quotes, newlines, any Unicode) scans without a problem,
    /// with the exact row count, byte count and SHA-256 of the file.
    #[test]
    fn any_text_table_scans_exactly(rows in prop::collection::vec(prop::collection::vec(".{0,12}", 3), 0..40)) {
        let specs = [column("a", "string"), column("b", "string"), column("c", "string")];
        let (_dir, path, bytes) = write_csv(&rows, &["a", "b", "c"]);
        let ids = HashSet::new();
        let (summary, problems) = scan(&path, Path::new("t.csv"), &compiled(&specs), &ids, 25);
        let summary = summary.expect("scanned");
        let errors: Vec<_> = problems.iter().filter(|p| p.severity == Severity::Error).collect();
        prop_assert!(errors.is_empty(), "{:?}", errors);
        prop_assert_eq!(summary.rows, rows.len() as u64);
        prop_assert_eq!(summary.bytes, bytes.len() as u64);
        let digest: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
        prop_assert_eq!(summary.sha256.to_string(), digest);
    }

    /// Every bad cell in an integer column is found: the first five are located on their
    /// line, the rest counted; or, when most cells are bad, all of them are counted against
    /// the declaration.
    #[test]
    fn bad_integers_are_always_found(cells in prop::collection::vec(prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        "[a-z ,.]{1,6}".prop_map(|s| s),
    ], 1..60)) {
        let specs = [column("n", "integer"), column("s", "string")];
        let rows: Vec<Vec<String>> = cells.iter().map(|c| vec![c.clone(), "x".to_string()]).collect();
        let (_dir, path, _) = write_csv(&rows, &["n", "s"]);
        let ids = HashSet::new();
        let (summary, problems) = scan(&path, Path::new("t.csv"), &compiled(&specs), &ids, 10);
        let bad_lines: Vec<u32> = cells
            .iter()
            .enumerate()
            .filter(|(_, c)| c.parse::<i64>().is_err())
            .map(|(i, _)| i as u32 + 2)
            .collect();
        // When most cells are bad, the declaration is the error: counted once, cells unlisted.
        let wrong = &summary.expect("scanned").wrong_types;
        if bad_lines.len() >= 2 && bad_lines.len() * 2 > cells.len() {
            prop_assert_eq!(wrong.len(), 1);
            prop_assert_eq!(wrong[0].failed, bad_lines.len() as u64);
            prop_assert!(problems.iter().all(|p| p.line.is_none() && !p.message.contains("more type")), "{:?}", problems);
            return Ok(());
        }
        prop_assert!(wrong.is_empty());
        let located: Vec<u32> = problems.iter().filter_map(|p| p.line).collect();
        prop_assert_eq!(&located[..], &bad_lines[..bad_lines.len().min(5)]);
        let rest = bad_lines.len().saturating_sub(5);
        let counted = problems.iter().any(|p| p.message.starts_with(&format!("{rest} more type problems")));
        prop_assert_eq!(counted, rest > 0);
    }

    /// Whatever the integer check accepts, Rust parses; every i64 is accepted; formatting
    /// for readers only inserts separators.
    #[test]
    fn integer_check_agrees_with_rust(n in any::<i64>(), s in "[-+0-9a-z.,]{0,8}") {
        let text = n.to_string();
        prop_assert!(ColumnType::Integer.check(&text).is_ok());
        let mut shown = String::new();
        format_cell(ColumnType::Integer, &text, &mut shown);
        prop_assert_eq!(shown.replace(',', ""), text);
        if ColumnType::Integer.check(&s).is_ok() {
            prop_assert!(s.parse::<i128>().is_ok(), "{}", s);
        }
    }

    /// Whatever the number check accepts parses as an f64, finite unless it is past a
    /// double's range (`1E309`: a lexical number, which Python and frictionless read as
    /// infinity too; in 8 characters only an exponent gets there); every finite f64,
    /// printed plainly or in scientific notation, is accepted; formatting keeps the
    /// printed digits up to 15 significant ones, and past them the same value to 15.
    #[test]
    fn number_check_agrees_with_rust(x in any::<f64>().prop_filter("finite", |x| x.is_finite()), s in "[-+0-9eE.a-z]{0,8}") {
        for text in [format!("{x}"), format!("{x:e}"), format!("{x:.3}")] {
            prop_assert!(ColumnType::Number.check(&text).is_ok(), "{}", text);
            let mut shown = String::new();
            format_cell(ColumnType::Number, &text, &mut shown);
            let shown = shown.replace(',', "");
            if shown != text {
                let significant = |t: &str| {
                    t.split(['e', 'E']).next().unwrap_or_default()
                        .bytes().filter(u8::is_ascii_digit)
                        .skip_while(|&b| b == b'0').count()
                };
                prop_assert!(significant(&text) > 15, "{} -> {}", text, shown);
                prop_assert!(significant(&shown) <= 15, "{} -> {}", text, shown);
                let back: f64 = shown.parse().expect("shown numbers parse");
                prop_assert!((back - x).abs() <= x.abs() * 1e-14, "{} -> {}", text, shown);
            }
        }
        if ColumnType::Number.check(&s).is_ok() {
            let parsed: f64 = s.parse().expect("accepted numbers parse");
            prop_assert!(parsed.is_finite() || s.contains(['e', 'E']), "{}", s);
        }
    }

    /// Real calendar dates are accepted at each precision; impossible days are not.
    #[test]
    fn date_check_follows_the_calendar(year in 1000u32..9999, month in 1u32..=12, day in 1u32..=31) {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        let days = match month { 2 if leap => 29, 2 => 28, 4 | 6 | 9 | 11 => 30, _ => 31 };
        let full = format!("{year:04}-{month:02}-{day:02}");
        prop_assert_eq!(ColumnType::Date.check(&full).is_ok(), day <= days, "{}", full);
        let year_month = format!("{year:04}-{month:02}");
        prop_assert!(ColumnType::Date.check(&year_month).is_ok());
        let year_only = format!("{year:04}");
        prop_assert!(ColumnType::Date.check(&year_only).is_ok());
    }
}
