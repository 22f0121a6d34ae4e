//! The kept versions of a dataset's CSV and what changed between consecutive ones, as the
//! Data Package states them (`datapages:versions`) and the page's Changes section shows
//! them. Keys in sorted order.

use serde::Serialize;

use crate::dataset::versions::{ChangedRow, Comparison, Versions};
use crate::dataset::Dataset;
use crate::layout::urls;
use crate::site::Site;

/// One kept version: its published file, and what changed from it to the next.
#[derive(Debug, Serialize)]
pub struct VersionView {
    pub bytes: u64,
    pub date: String,
    /// The next version (newer), which `then` compares it with.
    pub next: String,
    /// The versioned file's absolute URL.
    pub path: String,
    pub sha256: String,
    pub then: ComparisonView,
    pub version: String,
}

/// What changed between two versions. Without a primary key (`keyed` false) rows are
/// compared whole: `changed` is 0 and no rows are named.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ComparisonView {
    pub changed_columns: Vec<ColumnCount>,
    pub columns_added: Vec<String>,
    pub columns_removed: Vec<String>,
    pub first_added: Vec<String>,
    pub first_changed: Vec<ChangedRowView>,
    pub first_removed: Vec<String>,
    pub keyed: bool,
    pub rows_added: u64,
    pub rows_changed: u64,
    pub rows_removed: u64,
}

/// A column and how many of its cells changed.
#[derive(Debug, Serialize)]
pub struct ColumnCount {
    pub column: String,
    pub count: u64,
}

/// A changed row: its key, and each changed cell before and after.
#[derive(Debug, Serialize)]
pub struct ChangedRowView {
    pub cells: Vec<ChangedCell>,
    pub key: String,
}

#[derive(Debug, Serialize)]
pub struct ChangedCell {
    pub after: String,
    pub before: String,
    pub column: String,
}

/// The dataset's kept versions, oldest first (empty without any).
pub fn versions(site: &Site, dataset: &Dataset) -> Vec<VersionView> {
    let Some(versions) = dataset.versions.as_deref() else {
        return Vec::new();
    };
    let Versions {
        kept,
        comparisons,
        current,
    } = versions;
    kept.iter()
        .zip(comparisons)
        .enumerate()
        .map(|(i, (version, comparison))| VersionView {
            bytes: version.bytes,
            date: version.date.clone(),
            next: kept
                .get(i + 1)
                .map_or_else(|| current.clone(), |k| k.version.clone()),
            path: site.outputs.url_of(
                &dataset.data_place(&site.config),
                &dataset.slug,
                &urls::version_file(&dataset.slug, &version.version),
            ),
            sha256: version.sha256.to_string(),
            then: ComparisonView::from(comparison),
            version: version.version.clone(),
        })
        .collect()
}

impl From<&Comparison> for ComparisonView {
    fn from(c: &Comparison) -> ComparisonView {
        ComparisonView {
            changed_columns: c
                .changed_columns
                .iter()
                .map(|(column, count)| ColumnCount {
                    column: column.clone(),
                    count: *count,
                })
                .collect(),
            columns_added: c.columns_added.clone(),
            columns_removed: c.columns_removed.clone(),
            first_added: c.first_added.clone(),
            first_changed: c.first_changed.iter().map(ChangedRowView::from).collect(),
            first_removed: c.first_removed.clone(),
            keyed: c.keyed,
            rows_added: c.added,
            rows_changed: c.changed,
            rows_removed: c.removed,
        }
    }
}

impl From<&ChangedRow> for ChangedRowView {
    fn from(row: &ChangedRow) -> ChangedRowView {
        ChangedRowView {
            cells: row
                .columns
                .iter()
                .map(|(column, before, after)| ChangedCell {
                    after: after.clone(),
                    before: before.clone(),
                    column: column.clone(),
                })
                .collect(),
            key: row.key.clone(),
        }
    }
}
