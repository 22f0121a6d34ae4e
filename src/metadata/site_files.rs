//! Site-level machine-readable files: `feed.xml` (Atom) and `robots.txt` (the catalog and
//! sitemap are in `catalog_files`). URLs are absolute, from `base_url`.

use std::fmt::Write as _;

use super::escape_xml;
use crate::layout::urls;
use crate::site::Site;

/// Atom timestamps from content dates (midnight UTC); the epoch when no date is known.
fn atom_time(date: Option<&str>) -> String {
    match date {
        Some(d) if d.len() == 10 => format!("{d}T00:00:00Z"),
        Some(d) if d.len() == 7 => format!("{d}-01T00:00:00Z"),
        Some(d) if d.len() == 4 => format!("{d}-01-01T00:00:00Z"),
        Some(d) if d.contains('T') => d.to_string(),
        _ => "1970-01-01T00:00:00Z".to_string(),
    }
}

/// A feed entry: the dataset's Atom time, and the dataset.
type FeedItem<'a> = (String, &'a crate::site::Summary);

/// The `count` latest datasets with their Atom times, newest first (then by slug): only
/// those are held while the others pass, so a catalog of 100,000 datasets holds 50.
fn latest(site: &Site, count: usize) -> Vec<FeedItem<'_>> {
    let mut entries: Vec<FeedItem> = Vec::new();
    let before = |a: &FeedItem, b: &FeedItem| b.0.cmp(&a.0).then_with(|| a.1.slug.cmp(&b.1.slug));
    for dataset in site.datasets.summaries() {
        let updated = dataset.updated().or_else(|| site.default_date.clone());
        let entry = (atom_time(updated.as_deref()), dataset);
        let at = entries.partition_point(|kept| before(kept, &entry).is_lt());
        if at < count {
            entries.insert(at, entry);
            entries.truncate(count);
        }
    }
    entries
}

/// `feed.xml`: one Atom entry per dataset, newest first, the latest `feed_entries`.
pub fn feed(site: &Site) -> String {
    let entries = latest(site, site.config.feed_entries);
    let newest = entries
        .first()
        .map(|e| e.0.clone())
        .unwrap_or_else(|| atom_time(None));
    let base = site.config.base_url.as_str();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n");
    let _ = writeln!(out, "  <title>{}</title>", escape_xml(&site.config.title));
    if !site.config.description.is_empty() {
        let _ = writeln!(
            out,
            "  <subtitle>{}</subtitle>",
            escape_xml(&site.config.description)
        );
    }
    let _ = writeln!(
        out,
        "  <link href=\"{}\" rel=\"self\"/>",
        escape_xml(&site.config.absolute_url("feed.xml"))
    );
    let _ = writeln!(out, "  <link href=\"{}\"/>", escape_xml(base));
    let _ = writeln!(out, "  <id>{}</id>", escape_xml(base));
    let _ = writeln!(out, "  <updated>{newest}</updated>");
    let _ = writeln!(
        out,
        "  <author><name>{}</name></author>",
        escape_xml(&site.config.author.name)
    );
    for (time, dataset) in entries {
        let url = site.config.absolute_url(&urls::dataset_page(&dataset.slug));
        out.push_str("  <entry>\n");
        let _ = writeln!(out, "    <title>{}</title>", escape_xml(&dataset.title));
        let _ = writeln!(out, "    <link href=\"{}\"/>", escape_xml(&url));
        let _ = writeln!(out, "    <id>{}</id>", escape_xml(&url));
        let _ = writeln!(out, "    <updated>{time}</updated>");
        let _ = writeln!(
            out,
            "    <summary>{}</summary>",
            escape_xml(&dataset.headline)
        );
        for tag in &dataset.tags {
            let _ = writeln!(out, "    <category term=\"{}\"/>", escape_xml(tag));
        }
        out.push_str("  </entry>\n");
    }
    out.push_str("</feed>\n");
    out
}

/// `robots.txt`: everything may be crawled; the sitemap is named.
pub fn robots(site: &Site) -> String {
    format!(
        "User-agent: *\nAllow: /\n\nSitemap: {}\n",
        site.config.absolute_url("sitemap.xml")
    )
}

#[cfg(test)]
mod tests {
    use super::atom_time;

    #[test]
    fn atom_times_come_from_content_dates() {
        assert_eq!(atom_time(Some("2026-10-11")), "2026-10-11T00:00:00Z");
        assert_eq!(atom_time(Some("2021-04")), "2021-04-01T00:00:00Z");
        assert_eq!(atom_time(None), "1970-01-01T00:00:00Z");
    }
}
