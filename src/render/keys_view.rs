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
        let slug = key.reference.dataset.as_deref().unwrap_or(&dataset.slug);
        let own = slug == dataset.slug;
        let table = match own {
            true => dataset.front.title.to_string(),
            false => site
                .title_of(slug)
                .map_or_else(|| slug.to_string(), |t| t.into_owned()),
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
