//! [`FastHash`]: the hash of the ledger's and the sightings' maps, whose keys are the caller's
//! own markets and `clientOrderId`s (nothing from the network: no defence against chosen
//! collisions is needed). std's SipHash was about 1 k instructions of every order's
//! bookkeeping (BENCHMARKS.md, issue 27).
//!
//! The function is `rustc-hash` 2's FxHash (Orson Peters' string hash, then rustc's multiply
//! per word; Apache-2.0 OR MIT, as this crate), written out here for the one use this crate
//! makes of it: one crate fewer in every client's build, the same hashes (a property test
//! against `rustc-hash`) and so the same maps (BENCHMARKS.md "Pay only for what you use (issue
//! 39)"). Its quality is `rustc-hash`'s: the string hash passes SMHasher3.

use std::hash::{BuildHasher, Hasher};

/// Builds [`FastHasher`]s: the maps' `S`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct FastHash;

impl BuildHasher for FastHash {
    type Hasher = FastHasher;

    fn build_hasher(&self) -> FastHasher {
        FastHasher { hash: 0 }
    }
}

/// The hash of one key.
#[derive(Debug, Clone)]
pub(crate) struct FastHasher {
    hash: u64,
}

/// rustc's multiplier.
const K: u64 = 0xf135_7aea_2e62_a9c5;
/// The string hash's two starting states (π's fraction).
const SEED1: u64 = 0x243f_6a88_85a3_08d3;
const SEED2: u64 = 0x1319_8a2e_0370_7344;
/// Keeps a run of zero bytes from collapsing the state to zero.
const NOT_ZERO: u64 = 0xa409_3822_299f_31d0;

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.hash = self.hash.wrapping_add(word).wrapping_mul(K);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.add(hash_bytes(bytes));
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        // The multiply leaves its best bits high; a table indexes by the low ones.
        self.hash.rotate_left(26)
    }
}

/// The 128-bit product folded in half: its middle bits, which every input bit reaches.
fn multiply_mix(x: u64, y: u64) -> u64 {
    let full = u128::from(x).wrapping_mul(u128::from(y));
    (full as u64) ^ ((full >> 64) as u64)
}

/// The little-endian word at `at` (zero past the end, which the callers never reach).
fn word(bytes: &[u8], at: usize) -> u64 {
    bytes
        .get(at..)
        .and_then(<[u8]>::first_chunk::<8>)
        .map_or(0, |w| u64::from_le_bytes(*w))
}

/// The little-endian half-word at `at` (zero past the end).
fn half_word(bytes: &[u8], at: usize) -> u64 {
    bytes
        .get(at..)
        .and_then(<[u8]>::first_chunk::<4>)
        .map_or(0, |w| u64::from(u32::from_le_bytes(*w)))
}

/// The string hash: short inputs read once (overlapping), longer ones 16 bytes at a time in
/// two independent streams, then the last 16.
fn hash_bytes(bytes: &[u8]) -> u64 {
    let len = bytes.len();
    let mut s0 = SEED1;
    let mut s1 = SEED2;
    if len <= 16 {
        if len >= 8 {
            s0 ^= word(bytes, 0);
            s1 ^= word(bytes, len - 8);
        } else if len >= 4 {
            s0 ^= half_word(bytes, 0);
            s1 ^= half_word(bytes, len - 4);
        } else if let (Some(&lo), Some(&mid), Some(&hi)) =
            (bytes.first(), bytes.get(len / 2), bytes.last())
        {
            s0 ^= u64::from(lo);
            s1 ^= (u64::from(hi) << 8) | u64::from(mid);
        }
    } else {
        let mut bulk = bytes.get(..len - 1).unwrap_or_default();
        while let Some((chunk, rest)) = bulk.split_first_chunk::<16>() {
            let t = multiply_mix(s0 ^ word(chunk, 0), NOT_ZERO ^ word(chunk, 8));
            s0 = s1;
            s1 = t;
            bulk = rest;
        }
        s0 ^= word(bytes, len - 16);
        s1 ^= word(bytes, len - 8);
    }
    multiply_mix(s0, s1) ^ (len as u64)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    fn hash(key: &(String, String)) -> u64 {
        FastHash.hash_one(key)
    }

    /// Keys like the ledger's: one market, ids that differ in one character, at every place —
    /// their hashes differ in the bits a table indexes by (the low ones) and in the seven it
    /// compares first (the high ones).
    #[test]
    fn ids_differing_in_one_character_spread() {
        let base = "txc-0123456789abcdef0123";
        let mut low = HashSet::new();
        let mut high = HashSet::new();
        let mut count = 0;
        for place in 0..base.len() {
            for c in ['0', '7', 'z', 'A'] {
                let mut id = base.to_owned();
                id.replace_range(place..=place, &c.to_string());
                let h = hash(&("BTC_USDT".to_owned(), id));
                low.insert(h & 0xfff);
                high.insert(h >> 57);
                count += 1;
            }
        }
        // 96 keys (some equal to the base): nearly all distinct in 12 low bits, and spread
        // over the 128 values of the top 7.
        assert!(low.len() >= 85, "{} of {count}", low.len());
        assert!(high.len() >= 45, "{} of {count}", high.len());
    }

    #[test]
    fn sequential_ids_fill_a_table_evenly() {
        let buckets = 1 << 10;
        let mut counts = vec![0u32; buckets];
        for i in 0..(buckets * 8) {
            let h = hash(&("ETH_USDT".to_owned(), format!("order-{i}")));
            if let Some(c) = counts.get_mut((h as usize) & (buckets - 1)) {
                *c += 1;
            }
        }
        // 8 per bucket on average: a fair hash leaves no bucket with more than ~25.
        let max = counts.iter().max().copied().unwrap_or_default();
        assert!(max <= 25, "a bucket holds {max}");
    }

    proptest::proptest! {
        /// Bit for bit `rustc-hash`'s FxHash, for every length (the string hash branches by
        /// length: up to 3, 7, 16, then 16-byte blocks) and for the keys' shape.
        #[test]
        fn the_same_hashes_as_rustc_hash(
            text in "\\PC{0,80}",
            id in "[a-z0-9-]{0,40}",
            n in proptest::prelude::any::<u64>(),
        ) {
            let theirs = rustc_hash::FxBuildHasher;
            proptest::prop_assert_eq!(FastHash.hash_one(&text), theirs.hash_one(&text));
            let key = (text.clone(), id);
            proptest::prop_assert_eq!(FastHash.hash_one(&key), theirs.hash_one(&key));
            proptest::prop_assert_eq!(FastHash.hash_one(n), theirs.hash_one(n));
        }
    }

    #[test]
    fn length_and_position_count() {
        let h = |s: &str| FastHash.hash_one(s);
        assert_ne!(h("a"), h("a\0"));
        assert_ne!(h(""), h("\0\0\0\0\0\0\0\0"));
        assert_ne!(
            FastHash.hash_one(("ab", "c")),
            FastHash.hash_one(("a", "bc"))
        );
        assert_eq!(h("BTC_USDT"), h("BTC_USDT"));
    }
}
