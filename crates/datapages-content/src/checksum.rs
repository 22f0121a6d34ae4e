//! `Sha256`: a file's SHA-256 as a value, written as 64 lowercase hex digits wherever it is
//! shown, stored or compared as text (metadata, caches, build records).

use std::fmt;

use sha2::Digest as _;

/// The SHA-256 of some bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Sha256([u8; 32]);

impl Sha256 {
    /// The SHA-256 of `bytes`.
    pub fn of(bytes: &[u8]) -> Sha256 {
        Sha256(sha2::Sha256::digest(bytes).into())
    }

    /// What a finished hasher computed.
    pub fn finish(hasher: sha2::Sha256) -> Sha256 {
        Sha256(hasher.finalize().into())
    }

    /// The 32 bytes.
    pub fn bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The digest that 64 lowercase hex digits spell (as [`fmt::Display`] writes it).
    pub fn from_hex(text: &str) -> Option<Sha256> {
        let digit = |c: u8| match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            _ => None,
        };
        let text = text.as_bytes();
        if text.len() != 64 {
            return None;
        }
        let mut bytes = [0u8; 32];
        for (byte, pair) in bytes.iter_mut().zip(text.chunks_exact(2)) {
            *byte = digit(pair[0])? << 4 | digit(pair[1])?;
        }
        Some(Sha256(bytes))
    }
}

impl fmt::Display for Sha256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl fmt::Debug for Sha256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sha256({self})")
    }
}

impl serde::Serialize for Sha256 {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Sha256 {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Sha256::from_hex(&text)
            .ok_or_else(|| serde::de::Error::custom("a SHA-256 is 64 lowercase hex digits"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_only_lowercase_64_digits_read() {
        let digest = Sha256::of(b"abc");
        let hex = digest.to_string();
        assert_eq!(
            hex,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(Sha256::from_hex(&hex), Some(digest));
        assert_eq!(Sha256::from_hex(&hex.to_uppercase()), None);
        assert_eq!(Sha256::from_hex(&hex[2..]), None);
        assert_eq!(Sha256::from_hex(&format!("{}zz", &hex[2..])), None);
        let json = serde_json::to_string(&digest).unwrap();
        assert_eq!(json, format!("\"{hex}\""));
        assert_eq!(serde_json::from_str::<Sha256>(&json).unwrap(), digest);
        assert!(serde_json::from_str::<Sha256>("\"x\"").is_err());
    }
}
