//! The divisions: 8-, 16- and 32-bit, signed and unsigned, quotient and remainder
//! together (`__udivmodqi4`, `__divmodqi4`, `__udivmodhi4`, `__divmodhi4`,
//! `__udivmodsi4`, `__divmodsi4`) over shift-and-subtract cores.
//!
//! Assumes the operands in avr-gcc's registers for these helpers (see the runtime's module
//! doc). Guarantees: libgcc's results, truncating division with the remainder taking the
//! dividend's sign, and libgcc's answer for a zero divisor (Rust checks before calling);
//! nothing changed but the result registers and the scratch T0..T11 and the wide scratch at $40-$59.

use super::{Routine, WIDE, r, t};
use mos_asm::asm::Locals;
use mos_asm::asm::{Asm, op::*};

/// Where the 32-bit divisions' `Keep` variants leave `x - x % d`, the product of their
/// quotient and divisor, for the multiply that follows ([`crate::analysis::div_products`]):
/// four bytes of the wide scratch that only the wide multiplies also use, and a call of
/// any routine between the division and the multiply ends the pairing.
pub const PRODUCT: u8 = WIDE + 2;

/// Which of the program's divisions all have a divisor known before the call whose
/// magnitude is 1 to 255 ([`crate::lower::Ctx::divisors_all_small`]): the unsigned
/// routine of that width is then only its byte path.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SmallDivisors {
    /// Every 16-bit division (`__udivmodhi4`, `__divmodhi4`): 51 bytes instead of 113.
    pub narrow: bool,
    /// Every 32-bit division (`__udivmodsi4`, `__divmodsi4`): 73 bytes instead of 192.
    pub wide: bool,
}

/// Udiv8, Udivmodqi4, Udivmodhi4, Divmodqi4, Divmodhi4, Udivmodsi4, Neg32 and
/// Divmodsi4, the unsigned ones shaped by `small`.
pub(super) fn routines(loc: &mut Locals, small: SmallDivisors) -> Vec<(Routine, Asm)> {
    let mut out = Vec::new();
    // T0 / T1, unsigned: quotient in T0, remainder in A. (The partial remainder after k
    // steps is below 2^k, so it never needs a ninth bit.)
    let mut a = Asm::default();
    let (dl, ds) = (loc.fresh(), loc.fresh());
    a.b(LDA_IMM, 0).b(LDX_IMM, 8).label(dl).b(ASL_ZP, t(0)).i(ROL_A).b(CMP_ZP, t(1)).br(BCC, ds);
    a.b(SBC_ZP, t(1)).b(INC_ZP, t(0)).label(ds).i(DEX).br(BNE, dl).i(RTS);
    out.push((Routine::Udiv8, a));
    // __udivmodhi4: r25:r24 / r23:r22 -> quotient r23:r22, remainder r25:r24, worked in
    // place: the dividend's bits shift out of r25:r24 at the top as the quotient's shift
    // in at the bottom, and the end moves each to its register (no copies in and out of
    // scratch: about 45 cycles a call fewer).
    //
    // A divisor from 1 to 255 (an index by a row's width, a number's digits by 10) keeps
    // the remainder below it, in A, with a ninth bit only for a moment, in the carry; the
    // dividend's bytes go 8 rounds each that shift only that byte. A high byte below the
    // divisor (a dividend below 256, or a long division's remainder brought down,
    // `(rem << 8 | limb) / 10`) is the remainder so far and the quotient's high byte zero,
    // so only the low byte's 8 rounds run. About 25 cycles a round instead of the general
    // loop's 45: about 200 cycles a call instead of 750.
    let mut a = Asm::default();
    let (general, first, byte, bit, sub, next) =
        (loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh());
    if !small.narrow {
        a.b(LDA_ZP, r(23)).br(BNE, general).b(LDA_ZP, r(22)).br(BEQ, general);
    }
    a.b(LDX_IMM, 1).b(LDA_ZP, r(25)).b(CMP_ZP, r(22)).br(BCS, first);
    a.b(LDY_IMM, 0).b(STY_ZP, r(25)).i(DEX).br(BEQ, byte);
    a.label(first).b(LDA_IMM, 0);
    a.label(byte).b(LDY_IMM, 8);
    a.label(bit).b(ASL_ZPX, r(24)).i(ROL_A).br(BCS, sub).b(CMP_ZP, r(22)).br(BCC, next);
    a.label(sub).b(SBC_ZP, r(22)).b(INC_ZPX, r(24));
    a.label(next).i(DEY).br(BNE, bit).i(DEX).br(BPL, byte);
    // The quotient from r25:r24 to r23:r22, the remainder from A (its high byte Y, zero).
    a.b(LDX_ZP, r(24)).b(STX_ZP, r(22)).b(LDX_ZP, r(25)).b(STX_ZP, r(23)).b(STA_ZP, r(24)).b(STY_ZP, r(25)).i(RTS);
    if !small.narrow {
        // Any other divisor (256 or more, or zero): 16 rounds over the whole width, the
        // remainder in T4:T5 (the partial remainder after k steps is below 2^k: 16 bits are
        // enough). A zero divisor subtracts every round and gives libgcc's answer, every
        // quotient bit 1 and the dividend as remainder.
        let (dl, ds) = (loc.fresh(), loc.fresh());
        a.label(general).b(LDA_IMM, 0).b(STA_ZP, t(4)).b(STA_ZP, t(5)).b(LDX_IMM, 16);
        a.label(dl).b(ASL_ZP, r(24)).b(ROL_ZP, r(25)).b(ROL_ZP, t(4)).b(ROL_ZP, t(5));
        a.b(LDA_ZP, t(4)).i(SEC).b(SBC_ZP, r(22)).i(TAY).b(LDA_ZP, t(5)).b(SBC_ZP, r(23)).br(BCC, ds);
        a.b(STA_ZP, t(5)).b(STY_ZP, t(4)).b(INC_ZP, r(24));
        a.label(ds).i(DEX).br(BNE, dl);
        for (from, to) in [(r(24), r(22)), (r(25), r(23)), (t(4), r(24)), (t(5), r(25))] {
            a.b(LDA_ZP, from).b(STA_ZP, to);
        }
        a.i(RTS);
    }
    out.push((Routine::Udivmodhi4, a));

    // __udivmodqi4: r24 / r22 -> quotient r24, remainder r25.
    let mut a = Asm::default();
    a.b(LDA_ZP, r(24)).b(STA_ZP, t(0)).b(LDA_ZP, r(22)).b(STA_ZP, t(1)).to(JSR, Routine::Udiv8.label());
    a.b(STA_ZP, r(25)).b(LDA_ZP, t(0)).b(STA_ZP, r(24)).i(RTS);
    out.push((Routine::Udivmodqi4, a));

    // __divmodqi4: signs in T4 (quotient) and T5 (remainder) around the unsigned division.
    let mut a = Asm::default();
    let [p1, p2, p3, p4] = [(); 4].map(|_| loc.fresh());
    a.b(LDA_ZP, r(24)).b(EOR_ZP, r(22)).b(STA_ZP, t(4)).b(LDA_ZP, r(24)).b(STA_ZP, t(5));
    a.br(BPL, p1);
    neg8_a(&mut a);
    a.label(p1).b(STA_ZP, t(0)).b(LDA_ZP, r(22)).br(BPL, p2);
    neg8_a(&mut a);
    a.label(p2).b(STA_ZP, t(1)).to(JSR, Routine::Udiv8.label());
    a.b(LDX_ZP, t(5)).br(BPL, p3);
    neg8_a(&mut a);
    a.label(p3).b(STA_ZP, r(25)).b(LDA_ZP, t(0)).b(LDX_ZP, t(4)).br(BPL, p4);
    neg8_a(&mut a);
    a.label(p4).b(STA_ZP, r(24)).i(RTS);
    out.push((Routine::Divmodqi4, a));

    // __divmodhi4: the magnitudes divided in place by __udivmodhi4, the signs of the
    // quotient (a xor b) and of the remainder (a's) in T8 and T9.
    let mut a = Asm::default();
    let [p1, p2, p3, p4] = [(); 4].map(|_| loc.fresh());
    a.b(LDA_ZP, r(25)).b(EOR_ZP, r(23)).b(STA_ZP, t(8)).b(LDA_ZP, r(25)).b(STA_ZP, t(9)).br(BPL, p1);
    neg16(&mut a, r(24));
    a.label(p1).b(LDA_ZP, r(23)).br(BPL, p2);
    neg16(&mut a, r(22));
    a.label(p2).to(JSR, Routine::Udivmodhi4.label());
    a.b(LDA_ZP, t(9)).br(BPL, p3);
    neg16(&mut a, r(24));
    a.label(p3).b(LDA_ZP, t(8)).br(BPL, p4);
    neg16(&mut a, r(22));
    a.label(p4).i(RTS);
    out.push((Routine::Divmodhi4, a));

    // __udivmodsi4: the dividend moves to r21:r18, where it shifts out at the top while
    // the quotient shifts in at the bottom, so the quotient needs no copy back; the
    // remainder builds up in r25:r22 (below 2^k after k steps: no 33rd bit); the divisor
    // is in T4..T7. One loop sets all three places. The benchmark's coup spends 107 cycles a coup in it (0.33 calls
    // of money divided by 20 or 1; was 130).
    let mut a = Asm::default();
    let cp = loc.fresh();
    a.b(LDX_IMM, 3).label(cp).b(LDA_ZPX, r(18)).b(STA_ZPX, t(4)).b(LDA_ZPX, r(22)).b(STA_ZPX, r(18));
    a.b(LDA_IMM, 0).b(STA_ZPX, r(22)).i(DEX).br(BPL, cp);
    // A divisor of 1 leaves the dividend as the quotient (4 bytes; without them the coup
    // takes 68 cycles more). Another divisor below 256 keeps the remainder below it, in A
    // (a ninth bit only for a moment, in the carry): the dividend's bytes from its highest
    // non-zero one (or its lowest) go 8 rounds each that shift only that byte, the
    // quotient's bits replacing the dividend's; when that byte is below the divisor it is
    // the remainder so far and its quotient byte zero, and its rounds are left out (money
    // of a few hundred divided by a rate, a number's digits by 10). About 25 cycles a round
    // instead of the wide path's 170 (money divided by a rate), for 60 bytes: without it
    // the coup would spend 1,781 cycles in the division instead of 107.
    let [general, done, top, first, zero, byte, bit, sub, next, end] = [(); 10].map(|_| loc.fresh());
    if small.wide {
        a.b(LDA_ZP, t(4)).b(CMP_IMM, 1).br(BEQ, done);
    } else {
        a.b(LDA_ZP, t(5)).b(ORA_ZP, t(6)).b(ORA_ZP, t(7)).br(BNE, general);
        a.b(LDA_ZP, t(4)).br(BEQ, general).b(CMP_IMM, 1).br(BEQ, done);
    }
    a.b(LDX_IMM, 3).label(top).b(LDY_ZPX, r(18)).br(BNE, first).i(DEX).br(BNE, top);
    a.label(first).b(LDA_ZPX, r(18)).b(CMP_ZP, t(4)).br(BCS, zero);
    a.b(LDY_IMM, 0).b(STY_ZPX, r(18)).i(DEX).br(BPL, byte).br(BMI, end);
    a.label(zero).b(LDA_IMM, 0);
    a.label(byte).b(LDY_IMM, 8);
    a.label(bit).b(ASL_ZPX, r(18)).i(ROL_A).br(BCS, sub).b(CMP_ZP, t(4)).br(BCC, next);
    a.label(sub).b(SBC_ZP, t(4)).b(INC_ZPX, r(18));
    a.label(next).i(DEY).br(BNE, bit).i(DEX).br(BPL, byte);
    a.label(end).b(STA_ZP, r(22)).label(done).i(RTS);
    if !small.wide {
        // Any other divisor (256 or more, or zero): the quotient is below 2^(32 - 8h), where
        // h is the divisor's highest non-zero byte, so the first 8h rounds would only shift
        // the dividend's top h bytes into the remainder: they are done as h byte moves of the
        // whole r25..r18 (remainder above dividend). The rounds left (32 - 8h, counted in T0)
        // are unrolled over the width: the eight bytes shift left at once, the remainder less
        // the divisor goes to Y, T1, T2 and A, and is kept when it did not borrow. About 95
        // cycles a round instead of the byte loops' 170: a divisor of 2^24 or more takes 8
        // rounds, about 850 cycles a call instead of 5,400 (gcd, `%` by large numbers), for
        // 56 bytes more. A zero divisor (h = 0) takes all 32 rounds, each one subtracting, and
        // gives libgcc's answer: every quotient bit 1 and the dividend as remainder. The
        // remainder after k rounds is below 2^k, so the shift never loses a 33rd bit.
        //
        // The dividend's zero top bytes (z of them) make the quotient smaller still, below
        // 2^(32 - 8(h + z)), so a non-zero divisor takes h + z byte moves: Euclid's
        // remainders shrink on both sides, and a divisor one byte shorter than the dividend
        // takes 8 rounds whatever their sizes. At 4 moves (a dividend below the divisor) the
        // dividend is the remainder and the quotient zero, with no round left.
        let (find, lead, rounds, skip, mv, dl, ds) =
            (loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh());
        a.label(general).b(LDA_IMM, 32).b(STA_ZP, t(0)).b(LDX_IMM, 4);
        a.label(find).i(DEX).br(BEQ, rounds).b(LDY_ZPX, t(4)).br(BEQ, find);
        a.b(LDY_IMM, 3).label(lead).w(LDA_ABY, u16::from(r(18))).br(BNE, skip).i(INX).i(DEY).br(BPL, lead);
        // One byte move: r25..r19 = r24..r18, r18 = 0; eight rounds fewer.
        a.label(skip).b(LDY_IMM, 7).label(mv).w(LDA_ABY, u16::from(r(17))).w(STA_ABY, u16::from(r(18)));
        a.i(DEY).br(BNE, mv).b(STY_ZP, r(18)).b(LDA_ZP, t(0)).i(SEC).b(SBC_IMM, 8).b(STA_ZP, t(0)).br(BEQ, done);
        a.i(DEX).br(BNE, skip);
        a.label(rounds).b(LDX_ZP, t(0));
        a.label(dl).b(ASL_ZP, r(18));
        for k in 19..=25 {
            a.b(ROL_ZP, r(k));
        }
        a.i(SEC).b(LDA_ZP, r(22)).b(SBC_ZP, t(4)).i(TAY);
        a.b(LDA_ZP, r(23)).b(SBC_ZP, t(5)).b(STA_ZP, t(1));
        a.b(LDA_ZP, r(24)).b(SBC_ZP, t(6)).b(STA_ZP, t(2));
        a.b(LDA_ZP, r(25)).b(SBC_ZP, t(7)).br(BCC, ds);
        a.b(STA_ZP, r(25)).b(LDA_ZP, t(2)).b(STA_ZP, r(24)).b(LDA_ZP, t(1)).b(STA_ZP, r(23)).b(STY_ZP, r(22));
        a.b(INC_ZP, r(18));
        a.label(ds).i(DEX).br(BNE, dl).i(RTS);
    }
    out.push((Routine::Udivmodsi4, a));
    // Negates the 32-bit number at zero-page address X.
    let mut a = Asm::default();
    let l = loc.fresh();
    a.i(SEC).b(LDY_IMM, 4).label(l).b(LDA_IMM, 0).b(SBC_ZPX, 0).b(STA_ZPX, 0).i(INX).i(DEY).br(BNE, l).i(RTS);
    out.push((Routine::Neg32, a));
    // __divmodsi4: the signs of the quotient (a xor b) and remainder (a) in WIDE, WIDE+1
    // around the unsigned division of the magnitudes.
    let mut a = Asm::default();
    let [p1, p2, p3, p4] = [(); 4].map(|_| loc.fresh());
    a.b(LDA_ZP, r(25)).b(STA_ZP, WIDE + 1).b(EOR_ZP, r(21)).b(STA_ZP, WIDE);
    a.b(LDA_ZP, r(25)).br(BPL, p1).b(LDX_IMM, r(22)).to(JSR, Routine::Neg32.label());
    a.label(p1).b(LDA_ZP, r(21)).br(BPL, p2).b(LDX_IMM, r(18)).to(JSR, Routine::Neg32.label());
    a.label(p2).to(JSR, Routine::Udivmodsi4.label());
    a.b(LDA_ZP, WIDE).br(BPL, p3).b(LDX_IMM, r(18)).to(JSR, Routine::Neg32.label());
    a.label(p3).b(LDA_ZP, WIDE + 1).br(BPL, p4).b(LDX_IMM, r(22)).to(JSR, Routine::Neg32.label());
    a.label(p4).i(RTS);
    out.push((Routine::Divmodsi4, a));

    // The Keep variants: the dividend kept, the division, then the dividend less the
    // remainder left at PRODUCT (80 cycles more than the division; the multiply it spares
    // takes about 290 and becomes a 24-cycle copy).
    for (keep, division) in
        [(Routine::Udivmodsi4Keep, Routine::Udivmodsi4), (Routine::Divmodsi4Keep, Routine::Divmodsi4)]
    {
        let mut a = Asm::default();
        for k in 0..4 {
            a.b(LDA_ZP, r(22 + k)).b(STA_ZP, PRODUCT + k);
        }
        a.to(JSR, division.label()).i(SEC);
        for k in 0..4 {
            a.b(LDA_ZP, PRODUCT + k).b(SBC_ZP, r(22 + k)).b(STA_ZP, PRODUCT + k);
        }
        a.i(RTS);
        out.push((keep, a));
    }

    out
}

fn neg16(a: &mut Asm, lo: u8) {
    a.i(SEC).b(LDA_IMM, 0).b(SBC_ZP, lo).b(STA_ZP, lo);
    a.b(LDA_IMM, 0).b(SBC_ZP, lo + 1).b(STA_ZP, lo + 1);
}

fn neg8_a(a: &mut Asm) {
    a.b(EOR_IMM, 0xFF).i(CLC).b(ADC_IMM, 1);
}
