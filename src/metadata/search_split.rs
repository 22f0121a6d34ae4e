//! The listing filter's search index, split so that a query loads a few small files
//! (`data/search/`), whatever the catalog's size:
//!
//! - `index.json`, the manifest: how many datasets, shards and datasets per docs file;
//! - `shard-<n>.json`: the index proper. A query word matches a dataset when it is part of
//!   one of the whitespace-separated words of the dataset's searched text (title, slug,
//!   tags, headline, description, column names, lower case), as the whole index matched.
//!   A word of three characters or more is looked up in the shard of its first three
//!   characters, which lists every word of the catalog containing those three characters
//!   with its datasets; a word of one or two characters in the shard of itself, which
//!   lists the datasets with a word containing it;
//! - `docs-<n>.json`: what a result shows (slug, title, tags, date), by listing order;
//! - `tags.json`: the datasets of each tag, for the tag filter.
//!
//! Datasets are numbered in listing order; a set of them is a list of gaps between numbers
//! or, when shorter, a bitmap in base64 (`"~…"`). Shards are named by FNV-1a of the key's
//! code points (static/listing.js computes the same).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde::Serialize;

/// The split index's manifest (what the listing loads first).
pub const MANIFEST: &str = crate::layout::urls::SEARCH_INDEX;

/// Where the other files of the split index go: `data/search/<name>`.
fn path(name: &str) -> String {
    format!("{}/{name}", crate::layout::urls::SEARCH_FOLDER)
}

/// Datasets per docs file: a page of 200 results loads one or two of them.
pub const DOCS_PER_FILE: usize = 500;

/// The size a shard aims at (raw JSON): the count of shards is the power of two that
/// brings the average there (at most [`MAX_SHARDS`]).
const SHARD_TARGET_BYTES: usize = 48 * 1024;
const MAX_SHARDS: usize = 4096;

/// What the search index holds of one dataset.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SearchDoc {
    pub slug: crate::dataset::Slug,
    /// The tags as URL slugs (the tag filter's values).
    pub tags: Vec<String>,
    /// Searched besides the title, slug and tags.
    #[serde(skip)]
    pub text: String,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated: Option<String>,
}

impl SearchDoc {
    /// The text a query is matched against, as the listing has always built it: title,
    /// slug, tags and text joined by spaces, in lower case.
    pub fn haystack(&self) -> String {
        [
            self.title.as_str(),
            &self.slug,
            &self.tags.join(" "),
            &self.text,
        ]
        .join(" ")
        .to_lowercase()
    }
}

/// JavaScript's `\s`: the characters a query is split on, and so the searched text too.
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// The distinct pieces of three characters in `word`, as slices of it.
fn trigrams(word: &str) -> BTreeSet<&str> {
    let starts: Vec<usize> = word.char_indices().map(|(at, _)| at).collect();
    (0..starts.len().saturating_sub(2))
        .map(|n| &word[starts[n]..starts.get(n + 3).copied().unwrap_or(word.len())])
        .collect()
}

/// The datasets of a word or gram, in increasing order: one number (most words are in
/// one dataset), a list while short, then a bitmap.
#[derive(Default)]
enum Ids {
    #[default]
    None,
    One(u32),
    List(Vec<u32>),
    Bits(Vec<u64>),
}

impl Ids {
    /// Adds `id`, at least as large as every id added before.
    fn push(&mut self, id: u32) {
        match self {
            Ids::None => *self = Ids::One(id),
            Ids::One(one) if *one == id => {}
            Ids::One(one) => *self = Ids::List(vec![*one, id]),
            Ids::List(list) if list.last() == Some(&id) => {}
            Ids::List(list) if list.len() < 64 || list.len() * 32 < id as usize => list.push(id),
            Ids::List(list) => {
                let mut bits = vec![0u64; id as usize / 64 + 1];
                list.iter()
                    .chain([&id])
                    .for_each(|&n| bits[n as usize / 64] |= 1 << (n % 64));
                *self = Ids::Bits(bits);
            }
            Ids::Bits(bits) => {
                bits.resize(bits.len().max(id as usize / 64 + 1), 0);
                bits[id as usize / 64] |= 1 << (id % 64);
            }
        }
    }

    fn list(&self) -> Vec<u32> {
        match self {
            Ids::None => Vec::new(),
            Ids::One(one) => vec![*one],
            Ids::List(list) => list.clone(),
            Ids::Bits(bits) => (0..bits.len() * 64)
                .filter(|&n| bits[n / 64] >> (n % 64) & 1 == 1)
                .map(|n| n as u32)
                .collect(),
        }
    }
}

/// FNV-1a over the key's code points, modulo `shards`.
pub fn shard_of(key: &str, shards: usize) -> usize {
    let mut hash: u32 = 0x811c_9dc5;
    for c in key.chars() {
        hash ^= c as u32;
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash as usize % shards.max(1)
}

/// Every file of the split index, with its path, for `docs` in listing order (the tests'
/// way in; the build adds each dataset to a [`Builder`] and writes each file as made).
#[cfg(test)]
pub fn files(docs: &[SearchDoc]) -> Vec<(String, Vec<u8>)> {
    let mut index = Builder::default();
    let mut out: Vec<_> = docs.iter().filter_map(|d| index.add(d.clone())).collect();
    out.extend(index.finish());
    out
}

/// A file of the index: its path under the output root and its bytes.
pub type File = (String, Vec<u8>);

/// A gram of one or two characters. Tuples order as their text does (UTF-8 orders as code
/// points do, and a one-character gram, `None` second, before its longer ones).
type Gram = (char, Option<char>);

/// The split index taken in one dataset at a time and given back one file at a time, so
/// that neither the searched texts nor the whole index are held at once (at N=10,000
/// the texts were most of the index's memory, and the files as much again). Words and
/// grams are hashed as they come (std's keyed hasher: no text can make them collide) and
/// sorted once, by [`Builder::finish`]: at N=10,000 ordered maps of strings took an
/// eighth of the build's CPU, on one thread.
#[derive(Default)]
pub struct Builder {
    /// Each word of three characters or more, with its datasets.
    words: HashMap<Box<str>, Ids>,
    /// Each gram of one or two characters (of any word), with its datasets: most grams
    /// are in many datasets, so each is a list that turns into a bitmap once that is
    /// smaller ([`Ids`]).
    grams: HashMap<Gram, Ids>,
    tags: BTreeMap<String, Vec<u32>>,
    count: usize,
    /// The datasets of the docs file not yet complete, without their searched text.
    page: Vec<SearchDoc>,
}

impl Builder {
    /// Adds the next dataset in listing order; gives back the docs file it completes.
    pub fn add(&mut self, mut doc: SearchDoc) -> Option<File> {
        let id = self.count as u32;
        self.count += 1;
        let haystack = doc.haystack();
        let mut seen_grams = HashSet::new();
        for word in haystack.split(is_js_space).filter(|w| !w.is_empty()) {
            let mut chars = word.chars().peekable();
            let mut count = 0;
            while let Some(c) = chars.next() {
                let next = chars.peek().copied();
                seen_grams.insert((c, None));
                if let Some(next) = next {
                    seen_grams.insert((c, Some(next)));
                }
                count += 1;
            }
            if count >= 3 {
                match self.words.get_mut(word) {
                    Some(ids) => ids.push(id),
                    None => self.words.entry(word.into()).or_default().push(id),
                }
            }
        }
        for gram in seen_grams {
            self.grams.entry(gram).or_default().push(id);
        }
        for tag in &doc.tags {
            push_once(self.tags.entry(tag.clone()).or_default(), id);
        }
        doc.text = String::new();
        self.page.push(doc);
        (self.page.len() == DOCS_PER_FILE).then(|| self.docs_file())
    }

    /// The docs file of the datasets added since the last one.
    fn docs_file(&mut self) -> File {
        let n = (self.count - 1) / DOCS_PER_FILE;
        let file = (path(&format!("docs-{n}.json")), json(&self.page));
        self.page.clear();
        file
    }

    /// The index's other files, each made as it is taken: the last docs file, the tags,
    /// the manifest, then the shards.
    pub fn finish(mut self) -> impl Iterator<Item = File> {
        let last_docs = (!self.page.is_empty()).then(|| self.docs_file());
        let Builder {
            words,
            grams,
            tags,
            count,
            ..
        } = self;
        let tag_sets: BTreeMap<String, String> = tags
            .into_iter()
            .map(|(tag, ids)| (tag, encode_set(&ids, count)))
            .collect();
        let tags_file = (path("tags.json"), json(&tag_sets));
        // Each word goes to the shard of every three characters it contains; its set is
        // encoded once, and each shard keeps the numbers of its words (in word order).
        let mut words: Vec<(Box<str>, Ids)> = words.into_iter().collect();
        words.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let words: Vec<(String, String)> = words
            .into_iter()
            .map(|(word, ids)| (String::from(word), encode_set(&ids.list(), count)))
            .collect();
        let mut grams: Vec<(Gram, Ids)> = grams.into_iter().collect();
        grams.sort_unstable_by_key(|(gram, _)| *gram);
        let grams: Vec<(String, String)> = grams
            .into_iter()
            .map(|((first, second), ids)| {
                let gram = [Some(first), second].into_iter().flatten().collect();
                (gram, encode_set(&ids.list(), count))
            })
            .collect();
        let total: usize = words
            .iter()
            .map(|(w, s)| trigrams(w).len() * (w.len() + s.len() + 6))
            .chain(grams.iter().map(|(g, s)| g.len() + s.len() + 6))
            .sum();
        let shards = total
            .div_ceil(SHARD_TARGET_BYTES)
            .next_power_of_two()
            .clamp(1, MAX_SHARDS);
        let mut shard_words: Vec<Vec<u32>> = vec![Vec::new(); shards];
        for (n, (word, _)) in words.iter().enumerate() {
            for key in trigrams(word) {
                push_once(&mut shard_words[shard_of(key, shards)], n as u32);
            }
        }
        let mut shard_grams: Vec<Vec<u32>> = vec![Vec::new(); shards];
        for (n, (gram, _)) in grams.iter().enumerate() {
            shard_grams[shard_of(gram, shards)].push(n as u32);
        }
        let manifest = Manifest {
            datasets: count,
            docs_per_file: DOCS_PER_FILE,
            shards,
        };
        let head = [
            last_docs,
            Some(tags_file),
            Some((MANIFEST.to_string(), json(&manifest))),
        ];
        let shard_files =
            shard_words
                .into_iter()
                .zip(shard_grams)
                .enumerate()
                .map(move |(n, (w, g))| {
                    let shard = Shard {
                        g: Entries(&grams, &g),
                        w: Entries(&words, &w),
                    };
                    (path(&format!("shard-{n}.json")), json(&shard))
                });
        head.into_iter().flatten().chain(shard_files)
    }
}

/// Compact JSON, ending in a newline.
fn json(value: &impl Serialize) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

#[derive(Serialize)]
struct Manifest {
    datasets: usize,
    docs_per_file: usize,
    shards: usize,
}

/// A shard: the grams of one or two characters (`g`) and the words (`w`) with their
/// datasets.
#[derive(Serialize)]
struct Shard<'a> {
    g: Entries<'a>,
    w: Entries<'a>,
}

/// The entries numbered in `.1` of the (key, set) pairs `.0`, as a JSON object in key
/// order (the numbers ascend, and the pairs are in key order).
struct Entries<'a>(&'a [(String, String)], &'a [u32]);

impl Serialize for Entries<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.1.iter().map(|&n| {
            let (key, set) = &self.0[n as usize];
            (key, set)
        }))
    }
}

fn push_once(ids: &mut Vec<u32>, id: u32) {
    if ids.last() != Some(&id) {
        ids.push(id);
    }
}

/// A set of dataset numbers (ascending) as text: the gaps between them in base 36 joined
/// by `.` (the first from 0), or `~` and a bitmap of `count` bits in base64 when shorter.
pub fn encode_set(ids: &[u32], count: usize) -> String {
    let mut gaps = String::new();
    let mut last = 0u32;
    for (n, &id) in ids.iter().enumerate() {
        if n > 0 {
            gaps.push('.');
        }
        push_base36(id - last, &mut gaps);
        last = id;
    }
    let bitmap_len = 1 + count.div_ceil(8).div_ceil(3) * 4;
    if gaps.len() <= bitmap_len {
        return gaps;
    }
    let mut bits = vec![0u8; count.div_ceil(8)];
    for &id in ids {
        bits[id as usize / 8] |= 1 << (id % 8);
    }
    let mut text = String::from("~");
    base64_into(&bits, &mut text);
    text
}

fn push_base36(mut n: u32, out: &mut String) {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut buf = [0u8; 8];
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = DIGITS[(n % 36) as usize];
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.extend(buf[at..].iter().map(|&b| b as char));
}

fn base64_into(bytes: &[u8], out: &mut String) {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(TABLE[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
}

#[cfg(test)]
mod tests;
