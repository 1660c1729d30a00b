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

/// Udiv8, Udiv16, Udivmodqi4, Udivmodhi4, Divmodqi4, Divmodhi4, Udivmodsi4, Neg32 and
/// Divmodsi4.
pub(super) fn routines(loc: &mut Locals) -> Vec<(Routine, Asm)> {
    let mut out = Vec::new();
    // T0 / T1, unsigned: quotient in T0, remainder in A. (The partial remainder after k
    // steps is below 2^k, so it never needs a ninth bit.)
    let mut a = Asm::default();
    let (dl, ds) = (loc.fresh(), loc.fresh());
    a.b(LDA_IMM, 0).b(LDX_IMM, 8).label(dl).b(ASL_ZP, t(0)).i(ROL_A).b(CMP_ZP, t(1)).br(BCC, ds);
    a.b(SBC_ZP, t(1)).b(INC_ZP, t(0)).label(ds).i(DEX).br(BNE, dl).i(RTS);
    out.push((Routine::Udiv8, a));
    // T0:T1 / T2:T3, unsigned: quotient in T0:T1, remainder in T4:T5 (the partial
    // remainder after k steps is below 2^k: 16 bits are enough).
    let mut a = Asm::default();
    let (dl, ds) = (loc.fresh(), loc.fresh());
    a.b(LDA_IMM, 0).b(STA_ZP, t(4)).b(STA_ZP, t(5)).b(LDX_IMM, 16);
    a.label(dl).b(ASL_ZP, t(0)).b(ROL_ZP, t(1)).b(ROL_ZP, t(4)).b(ROL_ZP, t(5));
    a.b(LDA_ZP, t(4)).i(SEC).b(SBC_ZP, t(2)).i(TAY).b(LDA_ZP, t(5)).b(SBC_ZP, t(3)).br(BCC, ds);
    a.b(STA_ZP, t(5)).b(STY_ZP, t(4)).b(INC_ZP, t(0));
    a.label(ds).i(DEX).br(BNE, dl).i(RTS);
    out.push((Routine::Udiv16, a));

    // __udivmodqi4: r24 / r22 -> quotient r24, remainder r25.
    let mut a = Asm::default();
    a.b(LDA_ZP, r(24)).b(STA_ZP, t(0)).b(LDA_ZP, r(22)).b(STA_ZP, t(1)).to(JSR, Routine::Udiv8.label());
    a.b(STA_ZP, r(25)).b(LDA_ZP, t(0)).b(STA_ZP, r(24)).i(RTS);
    out.push((Routine::Udivmodqi4, a));
    // __udivmodhi4: r25:r24 / r23:r22 -> quotient r23:r22, remainder r25:r24.
    let mut a = Asm::default();
    for (from, to) in [(24, 0), (25, 1), (22, 2), (23, 3)] {
        a.b(LDA_ZP, r(from)).b(STA_ZP, t(to));
    }
    a.to(JSR, Routine::Udiv16.label());
    for (from, to) in [(0, 22), (1, 23), (4, 24), (5, 25)] {
        a.b(LDA_ZP, t(from)).b(STA_ZP, r(to));
    }
    a.i(RTS);
    out.push((Routine::Udivmodhi4, a));

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

    // __divmodhi4: |a| in T0:T1, |b| in T2:T3, signs in T8, T9.
    let mut a = Asm::default();
    let [p1, p2, p3, p4] = [(); 4].map(|_| loc.fresh());
    a.b(LDA_ZP, r(25)).b(EOR_ZP, r(23)).b(STA_ZP, t(8)).b(LDA_ZP, r(25)).b(STA_ZP, t(9));
    a.b(LDA_ZP, r(24)).b(STA_ZP, t(0)).b(LDA_ZP, r(25)).b(STA_ZP, t(1)).br(BPL, p1);
    neg16(&mut a, t(0));
    a.label(p1).b(LDA_ZP, r(22)).b(STA_ZP, t(2)).b(LDA_ZP, r(23)).b(STA_ZP, t(3)).br(BPL, p2);
    neg16(&mut a, t(2));
    a.label(p2).to(JSR, Routine::Udiv16.label());
    a.b(LDA_ZP, t(9)).br(BPL, p3);
    neg16(&mut a, t(4));
    a.label(p3).b(LDA_ZP, t(4)).b(STA_ZP, r(24)).b(LDA_ZP, t(5)).b(STA_ZP, r(25));
    a.b(LDA_ZP, t(8)).br(BPL, p4);
    neg16(&mut a, t(0));
    a.label(p4).b(LDA_ZP, t(0)).b(STA_ZP, r(22)).b(LDA_ZP, t(1)).b(STA_ZP, r(23)).i(RTS);
    out.push((Routine::Divmodhi4, a));

    // __udivmodsi4: the dividend moves to r21:r18, where it shifts out at the top while
    // the quotient shifts in at the bottom, so the quotient needs no copy back; the
    // remainder builds up in r25:r22 (below 2^k after k steps: no 33rd bit); the divisor
    // is in T4..T7. One loop sets all three places. 107 bytes (201 with a byte-skipping,
    // unrolled wide path); the benchmark's coup spends 107 cycles a coup in it (0.33 calls
    // of money divided by 20 or 1; was 130).
    let mut a = Asm::default();
    let cp = loc.fresh();
    a.b(LDX_IMM, 3).label(cp).b(LDA_ZPX, r(18)).b(STA_ZPX, t(4)).b(LDA_ZPX, r(22)).b(STA_ZPX, r(18));
    a.b(LDA_IMM, 0).b(STA_ZPX, r(22)).i(DEX).br(BPL, cp);
    // A divisor of 1 leaves the dividend as the quotient (4 bytes; without them the coup
    // takes 68 cycles more). Another divisor below 256 keeps the remainder below it, in A
    // (a ninth bit only for a moment, in the carry): the dividend's bytes from its highest
    // non-zero one (or its lowest) go 8 rounds each that shift only that byte, the
    // quotient's bits replacing the dividend's. About 25 cycles a round instead of the
    // wide path's 170 (money divided by a rate), for 51 bytes: without it the coup would
    // spend 1,781 cycles in the division instead of 107.
    let (general, done, top, first, byte, bit, sub, next) =
        (loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh());
    a.b(LDA_ZP, t(5)).b(ORA_ZP, t(6)).b(ORA_ZP, t(7)).br(BNE, general);
    a.b(LDA_ZP, t(4)).br(BEQ, general).b(CMP_IMM, 1).br(BEQ, done);
    a.b(LDX_IMM, 3).label(top).b(LDY_ZPX, r(18)).br(BNE, first).i(DEX).br(BNE, top);
    a.label(first).b(LDA_IMM, 0);
    a.label(byte).b(LDY_IMM, 8);
    a.label(bit).b(ASL_ZPX, r(18)).i(ROL_A).br(BCS, sub).b(CMP_ZP, t(4)).br(BCC, next);
    a.label(sub).b(SBC_ZP, t(4)).b(INC_ZPX, r(18));
    a.label(next).i(DEY).br(BNE, bit).i(DEX).br(BPL, byte);
    a.b(STA_ZP, r(22)).label(done).i(RTS);
    // Any other divisor: 32 rounds over the whole width, compact rather than fast (a
    // divisor of 256 or more is rare, and none of the coup's); a zero divisor gives
    // libgcc's answer, every quotient bit 1 and the dividend as remainder. The shift of
    // all eight bytes, the compare and the subtraction are loops (X from $F8 or $FC, so
    // that the zero-page addresses wrap back to r18, r22 and T4): 39 bytes, about 5,400
    // cycles a call.
    let (dl, rl, cl, ds, sl) = (loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh());
    a.label(general).b(LDY_IMM, 32);
    a.label(dl).i(CLC).b(LDX_IMM, 0xF8).label(rl).b(ROL_ZPX, r(26)).i(INX).br(BNE, rl);
    a.i(SEC).b(LDX_IMM, 0xFC).label(cl).b(LDA_ZPX, r(26)).b(SBC_ZPX, t(8)).i(INX).br(BNE, cl);
    a.br(BCC, ds).b(LDX_IMM, 0xFC);
    a.label(sl).b(LDA_ZPX, r(26)).b(SBC_ZPX, t(8)).b(STA_ZPX, r(26)).i(INX).br(BNE, sl);
    a.b(INC_ZP, r(18));
    a.label(ds).i(DEY).br(BNE, dl).i(RTS);
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

    out
}

fn neg16(a: &mut Asm, lo: u8) {
    a.i(SEC).b(LDA_IMM, 0).b(SBC_ZP, lo).b(STA_ZP, lo);
    a.b(LDA_IMM, 0).b(SBC_ZP, lo + 1).b(STA_ZP, lo + 1);
}

fn neg8_a(a: &mut Asm) {
    a.b(EOR_IMM, 0xFF).i(CLC).b(ADC_IMM, 1);
}
