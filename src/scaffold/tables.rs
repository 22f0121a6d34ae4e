//! `datapages new <slug> --from a.csv b.csv …` (or a folder, or a workbook of several
//! sheets): one dataset page of several tables, `[[tables]]` each with its columns, the
//! primary key and the foreign keys proposed between them (`keys.rs`), and every
//! foreign key's misses in a comment to declare once explained. Each table's CSV is
//! copied to `data/datasets/<slug>-<name>.csv`.

use std::fmt::Write as _;

use super::keys::{self, ForeignKey, Proposals, TableIn};
use super::markers::{self, Declared};
use super::new::{front_matter_head, read_table, write_column, NewOptions, BODY};
use super::sources::{Source, Sources};
use super::{conversion, dialect, names, toml_string, write_all, Contents, Existing, PlannedFile};
use crate::content::placeholders::MARKER;
use crate::diagnostics::{Diagnostic, Error};
use crate::scaffold::infer::Inference;
use crate::text::visible_line as shown;

/// One table read.
struct Read {
    inference: Inference,
    declared: Vec<Declared>,
    detected: dialect::Detected,
}

/// Where a table's CSV goes in the site.
fn published(slug: &str, source: &Source) -> String {
    crate::layout::dataset_csv(&format!("{slug}-{}", source.name))
}

/// Drafts the dataset of several tables; returns the report.
pub fn new_tables(
    options: &NewOptions,
    sources: &Sources,
    needs_license: bool,
) -> Result<String, Error> {
    let slug = &options.slug;
    if sources.tables.is_empty() {
        return Err(Error::from(vec![Diagnostic::error(
            options.from.first().map_or("new".into(), |f| f.clone()),
            "no table to draft: every sheet is empty",
        )
        .with_hint(
            "pass a workbook with at least one sheet that holds a table; nothing was written",
        )]));
    }
    let mut read = Vec::new();
    let mut problems = Vec::new();
    for source in &sources.tables {
        match read_table(&source.csv, &source.original) {
            Ok((mut inference, detected)) => {
                let declared = inference.columns.iter_mut().map(markers::declare).collect();
                read.push(Read {
                    inference,
                    declared,
                    detected,
                });
            }
            Err(found) => problems.extend(found),
        }
    }
    if !problems.is_empty() {
        return Err(Error::from(problems));
    }
    let ins: Vec<TableIn> = sources
        .tables
        .iter()
        .zip(&read)
        .map(|(source, table)| TableIn {
            csv: &source.csv,
            dialect: table.detected.csv_dialect(),
            inference: &table.inference,
            declared: &table.declared,
        })
        .collect();
    let proposals = keys::propose(&ins).map_err(Error::from)?;
    let mut files: Vec<PlannedFile> = sources
        .tables
        .iter()
        .map(|source| PlannedFile {
            path: published(slug, source),
            contents: Contents::CopyOf(source.csv.clone()),
        })
        .collect();
    let kept = conversion::keep_workbooks(slug, sources, &mut files);
    let mut page = page(slug, sources, &read, &proposals, needs_license);
    if let Some(note) = conversion::method_note(sources, |s| published(slug, s), &kept) {
        page = conversion::with_method_note(&page, &note);
    }
    let markdown_path = format!("content/datasets/{slug}.md");
    files.push(PlannedFile {
        path: markdown_path.clone(),
        contents: Contents::Bytes(page.into_bytes()),
    });
    write_all(
        &options.root,
        &files,
        Existing::Refuse,
        "nothing was written; choose another slug, or delete the file if it is yours to replace",
    )?;
    let mut report = String::new();
    report_tables(&mut report, slug, sources, &read, &proposals);
    conversion::report(&mut report, sources, |s| published(slug, s), &kept);
    let _ = writeln!(
        report,
        "Wrote {markdown_path} and {} tables in {}/.",
        sources.tables.len(),
        crate::layout::DATA_DATASETS
    );
    let _ = writeln!(
        report,
        "Next: replace every `{MARKER}` placeholder (`datapages check` lists them), then `datapages serve`."
    );
    Ok(report)
}

/// `12345` -> `12,345`.
fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn column_name<'a>(
    sources: &'a Sources,
    read: &'a [Read],
    (t, c): (usize, usize),
) -> (&'a str, &'a str) {
    (&sources.tables[t].name, &read[t].inference.columns[c].name)
}

/// What a key's misses are, in words: `50,094 rows (721 distinct keys) name no row of
/// planes, e.g. N10156, N102UW`, or that every value resolves.
fn misses(key: &ForeignKey, target: &str) -> String {
    if key.miss_rows == 0 {
        return format!(
            "all {} distinct values name a row of {target}",
            count(key.distinct)
        );
    }
    let examples: Vec<String> = key.examples.iter().map(|e| shown(e).into_owned()).collect();
    format!(
        "{} rows ({} of {} distinct keys) name no row of {target}, e.g. {}",
        count(key.miss_rows),
        count(key.miss_distinct),
        count(key.distinct),
        examples.join(", ")
    )
}

fn report_tables(
    report: &mut String,
    slug: &str,
    sources: &Sources,
    read: &[Read],
    proposals: &Proposals,
) {
    let _ = writeln!(
        report,
        "Read {} tables into one dataset, {slug}:",
        sources.tables.len()
    );
    for (t, (source, table)) in sources.tables.iter().zip(read).enumerate() {
        let key = match proposals.primary_keys[t] {
            Some(c) => format!("primary key {}", shown(&table.inference.columns[c].name)),
            None => "no primary key proposed".to_string(),
        };
        let _ = writeln!(
            report,
            "  {} ({}): {}, {} rows, {} columns, {key}",
            source.name,
            shown(
                &source
                    .original
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
            ),
            table.detected.delimiter.describe(),
            count(table.inference.rows),
            table.inference.columns.len()
        );
    }
    match proposals.foreign_keys.len() {
        0 => {
            let _ = writeln!(report, "No foreign key proposed.");
        }
        n => {
            let _ = writeln!(report, "Foreign keys proposed ({n}):");
        }
    }
    for key in &proposals.foreign_keys {
        let (from_table, from) = column_name(sources, read, key.from);
        let (to_table, to) = column_name(sources, read, key.to);
        let _ = writeln!(
            report,
            "  {from_table}.{} -> {to_table}.{}: {}",
            shown(from),
            shown(to),
            misses(key, to_table)
        );
    }
    let _ = writeln!(
        report,
        "Composite keys (several columns together) are not proposed: write them by hand."
    );
}

/// The page: the dataset's front matter, then each table with its columns and keys.
fn page(
    slug: &str,
    sources: &Sources,
    read: &[Read],
    proposals: &Proposals,
    needs_license: bool,
) -> String {
    let first = read[0].detected;
    let shared = read.iter().all(|r| r.detected == first);
    let head_dialect = match shared {
        true => first,
        false => dialect::Detected {
            delimiter: dialect::Delimiter::Comma,
            padded: false,
        },
    };
    let mut page = String::new();
    front_matter_head(&mut page, slug, needs_license, None, head_dialect);
    for (t, (source, table)) in sources.tables.iter().zip(read).enumerate() {
        let key = proposals.primary_keys[t];
        let _ = writeln!(page, "\n[[tables]]");
        let _ = writeln!(page, "name = {}", toml_string(&source.name));
        let _ = writeln!(
            page,
            "title = {}",
            toml_string(&names::title_and_unit(&source.name).0)
        );
        let _ = writeln!(
            page,
            "description = \"{MARKER} what one row of this table is\""
        );
        if !shared {
            if let Some(line) = table.detected.delimiter.front_matter_line() {
                let _ = writeln!(page, "{line}");
            }
        }
        if let Some(c) = key {
            let name = &table.inference.columns[c].name;
            let _ = writeln!(page, "primary_key = [{}]", toml_string(name));
        }
        for (c, (column, declared)) in table
            .inference
            .columns
            .iter()
            .zip(&table.declared)
            .enumerate()
        {
            write_column(
                &mut page,
                "[[tables.columns]]",
                column,
                declared,
                key == Some(c),
            );
        }
        for fk in proposals.foreign_keys.iter().filter(|k| k.from.0 == t) {
            let (_, from) = column_name(sources, read, fk.from);
            let (to_table, to) = column_name(sources, read, fk.to);
            let _ = writeln!(page, "\n[[tables.foreign_keys]]");
            let _ = writeln!(page, "fields = [{}]", toml_string(from));
            let _ = writeln!(
                page,
                "reference = {{ table = {}, fields = [{}] }}",
                toml_string(to_table),
                toml_string(to)
            );
            if fk.miss_rows > 0 {
                let _ = writeln!(
                    page,
                    "# misses = {{ rows = {}, reason = \"{MARKER} why these rows name no row of {to_table}\" }}   # {}",
                    fk.miss_rows,
                    shown(&misses(fk, to_table)).replace(['\r', '\n'], " ")
                );
            }
        }
    }
    let _ = writeln!(page, "+++\n");
    page.push_str(BODY);
    page
}
