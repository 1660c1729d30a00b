//! Hashing: words hashed with 32-bit FNV-1a into an open-addressing hash set (linear
//! probing), which counts the distinct ones.

use crate::rng::Rng;

/// Words to hash.
const WORDS: usize = 100;
/// Slots in the set: a power of two above twice the words.
const SLOTS: usize = 256;

/// The 32-bit FNV-1a hash of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    let mut hash: u32 = 0x811C_9DC5;
    for &b in bytes {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

/// A set of hashes (0 marks an empty slot, so a hash of 0 is stored as 1).
struct HashSet {
    slots: [u32; SLOTS],
}

impl HashSet {
    /// Adds `hash`; true if it was not there.
    fn insert(&mut self, hash: u32) -> bool {
        let hash = if hash == 0 { 1 } else { hash };
        let mut i = hash as usize % SLOTS;
        loop {
            if self.slots[i] == hash {
                return false;
            }
            if self.slots[i] == 0 {
                self.slots[i] = hash;
                return true;
            }
            i = (i + 1) % SLOTS;
        }
    }
}

/// The kernel: 100 words of 2 to 5 letters from a 4-letter alphabet (so that some repeat);
/// the distinct count in the high byte, the hashes' XOR's low 24 bits below it.
pub fn run(seed: u16) -> u32 {
    let mut rng = Rng::new(seed);
    let mut set = HashSet { slots: [0; SLOTS] };
    let mut distinct = 0u32;
    let mut mix = 0u32;
    let mut word = [0u8; 5];
    for _ in 0..WORDS {
        let len = 2 + usize::from(rng.byte() % 4);
        for letter in word[..len].iter_mut() {
            *letter = b'a' + rng.byte() % 4;
        }
        let hash = fnv1a(&word[..len]);
        mix ^= hash;
        if set.insert(hash) {
            distinct += 1;
        }
    }
    (distinct << 24) | (mix & 0x00FF_FFFF)
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_hashes() {
        assert_eq!(super::fnv1a(b""), 0x811C_9DC5);
        assert_eq!(super::fnv1a(b"a"), 0xE40C_292C);
        assert_eq!(super::fnv1a(b"foobar"), 0xBF9C_F968);
    }
}
