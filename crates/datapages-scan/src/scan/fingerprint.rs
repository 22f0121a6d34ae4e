//! The 128-bit fingerprint of a cell, by which `unique` columns find repeats and text
//! profiles count distinct values: 24 bytes a row whatever the cell's length.

/// A 128-bit fingerprint of a cell for `unique` checks and distinct values: XXH3-128,
/// whose algorithm is specified and stable across versions (the standard hasher's is
/// not promised). The distinct-count sketch reads its upper half.
pub(super) fn fingerprint(value: &str) -> u128 {
    twox_hash::XxHash3_128::oneshot(value.as_bytes())
}

#[cfg(test)]
mod tests {
    /// The fingerprint is XXH3-128 itself (the specification's test value for empty
    /// input), so a cached sketch means the same thing to every build.
    #[test]
    fn the_fingerprint_is_xxh3_128() {
        assert_eq!(
            super::fingerprint(""),
            0x99aa_06d3_0147_98d8_6001_c324_468d_497f
        );
        assert_ne!(super::fingerprint("a"), super::fingerprint("b"));
    }
}
