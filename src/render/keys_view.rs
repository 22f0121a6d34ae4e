//! What the page says of its foreign keys: the misses each declares (`misses`), stated
//! under Limits with their count, the table they name and why.

use serde::Serialize;

use crate::content::markdown::{self, RawHtml};
use crate::dataset::Dataset;
use crate::layout::urls;
use crate::site::Site;

/// Rows a foreign key declares to name no row of its table: how many, by which columns,
/// the table (its title, and its page unless it is this one) and why.
#[derive(Debug, Serialize)]
pub struct KeyMissView {
    pub rows: u64,
    pub fields: String,
    pub table: String,
    /// The referenced dataset's page; none when the key names this dataset's own rows.
    pub url: Option<String>,
    pub reason_html: String,
}

/// The declared misses of the dataset's foreign keys, in the front matter's order.
pub fn key_misses(site: &Site, dataset: &Dataset, raw_html: RawHtml) -> Vec<KeyMissView> {
    let keys = dataset.front.foreign_keys.iter();
    keys.filter_map(|key| {
        let misses = key.misses.as_ref()?;
        let own = key.names_own_rows(&dataset.slug);
        let slug = key.reference.dataset.as_deref().unwrap_or(&dataset.slug);
        let table = match own {
            true => dataset.front.title.to_string(),
            false => site
                .title_of(slug)
                .map_or_else(|| slug.to_string(), str::to_string),
        };
        Some(KeyMissView {
            rows: misses.rows,
            fields: key.fields.join(", "),
            table,
            url: (!own).then(|| urls::dataset_page(slug)),
            reason_html: markdown::to_inline_html(&misses.reason, raw_html),
        })
    })
    .collect()
}

/// Where a cell of a one-column foreign key links: `href`, then (when `filtered`) the
/// cell's value URL-encoded, so the referenced dataset's explorer opens on the rows it
/// names (`#explore?k.<field>=<value>`); its page alone when it has no explorer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KeyLink {
    pub href: String,
    pub filtered: bool,
}

/// Per column of `dataset`, the link of its cells when the column is a one-column foreign
/// key, seen from a page whose way to the site root is `to_root` and to the dataset's own
/// page `to_own` (`""` on that page); `None` for other columns, a key to a draft, and a
/// key to this dataset's rows when it has no explorer (the link would be the page itself).
pub fn key_links(
    site: &Site,
    dataset: &Dataset,
    to_root: &str,
    to_own: &str,
) -> Vec<Option<KeyLink>> {
    let front = &dataset.front;
    let mut links = vec![None; front.columns.len()];
    for (key, named) in front.foreign_keys.iter().zip(&dataset.key_pages) {
        let ([field], [target]) = (key.fields.as_slice(), key.reference.fields.as_slice()) else {
            continue;
        };
        let (Some(column), Some(explore)) =
            (front.columns.iter().position(|c| c.name == *field), named)
        else {
            continue;
        };
        let page = match (key.names_own_rows(&dataset.slug), &key.reference.dataset) {
            (false, Some(slug)) => format!("{to_root}{}", urls::dataset_page(slug)),
            _ => to_own.to_string(),
        };
        links[column] = match (explore.unwrap_or(site.config.explore), page.is_empty()) {
            (true, _) => {
                let mut href = format!("{page}#explore?k.");
                push_query_text(target, &mut href);
                href.push('=');
                Some(KeyLink {
                    href,
                    filtered: true,
                })
            }
            (false, false) => Some(KeyLink {
                href: page,
                filtered: false,
            }),
            (false, true) => None,
        };
    }
    links
}

/// Appends `text` percent-encoded as a URL query's name or value: every byte but ASCII
/// letters, digits and `-._~` as `%XX` (so `&`, `=`, `#`, `+`, spaces and non-ASCII text
/// survive `URLSearchParams`, and the result needs no HTML escaping).
pub fn push_query_text(text: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 15)]));
        }
    }
}
