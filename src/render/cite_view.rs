//! The views of the page's citation parts: "Cite this dataset" (the citation in BibTeX,
//! RIS and CFF on the page, each with a copy button and a download), the change history, and the one
//! generated table note.

use serde::Serialize;

use crate::dataset::Dataset;
use crate::metadata::citation_files;

/// One citation format in the block: its text, shown with a copy button, and its
/// download.
#[derive(Debug, Serialize)]
pub struct CiteFormatView {
    /// "RIS".
    pub name: &'static str,
    /// The `id` of its part of the block: `cite-ris`.
    pub id: &'static str,
    /// The text, escaped by the template: what the download holds.
    pub text: String,
    /// The written file's site-relative URL (`citation_files`), if any; without one the
    /// page's script makes the download from `text` as shown.
    pub file: Option<String>,
    /// The download's media type.
    pub media_type: &'static str,
    /// Whether its lines end in CR LF (RIS): HTML reads them as LF, so the page's script
    /// writes the download's line ends back.
    pub crlf: bool,
    /// `<slug>.ris`: the download's file name.
    pub file_name: String,
}

/// The "Cite this dataset" block: each format's text on the page with a copy button and a
/// download (its file with `citation_files`, else made in the browser from the text on
/// the page), BibTeX open.
#[derive(Debug, Serialize)]
pub struct CiteView {
    pub formats: Vec<CiteFormatView>,
}

impl CiteView {
    /// The block for `dataset`, from its citation texts (made once per dataset), linking
    /// its RIS and CFF files where `config` (or the dataset) writes them.
    pub fn new(
        config: &crate::config::SiteConfig,
        dataset: &Dataset,
        texts: &citation_files::Citations,
    ) -> Self {
        let files_on = citation_files::files_on(config, dataset);
        let slug = &dataset.slug;
        let format =
            |(name, id, extension, media_type, text): (_, _, _, _, &String)| CiteFormatView {
                name,
                id,
                text: text.clone(),
                file: (files_on && extension != "bib")
                    .then(|| crate::layout::urls::citation_file(slug, extension)),
                media_type,
                crlf: text.contains("\r\n"),
                file_name: format!("{slug}.{extension}"),
            };
        let formats = [
            (
                "BibTeX",
                "cite-bibtex",
                "bib",
                citation_files::BIBTEX_MEDIA_TYPE,
                &texts.bibtex,
            ),
            (
                "RIS",
                "cite-ris",
                "ris",
                citation_files::RIS_MEDIA_TYPE,
                &texts.ris,
            ),
            (
                "CFF (CITATION.cff)",
                "cite-cff",
                "cff",
                citation_files::CFF_MEDIA_TYPE,
                &texts.cff,
            ),
        ];
        CiteView {
            formats: formats.into_iter().map(format).collect(),
        }
    }
}

pub use crate::metadata::{changes, ChangeView};

/// The generated sentence under the table, when a cell is empty, in `words`. An author's
/// note that speaks of dashes itself says what they mean, so the sentence then only states
/// what the dash stands for on the page and points to the note.
pub fn dash_note(
    has_empty_cells: bool,
    table_note: Option<&str>,
    words: &crate::i18n::Words,
) -> Option<String> {
    if !has_empty_cells {
        return None;
    }
    let note_speaks_of_dashes = table_note.is_some_and(|note| {
        let lower = note.to_lowercase();
        lower.contains("dash") || lower.contains('—') || lower.contains("blank")
    });
    let id = match note_speaks_of_dashes {
        true => "table.dash_note_above",
        false => "table.dash",
    };
    // Every language's catalogue has both (`check` stops a build that lacks one).
    Some(words.text(id).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dash_note_defers_to_an_author_who_explains_dashes() {
        let en = crate::i18n::Words::english();
        assert_eq!(dash_note(false, None, &en), None);
        assert_eq!(
            dash_note(true, None, &en).as_deref(),
            Some("A dash (—) stands for a cell left empty in the CSV.")
        );
        let note = Some("A dash does not mark a missing measurement.");
        assert!(dash_note(true, note, &en).is_some_and(|s| s.contains("note above")));
        let fr = crate::i18n::Words::load(std::path::Path::new("/nonexistent"), "fr", None).0;
        assert!(dash_note(true, None, &fr).is_some_and(|s| s.starts_with("Un tiret")));
    }
}
