//! 64-bit sums with 16-bit multipliers, and exact values as fractions: the coach's
//! arithmetic, built so that the firmware needs no 64-bit multiply or divide helper
//! (`cargo xtask avr` refuses them; on the 6502 `__muldi3` would also be slow).
//!
//! Every product is formed from 16 × 16 → 32-bit pieces (the runtime's `__mulsi3`, which
//! stops when the smaller operand's bits run out) and added up in 64 bits. Multiplying
//! modulo 2^64 gives the exact result whenever it fits, signed or not, which every caller's
//! bound guarantees.

/// `a × b` modulo 2^64, from four 16 × 16-bit products. The shifts are by constants, a
/// whole number of bytes: moves on the 6502, where a shift by a variable amount of a
/// 64-bit value is a loop of 64-bit single shifts (it made this routine 12,000 cycles).
pub fn mul_u16(a: u64, b: u16) -> u64 {
    let b = u32::from(b);
    let limb = |shift: u32| u32::from((a >> shift) as u16) * b;
    u64::from(limb(0))
        .wrapping_add(u64::from(limb(16)) << 16)
        .wrapping_add(u64::from(limb(32)) << 32)
        .wrapping_add(u64::from(limb(48)) << 48)
}

/// `a × b` exactly, from two 32-bit products: what a hand's weight times its sum needs.
pub fn mul_i32_u16(a: i32, b: u16) -> i64 {
    let b = i32::from(b);
    let (high, low) = (a >> 16, a & 0xFFFF);
    // |high × b| < 2^31 and low × b < 2^32: neither overflows its type.
    (i64::from(high * b) << 16) + i64::from((low as u32) * (b as u32))
}

/// `a × b` modulo 2^64.
pub fn mul_u32(a: u64, b: u32) -> u64 {
    let low = mul_u16(a, b as u16);
    let high = (b >> 16) as u16;
    if high == 0 { low } else { low.wrapping_add(mul_u16(a, high) << 16) }
}

/// `a × b` for a signed `a`, modulo 2^64: two's complement makes it the same product.
pub fn mul_i64_u32(a: i64, b: u32) -> i64 {
    mul_u32(a as u64, b) as i64
}

/// An exact value `numerator / denominator` (the denominator positive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ev {
    /// The numerator, signed.
    pub numerator: i64,
    /// The denominator, above zero.
    pub denominator: u64,
}

impl Ev {
    /// The value times `10^digits`, rounded half away from zero: `to_fixed(4)` is the
    /// expected value per unit to four decimals as the screen shows it (-123 is
    /// -0.0123). Long division one decimal digit at a time, each digit at most nine
    /// subtractions, so that no 64-bit division helper is needed.
    pub fn to_fixed(self, digits: u8) -> i32 {
        let den = self.denominator;
        if den == 0 {
            return 0;
        }
        let mut rest = self.numerator.unsigned_abs();
        let mut quotient: i32 = 0;
        while rest >= den {
            rest -= den;
            quotient += 1;
        }
        for _ in 0..digits {
            // `rest < den < 2^60` for every value the coach forms, so ten times it fits.
            rest = mul_u16(rest, 10);
            let mut digit = 0;
            while rest >= den {
                rest -= den;
                digit += 1;
            }
            quotient = quotient * 10 + digit;
        }
        if rest >= den - rest {
            quotient += 1;
        }
        if self.numerator < 0 { -quotient } else { quotient }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_match_the_native_ones() {
        let samples = [0u64, 1, 2, 0xFFFF, 0x1_0000, 0x1234_5678_9ABC, (1 << 52) + 12345, u64::MAX];
        for &a in &samples {
            for &b in &[0u32, 1, 10, 0xFFFF, 0x1_0000, 65_536 - 17, 0xDEAD_BEEF, u32::MAX] {
                assert_eq!(mul_u32(a, b), a.wrapping_mul(u64::from(b)), "{a} x {b}");
                assert_eq!(mul_u16(a, b as u16), a.wrapping_mul(u64::from(b as u16)), "{a} x {b}");
            }
        }
        assert_eq!(mul_i64_u32(-7, 65_536), -7 * 65_536);
        for a in [0, 1, -1, 65_535, -65_536, 262_143, -262_144, i32::MAX, i32::MIN] {
            for b in [0u16, 1, 16_256, u16::MAX] {
                assert_eq!(mul_i32_u16(a, b), i64::from(a) * i64::from(b), "{a} x {b}");
            }
        }
        assert_eq!(mul_i64_u32(-(1 << 40) - 3, 99_999), (-(1i64 << 40) - 3) * 99_999);
    }

    #[test]
    fn fixed_point_rounds_half_away_from_zero() {
        let ev = |numerator, denominator| Ev { numerator, denominator };
        assert_eq!(ev(1, 3).to_fixed(4), 3333);
        assert_eq!(ev(2, 3).to_fixed(4), 6667);
        assert_eq!(ev(-2, 3).to_fixed(4), -6667);
        assert_eq!(ev(1, 20_000).to_fixed(4), 1, "a half rounds up");
        assert_eq!(ev(-1, 20_000).to_fixed(4), -1, "and down below zero");
        assert_eq!(ev(-1, 1).to_fixed(4), -10_000);
        assert_eq!(ev(0, 7).to_fixed(4), 0);
        let big = (1u64 << 52) + 1;
        assert_eq!(ev((big / 7) as i64, big).to_fixed(6), 142_857);
    }
}
