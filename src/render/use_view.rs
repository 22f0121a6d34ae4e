//! The view of the page's "Use this data" block: one copyable snippet per tool, written by
//! `metadata::snippets` from the same facts as the Data Package.

use serde::Serialize;

use crate::metadata::snippets::{self, Table};

/// One tool's snippet.
#[derive(Debug, Serialize)]
pub struct SnippetView {
    /// Anchor `#use-<id>`: `pandas`, `polars`, `r`, `duckdb`, `curl`.
    pub id: &'static str,
    /// "pandas", "DuckDB": the label and the copy button's name.
    pub name: &'static str,
    /// The code's language, for `class="language-…"`: `python`, `r`, `sql`, `sh`.
    pub language: &'static str,
    /// The code as text (the template escapes it).
    pub code: String,
}

/// The "Use this data" block.
#[derive(Debug, Serialize)]
pub struct UseDataView {
    /// Which snippet reads a typed copy instead of the CSV, when one does
    /// ([`snippets::typed_copy_note`]).
    pub typed_copy: Option<&'static str>,
    pub snippets: Vec<SnippetView>,
}

impl UseDataView {
    /// The block for one dataset's facts.
    pub fn new(table: &Table) -> Self {
        let snippet = |id, name, language, code| SnippetView {
            id,
            name,
            language,
            code,
        };
        UseDataView {
            typed_copy: snippets::typed_copy_note(table),
            snippets: vec![
                snippet("pandas", "pandas", "python", snippets::pandas(table)),
                snippet("polars", "Polars", "python", snippets::polars(table)),
                snippet("r", "R (readr)", "r", snippets::r(table)),
                snippet("duckdb", "DuckDB", "sql", snippets::duckdb(table)),
                snippet("curl", "curl", "sh", snippets::curl(table)),
            ],
        }
    }
}
