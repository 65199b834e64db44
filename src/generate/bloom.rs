//! A fixed-size Bloom filter for the generator's "seen before?" sets (sequences, values,
//! results). A 10-minute run meets ~15 million sequences: exact hash sets grew past 500 MB,
//! while this filter stays at its fixed size. A false positive only makes a new sequence or
//! value look old (it is skipped or not reused), never the reverse, and it is deterministic.

pub struct Bloom {
    bits: Vec<u64>,
    mask: u64,
}

/// Bit positions set per item.
const K: u64 = 4;

impl Bloom {
    /// A filter of `2^log2_bits` bits.
    pub fn new(log2_bits: u32) -> Bloom {
        let words = 1usize << log2_bits.saturating_sub(6);
        Bloom {
            bits: vec![0; words],
            mask: (1u64 << log2_bits) - 1,
        }
    }

    /// Insert the item with hashes `h1`, `h2`; true when it was not (probably) there before.
    pub fn insert(&mut self, h1: u64, h2: u64) -> bool {
        let mut new = false;
        for i in 0..K {
            let bit = h1.wrapping_add(i.wrapping_mul(h2 | 1)) & self.mask;
            let (w, b) = ((bit >> 6) as usize, bit & 63);
            if self.bits[w] & (1 << b) == 0 {
                new = true;
                self.bits[w] |= 1 << b;
            }
        }
        new
    }

    /// Insert a 64-bit hash (two independent hashes are derived with splitmix64).
    pub fn insert64(&mut self, h: u64) -> bool {
        self.insert(splitmix(h), splitmix(h ^ 0x5851_F42D_4C95_7F2D))
    }
}

fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn remembers_and_rarely_confuses() {
        let mut b = Bloom::new(20);
        // A Bloom filter may call a new item old (rarely), never an old item new.
        let first_false = (0..10_000u64)
            .filter(|i| !b.insert64(i.wrapping_mul(0x2545_F491_4F6C_DD1D)))
            .count();
        assert!(first_false < 5, "{first_false} new items looked old");
        for i in 0..10_000u64 {
            assert!(
                !b.insert64(i.wrapping_mul(0x2545_F491_4F6C_DD1D)),
                "second insert of {i} is old"
            );
        }
        let false_pos = (10_000..20_000u64)
            .filter(|i| !b.insert64(i.wrapping_mul(0x2545_F491_4F6C_DD1D)))
            .count();
        assert!(false_pos < 50, "{false_pos} false positives in 10,000");
    }
}
