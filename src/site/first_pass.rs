//! The first pass over every dataset's front matter, in parallel, before any dataset
//! loads: one small [`Head`] per dataset (its title as other pages list it, the datasets
//! it names, the one-column keys by which its rows name another dataset's, whether it
//! publishes its big files elsewhere), so that each dataset can then be loaded, checked,
//! rendered and written in one go. Silent: a file that cannot be read or parsed has an
//! empty head, and its load reports why.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::checksum::Sha256;
use crate::content::{front_matter, ForeignKey};
use crate::dataset::Slug;

/// What the first pass keeps of one dataset.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Head {
    /// Its title, as its load will give it; `None` for a draft the build leaves out or a
    /// front matter that cannot be read (the page has no place among the loaded ones).
    title: Option<Box<str>>,
    /// Whether it sets a `data_url` of its own.
    data_url: bool,
    /// The datasets its page names with their titles: `related`, `foreign_keys`.
    names: Vec<String>,
    /// Its `explore` setting, when it has one.
    explore: Option<bool>,
    /// Its one-column foreign keys to another dataset: that dataset, this one's column
    /// and the column there.
    keys: Vec<(String, String, String)>,
    /// The SHA-256 of the file as read.
    markdown: Option<Sha256>,
}

/// A one-column foreign key seen from the dataset it names: the dataset whose rows name
/// this one's (`from`, with its `explore` setting when it has one), by its column `field`,
/// compared with this dataset's column `to_field`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pointer {
    pub from: Slug,
    pub field: String,
    pub to_field: String,
    pub explore: Option<bool>,
}

/// What the pages need of every dataset's [`Head`]: the titles of the datasets that some
/// page names (none in a catalog without `related` or foreign keys), by slug.
#[derive(Debug, Default)]
pub struct FirstPass {
    /// Sorted by slug; only named datasets whose file name is a valid slug.
    titles: Vec<(Slug, Option<Box<str>>)>,
    /// Whether any dataset file sets a `data_url` of its own.
    any_data_url: bool,
    /// The one-column foreign keys between datasets, by the slug of the dataset they name,
    /// sorted.
    pointers: Vec<(Box<str>, Pointer)>,
    /// The SHA-256 of every dataset file that could be read, by slug, sorted: the key of
    /// a dataset's reuse needs its bytes, read here already.
    markdown: Vec<(Slug, Sha256)>,
}

impl FirstPass {
    /// Reads the front matter of every dataset file in `files`, in parallel; `drafts`:
    /// whether the build keeps drafts (`--drafts`).
    pub fn read(files: &[PathBuf], drafts: bool) -> FirstPass {
        let heads: Vec<(Slug, Head)> = (files.par_iter())
            .map(|path| (Slug::of_file(path), read_head(path, drafts)))
            .collect();
        let any_data_url = heads.iter().any(|(_, head)| head.data_url);
        // A dataset whose rows name another's is named too: that one's rows link back.
        let pointing = (heads.iter()).filter(|(_, head)| !head.keys.is_empty());
        let named: HashSet<&str> = (heads.iter())
            .flat_map(|(_, head)| head.names.iter().map(String::as_str))
            .chain(pointing.map(|(slug, _)| &**slug))
            .collect();
        let titles: Vec<_> = (heads.iter())
            .filter(|(slug, _)| named.contains(&**slug) && crate::dataset::is_valid_slug(slug))
            .map(|(slug, head)| (slug.clone(), head.title.clone()))
            .collect();
        let pointers = (heads.iter())
            .flat_map(|(slug, head)| (head.keys.iter()).map(|key| pointer(slug, head.explore, key)))
            .collect();
        let mut pass = FirstPass::sorted(titles, any_data_url, pointers);
        pass.markdown = (heads.iter())
            .filter_map(|(slug, head)| Some((slug.clone(), head.markdown?)))
            .collect();
        pass.markdown.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        pass
    }

    /// What a first pass would keep of `datasets`, loaded whole (`serve` after an edit, which
    /// reads no first pass): every title, and their keys.
    pub fn of_datasets<'a>(
        datasets: impl Iterator<Item = &'a crate::dataset::Dataset>,
    ) -> FirstPass {
        let mut titles = Vec::new();
        let mut pointers = Vec::new();
        for dataset in datasets {
            let slug = &dataset.slug;
            titles.push((slug.clone(), Some((&*dataset.front.title).into())));
            let keys = (dataset.front.foreign_keys.iter()).filter_map(|key| to_other(slug, key));
            pointers.extend(keys.map(|key| pointer(slug, dataset.front.explore, &key)));
        }
        FirstPass::sorted(titles, false, pointers)
    }

    fn sorted(
        mut titles: Vec<(Slug, Option<Box<str>>)>,
        any_data_url: bool,
        mut pointers: Vec<(Box<str>, Pointer)>,
    ) -> FirstPass {
        titles.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        pointers.sort_unstable_by(|a, b| {
            (&a.0, &a.1.from, &a.1.field).cmp(&(&b.0, &b.1.from, &b.1.field))
        });
        FirstPass {
            titles,
            any_data_url,
            pointers,
            markdown: Vec::new(),
        }
    }

    /// The one-column foreign keys of other datasets that name rows of dataset `slug`, by
    /// the naming dataset's slug and column.
    pub fn pointing_at<'a>(&'a self, slug: &'a str) -> impl Iterator<Item = &'a Pointer> {
        let start = self.pointers.partition_point(|(to, _)| &**to < slug);
        let found = self.pointers[start..]
            .iter()
            .take_while(move |(to, _)| &**to == slug);
        found.map(|(_, pointer)| pointer)
    }

    /// The title of dataset `slug`, as its load will give it, when a page names it (none
    /// for a draft left out, or a page that is not there or cannot be read).
    pub fn title(&self, slug: &str) -> Option<&str> {
        let found = self.titles.binary_search_by(|(s, _)| (**s).cmp(slug));
        self.titles[found.ok()?].1.as_deref()
    }

    /// The SHA-256 of dataset `slug`'s file as this pass read it (none for a file it could
    /// not read, or without a pass over files: `serve`'s edits).
    pub fn markdown_digest(&self, slug: &str) -> Option<Sha256> {
        let found = self.markdown.binary_search_by(|(s, _)| (**s).cmp(slug));
        Some(self.markdown[found.ok()?].1)
    }

    /// Whether a dataset publishes its big files elsewhere with a `data_url` of its own
    /// (a build then opens the data folder before the first dataset is written).
    pub fn any_data_url(&self) -> bool {
        self.any_data_url
    }
}

/// The head of the dataset file `path`; an empty one when it cannot be read or parsed.
fn read_head(path: &Path, drafts: bool) -> Head {
    /// What a title needs of the front matter.
    #[derive(serde::Deserialize)]
    struct Titled {
        title: String,
        #[serde(default)]
        draft: bool,
    }
    /// Whether the explorer is on, for the rows that name this dataset's (apart, as below).
    #[derive(serde::Deserialize)]
    struct Explored {
        explore: Option<bool>,
    }
    /// What the data folder needs (apart: a `title` that is not text leaves it as it is).
    #[derive(serde::Deserialize)]
    struct Elsewhere {
        data_url: Option<String>,
    }
    /// The datasets a page names with their titles (any front matter that loads has them
    /// in these types).
    #[derive(serde::Deserialize)]
    struct Names {
        #[serde(default)]
        related: Vec<String>,
        #[serde(default)]
        foreign_keys: Vec<ForeignKey>,
    }
    let Ok(text) = std::fs::read_to_string(path) else {
        return Head::default();
    };
    let markdown = Some(Sha256::of(text.as_bytes()));
    let Ok(split) = front_matter::split(path, &text) else {
        return Head {
            markdown,
            ..Head::default()
        };
    };
    let titled: Option<Titled> = value(path, (&text, &split), &[], true);
    // `[[foreign_keys]]` are tables: the whole front matter is read.
    let names = value(path, (&text, &split), &["related", "foreign_keys"], false);
    let own = path.file_stem().unwrap_or_default().to_string_lossy();
    let mut keys = Vec::new();
    let names = names.map(|n: Names| {
        keys = (n.foreign_keys.iter())
            .filter_map(|key| to_other(&own, key))
            .collect();
        let named = n
            .foreign_keys
            .into_iter()
            .filter_map(|key| key.reference.dataset);
        n.related.into_iter().chain(named).collect()
    });
    let elsewhere: Option<Elsewhere> = value(path, (&text, &split), &["data_url"], true);
    let explore: Option<Explored> = value(path, (&text, &split), &["explore"], true);
    Head {
        title: titled
            .filter(|head| drafts || !head.draft)
            .map(|head| head.title.into()),
        data_url: elsewhere.is_some_and(|head| head.data_url.is_some()),
        names: names.unwrap_or_default(),
        explore: explore.and_then(|head| head.explore),
        keys,
        markdown,
    }
}

/// `key` of dataset `own` when it is one column naming rows of another dataset: that
/// dataset, the column here and the column there.
fn to_other(own: &str, key: &ForeignKey) -> Option<(String, String, String)> {
    let to = key.reference.dataset.as_ref().filter(|to| **to != own);
    match (to, &key.fields[..], &key.reference.fields[..]) {
        (Some(to), [field], [to_field]) => Some((to.clone(), field.clone(), to_field.clone())),
        _ => None,
    }
}

/// `key` of dataset `from` ([`to_other`]) by the dataset it names.
fn pointer(
    from: &Slug,
    explore: Option<bool>,
    key: &(String, String, String),
) -> (Box<str>, Pointer) {
    let (to, field, to_field) = key;
    let pointer = Pointer {
        from: from.clone(),
        field: field.clone(),
        to_field: to_field.clone(),
        explore,
    };
    (to.as_str().into(), pointer)
}

/// The front matter of `text` read as `T`, when it parses and mentions one of `words`
/// (no words: always; most front matters never mention the rare keys: no parse). With
/// `root`, only its lines before the first `[table]` header are parsed when they parse
/// alone: every top-level key is there, and the columns after it cost the most. They parse
/// alone and give other values only if the whole does not parse, which its load reports.
fn value<T: serde::de::DeserializeOwned>(
    path: &Path,
    (text, split): (&str, &front_matter::SplitFile),
    words: &[&str],
    root: bool,
) -> Option<T> {
    let toml = split.front_matter;
    if !words.is_empty() && !words.iter().any(|word| toml.contains(word)) {
        return None;
    }
    let parse = |toml| front_matter::parse_toml(path, text, toml, split.front_matter_offset);
    let header = toml
        .split_inclusive('\n')
        .take_while(|l| !l.trim_start().starts_with('['));
    let keys = &toml[..header.map(str::len).sum::<usize>()];
    root.then(|| parse(keys).ok())
        .flatten()
        .or_else(|| parse(toml).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout;

    fn page(root: &Path, slug: &str, front: &str) -> PathBuf {
        let path = root.join(layout::dataset_markdown(slug));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, format!("+++\n{front}\n+++\nProse.\n")).unwrap();
        path
    }

    #[test]
    fn a_title_is_read_from_the_front_matter_as_the_load_gives_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let files = [
            page(
                root,
                "a",
                "title = \"  A \\\"quoted\\\" title \"\nkicker = \"k\"\n[[columns]]\nname = \"x\"",
            ),
            page(root, "draft", "title = \"Draft\"\ndraft = true"),
            page(root, "broken", "title = "),
            page(root, "untitled", "title = 3\ndata_url = \"https://x.org/\""),
            page(root, "Not a slug", "title = \"N\""),
            page(root, "unnamed", "title = \"U\""),
            page(
                root,
                "b",
                "title = \"B\"\nrelated = [\"a\", \"draft\", \"broken\", \"untitled\"]\n\
                 related_note = 1\n[[foreign_keys]]\nfields = [\"x\"]\n\
                 reference = { dataset = \"Not a slug\", fields = [\"y\"] }",
            ),
        ];
        let pass = FirstPass::read(&files, false);
        assert_eq!(pass.title("a"), Some("  A \"quoted\" title "));
        assert_eq!(pass.title("draft"), None, "a draft left out has no title");
        assert_eq!(pass.title("broken"), None);
        assert_eq!(pass.title("untitled"), None);
        assert_eq!(pass.title("missing"), None);
        assert_eq!(pass.title("Not a slug"), None, "not a slug: never named");
        assert_eq!(
            pass.title("unnamed"),
            None,
            "kept only when a page names it"
        );
        assert_eq!(
            pass.title("b"),
            Some("B"),
            "its key names rows of another dataset"
        );
        assert!(
            pass.any_data_url(),
            "a title that is not text leaves data_url"
        );
        assert_eq!(FirstPass::read(&files, true).title("draft"), Some("Draft"));
        assert!(!FirstPass::read(&files[..3], false).any_data_url());
    }

    #[test]
    fn a_line_opening_with_a_bracket_inside_a_value_is_no_table_header() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let fronts = [
            "description = \"\"\"\n[not a table]\n\"\"\"\ntitle = \"Late\"",
            "grid = [\n[1, 2],\n]\ntitle = \"Late\"\ndata_url = \"https://x.org/\"",
            "title = \"Late\"\n  [sub]\ntitle = \"Not the root's\"",
        ];
        for (n, front) in fronts.iter().enumerate() {
            let files = [
                page(root, &format!("d{n}"), front),
                page(
                    root,
                    &format!("r{n}"),
                    &format!("title = \"R\"\nrelated = [\"d{n}\"]"),
                ),
            ];
            let pass = FirstPass::read(&files, false);
            assert_eq!(pass.title(&format!("d{n}")), Some("Late"), "{front}");
            assert_eq!(pass.any_data_url(), n == 1, "{front}");
        }
    }

    #[test]
    fn a_title_is_kept_for_a_dataset_a_foreign_key_names() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let files = [
            page(root, "table", "title = \"Table\""),
            page(
                root,
                "quoting",
                "title = \"Q\"\n[[foreign_keys]]\nfields = [\"x\"]\n\
                 reference = { dataset = \"table\", fields = [\"y\"] }",
            ),
        ];
        let pass = FirstPass::read(&files, false);
        assert_eq!(pass.title("table"), Some("Table"));
        assert_eq!(
            pass.title("quoting"),
            Some("Q"),
            "the rows it names link back to it"
        );
    }

    #[test]
    fn a_one_column_key_to_another_dataset_is_kept_by_the_dataset_it_names() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let key = |fields: &str, to: &str| {
            format!("[[foreign_keys]]\nfields = [{fields}]\nreference = {{ {to} }}\n")
        };
        let flights = [
            "title = \"F\"\nexplore = false\n".to_string(),
            key(
                "\"tailnum\"",
                "dataset = \"planes\", fields = [\"tailnum\"]",
            ),
            key("\"dest\"", "dataset = \"airports\", fields = [\"faa\"]"),
            key(
                "\"origin\", \"hour\"",
                "dataset = \"weather\", fields = [\"origin\", \"hour\"]",
            ),
            key("\"flight\"", "fields = [\"flight\"]"),
            key("\"next\"", "dataset = \"flights\", fields = [\"flight\"]"),
        ];
        let files = [
            page(root, "planes", "title = \"P\""),
            page(root, "flights", &flights.concat()),
            page(
                root,
                "airlines",
                &format!(
                    "title = \"A\"\n{}",
                    key("\"hub\"", "dataset = \"airports\", fields = [\"faa\"]")
                ),
            ),
        ];
        let pass = FirstPass::read(&files, false);
        let named = |slug: &str| -> Vec<(String, String, String, Option<bool>)> {
            (pass.pointing_at(slug))
                .map(|p| {
                    (
                        p.from.to_string(),
                        p.field.clone(),
                        p.to_field.clone(),
                        p.explore,
                    )
                })
                .collect()
        };
        let to = |from: &str, field: &str, to_field: &str, explore| {
            (
                from.to_string(),
                field.to_string(),
                to_field.to_string(),
                explore,
            )
        };
        assert_eq!(
            named("planes"),
            [to("flights", "tailnum", "tailnum", Some(false))]
        );
        assert_eq!(
            named("airports"),
            [
                to("airlines", "hub", "faa", None),
                to("flights", "dest", "faa", Some(false))
            ],
            "sorted by the naming dataset"
        );
        assert_eq!(named("weather"), [], "a composite key links no row");
        assert_eq!(named("flights"), [], "a key to its own rows names no other");
        assert_eq!(
            pass.title("flights"),
            Some("F"),
            "its rows are linked to by title"
        );
        assert_eq!(pass.title("planes"), Some("P"));
    }

    #[test]
    fn data_url_counts_only_as_a_text_value_of_the_front_matter() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let files = [
            page(
                root,
                "prose",
                "title = \"P\"\ndescription = \"no data_url here\"",
            ),
            page(root, "number", "title = \"N\"\ndata_url = 3"),
            page(root, "table", "title = \"T\"\n[data_url]\nx = 1"),
        ];
        assert!(!FirstPass::read(&files, false).any_data_url());
        let elsewhere = page(root, "z", "title = \"Z\"\ndata_url = \"https://x.org/\"");
        assert!(FirstPass::read(&[elsewhere], false).any_data_url());
    }
}
