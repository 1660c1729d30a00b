//! The small routines lowered instructions call: single pushes and pops on the AVR
//! stack and runs of them, the 2-byte return-address footprint of functions that read SP,
//! `icall`, SREG read and written in the AVR's layout, and `swap`.
//!
//! Assumes SP is in zero page ([`SPL`]/[`SPH`]) and points below the stack's last byte, as
//! on the AVR, and the flags are in [`FLAGS`] and [`TFLAG`]. Guarantees: each routine
//! changes only what its comment names, the scratch T0 and Y.

use super::{Routine, r, t};
use crate::mmap::*;
use mos_asm::asm::Locals;
use mos_asm::asm::{Asm, op::*};

/// Push, Pop, Enter, Leave, Icall, SregRead, SregWrite, Pow2 (a table), SwapA, PushRun and
/// PopRun (inside PopRun17).
pub(super) fn routines(loc: &mut Locals) -> Vec<(Routine, Asm)> {
    let mut out = Vec::new();
    // push A: *SP = A; SP -= 1.
    let mut a = Asm::default();
    a.b(LDY_IMM, 0).b(STA_IZY, SPL).b(LDA_ZP, SPL).b(BNE, 2).b(DEC_ZP, SPH).b(DEC_ZP, SPL).i(RTS);
    out.push((Routine::Push, a));
    // pop A: SP += 1; A = *SP.
    let mut a = Asm::default();
    a.b(INC_ZP, SPL).b(BNE, 2).b(INC_ZP, SPH).b(LDY_IMM, 0).b(LDA_IZY, SPL).i(RTS);
    out.push((Routine::Pop, a));
    // SP -= 2: the AVR return address footprint, for functions that read SP.
    let mut a = Asm::default();
    a.b(LDA_ZP, SPL).i(SEC).b(SBC_IMM, 2).b(STA_ZP, SPL).b(BCS, 2).b(DEC_ZP, SPH).i(RTS);
    out.push((Routine::Enter, a));
    // SP += 2, then return (to the caller of whoever jumped or called here).
    let mut a = Asm::default();
    a.b(LDA_ZP, SPL).i(CLC).b(ADC_IMM, 2).b(STA_ZP, SPL).b(BCC, 2).b(INC_ZP, SPH).i(RTS);
    out.push((Routine::Leave, a));
    // icall: Z holds the 6502 address of the callee (code pointers are rewritten).
    let mut a = Asm::default();
    a.w(JMP_IND, u16::from(r(30)));
    out.push((Routine::Icall, a));

    // A = the flags in AVR SREG layout: C0 Z1 N2 V3 S4 T6 (S = N xor V).
    let mut a = Asm::default();
    let (n0, v0, t0) = (loc.fresh(), loc.fresh(), loc.fresh());
    a.b(LDA_ZP, FLAGS).b(AND_IMM, 0x03).b(STA_ZP, t(0));
    a.b(LDA_ZP, FLAGS).br(BPL, n0).b(LDA_ZP, t(0)).b(ORA_IMM, 0x14).b(STA_ZP, t(0));
    a.label(n0).b(BIT_ZP, FLAGS).br(BVC, v0).b(LDA_ZP, t(0)).b(ORA_IMM, 0x08).b(EOR_IMM, 0x10).b(STA_ZP, t(0));
    a.label(v0).b(LDA_ZP, TFLAG).br(BEQ, t0).b(LDA_ZP, t(0)).b(ORA_IMM, 0x40).b(STA_ZP, t(0));
    a.label(t0).b(LDA_ZP, t(0)).i(RTS);
    out.push((Routine::SregRead, a));
    // The flags from A in AVR SREG layout (S is not stored: it is always N xor V here).
    let mut a = Asm::default();
    let (n1, v1) = (loc.fresh(), loc.fresh());
    a.b(STA_ZP, t(0)).b(AND_IMM, 0x03).b(STA_ZP, FLAGS);
    a.b(LDA_ZP, t(0)).b(AND_IMM, 0x04).br(BEQ, n1).b(LDA_ZP, FLAGS).b(ORA_IMM, 0x80).b(STA_ZP, FLAGS);
    a.label(n1).b(LDA_ZP, t(0)).b(AND_IMM, 0x08).br(BEQ, v1).b(LDA_ZP, FLAGS).b(ORA_IMM, 0x40).b(STA_ZP, FLAGS);
    a.label(v1).b(LDA_ZP, t(0)).b(AND_IMM, 0x40).b(STA_ZP, TFLAG).i(RTS);
    out.push((Routine::SregWrite, a));

    // 1 << n for n from 0 to 7: the table of a shift of 1 by a variable amount
    // ([`crate::lower`]'s `shift_loop`).
    let mut a = Asm::default();
    a.items.push(mos_asm::asm::Item::Bytes((0..8).map(|n| 1u8 << n).collect()));
    out.push((Routine::Pow2, a));
    // Swap the nibbles of A.
    let mut a = Asm::default();
    a.i(ASL_A).b(ADC_IMM, 0x80).i(ROL_A).i(ASL_A).b(ADC_IMM, 0x80).i(ROL_A).i(RTS);
    out.push((Routine::SwapA, a));
    // Push A registers starting at zero-page address X, upwards: SP moves once, then the
    // registers go to new SP + A, new SP + A - 1, ... (where single pushes would put them).
    let mut a = Asm::default();
    let l = loc.fresh();
    a.b(STA_ZP, t(0)).b(LDA_ZP, SPL).i(SEC).b(SBC_ZP, t(0)).b(STA_ZP, SPL).b(BCS, 2).b(DEC_ZP, SPH);
    a.b(LDY_ZP, t(0)).label(l).b(LDA_ZPX, 0).b(STA_IZY, SPL).i(INX).i(DEY).br(BNE, l).i(RTS);
    out.push((Routine::PushRun, a));
    // Pop A registers into zero-page address X, downwards: read SP + 1 ... SP + A, then
    // move SP once. Entered at PopRun17, just before, into r17 and down: an epilogue's pops
    // start with r17 most often (the callee-saved r2-r17 are pushed upwards), and the `LDX`
    // in the routine saves its 2 bytes at each call for no cycle.
    let mut a = Asm::default();
    let l = loc.fresh();
    a.b(LDX_IMM, r(17)).label(Routine::PopRun.label());
    a.i(CLC).b(ADC_IMM, 1).b(STA_ZP, t(0)).b(LDY_IMM, 1);
    a.label(l).b(LDA_IZY, SPL).b(STA_ZPX, 0).i(DEX).i(INY).b(CPY_ZP, t(0)).br(BNE, l);
    a.i(DEY).i(TYA).i(CLC).b(ADC_ZP, SPL).b(STA_ZP, SPL).b(BCC, 2).b(INC_ZP, SPH).i(RTS);
    out.push((Routine::PopRun17, a));

    out
}
