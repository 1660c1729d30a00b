//! The game's pseudo-random generator and unbiased ranges drawn from it.
//!
//! The 6502 has no multiplier, so the generator is Marsaglia's xorshift32 (triple 13, 17, 5):
//! 32 bits of state, shifts and exclusive-ors only, period 2^32 − 1. It is not for
//! cryptography; it is for shuffling cards identically on the host and on the C128.

use core::convert::Infallible;
use rand_core::{SeedableRng, TryRng};

/// xorshift32. The state is never zero (zero is a fixed point), so seeding maps 0 elsewhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Xorshift32 {
    state: u32,
}

impl Xorshift32 {
    /// The state a zero seed is replaced with (any non-zero constant would do).
    const ZERO_SEED_STATE: u32 = 0x2545_F491;

    /// A generator from a 32-bit seed; every seed, zero included, gives a working generator.
    pub const fn new(seed: u32) -> Self {
        Self { state: if seed == 0 { Self::ZERO_SEED_STATE } else { seed } }
    }

    /// The next 32 bits.
    #[inline]
    pub fn next_word(&mut self) -> u32 {
        self.state = step(self.state);
        self.state
    }

    /// A uniform integer in `0..n`, or 0 when `n` is 0 or 1.
    ///
    /// Rejection against the next power of two keeps it unbiased without a division (a
    /// 16-bit division costs hundreds of cycles on the 6502); fewer than two draws on
    /// average. The top bits are used because xorshift's low bits are its weakest.
    #[inline]
    pub fn below(&mut self, n: u16) -> u16 {
        if n <= 1 {
            return 0;
        }
        self.below_shifted(n, (n - 1).leading_zeros() as u8)
    }

    /// [`Xorshift32::below`] for `n` of at least 2, given `shift = (n - 1).leading_zeros()`.
    ///
    /// Counting leading zeros costs the 6502 hundreds of cycles (LLVM's AVR back end counts
    /// them with a population count; see `leading_zeros` in the shoe), so the shuffle works
    /// the shift out once for each run of `n` that shares it instead of once per card.
    #[inline]
    pub(crate) fn below_shifted(&mut self, n: u16, shift: u8) -> u16 {
        loop {
            // The top `16 - shift` bits of the word, that is its top half shifted right by
            // `shift`. A variable shift is a loop of one-bit steps on the 6502, so it is
            // kept short: from 8 on, the top byte shifted by `shift - 8` (0 to 7 steps of
            // one byte); below 8, the top half shifted left by `8 - shift` into a third
            // byte, then the top two bytes (the same number, in 8 - shift steps). Written
            // `top >> shift`, a loop of 16-bit steps, the benchmark is 124 bytes smaller
            // (the game's bank 0 has 119 more free), but an 8-deck shuffle takes 90,000
            // cycles more (463,148 instead of 372,683: 0.46 s of the game's half second)
            // and a coup 18.
            let top = (self.next_word() >> 16) as u16;
            let candidate = if shift >= 8 {
                u16::from(((top >> 8) as u8) >> (shift - 8))
            } else {
                ((u32::from(top) << (8 - shift)) >> 8) as u16
            };
            if candidate < n {
                return candidate;
            }
        }
    }

    /// True with probability `chance.draw_in_65536 / 65536`.
    #[inline]
    pub fn happens(&mut self, chance: Chance) -> bool {
        (self.next_word() >> 16) < chance.0
    }
}

/// One xorshift32 step, as Marsaglia wrote it. LLVM's AVR back end shifts the `u32` left
/// by 13 and 5 with `swap` (exchange nibbles) and masks, byte by byte, which the
/// translator turns into 6502 shifts of the whole chain. (Spelt by hand as byte moves and
/// shifts right by 3, as the step was until the translator did so, an 8-deck shuffle took
/// 409,651 cycles instead of 372,683, and the benchmark 25 bytes more.)
#[inline(always)]
fn step(mut x: u32) -> u32 {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    x
}

/// A probability in 65,536ths: how the firmware stores the mixed strategies of the
/// game-theoretic solution without floating point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chance(u32);

impl Chance {
    /// Never.
    pub const NEVER: Chance = Chance(0);
    /// Always.
    pub const ALWAYS: Chance = Chance(65_536);

    /// `n / 65536`, clamped to 1.
    pub const fn in_65536(n: u32) -> Chance {
        Chance(if n > 65_536 { 65_536 } else { n })
    }

    /// The numerator over 65,536.
    pub const fn numerator(self) -> u32 {
        self.0
    }
}

impl TryRng for Xorshift32 {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.next_word())
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let low = u64::from(self.next_word());
        Ok(low | (u64::from(self.next_word()) << 32))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(4) {
            let word = self.next_word().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
        Ok(())
    }
}

impl SeedableRng for Xorshift32 {
    type Seed = [u8; 4];

    fn from_seed(seed: [u8; 4]) -> Self {
        Self::new(u32::from_le_bytes(seed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::Rng;

    #[test]
    fn matches_the_published_xorshift32_sequence() {
        // Marsaglia (2003), xorshift32 with (13, 17, 5) from state 1: 270369, 67634689, ...
        let mut rng = Xorshift32::new(1);
        assert_eq!(rng.next_word(), 270_369);
        assert_eq!(rng.next_word(), 67_634_689);
    }

    #[test]
    fn zero_seed_still_moves() {
        let mut rng = Xorshift32::new(0);
        assert_ne!(rng.next_word(), 0);
        assert_ne!(rng.next_word(), rng.clone().next_word().wrapping_add(1));
    }

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        let mut rng = Xorshift32::new(7);
        let mut seen = [0u32; 13];
        for _ in 0..13_000 {
            seen[rng.below(13) as usize] += 1;
        }
        assert!(seen.iter().all(|&count| (800..1200).contains(&count)), "{seen:?}");
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.below(1), 0);
        assert!((0..1000).all(|_| rng.below(u16::MAX) < u16::MAX));
    }

    /// `rand_core` 0.10 names the trait `Rng`; `RngCore` is its (deprecated) alias, and
    /// code written against either accepts the game's generator.
    #[test]
    #[allow(deprecated, reason = "the test is that code written against the deprecated alias still compiles")]
    fn implements_rand_core() {
        fn takes_rng_core<R: rand_core::RngCore + SeedableRng>(mut rng: R) -> u32 {
            rng.next_u32()
        }
        assert_eq!(takes_rng_core(Xorshift32::new(1)), 270_369);
    }

    #[test]
    fn rand_core_interface_uses_the_same_stream() {
        let mut a = Xorshift32::new(99);
        let mut b = Xorshift32::from_seed(99u32.to_le_bytes());
        assert_eq!(Rng::next_u32(&mut a), b.next_word());
        let mut bytes = [0u8; 6];
        a.fill_bytes(&mut bytes);
        assert_eq!(bytes[..4], b.next_word().to_le_bytes());
    }

    /// `below` as it was first written: the bit count of `n - 1`, then the top that many
    /// bits of each word until one is below `n`.
    fn reference_below(state: &mut u32, n: u16) -> u16 {
        if n <= 1 {
            return 0;
        }
        let bits = 16 - (n - 1).leading_zeros();
        loop {
            *state = step(*state);
            let candidate = ((*state >> 16) as u16) >> (16 - bits);
            if candidate < n {
                return candidate;
            }
        }
    }

    #[test]
    fn below_matches_the_reference_for_every_n_and_many_seeds() {
        for seed in [1u32, 2, 3, 7, 99, 12_345, 0xDEAD_BEEF, u32::MAX] {
            let mut rng = Xorshift32::new(seed);
            let mut reference = rng.state;
            for n in (0..=u16::MAX).chain([0, 1, 2, 3, 255, 256, 257, 416, 32_768, 32_769, u16::MAX]) {
                assert_eq!(rng.below(n), reference_below(&mut reference, n), "seed {seed}, n {n}");
                assert_eq!(rng.state, reference, "seed {seed}, n {n}");
            }
        }
    }

    #[test]
    fn below_shifted_takes_the_same_draws_for_every_shift() {
        let mut rng = Xorshift32::new(4242);
        let mut reference = rng.state;
        for _ in 0..200 {
            for shift in 0..16u32 {
                // The smallest, a middle and the largest `n` with this shift.
                let low = (0x8000u32 >> shift) + 1;
                let high = (0x1_0000u32 >> shift).min(u32::from(u16::MAX));
                for n in [low, (low + high) / 2, high] {
                    let n = n as u16;
                    assert_eq!(rng.below_shifted(n, shift as u8), reference_below(&mut reference, n), "n {n}");
                    assert_eq!(rng.state, reference);
                }
            }
        }
    }

    #[test]
    fn chance_extremes() {
        let mut rng = Xorshift32::new(3);
        assert!((0..1000).all(|_| rng.happens(Chance::ALWAYS)));
        assert!((0..1000).all(|_| !rng.happens(Chance::NEVER)));
        let half = (0..10_000).filter(|_| rng.happens(Chance::in_65536(32_768))).count();
        assert!((4_700..5_300).contains(&half), "{half}");
    }
}
