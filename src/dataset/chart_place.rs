//! Where a chart's problem points: a key or value of its `[[charts]]` table, found by
//! its TOML span, else the table's header; every message starts with "chart `id`:".

use crate::content::spans::Locator;
use crate::diagnostics::Diagnostic;

/// Problems of one chart: `chart `<id>`: …`, at a key or value of its table, else at its
/// `[[charts]]` header.
pub(super) struct ChartPlace<'a> {
    pub(super) locator: &'a Locator<'a>,
    /// `charts[<n>]`.
    pub(super) path: String,
    pub(super) id: &'a str,
}

impl ChartPlace<'_> {
    pub(super) fn value(&self, key: &str) -> Option<usize> {
        self.locator.value(&format!("{}.{key}", self.path))
    }

    fn error(&self, message: String, at: Option<usize>) -> Diagnostic {
        let at = at.or_else(|| self.locator.value(&self.path));
        self.locator
            .error(format!("chart `{}`: {message}", self.id), at)
    }

    /// At `key` of the chart (`series`, `filter.kind`).
    pub(super) fn at_key(&self, key: &str, message: String) -> Diagnostic {
        let at = self.locator.key(&format!("{}.{key}", self.path));
        self.error(message, at)
    }

    /// At the value of `key` of the chart (`y`, `filter.kind[1]`).
    pub(super) fn at_value(&self, key: &str, message: String) -> Diagnostic {
        self.error(message, self.value(key))
    }
}
