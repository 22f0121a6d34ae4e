//! Watching the site's sources with notify and reducing bursts of raw events (an editor's
//! save is often several) to one set of [`Change`]s.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use notify::{RecursiveMode, Watcher};

use crate::incremental::{classify, Change};
use crate::layout::SOURCE_DIRS;

/// How long the tree must stay quiet before a burst of events counts as one change.
pub const QUIET: Duration = Duration::from_millis(25);

/// The longest a burst is collected before rebuilding anyway.
const LONGEST_BURST: Duration = Duration::from_millis(400);

/// What the rebuild loop waits for.
#[derive(Debug)]
pub enum Message {
    Files(notify::Result<notify::Event>),
    Stop,
}

/// A watcher's error for the terminal: what failed, what it means for the preview, and what
/// to do (the watcher goes on; only the edits it could not see are missed).
pub fn explain(error: &notify::Error) -> String {
    use notify::ErrorKind;
    let paths: Vec<String> = error
        .paths
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let place = if paths.is_empty() {
        String::new()
    } else {
        format!(" ({})", paths.join(", "))
    };
    let hint = match &error.kind {
        ErrorKind::MaxFilesWatch => {
            "the system's limit on watched folders is reached, so edits in some folders go \
             unseen: raise it (on Linux `sudo sysctl fs.inotify.max_user_watches=524288`) and \
             restart `datapages serve`"
        }
        ErrorKind::PathNotFound | ErrorKind::WatchNotFound => {
            "a watched folder went away; edits in a folder made again are picked up once \
             `datapages serve` is restarted"
        }
        ErrorKind::Io(_) | ErrorKind::Generic(_) | ErrorKind::InvalidConfig(_) => {
            "edits made meanwhile may have been missed: save the file again, or restart \
             `datapages serve` if edits stop showing"
        }
    };
    format!("watch error{place}: {error}\n  = help: {hint}")
}

/// Starts watching the source folders (recursively) and the root itself (for site.toml and
/// for source folders created later).
pub fn start(root: &Path, sender: Sender<Message>) -> notify::Result<notify::RecommendedWatcher> {
    let mut watcher = notify::recommended_watcher(move |event| {
        let _ = sender.send(Message::Files(event));
    })?;
    watcher.watch(root, RecursiveMode::NonRecursive)?;
    for dir in SOURCE_DIRS {
        let path = root.join(dir);
        if path.is_dir() {
            watcher.watch(&path, RecursiveMode::Recursive)?;
        }
    }
    Ok(watcher)
}

/// Whether an event can change what a file holds (reads, opens and metadata changes cannot:
/// the build itself reads every source, and must not trigger another build).
pub fn changes_content(kind: &notify::EventKind) -> bool {
    use notify::event::{EventKind, ModifyKind};
    closed_after_writing(kind)
        || matches!(
            kind,
            EventKind::Create(_)
                | EventKind::Remove(_)
                | EventKind::Modify(
                    ModifyKind::Data(_) | ModifyKind::Name(_) | ModifyKind::Any | ModifyKind::Other
                )
        )
}

/// A file closed after writing: the save is complete, so the burst can end almost at once.
fn closed_after_writing(kind: &notify::EventKind) -> bool {
    use notify::event::{AccessKind, AccessMode, EventKind};
    matches!(
        kind,
        EventKind::Access(AccessKind::Close(AccessMode::Write))
    )
}

/// The quiet period after a save that closed its file: other files of the same save
/// (an editor's rename, a second file written by a script) still arrive within it.
const QUIET_AFTER_CLOSE: Duration = Duration::from_millis(3);

/// Whether the platform's watcher reports a file closed after writing (inotify does): only
/// then can a burst wait for a file still being written to be closed.
const REPORTS_CLOSE: bool = cfg!(target_os = "linux");

/// How long a file still being written (changed, not yet closed) may stay silent before
/// the burst ends anyway: a program saving a large CSV pauses between chunks, and a build
/// that read half the file flashed its errors in the browser.
const WRITE_PAUSE: Duration = Duration::from_secs(2);

/// The longest a burst waits for files still being written.
const LONGEST_WRITE: Duration = Duration::from_secs(60);

/// The events of one burst: the paths they name, and the files written but not yet closed.
struct Burst {
    paths: Vec<PathBuf>,
    writing: BTreeSet<PathBuf>,
    /// How long to wait for the next event before the burst ends.
    quiet: Duration,
}

impl Burst {
    fn add(&mut self, event: notify::Event) {
        use notify::event::{EventKind, ModifyKind};
        if !changes_content(&event.kind) {
            return;
        }
        let closed = closed_after_writing(&event.kind);
        let written = matches!(
            event.kind,
            EventKind::Modify(ModifyKind::Data(_) | ModifyKind::Any)
        );
        for path in &event.paths {
            if closed || matches!(event.kind, EventKind::Remove(_)) {
                self.writing.remove(path);
            } else if written && REPORTS_CLOSE {
                self.writing.insert(path.clone());
            }
        }
        self.quiet = match (self.writing.is_empty(), closed) {
            (false, _) => WRITE_PAUSE,
            (true, true) => QUIET_AFTER_CLOSE,
            (true, false) => QUIET,
        };
        self.paths.extend(event.paths);
    }

    /// Whether the burst goes on after `elapsed`: at most [`LONGEST_BURST`], or
    /// [`LONGEST_WRITE`] while a file is still being written.
    fn goes_on(&self, elapsed: Duration) -> bool {
        elapsed < LONGEST_BURST || (!self.writing.is_empty() && elapsed < LONGEST_WRITE)
    }
}

/// Collects a burst of events starting with `first` and reduces it to changes. Stops early
/// (returning `true`) when asked to stop.
pub fn collect(
    first: notify::Event,
    messages: &Receiver<Message>,
    root: &Path,
    output: &Path,
    watcher: &mut notify::RecommendedWatcher,
) -> (BTreeSet<Change>, bool) {
    let started = Instant::now();
    let mut burst = Burst {
        paths: Vec::new(),
        writing: BTreeSet::new(),
        quiet: QUIET,
    };
    burst.add(first);
    let mut stop = false;
    while burst.goes_on(started.elapsed()) {
        match messages.recv_timeout(burst.quiet) {
            Ok(Message::Files(Ok(event))) => burst.add(event),
            Ok(Message::Files(Err(error))) => eprintln!("{}", explain(&error)),
            Ok(Message::Stop) => {
                stop = true;
                break;
            }
            Err(RecvTimeoutError::Timeout) => break,
            Err(RecvTimeoutError::Disconnected) => {
                stop = true;
                break;
            }
        }
    }
    let paths = burst.paths;
    let mut changes = BTreeSet::new();
    for path in paths {
        // A source folder created after start: watch it too.
        if path.parent() == Some(root)
            && SOURCE_DIRS.iter().any(|d| path.ends_with(d))
            && path.is_dir()
        {
            let _ = watcher.watch(&path, RecursiveMode::Recursive);
        }
        let in_sources = SOURCE_DIRS.iter().any(|d| path.starts_with(root.join(d)));
        if path.is_dir() {
            if !in_sources {
                // The root itself, the output folder, staging folders: not sources.
                continue;
            }
            // A folder moved in brings files that raise no events of their own.
            for entry in walkdir::WalkDir::new(&path).into_iter().flatten() {
                if entry.file_type().is_file() {
                    changes.extend(classify(root, output, entry.path()));
                }
            }
        } else {
            changes.extend(classify(root, output, &path));
        }
    }
    (changes, stop)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A program saving a large CSV in chunks, 100 ms apart (longer than the quiet period,
    /// and for longer than a burst lasts): the burst ends once the file is closed, not
    /// with half of it written.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_still_being_written_ends_the_burst_only_once_closed() {
        use notify::event::{AccessKind, AccessMode, DataChange, EventKind, ModifyKind};
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        std::fs::create_dir_all(root.join("data/datasets")).unwrap();
        let csv = root.join("data/datasets/big.csv");
        std::fs::write(&csv, "a\n1\n").unwrap();
        let event = move |kind| notify::Event::new(kind).add_path(csv.clone());
        let written = EventKind::Modify(ModifyKind::Data(DataChange::Content));
        let (sender, messages) = std::sync::mpsc::channel();
        let closed = Arc::new(AtomicBool::new(false));
        let (first, writer) = (event(written), {
            let closed = Arc::clone(&closed);
            std::thread::spawn(move || {
                for _ in 0..8 {
                    std::thread::sleep(Duration::from_millis(100));
                    sender.send(Message::Files(Ok(event(written)))).unwrap();
                }
                closed.store(true, Ordering::SeqCst);
                let close = EventKind::Access(AccessKind::Close(AccessMode::Write));
                sender.send(Message::Files(Ok(event(close)))).unwrap();
                sender
            })
        });
        let mut watcher = notify::recommended_watcher(|_| {}).unwrap();
        let (changes, stop) = collect(first, &messages, &root, &root.join("public"), &mut watcher);
        assert!(
            closed.load(Ordering::SeqCst),
            "the burst ended while the file was still being written"
        );
        assert!(!stop && !changes.is_empty(), "{changes:?}");
        drop(writer.join().unwrap());
    }

    #[test]
    fn a_watch_error_says_where_and_what_to_do() {
        let error = notify::Error::new(notify::ErrorKind::MaxFilesWatch)
            .add_path(PathBuf::from("content/big"));
        let text = explain(&error);
        assert!(text.starts_with("watch error (content/big): "), "{text}");
        assert!(text.contains("max_user_watches"), "{text}");
        let error = notify::Error::io(std::io::Error::other("queue overflow"));
        let text = explain(&error);
        assert!(
            text.contains("queue overflow") && text.contains("save the file again"),
            "{text}"
        );
    }
}
