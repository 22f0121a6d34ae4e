//! The input keys of reuse: one digest of everything site-wide that shapes a dataset's
//! files (the program, site.toml, every template, the build options, the navigation) and
//! one per dataset of its own inputs and of what its page shows or quotes of others.

use std::path::Path;

use sha2::{Digest, Sha256};

use super::super::BuildOptions;
use crate::confine;
use crate::dataset::entry::CatalogEntry;
use crate::dataset::figures;
use crate::dataset::scan::hex;
use crate::dataset::stamp::FileStamp;
use crate::dataset::versions::KeptVersion;
use crate::layout;
use crate::site::Site;

/// Bumped whenever what a key covers, or what the manifest records, changes.
pub(super) const FORMAT: u32 = 8;

/// One length-prefixed field, so that no two different inputs digest alike.
fn field(hasher: &mut Sha256, bytes: &[u8]) {
    hasher.update((bytes.len() as u64).to_le_bytes());
    hasher.update(bytes);
}

/// Everything site-wide but the navigation: the program (version, format, and the binary's
/// own file stamp, so a rebuilt binary of the same version renders everything again),
/// site.toml's bytes, every template (built-in and the site's own), the site's message
/// catalogues (`i18n/`), the options that change output, and the names of the static
/// files. `None` when something cannot be read: nothing is reused then.
pub(super) fn site_key(options: &BuildOptions) -> Option<String> {
    let mut h = Sha256::new();
    field(&mut h, b"datapages reuse");
    field(&mut h, &FORMAT.to_le_bytes());
    field(&mut h, env!("CARGO_PKG_VERSION").as_bytes());
    field(&mut h, FileStamp::program()?.as_bytes());
    field(
        &mut h,
        &std::fs::read(options.root.join(layout::SITE_TOML)).ok()?,
    );
    let flags = format!(
        "{:?} {:?} {:?}",
        options.drafts, options.base_url, options.date
    );
    field(&mut h, flags.as_bytes());
    for (name, text) in crate::theme::TEMPLATES {
        field(&mut h, name.as_bytes());
        field(&mut h, text.as_bytes());
    }
    // Every file under templates/ and i18n/ (the site's catalogues), even those the
    // renderer skips (editor files): a needless re-render is the safe side.
    let canonical = confine::canonical_root(&options.root).ok()?;
    for folder in [layout::TEMPLATES, crate::i18n::FOLDER] {
        let walk = confine::walk(&options.root, &canonical, Path::new(folder), &|_| true);
        if !walk.problems.is_empty() {
            return None;
        }
        field(&mut h, folder.as_bytes());
        for file in &walk.files {
            field(&mut h, file.name.as_bytes());
            field(&mut h, &std::fs::read(&file.real).ok()?);
        }
    }
    // The names of static/ files: one copied over a dataset's file (same path) replaces it
    // in the old output, so a dataset is linked only while the same names are copied.
    field(&mut h, b"static names");
    for file in crate::site::static_files(&options.root).files {
        field(&mut h, file.name.as_bytes());
    }
    Some(hex(&h.finalize()))
}

/// The navigation every page shows: the plain pages' names and titles.
pub(super) fn nav_key(site: &Site) -> String {
    let mut h = Sha256::new();
    for page in &site.pages {
        field(&mut h, page.name.as_bytes());
        field(&mut h, page.front.title.as_bytes());
    }
    hex(&h.finalize())
}

/// The title of each dataset a page lists under `related`, in order; `None` for one that is
/// not in the site.
pub(super) type RelatedTitles = Vec<Option<String>>;

/// The titles `dataset`'s `related` entries have in `site`.
pub(super) fn related_titles(site: &Site, dataset: &CatalogEntry) -> RelatedTitles {
    let title = |slug: &String| site.title_of(slug).map(str::to_string);
    dataset.related.iter().map(title).collect()
}

/// The key of one dataset's files: the site-wide keys, its Markdown's bytes (their
/// SHA-256: as the first pass read them for a dataset taken from its record, with
/// `recalled`; read again for one loaded, which may have changed since), its CSV's
/// path (as the page names it and resolved), size, SHA-256 and row count (from the scan
/// that checked it), its kept versions' (`kept`) paths and SHA-256, the title (or
/// absence) of each dataset it lists under `related` (`titles`, in order), the Markdown
/// and CSV bytes of each dataset its text quotes, and the keys of other datasets that name
/// its rows (with their titles and `explore`). `None` when a file cannot be read again:
/// it is rendered then.
pub(super) fn dataset_key(
    (site_key, nav_key): (&str, &str),
    root: &Path,
    site: &Site,
    (dataset, kept): (&CatalogEntry, &[KeptVersion]),
    (titles, recalled): (&RelatedTitles, bool),
) -> Option<String> {
    let mut h = Sha256::new();
    field(&mut h, site_key.as_bytes());
    field(&mut h, nav_key.as_bytes());
    field(&mut h, dataset.slug.as_bytes());
    let markdown = dataset.markdown_path.as_os_str().as_encoded_bytes();
    field(&mut h, markdown);
    // Its bytes' digest: as the first pass read them when the page is not loaded again;
    // a loaded page is read again, as close as can be to the bytes its load rendered.
    let first_pass = site.markdown_digest(&dataset.slug).filter(|_| recalled);
    let markdown = match first_pass {
        Some(digest) => digest,
        None => {
            crate::checksum::Sha256::of(&std::fs::read(root.join(&dataset.markdown_path)).ok()?)
        }
    };
    field(&mut h, markdown.bytes());
    field(&mut h, dataset.csv_display.as_os_str().as_encoded_bytes());
    field(&mut h, dataset.csv_path.as_os_str().as_encoded_bytes());
    field(&mut h, &dataset.bytes.to_le_bytes());
    field(&mut h, dataset.sha256.to_string().as_bytes());
    // Implied by the bytes, but a remembered scan states it: the page follows the scan.
    field(&mut h, &dataset.rows.to_le_bytes());
    // Kept versions as loaded (an entry has none, so a dataset with kept versions is
    // never taken from its record: it is loaded, and its files linked when they hold).
    for kept in kept {
        field(&mut h, kept.version.as_bytes());
        field(&mut h, kept.path.as_os_str().as_encoded_bytes());
        field(&mut h, kept.sha256.bytes());
    }
    if titles.len() != dataset.related.len() {
        return None;
    }
    for (slug, title) in dataset.related.iter().zip(titles) {
        field(&mut h, slug.as_bytes());
        match title {
            Some(title) => field(&mut h, format!("title {title}").as_bytes()),
            None => field(&mut h, b"absent"),
        }
    }
    for slug in &dataset.read_datasets {
        field(&mut h, slug.as_bytes());
        quoted(&mut h, root, site, slug)?;
    }
    // The explorer links each row to the rows of other datasets that name it.
    for pointer in site.pointing_at(&dataset.slug) {
        let title = site.title_of(&pointer.from);
        let named = (&pointer.from, &pointer.field, &pointer.to_field);
        field(
            &mut h,
            format!("named by {named:?} {:?} {title:?}", pointer.explore).as_bytes(),
        );
    }
    Some(hex(&h.finalize()))
}

/// The key of a whole output: the site-wide key, the navigation, every plain page as read
/// (its front matter and rendered prose), the name and stamp of every static file, and
/// each dataset's slug and key (`keys`, digests of [`dataset_key`]s) in the site's order.
/// `None` when a dataset has no key or a file cannot be read: the output is written then.
/// Everything a build writes follows from these, so an output built from the same key is
/// the output this build would write.
pub(super) fn output_key(
    site_key: &str,
    nav_key: &str,
    site: &Site,
    keys: &std::collections::HashMap<Box<str>, crate::checksum::Sha256>,
) -> Option<String> {
    let mut h = Sha256::new();
    field(&mut h, b"datapages output");
    field(&mut h, site_key.as_bytes());
    field(&mut h, nav_key.as_bytes());
    for page in site.pages.iter().chain(&site.home) {
        field(&mut h, format!("{page:?}").as_bytes());
    }
    field(&mut h, b"static files");
    let files = crate::site::static_files(&site.root);
    if !files.problems.is_empty() {
        return None;
    }
    for file in files.files {
        let stamp = FileStamp::of(&file.real)?;
        field(&mut h, file.name.as_bytes());
        field(&mut h, format!("{stamp:?}").as_bytes());
    }
    field(&mut h, b"datasets");
    for slug in site.datasets.slugs() {
        field(&mut h, slug.as_bytes());
        field(&mut h, keys.get(slug)?.bytes());
    }
    Some(hex(&h.finalize()))
}

/// What the figures of a page read of dataset `slug`: its Markdown (columns, `data`,
/// delimiter, draft...) and its CSV, by content.
fn quoted(h: &mut Sha256, root: &Path, site: &Site, slug: &str) -> Option<()> {
    let canonical = confine::canonical_root(root).ok()?;
    let figures_site = figures::Site {
        root: &canonical,
        default_rows: site.config.table_rows,
        missing_values: site.config.missing_values.as_deref(),
        marks: &site.words.locale.marks,
    };
    let csv = figures::quoted_csv(&figures_site, slug)?;
    let markdown = canonical.join(layout::dataset_markdown(slug));
    field(h, &std::fs::read(markdown).ok()?);
    let mut csv_digest = Sha256::new();
    std::io::copy(&mut std::fs::File::open(csv).ok()?, &mut csv_digest).ok()?;
    field(h, &csv_digest.finalize());
    Some(())
}

/// The keys of the DCAT catalog's pages, one hasher per page: the site-wide key, what every
/// page states alike (`shared`: the catalog node, whose issued and modified dates span all
/// datasets), the page's place (number, page count, dataset count) and the slug and key of
/// each dataset on it, in order. A page with a dataset of unknown key has none.
pub(super) struct DcatPageKeys {
    pages: Vec<Option<Sha256>>,
}

impl DcatPageKeys {
    pub fn new(site_key: &str, shared: &str, pages: usize, datasets: usize) -> DcatPageKeys {
        let pages = (1..=pages)
            .map(|page| {
                let mut h = Sha256::new();
                field(&mut h, b"dcat page");
                field(&mut h, site_key.as_bytes());
                field(&mut h, shared.as_bytes());
                field(
                    &mut h,
                    format!("{page} of {pages}, {datasets} datasets").as_bytes(),
                );
                Some(h)
            })
            .collect();
        DcatPageKeys { pages }
    }

    /// Adds the next dataset of `page` (from 1), with its key if it has one.
    pub fn add(&mut self, page: usize, slug: &str, key: Option<&crate::checksum::Sha256>) {
        let Some(slot) = self.pages.get_mut(page.wrapping_sub(1)) else {
            return;
        };
        match (slot.as_mut(), key) {
            (Some(h), Some(key)) => {
                field(h, slug.as_bytes());
                field(h, key.bytes());
            }
            _ => *slot = None,
        }
    }

    /// Each page's key, from page 1.
    pub fn finish(self) -> Vec<Option<String>> {
        let finish = |h: Sha256| hex(&h.finalize());
        self.pages.into_iter().map(|h| h.map(finish)).collect()
    }
}
