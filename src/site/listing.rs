//! The order and the pages of listings (All datasets, tag pages, the home page's latest
//! datasets): one statement shared by the pages, the sitemap and `serve`'s rebuilds.
//!
//! Listings are ordered by the documented key: the updated date (else created) newest
//! first, datasets without a date last, then by title (as people read them: case and
//! accents ignored, numbers by value, [`compare_titles`]), then by slug.

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
        let (a, b) = (site.datasets.summary(a), site.datasets.summary(b));
        compare_dates(b.listing_date(), a.listing_date())
            .then_with(|| compare_titles(&a.title, &b.title))
            .then_with(|| a.slug.cmp(&b.slug))
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

/// Titles in reading order, without a locale table: letters compared case-folded with
/// their accents removed ([`crate::text::fold`]: `Émile` beside `Emile`, `a10` before
/// `Zimmerman`), runs of digits by their value (`a2` before `a10`); titles equal that
/// way fall back to their exact text, so the order is total.
pub fn compare_titles(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (Folded::new(a), Folded::new(b));
    loop {
        let order = match (x.peek(), y.peek()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(p), Some(q)) if p.is_ascii_digit() && q.is_ascii_digit() => {
                let (m, n) = (x.digits(), y.digits());
                let (m, n) = (m.trim_start_matches('0'), n.trim_start_matches('0'));
                m.len().cmp(&n.len()).then_with(|| m.cmp(n))
            }
            (Some(p), Some(q)) => {
                x.next();
                y.next();
                p.cmp(&q)
            }
        };
        if order != Ordering::Equal {
            return order;
        }
    }
}

/// A title's characters lowercased, with accents removed and small digits made digits.
struct Folded<'a> {
    chars: std::str::Chars<'a>,
    pending: std::collections::VecDeque<char>,
}

impl<'a> Folded<'a> {
    fn new(text: &'a str) -> Self {
        Folded {
            chars: text.chars(),
            pending: std::collections::VecDeque::new(),
        }
    }

    fn peek(&mut self) -> Option<char> {
        if self.pending.is_empty() {
            let c = self.chars.next()?;
            match crate::text::fold(c) {
                Some(text) => self
                    .pending
                    .extend(text.chars().map(|c| c.to_ascii_lowercase())),
                None => self.pending.extend(c.to_lowercase()),
            }
        }
        self.pending.front().copied()
    }

    fn next(&mut self) -> Option<char> {
        self.peek()?;
        self.pending.pop_front()
    }

    /// The run of ASCII digits that starts here.
    fn digits(&mut self) -> String {
        let mut run = String::new();
        while let Some(c) = self.peek().filter(char::is_ascii_digit) {
            run.push(c);
            self.next();
        }
        run
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

    #[test]
    fn titles_sort_case_and_accents_ignored_and_numbers_by_value() {
        let mut titles = vec![
            "Zimmerman",
            "a10",
            "a2",
            "Émile",
            "Emile",
            "apple",
            "Banana",
            "a02",
            "CO₂ 10",
            "CO2 9",
        ];
        titles.sort_by(|a, b| compare_titles(a, b));
        assert_eq!(
            titles,
            [
                "a02",
                "a2",
                "a10",
                "apple",
                "Banana",
                "CO2 9",
                "CO₂ 10",
                "Emile",
                "Émile",
                "Zimmerman"
            ]
        );
    }

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
