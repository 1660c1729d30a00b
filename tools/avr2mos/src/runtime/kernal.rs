//! The gateway to the KERNAL (`__c128_kernal`): A, X, Y and the carry in, the same out.
//!
//! Assumes the runtime is in RAM that both configurations map (below $4000). Guarantees:
//! in the all-RAM mode the KERNAL is mapped only for the call, and interrupts are off
//! again after it unless the key buffer keeps them on.

use super::{Machine, Routine, r};
use crate::mmap::*;
use mos_asm::asm::{Asm, op::*};

/// Kernal and KernalJump.
pub(super) fn routines(m: &Machine) -> Vec<(Routine, Asm)> {
    let mut out = Vec::new();
    // __c128_kernal: A = r22, X = r20, Y = r18, carry = bit 0 of r16, JSR (r25:r24).
    // All-RAM: a trampoline (the runtime is in low RAM, visible in both configurations)
    // that maps the KERNAL in for the call and, interrupts off again, out after it; the
    // carry survives SEI, LDA # and STA.
    let mut a = Asm::default();
    a.b(LDA_ZP, r(16)).i(LSR_A);
    if m.all_ram {
        a.b(LDA_IMM, MMU_CONFIG).w(STA_ABS, MMU_CR);
    }
    a.b(LDA_ZP, r(22)).b(LDX_ZP, r(20)).b(LDY_ZP, r(18));
    a.to(JSR, Routine::KernalJump.label());
    if m.all_ram {
        a.i(SEI);
    }
    a.b(STA_ZP, r(22)).b(STX_ZP, r(23)).b(STY_ZP, r(24)).b(LDA_IMM, 0).i(ROL_A).b(STA_ZP, r(25));
    if m.all_ram {
        a.b(LDA_IMM, MMU_CONFIG_ALL_RAM).w(STA_ABS, MMU_CR);
    }
    if m.key_buffer {
        a.i(CLI);
    }
    a.i(RTS);
    out.push((Routine::Kernal, a));
    let mut a = Asm::default();
    a.w(JMP_IND, u16::from(r(24)));
    out.push((Routine::KernalJump, a));

    out
}
