//! The navigation of a dataset's row pages, shared by the dataset page's table (page 1)
//! and every row page: previous, next and a bounded list of pages.

use serde::Serialize;

use crate::dataset::paging::RowPaging;
use crate::dataset::schema::thousands;
use crate::dataset::Dataset;
use crate::layout::urls;

/// One entry of the page list.
#[derive(Debug, Serialize)]
pub struct RowPageLink {
    pub number: u64,
    pub url: String,
    pub current: bool,
    /// "Rows 1,001–2,000", for the link's title.
    pub rows: String,
}

/// Previous, next and a bounded list of pages, on the dataset page and on every row page.
#[derive(Debug, Serialize)]
pub struct RowNavView {
    pub current: u64,
    pub pages: u64,
    pub first_row: u64,
    pub last_row: u64,
    pub total_rows: u64,
    pub per_page: u64,
    /// Site-relative URLs.
    pub previous: Option<String>,
    pub next: Option<String>,
    pub links: Vec<RowPageLink>,
    /// The dataset page (page 1); page `n` is `rows/<n>/` under it.
    pub base: String,
}

/// The site-relative URL of page `n` of a dataset's rows.
pub fn row_page_url(slug: &str, n: u64) -> String {
    if n <= 1 {
        format!("{}#table", urls::dataset_page(slug))
    } else {
        urls::row_page(slug, n)
    }
}

pub fn row_range(paging: &RowPaging, page: u64) -> String {
    let (first, last) = paging.rows_of(page);
    format!("Rows {}–{}", thousands(first), thousands(last))
}

impl RowNavView {
    /// The navigation of page `current` of `dataset`, when it has row pages.
    pub fn of(dataset: &Dataset, current: u64) -> Option<RowNavView> {
        let paging = RowPaging::of(dataset)?;
        Some(Self::new(&dataset.slug, &paging, current))
    }

    pub fn new(slug: &str, paging: &RowPaging, current: u64) -> RowNavView {
        let (first_row, last_row) = paging.rows_of(current);
        let links = paging
            .jump_pages(current)
            .into_iter()
            .map(|number| RowPageLink {
                number,
                url: row_page_url(slug, number),
                current: number == current,
                rows: row_range(paging, number),
            })
            .collect();
        RowNavView {
            current,
            pages: paging.pages,
            first_row,
            last_row,
            total_rows: paging.rows,
            per_page: paging.per_page,
            previous: (current > 1).then(|| row_page_url(slug, current - 1)),
            next: (current < paging.pages).then(|| row_page_url(slug, current + 1)),
            links,
            base: urls::dataset_page(slug),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nav_marks_gaps_and_links_neighbours() {
        let paging = RowPaging::new(crate::content::TableRows::Limit(10), 995).unwrap();
        let nav = RowNavView::new("s", &paging, 2);
        assert_eq!(nav.previous.as_deref(), Some("datasets/s/#table"));
        assert_eq!(nav.next.as_deref(), Some("datasets/s/rows/3/"));
        assert_eq!((nav.first_row, nav.last_row, nav.pages), (11, 20, 100));
        let numbers: Vec<u64> = nav.links.iter().map(|l| l.number).collect();
        assert_eq!(
            numbers,
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
        );
        let last = RowNavView::new("s", &paging, 100);
        assert_eq!(last.next, None);
        assert_eq!(
            last.links.last().map(|l| l.rows.as_str()),
            Some("Rows 991–995")
        );
        let numbers: Vec<u64> = last.links.iter().map(|l| l.number).collect();
        assert_eq!(
            numbers,
            [1, 10, 20, 30, 40, 50, 60, 70, 80, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100]
        );
    }
}
