//! The CSV dialect an author declares: the field `delimiter` of a dataset, the
//! `missing_values` (Table Schema's `missingValues`) of a column, a dataset or the site, and
//! the `decimal` and `group` marks of number columns, with their checks located by TOML
//! spans.

use std::collections::HashSet;

use super::columns::ColumnSpec;
use super::number_marks::NumberMarks;
use super::spans::Locator;
use crate::diagnostics::Diagnostic;

/// The separators a dataset may declare with `delimiter`, as written in TOML.
pub const DELIMITERS: [(&str, u8); 4] = [(",", b','), (";", b';'), ("\t", b'\t'), ("|", b'|')];

/// The byte of a declared `delimiter` (a comma when none is declared); `None` when the
/// declaration is not one of [`DELIMITERS`].
pub fn delimiter_byte(declared: Option<&str>) -> Option<u8> {
    match declared {
        None => Some(b','),
        Some(text) => DELIMITERS
            .iter()
            .find(|(name, _)| *name == text)
            .map(|(_, byte)| *byte),
    }
}

impl super::DatasetFrontMatter {
    /// The byte between this dataset's fields: its declared `delimiter`, else a comma
    /// (an unknown declaration is an error at load, so readers after it never see one).
    pub fn field_delimiter(&self) -> u8 {
        delimiter_byte(self.delimiter.as_deref()).unwrap_or(b',')
    }

    /// How every reader of this dataset's CSV splits a line into fields.
    pub fn csv_dialect(&self) -> CsvDialect {
        CsvDialect {
            delimiter: self.field_delimiter(),
            skip_initial_space: self.skip_initial_space,
        }
    }
}

/// How a CSV's lines are split into fields: the field `delimiter` and whether spaces after
/// it pad the field (`skip_initial_space`). Every reader of a dataset's CSV (the scan, the
/// page's rows, the Parquet copy, row pages, figures, kept versions) reads through one, so
/// they all see the same cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct CsvDialect {
    pub delimiter: u8,
    pub skip_initial_space: bool,
}

impl CsvDialect {
    /// Comma-separated, spaces kept: RFC 4180.
    pub const COMMA: CsvDialect = CsvDialect {
        delimiter: b',',
        skip_initial_space: false,
    };

    /// A reader builder for this dialect: every line a record (the header too), rows of
    /// any length (the scan reports ragged rows itself).
    pub fn builder(self) -> csv::ReaderBuilder {
        let mut builder = csv::ReaderBuilder::new();
        builder
            .delimiter(self.delimiter)
            .flexible(true)
            .has_headers(false);
        builder
    }

    /// The fields of `line` as this dialect reads them, as text: what tests compare.
    #[cfg(test)]
    pub fn fields_of(self, line: &str) -> Vec<String> {
        let mut reader = self.builder().from_reader(line.as_bytes());
        let mut record = csv::ByteRecord::new();
        assert!(self.read(&mut reader, &mut record).unwrap());
        record
            .iter()
            .map(|f| String::from_utf8(f.to_vec()).unwrap())
            .collect()
    }

    /// Reads the next record into `record` as this dialect reads it; false past the last.
    #[inline]
    pub fn read<R: std::io::Read>(
        self,
        reader: &mut csv::Reader<R>,
        record: &mut csv::ByteRecord,
    ) -> csv::Result<bool> {
        let read = reader.read_byte_record(record)?;
        if read && self.skip_initial_space {
            skip_initial_space(record, self.delimiter);
        }
        Ok(read)
    }
}

/// Removes the spaces that pad each field of `record` at its start, as pandas'
/// `skipinitialspace`, Python's `csv` and CSVW's `skipInitialSpace` read a line: the
/// field `   8.04` is `8.04`, and `   "JAM"` is `JAM` (a quote after the padding opens a
/// quoted field). The CSV parser has already split the line, treating such a quote as
/// text: a quoted field that held the delimiter is put back together from its pieces.
/// A record with no padded field is left as it is, without copying.
pub fn skip_initial_space(record: &mut csv::ByteRecord, delimiter: u8) {
    if !record.iter().any(|field| field.first() == Some(&b' ')) {
        return;
    }
    let mut fields = csv::ByteRecord::with_capacity(record.as_slice().len(), record.len());
    fields.set_position(record.position().cloned());
    let mut text = Vec::new();
    let mut pieces = record.iter();
    while let Some(field) = pieces.next() {
        let start = field.iter().position(|&b| b != b' ').unwrap_or(field.len());
        let field = &field[start..];
        if start == 0 || field.first() != Some(&b'"') {
            fields.push_field(field);
            continue;
        }
        text.clear();
        let mut piece = &field[1..];
        // Inside the quotes: `""` is one quote; a closing quote ends them, and what
        // follows it is kept as written (as the CSV parser keeps `"a"b` as `ab`).
        loop {
            match unquote(piece, &mut text) {
                Some(closed_at) => {
                    text.extend_from_slice(&piece[closed_at..]);
                    break;
                }
                // The delimiter was inside the quotes: the next piece goes on the text.
                None => match pieces.next() {
                    Some(next) => {
                        text.push(delimiter);
                        piece = next;
                    }
                    None => break,
                },
            }
        }
        fields.push_field(&text);
    }
    *record = fields;
}

/// Appends `piece` to `text` up to its closing quote (`""` read as one quote); where the
/// text after that quote starts, or `None` when the quotes are still open at its end.
fn unquote(piece: &[u8], text: &mut Vec<u8>) -> Option<usize> {
    let mut at = 0;
    while at < piece.len() {
        if piece[at] == b'"' {
            if piece.get(at + 1) == Some(&b'"') {
                text.push(b'"');
                at += 2;
                continue;
            }
            return Some(at + 1);
        }
        text.push(piece[at]);
        at += 1;
    }
    None
}

impl super::DatasetFrontMatter {
    /// The marks `column`'s cells are written with: its own `decimal` and `group`, each
    /// else the dataset's; plain for a column that is not a number or an integer.
    pub fn number_marks(&self, column: &ColumnSpec) -> NumberMarks {
        if !column.column_type.is_numeric() {
            return NumberMarks::PLAIN;
        }
        NumberMarks::resolve((column.decimal, column.group), (self.decimal, self.group))
    }
}

/// The cell texts pandas reads as missing by default (mlcroissant reads a CSV with
/// pandas' defaults): a text cell written so, and not declared missing, is a value
/// pandas would lose.
pub const PANDAS_MISSING: [&str; 19] = [
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
];

/// The cell texts that mean "no value" in one column. An empty cell always does; the
/// other tokens (`NA`, `n/a`, `nan`…) come from the column, else the dataset, else the
/// site's `missing_values`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MissingValues {
    /// The tokens besides the empty string, in the author's order.
    tokens: Vec<String>,
    /// The same tokens as a set, for lookups in a long list (a handful are compared in
    /// order: faster than hashing each cell).
    set: Option<HashSet<Box<[u8]>>>,
}

/// Past this many tokens, cells are looked up in a set.
const COMPARED_IN_ORDER: usize = 8;

impl std::hash::Hash for MissingValues {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.tokens.hash(state);
    }
}

impl MissingValues {
    /// The first list declared, from the most specific place to the least.
    pub fn resolve(lists: &[Option<&[String]>]) -> MissingValues {
        let list = lists.iter().flatten().next().copied().unwrap_or_default();
        let mut seen: HashSet<&str> = HashSet::with_capacity(list.len());
        let tokens: Vec<String> = list
            .iter()
            .filter(|token| !token.is_empty() && seen.insert(token.as_str()))
            .cloned()
            .collect();
        let set = (tokens.len() > COMPARED_IN_ORDER).then(|| {
            tokens
                .iter()
                .map(|t| t.as_bytes().to_vec().into_boxed_slice())
                .collect()
        });
        MissingValues { tokens, set }
    }

    /// Whether a cell means "no value". Runs for every cell of a column with tokens.
    #[inline]
    pub fn is_missing(&self, cell: &str) -> bool {
        self.is_missing_bytes(cell.as_bytes())
    }

    /// [`Self::is_missing`] on the bytes of a cell.
    #[inline]
    pub fn is_missing_bytes(&self, cell: &[u8]) -> bool {
        if cell.is_empty() {
            return true;
        }
        match &self.set {
            Some(set) => set.contains(cell),
            None => self.tokens.iter().any(|t| t.as_bytes() == cell),
        }
    }

    /// Whether anything besides an empty cell means "no value".
    pub fn has_tokens(&self) -> bool {
        !self.tokens.is_empty()
    }

    /// The list as Table Schema and CSVW state it: the empty string first.
    pub fn list(&self) -> Vec<String> {
        std::iter::once(String::new())
            .chain(self.tokens.iter().cloned())
            .collect()
    }
}

/// Each column's missing values, from its own list, else the dataset's.
pub fn columns_missing_values(
    columns: &[ColumnSpec],
    dataset: Option<&[String]>,
) -> Vec<MissingValues> {
    columns
        .iter()
        .map(|c| MissingValues::resolve(&[c.missing_values.as_deref(), dataset]))
        .collect()
}

/// The values of a `missing_values` list a hint repeats: a list may hold thousands.
const HINT_TOKENS: usize = 3;

/// Checks a declared `missing_values` list at `key` (e.g. `columns[2].missing_values`):
/// it must include `""`, since every page shows an empty cell as missing.
pub fn check_missing_values(
    list: Option<&[String]>,
    key: &str,
    locator: &Locator,
    problems: &mut Vec<Diagnostic>,
) {
    let Some(list) = list else { return };
    if !list.iter().any(String::is_empty) {
        // The list as it would start: a long one is not printed whole.
        let shown: Vec<String> = std::iter::once("\"\"".to_string())
            .chain(
                list.iter()
                    .take(HINT_TOKENS)
                    .map(|t| format!("{:?}", crate::text::shortened(t, 40))),
            )
            .collect();
        let hint = match list.len().checked_sub(HINT_TOKENS) {
            Some(more) if more > 0 => format!(
                "an empty cell always means missing here; put \"\" first: `missing_values = [{}, …]` \
                 (and the {more} other values)",
                shown.join(", ")
            ),
            _ => format!(
                "an empty cell always means missing here; write `missing_values = [{}]`",
                shown.join(", ")
            ),
        };
        problems.push(
            locator
                .error(
                    format!("`{key}` leaves out \"\", the empty cell"),
                    locator.value(key).or(locator.key(key)),
                )
                .with_hint(hint),
        );
    }
}

/// Checks a declared `delimiter` at `key`.
pub fn check_delimiter(
    declared: Option<&str>,
    key: &str,
    locator: &Locator,
    problems: &mut Vec<Diagnostic>,
) {
    if let Some(text) = declared {
        if delimiter_byte(Some(text)).is_none() {
            problems.push(
                locator
                    .error(
                        format!("`{key}` {text:?} is not a field separator datapages reads"),
                        locator.value(key),
                    )
                    .with_hint(r#"write one of ",", ";", "\t" (tab) or "|""#),
            );
        }
    }
}

/// Checks the `decimal` and `group` marks of the dataset and of each column: a column's
/// own keys only on number and integer columns, and never one character for both marks.
/// Each problem is reported once, at the key that brought the clash in. Returns whether
/// the cells can be read: with one character for both marks every number would be a
/// false error.
pub fn check_number_marks(
    front: &super::DatasetFrontMatter,
    locator: &Locator,
    problems: &mut Vec<Diagnostic>,
) -> bool {
    let mut readable = true;
    let dataset = NumberMarks::resolve((front.decimal, front.group), (None, None));
    let clash = |marks: NumberMarks, decimal_key: &str, group_key: &str, at: &str| {
        let group = marks.group.map_or("", |g| g.as_str());
        locator
            .error(
                format!(
                    "`{group_key}` and `{decimal_key}` are both {group:?}: a reader could not tell \
                     the decimals from the groups"
                ),
                locator.key(at),
            )
            .with_hint(match marks.decimal.as_str() {
                "," => r#"with `decimal = ","` write `group = "."` or `group = " "`"#,
                _ => r#"with a decimal point write `group = ","` or `group = " "`"#,
            })
    };
    // An integer has no decimals: only number columns can mistake one mark for the other.
    let has_numbers = front
        .columns
        .iter()
        .any(|c| c.column_type == super::columns::ColumnType::Number);
    if dataset.clash() && (front.decimal.is_some() || has_numbers) {
        problems.push(clash(dataset, "decimal", "group", "group"));
        readable = false;
    }
    for (n, column) in front.columns.iter().enumerate() {
        let path = format!("columns[{n}]");
        let own = [
            ("decimal", column.decimal.is_some()),
            ("group", column.group.is_some()),
        ];
        if !column.column_type.is_numeric() {
            for (key, _) in own.iter().filter(|(_, set)| *set) {
                problems.push(
                    locator
                        .error(
                            format!(
                                "column `{}` is {}: `{key}` applies to number and integer columns only",
                                column.name,
                                column.column_type.as_str()
                            ),
                            locator.key(&format!("{path}.{key}")),
                        )
                        .with_hint(format!("remove `{key}`, or declare the column's `type` as number")),
                );
            }
            continue;
        }
        let marks = front.number_marks(column);
        let is_number = column.column_type == super::columns::ColumnType::Number;
        if marks.clash() && is_number && own.iter().any(|(_, set)| *set) {
            let key = |key: &str| match own.iter().any(|(k, set)| *k == key && *set) {
                true => format!("{path}.{key}"),
                false => key.to_string(),
            };
            let (decimal, group) = (key("decimal"), key("group"));
            let at = match column.group.is_some() {
                true => &group,
                false => &decimal,
            };
            problems.push(clash(marks, &decimal, &group, at));
            readable = false;
        }
    }
    readable
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_specific_list_wins_and_empty_is_always_missing() {
        let column = vec!["NA".to_string(), String::new()];
        let dataset = vec![String::new(), "n/a".to_string()];
        let missing = MissingValues::resolve(&[Some(&column), Some(&dataset)]);
        assert!(missing.is_missing("NA") && missing.is_missing(""));
        assert!(!missing.is_missing("n/a") && !missing.is_missing("na"));
        assert!(missing.is_missing_bytes(b"NA"));
        assert_eq!(missing.list(), ["", "NA"]);
        let default = MissingValues::resolve(&[None, None]);
        assert!(!default.has_tokens() && default.is_missing(""));
        assert_eq!(default.list(), [""]);
    }

    #[test]
    fn a_long_list_is_looked_up_in_a_set() {
        let list: Vec<String> = std::iter::once(String::new())
            .chain((0..20_000).map(|i| format!("m{i}")))
            .chain(["m7".to_string()])
            .collect();
        let missing = MissingValues::resolve(&[Some(&list)]);
        assert!(missing.set.is_some());
        assert!(missing.is_missing("m19999") && missing.is_missing("m7"));
        assert!(!missing.is_missing("m20000") && missing.is_missing(""));
        assert_eq!(missing.list().len(), 20_001);
        assert_eq!(missing, MissingValues::resolve(&[Some(&list)]));
    }

    fn unpadded(line: &str) -> Vec<String> {
        CsvDialect {
            delimiter: b',',
            skip_initial_space: true,
        }
        .fields_of(line)
    }

    #[test]
    fn padding_after_a_delimiter_is_skipped_as_pandas_skips_it() {
        assert_eq!(unpadded("   10.0,   8.04,x"), ["10.0", "8.04", "x"]);
        assert_eq!(unpadded("\"Usain Bolt\",   \"JAM\""), ["Usain Bolt", "JAM"]);
        assert_eq!(
            unpadded("1,  \"Smith, John\", 3"),
            ["1", "Smith, John", "3"]
        );
        assert_eq!(
            unpadded("1,  \"say \"\"hi\"\"\"x, "),
            ["1", "say \"hi\"x", ""]
        );
        assert_eq!(unpadded("a ,b"), ["a ", "b"]);
        // A quote left open takes the rest of the line.
        assert_eq!(unpadded("1,  \"a, b"), ["1", "a, b"]);
        // Off, the padding is part of the field.
        let mut reader = CsvDialect::COMMA.builder().from_reader(&b"a, b"[..]);
        let mut record = csv::ByteRecord::new();
        assert!(CsvDialect::COMMA.read(&mut reader, &mut record).unwrap());
        assert_eq!(&record[1], b" b");
    }

    #[test]
    fn delimiters() {
        assert_eq!(delimiter_byte(None), Some(b','));
        assert_eq!(delimiter_byte(Some("\t")), Some(b'\t'));
        assert_eq!(delimiter_byte(Some(";")), Some(b';'));
        assert_eq!(delimiter_byte(Some(";;")), None);
    }
}
