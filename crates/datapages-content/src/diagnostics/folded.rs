//! Warnings folded for the terminal: a catalog imported without `updated` dates warns the
//! same way in every one of its 10,000 files, and 40,000 lines of one warning hide the
//! few that differ. `build` and `serve` show the first few of each warning in full and
//! count the rest; `check` lists every one.

use std::collections::HashMap;
use std::io::{self, Write};

use super::{Diagnostics, Severity};

/// How many of one warning (same message, same hint) are shown in full.
pub const SHOWN_PER_WARNING: usize = 3;

impl Diagnostics {
    /// [`Diagnostics::write_to`], with each warning shown in full at most `shown` times
    /// (in the sorted order, so its first places) and a line counting the rest; errors
    /// are always shown. The summary line counts everything.
    pub fn write_folded(&self, color: bool, shown: usize, out: &mut impl Write) -> io::Result<()> {
        // Each warning's message in the order first met, with how many times it occurs
        // among the items and in all (more, when only the first places were kept:
        // `Diagnostics::folding`); `index` finds it by message and hint.
        let mut kinds: Vec<(&str, usize, usize)> = Vec::new();
        let mut index: HashMap<(&str, Option<&str>), usize> = HashMap::new();
        for (at, diagnostic) in self.items.iter().enumerate() {
            if diagnostic.severity == Severity::Warning {
                let key = (diagnostic.message.as_ref(), diagnostic.hint.as_deref());
                let kind = *index.entry(key).or_insert_with(|| {
                    kinds.push((key.0, 0, 0));
                    kinds.len() - 1
                });
                let (_, seen, places) = &mut kinds[kind];
                *seen += 1;
                *places = self.places_of(at).unwrap_or(*seen);
                if *seen > shown {
                    continue;
                }
            }
            writeln!(out, "{}", diagnostic.render(color))?;
        }
        let (bold, reset) = if color {
            ("\x1b[1m", "\x1b[0m")
        } else {
            ("", "")
        };
        let mut folded = false;
        for (message, seen, places) in kinds {
            let more = places - seen.min(shown);
            if more == 0 {
                continue;
            }
            folded = true;
            writeln!(
                out,
                "{bold}note{reset}: the same warning in {more} more {}: {message}",
                super::plural(more, "place", "places"),
            )?;
        }
        if folded {
            writeln!(
                out,
                "{bold}note{reset}: `datapages check` lists every warning in full"
            )?;
        }
        writeln!(out, "{}", self.summary())
    }

    /// [`Diagnostics::write_folded`] to stderr through one buffered lock (a catalog's
    /// warnings can be tens of thousands); a closed stderr is not a failure of the build.
    pub fn eprint_folded(&self, color: bool, shown: usize) {
        let mut err = io::BufWriter::new(io::stderr().lock());
        let _ = self
            .write_folded(color, shown, &mut err)
            .and_then(|_| err.flush());
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::Diagnostic;
    use super::*;

    /// What [`Diagnostics::write_folded`] writes, without color (also read by kept.rs's tests).
    pub(in crate::diagnostics) fn folded(diagnostics: &Diagnostics, shown: usize) -> String {
        let mut out = Vec::new();
        diagnostics.write_folded(false, shown, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_repeated_warning_is_shown_a_few_times_and_counted() {
        let mut diagnostics = Diagnostics::new();
        for n in 0..10 {
            let file = format!("content/datasets/set-{n:02}.md");
            diagnostics.push(
                Diagnostic::warning(&file, "the page has no `## Limits` section")
                    .with_hint("say what the table does not show"),
            );
            diagnostics.push(Diagnostic::warning(
                &file,
                "the dataset has no `updated` date",
            ));
        }
        diagnostics.push(Diagnostic::warning(
            "content/datasets/set-05.md",
            "a rare one",
        ));
        diagnostics.push(Diagnostic::error("content/datasets/set-07.md", "broken"));
        diagnostics.sort();
        let text = folded(&diagnostics, 3);
        assert_eq!(
            text.matches("no `## Limits` section").count(),
            3 + 1,
            "{text}"
        );
        assert_eq!(text.matches("no `updated` date").count(), 3 + 1, "{text}");
        assert!(text.contains(
            "note: the same warning in 7 more places: the page has no `## Limits` section\n"
        ));
        assert!(text.contains(
            "note: the same warning in 7 more places: the dataset has no `updated` date\n"
        ));
        // The first places are the ones shown; what occurs rarely and errors always are.
        assert!(text.contains("set-00.md") && text.contains("set-02.md"));
        assert!(!text.contains("set-03.md"), "{text}");
        assert!(text.contains("a rare one") && text.contains("error: broken"));
        assert!(text.ends_with(
            "note: `datapages check` lists every warning in full\n1 error, 21 warnings in 10 files\n"
        ), "{text}");
        // Nothing folded: exactly what write_to gives.
        let mut all = Vec::new();
        diagnostics.write_to(false, &mut all).unwrap();
        assert_eq!(
            folded(&diagnostics, usize::MAX),
            String::from_utf8(all).unwrap()
        );
    }

    #[test]
    fn warnings_that_differ_only_in_their_hint_are_two_warnings() {
        let mut diagnostics = Diagnostics::new();
        for hint in ["one way", "another way"] {
            for n in 0..2 {
                diagnostics.push(Diagnostic::warning(format!("f{n}.md"), "same").with_hint(hint));
            }
        }
        let text = folded(&diagnostics, 2);
        assert!(!text.contains("note:"), "{text}");
        assert_eq!(text.matches("warning: same").count(), 4);
    }
}
