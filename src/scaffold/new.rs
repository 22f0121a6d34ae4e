//! `datapages new <slug> [--from FILE...]`: a dataset page drafted from a CSV in hand
//! (`draft.rs`), or one per table when the files given hold several (`tables.rs`). The CSV
//! is copied byte for byte; the page gets a `[[columns]]` entry per column with the
//! inferred type and constraints, a suggested chart, and `TODO:` placeholders for the prose
//! only the author can write (`check` lists each one until it is written).

use std::fmt::Write as _;
use std::path::PathBuf;

use super::draft::{skeleton, slug_refused, Draft, Links};
use super::suggest::proposed_key;
use super::{conversion, sources, tables, write_all, Contents, Existing, PlannedFile};
use crate::content::placeholders::MARKER;
use crate::diagnostics::{Diagnostic, Error};

/// What `new` was asked to do.
pub struct NewOptions {
    pub root: PathBuf,
    pub slug: String,
    /// The files to draft from (a folder stands for its table files); none: a skeleton.
    pub from: Vec<PathBuf>,
}

/// Writes the dataset page (and the CSV copy), or explains why not; returns the report.
pub fn new_dataset(options: &NewOptions) -> Result<String, Error> {
    let slug = &options.slug;
    let markdown_path = format!("content/datasets/{slug}.md");
    let csv_path = crate::layout::dataset_csv(slug);
    // The rules `check` applies to the page's file name, so `new` never writes a page
    // that `check` refuses.
    if let Some(refused) = slug_refused(slug) {
        return Err(refused);
    }
    let sources = match options.from.as_slice() {
        [] => None,
        from => Some(sources::resolve(from)?),
    };
    if !options.root.join("site.toml").is_file() {
        return Err(Error::from(vec![Diagnostic::error(
            "site.toml",
            format!("{} holds no site.toml", options.root.display()),
        )
        .with_hint(
            "run `datapages init` first, or pass --root with the site folder",
        )]));
    }
    let config = crate::config::SiteConfig::load(&options.root)?;
    let needs_license = config.license.is_none();
    let mut report = String::new();
    let mut files = Vec::new();
    match &sources {
        Some(sources) if sources.tables.is_empty() => {
            return Err(Error::from(vec![Diagnostic::error(
                &options.from[0],
                "no table to draft: every sheet is empty",
            )
            .with_hint(
                "pass a workbook with at least one sheet that holds a table; nothing was written",
            )]));
        }
        Some(sources) if sources.tables.len() > 1 => {
            return tables::new_tables(&options.root, slug, sources, needs_license);
        }
        Some(sources) => {
            let source = &sources.tables[0];
            let read = source.read()?;
            let links = Links {
                key: proposed_key(&read.inference),
                ..Links::default()
            };
            let draft = Draft {
                slug,
                source,
                read: &read,
                links: &links,
            };
            draft.plan(&options.root, needs_license, &mut report, &mut files);
            conversion::report_skipped(&mut report, sources);
        }
        None => files.push(PlannedFile {
            path: markdown_path.clone(),
            contents: Contents::Bytes(skeleton(slug, needs_license).into_bytes()),
        }),
    };
    write_all(
        &options.root,
        &files,
        Existing::Refuse,
        "nothing was written; choose another slug, or delete the file if it is yours to replace",
    )?;
    if files.len() >= 2 {
        let copy = match sources
            .as_ref()
            .and_then(|s| s.tables[0].conversion.as_ref())
        {
            None => "a byte-for-byte copy",
            Some(_) => "converted, as said above",
        };
        let _ = writeln!(report, "Wrote {csv_path} ({copy}) and {markdown_path}.");
    } else if sources.is_some() {
        let _ = writeln!(report, "Wrote {markdown_path} for {csv_path}.");
    } else {
        let _ = writeln!(
            report,
            "Wrote {markdown_path}. Put the table at {csv_path} and document its columns, \
             or start again with `datapages new {slug} --from FILE.csv` to have them filled in."
        );
    }
    let _ = writeln!(
        report,
        "Next: replace every `{MARKER}` placeholder (`datapages check` lists them), then `datapages serve`."
    );
    Ok(report)
}
