//! Paginated listings: All datasets and tag pages, one page of `paginate_by` datasets at a
//! time, with previous/next and page numbers (`templates/partials/pagination.html`).

use serde::Serialize;

use super::{summaries_in_order, tag_links, Renderer, TagView};
use crate::diagnostics::Diagnostic;
use crate::layout::urls;
use crate::site::{listing, Site, Tag};

/// Page numbers shown on each side of the current page; the first and last are always shown.
const NEIGHBOURS: usize = 2;

/// One page number in the pagination bar; `url` is `None` for a gap ("…").
#[derive(Debug, Serialize)]
pub struct PageLink {
    pub number: usize,
    pub url: Option<String>,
    pub current: bool,
}

/// The pagination of one listing page, in the template as `pagination`.
#[derive(Debug, Serialize)]
pub struct PaginationView {
    /// From 1.
    pub current: usize,
    pub count: usize,
    /// Site-relative URLs (prefix with `root`).
    pub previous: Option<String>,
    pub next: Option<String>,
    pub pages: Vec<PageLink>,
    /// Datasets in the whole listing, and the first and last shown here (from 1).
    pub total: usize,
    pub first_item: usize,
    pub last_item: usize,
}

impl PaginationView {
    fn new(first_url: &str, current: usize, count: usize, total: usize, per_page: usize) -> Self {
        let url = |n: usize| urls::listing_page(first_url, n);
        let mut pages = Vec::new();
        for n in 1..=count {
            let near = n.abs_diff(current) <= NEIGHBOURS;
            if n == 1 || n == count || near {
                pages.push(PageLink {
                    number: n,
                    url: Some(url(n)),
                    current: n == current,
                });
            } else if pages.last().is_some_and(|p: &PageLink| p.url.is_some()) {
                pages.push(PageLink {
                    number: n,
                    url: None,
                    current: false,
                });
            }
        }
        PaginationView {
            current,
            count,
            previous: (current > 1).then(|| url(current - 1)),
            next: (current < count).then(|| url(current + 1)),
            pages,
            total,
            first_item: if total == 0 {
                0
            } else {
                (current - 1) * per_page + 1
            },
            last_item: (current * per_page).min(total),
        }
    }
}

/// `../` once per folder of a site-relative page URL: the `root` prefix of its links.
fn root_of(url: &str) -> String {
    "../".repeat(url.matches('/').count())
}

impl Renderer {
    /// Page `number` (from 1) of All datasets; `ordered` is every dataset in listing order.
    pub fn datasets_page(
        &self,
        site: &Site,
        ordered: &[usize],
        number: usize,
    ) -> Result<String, Diagnostic> {
        let per_page = site.config.paginate_by.get();
        let count = listing::page_count(site, ordered.len());
        let url = urls::listing_page(urls::DATASETS, number);
        let mut context = Self::base_context(site, &root_of(&url));
        let shown = ordered.iter().skip((number - 1) * per_page).take(per_page);
        context.insert("datasets", &summaries_in_order(site, shown.copied()));
        context.insert("total", &ordered.len());
        context.insert(
            "pagination",
            &PaginationView::new(urls::DATASETS, number, count, ordered.len(), per_page),
        );
        context.insert("search_index", urls::SEARCH_INDEX);
        context.insert("tags", &tag_links(site));
        context.insert(
            "page_title",
            &page_title(
                &site.words,
                &site.words.text("listing.title").unwrap_or_default(),
                number,
            ),
        );
        self.render("datasets.html", &context)
    }

    /// Page `number` (from 1) of one tag; `ordered` is its datasets in listing order.
    pub fn tag_page(
        &self,
        site: &Site,
        tag: &Tag,
        ordered: &[usize],
        number: usize,
    ) -> Result<String, Diagnostic> {
        let per_page = site.config.paginate_by.get();
        let count = listing::page_count(site, ordered.len());
        let first = urls::tag_page(&tag.slug);
        let url = urls::listing_page(&first, number);
        let mut context = Self::base_context(site, &root_of(&url));
        context.insert(
            "tag",
            &TagView {
                name: &tag.name,
                slug: &tag.slug,
            },
        );
        let shown = ordered.iter().skip((number - 1) * per_page).take(per_page);
        context.insert("datasets", &summaries_in_order(site, shown.copied()));
        context.insert("total", &ordered.len());
        context.insert(
            "pagination",
            &PaginationView::new(&first, number, count, ordered.len(), per_page),
        );
        context.insert("page_title", &page_title(&site.words, &tag.name, number));
        self.render("tag.html", &context)
    }
}

/// A listing's title, and from its second page on "Title, page 2" in the site's language
/// (every catalogue has `pages.title_page`: `check` stops a build that lacks it).
fn page_title(words: &crate::i18n::Words, title: &str, number: usize) -> String {
    if number <= 1 {
        return title.to_string();
    }
    let title = title.to_string();
    let page = words.number(&number.to_string()).into_owned();
    words
        .text_with("pages.title_page", &|name| match name {
            "title" => Some(title.clone()),
            "page" => Some(page.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_show_ends_neighbours_and_gaps() {
        let p = PaginationView::new("datasets/", 6, 10, 1000, 100);
        let shown: Vec<String> = p
            .pages
            .iter()
            .map(|l| match l.url {
                Some(_) => l.number.to_string(),
                None => "…".into(),
            })
            .collect();
        assert_eq!(shown, ["1", "…", "4", "5", "6", "7", "8", "…", "10"]);
        assert_eq!(p.previous.as_deref(), Some("datasets/page/5/"));
        assert_eq!(p.next.as_deref(), Some("datasets/page/7/"));
        assert_eq!((p.first_item, p.last_item), (501, 600));
        let one = PaginationView::new("tags/x/", 1, 1, 3, 100);
        assert_eq!((one.previous, one.next), (None, None));
        assert_eq!(root_of("tags/x/page/2/"), "../../../../");
        assert_eq!(root_of("datasets/"), "../");
    }
}
