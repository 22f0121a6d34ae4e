//! The files `new --from` is given, as tables (each read for its columns here): a CSV or TSV as it is, a `.gz` file
//! decompressed, a workbook one table per non-empty sheet (`workbook.rs`), a folder as
//! the files it holds. Decompressed and converted tables are written into a scratch
//! folder first, so a file that cannot be read leaves nothing half-written in the site.

use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};

use super::infer::{self, Inference};
use super::markers::{self, Declared};
use super::{dialect, workbook};
use crate::content::file_kind;
use crate::diagnostics::Diagnostic;

/// One table to draft.
pub struct Source {
    /// Its name among the tables given: the file stem or the sheet name, in lowercase
    /// ASCII letters, digits and single `-`, unique (`new` drafts it as `<slug>-<name>`).
    pub name: String,
    /// The file given (the workbook, the `.gz` file, the CSV).
    pub original: PathBuf,
    /// The CSV to read and publish: the original, or its converted copy.
    pub csv: PathBuf,
    pub conversion: Option<Conversion>,
}

/// How a table was made from the file given.
pub enum Conversion {
    Gunzip,
    Sheet {
        sheet: String,
        rows: usize,
        /// What was changed, one line each (`sheet "A": cell B3 holds the error ...`).
        changes: Vec<String>,
    },
}

/// Every table of the files given.
pub struct Sources {
    pub tables: Vec<Source>,
    /// Sheets skipped (empty), one line each.
    pub skipped: Vec<String>,
    /// Holds the decompressed and converted CSVs until they are copied into the site.
    _scratch: tempfile::TempDir,
}

/// What kind of file a name says it is.
fn is_workbook(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| workbook::EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

fn is_gzip(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"))
}

/// Whether a file in a folder given to `--from` is read: tables and workbooks, not
/// hidden files.
fn is_table_file(path: &Path) -> bool {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let lower = name.to_ascii_lowercase();
    !name.starts_with('.')
        && (is_workbook(path)
            || [".csv", ".tsv", ".txt", ".csv.gz", ".tsv.gz", ".txt.gz"]
                .iter()
                .any(|end| lower.ends_with(end)))
}

/// The files given, a folder standing for the table files it holds (sorted by name).
fn expand(from: &[PathBuf]) -> Result<Vec<PathBuf>, Vec<Diagnostic>> {
    let mut files = Vec::new();
    for path in from {
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        let listed = std::fs::read_dir(path).and_then(|entries| {
            entries
                .map(|entry| entry.map(|e| e.path()))
                .collect::<std::io::Result<Vec<_>>>()
        });
        let mut found: Vec<PathBuf> = listed
            .map_err(|e| {
                vec![Diagnostic::error(
                    path,
                    format!("cannot read the folder: {e}"),
                )]
            })?
            .into_iter()
            .filter(|p| p.is_file() && is_table_file(p))
            .collect();
        if found.is_empty() {
            return Err(vec![Diagnostic::error(
                path,
                "the folder holds no table file",
            )
            .with_hint(
                "new reads the .csv, .tsv, .txt, .csv.gz, .xlsx and .ods files of a folder \
                     (not its subfolders); nothing was written",
            )]);
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}

/// Reads every file given as tables; one problem per file that cannot be read.
pub fn resolve(from: &[PathBuf]) -> Result<Sources, Vec<Diagnostic>> {
    let scratch = tempfile::tempdir().map_err(|e| {
        vec![Diagnostic::error(
            "new",
            format!("cannot make a scratch folder: {e}"),
        )]
    })?;
    let root = scratch.path().to_path_buf();
    let mut sources = Sources {
        tables: Vec::new(),
        skipped: Vec::new(),
        _scratch: scratch,
    };
    let mut problems = Vec::new();
    for (n, path) in expand(from)?.into_iter().enumerate() {
        regular_file(&path).map_err(|e| vec![e])?;
        let scratch_file = |stem: &str| root.join(format!("{n}-{stem}.csv"));
        if is_workbook(&path) {
            match workbook::convert(&path) {
                Ok(book) => add_sheets(&mut sources, &path, book, &scratch_file)?,
                Err(problem) => problems.push(problem),
            }
        } else if is_gzip(&path) {
            let target = scratch_file("gunzip");
            match gunzip(&path, &target) {
                Ok(()) => sources.tables.push(Source {
                    name: String::new(),
                    original: path.clone(),
                    csv: target,
                    conversion: Some(Conversion::Gunzip),
                }),
                Err(problem) => problems.push(problem),
            }
        } else {
            sources.tables.push(Source {
                name: String::new(),
                original: path.clone(),
                csv: path.clone(),
                conversion: None,
            });
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    name_tables(&mut sources.tables);
    Ok(sources)
}

fn add_sheets(
    sources: &mut Sources,
    path: &Path,
    book: workbook::Converted,
    scratch_file: &dyn Fn(&str) -> PathBuf,
) -> Result<(), Vec<Diagnostic>> {
    sources.skipped.extend(book.skipped);
    for (i, sheet) in book.sheets.into_iter().enumerate() {
        let target = scratch_file(&format!("sheet{i}"));
        std::fs::write(&target, &sheet.csv).map_err(|e| {
            vec![Diagnostic::error(
                &target,
                format!("cannot write the converted sheet: {e}"),
            )]
        })?;
        sources.tables.push(Source {
            name: sheet.name.clone(),
            original: path.to_path_buf(),
            csv: target,
            conversion: Some(Conversion::Sheet {
                sheet: sheet.name,
                rows: sheet.rows,
                changes: sheet.changes,
            }),
        });
    }
    Ok(())
}

/// Decompresses a gzip file (one member or several, as `gzip` and `cat a.gz b.gz` write).
fn gunzip(path: &Path, target: &Path) -> Result<(), Diagnostic> {
    let file = std::fs::File::open(path)
        .map_err(|e| Diagnostic::error(path, format!("cannot read the file: {e}")))?;
    let mut input = flate2::read::MultiGzDecoder::new(std::io::BufReader::new(file));
    let mut output = std::fs::File::create(target).map_err(|e| {
        Diagnostic::error(target, format!("cannot write the decompressed copy: {e}"))
    })?;
    let mut buffer = vec![0; 64 * 1024];
    let mut written: u64 = 0;
    loop {
        let n =
            match input.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) => return Err(Diagnostic::error(
                    path,
                    format!(
                        "cannot decompress the gzip file after {written} bytes of its contents: {e}"
                    ),
                )
                .with_hint(
                    "the file is not gzip, or is cut short or damaged: check it with `gzip -t`, \
                     or pass the CSV itself; nothing was written",
                )),
            };
        output.write_all(&buffer[..n]).map_err(|e| {
            Diagnostic::error(target, format!("cannot write the decompressed copy: {e}"))
        })?;
        written += n as u64;
    }
    Ok(())
}

/// The name of a file's table: its stem (without `.gz` and the table extension) or its
/// sheet's name, in lowercase ASCII letters and digits (any other run of characters
/// becomes one `-`, so that `<slug>-<name>` is a slug), `table` when nothing is left,
/// unique (`-2`, `-3`).
fn name_tables(tables: &mut [Source]) {
    let mut taken: Vec<String> = Vec::new();
    for table in tables.iter_mut() {
        let raw = if table.name.is_empty() {
            let name = table
                .original
                .file_name()
                .unwrap_or_default()
                .to_string_lossy();
            let name = name
                .strip_suffix(".gz")
                .or(name.strip_suffix(".GZ"))
                .unwrap_or(&name)
                .to_string();
            Path::new(&name)
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .to_string()
        } else {
            table.name.clone()
        };
        let base = table_name(&raw);
        let mut name = base.clone();
        let mut n = 2;
        while taken.contains(&name) {
            name = format!("{base}-{n}");
            n += 1;
        }
        taken.push(name.clone());
        table.name = name;
    }
}

/// `Flights 2013` -> `flights-2013`, `flights_2013` too.
fn table_name(raw: &str) -> String {
    let mut name = String::new();
    for c in raw.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            name.push(c);
        } else if !name.ends_with('-') {
            name.push('-');
        }
    }
    let name = name.trim_matches('-').to_string();
    if name.is_empty() {
        "table".to_string()
    } else {
        name
    }
}

/// One table read: the columns guessed, their markers declared, the separator.
pub struct Read {
    pub inference: Inference,
    pub declared: Vec<Declared>,
    pub detected: dialect::Detected,
}

impl Source {
    /// Reads the table: its separator, its columns guessed and their markers declared.
    pub fn read(&self) -> Result<Read, Vec<Diagnostic>> {
        let (mut inference, detected) = read_table(&self.csv, &self.original)?;
        let declared = inference.columns.iter_mut().map(markers::declare).collect();
        Ok(Read {
            inference,
            declared,
            detected,
        })
    }
}

/// `--from` must be a regular file: a named pipe would wait for a writer and a device
/// such as /dev/zero never ends. Decided from its metadata, before it is opened.
fn regular_file(from: &Path) -> Result<(), Diagnostic> {
    let refusal = match std::fs::metadata(from) {
        Ok(metadata) => match crate::confine::not_a_file(&metadata.file_type()) {
            None => return Ok(()),
            Some(kind) => format!("it is not a regular file but {kind}"),
        },
        Err(e) => format!("cannot read the file: {e}"),
    };
    Err(Diagnostic::error(from, refusal).with_hint(
        "pass a CSV file with --from (new reads a regular file, not a folder, a named pipe or a device)",
    ))
}

/// Detects the separator, then infers the columns of the CSV at `from` (problems are
/// located in `shown`, the file given: the CSV itself, or the file it was converted from).
fn read_table(
    from: &Path,
    shown: &Path,
) -> Result<(Inference, dialect::Detected), Vec<Diagnostic>> {
    let mut first = Vec::with_capacity(file_kind::JSON_HEAD_BYTES);
    let read = std::fs::File::open(from).and_then(|f| {
        std::io::Read::read_to_end(
            &mut std::io::Read::take(f, file_kind::JSON_HEAD_BYTES as u64),
            &mut first,
        )
    });
    let name = shown.file_name().unwrap_or_default().to_string_lossy();
    if let Some((message, hint)) = file_kind::not_csv_text(&first[..read.unwrap_or(0)], &name) {
        return Err(vec![Diagnostic::error(shown, message).with_hint(hint)]);
    }
    let detected = dialect::detect(from).map_err(|e| {
        vec![Diagnostic::error(
            shown,
            format!("cannot read the file: {e}"),
        )]
    })?;
    Ok((infer::infer(from, shown, detected.csv_dialect())?, detected))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_are_plain_and_unique() {
        assert_eq!(table_name("Flights 2013"), "flights-2013");
        assert_eq!(table_name("météo"), "m-t-o");
        assert_eq!(table_name("***"), "table");
        assert_eq!(table_name("__Flights__2013--"), "flights-2013");
        // Names that differ only where a slug cannot: `<slug>-<name>` stays unique.
        let mut tables: Vec<Source> = [
            "a/flights.csv.gz",
            "b/flights.tsv",
            "c/Planes.CSV",
            "d/a_b.csv",
            "e/a-b.csv",
            "f/a-b-2.csv",
        ]
        .iter()
        .map(|p| Source {
            name: String::new(),
            original: PathBuf::from(p),
            csv: PathBuf::from(p),
            conversion: None,
        })
        .collect();
        name_tables(&mut tables);
        let names: Vec<&str> = tables.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            ["flights", "flights-2", "planes", "a-b", "a-b-2", "a-b-2-2"]
        );
    }

    #[test]
    fn a_damaged_gzip_file_is_a_located_error() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("x.csv.gz");
        let mut good = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        good.write_all(b"a,b\n1,2\n".repeat(1000).as_slice())
            .unwrap();
        let mut bytes = good.finish().unwrap();
        bytes.truncate(bytes.len() / 2);
        std::fs::write(&bad, &bytes).unwrap();
        let problem = gunzip(&bad, &dir.path().join("out.csv")).unwrap_err();
        assert!(
            problem.message.contains("cannot decompress"),
            "{}",
            problem.message
        );
        std::fs::write(&bad, b"a,b\n1,2\n").unwrap();
        assert!(gunzip(&bad, &dir.path().join("out.csv")).is_err());
    }
}
