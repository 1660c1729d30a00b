//! Runtime specialisation at call sites: a call to a native helper whose operand is a
//! constant set just before the call is lowered to code for that constant.
//!
//! Assumes: the constant comes from an `ldi` earlier in the same straight-line run
//! (nothing between it and the call is a jump target or writes the operand register),
//! so the register holds it on every path into the call.
//! Guarantees: the specialised code leaves every AVR register exactly as the general
//! helper does (the helpers' own conventions, [`crate::runtime`]); A and X are scratch,
//! as between any two AVR instructions, and no flag is live after a call.

use crate::mmap::reg;
use mos_asm::asm::{Asm, op::*};

/// `__udivmodqi4` (r24 / r22: quotient in r24, remainder in r25) with r22 = `k`: a mask
/// and shifts for a power of two, repeated subtraction for divisors of 10 and more (at
/// most 25 rounds of 11 cycles, against about 215 cycles for the general routine, and a
/// few rounds for the small dividends of card arithmetic). `false` (nothing emitted) for
/// other divisors.
pub fn udivmodqi4_by(a: &mut Asm, k: u8) -> bool {
    let (num, quo, rem) = (reg(24), reg(24), reg(25));
    if k.is_power_of_two() {
        let shift = k.trailing_zeros();
        a.b(LDA_ZP, num).i(TAX).b(AND_IMM, k - 1).b(STA_ZP, rem).i(TXA);
        for _ in 0..shift {
            a.i(LSR_A);
        }
        a.b(STA_ZP, quo);
        return true;
    }
    if k < 10 {
        return false;
    }
    // loop: CMP #k / BCC done / SBC #k (carry set: exact) / INX / BNE loop (X > 0).
    a.b(LDA_ZP, num).b(LDX_IMM, 0);
    a.b(CMP_IMM, k).b(BCC, 5).b(SBC_IMM, k).i(INX).b(BNE, (-9i8) as u8);
    a.b(STA_ZP, rem).b(STX_ZP, quo);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `a` on the 6502 with r24 = `n`; returns (r24, r25).
    fn run(a: &Asm, n: u8) -> (u8, u8) {
        let mut zp = [0u8; 256];
        zp[usize::from(reg(24))] = n;
        let zp = crate::snippet::run(a, zp);
        (zp[usize::from(reg(24))], zp[usize::from(reg(25))])
    }

    #[test]
    fn constant_divisions_match_the_general_routine_for_every_dividend() {
        for k in 1..=255u8 {
            let mut a = Asm::default();
            if !udivmodqi4_by(&mut a, k) {
                assert!(k < 10 && !k.is_power_of_two(), "divisor {k} should be specialised");
                continue;
            }
            for n in 0..=255u8 {
                assert_eq!(run(&a, n), (n / k, n % k), "{n} / {k}");
            }
        }
    }
}
