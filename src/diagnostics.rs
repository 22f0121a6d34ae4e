//! Problems found in a site, located in the file a person edits.
//!
//! Every stage of a build reports into [`Diagnostics`] instead of stopping at the first
//! problem, so one `datapages check` shows everything that needs fixing. A diagnostic
//! carries the file, line and column and the offending source line, so the terminal
//! (and later the browser overlay) can point at the spot with a caret.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

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
    /// What is wrong, in one sentence.
    pub message: String,
    /// The text of the offending line, for the caret display.
    pub source_line: Option<String>,
    /// What to do about it.
    pub hint: Option<String>,
}

impl Diagnostic {
    /// An error in `file`, not yet located on a line.
    pub fn error(file: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, file, message)
    }

    /// A warning in `file`, not yet located on a line.
    pub fn warning(file: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, file, message)
    }

    fn new(severity: Severity, file: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            file: file.into(),
            line: None,
            column: None,
            message: message.into(),
            source_line: None,
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
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
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
            let shown = shorten_for_display(text, self.column.unwrap_or(1) as usize);
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
    // Control characters from a hostile file would drive the terminal (ESC starts escape
    // sequences): show a visible stand-in, one character for one so the caret stays put.
    let chars: Vec<char> = text
        .chars()
        .map(|c| {
            if c == '\t' {
                ' '
            } else {
                crate::text::visible(c)
            }
        })
        .collect();
    if chars.len() <= SHOWN_WIDTH {
        return ShownLine {
            text: chars.into_iter().collect(),
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
    shown.extend(&chars[start..end]);
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
}

impl Diagnostics {
    /// No problems yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one problem.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.items.push(diagnostic);
    }

    /// Adds problems, in their order.
    pub fn extend(&mut self, other: impl IntoIterator<Item = Diagnostic>) {
        self.items.extend(other);
    }

    /// Every problem, in the order found (or sorted, after [`Diagnostics::sort`]).
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

    /// How many problems do not.
    pub fn warning_count(&self) -> usize {
        self.count(Severity::Warning)
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
        self.items.sort_by(|a, b| {
            (&a.file, a.line.unwrap_or(0), a.column.unwrap_or(0)).cmp(&(
                &b.file,
                b.line.unwrap_or(0),
                b.column.unwrap_or(0),
            ))
        });
    }

    /// "3 errors, 1 warning in 2 files".
    pub fn summary(&self) -> String {
        let files: BTreeSet<&Path> = self.items.iter().map(|d| d.file.as_path()).collect();
        let errors = self.error_count();
        let warnings = self.warning_count();
        format!(
            "{} {}, {} {} in {} {}",
            errors,
            plural(errors, "error", "errors"),
            warnings,
            plural(warnings, "warning", "warnings"),
            files.len(),
            plural(files.len(), "file", "files")
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
    /// at its very end.
    pub fn write_to(&self, color: bool, out: &mut impl std::io::Write) -> std::io::Result<()> {
        for diagnostic in &self.items {
            writeln!(out, "{}", diagnostic.render(color))?;
        }
        writeln!(out, "{}", self.summary())
    }
}

impl FromIterator<Diagnostic> for Diagnostics {
    fn from_iter<I: IntoIterator<Item = Diagnostic>>(iter: I) -> Self {
        Diagnostics {
            items: iter.into_iter().collect(),
        }
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

/// Why a call into the library failed: the one error type of every public entry point.
///
/// Most failures are [`Error::Problems`]: every problem found in the site's files, located,
/// with the warnings found along the way. `Display` writes them without colour; a terminal
/// asks [`Error::render`] for colour.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// Problems in the site's files (errors, and the warnings found beside them).
    Problems(Diagnostics),
    /// Something that is not a file of the site refused: a port in use, an address that
    /// does not parse, a folder watcher that cannot start.
    Environment {
        /// What could not be done, e.g. "cannot watch /site".
        message: String,
        /// Why, when the system said so.
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
}

impl Error {
    /// An [`Error::Environment`] with the system's reason.
    pub(crate) fn environment(
        message: impl Into<String>,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        Error::Environment {
            message: message.into(),
            source: Some(source.into()),
        }
    }

    /// An [`Error::Environment`] that is its own reason.
    pub(crate) fn environment_message(message: impl Into<String>) -> Self {
        Error::Environment {
            message: message.into(),
            source: None,
        }
    }

    /// The located problems, when the failure is in the site's files.
    pub fn diagnostics(&self) -> Option<&Diagnostics> {
        match self {
            Error::Problems(diagnostics) => Some(diagnostics),
            Error::Environment { .. } => None,
        }
    }

    /// For a terminal: every diagnostic and the summary line, or `error: ` and the reason
    /// with its causes.
    pub fn render(&self, color: bool) -> String {
        match self {
            Error::Problems(diagnostics) => diagnostics.render(color),
            Error::Environment { .. } => {
                let mut out = format!("error: {self}");
                let mut cause = std::error::Error::source(self);
                while let Some(reason) = cause {
                    let _ = write!(out, ": {reason}");
                    cause = reason.source();
                }
                out.push('\n');
                out
            }
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Problems(diagnostics) => f.write_str(diagnostics.render(false).trim_end()),
            Error::Environment { message, .. } => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Problems(_) => None,
            Error::Environment { source, .. } => source
                .as_deref()
                .map(|s| s as &(dyn std::error::Error + 'static)),
        }
    }
}

impl From<Diagnostics> for Error {
    fn from(diagnostics: Diagnostics) -> Self {
        Error::Problems(diagnostics)
    }
}

impl From<Vec<Diagnostic>> for Error {
    fn from(problems: Vec<Diagnostic>) -> Self {
        Error::Problems(problems.into_iter().collect())
    }
}

impl From<Diagnostic> for Error {
    fn from(problem: Diagnostic) -> Self {
        Error::Problems(std::iter::once(problem).collect())
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
        .map(|candidate| (strsim::jaro_winkler(word, candidate), candidate))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_one_at_a_time_they_read_as_rendered_whole() {
        let mut all = Diagnostics::new();
        all.push(
            Diagnostic::warning("a.md", "first")
                .at(2, 3)
                .with_hint("do this"),
        );
        all.push(Diagnostic::error("b.csv", "second").with_source_line("x,y"));
        let mut written = Vec::new();
        all.write_to(false, &mut written).unwrap();
        let whole = format!(
            "{}\n{}\n{}\n",
            all.items()[0].render(false),
            all.items()[1].render(false),
            all.summary()
        );
        assert_eq!(String::from_utf8(written).unwrap(), whole);
        assert_eq!(all.render(false), whole);
    }

    #[test]
    fn line_column_counts_characters_not_bytes() {
        let text = "a = 1\nkicker = \"·x\"\n";
        let offset = text.find('x').unwrap();
        assert_eq!(line_column(text, offset), (2, 12));
        assert_eq!(line_column(text, 0), (1, 1));
    }

    #[test]
    fn render_points_a_caret_at_the_column() {
        let d = Diagnostic::error("data/x.csv", "not a number")
            .at(3, 5)
            .with_source_line("ab,cd,ef")
            .with_hint("write a plain number");
        let text = d.render(false);
        assert!(text.contains("error: not a number"), "{text}");
        assert!(text.contains("--> data/x.csv:3:5"), "{text}");
        assert!(text.contains("3 | ab,cd,ef"), "{text}");
        assert!(text.contains("  |     ^"), "{text}");
        assert!(text.contains("= hint: write a plain number"), "{text}");
    }

    #[test]
    fn summary_counts_errors_warnings_and_files() {
        let mut all = Diagnostics::new();
        all.push(Diagnostic::error("a", "x"));
        all.push(Diagnostic::error("a", "y"));
        all.push(Diagnostic::error("b", "z"));
        all.push(Diagnostic::warning("b", "w"));
        assert_eq!(all.summary(), "3 errors, 1 warning in 2 files");
    }

    #[test]
    fn did_you_mean_finds_near_misses_only() {
        let keys = ["title", "kicker", "headline"];
        assert_eq!(did_you_mean("titel", keys), Some("title"));
        assert_eq!(did_you_mean("headlines", keys), Some("headline"));
        assert_eq!(did_you_mean("zzz", keys), None);
    }

    #[test]
    fn control_characters_in_source_lines_are_shown_not_sent() {
        let rendered = Diagnostic::error("a.csv", "bad")
            .at(2, 3)
            .with_source_line("ab\u{1b}[2J\u{0}c")
            .render(false);
        assert!(rendered.contains("2 | ab␛[2J␀c"), "{rendered}");
        assert!(rendered.contains("  |   ^"), "{rendered}");
        assert!(!rendered.contains('\u{1b}'));
        let rendered = Diagnostic::error("a\u{7}.csv", "column `x\u{1b}]0;` is not documented")
            .with_hint("rename `x\u{1b}]0;`")
            .render(false);
        assert!(
            !rendered.chars().any(crate::text::is_forbidden),
            "{rendered:?}"
        );
        assert!(
            rendered.contains("column `x␛]0;` is not documented"),
            "{rendered}"
        );
    }

    #[test]
    fn long_lines_are_cut_around_the_column() {
        let long = "x".repeat(500);
        let shown = shorten_for_display(&long, 300);
        assert!(shown.text.chars().count() <= SHOWN_WIDTH + 2);
        assert!(shown.caret.unwrap() <= SHOWN_WIDTH + 1);
    }

    #[test]
    fn an_error_displays_its_problems_without_colour() {
        let error = Error::from(Diagnostic::error("site.toml", "no title").at(1, 1));
        let shown = error.to_string();
        assert!(shown.starts_with("error: no title\n"), "{shown}");
        assert!(shown.ends_with("1 error, 0 warnings in 1 file"), "{shown}");
        assert!(!shown.contains('\x1b'));
        assert!(std::error::Error::source(&error).is_none());
    }

    #[test]
    fn an_environment_error_keeps_its_cause() {
        let cause = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let error = Error::environment("cannot watch /site", cause);
        assert_eq!(error.to_string(), "cannot watch /site");
        assert_eq!(
            std::error::Error::source(&error).map(|s| s.to_string()),
            Some("gone".to_string())
        );
        assert_eq!(error.render(true), "error: cannot watch /site: gone\n");
        assert!(error.diagnostics().is_none());
    }
}
