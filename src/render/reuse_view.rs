//! The views of the page's reuse parts: "Cite this dataset" (the citation in BibTeX, CFF
//! and RIS, with their files), the change history, and the one generated table note.

use serde::Serialize;

use crate::dataset::Dataset;
use crate::metadata::citation_files;

/// One citation format: its name, its text, and its file.
#[derive(Debug, Serialize)]
pub struct CiteFormatView {
    /// Anchor `#cite-<id>`: `bibtex`, `cff`, `ris`.
    pub id: &'static str,
    /// "BibTeX".
    pub name: &'static str,
    pub text: String,
    /// Site-relative URL of the file.
    pub url: String,
    /// `<slug>.bib`: the download's file name.
    pub file_name: String,
}

/// The "Cite this dataset" block.
#[derive(Debug, Serialize)]
pub struct CiteView {
    pub formats: Vec<CiteFormatView>,
}

impl CiteView {
    /// The block for `dataset`, from the texts its citation files hold (made once per
    /// dataset: the files and the page show the same texts).
    pub fn new(dataset: &Dataset, texts: &citation_files::Citations) -> Self {
        let [bib, cff, ris] = citation_files::file_paths(&dataset.slug);
        let format = |id, name, text, (extension, url): (&str, String)| CiteFormatView {
            id,
            name,
            text,
            url,
            file_name: format!("{}.{extension}", dataset.slug),
        };
        CiteView {
            formats: vec![
                format("bibtex", "BibTeX", texts.bibtex.clone(), bib),
                format("cff", "CFF (CITATION.cff)", texts.cff.clone(), cff),
                format("ris", "RIS", texts.ris.clone(), ris),
            ],
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
