//! The first pass over every dataset's front matter, in parallel, before any dataset
//! loads: one small [`Head`] per dataset (its title as other pages list it, the datasets
//! it names, whether it publishes its big files elsewhere), so that each dataset can then
//! be loaded, checked, rendered and written in one go. Silent: a file that cannot be read
//! or parsed has an empty head, and its load reports why.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::content::front_matter;
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
}

/// What the pages need of every dataset's [`Head`]: the titles of the datasets that some
/// page names (none in a catalog without `related` or foreign keys), by slug.
#[derive(Debug, Default)]
pub struct FirstPass {
    /// Sorted by slug; only named datasets whose file name is a valid slug.
    titles: Vec<(Slug, Option<Box<str>>)>,
    /// Whether any dataset file sets a `data_url` of its own.
    any_data_url: bool,
}

impl FirstPass {
    /// Reads the front matter of every dataset file in `files`, in parallel; `drafts`:
    /// whether the build keeps drafts (`--drafts`).
    pub fn read(files: &[PathBuf], drafts: bool) -> FirstPass {
        let heads: Vec<(Slug, Head)> = (files.par_iter())
            .map(|path| (Slug::of_file(path), read_head(path, drafts)))
            .collect();
        let any_data_url = heads.iter().any(|(_, head)| head.data_url);
        let named: HashSet<&str> = (heads.iter())
            .flat_map(|(_, head)| head.names.iter().map(String::as_str))
            .collect();
        let mut titles: Vec<_> = (heads.iter())
            .filter(|(slug, _)| named.contains(&**slug) && crate::dataset::is_valid_slug(slug))
            .map(|(slug, head)| (slug.clone(), head.title.clone()))
            .collect();
        titles.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        FirstPass {
            titles,
            any_data_url,
        }
    }

    /// The title of dataset `slug`, as its load will give it, when a page names it (none
    /// for a draft left out, or a page that is not there or cannot be read).
    pub fn title(&self, slug: &str) -> Option<&str> {
        let found = self.titles.binary_search_by(|(s, _)| (**s).cmp(slug));
        self.titles[found.ok()?].1.as_deref()
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
        foreign_keys: Vec<Key>,
    }
    #[derive(serde::Deserialize)]
    struct Key {
        reference: Reference,
    }
    #[derive(serde::Deserialize)]
    struct Reference {
        dataset: Option<String>,
    }
    let Ok(text) = std::fs::read_to_string(path) else {
        return Head::default();
    };
    let Ok(split) = front_matter::split(path, &text) else {
        return Head::default();
    };
    let titled: Option<Titled> = value(path, (&text, &split), &[], true);
    // `[[foreign_keys]]` are tables: the whole front matter is read.
    let names = value(path, (&text, &split), &["related", "foreign_keys"], false);
    let names = names.map(|n: Names| {
        let keys = n.foreign_keys.into_iter();
        let named = keys.filter_map(|key| key.reference.dataset);
        n.related.into_iter().chain(named).collect()
    });
    let elsewhere: Option<Elsewhere> = value(path, (&text, &split), &["data_url"], true);
    Head {
        title: titled
            .filter(|head| drafts || !head.draft)
            .map(|head| head.title.into()),
        data_url: elsewhere.is_some_and(|head| head.data_url.is_some()),
        names: names.unwrap_or_default(),
    }
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
        assert_eq!(pass.title("b"), None);
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
        assert_eq!(pass.title("quoting"), None);
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
