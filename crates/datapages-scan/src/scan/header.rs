//! Header checks: the first row read as column names (a byte-order mark dropped), and
//! compared to the documented columns (unnamed, repeated, undocumented, missing or
//! reordered columns, with near misses suggested).

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::Read;
use std::path::Path;

use super::locate::{csv_error, field_offset, invalid_utf8};
use super::CompiledColumn;
use crate::content::dialect::CsvDialect;
use crate::content::file_kind;
use crate::content::first_line::{self, NotNames, RaggedRows};
use crate::diagnostics::{did_you_mean, Diagnostic};

/// Reads the header row into `record` and returns its names; `None` when the file has no
/// header (the reason is in `diagnostics`). Names that are not UTF-8 are reported and kept
/// with the bad bytes replaced.
pub(super) fn read_header<R: Read>(
    reader: &mut csv::Reader<R>,
    dialect: CsvDialect,
    record: &mut csv::ByteRecord,
    (path, display): (&Path, &Path),
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Vec<String>> {
    match dialect.read(reader, record) {
        Ok(false) => {
            diagnostics.push(
                Diagnostic::error(display, "the CSV file is empty").with_hint(
                    "the first line must be the header: the column names, separated by commas",
                ),
            );
            return None;
        }
        Err(e) => {
            diagnostics.push(csv_error(display, &e));
            return None;
        }
        Ok(true) => {}
    }
    let name = display.file_name().unwrap_or_default().to_string_lossy();
    let not_csv = file_kind::not_csv_text(record.as_slice(), &name).map(|found| {
        // The first line alone says JSON; the file's head tells GeoJSON apart (pretty
        // printed, its `"type": "FeatureCollection"` is on a later line).
        file_head(path)
            .and_then(|head| file_kind::not_csv_text(&head, &name))
            .unwrap_or(found)
    });
    if let Some((message, hint)) = not_csv {
        diagnostics.push(Diagnostic::error(display, message).with_hint(hint));
        return None;
    }
    let mut header = Vec::with_capacity(record.len());
    for (index, field) in record.iter().enumerate() {
        match std::str::from_utf8(field) {
            Ok(name) => header.push(strip_bom(index, name).to_string()),
            Err(e) => {
                let offset = field_offset(record, index, e.valid_up_to());
                diagnostics.push(invalid_utf8(display, 1, offset));
                header.push(String::from_utf8_lossy(field).into_owned());
            }
        }
    }
    Some(header)
}

/// The first bytes of the file at `path` (as many as tell JSON from GeoJSON).
fn file_head(path: &Path) -> Option<Vec<u8>> {
    let file = std::fs::File::open(path).ok()?;
    let mut head = Vec::with_capacity(file_kind::JSON_HEAD_BYTES);
    file.take(file_kind::JSON_HEAD_BYTES as u64)
        .read_to_end(&mut head)
        .ok()?;
    Some(head)
}

fn strip_bom(index: usize, name: &str) -> &str {
    if index == 0 {
        name.strip_prefix('\u{feff}').unwrap_or(name)
    } else {
        name
    }
}

/// How many name comparisons the near-miss suggestions of one header may cost: a header
/// of 100,000 renamed columns gets suggestions for its first ones, not 10^10 comparisons.
const SUGGESTION_BUDGET: usize = 1_000_000;

/// Names longer than this are not compared for near misses (each comparison costs the
/// product of the two lengths).
const SUGGESTED_NAME_LEN: usize = 200;

/// Near-miss suggestions within [`SUGGESTION_BUDGET`].
struct Suggester {
    budget: usize,
}

impl Suggester {
    fn near<'a>(&mut self, name: &str, candidates: &[&'a str]) -> Option<&'a str> {
        if name.len() > SUGGESTED_NAME_LEN || candidates.len() > self.budget {
            return None;
        }
        self.budget -= candidates.len();
        did_you_mean(
            name,
            candidates
                .iter()
                .copied()
                .filter(|c| c.len() <= SUGGESTED_NAME_LEN),
        )
    }
}

/// Compares the CSV header to the documented columns; false when cells cannot be checked.
/// Linear in the header and the columns: each problem keeps only the part of the header
/// line it shows, and near misses are looked for within a bounded budget.
pub(super) fn check_header(
    display: &Path,
    header: &[String],
    columns: &[CompiledColumn],
    delimiter: u8,
    out: &mut Vec<Diagnostic>,
) -> bool {
    let line = HeaderLine::new(display, header, delimiter);
    let documented: Vec<&str> = columns.iter().map(|c| c.spec.name.as_str()).collect();
    let documented_set: HashSet<&str> = documented.iter().copied().collect();
    if let Some(data) = data_as_header(header, &documented_set) {
        // One cause: its names would each be undocumented, repeated or missing.
        out.push(line.error(Some(data.field), data.message, add_a_header(&documented)));
        return false;
    }
    let found_before = out.len();
    let seen = named_once(&line, header, columns, out);
    let undocumented = |name: &str| !name.trim().is_empty() && !documented_set.contains(name);
    let missing: Vec<&str> = documented
        .iter()
        .copied()
        .filter(|d| !seen.contains(d))
        .collect();
    let extra: Vec<&str> = header
        .iter()
        .map(String::as_str)
        .filter(|h| undocumented(h))
        .collect();
    let mut suggester = Suggester {
        budget: SUGGESTION_BUDGET,
    };
    for (index, name) in header.iter().enumerate().filter(|(_, h)| undocumented(h)) {
        let hint = match suggester.near(name, &missing) {
            Some(near) => format!("did you mean `{near}`? the front matter documents `{near}`"),
            None => {
                "document the column in the front matter with a [[columns]] entry, or remove it"
                    .into()
            }
        };
        let message = format!("column `{name}` is in the CSV but not documented");
        out.push(line.error(Some(index), message, hint));
    }
    for name in &missing {
        let hint = match suggester.near(name, &extra) {
            Some(near) => format!("did you mean `{near}`? the CSV header has `{near}`"),
            None => "add the column to the CSV, or remove its [[columns]] entry".into(),
        };
        let message = format!("documented column `{name}` is missing from the CSV header");
        out.push(line.error(None, message, hint));
    }
    // Every problem above leaves the cells unchecked; the order is looked at only without them.
    if out.len() == found_before
        && header
            .iter()
            .map(String::as_str)
            .ne(documented.iter().copied())
    {
        let message = "the columns are documented in a different order than the CSV header";
        let hint = format!("list the [[columns]] in CSV order: {}", header.join(", "));
        out.push(line.error(None, message, hint));
    }
    out.len() == found_before
}

/// What the first line looks like when it is data, not names (#52): numbers that repeat,
/// are written as cells are, or are all it holds. A first line that names a documented
/// column is the header, whatever its names look like (years, `01`, class bounds).
fn data_as_header(header: &[String], documented: &HashSet<&str>) -> Option<NotNames> {
    if names_a_documented_column(header, documented) {
        return None;
    }
    first_line::looks_like_data(header).or_else(|| first_line::numbers_only(header))
}

/// Whether `header` names a documented column (an empty name aside: R's row names).
fn names_a_documented_column(header: &[String], documented: &HashSet<&str>) -> bool {
    header
        .iter()
        .any(|name| !name.is_empty() && documented.contains(name.as_str()))
}

/// What to do about a first line that is not the header, when the front matter documents
/// the columns `documented`.
fn add_a_header(documented: &[&str]) -> String {
    format!(
        "if the file has no header, add a first line naming the columns, separated like the \
         rows ({}); if this line is the header, document the columns it names",
        documents(documented)
    )
}

/// "the front matter documents N columns: `a`, `b`, `c`, …", for the hints that ask for a
/// header line.
fn documents(documented: &[&str]) -> String {
    let names = match documented {
        [a, b, c, _, ..] => format!("`{a}`, `{b}`, `{c}`, …"),
        _ => documented
            .iter()
            .map(|name| format!("`{name}`"))
            .collect::<Vec<_>>()
            .join(", "),
    };
    format!(
        "the front matter documents {} columns: {names}",
        documented.len()
    )
}

/// One problem in place of the header's and every ragged row's when the first line names
/// none of the documented columns and the rows all share one width that is not its own
/// (with the rows that fit it, `fitting`, fewer): the first line is not the header. A
/// header that names the documented columns is the header, and its ragged rows the rows'
/// problems (numbers with a decimal comma, say).
pub(super) fn shape_line_problem(
    ragged: &RaggedRows,
    display: &Path,
    header: &[String],
    (delimiter, columns): (u8, &[CompiledColumn]),
    fitting: u64,
) -> Option<Diagnostic> {
    let (message, width) = ragged.shape_line(header, fitting)?;
    let documented: Vec<&str> = columns.iter().map(|c| c.spec.name.as_str()).collect();
    if names_a_documented_column(header, &documented.iter().copied().collect()) {
        return None;
    }
    let hint = format!(
        "replace the first line with one naming the {width} columns, separated like the rows \
         ({})",
        documents(&documented)
    );
    Some(HeaderLine::new(display, header, delimiter).error(None, message, hint))
}

/// The header's names, each reported when it is blank (unless it is R's row names,
/// documented as `name = ""`) or repeated.
fn named_once<'a>(
    line: &HeaderLine,
    header: &'a [String],
    columns: &[CompiledColumn],
    out: &mut Vec<Diagnostic>,
) -> HashSet<&'a str> {
    let mut seen = HashSet::with_capacity(header.len());
    let row_names = columns.first().is_some_and(|c| c.spec.is_row_names());
    for (index, name) in header.iter().enumerate() {
        if index == 0 && name.is_empty() && row_names {
            seen.insert(name.as_str());
        } else if name.trim().is_empty() {
            let hint = match index == 0 && name.is_empty() {
                true => {
                    "R's write.csv leaves the row names' header empty: document the column \
                         as the first [[columns]] entry with `name = \"\"`"
                }
                false => "name every column in the first line",
            };
            let message = format!("column {} of the header has no name", index + 1);
            out.push(line.error(Some(index), message, hint));
        } else if !seen.insert(name.as_str()) {
            let message = format!("the header names `{name}` twice");
            out.push(line.error(Some(index), message, "give each column its own name"));
        }
    }
    seen
}

/// The header as line 1 of the file, for the errors located on it.
struct HeaderLine<'a> {
    display: &'a Path,
    chars: Vec<char>,
    /// The 1-based character column where each name starts.
    starts: Vec<usize>,
}

impl<'a> HeaderLine<'a> {
    fn new(display: &'a Path, header: &[String], delimiter: u8) -> HeaderLine<'a> {
        let chars = header
            .join(char::from(delimiter).encode_utf8(&mut [0; 4]))
            .chars()
            .collect();
        let mut starts = Vec::with_capacity(header.len());
        let mut next = 1;
        for name in header {
            starts.push(next);
            next += name.chars().count() + 1;
        }
        HeaderLine {
            display,
            chars,
            starts,
        }
    }

    /// An error at the name at `index` (at the start of the line for `None`), with the part
    /// of the line around it.
    fn error(
        &self,
        index: Option<usize>,
        message: impl Into<Cow<'static, str>>,
        hint: impl Into<Cow<'static, str>>,
    ) -> Diagnostic {
        let column = index.map_or(1, |index| self.starts[index]);
        Diagnostic::error(self.display, message)
            .at(1, column)
            .with_source_excerpt(&self.chars)
            .with_hint(hint)
    }
}
