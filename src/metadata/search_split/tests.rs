//! The split index answers every query as the whole index did: each query is answered
//! twice, by a brute-force scan of every dataset's searched text (what the listing did with
//! the whole index) and by reading only the files the listing's script loads for it
//! (the manifest, one shard per word, the tags file), the same way static/listing.js does.

use super::*;
use serde_json::Value;

/// The keys a query word is looked up by: its first three characters, or itself when
/// shorter.
fn lookup_key(word: &str) -> &str {
    match word.char_indices().nth(3) {
        Some((end, _)) => &word[..end],
        None => word,
    }
}

fn doc(slug: &str, title: &str, tags: &[&str], text: &str) -> SearchDoc {
    SearchDoc {
        slug: slug.into(),
        tags: tags.iter().map(|t| t.to_string()).collect(),
        text: text.into(),
        title: title.into(),
        updated: None,
    }
}

/// A catalog with accents, Greek (a final sigma), punctuation, underscores, digits, words
/// shared by many datasets and words of one.
fn corpus(n: usize) -> Vec<SearchDoc> {
    let words = [
        "ozone",
        "readings",
        "weekly",
        "ppm_weekly",
        "Zürich",
        "ΟΔΟΣ",
        "co2-emissions",
        "a",
        "of",
        "the",
        "data",
        "dataset",
        "x",
        "1990",
        "e.g.",
        "naïve",
        "İstanbul",
        "café",
    ];
    (0..n)
        .map(|i| {
            let text: Vec<&str> = (0..6)
                .map(|k| words[(i * 7 + k * 5) % words.len()])
                .collect();
            let tags: &[&str] = match i % 3 {
                0 => &["air"],
                1 => &["air", "water-quality"],
                _ => &[],
            };
            doc(
                &format!("set-{i}"),
                &format!("Set {i} of {}", words[i % words.len()]),
                tags,
                &text.join(if i % 2 == 0 { " " } else { "\u{a0}" }),
            )
        })
        .collect()
}

/// What the listing matched with the whole index: every query word (split on JavaScript's
/// `\s`) inside the lower-cased text, and the tag among the dataset's tags.
fn whole(docs: &[SearchDoc], query: &str, tag: &str) -> Vec<usize> {
    let query = query.to_lowercase();
    let words: Vec<&str> = query.split(is_js_space).filter(|w| !w.is_empty()).collect();
    docs.iter()
        .enumerate()
        .filter(|(_, d)| tag.is_empty() || d.tags.iter().any(|t| t == tag))
        .filter(|(_, d)| {
            let hay = d.haystack();
            words.iter().all(|w| hay.contains(w))
        })
        .map(|(n, _)| n)
        .collect()
}

fn decode_set(text: &str, count: usize) -> Vec<usize> {
    if let Some(b64) = text.strip_prefix('~') {
        let table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut bits = Vec::new();
        for chunk in b64.as_bytes().chunks(4) {
            let mut n = 0u32;
            for (i, &c) in chunk.iter().enumerate() {
                let v = table.find(c as char).unwrap_or(0) as u32;
                n |= v << (18 - 6 * i);
            }
            bits.extend([(n >> 16) as u8, (n >> 8) as u8, n as u8]);
        }
        return (0..count)
            .filter(|&i| bits[i / 8] & (1 << (i % 8)) != 0)
            .collect();
    }
    let mut at = 0usize;
    text.split('.')
        .filter(|s| !s.is_empty())
        .map(|gap| {
            at += usize::from_str_radix(gap, 36).unwrap();
            at
        })
        .collect()
}

/// The split index's answer, reading only the files the listing loads for the query.
fn split(files: &[(String, Vec<u8>)], query: &str, tag: &str) -> (Vec<usize>, Vec<String>) {
    let read = |path: &str| -> Value {
        let bytes = &files.iter().find(|f| f.0 == path).unwrap().1;
        serde_json::from_slice(bytes).unwrap()
    };
    let manifest = read(MANIFEST);
    let count = manifest["datasets"].as_u64().unwrap() as usize;
    let shards = manifest["shards"].as_u64().unwrap() as usize;
    let mut loaded = vec![MANIFEST.to_string()];
    let query = query.to_lowercase();
    let mut found: Option<BTreeSet<usize>> = None;
    for word in query.split(is_js_space).filter(|w| !w.is_empty()) {
        let key = lookup_key(word);
        let path = path(&format!("shard-{}.json", shard_of(key, shards)));
        let shard = read(&path);
        loaded.push(path);
        let mut ids = BTreeSet::new();
        if word.chars().count() < 3 {
            if let Some(set) = shard["g"][word].as_str() {
                ids.extend(decode_set(set, count));
            }
        } else {
            for (token, set) in shard["w"].as_object().unwrap() {
                if token.contains(word) {
                    ids.extend(decode_set(set.as_str().unwrap(), count));
                }
            }
        }
        found = Some(match found {
            None => ids,
            Some(before) => before.intersection(&ids).copied().collect(),
        });
    }
    let mut found: Vec<usize> = match found {
        Some(ids) => ids.into_iter().collect(),
        None => (0..count).collect(),
    };
    if !tag.is_empty() {
        let path = path("tags.json");
        let tags = read(&path);
        loaded.push(path);
        let with = tags[tag]
            .as_str()
            .map(|s| decode_set(s, count))
            .unwrap_or_default();
        found.retain(|id| with.contains(id));
    }
    (found, loaded)
}

#[test]
fn the_split_index_answers_every_query_as_the_whole_one() {
    let docs = corpus(1_200);
    let files = files(&docs);
    // Every substring of up to five characters of every word of a few datasets, each
    // alone, upper-cased and with a second word; words no dataset has; tags.
    let mut queries: BTreeSet<String> = BTreeSet::new();
    for d in docs.iter().step_by(97) {
        let hay = d.haystack();
        for word in hay.split(is_js_space).filter(|w| !w.is_empty()) {
            let chars: Vec<char> = word.chars().collect();
            for len in 1..=5.min(chars.len()) {
                for start in 0..=chars.len() - len {
                    queries.insert(chars[start..start + len].iter().collect());
                }
            }
        }
    }
    let singles: Vec<String> = queries.iter().cloned().collect();
    for (n, q) in singles.iter().enumerate().step_by(7) {
        queries.insert(format!("{q} {}", singles[(n * 13) % singles.len()]));
        queries.insert(q.to_uppercase());
    }
    for q in [
        "zzz",
        "ozonex",
        "σ",
        "ος",
        "ΟΔΟΣ",
        "set 1",
        "  ozone   weekly ",
        "co2-em",
        "e.g",
        "",
    ] {
        queries.insert(q.to_string());
    }
    let mut answered = 0;
    for query in &queries {
        for tag in ["", "air", "water-quality", "none"] {
            let (got, loaded) = split(&files, query, tag);
            assert_eq!(
                got,
                whole(&docs, query, tag),
                "query {query:?}, tag {tag:?}"
            );
            // The manifest, a shard per word, the tags file: never the whole index.
            let words = query.split(is_js_space).filter(|w| !w.is_empty()).count();
            assert!(loaded.len() <= 2 + words, "{loaded:?}");
            answered += 1;
        }
    }
    assert!(answered > 2_000, "{answered} queries");
}

#[test]
fn sets_are_gaps_or_a_bitmap_whichever_is_shorter() {
    assert_eq!(encode_set(&[0, 5, 41], 100), "0.5.10");
    assert_eq!(decode_set("0.5.10", 100), [0, 5, 41]);
    let dense: Vec<u32> = (0..1_000).filter(|i| i % 3 != 0).collect();
    let text = encode_set(&dense, 1_000);
    assert!(text.starts_with('~') && text.len() < 200, "{text}");
    // A first gap of 11 is `b`, never taken for a bitmap.
    assert_eq!(decode_set(&encode_set(&[11], 100), 100), [11]);
    let back: Vec<u32> = decode_set(&text, 1_000)
        .into_iter()
        .map(|i| i as u32)
        .collect();
    assert_eq!(back, dense);
    assert_eq!(encode_set(&[], 10), "");
}

#[test]
fn shards_are_named_as_the_listing_script_names_them() {
    // FNV-1a of the code points, as static/listing.js computes it (values from that code).
    assert_eq!(shard_of("", usize::MAX), 0x811c_9dc5);
    assert_eq!(shard_of("a", usize::MAX), 0xe40c_292c);
    assert_eq!(shard_of("a", 256), 0x2c);
    assert_eq!(lookup_key("ozone"), "ozo");
    assert_eq!(lookup_key("Zü"), "Zü");
    assert_eq!(lookup_key("Zürich"), "Zür");
}
