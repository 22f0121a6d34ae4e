//! The prose's links within its own page: `#source-<id>` must name one of the dataset's
//! sources, `#row-<n>` a row the page's table shows, any other `#anchor` a heading of the
//! body or a part every dataset page has.
//! Each error points at the link itself (its offset from the Markdown parser) with a "did
//! you mean", so a correct link elsewhere on the page is never the one quoted.

use std::collections::HashSet;

use crate::content::markdown::{Body, RESERVED_IDS};
use crate::content::spans::Locator;
use crate::content::DatasetFrontMatter;
use crate::diagnostics::{did_you_mean, Diagnostic};

/// Ids the dataset template gives its parts besides [`RESERVED_IDS`].
const PAGE_IDS: &[&str] = &[
    "changes",
    "cite",
    "table-caption",
    "table-filter",
    "table-status",
];

/// Checks the body's `#…` links; returns the source ids they cite.
pub(super) fn check(
    body: &Body,
    front: &DatasetFrontMatter,
    source_ids: &HashSet<&str>,
    locator: &Locator,
    body_offset: usize,
    problems: &mut Vec<Diagnostic>,
) -> HashSet<String> {
    let mut linked_sources = HashSet::new();
    let anchors = page_anchors(body, front);
    for (link, offset) in body.links.iter().zip(&body.link_offsets) {
        let Some(anchor) = link.strip_prefix('#').filter(|a| !a.is_empty()) else {
            continue;
        };
        let at = Some(body_offset + offset);
        if let Some(id) = anchor.strip_prefix("source-") {
            if source_ids.contains(id) {
                linked_sources.insert(id.to_string());
                continue;
            }
            let hint = did_you_mean(id, source_ids.iter().copied())
                .map(|n| format!("did you mean `#source-{n}`?"))
                .unwrap_or_else(|| "add a [[sources]] entry with this id".into());
            problems.push(
                locator
                    .error(
                        format!("the prose links to source `{id}`, which is not defined"),
                        at,
                    )
                    .with_hint(hint),
            );
            continue;
        }
        if anchors.contains(anchor) || is_generated(anchor) {
            continue;
        }
        let hint = did_you_mean(anchor, anchors.iter().map(String::as_str))
            .map(|n| format!("did you mean `#{n}`?"))
            .unwrap_or_else(|| {
                "link to a heading's id (its words in lowercase, joined by hyphens) or a part of \
                 the page: #table, #columns, #sources, #license"
                    .into()
            });
        problems.push(
            locator
                .error(
                    format!("the prose links to `#{anchor}`, which is not on this page"),
                    at,
                )
                .with_hint(hint),
        );
    }
    linked_sources
}

/// Checks the body's `#row-<n>` links against the rows the page's table shows (once the
/// CSV is scanned): `#row-999` on a page of 58 rows leads nowhere.
pub(super) fn check_rows(
    body: &Body,
    shown_rows: u64,
    locator: &Locator,
    body_offset: usize,
    problems: &mut Vec<Diagnostic>,
) {
    for (link, offset) in body.links.iter().zip(&body.link_offsets) {
        let Some(row) = link
            .strip_prefix("#row-")
            .and_then(|n| n.parse::<u64>().ok())
        else {
            continue;
        };
        if (1..=shown_rows).contains(&row) {
            continue;
        }
        let shown = match shown_rows {
            0 => "no rows".to_string(),
            1 => "row 1 only".to_string(),
            n => format!("rows 1 to {n}"),
        };
        problems.push(
            locator
                .error(
                    format!("the prose links to `#row-{row}`, but the table on this page shows {shown}"),
                    Some(body_offset + offset),
                )
                .with_hint(
                    "link to a row the page shows (rows count from 1, as in the table), or raise `table_rows`",
                ),
        );
    }
}

/// Every id the page has that a link may name by its exact text.
fn page_anchors(body: &Body, front: &DatasetFrontMatter) -> HashSet<String> {
    let mut anchors: HashSet<String> = RESERVED_IDS
        .iter()
        .chain(PAGE_IDS)
        .map(|id| id.to_string())
        .collect();
    anchors.extend(body.sections.iter().map(|s| s.id.clone()));
    anchors.extend(body.heading_ids.iter().cloned());
    anchors.extend(front.charts.iter().map(|c| format!("chart-{}", c.id())));
    anchors.extend(front.columns.iter().map(|c| format!("column-{}", c.name)));
    anchors
}

/// Ids made per row or per citation format: `row-<n>`, `cite-<format>`.
fn is_generated(anchor: &str) -> bool {
    let row = anchor
        .strip_prefix("row-")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    row || anchor.starts_with("cite-") || anchor.ends_with("-title") && anchor.starts_with("chart-")
}
