//! The input generator every kernel shares: Marsaglia's 16-bit xorshift (7, 9, 8), whose
//! period is 65,535 for any seed but 0.

/// A 16-bit xorshift generator.
pub struct Rng(u16);

impl Rng {
    /// A generator from `seed` (0, which would stay 0, counts as 1).
    pub fn new(seed: u16) -> Self {
        Rng(if seed == 0 { 1 } else { seed })
    }

    /// The next number.
    pub fn next_u16(&mut self) -> u16 {
        let mut x = self.0;
        x ^= x << 7;
        x ^= x >> 9;
        x ^= x << 8;
        self.0 = x;
        x
    }

    /// The next number's low byte.
    pub fn byte(&mut self) -> u8 {
        self.next_u16() as u8
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn the_period_is_65535() {
        let mut rng = Rng::new(1);
        let first = rng.next_u16();
        let mut n = 1u32;
        while rng.next_u16() != first {
            n += 1;
        }
        assert_eq!(n, 65_535);
    }
}
