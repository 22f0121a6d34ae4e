//! Row pages: which rows each static page of a dataset holds, and the bounded list of page
//! links every one of them shows. Page 1 is the dataset page itself (its table shows the
//! first `table_rows` rows); pages 2..=N are `datasets/<slug>/rows/<n>/`, so every row is
//! on exactly one page.

use super::Dataset;
use crate::content::spans::Locator;
use crate::content::TableRows;
use crate::diagnostics::Diagnostic;

/// How a dataset's rows are split into pages of `per_page` rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowPaging {
    /// Rows per page: the dataset's `table_rows`, lowered so that a page of rows of the
    /// CSV's average length fits the page budget (`budget::rows_per_page`).
    pub per_page: u64,
    /// Pages, the dataset page included (at least 2).
    pub pages: u64,
    /// Rows of the CSV.
    pub rows: u64,
}

impl RowPaging {
    /// The paging of a dataset that has row pages: `row_pages` on, a cap of at least one
    /// row, and more rows than the cap.
    pub fn of(dataset: &Dataset) -> Option<RowPaging> {
        if !dataset.row_pages {
            return None;
        }
        let table_rows = match dataset.table_rows {
            TableRows::Limit(n) if n > 0 => TableRows::Limit(super::budget::rows_per_page(
                n,
                dataset.csv.bytes,
                dataset.csv.rows,
                dataset.csv.header.len(),
            )),
            other => other,
        };
        Self::new(table_rows, dataset.csv.rows)
    }

    /// The paging of `rows` rows shown `table_rows` at a time; `None` when one page holds
    /// them all (or the cap is 0).
    pub fn new(table_rows: TableRows, rows: u64) -> Option<RowPaging> {
        let per_page = match table_rows {
            TableRows::Limit(n) if n > 0 && rows > n => n,
            _ => return None,
        };
        Some(RowPaging {
            per_page,
            pages: rows.div_ceil(per_page),
            rows,
        })
    }

    /// The first and last row (from 1) on page `page`.
    pub fn rows_of(&self, page: u64) -> (u64, u64) {
        let first = (page - 1) * self.per_page + 1;
        (first, (page * self.per_page).min(self.rows))
    }

    /// The pages page `current` links to, ascending: the first, the last, the neighbours,
    /// and at each scale (1, 10, 100, …) the ten pages of that step in the block of ten
    /// steps around `current`. At most ten links per power of ten of the page count, and
    /// any page is a few clicks per digit of the count away.
    pub fn jump_pages(&self, current: u64) -> Vec<u64> {
        let mut pages = vec![1, self.pages, current, current - 1, current + 1];
        pages.retain(|p| (1..=self.pages).contains(p));
        let mut step: u64 = 1;
        while step < self.pages {
            let block = step.saturating_mul(10);
            let start = (current - 1) / block * block;
            for k in 1..=10 {
                let page = start + k * step;
                if page > self.pages {
                    break;
                }
                pages.push(page);
            }
            step = block;
        }
        pages.sort_unstable();
        pages.dedup();
        pages
    }
}

/// Row pages are files: a dataset may not write more of them than site.toml's
/// `max_row_pages`, or one row a page would turn a CSV of a megabyte into 100,000 files.
pub(super) fn check_row_page_count(
    table_rows: TableRows,
    rows: u64,
    max_row_pages: u64,
    locator: &Locator,
    problems: &mut Vec<Diagnostic>,
) {
    let Some(paging) = RowPaging::new(table_rows, rows) else {
        return;
    };
    let files = paging.pages - 1;
    if files <= max_row_pages {
        return;
    }
    let per_page = rows.div_ceil(max_row_pages + 1);
    let at = locator
        .key("table_rows")
        .or(locator.key("row_pages"))
        .or(locator.key("title"));
    problems.push(
        locator
            .error(
                format!(
                    "row pages of {} each would write {files} pages for the {rows} rows, more than the {max_row_pages} a dataset may have",
                    match paging.per_page {
                        1 => "1 row".to_string(),
                        n => format!("{n} rows"),
                    }
                ),
                at,
            )
            .with_hint(format!(
                "show at least {per_page} rows a page (`table_rows = {per_page}`), set `row_pages = false`, or raise `max_row_pages` in site.toml"
            )),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_split_rows_exactly() {
        let paging = RowPaging::new(TableRows::Limit(1000), 1_000_001).unwrap();
        assert_eq!(paging.pages, 1001);
        assert_eq!(paging.rows_of(1), (1, 1000));
        assert_eq!(paging.rows_of(2), (1001, 2000));
        assert_eq!(paging.rows_of(1001), (1_000_001, 1_000_001));
        assert_eq!(RowPaging::new(TableRows::Limit(1000), 1000), None);
        assert_eq!(RowPaging::new(TableRows::Limit(0), 10), None);
        assert_eq!(RowPaging::new(TableRows::All, 10), None);
    }

    #[test]
    fn jump_pages_are_bounded_and_reach_every_page() {
        let paging = RowPaging::new(TableRows::Limit(1), 1000).unwrap();
        assert_eq!(
            paging.jump_pages(457),
            [
                1, 100, 200, 300, 400, 410, 420, 430, 440, 450, 451, 452, 453, 454, 455, 456, 457,
                458, 459, 460, 470, 480, 490, 500, 600, 700, 800, 900, 1000
            ]
        );
        for pages in [2, 9, 10, 11, 99, 1000, 12_345] {
            let paging = RowPaging::new(TableRows::Limit(1), pages).unwrap();
            for current in 1..=pages {
                let links = paging.jump_pages(current);
                assert!(links.len() <= 4 + 10 * 5, "{pages} {current}");
                assert!(links.iter().all(|p| (1..=pages).contains(p)));
                assert!(links.contains(&current));
            }
            // Greedy walks from the first page reach every page in two clicks per digit.
            let digits = pages.to_string().len();
            for target in 1..=pages {
                let mut at = 1;
                let mut clicks = 0;
                while at != target {
                    at = *paging
                        .jump_pages(at)
                        .iter()
                        .min_by_key(|p| p.abs_diff(target))
                        .unwrap();
                    clicks += 1;
                    assert!(clicks <= 2 * digits, "{pages}: {target} not reached");
                }
            }
        }
    }
}
