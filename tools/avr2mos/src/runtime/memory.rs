//! `memcpy`, `memmove`, `memset`, and `memcmp`/`bcmp`, a page at a time through
//! `(zp),Y`.
//!
//! Assumes the C signatures of these functions in avr-gcc's registers (see the runtime's
//! module doc). Guarantees: `memmove` copies overlapping ranges as if through a buffer;
//! the destination comes back in r25:r24; nothing changed but the scratch T0..T3.

use super::{Routine, r, t};
use mos_asm::asm::Locals;
use mos_asm::asm::{Asm, op::*};

/// Memcpy, Memmove, Memset and Memcmp.
pub(super) fn routines(loc: &mut Locals) -> Vec<(Routine, Asm)> {
    let mut out = Vec::new();
    // memcpy: dst in T0:T1, src in T2:T3; whole pages (r21 of them), then r20 bytes.
    let mut a = Asm::default();
    let [pg, tl, tail, done] = [(); 4].map(|_| loc.fresh());
    for (from, to) in [(24, 0), (25, 1), (22, 2), (23, 3)] {
        a.b(LDA_ZP, r(from)).b(STA_ZP, t(to));
    }
    a.b(LDY_IMM, 0).b(LDX_ZP, r(21)).br(BEQ, tail);
    a.label(pg).b(LDA_IZY, t(2)).b(STA_IZY, t(0)).i(INY).br(BNE, pg);
    a.b(INC_ZP, t(1)).b(INC_ZP, t(3)).i(DEX).br(BNE, pg);
    a.label(tail).b(LDX_ZP, r(20)).br(BEQ, done);
    a.label(tl).b(LDA_IZY, t(2)).b(STA_IZY, t(0)).i(INY).i(DEX).br(BNE, tl);
    a.label(done).i(RTS);
    out.push((Routine::Memcpy, a));
    // memmove: forwards (memcpy's loop) unless dst > src; then backwards from the end:
    // the last partial page first, then whole pages, each from its top byte down.
    let mut a = Asm::default();
    let [b1, pages, p0, b2, done] = [(); 5].map(|_| loc.fresh());
    a.b(LDA_ZP, r(22)).b(CMP_ZP, r(24)).b(LDA_ZP, r(23)).b(SBC_ZP, r(25)).br(BCC, b1);
    a.to(JMP, Routine::Memcpy.label());
    a.label(b1).b(LDA_ZP, r(24)).b(STA_ZP, t(0)).b(LDA_ZP, r(22)).b(STA_ZP, t(2));
    a.i(CLC).b(LDA_ZP, r(25)).b(ADC_ZP, r(21)).b(STA_ZP, t(1));
    a.i(CLC).b(LDA_ZP, r(23)).b(ADC_ZP, r(21)).b(STA_ZP, t(3));
    let bl = loc.fresh();
    a.b(LDY_ZP, r(20)).br(BEQ, pages);
    a.label(bl).i(DEY).b(LDA_IZY, t(2)).b(STA_IZY, t(0)).b(CPY_IMM, 0).br(BNE, bl);
    a.label(pages).b(LDX_ZP, r(21)).br(BEQ, done);
    a.label(p0).b(DEC_ZP, t(1)).b(DEC_ZP, t(3));
    a.label(b2).i(DEY).b(LDA_IZY, t(2)).b(STA_IZY, t(0)).b(CPY_IMM, 0).br(BNE, b2);
    a.i(DEX).br(BNE, p0);
    a.label(done).i(RTS);
    out.push((Routine::Memmove, a));
    // memset: the byte in r22 (the low byte of the C int).
    let mut a = Asm::default();
    let [pg, tl, tail, done] = [(); 4].map(|_| loc.fresh());
    a.b(LDA_ZP, r(24)).b(STA_ZP, t(0)).b(LDA_ZP, r(25)).b(STA_ZP, t(1));
    a.b(LDA_ZP, r(22)).b(LDY_IMM, 0).b(LDX_ZP, r(21)).br(BEQ, tail);
    a.label(pg).b(STA_IZY, t(0)).i(INY).br(BNE, pg).b(INC_ZP, t(1)).i(DEX).br(BNE, pg);
    // The last part page from its top byte down (Y is 0 after the whole pages): `DEY`
    // sets the flag the `BNE` reads, `STA` keeps it, so the byte at Y = 0 is stored last.
    // 11 cycles a byte instead of 13, and a byte less than counting up in X.
    a.label(tail).b(LDY_ZP, r(20)).br(BEQ, done);
    a.label(tl).i(DEY).b(STA_IZY, t(0)).br(BNE, tl);
    a.label(done).i(RTS);
    out.push((Routine::Memset, a));
    // memcmp, bcmp: a - b of the first differing bytes, as a 16-bit C int.
    let mut a = Asm::default();
    let [pg, tl, tail, same, diff] = [(); 5].map(|_| loc.fresh());
    for (from, to) in [(24, 0), (25, 1), (22, 2), (23, 3)] {
        a.b(LDA_ZP, r(from)).b(STA_ZP, t(to));
    }
    a.b(LDY_IMM, 0).b(LDX_ZP, r(21)).br(BEQ, tail);
    a.label(pg).b(LDA_IZY, t(0)).b(CMP_IZY, t(2)).br(BNE, diff).i(INY).br(BNE, pg);
    a.b(INC_ZP, t(1)).b(INC_ZP, t(3)).i(DEX).br(BNE, pg);
    a.label(tail).b(LDX_ZP, r(20)).br(BEQ, same);
    a.label(tl).b(LDA_IZY, t(0)).b(CMP_IZY, t(2)).br(BNE, diff).i(INY).i(DEX).br(BNE, tl);
    a.label(same).b(LDA_IMM, 0).b(STA_ZP, r(24)).b(STA_ZP, r(25)).i(RTS);
    a.label(diff).i(SEC).b(SBC_IZY, t(2)).b(STA_ZP, r(24)).b(LDA_IMM, 0).b(SBC_IMM, 0).b(STA_ZP, r(25)).i(RTS);
    out.push((Routine::Memcmp, a));

    out
}
