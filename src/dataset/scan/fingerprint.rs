//! The 128-bit fingerprint of a cell, by which `unique` columns find repeats and text
//! profiles count distinct values: 24 bytes a row whatever the cell's length; its upper
//! half, which the distinct-count sketch reads, is the standard hasher's, worked out in
//! one pass.

/// A 128-bit fingerprint of a cell for `unique` checks and distinct values: 24 bytes a row
/// whatever the cell's length. The lower half comes from a fast hasher; the upper half,
/// which the distinct-count sketch reads, stays the standard hasher's, so estimates do not
/// change with it.
pub(super) fn fingerprint(value: &str) -> u128 {
    use std::hash::BuildHasher;
    let second = rustc_hash::FxBuildHasher.hash_one(value);
    (u128::from(first_hash(value)) << 64) | u128::from(second)
}

/// The upper half of [`fingerprint`]: what `std::hash::DefaultHasher::new()` gives for
/// `value` (SipHash-1-3 with both keys 0 over the text's bytes and a closing 0xff, as
/// `str` hashes), worked out in one pass over whole 8-byte words: the standard hasher
/// takes about twice the instructions for the short cells of most columns. A test holds
/// it to the standard hasher.
pub(super) fn first_hash(value: &str) -> u64 {
    let bytes = value.as_bytes();
    let mut state = [
        0x736f_6d65_7073_6575_u64,
        0x646f_7261_6e64_6f6d,
        0x6c79_6765_6e65_7261,
        0x7465_6462_7974_6573,
    ];
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let mut m = [0; 8];
        m.copy_from_slice(word);
        sip_compress(&mut state, u64::from_le_bytes(m));
    }
    // The rest and the closing 0xff: one to eight bytes.
    let rest = words.remainder();
    let mut tail = [0; 8];
    tail[..rest.len()].copy_from_slice(rest);
    tail[rest.len()] = 0xff;
    let mut last = u64::from_le_bytes(tail);
    if rest.len() == 7 {
        sip_compress(&mut state, last);
        last = 0;
    }
    let length = (bytes.len() as u64).wrapping_add(1);
    sip_compress(&mut state, ((length & 0xff) << 56) | last);
    state[2] ^= 0xff;
    for _ in 0..3 {
        sip_round(&mut state);
    }
    state[0] ^ state[1] ^ state[2] ^ state[3]
}

/// One word into a SipHash-1-3 state.
#[inline(always)]
fn sip_compress(v: &mut [u64; 4], m: u64) {
    v[3] ^= m;
    sip_round(v);
    v[0] ^= m;
}

#[inline(always)]
fn sip_round(v: &mut [u64; 4]) {
    v[0] = v[0].wrapping_add(v[1]);
    v[1] = v[1].rotate_left(13) ^ v[0];
    v[0] = v[0].rotate_left(32);
    v[2] = v[2].wrapping_add(v[3]);
    v[3] = v[3].rotate_left(16) ^ v[2];
    v[0] = v[0].wrapping_add(v[3]);
    v[3] = v[3].rotate_left(21) ^ v[0];
    v[2] = v[2].wrapping_add(v[1]);
    v[1] = v[1].rotate_left(17) ^ v[2];
    v[2] = v[2].rotate_left(32);
}

#[cfg(test)]
mod tests {
    /// The one-pass hash is the standard hasher's, for texts of every length around the
    /// 8-byte words and for text that is not ASCII.
    #[test]
    fn the_first_hash_is_the_standard_hashers() {
        use std::hash::{Hash, Hasher};
        let standard = |value: &str| {
            let mut hasher = std::hash::DefaultHasher::new();
            value.hash(&mut hasher);
            hasher.finish()
        };
        let mut texts: Vec<String> = (0..300).map(|n| "x".repeat(n)).collect();
        texts.extend(
            [
                "",
                "C704677",
                "alpha",
                "Smith, J.",
                "R&D",
                "1993-06-04",
                "ünïcödé €",
            ]
            .map(String::from),
        );
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for n in 0..2_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            texts.push(format!("{state:x}{}", "é".repeat(n % 11)));
        }
        for text in &texts {
            assert_eq!(super::first_hash(text), standard(text), "{text:?}");
        }
    }
}
