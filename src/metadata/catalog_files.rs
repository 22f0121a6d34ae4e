//! The site files whose size grows with the catalog, streamed to disk one dataset at a
//! time: `data/catalog.json`, the listing filter's split search index (`data/search/`), and the
//! sitemap, which past `_sitemap_urls` URLs (the protocol's 50,000) becomes a sitemap index
//! (`sitemap.xml`) of child sitemaps (`sitemap-1.xml`, ...).

use std::io::{self, Write};

use serde::Serialize;

use super::escape_xml;
use super::search_split::{self, SearchDoc};
use crate::layout::urls;
use crate::site::{listing, Site};

/// Writes `data/catalog.json`: every dataset with where to find it and how to verify it.
/// The bytes are those of `serde_json::to_vec` of the whole document (compact: it is read
/// by programs), plus a newline.
pub fn write_catalog(site: &Site, out: &mut dyn Write) -> io::Result<()> {
    out.write_all(b"{\"datasets\":[")?;
    for n in 0..site.datasets.len() {
        if n > 0 {
            out.write_all(b",")?;
        }
        serde_json::to_writer(&mut *out, &CatalogJsonItem::of(site, n))
            .map_err(io::Error::other)?;
    }
    let title = serde_json::to_string(&site.config.title).map_err(io::Error::other)?;
    let url = serde_json::to_string(site.config.base_url.as_str()).map_err(io::Error::other)?;
    writeln!(out, "],\"title\":{title},\"url\":{url}}}")
}

/// Whether the dataset `slug` has the same entry in the catalog.json of `before` and of
/// `now` (false when it is missing from either).
pub fn same_catalog_entry(before: &Site, now: &Site, slug: &str) -> bool {
    match (before.datasets.position(slug), now.datasets.position(slug)) {
        (Some(old), Some(new)) => CatalogJsonItem::of(before, old) == CatalogJsonItem::of(now, new),
        _ => false,
    }
}

/// One dataset of `data/catalog.json`, borrowed, its keys in sorted order: the bytes a
/// `serde_json::Value` (a sorted map) gave, without building one per dataset, from the
/// dataset's summary.
#[derive(PartialEq)]
struct CatalogJsonItem<'a> {
    bytes: u64,
    columns: usize,
    page: String,
    rows: u64,
    sha256: crate::checksum::Sha256,
    slug: &'a str,
    title: &'a str,
    updated: Option<String>,
    /// The absolute URL of each output's file that catalog.json names
    /// (`DatasetOutput::catalog_key`), under its key, for the outputs on for it.
    files: Vec<(&'static str, String)>,
}

/// The keys of [`CatalogJsonItem`] besides its outputs' files.
const CATALOG_KEYS: [&str; 8] = [
    "bytes", "columns", "page", "rows", "sha256", "slug", "title", "updated",
];

impl<'a> CatalogJsonItem<'a> {
    /// The entry of the dataset at `index`.
    fn of(site: &'a Site, index: usize) -> CatalogJsonItem<'a> {
        let d = site.datasets.summary(index);
        let files = site.outputs.catalog_files(&d.slug, d.outputs_on);
        CatalogJsonItem {
            bytes: d.bytes,
            columns: d.columns as usize,
            page: site.config.absolute_url(&urls::dataset_page(&d.slug)),
            rows: d.rows,
            sha256: d.sha256,
            slug: &d.slug,
            title: &d.title,
            updated: d.updated().or_else(|| site.default_date.clone()),
            files: files
                .map(|(key, path)| {
                    (
                        key,
                        site.outputs
                            .url_of(&d.data_place(&site.config), &d.slug, &path),
                    )
                })
                .collect(),
        }
    }
}

impl Serialize for CatalogJsonItem<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut keys: Vec<&str> = CATALOG_KEYS.to_vec();
        keys.extend(self.files.iter().map(|(key, _)| *key));
        keys.sort_unstable();
        keys.dedup();
        let mut map = s.serialize_map(Some(keys.len()))?;
        for key in keys {
            match key {
                "bytes" => map.serialize_entry(key, &self.bytes)?,
                "columns" => map.serialize_entry(key, &self.columns)?,
                "page" => map.serialize_entry(key, &self.page)?,
                "rows" => map.serialize_entry(key, &self.rows)?,
                "sha256" => map.serialize_entry(key, &self.sha256)?,
                "slug" => map.serialize_entry(key, self.slug)?,
                "title" => map.serialize_entry(key, self.title)?,
                "updated" => map.serialize_entry(key, &self.updated)?,
                _ => {
                    let file = self.files.iter().find(|(own, _)| *own == key);
                    map.serialize_entry(key, &file.map(|(_, url)| url))?
                }
            }
        }
        map.end()
    }
}

/// How many characters of a dataset's description the search index states: the index of
/// 10,000 datasets stays a few megabytes whatever the descriptions.
pub const SEARCHED_DESCRIPTION: usize = 300;

/// The search entry of the dataset at `index`: its listing, and the description and column
/// names from its catalog entry. What the filter searches besides the title, slug and tags
/// is the headline, the description (its first [`SEARCHED_DESCRIPTION`] characters), the
/// column names (the first [`crate::dataset::SEARCHED_COLUMNS`]) and the tags as written.
fn search_doc(site: &Site, index: usize) -> io::Result<SearchDoc> {
    let d = site.datasets.summary(index);
    let entry = site.datasets.entry(index)?;
    let tags = d
        .tags
        .iter()
        .map(|tag| crate::content::markdown::slugify(tag))
        .collect();
    let description: String = entry
        .description
        .chars()
        .take(SEARCHED_DESCRIPTION)
        .collect();
    let text = [
        &*d.headline,
        &description,
        &entry.column_names,
        &d.tags.join(" "),
    ]
    .iter()
    .filter(|t| !t.is_empty())
    .copied()
    .collect::<Vec<_>>()
    .join(" ");
    Ok(SearchDoc {
        slug: d.slug.clone(),
        tags,
        text,
        title: d.title.to_string(),
        updated: d.updated(),
    })
}

/// Whether the dataset `slug` has the same search-index entry in both sites.
pub fn same_search_entry(before: &Site, now: &Site, slug: &str) -> bool {
    match (before.datasets.position(slug), now.datasets.position(slug)) {
        (Some(old), Some(new)) => match (search_doc(before, old), search_doc(now, new)) {
            (Ok(old), Ok(new)) => old == new,
            _ => false,
        },
        _ => false,
    }
}

/// The files of the listing filter's split search index (`search_split`), every dataset
/// in listing order (`ordered`), each given to `put` as soon as it is made; a dataset
/// that cannot be read back is reported through `unread`.
pub fn search_index_files<E>(
    site: &Site,
    ordered: &[usize],
    unread: impl Fn(io::Error) -> E,
    mut put: impl FnMut(search_split::File) -> Result<(), E>,
) -> Result<(), E> {
    let mut index = search_split::Builder::default();
    for &i in ordered {
        if let Some(file) = index.add(search_doc(site, i).map_err(&unread)?) {
            put(file)?;
        }
    }
    index.finish().try_for_each(put)
}

/// One URL of the sitemap. A dataset's page is named by its index in `Site::datasets`, its
/// path and date spelled out only as the sitemap is written: the list of 100,000 paths
/// and dates held about 12 MB at the end of a build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SitemapUrl {
    Dataset(usize),
    /// Any other page: its site-relative path.
    Other(Box<str>),
}

impl SitemapUrl {
    /// The site-relative path, in pieces that join to it (compared without joining).
    fn pieces<'a>(&'a self, site: &'a Site) -> [&'a str; 3] {
        match self {
            SitemapUrl::Dataset(index) => ["datasets/", site.datasets.slug(*index), "/"],
            SitemapUrl::Other(path) => [path, "", ""],
        }
    }

    /// The site-relative path.
    pub fn path(&self, site: &Site) -> String {
        self.pieces(site).concat()
    }

    /// The date the sitemap states: a dataset's `updated` date (or `--date`).
    pub fn updated(&self, site: &Site) -> Option<String> {
        match self {
            SitemapUrl::Dataset(index) => {
                let listed = site.datasets.summary(*index).updated();
                listed.or_else(|| site.default_date.clone())
            }
            SitemapUrl::Other(_) => None,
        }
    }
}

/// Every page of the site, sorted by site-relative URL.
pub fn page_paths(site: &Site) -> Vec<SitemapUrl> {
    let other = |url: String| SitemapUrl::Other(url.into_boxed_str());
    let mut paths = vec![other(String::new())];
    paths.extend(listing::datasets_pages(site).into_iter().map(other));
    paths.extend((0..site.datasets.len()).map(SitemapUrl::Dataset));
    for tag in &site.tags {
        paths.extend(listing::tag_pages(site, tag).into_iter().map(other));
    }
    paths.extend(site.pages.iter().map(|p| other(urls::page(&p.name))));
    paths.sort_by(|a, b| joined_bytes(a.pieces(site)).cmp(joined_bytes(b.pieces(site))));
    paths
}

fn joined_bytes<'a>(pieces: [&'a str; 3]) -> impl Iterator<Item = u8> + 'a {
    pieces.into_iter().flat_map(str::bytes)
}

/// How many URLs [`page_paths`] lists, without listing them (a rebuild asks whether the
/// sitemap's files changed).
pub fn page_count(site: &Site) -> usize {
    let tag_pages: usize = site
        .tags
        .iter()
        .map(|tag| listing::page_count(site, tag.datasets.len()))
        .sum();
    1 + listing::page_count(site, site.datasets.len())
        + site.datasets.len()
        + tag_pages
        + site.pages.len()
}

/// The sitemap files to write for `urls` URLs: `sitemap.xml` alone, or an index and its
/// children. Each entry is the file's name and the offset of its first URL (none for the
/// index).
pub fn sitemap_files(site: &Site, urls: usize) -> Vec<(String, usize)> {
    let per_file = site.config.sitemap_urls.get();
    if urls <= per_file {
        return vec![(urls::SITEMAP.to_string(), 0)];
    }
    let mut files = vec![(urls::SITEMAP.to_string(), 0)];
    files.extend((0..urls.div_ceil(per_file)).map(|n| (urls::sitemap_child(n + 1), n * per_file)));
    files
}

/// Writes one sitemap file of [`sitemap_files`]: `start` is the offset of its first URL;
/// `sitemap.xml` is the index when there are children.
pub fn write_sitemap(
    site: &Site,
    paths: &[SitemapUrl],
    name: &str,
    start: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    let per_file = site.config.sitemap_urls.get();
    out.write_all(b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")?;
    if name == urls::SITEMAP && paths.len() > per_file {
        out.write_all(b"<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")?;
        for n in 0..paths.len().div_ceil(per_file) {
            let url = site.config.absolute_url(&urls::sitemap_child(n + 1));
            writeln!(out, "  <sitemap><loc>{}</loc></sitemap>", escape_xml(&url))?;
        }
        return out.write_all(b"</sitemapindex>\n");
    }
    out.write_all(b"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")?;
    for path in paths.iter().skip(start).take(per_file) {
        let url = site.config.absolute_url(&path.path(site));
        write!(out, "  <url><loc>{}</loc>", escape_xml(&url))?;
        if let Some(date) = path.updated(site) {
            write!(out, "<lastmod>{}</lastmod>", escape_xml(&date))?;
        }
        out.write_all(b"</url>\n")?;
    }
    out.write_all(b"</urlset>\n")
}
