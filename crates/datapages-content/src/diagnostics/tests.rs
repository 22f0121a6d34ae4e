//! Tests of diagnostics: rendering, sorting, folding.

use super::*;

/// Sorted by file, line and column; problems at one place keep the order found.
#[test]
fn sorting_orders_by_place_and_keeps_the_found_order_at_one_place() {
    let mut all = Diagnostics::new();
    let mut expected = Vec::new();
    // 97 problems over 5 files and 7 lines, pushed in a scrambled order.
    for n in 0..97u32 {
        let scrambled = (n * 37) % 97;
        let file = format!("f{}.md", scrambled % 5);
        let line = scrambled % 7 + 1;
        all.push(Diagnostic::warning(&file, format!("problem {n}")).at(line as usize, 1));
        expected.push((file, line, n));
    }
    expected.sort();
    all.sort();
    let got: Vec<_> = all
        .items()
        .iter()
        .map(|d| {
            let n: u32 = d.message["problem ".len()..].parse().unwrap();
            (d.file.display().to_string(), d.line.unwrap(), n)
        })
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn an_order_is_applied_in_place() {
    for len in 0..40usize {
        let items: Vec<usize> = (0..len).map(|i| i * 10).collect();
        // A permutation made of cycles of several lengths.
        let order: Vec<usize> = (0..len).map(|i| (i * 7 + 3) % len.max(1)).collect();
        let mut unique = order.clone();
        unique.sort();
        unique.dedup();
        if unique.len() != len {
            continue;
        }
        let expected: Vec<usize> = order.iter().map(|&i| items[i]).collect();
        let (mut items, mut order) = (items, order);
        apply_order(&mut items, &mut order);
        assert_eq!(items, expected, "length {len}");
    }
}

#[test]
fn written_one_at_a_time_they_read_as_rendered_whole() {
    let mut all = Diagnostics::new();
    all.push(
        Diagnostic::warning("a.md", "first")
            .at(2, 3)
            .with_hint("do this"),
    );
    all.push(Diagnostic::error("b.csv", "second").with_source_line("x,y"));
    let mut written = Vec::new();
    all.write_to(false, &mut written).unwrap();
    let whole = format!(
        "{}\n{}\n{}\n",
        all.items()[0].render(false),
        all.items()[1].render(false),
        all.summary()
    );
    assert_eq!(String::from_utf8(written).unwrap(), whole);
    assert_eq!(all.render(false), whole);
}

#[test]
fn line_column_counts_characters_not_bytes() {
    let text = "a = 1\nkicker = \"·x\"\n";
    let offset = text.find('x').unwrap();
    assert_eq!(line_column(text, offset), (2, 12));
    assert_eq!(line_column(text, 0), (1, 1));
}

#[test]
fn render_points_a_caret_at_the_column() {
    let d = Diagnostic::error("data/x.csv", "not a number")
        .at(3, 5)
        .with_source_line("ab,cd,ef")
        .with_hint("write a plain number");
    let text = d.render(false);
    assert!(text.contains("error: not a number"), "{text}");
    assert!(text.contains("--> data/x.csv:3:5"), "{text}");
    assert!(text.contains("3 | ab,cd,ef"), "{text}");
    assert!(text.contains("  |     ^"), "{text}");
    assert!(text.contains("= hint: write a plain number"), "{text}");
}

#[test]
fn summary_counts_errors_warnings_and_files() {
    let mut all = Diagnostics::new();
    all.push(Diagnostic::error("a", "x"));
    all.push(Diagnostic::error("a", "y"));
    all.push(Diagnostic::error("b", "z"));
    all.push(Diagnostic::warning("b", "w"));
    assert_eq!(all.summary(), "3 errors, 1 warning in 2 files");
}

#[test]
fn did_you_mean_finds_near_misses_only() {
    let keys = ["title", "kicker", "headline"];
    assert_eq!(did_you_mean("titel", keys), Some("title"));
    assert_eq!(did_you_mean("headlines", keys), Some("headline"));
    assert_eq!(did_you_mean("zzz", keys), None);
}

#[test]
fn an_excerpt_renders_as_the_whole_line_does() {
    let line: String = (0..3000).map(|i| format!("c{i},")).collect();
    let chars: Vec<char> = line.chars().collect();
    for column in [
        1,
        40,
        51,
        52,
        5000,
        line.chars().count() - 3,
        line.chars().count(),
    ] {
        let whole = Diagnostic::error("a.csv", "x")
            .at(1, column)
            .with_source_line(line.as_str());
        let excerpt = Diagnostic::error("a.csv", "x")
            .at(1, column)
            .with_source_excerpt(&chars);
        assert_eq!(
            excerpt.render(false),
            whole.render(false),
            "column {column}"
        );
        assert!(excerpt.source_line.unwrap().chars().count() <= SHOWN_WIDTH + 2);
    }
    let short = Diagnostic::error("a.csv", "x")
        .at(1, 3)
        .with_source_excerpt(&"a\tb,c".chars().collect::<Vec<_>>());
    assert_eq!(
        short.render(false),
        Diagnostic::error("a.csv", "x")
            .at(1, 3)
            .with_source_line("a\tb,c")
            .render(false)
    );
}

#[test]
fn control_characters_in_source_lines_are_shown_not_sent() {
    let rendered = Diagnostic::error("a.csv", "bad")
        .at(2, 3)
        .with_source_line("ab\u{1b}[2J\u{0}c")
        .render(false);
    assert!(rendered.contains("2 | ab␛[2J␀c"), "{rendered}");
    assert!(rendered.contains("  |   ^"), "{rendered}");
    assert!(!rendered.contains('\u{1b}'));
    let rendered = Diagnostic::error("a\u{7}.csv", "column `x\u{1b}]0;` is not documented")
        .with_hint("rename `x\u{1b}]0;`")
        .render(false);
    assert!(
        !rendered.chars().any(crate::text::is_forbidden),
        "{rendered:?}"
    );
    assert!(
        rendered.contains("column `x␛]0;` is not documented"),
        "{rendered}"
    );
}

#[test]
fn long_lines_are_cut_around_the_column() {
    let long = "x".repeat(500);
    let shown = shorten_for_display(&long, 300);
    assert!(shown.text.chars().count() <= SHOWN_WIDTH + 2);
    assert!(shown.caret.unwrap() <= SHOWN_WIDTH + 1);
}
