//! The order and the pages of listings (All datasets, tag pages, the home page's latest
//! datasets): one statement shared by the pages, the sitemap and `serve`'s rebuilds.
//!
//! Listings are ordered by the documented key: the updated date (else created) newest
//! first, datasets without a date last, then by title, then by slug.

use std::cmp::Ordering;

use super::{Site, Tag};
use crate::content;
use crate::layout::urls;

/// `indexes` (into `Site::datasets`) in listing order. The dates are compared as they are,
/// not as the text they are written as: a sort of 10,000 datasets then allocates nothing
/// but the list it returns (listings of a large catalog are sorted several at once).
pub fn order(site: &Site, indexes: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut ordered: Vec<usize> = indexes.collect();
    ordered.sort_unstable_by(|&a, &b| {
        let (a, b) = (site.datasets.listing(a), site.datasets.listing(b));
        compare_dates(b.date, a.date)
            .then_with(|| a.title.cmp(b.title))
            .then_with(|| a.slug.cmp(b.slug))
    });
    ordered
}

/// Orders two listing dates as their written forms ([`content::date_string`]) order:
/// no date first, then by year, month and day (TOML years have four digits, so the
/// numbers order as the text does); a value without a date part (a bare time, which
/// `check` warns about) is compared by its text.
fn compare_dates(a: Option<&toml::value::Datetime>, b: Option<&toml::value::Datetime>) -> Ordering {
    match (a, b) {
        (Some(a), Some(b)) => match (&a.date, &b.date) {
            (Some(x), Some(y)) => (x.year, x.month, x.day).cmp(&(y.year, y.month, y.day)),
            _ => content::date_string(a).cmp(&content::date_string(b)),
        },
        (a, b) => a.is_some().cmp(&b.is_some()),
    }
}

/// Every dataset in listing order (All datasets, the home page).
pub fn all(site: &Site) -> Vec<usize> {
    order(site, 0..site.datasets.len())
}

/// How many pages a listing of `items` datasets takes (always at least one).
pub fn page_count(site: &Site, items: usize) -> usize {
    items.div_ceil(site.config.paginate_by.get()).max(1)
}

/// The URLs (site-relative folders) of every page of All datasets.
pub fn datasets_pages(site: &Site) -> Vec<String> {
    (1..=page_count(site, site.datasets.len()))
        .map(|n| urls::listing_page(urls::DATASETS, n))
        .collect()
}

/// The URLs of every page of one tag.
pub fn tag_pages(site: &Site, tag: &Tag) -> Vec<String> {
    let first = urls::tag_page(&tag.slug);
    (1..=page_count(site, tag.datasets.len()))
        .map(|n| urls::listing_page(&first, n))
        .collect()
}

/// The datasets the home page shows: the most recently updated ones.
pub fn home(site: &Site, ordered: &[usize]) -> usize {
    ordered.len().min(site.config.home_datasets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use toml::value::Datetime;

    /// The dates are compared as their written forms would be, for every pair of a set
    /// that mixes dates, date-times, bare times and missing dates.
    #[test]
    fn dates_order_as_their_written_forms() {
        let given = [
            "2024-05-01",
            "2024-05-01T10:00:00Z",
            "2024-12-31",
            "2023-12-31T23:59:59+02:00",
            "0999-01-01",
            "1000-01-01",
            "2024-05-10",
            "2024-10-05",
            "07:32:00",
            "23:00:00.5",
            "1979-05-27T07:32:00",
        ];
        let dates: Vec<Option<Datetime>> = given
            .iter()
            .map(|text| Some(text.parse().expect("a TOML date")))
            .chain([None])
            .collect();
        for a in &dates {
            for b in &dates {
                let text = |d: &Option<Datetime>| d.as_ref().map(content::date_string);
                assert_eq!(
                    compare_dates(a.as_ref(), b.as_ref()),
                    text(a).cmp(&text(b)),
                    "{a:?} against {b:?}"
                );
            }
        }
    }
}
