//! A dataset: its front matter and prose, checked against its CSV in one streaming pass.

pub mod scan;
pub mod schema;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use regex::Regex;

use crate::config::SiteConfig;
use crate::content::{self, front_matter, markdown, Body, DatasetFrontMatter, License, TableRows};
use crate::diagnostics::{did_you_mean, Diagnostic, Severity};
use scan::{CompiledColumn, CsvSummary};

/// Everything known about one dataset after loading and validation.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// From the file name: `content/datasets/<slug>.md`.
    pub slug: String,
    /// The Markdown file, relative to the site root.
    pub markdown_path: PathBuf,
    /// The CSV file on disk.
    pub csv_path: PathBuf,
    /// The CSV file relative to the site root.
    pub csv_display: PathBuf,
    pub front: DatasetFrontMatter,
    pub body: Body,
    pub csv: CsvSummary,
    /// The dataset's license, or the site's default.
    pub license: License,
    /// How many rows the page's table shows.
    pub table_rows: TableRows,
}

impl Dataset {
    /// Rows the page shows: the cap, or every row.
    pub fn shown_rows(&self) -> u64 {
        self.csv.rows.min(self.table_rows.limit())
    }

    /// The `updated` date, else `created`, as `YYYY-MM-DD`.
    pub fn updated(&self) -> Option<String> {
        self.front
            .updated
            .as_ref()
            .or(self.front.created.as_ref())
            .map(content::date_string)
    }
}

/// Whether a slug is lowercase letters, digits and single hyphens.
pub fn is_valid_slug(slug: &str) -> bool {
    !slug.is_empty()
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !slug.starts_with('-')
        && !slug.ends_with('-')
        && !slug.contains("--")
}

/// A dataset as loaded (when it could be read at all) with every problem found.
pub type Loaded = (Option<Dataset>, Vec<Diagnostic>);

/// Reads and checks one dataset. Returns the dataset when it could be loaded at all (even
/// with errors, so that later checks still run) and every problem found.
pub fn load(root: &Path, markdown_file: &Path, config: &SiteConfig) -> Loaded {
    let display = content::display_path(root, markdown_file);
    let mut problems = Vec::new();
    let text = match std::fs::read_to_string(markdown_file) {
        Ok(t) => t,
        Err(e) => {
            problems.push(Diagnostic::error(
                &display,
                format!("cannot read the dataset page: {e}"),
            ));
            return (None, problems);
        }
    };
    let slug = markdown_file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string();
    if !is_valid_slug(&slug) {
        problems.push(
            Diagnostic::error(&display, format!("`{slug}` is not a valid dataset slug")).with_hint(
                format!(
                    "rename the file to {}.md: lowercase letters, digits and hyphens",
                    markdown::slugify(&slug)
                ),
            ),
        );
    }
    let split = match front_matter::split(&display, &text) {
        Ok(s) => s,
        Err(d) => {
            problems.push(d);
            return (None, problems);
        }
    };
    let front: DatasetFrontMatter = match front_matter::parse_toml(
        &display,
        &text,
        split.front_matter,
        split.front_matter_offset,
    ) {
        Ok(f) => f,
        Err(d) => {
            problems.push(d);
            return (None, problems);
        }
    };
    let body = markdown::split_body(split.body);
    let body_line = text[..split.body_offset].matches('\n').count();

    // Locates the first occurrence of `needle` in the file (front matter keys and values,
    // link targets in the prose) as line and column.
    let locate = |needle: &str| -> Option<(usize, usize)> {
        text.lines().enumerate().find_map(|(index, line)| {
            line.find(needle)
                .map(|byte| (index + 1, line[..byte].chars().count() + 1))
        })
    };
    let front_error = |message: String, needle: &str| {
        let d = Diagnostic::error(&display, message);
        match locate(needle) {
            Some((line, column)) => d.at(line, column).with_source_from(&text),
            None => d,
        }
    };

    // Sources.
    let mut source_ids: HashSet<&str> = HashSet::new();
    for source in &front.sources {
        let needle = format!("\"{}\"", source.id);
        if !is_valid_slug(&source.id) {
            problems.push(
                front_error(format!("source id `{}` is not valid", source.id), &needle).with_hint(
                    "use lowercase letters, digits and hyphens: it becomes the anchor #source-<id>",
                ),
            );
        }
        if !source_ids.insert(&source.id) {
            problems.push(front_error(
                format!("source id `{}` is defined twice", source.id),
                &needle,
            ));
        }
    }

    // Columns.
    let mut compiled = Vec::with_capacity(front.columns.len());
    let mut column_names = HashSet::new();
    for column in &front.columns {
        let needle = format!("\"{}\"", column.name);
        if !column_names.insert(column.name.as_str()) {
            problems.push(front_error(
                format!("column `{}` is documented twice", column.name),
                &needle,
            ));
        }
        if let Some(reference) = &column.references {
            if reference != "sources" {
                problems.push(
                    front_error(
                        format!(
                            "column `{}`: unknown references target {reference:?}",
                            column.name
                        ),
                        "references",
                    )
                    .with_hint("the only target is \"sources\""),
                );
            }
        }
        let pattern = match &column.pattern {
            Some(p) => match Regex::new(&format!("^(?:{p})$")) {
                Ok(r) => Some(r),
                Err(e) => {
                    problems.push(
                        front_error(
                            format!(
                                "column `{}`: the pattern is not a valid regular expression",
                                column.name
                            ),
                            "pattern",
                        )
                        .with_hint(
                            e.to_string()
                                .lines()
                                .last()
                                .unwrap_or_default()
                                .trim()
                                .to_string(),
                        ),
                    );
                    None
                }
            },
            None => None,
        };
        compiled.push(CompiledColumn {
            spec: column,
            pattern,
        });
    }
    if front.columns.is_empty() {
        problems.push(
            front_error("no [[columns]] are documented".into(), "+++").with_hint(
                "add a [[columns]] entry for every CSV column: name, title, type, description",
            ),
        );
    }
    for key in &front.primary_key {
        if !column_names.contains(key.as_str()) {
            let hint = did_you_mean(key, column_names.iter().copied())
                .map(|n| format!("did you mean `{n}`?"))
                .unwrap_or_else(|| "name documented columns".into());
            problems.push(
                front_error(
                    format!("primary_key names `{key}`, which is not a column"),
                    "primary_key",
                )
                .with_hint(hint),
            );
        }
    }

    // The body.
    if body.lede_text.is_empty() {
        problems.push(
            Diagnostic::warning(&display, "the page has no lede")
                .at_line(body_line + 1)
                .with_hint("start the body with a paragraph that says what the table shows, with its key figures"),
        );
    }
    for expected in ["Method", "Limits"] {
        if body.section(expected).is_none() {
            problems.push(
                Diagnostic::warning(&display, format!("the page has no `## {expected}` section"))
                    .with_hint(if expected == "Method" {
                        "say how the figures were obtained"
                    } else {
                        "say what the table does not show"
                    }),
            );
        }
    }
    let mut linked_sources = HashSet::new();
    for link in &body.links {
        if let Some(id) = link.strip_prefix("#source-") {
            if source_ids.contains(id) {
                linked_sources.insert(id.to_string());
            } else {
                let hint = did_you_mean(id, source_ids.iter().copied())
                    .map(|n| format!("did you mean `#source-{n}`?"))
                    .unwrap_or_else(|| "add a [[sources]] entry with this id".into());
                problems.push(
                    front_error(
                        format!("the prose links to source `{id}`, which is not defined"),
                        link,
                    )
                    .with_hint(hint),
                );
            }
        }
    }
    if let Some(text) = front.license.as_ref().and_then(|l| l.text.as_ref()) {
        for link in markdown::split_body(text).links {
            if let Some(id) = link.strip_prefix("#source-") {
                linked_sources.insert(id.to_string());
            }
        }
    }

    // The license.
    let license = match front.license.clone().or_else(|| config.license.clone()) {
        Some(l) => l,
        None => {
            problems.push(
                Diagnostic::error(&display, "the dataset has no license").with_hint(
                    "add [license] to the front matter, or a default [license] to site.toml",
                ),
            );
            License {
                id: None,
                name: String::new(),
                url: None,
                text: None,
            }
        }
    };

    // The CSV.
    let csv_relative = front
        .data
        .clone()
        .unwrap_or_else(|| format!("data/datasets/{slug}.csv"));
    let csv_path = root.join(&csv_relative);
    let csv_display = PathBuf::from(&csv_relative);
    let table_rows = front.table_rows.unwrap_or(config.table_rows);
    let (summary, csv_problems) = if csv_path.is_file() {
        scan::scan(
            &csv_path,
            &csv_display,
            &compiled,
            &source_ids,
            table_rows.limit(),
        )
    } else {
        let d = front_error(
            format!("the data file {csv_relative} does not exist"),
            "data =",
        )
        .with_hint(if front.data.is_some() {
            "fix the `data` path (relative to the site root)".to_string()
        } else {
            format!("put the CSV at {csv_relative}, or set `data = \"…\"` in the front matter")
        });
        (None, vec![d])
    };
    problems.extend(csv_problems);

    if let Some(summary) = &summary {
        for source in &front.sources {
            if !summary.referenced_sources.contains(&source.id)
                && !linked_sources.contains(&source.id)
            {
                let unused = front_error(format!("source `{}` is defined but never cited", source.id), &format!("\"{}\"", source.id))
                    .with_hint("cite it from a CSV column with references = \"sources\", link it as [text](#source-<id>), or remove it");
                problems.push(Diagnostic {
                    severity: Severity::Warning,
                    ..unused
                });
            }
        }
    }
    drop(compiled);
    let dataset = summary.map(|csv| Dataset {
        slug,
        markdown_path: display,
        csv_path,
        csv_display,
        front,
        body,
        csv,
        license,
        table_rows,
    });
    (dataset, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_lowercase_words_and_hyphens() {
        assert!(is_valid_slug("sata-sas-nvme-measured-throughput"));
        assert!(is_valid_slug("a1"));
        for bad in ["", "A", "a_b", "-a", "a-", "a--b", "a b", "é"] {
            assert!(!is_valid_slug(bad), "{bad}");
        }
    }
}
