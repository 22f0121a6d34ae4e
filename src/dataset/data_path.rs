//! What a dataset page is told when its CSV path is refused (see `crate::confine`): at the
//! `data =` line when the author wrote the path, at the CSV file when it is the default.

use std::path::Path;

use crate::confine::Refusal;
use crate::content::spans::Locator;
use crate::diagnostics::Diagnostic;

/// The problem with a dataset's CSV path. A `data` the author wrote is blamed at its
/// front-matter line; the default path (or a link there) at the CSV file itself.
pub(super) fn refusal_diagnostic(refusal: &Refusal, csv: &Path, locator: &Locator) -> Diagnostic {
    let markdown = locator.file;
    let written = locator.key("data").is_some();
    let csv_text = csv.display();
    if !written {
        return match refusal {
            Refusal::Missing {
                dangling_link: false,
            } => Diagnostic::error(markdown, format!("the data file {csv_text} does not exist"))
                .with_hint(format!(
                    "put the CSV at {csv_text}, or set `data = \"…\"` in the front matter"
                )),
            other => other.diagnostic(csv),
        };
    }
    let (message, hint) = match refusal {
        Refusal::Absolute => (
            "`data` points outside the site folder: it is an absolute path".to_string(),
            refusal.hint().to_string(),
        ),
        Refusal::Outside {
            through_link: false,
        } => (
            "`data` points outside the site folder".to_string(),
            "write a path inside the site folder, relative to it, e.g. data/datasets/<slug>.csv"
                .to_string(),
        ),
        Refusal::Outside { through_link: true } => (
            "`data` points outside the site folder".to_string(),
            format!("{csv_text} is a symbolic link that leads outside it; datapages reads only files inside the site folder"),
        ),
        Refusal::Missing {
            dangling_link: false,
        } => (
            format!("the data file {csv_text} does not exist"),
            "fix the `data` path (relative to the site root)".to_string(),
        ),
        Refusal::NotUnder(folder) => (
            format!("`data` must name a file in the {folder}/ folder"),
            format!("{csv_text} is elsewhere; {}", refusal.hint()),
        ),
        Refusal::Hidden { .. } => (
            "`data` names a hidden file or folder".to_string(),
            format!("{}; {}", refusal.message(csv), refusal.hint()),
        ),
        other => (
            format!("`data` cannot be read: {}", other.message(csv)),
            other.hint().to_string(),
        ),
    };
    locator.error(message, locator.key("data")).with_hint(hint)
}
