//! `datapages new <slug> --from a.csv b.csv …` (or a folder, or a workbook of several
//! sheets): one dataset per table, `<slug>-<name>`, each a one-table page as `new --from
//! FILE.csv` drafts it, with the primary key and the foreign keys proposed between the
//! tables (`keys.rs`) as `primary_key` and `[[foreign_keys]]` naming the other datasets,
//! every key's misses in a comment to declare once explained, and `related` the datasets
//! it is linked to. One dataset of several tables (issue 53) is not yet available.

use std::fmt::Write as _;
use std::path::Path;

use super::draft::{slug_refused, Draft, Links};
use super::keys::{self, ForeignKey, Proposals, TableIn};
use super::sources::{Read, Sources};
use super::{conversion, toml_string, write_all, Existing};
use crate::content::placeholders::MARKER;
use crate::dataset::schema::thousands as count;
use crate::diagnostics::Error;
use crate::text::visible_line as shown;

/// Drafts one dataset per table of `sources` (two or more), `<slug>-<name>` each;
/// returns the report.
pub fn new_tables(
    root: &Path,
    slug: &str,
    sources: &Sources,
    needs_license: bool,
) -> Result<String, Error> {
    let slugs: Vec<String> = (sources.tables.iter())
        .map(|source| format!("{slug}-{}", source.name))
        .collect();
    if let Some(refused) = slugs.iter().find_map(|slug| slug_refused(slug)) {
        return Err(refused);
    }
    let mut read = Vec::new();
    let mut problems = Vec::new();
    for source in &sources.tables {
        match source.read() {
            Ok(table) => read.push(table),
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
    let mut report = String::new();
    let mut files = Vec::new();
    for (t, (source, table)) in sources.tables.iter().zip(&read).enumerate() {
        let _ = writeln!(report, "Dataset {}:", slugs[t]);
        let links = links(t, &slugs, &read, &proposals);
        let draft = Draft {
            slug: &slugs[t],
            source,
            read: table,
            links: &links,
        };
        draft.plan(root, needs_license, &mut report, &mut files);
    }
    conversion::report_skipped(&mut report, sources);
    write_all(
        root,
        &files,
        Existing::Refuse,
        "nothing was written; choose another slug, or delete the file if it is yours to replace",
    )?;
    report_keys(&mut report, &slugs, &read, &proposals);
    let _ = writeln!(
        report,
        "Wrote {} datasets, each its page in content/datasets/ and its CSV in {}/: {}.",
        slugs.len(),
        crate::layout::DATA_DATASETS,
        slugs.join(", ")
    );
    let _ = writeln!(
        report,
        "One dataset of several tables (issue 53) is not yet available: each table is its own dataset, linked by its foreign keys."
    );
    let _ = writeln!(
        report,
        "Next: replace every `{MARKER}` placeholder (`datapages check` lists them), then `datapages serve`."
    );
    Ok(report)
}

/// Table `t`'s primary key, foreign keys and related datasets (those it names and
/// those naming it, in the order of the tables).
fn links(t: usize, slugs: &[String], read: &[Read], proposals: &Proposals) -> Links {
    let mut foreign_keys = String::new();
    for key in proposals.foreign_keys.iter().filter(|k| k.from.0 == t) {
        let (target, to) = (&slugs[key.to.0], column(read, key.to));
        let _ = writeln!(foreign_keys, "\n[[foreign_keys]]");
        let _ = writeln!(
            foreign_keys,
            "fields = [{}]",
            toml_string(column(read, key.from))
        );
        let _ = writeln!(
            foreign_keys,
            "reference = {{ dataset = {}, fields = [{}] }}",
            toml_string(target),
            toml_string(to)
        );
        if key.miss_rows > 0 {
            let _ = writeln!(
                foreign_keys,
                "# misses = {{ rows = {}, reason = \"{MARKER} why these rows name no row of {target}\" }}   # {}",
                key.miss_rows,
                misses(key, target)
            );
        }
    }
    let mut related: Vec<usize> = (proposals.foreign_keys.iter())
        .filter_map(|k| match (k.from.0 == t, k.to.0 == t) {
            (true, _) => Some(k.to.0),
            (_, true) => Some(k.from.0),
            _ => None,
        })
        .collect();
    related.sort_unstable();
    related.dedup();
    Links {
        key: proposals.primary_keys[t],
        related: related.into_iter().map(|r| slugs[r].clone()).collect(),
        foreign_keys,
    }
}

fn column(read: &[Read], (t, c): (usize, usize)) -> &str {
    &read[t].inference.columns[c].name
}

/// What a key's misses are, in words, on one line: `50,094 rows (721 of 4,043 distinct
/// keys) name no row of nycflights13-planes, e.g. N10156, N102UW`, or that every value
/// resolves.
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

/// The keys proposed, each foreign key with its misses.
fn report_keys(report: &mut String, slugs: &[String], read: &[Read], proposals: &Proposals) {
    let _ = writeln!(report, "Keys proposed between the {} tables:", slugs.len());
    for (t, slug) in slugs.iter().enumerate() {
        let key = match proposals.primary_keys[t] {
            Some(c) => format!("primary key {}", shown(column(read, (t, c)))),
            None => "no primary key proposed".to_string(),
        };
        let _ = writeln!(
            report,
            "  {slug}: {} rows, {key}",
            count(read[t].inference.rows)
        );
    }
    for key in &proposals.foreign_keys {
        let from = shown(column(read, key.from));
        let to = shown(column(read, key.to));
        let (source, target) = (&slugs[key.from.0], &slugs[key.to.0]);
        let _ = writeln!(
            report,
            "  {source}.{from} -> {target}.{to}: {}",
            misses(key, target)
        );
    }
    if proposals.foreign_keys.is_empty() {
        let _ = writeln!(report, "  No foreign key proposed.");
    }
    let _ = writeln!(
        report,
        "Composite keys (several columns together) are not proposed: write them by hand."
    );
}
