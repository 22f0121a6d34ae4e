//! A long walk of random edits: retitled, redated, retagged (other spellings too), rewritten,
//! added and removed datasets, CSV edits and row counts, versions and themes, `related`
//! entries and cells quoted from other datasets, the home page, plain pages added,
//! retitled and removed, on a catalog small enough to page everything (listings, tags, the DCAT catalog, the sitemap). After every edit, both
//! `serve`'s incremental rebuild (`Session::rebuild`, what the watcher calls) and a `build`
//! that reuses its previous output must write exactly what a clean build writes. The walk
//! found a removed page's child sitemap left behind by `serve`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use datapages::{BuildOptions, Change, Session};

use crate::common;

/// What the test knows of one dataset, to write its front matter again.
#[derive(Clone)]
struct Set {
    title: String,
    tags: Vec<&'static str>,
    day: u32,
    lede: String,
    value: u32,
    /// The slug of a dataset this one names in `related` (its title is shown on this page).
    related: Option<String>,
    /// The slug of a dataset whose cell this one's lede quotes (its CSV edits reach here).
    quotes: Option<String>,
    /// `version`, and a `themes` entry, when set (both stated in the DCAT catalog).
    version: Option<u32>,
    /// How many rows the CSV has (each holds `value`).
    rows: u32,
}

impl Set {
    fn front(&self) -> String {
        let tags: Vec<String> = self.tags.iter().map(|t| format!("\"{t}\"")).collect();
        format!(
            "title = \"{}\"\nkicker = \"k\"\nheadline = \"h\"\ntags = [{}]\nupdated = 2024-03-{:02}\nrelated = [{}]\n{}[[sources]]\nid = \"s\"\ntitle = \"S\"\n[[columns]]\nname = \"v\"\ntitle = \"V\"\ntype = \"integer\"\ndescription = \"A value.\"\n",
            self.title,
            tags.join(", "),
            self.day,
            self.related.as_deref().map(|r| format!("\"{r}\"")).unwrap_or_default(),
            self.version.map(|v| format!("version = \"{v}.0\"\nthemes = [{{ iri = \"http://publications.europa.eu/resource/authority/data-theme/TECH\", label = \"Science and technology\" }}]\n")).unwrap_or_default()
        )
    }

    fn write(&self, root: &Path, n: usize) {
        self.write_markdown(root, n);
        self.write_csv(root, n);
    }

    fn write_markdown(&self, root: &Path, n: usize) {
        let slug = common::catalog::slug(n);
        std::fs::write(
            root.join(format!("content/datasets/{slug}.md")),
            format!(
                "+++\n{}+++\n\n{}{} from [S](#source-s), long enough for search engines to read it.\n\n## Method\n\nM.\n\n## Limits\n\nL.\n",
                self.front(),
                self.lede,
                self.quotes
                    .as_deref()
                    .map(|q| format!(", beside {{{{ cell(dataset=\"{q}\", col=\"v\") }}}}"))
                    .unwrap_or_default()
            ),
        )
        .unwrap();
    }

    fn write_csv(&self, root: &Path, n: usize) {
        let slug = common::catalog::slug(n);
        std::fs::write(
            root.join(format!("data/datasets/{slug}.csv")),
            format!(
                "v\n{}",
                format!("{}\n", self.value).repeat(self.rows as usize)
            ),
        )
        .unwrap();
    }
}

const TAGS: [&str; 4] = ["Alpha", "Beta", "Gamma", "Delta"];

/// A small deterministic generator (the walk is the same on every run).
struct Walk(u64);

impl Walk {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// The files that differ between two trees (a name alone for a file only one has).
fn differing(served: &[(PathBuf, Vec<u8>)], built: &[(PathBuf, Vec<u8>)]) -> Vec<String> {
    let served: BTreeMap<_, _> = served.iter().map(|(p, b)| (p, b)).collect();
    let built: BTreeMap<_, _> = built.iter().map(|(p, b)| (p, b)).collect();
    let mut names: Vec<String> = served
        .keys()
        .chain(built.keys())
        .filter(|p| served.get(*p) != built.get(*p))
        .map(|p| p.display().to_string())
        .collect();
    names.dedup();
    names
}

/// The generated catalog and the walk of edits through it.
struct Catalog {
    root: PathBuf,
    sets: BTreeMap<usize, Set>,
    walk: Walk,
    next: usize,
}

impl Catalog {
    /// 8 datasets, paged 2 a listing page, 3 a DCAT page, 12 URLs a sitemap.
    fn new(root: &Path) -> Catalog {
        common::catalog::write_catalog(
            root,
            0,
            "paginate_by = 2\nhome_datasets = 3\n_dcat_page_datasets = 3\n_sitemap_urls = 12\n",
        );
        // Another walk: DATAPAGES_WALK_SEED=<number> (seeds 1-10 passed when this was written).
        let seed: u64 = std::env::var("DATAPAGES_WALK_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(7);
        let mut sets = BTreeMap::new();
        for n in 0..8 {
            let set = Set {
                title: format!("Set {n}"),
                tags: vec![TAGS[n % 4], TAGS[(n + 1) % 4]],
                day: 1 + n as u32,
                lede: format!("Lede {n}"),
                value: n as u32,
                related: None,
                quotes: None,
                version: None,
                rows: 1,
            };
            set.write(root, n);
            sets.insert(n, set);
        }
        Catalog {
            root: root.to_path_buf(),
            sets,
            walk: Walk(seed),
            next: 8,
        }
    }

    /// Makes one random edit on disk; returns what it was, the changes `serve`'s watcher
    /// would report, and the dataset it chose.
    fn edit(&mut self, step: u32) -> (&'static str, Vec<Change>, String) {
        let root = self.root.clone();
        let page = root.join("content/notes.md");
        let walk = &mut self.walk;
        let sets = &mut self.sets;
        let keys: Vec<usize> = sets.keys().copied().collect();
        let n = keys[walk.below(keys.len())];
        let slug = common::catalog::slug(n);
        let markdown = Change::Dataset(slug.clone());
        let csv = Change::DataFile(PathBuf::from(format!("data/datasets/{slug}.csv")));
        let other = keys[walk.below(keys.len())];
        let named = sets
            .values()
            .any(|s| [&s.related, &s.quotes].contains(&&Some(slug.clone())));
        let removable = sets.len() > 3 && !named;
        // A quoted cell needs one row to come from: only one-row datasets are quoted, and
        // a quoted dataset keeps its one row.
        let quoted = sets
            .values()
            .any(|s| s.quotes.as_deref() == Some(slug.as_str()));
        let other_has_one_row = sets[&other].rows == 1;
        let set = sets.get_mut(&n).unwrap();
        let (what, changes) = match walk.below(16) {
            0 => {
                set.title = format!("Set {n} retitled at {step}");
                ("retitle", vec![markdown])
            }
            1 => {
                set.day = 1 + walk.below(28) as u32;
                ("redate", vec![markdown])
            }
            2 => {
                let tag = TAGS[walk.below(4)];
                if !set.tags.contains(&tag) {
                    set.tags.push(tag);
                }
                ("add a tag", vec![markdown])
            }
            3 if set.tags.len() > 1 => {
                set.tags.remove(walk.below(set.tags.len()));
                ("remove a tag", vec![markdown])
            }
            4 => {
                set.lede = format!("Lede {n} rewritten at {step}");
                ("rewrite the lede", vec![markdown])
            }
            5 => {
                set.value = 1000 + step;
                ("edit the CSV", vec![csv])
            }
            6 => {
                let mut fresh = set.clone();
                fresh.related = None;
                fresh.quotes = None;
                fresh.title = format!("Set {}", self.next);
                fresh.lede = format!("Lede {}", self.next);
                fresh.write(&root, self.next);
                sets.insert(self.next, fresh);
                let slug = common::catalog::slug(self.next);
                self.next += 1;
                (
                    "add a dataset",
                    vec![
                        Change::Dataset(slug.clone()),
                        Change::DataFile(PathBuf::from(format!("data/datasets/{slug}.csv"))),
                    ],
                )
            }
            7 if removable => {
                sets.remove(&n);
                std::fs::remove_file(root.join(format!("content/datasets/{slug}.md"))).unwrap();
                std::fs::remove_file(root.join(format!("data/datasets/{slug}.csv"))).unwrap();
                ("remove a dataset", vec![markdown, csv])
            }
            10 if other != n => {
                set.related = Some(common::catalog::slug(other));
                ("relate to another dataset", vec![markdown])
            }
            11 if other != n && other_has_one_row => {
                set.quotes = Some(common::catalog::slug(other));
                ("quote another dataset's cell", vec![markdown])
            }
            12 => {
                let text = format!("+++\ntitle = \"Home {step}\"\n+++\n\nAn intro.\n");
                std::fs::write(root.join("content/_index.md"), text).unwrap();
                (
                    "edit the home page",
                    vec![Change::Page("content/_index.md".into())],
                )
            }
            13 => {
                // Another spelling of a tag: one tag page, named by its first spelling.
                let tag = ["alpha", "BETA"][walk.below(2)];
                if !set.tags.contains(&tag) {
                    set.tags.push(tag);
                }
                ("spell a tag otherwise", vec![markdown])
            }
            14 => {
                set.version = match set.version {
                    Some(v) if v > 2 => None,
                    v => Some(v.unwrap_or(0) + 1),
                };
                ("set the version and theme", vec![markdown])
            }
            15 if !quoted => {
                set.rows = 1 + walk.below(3) as u32;
                ("change the row count", vec![csv])
            }
            8 if page.exists() => {
                std::fs::remove_file(&page).unwrap();
                (
                    "remove the page",
                    vec![Change::Page("content/notes.md".into())],
                )
            }
            _ => {
                let text = format!("+++\ntitle = \"Notes {step}\"\n+++\n\nSome notes.\n");
                std::fs::write(&page, text).unwrap();
                (
                    "write the page",
                    vec![Change::Page("content/notes.md".into())],
                )
            }
        };
        if let Some(set) = sets.get(&n) {
            // Only the file the step changed is written: the others keep their stamps.
            for change in &changes {
                match change {
                    Change::Dataset(s) if *s == slug => set.write_markdown(&root, n),
                    Change::DataFile(p)
                        if *p == Path::new("data/datasets").join(format!("{slug}.csv")) =>
                    {
                        set.write_csv(&root, n)
                    }
                    _ => {}
                }
            }
        }
        (what, changes, slug)
    }
}

/// Builds `root` afresh (no cache, a new folder) and names the files where `output` differs.
fn differs_from_a_clean_build(root: &Path, output: &Path) -> Vec<String> {
    let clean = tempfile::tempdir().unwrap();
    let options = BuildOptions::new(root)
        .output(clean.path().join("public"))
        .scan_cache(false);
    datapages::build(&options).unwrap_or_else(|d| panic!("{}", d.render(false)));
    differing(
        &common::tree_contents(output),
        &common::tree_contents(&clean.path().join("public")),
    )
}

#[test]
#[ignore = "full tier: 80 random edits, each compared with a clean build"]
fn after_each_of_80_random_edits_the_served_folder_equals_a_clean_build() {
    let site = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::new(site.path());
    let mut session = match Session::start(&BuildOptions::new(site.path()), |s| s.commit()) {
        Ok((session, _)) => session,
        Err(d) => panic!("{}", d.render(false)),
    };
    for step in 0..80 {
        let (what, changes, slug) = catalog.edit(step);
        session
            .rebuild(changes, |s| s.commit())
            .unwrap_or_else(|d| panic!("step {step} ({what}, {slug}): {}", d.render(false)));
        let wrong = differs_from_a_clean_build(site.path(), &site.path().join("public"));
        assert!(
            wrong.is_empty(),
            "step {step} ({what}, {slug}): served files differ from a clean build: {wrong:?}"
        );
    }
}

/// The same walk through `build`, which reuses the files of unchanged datasets from the
/// output it replaces (build/reuse.rs): every rebuild must equal a clean build.
#[test]
#[ignore = "full tier: 80 random edits, each compared with a clean build"]
fn after_each_of_80_random_edits_a_reusing_build_equals_a_clean_build() {
    let site = tempfile::tempdir().unwrap();
    let mut catalog = Catalog::new(site.path());
    let output = site.path().join("public");
    let options = BuildOptions::new(site.path());
    datapages::build(&options).unwrap_or_else(|d| panic!("{}", d.render(false)));
    let mut reused = 0;
    for step in 0..80 {
        let (what, _, slug) = catalog.edit(step);
        let report = datapages::build(&options)
            .unwrap_or_else(|d| panic!("step {step} ({what}, {slug}): {}", d.render(false)));
        reused += report.reused;
        let wrong = differs_from_a_clean_build(site.path(), &output);
        assert!(
            wrong.is_empty(),
            "step {step} ({what}, {slug}): rebuilt files differ from a clean build: {wrong:?}"
        );
    }
    assert!(reused > 0, "no dataset's files were reused");
}
