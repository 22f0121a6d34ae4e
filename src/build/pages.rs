//! Rendering and writing what a site has besides each dataset's own files, once every
//! dataset is loaded (listings, tags, pages, catalogs, static files), and the pages an
//! incremental rebuild shares with full builds.

use std::path::Path;

use rayon::prelude::*;

use crate::content;
use crate::layout::{self, urls};
use crate::render::Renderer;
use crate::site::{self, Site};
use crate::write::{self, SiteFiles, Writer};

/// Renders and writes every output of a site whose datasets are whole (`serve`'s); returns
/// the number of HTML pages.
pub(super) fn render_everything(site: &mut Site, renderer: &Renderer, writer: &Writer) -> usize {
    let shared = &*site;
    let whole: Vec<_> = shared.datasets.wholes().collect();
    let digests: Vec<_> = whole
        .into_par_iter()
        .map(|(index, dataset)| {
            let digests = write::write_dataset_step(shared, renderer, dataset, writer, None);
            (index, digests)
        })
        .collect();
    for (index, digests) in digests {
        site.datasets.record_digests(index, digests);
    }
    render_site_files(site, renderer, writer, &Pages::All)
}

/// Renders and writes everything but the datasets' own files (of the DCAT catalog, the
/// pages `dcat` names: a rebuild links the others); returns the number of HTML pages of the
/// whole site.
pub(super) fn render_site_files(
    site: &Site,
    renderer: &Renderer,
    writer: &Writer,
    dcat: &Pages,
) -> usize {
    write_listings(
        site,
        renderer,
        writer,
        &site::listing::all(site),
        &Pages::All,
        dcat,
        SiteFiles::ALL,
    );
    write_not_found(site, renderer, writer);
    site.tags
        .par_iter()
        .for_each(|tag| write_tag(site, renderer, tag, writer, &Pages::All));
    for page in &site.pages {
        write_page(site, renderer, page, writer);
    }
    write::copy_static(&site.root, writer);
    write::write_built_in_static(&site.root, writer);
    write::write_words_script(site, writer);
    // Every page the sitemap lists, and 404.html, which it leaves out.
    crate::metadata::catalog_files::page_count(site) + 1
}

/// Home, every page of All datasets (in the listing order `ordered`, those `which` names)
/// and the site's metadata files (of the DCAT catalog, the pages `dcat` names; of the
/// others, those `files` names): each lists every dataset, so they are the slow part of a
/// small rebuild on a large site; they render in parallel.
pub(super) fn write_listings(
    site: &Site,
    renderer: &Renderer,
    writer: &Writer,
    ordered: &[usize],
    which: &Pages,
    dcat: &Pages,
    files: SiteFiles,
) {
    let pages = site::listing::page_count(site, ordered.len());
    rayon::join(
        || {
            write_home(
                site,
                renderer,
                writer,
                ordered,
                Path::new(layout::HOME_PAGE),
            )
        },
        || {
            rayon::join(
                || {
                    (1..=pages)
                        .into_par_iter()
                        .filter(|number| which.includes(*number))
                        .for_each(|number| {
                            let url = urls::listing_page(urls::DATASETS, number);
                            writer.run(
                                || {
                                    writer.page(
                                        &urls::index_file(&url),
                                        renderer.datasets_page(site, ordered, number),
                                    )
                                },
                                Path::new("templates/datasets.html"),
                            )
                        })
                },
                || {
                    let dcat_page = |page| dcat.includes(page);
                    write::write_site_metadata(site, ordered, &dcat_page, files, writer)
                },
            )
        },
    );
}

/// Which pages of a listing to write: all of them, or (in a rebuild that left the
/// listing's order as it was) the pages, numbered from 1, that show a changed dataset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Pages {
    All,
    Only(std::collections::BTreeSet<usize>),
}

impl Pages {
    pub(super) fn includes(&self, number: usize) -> bool {
        match self {
            Pages::All => true,
            Pages::Only(numbers) => numbers.contains(&number),
        }
    }
}

/// Every page of one tag (those `which` includes).
pub(super) fn write_tag(
    site: &Site,
    renderer: &Renderer,
    tag: &site::Tag,
    writer: &Writer,
    which: &Pages,
) {
    let ordered = site::listing::order(site, tag.datasets.iter().copied());
    for (number, url) in site::listing::tag_pages(site, tag).iter().enumerate() {
        if !which.includes(number + 1) {
            continue;
        }
        writer.run(
            || {
                writer.page(
                    &urls::index_file(url),
                    renderer.tag_page(site, tag, &ordered, number + 1),
                )
            },
            Path::new("templates/tag.html"),
        );
    }
}

pub(super) fn write_page(site: &Site, renderer: &Renderer, page: &content::Page, writer: &Writer) {
    let path = urls::index_file(&urls::page(&page.name));
    writer.run(
        || writer.page(&path, renderer.plain_page(site, page)),
        Path::new(layout::CONTENT),
    );
}

/// The home page, of the datasets in listing order (`ordered`); its problems are reported
/// against `source` (its Markdown file).
pub(super) fn write_home(
    site: &Site,
    renderer: &Renderer,
    writer: &Writer,
    ordered: &[usize],
    source: &Path,
) {
    writer.run(
        || writer.page(urls::HOME, renderer.home_page(site, ordered)),
        source,
    );
}

/// The page hosts serve for missing paths.
pub(super) fn write_not_found(site: &Site, renderer: &Renderer, writer: &Writer) {
    writer.run(
        || writer.page(urls::NOT_FOUND, renderer.not_found_page(site)),
        Path::new("templates/404.html"),
    );
}
