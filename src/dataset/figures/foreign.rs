//! Another dataset's table, for the references that name it (`dataset="<slug>"`): its
//! front matter is read again (columns, primary key, `data`, `table_rows`) and its CSV
//! path resolved inside the site, so the quoting page can be loaded on its own, in
//! parallel with the rest. The quoted page reports its own problems; here a page that
//! cannot be read is one problem of the reference.

use std::path::{Path, PathBuf};

use crate::confine;
use crate::content::front_matter;
use crate::content::DatasetFrontMatter;
use crate::dataset::schema::ColumnSpec;
use crate::diagnostics::did_you_mean;
use crate::layout;

/// What a reference needs of another dataset.
pub struct ForeignTable {
    pub csv: PathBuf,
    pub columns: Vec<ColumnSpec>,
    pub primary_key: Vec<String>,
    /// The byte between fields of `csv` (that dataset's `delimiter`).
    pub dialect: crate::content::dialect::CsvDialect,
    /// Whether that dataset is a draft (`draft = true`).
    pub draft: bool,
    /// That dataset's `missing_values`.
    pub missing_values: Option<Vec<String>>,
    /// How each column's cells are read (date `format`, number marks).
    pub readings: Vec<super::reading::Reading>,
    /// Rows that dataset's page shows (a figure links to its row only when shown; none
    /// for a draft).
    pub shown_rows: u64,
    /// That dataset's `explore` (site.toml's when it does not say).
    pub explore: Option<bool>,
}

/// Why a dataset cannot be quoted: the message and a hint.
pub struct Refused {
    pub message: String,
    pub hint: String,
}

/// Reads dataset `slug` of the site at `root` (canonical).
pub fn open(site: &super::Site, slug: &str) -> Result<ForeignTable, Refused> {
    let (root, default_rows) = (site.root, site.default_rows);
    let markdown = layout::dataset_markdown(slug);
    let valid = crate::dataset::is_valid_slug(slug);
    let path = valid
        .then(|| confine::resolve_file(root, &markdown).ok())
        .flatten();
    let Some(path) = path else {
        let slugs = slugs(root);
        let hint = did_you_mean(slug, slugs.iter().map(String::as_str))
            .map(|s| format!("did you mean `{s}`?"))
            .unwrap_or_else(|| format!("the datasets are: {}", slugs.join(", ")));
        return Err(Refused {
            message: format!("no dataset `{slug}`: there is no {}", markdown.display()),
            hint,
        });
    };
    let unreadable = |why: &str| Refused {
        message: format!("the figures of dataset `{slug}` cannot be read: {why}"),
        hint: format!(
            "fix {} first (check lists its problems)",
            markdown.display()
        ),
    };
    let text = std::fs::read_to_string(&path).map_err(|e| unreadable(&e.to_string()))?;
    let split =
        front_matter::split(&markdown, &text).map_err(|_| unreadable("its front matter"))?;
    let front: DatasetFrontMatter = front_matter::parse_toml(
        &markdown,
        &text,
        split.front_matter,
        split.front_matter_offset,
    )
    .map_err(|_| unreadable("its front matter"))?;
    let csv_display = front.csv_file(slug);
    let csv = confine::resolve_file_under(root, Path::new(&csv_display), layout::DATA)
        .map_err(|refusal| unreadable(&refusal.message(Path::new(&csv_display))))?;
    Ok(ForeignTable {
        csv,
        readings: super::reading::of_columns(&front),
        // A draft's page may not be built: its figures are quoted, but not linked.
        shown_rows: match front.draft {
            true => 0,
            false => front.table_rows.unwrap_or(default_rows).limit(),
        },
        dialect: front.csv_dialect(),
        draft: front.draft,
        explore: front.explore,
        missing_values: front
            .missing_values
            .or_else(|| site.missing_values.map(<[String]>::to_vec)),
        columns: front.columns,
        primary_key: front.primary_key,
    })
}

/// The slugs of the site's dataset pages, sorted.
fn slugs(root: &Path) -> Vec<String> {
    let mut slugs: Vec<String> = std::fs::read_dir(root.join(layout::CONTENT_DATASETS))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            Some(name.strip_suffix(".md")?.to_string())
        })
        .collect();
    slugs.sort();
    slugs
}
