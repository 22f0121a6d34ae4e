//! Data files that are not CSV text, told from their first bytes: compressed files,
//! spreadsheets, Parquet, UTF-16 text, JSON and GeoJSON. Reading one as CSV gives a cascade of "not UTF-8"
//! and "row has N fields" errors; naming the format gives one error and the way out.

/// What a file starting with `first` is, when it is a format other than CSV text: the
/// error's message and hint for the file `name`.
pub fn not_csv_text(first: &[u8], name: &str) -> Option<(String, String)> {
    let (what, hint) = if first.starts_with(&[0x1f, 0x8b]) {
        (
            "gzip-compressed",
            match name.strip_suffix(".gz") {
                Some(csv) => format!("decompress it first (`gunzip -k {name}`) and use {csv}"),
                None => format!("decompress it first (`gzip -dc {name} > text.csv`)"),
            },
        )
    } else if first.starts_with(b"PK\x03\x04") {
        (
            "a ZIP archive (a spreadsheet such as .xlsx, or a zipped CSV)",
            "save the sheet as CSV UTF-8 from the spreadsheet, or unzip the archive".to_string(),
        )
    } else if first.starts_with(b"BZh") && first.get(3).is_some_and(u8::is_ascii_digit) {
        (
            "bzip2-compressed",
            format!("decompress it first (`bunzip2 -k {name}`)"),
        )
    } else if first.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0x00]) {
        (
            "xz-compressed",
            format!("decompress it first (`unxz -k {name}`)"),
        )
    } else if first.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        (
            "zstd-compressed",
            format!("decompress it first (`unzstd {name}`)"),
        )
    } else if first.starts_with(b"PAR1") {
        (
            "a Parquet file",
            format!("write it as CSV first, e.g. `duckdb -c \"COPY '{name}' TO 'out.csv'\"`"),
        )
    } else if first.starts_with(&[0xff, 0xfe]) || first.starts_with(&[0xfe, 0xff]) {
        (
            "UTF-16 text",
            "save it as UTF-8 (spreadsheets: CSV UTF-8)".to_string(),
        )
    } else if let Some(json) = json_kind(first) {
        (
            json,
            match json {
                "GeoJSON" => format!(
                    "convert it to CSV first, e.g. with GDAL: `ogr2ogr -f CSV -lco GEOMETRY=AS_WKT out.csv {name}`"
                ),
                _ => format!(
                    "convert it to CSV first, e.g. `duckdb -c \"COPY (FROM read_json('{name}')) TO 'out.csv'\"`"
                ),
            },
        )
    } else {
        return None;
    };
    Some((format!("the file is {what}, not CSV text"), hint))
}

/// How many first bytes tell JSON from GeoJSON (a FeatureCollection names its type early).
pub const JSON_HEAD_BYTES: usize = 4096;

/// "JSON" or "GeoJSON" when `first` opens a JSON object or array (`{"`, `[{`, `{` and a
/// line end…); no CSV header starts so.
fn json_kind(first: &[u8]) -> Option<&'static str> {
    let text = first.strip_prefix(b"\xef\xbb\xbf").unwrap_or(first);
    let start = text.iter().position(|b| !b.is_ascii_whitespace())?;
    let (open, rest) = (text[start], &text[start + 1..]);
    let next = rest.iter().find(|b| !b.is_ascii_whitespace());
    let json = matches!(
        (open, next),
        (b'{', Some(b'"' | b'}') | None) | (b'[', Some(b'{' | b'[' | b'"' | b']') | None)
    );
    if !json {
        return None;
    }
    let geo = [
        &b"FeatureCollection"[..],
        b"\"Feature\"",
        b"\"coordinates\"",
    ]
    .iter()
    .any(|word| text.windows(word.len()).any(|w| w == *word));
    Some(if geo { "GeoJSON" } else { "JSON" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compressed_files_spreadsheets_and_parquet_are_named() {
        let cases: [(&[u8], &str); 7] = [
            (&[0x1f, 0x8b, 8, 0], "gzip-compressed"),
            (b"PK\x03\x04\x14\x00", "ZIP archive"),
            (b"BZh91AY", "bzip2"),
            (&[0xfd, b'7', b'z', b'X', b'Z', 0, 0], "xz"),
            (&[0x28, 0xb5, 0x2f, 0xfd, 0], "zstd"),
            (b"PAR1\x15\x04", "Parquet"),
            (&[0xff, 0xfe, b'a', 0], "UTF-16"),
        ];
        for (bytes, said) in cases {
            let (message, hint) = not_csv_text(bytes, "t.csv.gz").expect(said);
            assert!(message.contains(said), "{message}");
            assert!(!hint.is_empty());
        }
        let (_, hint) = not_csv_text(&[0x1f, 0x8b], "t.csv.gz").unwrap();
        assert!(hint.contains("`gunzip -k t.csv.gz`"), "{hint}");
        let geo = br#"{"type": "FeatureCollection", "features": []}"#;
        let (message, hint) = not_csv_text(geo, "places.geojson").unwrap();
        assert_eq!(message, "the file is GeoJSON, not CSV text");
        assert!(hint.contains("ogr2ogr"), "{hint}");
        let (message, _) = not_csv_text(b"[\n  {\"a\": 1}\n]", "t.json").unwrap();
        assert_eq!(message, "the file is JSON, not CSV text");
        assert!(not_csv_text(b"{\n  \"a\": 1\n}", "t.json").is_some());
        for text in [
            &b"{a},b\n1,2\n"[..],
            b"[1],b\n",
            &b"a,b\n1,2\n"[..],
            b"\xef\xbb\xbfa,b",
            b"BZh,a",
            b"PK,1",
            b"",
        ] {
            assert_eq!(not_csv_text(text, "t.csv"), None);
        }
    }
}
