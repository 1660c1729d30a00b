//! The all-RAM mode's interrupt handlers: NMI, IRQ (with the key buffer's raster
//! interrupt, which reads the key matrix into a ring) and the crash exit.
//!
//! Assumes interrupts are off while the program runs unless the key buffer is on, and
//! that the vectors at $FFFA point here (the start-up sets them). Guarantees: an NMI or a
//! stray IRQ is acknowledged and returns; a BRK exits with [`CRASH_EXIT_CODE`]; the key
//! buffer's handler uses no zero page and puts the registers it touches back.

use super::{Machine, Routine, r};
use crate::mmap::*;
use mos_asm::asm::Locals;
use mos_asm::asm::{Arg, Asm, Item, Part, Sym, op::*};
// The key buffer's interrupt handler reads the key matrix (CIA 1's ports and the C128's
// extra lines) and runs off the VIC-IIe's raster interrupt.
use c128_map::io::{CIA1_ICR, CIA1_PORT_A, CIA1_PORT_B, KEY_EXTRA_LINES, VIC_IRQ_FLAGS, VIC_RASTER};

/// NMI, IRQ, the key lines' table (with the key buffer) and Crash.
pub(super) fn routines(loc: &mut Locals, m: &Machine) -> Vec<(Routine, Asm)> {
    let mut out = Vec::new();
    // NMI (RESTORE, CIA 2) while the program's code runs: acknowledge CIA 2 and
    // return. (During a KERNAL call the KERNAL's own handler runs: its ROM is mapped.)
    let mut a = Asm::default();
    a.i(PHA).w(LDA_ABS, 0xDD0D).i(PLA).i(RTI);
    out.push((Routine::Nmi, a));
    // IRQ: interrupts are off, so only a BRK (B set in the pushed P) or an IRQ let in
    // by a mistake gets here. A BRK is a crash: exit 101. An IRQ is acknowledged at
    // CIA 1 and the VIC (else it would come back at once) and returns.
    let mut a = Asm::default();
    a.i(PHA).i(TXA).i(PHA).i(TSX).w(LDA_ABX, 0x0103).b(AND_IMM, 0x10).br(BNE, Routine::Crash.label());
    if m.key_buffer {
        key_irq(&mut a, loc, m.mode);
    } else {
        a.w(LDA_ABS, CIA1_ICR).w(LDA_ABS, VIC_IRQ_FLAGS).w(STA_ABS, VIC_IRQ_FLAGS).i(PLA).i(TAX).i(PLA).i(RTI);
    }
    out.push((Routine::Irq, a));
    if m.key_buffer {
        let mut a = Asm::default();
        a.items.push(Item::Bytes(key_line_selects()));
        out.push((Routine::KeyLines, a));
    }
    // A crash (BRK, or the RESET vector, which a real reset never reads from RAM).
    let mut a = Asm::default();
    a.b(LDA_IMM, CRASH_EXIT_CODE).b(STA_ZP, r(24)).to(JMP, Routine::Exit.label());
    out.push((Routine::Crash, a));
    out
}

/// What selects each key matrix line: CIA 1 port A for lines 0-7, then $D02F for lines
/// 8-10 (the other register all 1s), [`KEY_LINES`] bytes each.
fn key_line_selects() -> Vec<u8> {
    let lines = usize::from(KEY_LINES);
    let port_a = (0..lines).map(|l| if l < 8 { !(1u8 << l) } else { 0xFF });
    let extra = (0..lines).map(|l| if l < 8 { 0xFF } else { !(1u8 << (l - 8)) });
    port_a.chain(extra).collect()
}

/// The key buffer's IRQ handler, after the common prologue (A and X pushed, not a BRK):
/// saves Y and $FF00, maps I/O (the interrupt may come inside a bank-1 window), acknowledges
/// the VIC-IIe and CIA 1, re-arms the raster line (a KERNAL call may have moved it), reads
/// all 11 matrix lines into the ring's head slot and into [`KEYS_NOW`] (the keys down now,
/// even when the ring is full) and, if the reading differs from the last one kept, keeps it
/// (a full ring keeps the last reading, so the change is retried next frame); and counts the
/// frame in [`KEYS_FRAMES`], the clock that a pause reads to take off the work before it.
/// About 500 cycles; it uses no zero page, and puts $DC00 and $D02F back as it found them.
fn key_irq(a: &mut Asm, loc: &mut Locals, mode: MemoryMode) {
    let lines = Sym::Code(Routine::KeyLines.label());
    let (scan, cmp, changed, copy, done) = (loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh());
    a.i(TYA).i(PHA).w(LDA_ABS, MMU_CR).i(PHA).b(LDA_IMM, mode.mmu_config()).w(STA_ABS, MMU_CR);
    a.w(LDA_ABS, CIA1_ICR).w(LDA_ABS, VIC_IRQ_FLAGS).w(STA_ABS, VIC_IRQ_FLAGS);
    a.b(LDA_IMM, KEYS_IRQ_LINE).w(STA_ABS, VIC_RASTER).w(INC_ABS, KEYS_FRAMES);
    a.w(LDA_ABS, CIA1_PORT_A).i(PHA).w(LDA_ABS, KEY_EXTRA_LINES).i(PHA);
    // Read every line into the head slot, a set bit per key down.
    a.w(LDY_ABS, KEYS_HEAD).b(LDX_IMM, 0);
    a.label(scan);
    a.items.push(Item::Ins(LDA_ABX, Arg::Sym(lines, Part::Word, 0)));
    a.w(STA_ABS, CIA1_PORT_A);
    a.items.push(Item::Ins(LDA_ABX, Arg::Sym(lines, Part::Word, i32::from(KEY_LINES))));
    a.w(STA_ABS, KEY_EXTRA_LINES);
    a.w(LDA_ABS, CIA1_PORT_B).b(EOR_IMM, 0xFF).w(STA_ABY, KEYS_RING).w(STA_ABX, KEYS_NOW);
    a.i(INY).i(INX).b(CPX_IMM, KEY_LINES).br(BNE, scan);
    // The same as the last reading: nothing to keep.
    a.w(LDY_ABS, KEYS_HEAD).b(LDX_IMM, 0);
    a.label(cmp).w(LDA_ABY, KEYS_RING).w(CMP_ABX, KEYS_LAST).br(BNE, changed);
    a.i(INY).i(INX).b(CPX_IMM, KEY_LINES).br(BNE, cmp).to(JMP, done);
    // The next head (the ring is a page: the offset wraps by itself); if it meets the
    // tail the ring is full.
    a.label(changed).w(LDA_ABS, KEYS_HEAD).i(CLC).b(ADC_IMM, KEYS_SLOT);
    a.w(CMP_ABS, KEYS_TAIL).br(BEQ, done).i(PHA);
    a.w(LDY_ABS, KEYS_HEAD).b(LDX_IMM, 0);
    a.label(copy).w(LDA_ABY, KEYS_RING).w(STA_ABX, KEYS_LAST).i(INY).i(INX).b(CPX_IMM, KEY_LINES).br(BNE, copy);
    a.i(PLA).w(STA_ABS, KEYS_HEAD);
    a.label(done).i(PLA).w(STA_ABS, KEY_EXTRA_LINES).i(PLA).w(STA_ABS, CIA1_PORT_A);
    a.i(PLA).w(STA_ABS, MMU_CR).i(PLA).i(TAY).i(PLA).i(TAX).i(PLA).i(RTI);
}
