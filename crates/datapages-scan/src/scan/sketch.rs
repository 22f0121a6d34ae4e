//! A HyperLogLog sketch of a text column's distinct values, kept once there are more than
//! the exact count's cap: 4,096 one-byte registers (about 1.6 % standard error) whatever
//! the number of rows, merged by taking each register's maximum, so the halves of a split
//! scan join into exactly the sketch one pass builds.

use serde::{Deserialize, Serialize};

/// Bits of the hash that pick a register.
const INDEX_BITS: u32 = 12;
const REGISTERS: usize = 1 << INDEX_BITS;

/// The registers, stored in the scan cache as hex text.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Sketch {
    registers: Vec<u8>,
}

impl Sketch {
    pub fn new() -> Sketch {
        Sketch {
            registers: vec![0; REGISTERS],
        }
    }

    /// Adds a value by its 64-bit hash (the upper half of the cell's fingerprint).
    pub fn insert(&mut self, hash: u64) {
        let index = (hash >> (64 - INDEX_BITS)) as usize;
        // The rank of the first one bit in the remaining bits (1-based), at most 53.
        let rest = (hash << INDEX_BITS) | (1 << (INDEX_BITS - 1));
        let rank = rest.leading_zeros() as u8 + 1;
        if let Some(register) = self.registers.get_mut(index) {
            *register = (*register).max(rank);
        }
    }

    /// Adds every value `other` saw.
    pub fn merge(&mut self, other: &Sketch) {
        for (mine, theirs) in self.registers.iter_mut().zip(&other.registers) {
            *mine = (*mine).max(*theirs);
        }
    }

    /// The estimated number of distinct values: HyperLogLog's estimate, with linear
    /// counting where few registers are set (the range just past the exact cap).
    pub fn estimate(&self) -> u64 {
        let m = REGISTERS as f64;
        let alpha = 0.7213 / (1.0 + 1.079 / m);
        let sum: f64 = self
            .registers
            .iter()
            .map(|&r| 2f64.powi(-i32::from(r)))
            .sum();
        let raw = alpha * m * m / sum;
        let zeros = self.registers.iter().filter(|&&r| r == 0).count();
        let estimate = if raw <= 2.5 * m && zeros > 0 {
            m * (m / zeros as f64).ln()
        } else {
            raw
        };
        estimate.round() as u64
    }
}

impl From<Sketch> for String {
    fn from(sketch: Sketch) -> String {
        sketch
            .registers
            .iter()
            .map(|r| format!("{r:02x}"))
            .collect()
    }
}

impl TryFrom<String> for Sketch {
    type Error = String;

    fn try_from(text: String) -> Result<Sketch, String> {
        if text.len() != REGISTERS * 2 || !text.is_ascii() {
            return Err("a distinct-value sketch of the wrong size".into());
        }
        let registers = (0..REGISTERS)
            .map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16))
            .collect::<Result<Vec<u8>, _>>()
            .map_err(|e| e.to_string())?;
        Ok(Sketch { registers })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The upper half of the cell's fingerprint, as the scan inserts it.
    fn hash(n: u64) -> u64 {
        (super::super::fingerprint::fingerprint(&n.to_string()) >> 64) as u64
    }

    #[test]
    fn estimates_stay_within_a_few_percent_from_a_thousand_to_a_million() {
        for n in [1_500u64, 12_000, 250_000, 1_000_000] {
            let mut sketch = Sketch::new();
            for i in 0..n {
                sketch.insert(hash(i));
                sketch.insert(hash(i)); // repeats change nothing
            }
            let error = (sketch.estimate() as f64 - n as f64).abs() / n as f64;
            assert!(error < 0.05, "{n}: estimated {}", sketch.estimate());
        }
    }

    #[test]
    fn two_halves_merge_into_the_whole_and_survive_the_cache() {
        let (mut first, mut second, mut whole) = (Sketch::new(), Sketch::new(), Sketch::new());
        for i in 0..20_000u64 {
            whole.insert(hash(i));
            if i % 3 == 0 { &mut first } else { &mut second }.insert(hash(i));
        }
        first.merge(&second);
        assert!(first == whole);
        let stored: String = whole.clone().into();
        assert!(Sketch::try_from(stored).is_ok_and(|s| s == whole));
        assert!(Sketch::try_from("00".to_string()).is_err());
    }
}
