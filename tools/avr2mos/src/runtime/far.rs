//! Bank 1 from bank 0's code: where the bank-1 file ends (`__c128_bank1_end`), and a copy
//! between two memory configurations (`__c128_far_copy`). The RAM above the file, up to
//! the MMU registers at [`BANK1_END`], is the program's own while it runs: the game keeps
//! there the help text it has read from the disk.
//!
//! Assumes a program with a bank-1 file ([`crate::mmap`]): the runtime is in the common RAM
//! at the bottom, so it keeps running while bank 1 is mapped, zero page is bank 0's in
//! every configuration, and bank 1's vectors point at the same interrupt handlers (the
//! start-up copies them), so an IRQ may come in between. Guarantees: the program's own
//! configuration is mapped again on return; nothing changed but r18-r25, which the AVR
//! calling convention lets a callee change.

use super::{Machine, Routine, r};
use crate::mmap::*;
use mos_asm::asm::{Asm, Locals, Part, Sym, op::*};

/// Bank1EndAt and FarCopy, for a program with a bank-1 file; none for any other (a call to
/// them then fails to link, naming the routine).
pub(super) fn routines(loc: &mut Locals, m: &Machine) -> Vec<(Routine, Asm)> {
    if m.bank1.is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    // __c128_bank1_end() -> u16: the address after the file's last byte, in r25:r24.
    let mut a = Asm::default();
    a.s(LDA_IMM, Sym::Bank1End, Part::Lo).b(STA_ZP, r(24));
    a.s(LDA_IMM, Sym::Bank1End, Part::Hi).b(STA_ZP, r(25)).i(RTS);
    out.push((Routine::Bank1EndAt, a));

    // __c128_far_copy(dst: r25:r24, src: r23:r22, n: r21:r20, maps: r19:r18): `n` bytes
    // from `src`, read with $FF00 = r18, to `dst`, written with $FF00 = r19. The pointers
    // are registers, so in zero page already; r21:r20 counts down.
    let mut a = Asm::default();
    let [next, step, done] = [(); 3].map(|_| loc.fresh());
    a.b(LDY_IMM, 0);
    a.label(next).b(LDA_ZP, r(20)).br(BNE, step).b(LDA_ZP, r(21)).br(BEQ, done).b(DEC_ZP, r(21));
    a.label(step).b(DEC_ZP, r(20));
    a.b(LDA_ZP, r(18)).w(STA_ABS, MMU_CR).b(LDA_IZY, r(22));
    a.b(LDX_ZP, r(19)).w(STX_ABS, MMU_CR).b(STA_IZY, r(24));
    a.i(INY).br(BNE, next).b(INC_ZP, r(23)).b(INC_ZP, r(25)).to(JMP, next);
    a.label(done).b(LDA_IMM, m.mode.mmu_config()).w(STA_ABS, MMU_CR).i(RTS);
    out.push((Routine::FarCopy, a));
    out
}
