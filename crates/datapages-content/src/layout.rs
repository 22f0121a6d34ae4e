//! Where things are: the folder and file names of a site's sources, and the URLs of its
//! output. Every other module spells a site path through these names, so the layout of a
//! site is stated once.

use std::path::PathBuf;

/// The site's settings file, at the root.
pub const SITE_TOML: &str = "site.toml";

/// Markdown: plain pages directly inside, dataset pages in [`DATASETS`] below it.
pub const CONTENT: &str = "content";

/// The name of the dataset folders, under [`CONTENT`] and [`DATA`] alike.
pub const DATASETS: &str = "datasets";

/// `content/datasets`: one Markdown file per dataset, named after its slug.
pub const CONTENT_DATASETS: &str = "content/datasets";

/// The home page's intro, `content/_index.md`.
pub const HOME_PAGE: &str = "content/_index.md";

/// CSV files; `data/datasets/<slug>.csv` unless the front matter names another.
pub const DATA: &str = "data";

/// `data/datasets`: where a dataset's CSV is when its front matter names none.
pub const DATA_DATASETS: &str = "data/datasets";

/// A site's own templates, which replace the built-in ones of the same name.
pub const TEMPLATES: &str = "templates";

/// Files copied into the output as they are.
pub const STATIC: &str = "static";

/// The scan cache (`dataset::cache`), inside the site folder.
pub const CACHE: &str = ".datapages-cache";

/// The output folder when `--output` is not given, inside the site folder.
pub const DEFAULT_OUTPUT: &str = "public";

/// The folders whose files become the site: `serve` watches them, and no output may be
/// written over them.
pub const SOURCE_DIRS: [&str; 4] = [CONTENT, DATA, TEMPLATES, STATIC];

/// The folder of listing pages past the first (`datasets/page/2/`), so no dataset slug.
pub const LISTING_PAGES: &str = "page";

/// Page names the generated pages use (`/datasets/`, `/tags/`, `/data/`): a plain page
/// `content/<name>.md` may not take them.
pub const RESERVED_PAGE_NAMES: [&str; 3] = [DATASETS, "tags", DATA];

/// `content/datasets/<slug>.md`, relative to the site root.
pub fn dataset_markdown(slug: &str) -> PathBuf {
    PathBuf::from(format!("{CONTENT_DATASETS}/{slug}.md"))
}

/// `data/datasets/<slug>.csv`, relative to the site root: a dataset's CSV unless its front
/// matter names another (`data`).
pub fn dataset_csv(slug: &str) -> String {
    format!("{DATA_DATASETS}/{slug}.csv")
}

/// Where things live in the output, as site-relative URLs (no leading slash), so links
/// work under any base path.
pub mod urls {
    pub fn dataset_page(slug: &str) -> String {
        format!("datasets/{slug}/")
    }
    pub fn csv_file(slug: &str) -> String {
        format!("data/datasets/{slug}.csv")
    }
    pub fn json_file(slug: &str) -> String {
        format!("data/datasets/{slug}.json")
    }
    /// A kept version of the CSV (`[[changes]]` `file`), never rewritten once published:
    /// `version` is a checked path segment (`dataset::versions::segment_problem`).
    pub fn version_file(slug: &str, version: &str) -> String {
        format!("data/datasets/{slug}/v{version}.csv")
    }
    pub fn csvw_file(slug: &str) -> String {
        format!("data/datasets/{slug}.csv-metadata.json")
    }
    pub fn croissant_file(slug: &str) -> String {
        format!("data/datasets/{slug}.croissant.json")
    }
    /// The citation files beside the CSV, as (extension, URL), in the order the page links
    /// them: RIS and CFF (the BibTeX is on the page only).
    /// Page `page` (from 1) of the DCAT catalog in the syntax of file extension
    /// `extension` (`ttl`, `jsonld`): page 1 is `data/catalog.<extension>`.
    pub fn dcat_file(extension: &str, page: usize) -> String {
        match page {
            0 | 1 => format!("data/catalog.{extension}"),
            n => format!("data/catalog/{n}.{extension}"),
        }
    }

    pub fn citation_files(slug: &str) -> [(&'static str, String); 2] {
        ["ris", "cff"].map(|extension| (extension, citation_file(slug, extension)))
    }
    /// The citation file of that extension beside the CSV.
    pub fn citation_file(slug: &str, extension: &str) -> String {
        format!("data/datasets/{slug}.{extension}")
    }
    /// A chart's standalone SVG, next to the CSV it is drawn from.
    pub fn chart_file(slug: &str, chart_id: &str) -> String {
        format!("data/datasets/{slug}-{chart_id}.svg")
    }
    /// The static page of rows `(n - 1) * table_rows + 1 ..= n * table_rows` (`n` from 2;
    /// the dataset page shows the first rows).
    pub fn row_page(slug: &str, n: u64) -> String {
        format!("datasets/{slug}/rows/{n}/")
    }
    /// The folder of a dataset's row pages.
    pub fn row_pages(slug: &str) -> String {
        format!("datasets/{slug}/rows")
    }
    pub fn tag_page(slug: &str) -> String {
        format!("tags/{slug}/")
    }
    pub fn page(name: &str) -> String {
        format!("{name}/")
    }
    pub const DATASETS: &str = "datasets/";
    /// Page `number` (from 1) of a paginated listing whose first page is `first`:
    /// `datasets/`, `datasets/page/2/`, ...
    pub fn listing_page(first: &str, number: usize) -> String {
        if number <= 1 {
            first.to_string()
        } else {
            format!("{first}{}/{number}/", super::LISTING_PAGES)
        }
    }
    /// The folder of the listing filter's split search index (`metadata::search_split`).
    pub const SEARCH_FOLDER: &str = "data/search";
    /// Its manifest, which the listing filter loads first.
    pub const SEARCH_INDEX: &str = "data/search/index.json";
    /// A child sitemap, when `sitemap.xml` is an index (`number` from 1).
    pub fn sitemap_child(number: usize) -> String {
        format!("sitemap-{number}.xml")
    }
    pub const HOME: &str = "index.html";
    pub const NOT_FOUND: &str = "404.html";
    pub const CATALOG: &str = "data/catalog.json";
    pub const SITEMAP: &str = "sitemap.xml";
    pub const FEED: &str = "feed.xml";
    pub const ROBOTS: &str = "robots.txt";

    /// The HTML file of a page whose URL is a folder (`datasets/x/` -> `datasets/x/index.html`).
    pub fn index_file(folder_url: &str) -> String {
        format!("{folder_url}index.html")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joined_names_are_made_of_their_parts() {
        assert_eq!(CONTENT_DATASETS, format!("{CONTENT}/{DATASETS}"));
        assert_eq!(DATA_DATASETS, format!("{DATA}/{DATASETS}"));
        assert_eq!(HOME_PAGE, format!("{CONTENT}/_index.md"));
        assert_eq!(urls::DATASETS, format!("{DATASETS}/"));
        assert!(urls::csv_file("x").starts_with(DATA_DATASETS));
        assert_eq!(
            dataset_markdown("abc"),
            PathBuf::from("content/datasets/abc.md")
        );
        assert_eq!(
            urls::index_file(&urls::dataset_page("a")),
            "datasets/a/index.html"
        );
    }
}
