//! `mul` by a constant: when one operand of an unsigned 8-bit `mul` holds a known
//! constant (a card's rank times 11, a row's length, a loop's `% 10`), the product is built
//! by shifts and adds of the other operand, with no call to the runtime's multiply.
//!
//! Assumes: the constant reaches the `mul` on every path ([`crate::analysis::constants`]
//! says so), and the other operand is not r1 (r1 is written before the operand is read
//! for the last time). Guarantees: r1:r0 hold the 16-bit product, as after `mul`, and no
//! other AVR register changes; the 6502 flags are left undefined, so the caller uses it
//! only where the `mul`'s C and Z are captured from r1:r0 afterwards or are dead.
//! From the top bit of the constant down, each lower bit costs a 16-bit shift (A and r1)
//! and each set bit an add of the operand: 11 (binary 1011) takes about 50 cycles against
//! about 130 for the call and the general loop; a constant whose sequence would be long
//! ([`MAX_BYTES`]) stays a call.

use crate::mmap::reg;
use mos_asm::asm::{Asm, op::*};

/// The most bytes the sequence may take: the call it replaces takes 11 (both operands
/// copied, then `JSR`), so a constant with many bits (47 is 51 bytes) stays a call and a
/// program with many such multiplies (the game's 47s) does not grow by 40 bytes each.
pub const MAX_BYTES: u32 = 32;

/// The bytes of the sequence for `k`: the set-up and the final store, 3 a shift, 7 an add.
pub fn bytes_for(k: u8) -> u32 {
    match k {
        0 => 6,
        _ => 8 + 3 * (7 - k.leading_zeros()) + 7 * (k.count_ones() - 1),
    }
}

/// Emits r1:r0 = (AVR register `x`) * `k`, unsigned; `false` (nothing emitted) when `x` is
/// r1 or the sequence would take more than [`MAX_BYTES`].
pub fn mul8_by(a: &mut Asm, x: u8, k: u8) -> bool {
    if x == 1 || bytes_for(k) > MAX_BYTES {
        return false;
    }
    let (lo, hi, src) = (reg(0), reg(1), reg(x));
    if k == 0 {
        a.b(LDA_IMM, 0).b(STA_ZP, hi).b(STA_ZP, lo);
        return true;
    }
    a.b(LDA_IMM, 0).b(STA_ZP, hi).b(LDA_ZP, src);
    let top = 7 - k.leading_zeros();
    for bit in (0..top).rev() {
        a.i(ASL_A).b(ROL_ZP, hi);
        if k & (1 << bit) != 0 {
            a.i(CLC).b(ADC_ZP, src).b(BCC, 2).b(INC_ZP, hi);
        }
    }
    a.b(STA_ZP, lo);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use mos_asm::asm::{Item, info};

    /// Runs `a` on the 6502 with the AVR register `x` holding `v` and r0, r1 holding
    /// garbage; returns r1:r0.
    fn run(a: &Asm, x: u8, v: u8) -> u16 {
        let mut zp = [0u8; 256];
        zp[usize::from(reg(0))] = 0xA5;
        zp[usize::from(reg(1))] = 0x5A;
        zp[usize::from(reg(x))] = v;
        let zp = crate::snippet::run(a, zp);
        u16::from(zp[usize::from(reg(1))]) << 8 | u16::from(zp[usize::from(reg(0))])
    }

    #[test]
    fn every_constant_times_every_operand_is_the_product() {
        for k in 0..=255u8 {
            let mut a = Asm::default();
            if !mul8_by(&mut a, 22, k) {
                assert!(bytes_for(k) > MAX_BYTES, "{k} should be inline");
                assert!(a.items.is_empty());
                continue;
            }
            let size: u32 = a
                .items
                .iter()
                .map(|it| match it {
                    Item::Ins(o, _) => u32::from(info(*o).unwrap().0),
                    _ => 0,
                })
                .sum();
            assert_eq!(size, bytes_for(k), "the size of {k}'s sequence");
            for v in 0..=255u8 {
                assert_eq!(run(&a, 22, v), u16::from(v) * u16::from(k), "{v} * {k}");
            }
        }
        // The operand in r0, which the product overwrites last.
        let mut a = Asm::default();
        assert!(mul8_by(&mut a, 0, 11));
        assert_eq!(run(&a, 0, 200), 2200);
    }

    #[test]
    fn r1_as_the_operand_and_long_sequences_are_left_to_the_general_multiply() {
        assert!(!mul8_by(&mut Asm::default(), 1, 11));
        // 11 (31 bytes) is inline, 47 (51 bytes) is not.
        assert!(mul8_by(&mut Asm::default(), 22, 11));
        assert!(!mul8_by(&mut Asm::default(), 22, 47));
    }
}
