//! Writing what an incremental rebuild affects, and removing what it no longer writes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use super::pages::{write_home, write_listings, write_not_found, write_page, write_tag, Pages};
use super::plan::PlannedChanges;
use crate::content;
use crate::dataset::{Dataset, FileDigest};
use crate::incremental::Affected;
use crate::layout::{self, urls};
use crate::render::Renderer;
use crate::site::{self, listing, Site};
use crate::write::{self, Earlier, SiteFiles, Writer};

/// Writes what an incremental rebuild affects; returns (pages rendered, URL paths changed).
/// `csv_unchanged` holds, by slug, the datasets whose CSV has the stamp it had when it was
/// last written, as they were then with the files written (the files that still hold
/// stay, if they are still there).
pub(super) fn render_affected(
    site: &mut Site,
    renderer: &Renderer,
    affected: &Affected,
    changes: &PlannedChanges,
    csv_unchanged: &BTreeMap<String, (Arc<Dataset>, Vec<FileDigest>)>,
    listing_pages: &ListingPages,
    writer: &Writer,
) -> (usize, Vec<String>) {
    write_datasets(site, renderer, affected, csv_unchanged, writer);
    let mut rewrite = Rewrite {
        site,
        renderer,
        writer,
        urls: BTreeSet::new(),
    };
    rewrite.dataset_pages(affected);
    rewrite.remove_stale(affected);
    rewrite.tags(affected, listing_pages);
    let mut pages = affected.page_count();
    if affected.listings {
        rewrite.listings(listing_pages);
    }
    pages += rewrite.plain_pages(changes, listing_pages);
    for relative in &changes.statics {
        write::update_static(&rewrite.site.root, relative, writer);
        rewrite.changed(&relative.to_string_lossy().replace('\\', "/"));
    }
    (pages, rewrite.urls.into_iter().collect())
}

/// Writes the files of the affected datasets (`serve` keeps every dataset whole) and
/// records the digests of what was written.
fn write_datasets(
    site: &mut Site,
    renderer: &Renderer,
    affected: &Affected,
    csv_unchanged: &BTreeMap<String, (Arc<Dataset>, Vec<FileDigest>)>,
    writer: &Writer,
) {
    let shared = &*site;
    let to_write: Vec<(usize, &Arc<Dataset>)> = shared
        .datasets
        .wholes()
        .filter(|(_, d)| affected.datasets.contains(d.slug.as_str()))
        .collect();
    let written: Vec<(usize, Vec<FileDigest>)> = to_write
        .into_par_iter()
        .map(|(index, dataset)| {
            let earlier = csv_unchanged
                .get(dataset.slug.as_str())
                .map(|(dataset, written)| Earlier { dataset, written });
            let digests = write::write_dataset_step(shared, renderer, dataset, writer, earlier);
            (index, digests)
        })
        .collect();
    for (index, digests) in written {
        site.datasets.record_digests(index, digests);
    }
}

/// What a rebuild writes besides the datasets' files, and the URL paths it changes.
struct Rewrite<'a> {
    site: &'a Site,
    renderer: &'a Renderer,
    writer: &'a Writer<'a>,
    urls: BTreeSet<String>,
}

impl Rewrite<'_> {
    /// The page at `url` (relative to the output) changed.
    fn changed(&mut self, url: &str) {
        self.urls.insert(format!("/{url}"));
    }

    /// Renders again the pages that show an affected dataset's title (`related`, the
    /// navigation); the affected datasets' own pages are written with their files.
    fn dataset_pages(&mut self, affected: &Affected) {
        let (site, renderer, writer) = (self.site, self.renderer, self.writer);
        let related: Vec<&Arc<Dataset>> = (site.datasets.wholes())
            .map(|(_, d)| d)
            .filter(|d| affected.related_pages.contains(d.slug.as_str()))
            .collect();
        related.par_iter().for_each(|dataset| {
            writer.run(
                || {
                    let entry = site.entry(&dataset.slug);
                    let written = entry.as_ref().map_or(&[][..], |e| &e.digests);
                    write::write_dataset_page(site, renderer, dataset, written, writer)
                },
                &dataset.markdown_path,
            );
        });
        let slugs = (site.datasets.slugs()).filter(|slug| affected.datasets.contains(*slug));
        let written: Vec<&str> = slugs.chain(related.iter().map(|d| &*d.slug)).collect();
        for slug in written {
            self.changed(&urls::dataset_page(slug));
        }
    }

    /// Removes the files no dataset writes any more, and the pages of removed datasets.
    fn remove_stale(&mut self, affected: &Affected) {
        for file in &affected.stale_files {
            self.writer.remove(file);
        }
        // A folder the outputs made for one dataset (its kept versions) goes once empty.
        let folders: BTreeSet<&Path> = (affected.stale_files.iter())
            .filter_map(|file| Path::new(file).parent())
            .filter(|folder| *folder != Path::new(layout::DATA_DATASETS))
            .collect();
        for folder in folders {
            // Not empty (other versions are still written): it stays.
            let _ = std::fs::remove_dir(self.writer.sink().root().join(folder));
        }
        for slug in &affected.removed_datasets {
            self.writer.remove(&urls::dataset_page(slug));
            self.changed(&urls::dataset_page(slug));
        }
    }

    /// Writes the affected tags' pages (those of `listing_pages`) and removes the pages of
    /// tags gone.
    fn tags(&mut self, affected: &Affected, listing_pages: &ListingPages) {
        let (site, renderer, writer) = (self.site, self.renderer, self.writer);
        let tags: Vec<&site::Tag> = (site.tags.iter())
            .filter(|t| affected.tags.contains(&t.slug))
            .collect();
        tags.par_iter().for_each(|tag| {
            write_tag(site, renderer, tag, writer, listing_pages.of_tag(&tag.slug))
        });
        for tag in &tags {
            let which = listing_pages.of_tag(&tag.slug);
            for (index, url) in listing::tag_pages(site, tag).iter().enumerate() {
                if which.includes(index + 1) {
                    self.changed(url);
                }
            }
        }
        for slug in &affected.removed_tags {
            self.writer.remove(&urls::tag_page(slug));
            self.changed(&urls::tag_page(slug));
        }
    }

    /// Writes the home page, the pages of All datasets and the site-wide files that
    /// `listing_pages` names.
    fn listings(&mut self, listing_pages: &ListingPages) {
        write_listings(
            self.site,
            self.renderer,
            self.writer,
            &listing_pages.order,
            &listing_pages.all,
            &listing_pages.dcat,
            listing_pages.files,
        );
        self.changed("");
        for (index, url) in listing::datasets_pages(self.site).iter().enumerate() {
            if listing_pages.all.includes(index + 1) {
                self.changed(url);
            }
        }
    }

    /// Writes the changed plain pages (every one, and the 404 page, when a title in the
    /// navigation changed); returns how many were rendered.
    fn plain_pages(&mut self, changes: &PlannedChanges, listing_pages: &ListingPages) -> usize {
        let (site, renderer, writer) = (self.site, self.renderer, self.writer);
        let mut pages = 0;
        for relative in &changes.pages {
            let name = content::page_name(relative);
            if name.is_empty() {
                write_home(site, renderer, writer, &listing_pages.order, relative);
                self.changed("");
                pages += 1;
            } else if let Some(page) = site.pages.iter().find(|p| p.name == name) {
                write_page(site, renderer, page, writer);
                self.changed(&urls::page(&name));
                pages += 1;
            } else {
                writer.remove(&urls::page(&name));
                self.changed(&urls::page(&name));
            }
        }
        if changes.all_pages {
            for page in &site.pages {
                write_page(site, renderer, page, writer);
                pages += 1;
            }
            write_not_found(site, renderer, writer);
            self.urls.clear();
        }
        pages
    }
}

/// The pages of All datasets and of each tag that a rebuild writes again.
#[derive(Debug)]
pub(super) struct ListingPages {
    /// Every dataset of the site after the change, in listing order.
    pub(super) order: Vec<usize>,
    pub(super) all: Pages,
    /// The pages of the DCAT catalog (each syntax alike).
    pub(super) dcat: Pages,
    /// Which of catalog.json, the search index and the sitemap.
    pub(super) files: SiteFiles,
    /// By tag slug; a tag not named here has all its pages written.
    tags: BTreeMap<String, Pages>,
}

impl ListingPages {
    /// Every page of every listing of `now`.
    pub(super) fn everything(now: &Site) -> ListingPages {
        ListingPages {
            order: listing::all(now),
            all: Pages::All,
            dcat: Pages::All,
            files: SiteFiles::ALL,
            tags: BTreeMap::new(),
        }
    }

    fn of_tag(&self, slug: &str) -> &Pages {
        self.tags.get(slug).unwrap_or(&Pages::All)
    }

    /// When a listing shows the same datasets in the same order before and after a
    /// change (an edit that moved no dataset), only its pages that show a `changed`
    /// dataset differ; otherwise every page does. Every page shows every tag's name and
    /// how many datasets it has, so a renamed tag, or one that gained or lost a dataset,
    /// rewrites everything. On 10,000 datasets an edit then writes one page of All
    /// datasets instead of 200.
    pub(super) fn between(before: &Site, now: &Site, changed: &BTreeSet<String>) -> ListingPages {
        let shown = |site: &Site| -> Vec<(String, String, usize)> {
            site.tags
                .iter()
                .map(|t| (t.slug.clone(), t.name.clone(), t.datasets.len()))
                .collect()
        };
        if shown(before) != shown(now) {
            return ListingPages::everything(now);
        }
        let per_page = now.config.paginate_by.get();
        // When the same datasets are there and no changed one has a new sort key or new
        // tags, every listing keeps its order: the orders before need not be worked out.
        let same_datasets = before.datasets.slugs().eq(now.datasets.slugs());
        let same_keys = same_datasets
            && changed.iter().all(|slug| {
                let key = |site: &Site| {
                    site.entry(slug)
                        .map(|d| (d.updated(), d.title.clone(), d.tags.clone()))
                };
                key(before) == key(now)
            });
        let pages = |before_order: Option<Vec<usize>>, now_order: &[usize]| -> Pages {
            if let Some(before_order) = before_order {
                let slugs_before = before_order.iter().map(|&i| before.datasets.slug(i));
                let slugs_now = now_order.iter().map(|&i| now.datasets.slug(i));
                if !slugs_before.eq(slugs_now) {
                    return Pages::All;
                }
            }
            Pages::Only(
                now_order
                    .iter()
                    .enumerate()
                    .filter(|(_, &i)| changed.contains(now.datasets.slug(i)))
                    .map(|(position, _)| position / per_page + 1)
                    .collect(),
            )
        };
        let order_before = |indexes: &mut dyn Iterator<Item = usize>| {
            (!same_keys).then(|| listing::order(before, indexes))
        };
        let order = listing::all(now);
        let all = pages(order_before(&mut (0..before.datasets.len())), &order);
        let dcat = dcat_pages(before, now, changed, same_datasets);
        let tags = now
            .tags
            .iter()
            .filter_map(|tag| {
                let old = before.tags.iter().find(|t| t.slug == tag.slug)?;
                let which = pages(
                    order_before(&mut old.datasets.iter().copied()),
                    &listing::order(now, tag.datasets.iter().copied()),
                );
                Some((tag.slug.clone(), which))
            })
            .collect();
        let files = SiteFiles {
            // Its entries state no description or prose: a lede edit leaves it as it was.
            catalog: !same_datasets
                || changed.iter().any(|slug| {
                    !crate::metadata::catalog_files::same_catalog_entry(before, now, slug)
                }),
            // Slug, title, tags and date in listing order (what `same_keys` compares), and
            // each changed dataset's searched text.
            search_index: !same_keys
                || changed.iter().any(|slug| {
                    !crate::metadata::catalog_files::same_search_entry(before, now, slug)
                }),
            // Every page's URL with the dataset pages' dates: the same datasets with the
            // same dates, the same tags with as many datasets (checked above: as many tag
            // pages) and the same plain pages give the same file.
            sitemap: !same_datasets
                || changed.iter().any(|slug| {
                    let date = |site: &Site| site.entry(slug).map(|d| d.updated());
                    date(before) != date(now)
                })
                || !before
                    .pages
                    .iter()
                    .map(|p| &p.name)
                    .eq(now.pages.iter().map(|p| &p.name)),
        };
        ListingPages {
            order,
            all,
            dcat,
            files,
            tags,
        }
    }
}

/// The DCAT catalog pages a change rewrites: those holding a `changed` dataset, when the
/// catalog lists the same datasets in the same order (`same_datasets`: the same slugs,
/// which are its order) and states the same catalog facts before and after; otherwise all
/// of them.
fn dcat_pages(before: &Site, now: &Site, changed: &BTreeSet<String>, same_datasets: bool) -> Pages {
    use crate::metadata::dcat;
    if !same_datasets || dcat::shared_facts(before) != dcat::shared_facts(now) {
        return Pages::All;
    }
    Pages::Only(
        now.datasets
            .slugs()
            .enumerate()
            .filter(|(_, slug)| changed.contains(*slug))
            .map(|(index, _)| dcat::page_of(now, index))
            .collect(),
    )
}
