//! The multiplies: 8-bit (the `mul` family's helpers), `__mulsi3`, and the signed
//! multiplies with an overflow check (`__mulosi4`, `__mulodi4`).
//!
//! Assumes the operands in avr-gcc's registers for these helpers (see the runtime's module
//! doc). Guarantees: the low bits of the product where libgcc puts them, the overflow flag
//! as a 16-bit C `int`, and nothing changed but the result registers and the scratch
//! T0..T11 and the wide scratch at $40-$59.

use super::{Routine, WIDE, r, t};
use mos_asm::asm::Locals;
use mos_asm::asm::{Asm, op::*};

/// Mul8u, Mul8s, Mul8su and Mulsi3.
pub(super) fn routines(loc: &mut Locals) -> Vec<(Routine, Asm)> {
    let mut out = Vec::new();
    // r1:r0 = T0 * T1, unsigned; a zero operand answers at once (a card's rank times a
    // row's length is 0 for half the cards).
    let mut a = Asm::default();
    let (ml, mn, zero) = (loc.fresh(), loc.fresh(), loc.fresh());
    a.b(LDA_ZP, t(0)).br(BEQ, zero).b(LDA_ZP, t(1)).br(BEQ, zero);
    a.b(LDA_IMM, 0).b(LDX_IMM, 8).b(LSR_ZP, t(0));
    a.label(ml).br(BCC, mn).i(CLC).b(ADC_ZP, t(1));
    a.label(mn).i(ROR_A).b(ROR_ZP, t(0)).i(DEX).br(BNE, ml);
    a.b(STA_ZP, r(1)).b(LDA_ZP, t(0)).b(STA_ZP, r(0)).i(RTS);
    a.label(zero).b(STA_ZP, r(1)).b(STA_ZP, r(0)).i(RTS);
    out.push((Routine::Mul8u, a));
    // Signed corrections: hi -= b if a < 0; hi -= a if b < 0 (only the first for mulsu).
    for (routine, both) in [(Routine::Mul8s, true), (Routine::Mul8su, false)] {
        let mut a = Asm::default();
        let (s1, s2) = (loc.fresh(), loc.fresh());
        a.b(LDA_ZP, t(0)).b(STA_ZP, t(2)).b(LDA_ZP, t(1)).b(STA_ZP, t(3));
        a.to(JSR, Routine::Mul8u.label());
        a.b(LDA_ZP, t(2)).br(BPL, s1).b(LDA_ZP, r(1)).i(SEC).b(SBC_ZP, t(3)).b(STA_ZP, r(1));
        a.label(s1);
        if both {
            a.b(LDA_ZP, t(3)).br(BPL, s2).b(LDA_ZP, r(1)).i(SEC).b(SBC_ZP, t(2)).b(STA_ZP, r(1));
        }
        a.label(s2).i(RTS);
        out.push((routine, a));
    }

    // __mulsi3: a shift-and-add loop over the multiplier's bits, lowest first, a byte at
    // a time, that stops as soon as the bits left are all zero. The smaller operand (a
    // 32-bit compare) is the multiplier, so money times a rate (1, 8, 19, 20), or a zero,
    // takes 1 to 5 rounds whatever the money. One loop copies the multiplicand to T0..T3
    // (shifted left each round) and the multiplier to T4..T7, the compare's carry choosing
    // which is which, and clears the product in r25:r22.
    //
    // Two negative numbers (both operands 2^31 or more: the smaller is no small
    // multiplier) are negated first: the product's low 32 bits are the same, and a
    // fixed-point square of a small negative number then takes its magnitude's rounds, not
    // 32. Each round shifts only the multiplier's current byte, T4 (the shift's zero flag
    // says whether its bits above run out): about 35 cycles a round without an add instead
    // of 51 with the whole multiplier shifted. When the byte's bits run out, the
    // multiplicand is shifted on to the next byte's place (unless no byte above is left)
    // and the next byte moves down. A zero byte below a non-zero one (a multiplier that is
    // a multiple of 256, which LLVM's multiplies by constants never leave) takes 8 shifts,
    // about 200 cycles, where a byte move would take 40: 26 bytes less. The add is
    // unrolled: a round with an add is 73 cycles.
    let mut a = Asm::default();
    let (copy, keep, clear) = (loc.fresh(), loc.fresh(), loc.fresh());
    let [byte, bit, noadd, align, shift, down, done] = [(); 7].map(|_| loc.fresh());
    a.b(LDA_ZP, r(22)).b(CMP_ZP, r(18));
    for i in 1..4 {
        a.b(LDA_ZP, r(22 + i)).b(SBC_ZP, r(18 + i));
    }
    // Carry set: r25:r22 >= r21:r18, and r21:r18 is the multiplier.
    a.b(LDX_IMM, 3).label(copy).b(LDA_ZPX, r(22)).b(LDY_ZPX, r(18)).br(BCS, keep);
    a.b(STA_ZPX, t(4)).b(STY_ZPX, t(0)).br(BCC, clear);
    a.label(keep).b(STA_ZPX, t(0)).b(STY_ZPX, t(4));
    a.label(clear).b(LDA_IMM, 0).b(STA_ZPX, r(22)).i(DEX).br(BPL, copy);
    a.b(LDA_ZP, t(7)).br(BPL, byte);
    a.b(LDX_IMM, t(0)).to(JSR, Routine::Neg32.label()).b(LDX_IMM, t(4)).to(JSR, Routine::Neg32.label());
    // X counts the byte's rounds left. Its last set bit leaves T4 zero at the latest in
    // the eighth round, which goes to `align` before X would reach zero; a zero byte goes
    // there at once, with all 8 rounds left.
    a.label(byte).b(LDX_IMM, 8).b(LDA_ZP, t(4)).br(BEQ, align);
    a.label(bit).b(LSR_ZP, t(4)).br(BCC, noadd).i(CLC);
    for i in 0..4 {
        a.b(LDA_ZP, r(22 + i)).b(ADC_ZP, t(i)).b(STA_ZP, r(22 + i));
    }
    a.b(LDA_ZP, t(4));
    a.label(noadd).br(BEQ, align);
    a.b(ASL_ZP, t(0)).b(ROL_ZP, t(1)).b(ROL_ZP, t(2)).b(ROL_ZP, t(3)).i(DEX).br(BNE, bit);
    // The byte's bits ran out with X rounds left: the multiplicand goes X places up, to
    // the next byte's place, unless no byte of the multiplier is left.
    a.label(align).b(LDA_ZP, t(5)).b(ORA_ZP, t(6)).b(ORA_ZP, t(7)).br(BEQ, done);
    a.label(shift).b(ASL_ZP, t(0)).b(ROL_ZP, t(1)).b(ROL_ZP, t(2)).b(ROL_ZP, t(3)).i(DEX).br(BNE, shift);
    // The multiplier's next byte down into T4 (A is zero after the move: always taken).
    a.label(down).b(LDA_ZP, t(5)).b(STA_ZP, t(4)).b(LDA_ZP, t(6)).b(STA_ZP, t(5));
    a.b(LDA_ZP, t(7)).b(STA_ZP, t(6)).b(LDA_IMM, 0).b(STA_ZP, t(7)).br(BEQ, byte);
    a.label(done).i(RTS);
    out.push((Routine::Mulsi3, a));

    out
}

/// Mulosi4 and Mulodi4.
pub(super) fn with_overflow(loc: &mut Locals) -> Vec<(Routine, Asm)> {
    let mulosi4 = mulo(loc, 4, 22, 18, 16);
    vec![(Routine::Mulosi4, mulosi4), (Routine::Mulodi4, mulo(loc, 8, 18, 10, 8))]
}

/// Signed `n`-byte multiply with overflow check (`__mulosi4`, `__mulodi4`): `a` in the
/// registers from `ar`, `b` from `br`, the pointer to the 16-bit overflow flag in `pr`;
/// the product replaces `a`. Works in zero page from [`WIDE`]: multiplicand `M`, the
/// product `P` (multiplier shifted out of its low half) and the sign.
fn mulo(loc: &mut Locals, n: u8, ar: u8, br: u8, pr: u8) -> Asm {
    let m = WIDE;
    let plo = WIDE + n;
    let phi = WIDE + 2 * n;
    let sign = WIDE + 3 * n;
    let mut a = Asm::default();
    let neg = |a: &mut Asm, base: u8| {
        a.i(SEC);
        for i in 0..n {
            a.b(LDA_IMM, 0).b(SBC_ZP, base + i).b(STA_ZP, base + i);
        }
    };
    a.b(LDA_ZP, r(ar + n - 1)).b(EOR_ZP, r(br + n - 1)).b(STA_ZP, sign);
    for i in 0..n {
        a.b(LDA_ZP, r(ar + i)).b(STA_ZP, plo + i).b(LDA_ZP, r(br + i)).b(STA_ZP, m + i);
        a.b(LDA_IMM, 0).b(STA_ZP, phi + i);
    }
    let (p1, p2) = (loc.fresh(), loc.fresh());
    a.b(LDA_ZP, plo + n - 1).br(BPL, p1);
    neg(&mut a, plo);
    a.label(p1).b(LDA_ZP, m + n - 1).br(BPL, p2);
    neg(&mut a, m);
    a.label(p2);
    let (lp, na) = (loc.fresh(), loc.fresh());
    a.b(LDX_IMM, 8 * n).b(LSR_ZP, plo + n - 1);
    for i in (0..n - 1).rev() {
        a.b(ROR_ZP, plo + i);
    }
    a.label(lp).br(BCC, na).i(CLC);
    for i in 0..n {
        a.b(LDA_ZP, phi + i).b(ADC_ZP, m + i).b(STA_ZP, phi + i);
    }
    a.label(na);
    for i in (0..n).rev() {
        a.b(ROR_ZP, phi + i);
    }
    for i in (0..n).rev() {
        a.b(ROR_ZP, plo + i);
    }
    a.i(DEX).br(BNE, lp);
    // Overflow: any bit in the high half, or bit 8n-1 set unless the result is exactly
    // the most negative value.
    let (ovf, ok, store, pos) = (loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh());
    a.b(LDA_IMM, 0);
    for i in 0..n {
        a.b(ORA_ZP, phi + i);
    }
    a.br(BNE, ovf).b(LDA_ZP, plo + n - 1).br(BPL, ok).b(LDA_ZP, sign).br(BPL, ovf);
    a.b(LDA_ZP, plo + n - 1).b(CMP_IMM, 0x80).br(BNE, ovf).b(LDA_IMM, 0);
    for i in 0..n - 1 {
        a.b(ORA_ZP, plo + i);
    }
    a.br(BNE, ovf);
    a.label(ok).b(LDA_IMM, 0).br(BEQ, store);
    a.label(ovf).b(LDA_IMM, 1);
    a.label(store).b(LDY_IMM, 0).b(STA_IZY, r(pr)).b(LDA_IMM, 0).i(INY).b(STA_IZY, r(pr));
    a.b(LDA_ZP, sign).br(BPL, pos);
    neg(&mut a, plo);
    a.label(pos);
    for i in 0..n {
        a.b(LDA_ZP, plo + i).b(STA_ZP, r(ar + i));
    }
    a.i(RTS);
    a
}
