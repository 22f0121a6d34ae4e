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

use std::collections::{BTreeMap, BTreeSet};

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
    pub slug: String,
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

/// The datasets of a gram, in increasing order: a list while short, then a bitmap.
#[derive(Default)]
enum Ids {
    #[default]
    None,
    List(Vec<u32>),
    Bits(Vec<u64>),
}

impl Ids {
    /// Adds `id`, larger than every id added before.
    fn push(&mut self, id: u32) {
        match self {
            Ids::None => *self = Ids::List(vec![id]),
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
/// way in; the build adds each dataset to a [`Builder`] as it reads it).
#[cfg(test)]
pub fn files(docs: &[SearchDoc]) -> Vec<(String, Vec<u8>)> {
    let mut index = Builder::default();
    docs.iter().for_each(|doc| index.add(doc));
    index.files(docs)
}

/// The split index taken in one dataset at a time, so that the searched text of each
/// need not be held once added (at N=10,000 that text was most of the index's memory).
#[derive(Default)]
pub struct Builder {
    /// Each word of three characters or more, with its datasets.
    words: BTreeMap<String, Vec<u32>>,
    /// Each gram of one or two characters (of any word), with its datasets: most grams
    /// are in many datasets, so each is a list that turns into a bitmap once that is
    /// smaller ([`Ids`]).
    grams: BTreeMap<String, Ids>,
    tags: BTreeMap<String, Vec<u32>>,
    count: usize,
}

impl Builder {
    /// Adds the next dataset in listing order.
    pub fn add(&mut self, doc: &SearchDoc) {
        let id = self.count as u32;
        self.count += 1;
        let haystack = doc.haystack();
        let mut seen_grams = BTreeSet::new();
        for word in haystack.split(is_js_space).filter(|w| !w.is_empty()) {
            let chars: Vec<char> = word.chars().collect();
            for len in 1..=2 {
                for gram in chars.windows(len) {
                    seen_grams.insert(gram.iter().collect::<String>());
                }
            }
            if chars.len() >= 3 {
                push_once(self.words.entry(word.to_string()).or_default(), id);
            }
        }
        for gram in seen_grams {
            self.grams.entry(gram).or_default().push(id);
        }
        for tag in &doc.tags {
            push_once(self.tags.entry(tag.clone()).or_default(), id);
        }
    }

    /// Every file of the index, with its path; `docs` are the datasets added, in order
    /// (their searched text is not needed again).
    pub fn files(self, docs: &[SearchDoc]) -> Vec<(String, Vec<u8>)> {
        let Builder {
            words,
            grams,
            tags,
            count,
        } = self;
        // Each word goes to the shard of every three characters it contains; its set is
        // encoded once and shared by those shards.
        let word_sets: Vec<(&str, String)> = words
            .iter()
            .map(|(word, ids)| (word.as_str(), encode_set(ids, count)))
            .collect();
        let gram_sets: Vec<(&String, String)> = grams
            .iter()
            .map(|(gram, ids)| (gram, encode_set(&ids.list(), count)))
            .collect();
        let total: usize = word_sets
            .iter()
            .map(|(w, s)| trigrams(w).len() * (w.len() + s.len() + 6))
            .sum::<usize>()
            + gram_sets
                .iter()
                .map(|(g, s)| g.len() + s.len() + 6)
                .sum::<usize>();
        let shards = total
            .div_ceil(SHARD_TARGET_BYTES)
            .next_power_of_two()
            .clamp(1, MAX_SHARDS);
        let mut shard_words: Vec<BTreeMap<&str, &str>> = vec![BTreeMap::new(); shards];
        let mut shard_grams: Vec<BTreeMap<&str, &str>> = vec![BTreeMap::new(); shards];
        for (word, set) in &word_sets {
            for key in trigrams(word) {
                shard_words[shard_of(key, shards)].insert(word, set);
            }
        }
        for (gram, set) in &gram_sets {
            shard_grams[shard_of(gram, shards)].insert(gram, set);
        }
        let mut out = Vec::new();
        let json = |value: &dyn erased::Json| value.bytes();
        out.push((
            MANIFEST.to_string(),
            json(&Manifest {
                datasets: count,
                docs_per_file: DOCS_PER_FILE,
                shards,
            }),
        ));
        for (n, (w, g)) in shard_words.iter().zip(&shard_grams).enumerate() {
            out.push((path(&format!("shard-{n}.json")), json(&Shard { g, w })));
        }
        for (n, chunk) in docs.chunks(DOCS_PER_FILE).enumerate() {
            out.push((path(&format!("docs-{n}.json")), json(&chunk)));
        }
        let tag_sets: BTreeMap<&str, String> = tags
            .iter()
            .map(|(tag, ids)| (tag.as_str(), encode_set(ids, count)))
            .collect();
        out.push((path("tags.json"), json(&tag_sets)));
        out
    }
}

/// Serialization for the files, compact, each ending in a newline.
mod erased {
    pub trait Json {
        fn bytes(&self) -> Vec<u8>;
    }
    impl<T: serde::Serialize + ?Sized> Json for T {
        fn bytes(&self) -> Vec<u8> {
            let mut bytes = serde_json::to_vec(self).unwrap_or_default();
            bytes.push(b'\n');
            bytes
        }
    }
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
    g: &'a BTreeMap<&'a str, &'a str>,
    w: &'a BTreeMap<&'a str, &'a str>,
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
