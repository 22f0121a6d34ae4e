//! Placeholders left by `datapages new`: text starting with [`MARKER`] that the author has
//! still to write. Each is a warning with its line, so `check --strict` fails until the
//! page is finished but a draft still builds for preview.

use std::path::Path;

use crate::diagnostics::Diagnostic;

/// What a placeholder starts with.
pub const MARKER: &str = "TODO:";

/// One warning per line of `text` that holds a placeholder.
pub fn find(display: &Path, text: &str) -> Vec<Diagnostic> {
    text.lines()
        .enumerate()
        .filter_map(|(index, line)| {
            let byte = line.find(MARKER)?;
            let column = line[..byte].chars().count() + 1;
            Some(
                Diagnostic::warning(display, "a placeholder is still to be written")
                    .at(index + 1, column)
                    .with_source_line(line.trim_end_matches('\r'))
                    .with_hint(format!(
                        "replace the text starting with `{MARKER}` with your own"
                    )),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_placeholder_line_is_one_warning() {
        let text = "+++\ntitle = \"TODO: a title\"\nkicker = \"done\"\n+++\n\nTODO: the lede.\n";
        let found = find(Path::new("content/datasets/a.md"), text);
        let lines: Vec<_> = found.iter().map(|d| d.line).collect();
        assert_eq!(lines, [Some(2), Some(6)]);
        assert_eq!(found[0].column, Some(10));
        assert!(find(Path::new("a.md"), "all written\n").is_empty());
    }
}
