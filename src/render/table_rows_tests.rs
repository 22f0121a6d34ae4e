//! Tests of the table rows (`render::table_rows`): escaping, grouping, written text beside the shown, kept readers.

use super::*;

fn column(name: &str, t: &str, extra: &str) -> ColumnSpec {
    toml::from_str(&format!(
        "name = \"{name}\"\ntitle = \"{name}\"\ntype = \"{t}\"\ndescription = \"d\"\n{extra}"
    ))
    .unwrap()
}

fn rendered(csv: &[u8], specs: &[ColumnSpec]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv");
    std::fs::write(&path, csv).unwrap();
    let mut out = Vec::new();
    stream_rows(&path, &RowRenderer::new(specs), u64::MAX, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 128, ..Default::default() })]

    /// Any table of text (commas, quotes, newlines, any Unicode) streams as at most
    /// `limit` rows, escaped, so no cell opens a tag.
    #[test]
    fn any_text_table_streams_as_escaped_rows(rows in proptest::collection::vec(proptest::collection::vec(".{0,12}", 3), 0..40)) {
        let specs = [column("a", "string", ""), column("b", "string", ""), column("c", "string", "")];
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer.write_record(["a", "b", "c"]).unwrap();
        for row in &rows {
            writer.write_record(row).unwrap();
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        std::fs::write(&path, writer.into_inner().unwrap()).unwrap();
        let mut out = Vec::new();
        stream_rows(&path, &RowRenderer::new(&specs), 25, &mut out).unwrap();
        let html = String::from_utf8(out).unwrap();
        proptest::prop_assert_eq!(html.matches("<tr id=").count(), rows.len().min(25));
        proptest::prop_assert_eq!(html.matches('<').count(), rows.len().min(25) * (2 + 3 * 2));
    }
}

/// `with_columns` shows those columns in that order; all of them in order is every
/// column, so a narrow table renders exactly as before.
#[test]
fn with_columns_picks_and_orders_the_cells() {
    let specs = [
        column("a", "string", ""),
        column("n", "integer", ""),
        column("k", "string", ""),
    ];
    let csv = b"a,n,k\nx,1200,key1\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv");
    std::fs::write(&path, csv).unwrap();
    let picked = |shown: Vec<usize>| {
        let mut out = Vec::new();
        let renderer = RowRenderer::new(&specs).with_columns(shown);
        stream_rows(&path, &renderer, u64::MAX, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    };
    assert_eq!(
        picked(vec![2, 0]),
        "<tr id=\"row-1\"><td>key1</td><td>x</td></tr>\n"
    );
    assert_eq!(picked(vec![0, 1, 2]), rendered(csv, &specs));
}

/// Streams reuse their thread's readers: a file never sees anything of the one before,
/// even one left half read, one with another delimiter or one with an open quote.
#[test]
fn a_kept_reader_starts_each_file_afresh() {
    let specs = [column("a", "string", ""), column("n", "integer", "")];
    let dir = tempfile::tempdir().unwrap();
    let files: [(&str, &[u8], u8); 5] = [
        ("long.csv", b"a,n\nx,1\ny,2\nz,3\nw,4\n", b','),
        ("open-quote.csv", b"a,n\n\"never closed,5\n", b','),
        ("semicolon.csv", b"a;n\np;6\nq;7\n", b';'),
        ("empty.csv", b"", b','),
        ("short.csv", b"a,n\nlast,8", b','),
    ];
    let mut expected = Vec::new();
    for (name, bytes, delimiter) in files {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let renderer = RowRenderer {
            dialect: CsvDialect {
                delimiter,
                skip_initial_space: false,
            },
            ..RowRenderer::new(&specs)
        };
        // What a new reader gives: rendered on a thread that has kept none.
        let fresh = std::thread::scope(|s| {
            s.spawn(|| {
                let mut out = Vec::new();
                stream_rows(&path, &renderer, u64::MAX, &mut out).unwrap();
                out
            })
            .join()
            .unwrap()
        });
        expected.push((path, renderer, fresh));
    }
    for _ in 0..2 {
        for (path, renderer, fresh) in &expected {
            // Half read, then dropped: the next file must not go on from here.
            let mut half = RowStream::open(path, renderer.dialect).unwrap();
            half.fill(renderer, 1, usize::MAX, false, &mut String::new())
                .unwrap();
            drop(half);
            let mut out = Vec::new();
            stream_rows(path, renderer, u64::MAX, &mut out).unwrap();
            assert_eq!(
                String::from_utf8_lossy(&out),
                String::from_utf8_lossy(fresh)
            );
        }
    }
    assert!(String::from_utf8_lossy(&expected[0].2).contains("<tr id=\"row-4\""));
    assert!(String::from_utf8_lossy(&expected[2].2).contains("<td>q</td>"));
    // The last file's reader was kept for the next file of its dialect.
    let delimiter = expected.last().unwrap().1.dialect.delimiter;
    KEPT_READERS.with(|kept| assert!(kept.borrow_mut().take(delimiter, CHUNK_BYTES).is_some()));
}

#[test]
fn numbers_are_grouped_and_empty_cells_marked() {
    let specs = [column("a", "string", ""), column("n", "integer", "")];
    let html = rendered(b"a,n\nx,10366\n<b>,\n", &specs);
    assert!(html.contains("<td>10,366</td>"), "{html}");
    assert!(
        html.contains("<td>&lt;b&gt;</td><td class=\"empty\">—</td>"),
        "{html}"
    );
}

#[test]
fn rows_render_escaped_and_grouped() {
    let specs = [
        column("s", "string", ""),
        column("n", "number", ""),
        column("r", "string", "references = \"sources\""),
    ];
    let html = rendered(
        b"s,n,r\n\"a&'\\\"\"\",-1234567.50,src-a\nz,2.5e3,\n",
        &specs,
    );
    assert!(html.contains("<td>a&amp;&#39;\\&quot;</td>"), "{html}");
    assert!(html.contains("<td>-1,234,567.50</td>"), "{html}");
    assert!(
        html.contains("<td><a href=\"#source-src-a\">src-a</a></td>"),
        "{html}"
    );
    assert!(html.contains("<td>2.5e3</td>"), "{html}");
    assert_eq!(
        rendered(b"s,n,r\na,1,b\nc,2,d\n", &specs)
            .matches("<tr id=")
            .count(),
        2
    );
}

/// A cell shown otherwise than the CSV writes it carries its written text for the
/// page's filter; one shown as written less group marks does not (the filter reads it).
#[test]
fn cells_shown_otherwise_carry_their_written_text() {
    let specs = [
        column("n", "integer", ""),
        column("d", "number", "digits = 1"),
        column("t", "date", "format = \"%d/%m/%Y\""),
        column("s", "string", ""),
    ];
    let csv = b"n,d,t,s\n1545,3.14159,05/12/2026,a<b\n7,2.5e3,2026,x\n";
    let html = rendered(csv, &specs);
    for cell in [
        "<td>1,545</td>",
        "<td>7</td>",
        "<td data-v=\"3.14159\">3.1</td>",
        "<td data-v=\"05/12/2026\">2026-12-05</td>",
        "<td>a&lt;b</td>",
        "<td data-v=\"2.5e3\">2,500.0</td>",
    ] {
        assert!(html.contains(cell), "{cell} in {html}");
    }
    assert!(same_without_commas("1,545", "1545"));
    assert!(!same_without_commas("1,545", "1545.0"));
    assert!(!same_without_commas("1,545", "154"));
}

#[test]
fn bom_crlf_and_quoted_newlines_render() {
    let specs = [column("a", "string", ""), column("b", "number", "")];
    let html = rendered(b"\xef\xbb\xbfa,b\r\n\"x, \"\"y\"\"\nz\",1.5\r\n", &specs);
    assert!(html.contains("x, &quot;y&quot;\nz"), "{html}");
}

#[test]
fn forbidden_characters_are_never_rendered() {
    let specs = [column("a", "string", ""), column("b", "string", "")];
    let csv = b"a,b\nok,\"tab\there\nnew line\"\nx\x1b[31m,\x00\n\xc2\x85,\xef\xbf\xbe\n";
    let html = rendered(csv, &specs);
    assert!(!html.chars().any(crate::text::is_forbidden), "{html:?}");
    assert!(
        html.contains("<td>x\u{fffd}[31m</td><td>\u{fffd}</td>"),
        "{html:?}"
    );
}

/// A cell of a one-column foreign key links to the explorer of the rows it names, its value
/// percent-encoded in the link (so `"`, `<`, `&` cannot end the attribute) and escaped in
/// the text; an empty or missing cell gets no link; a key to a page without an explorer
/// links the page alone.
#[test]
fn foreign_key_cells_link_to_the_rows_they_name() {
    let specs = [
        column("flight", "integer", ""),
        column("tailnum", "string", ""),
        column("seats", "integer", ""),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv");
    let csv = "flight,tailnum,seats\n1,\"a\"\"b<c&d é=#\",1500\n2,,7\n3,NA,8\n";
    std::fs::write(&path, csv).unwrap();
    let mut front: DatasetFrontMatter = toml::from_str(
        "title = \"t\"\nkicker = \"k\"\nheadline = \"h\"\ndescription = \"d\"\nmissing_values = [\"NA\"]\ncolumns = []\n",
    )
    .unwrap();
    front.columns = specs.to_vec();
    let mut renderer = RowRenderer::new(&specs).with_dialect(&front);
    renderer.key_links = vec![
        None,
        Some(KeyLink {
            href: "../../datasets/planes/#explore?k.tail%20num=".into(),
            filtered: true,
        }),
        Some(KeyLink {
            href: "../../datasets/seats/".into(),
            filtered: false,
        }),
    ];
    let mut out = Vec::new();
    stream_rows(&path, &renderer, u64::MAX, &mut out).unwrap();
    let html = String::from_utf8(out).unwrap();
    assert_eq!(
        html,
        "<tr id=\"row-1\"><td>1</td><td><a href=\"../../datasets/planes/#explore?k.tail%20num=a%22b%3Cc%26d%20%C3%A9%3D%23\">a&quot;b&lt;c&amp;d é=#</a></td><td><a href=\"../../datasets/seats/\">1,500</a></td></tr>\n\
         <tr id=\"row-2\"><td>2</td><td class=\"empty\">—</td><td><a href=\"../../datasets/seats/\">7</a></td></tr>\n\
         <tr id=\"row-3\"><td>3</td><td class=\"empty\">—</td><td><a href=\"../../datasets/seats/\">8</a></td></tr>\n"
    );
    let mut encoded = String::new();
    push_query_text("Zürich € a+b", &mut encoded);
    assert_eq!(encoded, "Z%C3%BCrich%20%E2%82%AC%20a%2Bb");
}

#[test]
fn numbers_are_shown_in_the_page_marks_and_their_written_text_is_kept_as_in_english() {
    let specs = [
        column("n", "number", ""),
        column("d", "number", "digits = 1"),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv");
    std::fs::write(&path, "n,d\n-1234.5,2693.25\nx,12\n").unwrap();
    let fr = crate::i18n::Words::load(Path::new("/nonexistent"), "fr", None).0;
    let rows = RowRenderer::new(&specs).in_language(&fr);
    let mut out = Vec::new();
    stream_rows(&path, &rows, u64::MAX, &mut out).unwrap();
    let html = String::from_utf8(out).unwrap();
    // The filter reads `-1 234,5` back as `-1234.5` (static/table.js, plainNumber); a
    // rounded cell keeps its written text, and a text in a number column stays as it is.
    assert_eq!(
        html,
        "<tr id=\"row-1\"><td>-1\u{202f}234,5</td><td data-v=\"2693.25\">2\u{202f}693,2</td></tr>\n\
         <tr id=\"row-2\"><td>x</td><td data-v=\"12\">12,0</td></tr>\n"
    );
}
