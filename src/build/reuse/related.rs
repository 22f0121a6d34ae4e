//! Datasets whose pages list others under `related`: their page shows the others' titles,
//! known only once every dataset is. Taken from their records, they are checked against the
//! previous build's titles and settled once all are loaded (loaded, they are written once
//! all are: `build/pages.rs`, `write_rest`).

use std::sync::atomic::Ordering;

use super::{key, load_and_write, Record, Reuse};
use crate::render::Renderer;
use crate::site::Site;
use crate::write::Writer;

impl Reuse {
    /// The title dataset `slug` had in the previous build (`Some(None)`: it was not in
    /// it), from its record; `None` when that cannot be told.
    pub(super) fn previous_title(&self, slug: &str) -> Option<Option<String>> {
        let titles = || {
            self.previous_titles
                .lock()
                .unwrap_or_else(|p| p.into_inner())
        };
        if let Some(title) = titles().get(slug) {
            return Some(title.clone());
        }
        // Read without holding the lock: other threads recall meanwhile.
        let title = match self.previous.get(slug) {
            None => None,
            Some(entry) => {
                let bytes = self.records.as_ref()?.read(entry.record?)?;
                let record: Record = serde_json::from_slice(&bytes).ok()?;
                Some(record.entry.title)
            }
        };
        titles().insert(slug.into(), title.clone());
        Some(title)
    }

    /// Once every dataset is loaded: each dataset with `related` entries taken from its
    /// record is kept as the others are (its files linked or left in place) when the titles
    /// it shows are those its key was checked with; otherwise its page is rendered again
    /// ([`Reuse::render_stale`]), its key now with the new titles.
    pub fn settle_related(&self, site: &Site) {
        let pending = std::mem::take(
            &mut *self
                .pending_related
                .lock()
                .unwrap_or_else(|p| p.into_inner()),
        );
        for (slug, assumed) in pending {
            let Some(entry) = self.previous.get(&*slug) else {
                continue;
            };
            // One whose entry cannot be read back is written again.
            let Some(dataset) = site.entry(&slug) else {
                let mut stale = self.stale.lock().unwrap_or_else(|p| p.into_inner());
                stale.push(slug);
                continue;
            };
            let titles = key::related_titles(site, &dataset);
            if titles == assumed {
                let record = entry.record.and_then(|at| self.records.as_ref()?.read(at));
                self.reused.fetch_add(1, Ordering::Relaxed);
                self.recalled.fetch_add(1, Ordering::Relaxed);
                self.push(&slug, entry, record.as_deref());
                self.remember_key(&slug, &entry.key);
                let mut links = self.pending_links.lock().unwrap_or_else(|p| p.into_inner());
                links.push(slug);
                continue;
            }
            if let Some(key) = self.key_with(site, (&dataset, &[]), &titles) {
                self.remember_key(&slug, &key);
            }
            let mut stale = self.stale.lock().unwrap_or_else(|p| p.into_inner());
            stale.push(slug);
        }
    }

    /// Renders again the datasets taken from their records whose `related` titles
    /// changed ([`Reuse::settle_related`]); their entries stay (their own inputs did not
    /// change, and no metadata file states those titles).
    pub fn render_stale(&self, site: &Site, renderer: &Renderer, writer: &Writer) {
        use rayon::prelude::*;
        let stale = std::mem::take(&mut *self.stale.lock().unwrap_or_else(|p| p.into_inner()));
        stale.par_iter().for_each(|slug| {
            load_and_write((Some(self), None), site, slug, renderer, writer);
        });
    }
}
