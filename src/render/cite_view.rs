//! The views of the page's citation parts: "Cite this dataset" (the citation in BibTeX on the
//! page, links to its RIS and CFF files), the change history, and the one generated table
//! note.

use serde::Serialize;

use crate::dataset::Dataset;
use crate::metadata::citation_files;

/// One citation file the page links: its format's name and where it is.
#[derive(Debug, Serialize)]
pub struct CiteFileView {
    /// "RIS".
    pub name: &'static str,
    /// Site-relative URL of the file.
    pub url: String,
    /// `<slug>.ris`: the download's file name.
    pub file_name: String,
}

/// The "Cite this dataset" block. Each text once: BibTeX on the page (what a reader copies
/// into a `.bib` file, one click with the copy button), RIS and CFF as files (what
/// reference managers import and repositories keep), linked.
#[derive(Debug, Serialize)]
pub struct CiteView {
    pub bibtex: String,
    pub files: Vec<CiteFileView>,
}

impl CiteView {
    /// The block for `dataset`, from its citation texts (made once per dataset).
    pub fn new(dataset: &Dataset, texts: &citation_files::Citations) -> Self {
        let files = crate::layout::urls::citation_files(&dataset.slug).map(|(extension, url)| {
            CiteFileView {
                name: match extension {
                    "ris" => "RIS",
                    _ => "CFF (CITATION.cff)",
                },
                url,
                file_name: format!("{}.{extension}", dataset.slug),
            }
        });
        CiteView {
            bibtex: texts.bibtex.clone(),
            files: files.into(),
        }
    }
}

pub use crate::metadata::{changes, ChangeView};

/// The generated sentence under the table, when a cell is empty. An author's note that
/// speaks of dashes itself says what they mean, so the sentence then only states what the
/// dash stands for on the page and points to the note.
pub fn dash_note(has_empty_cells: bool, table_note: Option<&str>) -> Option<&'static str> {
    if !has_empty_cells {
        return None;
    }
    let note_speaks_of_dashes = table_note.is_some_and(|note| {
        let lower = note.to_lowercase();
        lower.contains("dash") || lower.contains('—') || lower.contains("blank")
    });
    Some(if note_speaks_of_dashes {
        "A dash (—) stands for a cell left empty in the CSV; the note above the table says what an empty cell means."
    } else {
        "A dash (—) stands for a cell left empty in the CSV."
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dash_note_defers_to_an_author_who_explains_dashes() {
        assert_eq!(dash_note(false, None), None);
        assert_eq!(
            dash_note(true, None),
            Some("A dash (—) stands for a cell left empty in the CSV.")
        );
        let deferring = dash_note(true, Some("A dash does not mark a missing measurement."));
        assert!(deferring.is_some_and(|s| s.contains("note above")));
    }
}
