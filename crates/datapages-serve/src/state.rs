//! What the preview server shares between the rebuild loop and request threads: which
//! build generation is live, which URLs each rebuild changed, and the current errors.
//! Passed explicitly (an `Arc`), never a global.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Condvar, Mutex, MutexGuard, RwLock};
use std::time::Duration;

use serde::Serialize;

use crate::diagnostics::{Diagnostic, Diagnostics};

/// How many past rebuilds a poller may catch up on before it is simply told to reload.
const HISTORY: usize = 64;

/// One problem as the browser overlay shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OverlayError {
    pub location: String,
    pub message: String,
    /// The rustc-style rendering, with the source line and caret.
    pub text: String,
}

impl OverlayError {
    fn from_diagnostic(d: &Diagnostic) -> Self {
        OverlayError {
            location: d.location(),
            message: d.message.to_string(),
            text: d.render(false),
        }
    }
}

/// What a rebuild changed, as the browser needs it.
#[derive(Debug, Clone, PartialEq)]
pub enum Changed {
    /// Everything (templates, site.toml).
    All,
    /// These URL paths (`/datasets/x/`, `/style.css`).
    Paths(Vec<String>),
}

#[derive(Debug)]
struct Live {
    generation: u64,
    history: VecDeque<(u64, Changed)>,
    errors: Vec<OverlayError>,
}

/// The answer to a poll: what the page at `path` should do.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PollAnswer {
    pub generation: u64,
    /// Reload the page.
    pub reload: bool,
    /// Stylesheets to refresh in place (site-relative paths), when only CSS changed.
    pub css: Vec<String>,
    /// Errors of the last rebuild; empty when it succeeded.
    pub errors: Vec<OverlayError>,
}

/// Shared preview state.
#[derive(Debug)]
pub struct PreviewState {
    /// The folder being served.
    pub output: PathBuf,
    /// Held for reading while a request opens a file, for writing while a full rebuild
    /// swaps the output folder: no request sees the folder missing.
    pub swap: RwLock<()>,
    live: Mutex<Live>,
    changed: Condvar,
}

impl PreviewState {
    pub fn new(output: PathBuf) -> Self {
        PreviewState {
            output,
            swap: RwLock::new(()),
            live: Mutex::new(Live {
                generation: 1,
                history: VecDeque::new(),
                errors: Vec::new(),
            }),
            changed: Condvar::new(),
        }
    }

    fn live(&self) -> MutexGuard<'_, Live> {
        self.live
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The generation now being served.
    pub fn generation(&self) -> u64 {
        self.live().generation
    }

    /// Records a successful rebuild and wakes the pollers.
    pub fn publish(&self, changed: Changed) {
        let mut live = self.live();
        live.generation += 1;
        let generation = live.generation;
        live.history.push_back((generation, changed));
        while live.history.len() > HISTORY {
            live.history.pop_front();
        }
        live.errors.clear();
        self.changed.notify_all();
    }

    /// Records a failed rebuild: the old pages stay, the overlay shows these.
    pub fn fail(&self, diagnostics: &Diagnostics) {
        let mut live = self.live();
        live.generation += 1;
        let generation = live.generation;
        live.history
            .push_back((generation, Changed::Paths(Vec::new())));
        live.errors = diagnostics
            .items()
            .iter()
            .filter(|d| d.severity == crate::diagnostics::Severity::Error)
            .map(OverlayError::from_diagnostic)
            .collect();
        self.changed.notify_all();
    }

    /// Waits (up to `timeout`) for a generation after `since`, then says what the page at
    /// `path` should do. A page's `first` poll returns at once while there are errors, so a
    /// page loaded during a broken build shows the overlay straight away.
    pub fn poll(&self, since: u64, path: &str, first: bool, timeout: Duration) -> PollAnswer {
        let live = self.live();
        let (live, _) = self
            .changed
            .wait_timeout_while(live, timeout, |l| {
                l.generation <= since && (!first || l.errors.is_empty())
            })
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut answer = PollAnswer {
            generation: live.generation,
            reload: false,
            css: Vec::new(),
            errors: live.errors.clone(),
        };
        if live.generation <= since {
            return answer;
        }
        let oldest_known = live.history.front().map(|(g, _)| *g).unwrap_or(u64::MAX);
        if since + 1 < oldest_known {
            answer.reload = true;
            return answer;
        }
        let page = normalise(path);
        for (_, changed) in live.history.iter().filter(|(g, _)| *g > since) {
            match changed {
                Changed::All => answer.reload = true,
                Changed::Paths(paths) => {
                    for changed_path in paths {
                        if changed_path.ends_with(".css") {
                            answer.css.push(changed_path.clone());
                        } else if normalise(changed_path) == page || changed_path.ends_with(".js") {
                            answer.reload = true;
                        }
                    }
                }
            }
        }
        answer
    }
}

/// `/datasets/x/index.html` and `/datasets/x/` are the same page.
fn normalise(path: &str) -> &str {
    path.strip_suffix("index.html").unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> PreviewState {
        PreviewState::new(PathBuf::from("/tmp/none"))
    }

    #[test]
    fn pages_reload_only_when_they_changed() {
        let s = state();
        let g = s.generation();
        s.publish(Changed::Paths(vec!["/datasets/a/".into(), "/".into()]));
        let answer = s.poll(g, "/datasets/a/", false, Duration::ZERO);
        assert!(answer.reload);
        assert!(!s.poll(g, "/datasets/b/", false, Duration::ZERO).reload);
        assert!(
            s.poll(g, "/datasets/a/index.html", false, Duration::ZERO)
                .reload
        );
        assert!(s.poll(g, "/", false, Duration::ZERO).reload);
    }

    #[test]
    fn css_changes_swap_stylesheets_and_everything_reloads_all() {
        let s = state();
        let g = s.generation();
        s.publish(Changed::Paths(vec!["/style.css".into()]));
        let answer = s.poll(g, "/datasets/a/", false, Duration::ZERO);
        assert_eq!(
            (answer.reload, answer.css),
            (false, vec!["/style.css".to_string()])
        );
        s.publish(Changed::All);
        assert!(s.poll(g + 1, "/anything/", false, Duration::ZERO).reload);
    }

    #[test]
    fn failures_show_errors_until_the_next_success() {
        let s = state();
        let g = s.generation();
        let mut diagnostics = Diagnostics::new();
        diagnostics.push(Diagnostic::error("content/datasets/a.md", "bad").at(3, 1));
        s.fail(&diagnostics);
        let fresh = s.poll(g + 1, "/datasets/a/", true, Duration::from_secs(5));
        assert_eq!(
            fresh.errors.len(),
            1,
            "a freshly loaded page sees the errors at once"
        );
        let answer = s.poll(g, "/datasets/a/", false, Duration::ZERO);
        assert!(!answer.reload);
        assert_eq!(answer.errors[0].location, "content/datasets/a.md:3:1");
        s.publish(Changed::Paths(vec!["/datasets/a/".into()]));
        let answer = s.poll(g + 1, "/datasets/a/", false, Duration::ZERO);
        assert!(answer.reload && answer.errors.is_empty());
    }

    #[test]
    fn a_poll_waits_for_the_next_generation() {
        let s = std::sync::Arc::new(state());
        let g = s.generation();
        let waiter = {
            let s = std::sync::Arc::clone(&s);
            std::thread::spawn(move || s.poll(g, "/", false, Duration::from_secs(5)))
        };
        std::thread::sleep(Duration::from_millis(50));
        s.publish(Changed::Paths(vec!["/".into()]));
        let answer = waiter.join().unwrap();
        assert_eq!(answer.generation, g + 1);
        assert!(answer.reload);
    }

    #[test]
    fn stale_pollers_reload() {
        let s = state();
        for _ in 0..(HISTORY + 5) {
            s.publish(Changed::Paths(Vec::new()));
        }
        assert!(s.poll(1, "/x/", false, Duration::ZERO).reload);
    }
}
