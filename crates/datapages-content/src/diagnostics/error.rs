//! The library's one error type: the problems of a site, or a refusal from outside it.

use std::fmt::Write as _;

use super::{Diagnostic, Diagnostics};

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
    pub fn environment(
        message: impl Into<String>,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        Error::Environment {
            message: message.into(),
            source: Some(source.into()),
        }
    }

    /// An [`Error::Environment`] that is its own reason.
    pub fn environment_message(message: impl Into<String>) -> Self {
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

#[cfg(test)]
mod tests {
    use super::*;

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
