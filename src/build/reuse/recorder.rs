//! An output sink that passes every file on to another and notes its path: the list of
//! files one dataset wrote, for the reuse manifest.

use std::io;
use std::path::Path;
use std::sync::Mutex;

use crate::output::{OutputSink, PendingFile};

/// Writes through `inner`, noting every path written.
pub(super) struct Recorder<'a> {
    inner: &'a dyn OutputSink,
    files: Mutex<Vec<String>>,
}

impl<'a> Recorder<'a> {
    pub fn new(inner: &'a dyn OutputSink) -> Self {
        Recorder {
            inner,
            files: Mutex::new(Vec::new()),
        }
    }

    fn note(&self, relative: &str) {
        let mut files = self.files.lock().unwrap_or_else(|p| p.into_inner());
        files.push(relative.to_string());
    }

    /// The paths written, sorted, each once.
    pub fn into_files(self) -> Vec<String> {
        let mut files = self.files.into_inner().unwrap_or_else(|p| p.into_inner());
        files.sort();
        files.dedup();
        files
    }
}

impl OutputSink for Recorder<'_> {
    fn root(&self) -> &Path {
        self.inner.root()
    }

    fn existing_len(&self, relative: &str) -> Option<u64> {
        self.inner.existing_len(relative)
    }

    fn paths(&self, relative: &str) -> io::Result<(std::path::PathBuf, std::path::PathBuf)> {
        self.inner.paths(relative)
    }

    fn create(&self, relative: &str) -> io::Result<PendingFile> {
        self.note(relative);
        self.inner.create(relative)
    }

    fn write(&self, relative: &str, bytes: &[u8]) -> io::Result<()> {
        self.note(relative);
        self.inner.write(relative, bytes)
    }

    fn copy(&self, from: &Path, relative: &str) -> io::Result<()> {
        self.note(relative);
        self.inner.copy(from, relative)
    }

    fn link(&self, from: &Path, relative: &str) -> io::Result<()> {
        self.note(relative);
        self.inner.link(from, relative)
    }

    /// A removed file is not among those written (a dataset's writes never remove).
    fn keeps_nothing(&self) -> bool {
        self.inner.keeps_nothing()
    }

    fn remove(&self, relative: &str) -> io::Result<()> {
        let mut files = self.files.lock().unwrap_or_else(|p| p.into_inner());
        files.retain(|f| f != relative);
        drop(files);
        self.inner.remove(relative)
    }
}
