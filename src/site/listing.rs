//! The order and the pages of listings (All datasets, tag pages, the home page's latest
//! datasets): one statement shared by the pages, the sitemap and `serve`'s rebuilds.
//!
//! Listings are ordered by the documented key: the updated date (else created) newest
//! first, datasets without a date last, then by title, then by slug.

use super::{Site, Tag};
use crate::layout::urls;

/// `indexes` (into `Site::datasets`) in listing order.
pub fn order(site: &Site, indexes: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut keyed: Vec<(Option<String>, usize)> =
        indexes.map(|i| (site.datasets[i].updated(), i)).collect();
    keyed.sort_by(|(a_date, a), (b_date, b)| {
        let (a, b) = (&site.datasets[*a], &site.datasets[*b]);
        b_date
            .cmp(a_date)
            .then_with(|| a.front.title.cmp(&b.front.title))
            .then_with(|| a.slug.cmp(&b.slug))
    });
    keyed.into_iter().map(|(_, i)| i).collect()
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
