//! What a folding [`Diagnostics`](super::Diagnostics) keeps: every error, and of each
//! warning (same message, same hint) only the places it shows, with a count of all. A
//! catalog of 10,000 datasets without dates warns 10,000 times the same way; `build` shows
//! three of them, so holding the other 9,997 (about 170 bytes each) until the build ends
//! made its memory grow with the catalog for nothing.

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::path::Path;

use super::{Diagnostic, Diagnostics, Severity};

impl Diagnostics {
    /// No problems yet; of each warning (same message and hint) only the first `shown`
    /// places are kept and the others counted, as `build` shows them
    /// ([`Diagnostics::write_folded`]). Errors are all kept; the counts and the summary
    /// are those of everything pushed. `check` keeps every warning.
    pub fn folding(shown: usize) -> Self {
        Diagnostics {
            items: Vec::new(),
            kept: Some(Box::new(Kept::new(shown))),
        }
    }

    /// `count` batch numbers for [`Diagnostics::push_batch`]; returns the first.
    pub fn reserve_batches(&mut self, count: usize) -> u64 {
        self.kept
            .as_mut()
            .map_or(0, |kept| kept.reserve_batches(count))
    }

    /// Adds the problems of batch `batch` (from [`Diagnostics::reserve_batches`]): when
    /// batches arrive in any order (datasets load in parallel), they still sort, and fold,
    /// as if they came in the order of their numbers. Without folding, they are pushed.
    pub fn push_batch(&mut self, batch: u64, problems: Vec<Diagnostic>) {
        match &mut self.kept {
            Some(kept) => {
                for (n, diagnostic) in problems.into_iter().enumerate() {
                    kept.push(&mut self.items, diagnostic, batch << 32 | n as u64);
                }
            }
            None => self.items.extend(problems),
        }
    }
}

/// The kind of a kept error: errors are never folded.
const NO_KIND: u32 = u32::MAX;

/// The fold's state beside the kept items (`Diagnostics::items`), index for index.
#[derive(Debug, Clone)]
pub(super) struct Kept {
    /// How many places of each warning are kept (at least 1).
    shown: usize,
    /// Per kept item, its place in the order found: ties of the sort by file, line and
    /// column keep it, and the places kept are the first ones whatever the order of
    /// arrival (datasets load in parallel).
    order: Vec<u64>,
    /// Per kept item, its warning kind (index into `kinds`), or [`NO_KIND`].
    kind_of: Vec<u32>,
    kinds: Vec<Kind>,
    /// Kinds by the hash of their message and hint (a collision only means two entries).
    by_hash: HashMap<u64, Vec<u32>>,
    /// Hashes of the files with a problem, for the summary's count of files (8 bytes a file
    /// instead of its path; two of 10,000 paths share a 64-bit hash about once in 10^11
    /// builds, and the summary would then count one file less).
    files: HashSet<u64>,
    warnings: usize,
    /// The next batch number of [`Kept::next_order`]'s counter.
    next_batch: u64,
}

#[derive(Debug, Clone, Default)]
struct Kind {
    /// Every occurrence, kept or not.
    total: usize,
    /// Where its kept occurrences are among the items.
    kept: Vec<usize>,
}

impl Kept {
    pub(super) fn new(shown: usize) -> Kept {
        Kept {
            shown: shown.max(1),
            order: Vec::new(),
            kind_of: Vec::new(),
            kinds: Vec::new(),
            by_hash: HashMap::new(),
            files: HashSet::new(),
            warnings: 0,
            next_batch: 0,
        }
    }

    /// `count` batch numbers for problems that arrive in any order but must sort as if
    /// they came in the order of those numbers (one per dataset, say); returns the first.
    pub(super) fn reserve_batches(&mut self, count: usize) -> u64 {
        let first = self.next_batch;
        self.next_batch += count as u64;
        first
    }

    /// The order of a problem pushed on its own: a batch of its own, after all before.
    pub(super) fn next_order(&mut self) -> u64 {
        let batch = self.reserve_batches(1);
        batch << 32
    }

    pub(super) fn warnings(&self) -> usize {
        self.warnings
    }

    pub(super) fn file_count(&self) -> usize {
        self.files.len()
    }

    /// How many places in all a kept warning has, kept or not.
    pub(super) fn total_of(&self, item: usize) -> Option<usize> {
        let kind = *self.kind_of.get(item)?;
        self.kinds.get(kind as usize).map(|k| k.total)
    }

    /// Adds `diagnostic`, found at `order`, to `items` if it is an error or among the first
    /// `shown` places of its warning; otherwise it is only counted.
    pub(super) fn push(&mut self, items: &mut Vec<Diagnostic>, diagnostic: Diagnostic, order: u64) {
        self.files.insert(hash_of(&diagnostic.file));
        if diagnostic.severity != Severity::Warning {
            self.keep(items, diagnostic, order, NO_KIND);
            return;
        }
        self.warnings += 1;
        let kind = self.kind(items, &diagnostic);
        let entry = &mut self.kinds[kind as usize];
        entry.total += 1;
        if entry.kept.len() < self.shown {
            entry.kept.push(items.len());
            self.keep(items, diagnostic, order, kind);
            return;
        }
        // Full: the new place replaces the last kept one if it comes first.
        let Some(&last) = entry
            .kept
            .iter()
            .max_by_key(|&&at| sort_key(&items[at], self.order[at]))
        else {
            return;
        };
        if sort_key(&diagnostic, order) < sort_key(&items[last], self.order[last]) {
            items[last] = diagnostic;
            self.order[last] = order;
        }
    }

    fn keep(&mut self, items: &mut Vec<Diagnostic>, diagnostic: Diagnostic, order: u64, kind: u32) {
        items.push(diagnostic);
        self.order.push(order);
        self.kind_of.push(kind);
    }

    /// The kind of a warning, made when it is the first of its kind.
    fn kind(&mut self, items: &[Diagnostic], warning: &Diagnostic) -> u32 {
        let hash = hash_of(&(warning.message.as_ref(), warning.hint.as_deref()));
        let candidates = self.by_hash.entry(hash).or_default();
        for &kind in candidates.iter() {
            // Every kind keeps at least its first place.
            let Some(&at) = self.kinds[kind as usize].kept.first() else {
                continue;
            };
            if items[at].message == warning.message && items[at].hint == warning.hint {
                return kind;
            }
        }
        let kind = self.kinds.len() as u32;
        self.kinds.push(Kind::default());
        candidates.push(kind);
        kind
    }

    /// The sort key of item `at`: its place, then the order found.
    pub(super) fn key_of<'a>(
        &self,
        items: &'a [Diagnostic],
        at: usize,
    ) -> ((&'a Path, u32, u32), u64) {
        sort_key(&items[at], self.order[at])
    }

    /// After `items` were rearranged by `order` (position `i` holds what was at
    /// `order[i]`): the same for the state kept beside them.
    pub(super) fn rearrange(&mut self, order: &[usize]) {
        self.order = order.iter().map(|&from| self.order[from]).collect();
        self.kind_of = order.iter().map(|&from| self.kind_of[from]).collect();
        for kind in &mut self.kinds {
            kind.kept.clear();
        }
        for (at, &kind) in self.kind_of.iter().enumerate() {
            if kind != NO_KIND {
                self.kinds[kind as usize].kept.push(at);
            }
        }
    }
}

fn sort_key(item: &Diagnostic, order: u64) -> ((&Path, u32, u32), u64) {
    (item.place(), order)
}

/// A hash that is the same in every run and toolchain: XXH3-64, whose algorithm is
/// specified (std's `DefaultHasher` promises none).
fn hash_of(value: &impl Hash) -> u64 {
    let mut hasher = twox_hash::XxHash3_64::default();
    value.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::super::folded::tests::folded as written;
    use super::super::{Diagnostic, Diagnostics};

    /// A small deterministic stream of numbers (no dependency for a test's shuffling).
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    /// One dataset's problems: repeated warnings (with and without hints), a rare one,
    /// sometimes an error, and places in a file all datasets share (ties of the sort).
    fn batch(n: u64, random: &mut Lcg) -> Vec<Diagnostic> {
        let own = format!("content/datasets/d{:03}.md", random.below(40));
        let mut problems = Vec::new();
        for k in 0..random.below(5) {
            let file = match random.below(4) {
                0 => "site.toml".to_string(),
                _ => own.clone(),
            };
            let line = random.below(3) as usize + 1;
            let problem = match random.below(6) {
                0 => Diagnostic::warning(&file, "no Limits").with_hint("say what is missing"),
                1 => Diagnostic::warning(&file, "no Limits"),
                2 => Diagnostic::warning(&file, "no date"),
                3 => Diagnostic::warning(&file, format!("rare {n}-{k}")),
                4 if random.below(5) == 0 => Diagnostic::error(&file, format!("broken {n}")),
                _ => Diagnostic::warning(&file, "no date").with_source_line(format!("{n}/{k}")),
            };
            problems.push(problem.at(line, 1 + random.below(2) as usize));
        }
        problems
    }

    /// Batches arriving in any order, folded as they come, read exactly as every problem
    /// kept, in order, and folded when written: the same places shown, the same counts.
    #[test]
    fn folding_as_problems_arrive_writes_what_folding_at_the_end_writes() {
        for seed in 0..60 {
            let mut random = Lcg(seed);
            let batches: Vec<Vec<Diagnostic>> = (0..random.below(30) + 1)
                .map(|n| batch(n, &mut random))
                .collect();
            let late = Diagnostic::warning("content/datasets/d001.md", "no date").at(1, 1);
            let mut all = Diagnostics::new();
            for problems in &batches {
                all.extend(problems.iter().cloned());
            }
            all.push(late.clone());
            all.sort();
            for shown in [1, 2, 3] {
                let mut folded = Diagnostics::folding(shown);
                let first = folded.reserve_batches(batches.len());
                let mut arrival: Vec<usize> = (0..batches.len()).collect();
                for i in (1..arrival.len()).rev() {
                    arrival.swap(i, random.below(i as u64 + 1) as usize);
                }
                for &n in &arrival {
                    folded.push_batch(first + n as u64, batches[n].clone());
                }
                folded.push(late.clone());
                folded.sort();
                let expected = written(&all, shown);
                assert_eq!(
                    written(&folded, shown),
                    expected,
                    "seed {seed}, shown {shown}"
                );
                // Written whole, it is what it kept: the same text.
                assert_eq!(written(&folded, usize::MAX), expected, "seed {seed}");
                assert_eq!(folded.summary(), all.summary());
                assert_eq!(folded.warning_count(), all.warning_count());
                assert_eq!(folded.error_count(), all.error_count());
                assert!(folded.items().len() <= all.items().len());
            }
        }
    }

    #[test]
    fn a_folding_list_holds_only_the_places_it_shows() {
        let mut folded = Diagnostics::folding(3);
        for n in (0..10_000).rev() {
            folded.push(Diagnostic::warning(format!("d{n:05}.md"), "no date"));
        }
        folded.push(Diagnostic::error("d05000.md", "broken"));
        folded.sort();
        let files: Vec<_> = folded.items().iter().map(|d| d.file.clone()).collect();
        assert_eq!(
            files,
            ["d00000.md", "d00001.md", "d00002.md", "d05000.md"].map(std::path::PathBuf::from)
        );
        assert_eq!(folded.summary(), "1 error, 10000 warnings in 10000 files");
        // Pushes after a sort keep folding in the same order.
        folded.push(Diagnostic::warning("a.md", "no date"));
        folded.sort();
        assert_eq!(folded.items()[0].file, std::path::PathBuf::from("a.md"));
        assert_eq!(folded.items().len(), 4);
        assert!(!folded.is_empty() && folded.has_errors());
    }
}
