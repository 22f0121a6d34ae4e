//! Starting points an author fills in: `init` (a new site), `new` (a dataset page drafted
//! from the files in hand: CSV, TSV, gzip, workbooks; several tables, a dataset each) and
//! `eject` (the built-in theme written out for editing).
//!
//! Each command decides every file it will write first, then refuses before writing
//! anything if one of them is already there (or, `--force` or not, would be written
//! through a symbolic link: `write.rs`), so a mistake never leaves half a scaffold behind
//! and never overwrites an author's work or a file outside the site.

mod column_notes;
mod conversion;
pub mod dates;
pub mod dialect;
mod draft;
mod first_line;
pub mod infer;
pub mod init;
mod keys;
pub mod markers;
pub mod names;
pub mod new;
mod sources;
pub mod suggest;
mod table_sample;
mod tables;
mod value_shapes;
mod workbook;
pub mod workflow;
mod write;

use std::path::Path;

use crate::diagnostics::Error;
pub use write::{write_all, Contents, Existing, PlannedFile};

/// `datapages eject`: writes the built-in templates, static assets and message catalogues
/// (`i18n/<language>.toml`) into the site, to be edited there. Refuses if any is already there, unless `force`.
pub fn eject(root: &Path, force: bool) -> Result<String, Error> {
    let catalogues = crate::i18n::BUILT_IN.iter().map(|(language, text)| {
        (
            format!("{}/{language}.toml", crate::i18n::FOLDER),
            text.as_bytes(),
        )
    });
    let files: Vec<PlannedFile> = crate::theme::site_files()
        .into_iter()
        .chain(catalogues)
        .map(|(path, bytes)| PlannedFile {
            path,
            contents: Contents::Bytes(bytes.to_vec()),
        })
        .collect();
    let existing = if force {
        Existing::Overwrite
    } else {
        Existing::Refuse
    };
    write_all(
        root,
        &files,
        existing,
        "nothing was written; pass --force to replace your files with the built-in ones",
    )?;
    let mut report = format!(
        "Wrote the built-in theme ({} files) into {}:\n",
        files.len(),
        crate::text::visible_line(&root.to_string_lossy())
    );
    for file in &files {
        report.push_str(&format!("  {}\n", file.path));
    }
    report.push_str(
        "These files now replace the built-in ones; delete any you do not change to keep \
         getting the built-in version with each datapages upgrade.\n",
    );
    Ok(report)
}

/// Today's date as `YYYY-MM-DD` (UTC), for the `created`/`updated` dates of new pages.
/// Only scaffolding reads the clock; builds never do.
pub fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_date(seconds / 86_400)
}

/// The proleptic Gregorian date of a day count since 1970-01-01, as `YYYY-MM-DD`.
fn civil_date(days: u64) -> String {
    let (year, month, day) = crate::content::iso8601::civil_from_days(days as i64);
    format!("{year:04}-{month:02}-{day:02}")
}

/// A TOML string literal for any text, always on one line (see
/// [`crate::text::push_string_literal`]).
pub fn toml_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    crate::text::push_string_literal(text, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_strings_stay_on_one_line_and_read_back() {
        for text in [
            "plain",
            "a\n+++\nb",
            "q\"uote\\ back'\r\n\t",
            "\u{0}\u{1b}\u{7f}\u{85}é\u{2028}",
            "'''",
            "\"\"\"",
        ] {
            let literal = toml_string(text);
            assert!(
                !literal.contains('\n') && !literal.contains('\r'),
                "{literal}"
            );
            let parsed: toml::Table = toml::from_str(&format!("v = {literal}")).unwrap();
            assert_eq!(parsed["v"].as_str(), Some(text), "{literal}");
        }
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(20_787), "2026-11-30");
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn eject_writes_the_theme_once() {
        let dir = tempfile::tempdir().unwrap();
        eject(dir.path(), false).unwrap();
        assert!(dir.path().join("static/style.css").is_file());
        assert!(dir
            .path()
            .join("templates/partials/dataset_list.html")
            .is_file());
        let again = eject(dir.path(), false).unwrap_err();
        let refused = again.diagnostics().map_or(0, |d| d.items().len());
        assert!(dir.path().join("i18n/fr.toml").is_file());
        assert_eq!(
            refused,
            crate::theme::site_files().len() + crate::i18n::BUILT_IN.len()
        );
        eject(dir.path(), true).unwrap();
    }
}
