//! Problems found in a site, located in the file a person edits.
//!
//! Every stage of a build reports into [`Diagnostics`] instead of stopping at the first
//! problem, so one `datapages check` shows everything that needs fixing. A diagnostic
//! carries the file, line and column and the offending source line, so the terminal
//! (and later the browser overlay) can point at the spot with a caret.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

mod error;
mod folded;
mod kept;
pub use error::Error;
pub use folded::SHOWN_PER_WARNING;

/// How bad a problem is: errors stop a build, warnings do not (unless `--strict`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The build stops; nothing is written.
    Error,
    /// The build goes on; `check --strict` fails.
    Warning,
}

/// One problem, with where it is and what to do about it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Diagnostic {
    /// Whether it stops the build.
    pub severity: Severity,
    /// The file, relative to the site root where possible.
    pub file: PathBuf,
    /// 1-based line in `file`, when the problem has one (u32 keeps the type small
    /// enough to return by value everywhere).
    pub line: Option<u32>,
    /// 1-based column (in characters) on that line.
    pub column: Option<u32>,
    /// What is wrong, in one sentence. Most messages and hints are fixed texts: borrowed,
    /// a catalog's tens of thousands of warnings do not each allocate them.
    pub message: Cow<'static, str>,
    /// The text of the offending line, for the caret display.
    pub source_line: Option<String>,
    /// Set when `source_line` holds only the part of a long line that is shown (see
    /// [`Diagnostic::with_source_excerpt`]): the caret's place in it. At most 102, the
    /// shown width and two ellipses: small, so a `Diagnostic` stays small to return.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caret: Option<u16>,
    /// What to do about it.
    pub hint: Option<Cow<'static, str>>,
}

impl Diagnostic {
    /// Where it is, as the report is sorted: file, line, column (none before any).
    fn place(&self) -> (&Path, u32, u32) {
        (&self.file, self.line.unwrap_or(0), self.column.unwrap_or(0))
    }

    /// An error in `file`, not yet located on a line.
    pub fn error(file: impl Into<PathBuf>, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(Severity::Error, file, message)
    }

    /// A warning in `file`, not yet located on a line.
    pub fn warning(file: impl Into<PathBuf>, message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(Severity::Warning, file, message)
    }

    fn new(
        severity: Severity,
        file: impl Into<PathBuf>,
        message: impl Into<Cow<'static, str>>,
    ) -> Self {
        Diagnostic {
            severity,
            file: file.into(),
            line: None,
            column: None,
            message: message.into(),
            source_line: None,
            caret: None,
            hint: None,
        }
    }

    /// The same problem at another severity.
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// Locates the problem at a 1-based line and column.
    pub fn at(mut self, line: usize, column: usize) -> Self {
        self.line = Some(to_u32(line));
        self.column = Some(to_u32(column));
        self
    }

    /// Locates the problem at a line, without a column.
    pub fn at_line(mut self, line: usize) -> Self {
        self.line = Some(to_u32(line));
        self
    }

    /// Attaches the offending source line, shown with a caret under the column.
    pub fn with_source_line(mut self, text: impl Into<String>) -> Self {
        self.source_line = Some(text.into());
        self
    }

    /// Attaches only the part of `text` (the offending line) that [`Diagnostic::render`]
    /// shows around the column set by [`Diagnostic::at`]: a problem on a line of a megabyte
    /// (a wide CSV header) keeps a hundred characters, not the line. `line` is split into
    /// characters once by the caller, for all the problems on it.
    pub fn with_source_excerpt(mut self, line: &[char]) -> Self {
        let Some(column) = self.column else {
            return self.with_source_line(line.iter().collect::<String>());
        };
        let shown = shorten_chars(line, column as usize);
        self.source_line = Some(shown.text);
        self.caret = shown.caret.map(|c| u16::try_from(c).unwrap_or(u16::MAX));
        self
    }

    /// Attaches the source line taken from the whole text of the file, if the line is known.
    pub fn with_source_from(mut self, file_text: &str) -> Self {
        if let Some(line) = self.line {
            if let Some(text) = file_text.lines().nth(line.saturating_sub(1) as usize) {
                self.source_line = Some(text.trim_end_matches('\r').to_string());
            }
        }
        self
    }

    /// Adds advice on how to fix it.
    pub fn with_hint(mut self, hint: impl Into<Cow<'static, str>>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// `file:line:column`, as editors and terminals understand it.
    pub fn location(&self) -> String {
        let mut out = self.file.display().to_string();
        if let Some(line) = self.line {
            let _ = write!(out, ":{line}");
            if let Some(column) = self.column {
                let _ = write!(out, ":{column}");
            }
        }
        out
    }

    /// Renders the diagnostic in the style of rustc: headline, location, source line, caret, hint.
    pub fn render(&self, color: bool) -> String {
        let (label, paint) = match self.severity {
            Severity::Error => ("error", "\x1b[1;31m"),
            Severity::Warning => ("warning", "\x1b[1;33m"),
        };
        let (bold, blue, reset) = if color {
            ("\x1b[1m", "\x1b[1;34m", "\x1b[0m")
        } else {
            ("", "", "")
        };
        let paint = if color { paint } else { "" };
        let mut out = String::new();
        // What the files say (names, headers, cells) is shown, never sent to the terminal.
        let shown = crate::text::visible_text;
        let _ = writeln!(
            out,
            "{paint}{label}{reset}{bold}: {}{reset}",
            shown(&self.message)
        );
        let gutter = self.line.map(|l| l.to_string().len()).unwrap_or(1);
        let pad = " ".repeat(gutter);
        let _ = writeln!(out, "{pad}{blue}-->{reset} {}", shown(&self.location()));
        if let (Some(line), Some(text)) = (self.line, &self.source_line) {
            let shown = match self.caret {
                Some(caret) => ShownLine {
                    text: text.clone(),
                    caret: Some(usize::from(caret)),
                },
                None => shorten_for_display(text, self.column.unwrap_or(1) as usize),
            };
            let _ = writeln!(out, "{pad} {blue}|{reset}");
            let _ = writeln!(out, "{blue}{line}{reset} {blue}|{reset} {}", shown.text);
            if let (Some(caret_at), Some(_)) = (shown.caret, self.column) {
                let _ = writeln!(
                    out,
                    "{pad} {blue}|{reset} {}{paint}^{reset}",
                    " ".repeat(caret_at.saturating_sub(1))
                );
            }
        }
        if let Some(hint) = &self.hint {
            let _ = writeln!(
                out,
                "{pad} {blue}={reset} {bold}hint{reset}: {}",
                shown(hint)
            );
        }
        out
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A source line cut to a readable width around the column, with the caret position in it.
struct ShownLine {
    text: String,
    caret: Option<usize>,
}

const SHOWN_WIDTH: usize = 100;

fn shorten_for_display(text: &str, column: usize) -> ShownLine {
    shorten_chars(&text.chars().collect::<Vec<_>>(), column)
}

/// [`shorten_for_display`] on a line already split into characters: only the part shown
/// is looked at, so many problems on one long line (a wide CSV header) cost little each.
fn shorten_chars(chars: &[char], column: usize) -> ShownLine {
    // Control characters from a hostile file would drive the terminal (ESC starts escape
    // sequences): show a visible stand-in, one character for one so the caret stays put.
    let visible = |c: &char| {
        if *c == '\t' {
            ' '
        } else {
            crate::text::visible(*c)
        }
    };
    if chars.len() <= SHOWN_WIDTH {
        return ShownLine {
            text: chars.iter().map(visible).collect(),
            caret: Some(column.max(1)),
        };
    }
    let start = column
        .saturating_sub(SHOWN_WIDTH / 2)
        .min(chars.len() - SHOWN_WIDTH);
    let end = (start + SHOWN_WIDTH).min(chars.len());
    let mut shown = String::new();
    let mut caret = column.saturating_sub(start).max(1);
    if start > 0 {
        shown.push('…');
        caret += 1;
    }
    shown.extend(chars[start..end].iter().map(visible));
    if end < chars.len() {
        shown.push('…');
    }
    ShownLine {
        text: shown,
        caret: Some(caret),
    }
}

/// All problems of one build or check, in the order they were found per file.
#[derive(Debug, Default, Clone)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
    /// Set by [`Diagnostics::folding`]: which warnings are kept, and how many there were.
    kept: Option<Box<kept::Kept>>,
}

impl Diagnostics {
    /// No problems yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one problem.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        match &mut self.kept {
            Some(kept) => {
                let order = kept.next_order();
                kept.push(&mut self.items, diagnostic, order);
            }
            None => self.items.push(diagnostic),
        }
    }

    /// Room for `more` problems at once (a catalog's warnings number in the tens of
    /// thousands: growing one doubling at a time holds two copies at the build's peak).
    /// Nothing when folding: most are only counted.
    pub fn reserve(&mut self, more: usize) {
        if self.kept.is_none() {
            self.items.reserve_exact(more);
        }
    }

    /// Adds problems, in their order.
    pub fn extend(&mut self, other: impl IntoIterator<Item = Diagnostic>) {
        match self.kept {
            Some(_) => other.into_iter().for_each(|d| self.push(d)),
            None => self.items.extend(other),
        }
    }

    /// Every problem kept (all of them unless [`Diagnostics::folding`]), in the order
    /// found (or sorted, after [`Diagnostics::sort`]).
    pub fn items(&self) -> &[Diagnostic] {
        &self.items
    }

    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// How many problems stop the build.
    pub fn error_count(&self) -> usize {
        self.count(Severity::Error)
    }

    /// How many problems do not (kept or not).
    pub fn warning_count(&self) -> usize {
        match &self.kept {
            Some(kept) => kept.warnings(),
            None => self.count(Severity::Warning),
        }
    }

    /// How many places in all the warning at `item` of [`Diagnostics::items`] has, when
    /// folding (kept or not).
    fn places_of(&self, item: usize) -> Option<usize> {
        self.kept.as_ref()?.total_of(item)
    }

    /// Whether any problem stops the build.
    pub fn has_errors(&self) -> bool {
        self.error_count() > 0
    }

    fn count(&self, severity: Severity) -> usize {
        self.items.iter().filter(|d| d.severity == severity).count()
    }

    /// Sorts by file, then line, so the report reads top to bottom per file.
    /// Stable, so problems on one line keep the order they were found in.
    pub fn sort(&mut self) {
        // A stable sort of the problems themselves would take a buffer of up to as many
        // problems (120 bytes each: 2.4 MB for a catalog's 20,000 warnings, at the build's
        // peak); the order is found on positions and then applied in place.
        let items = &mut self.items;
        let mut order: Vec<usize> = (0..items.len()).collect();
        match &mut self.kept {
            Some(kept) => {
                order.sort_by(|&a, &b| kept.key_of(items, a).cmp(&kept.key_of(items, b)));
                kept.rearrange(&order);
            }
            None => order.sort_by(|&a, &b| items[a].place().cmp(&items[b].place())),
        }
        apply_order(items, &mut order);
    }

    /// "3 errors, 1 warning in 2 files".
    pub fn summary(&self) -> String {
        let files = match &self.kept {
            Some(kept) => kept.file_count(),
            None => BTreeSet::<&Path>::from_iter(self.items.iter().map(|d| &*d.file)).len(),
        };
        let errors = self.error_count();
        let warnings = self.warning_count();
        format!(
            "{} {}, {} {} in {} {}",
            errors,
            plural(errors, "error", "errors"),
            warnings,
            plural(warnings, "warning", "warnings"),
            files,
            plural(files, "file", "files")
        )
    }

    /// Every diagnostic rendered, then the summary line.
    pub fn render(&self, color: bool) -> String {
        let mut out = Vec::new();
        // Writing into a Vec cannot fail.
        let _ = self.write_to(color, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// [`Diagnostics::render`] written one diagnostic at a time: the 20,000 warnings of a
    /// 10,000-dataset catalog rendered into one string added 5 MiB to the build's peak,
    /// at its very end. Every warning in full ([`Diagnostics::write_folded`] folds none).
    pub fn write_to(&self, color: bool, out: &mut impl std::io::Write) -> std::io::Result<()> {
        self.write_folded(color, usize::MAX, out)
    }
}

impl FromIterator<Diagnostic> for Diagnostics {
    fn from_iter<I: IntoIterator<Item = Diagnostic>>(iter: I) -> Self {
        Diagnostics {
            items: iter.into_iter().collect(),
            kept: None,
        }
    }
}

/// Every kept problem (the counts of folded warnings stay behind).
impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

/// Picks the singular or plural noun for a count.
pub fn plural<'a>(count: usize, one: &'a str, many: &'a str) -> &'a str {
    if count == 1 {
        one
    } else {
        many
    }
}

/// Turns a byte offset in `text` into a 1-based (line, column in characters).
pub fn line_column(text: &str, byte_offset: usize) -> (usize, usize) {
    let offset = byte_offset.min(text.len());
    let before = &text[..floor_char_boundary(text, offset)];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

fn floor_char_boundary(text: &str, mut index: usize) -> usize {
    while index > 0 && !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

/// The closest candidate to `word`, if one is near enough to be a likely typo.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .filter_map(|candidate| Some((nearness(word, candidate)?, candidate)))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, candidate)| candidate)
}

/// How near `candidate` is to `word` (higher is nearer), when near enough for
/// [`did_you_mean`] to offer it.
pub fn nearness(word: &str, candidate: &str) -> Option<f64> {
    let score = strsim::jaro_winkler(word, candidate);
    (score > 0.8).then_some(score)
}

/// Rearranges `items` so that position `i` holds what was at `order[i]` (a permutation),
/// following each cycle once; `order` is left as the identity.
fn apply_order<T>(items: &mut [T], order: &mut [usize]) {
    for start in 0..items.len() {
        let mut current = start;
        while order[current] != current {
            let next = order[current];
            order[current] = current;
            if next == start {
                break;
            }
            items.swap(current, next);
            current = next;
        }
    }
}

#[cfg(test)]
mod tests;
