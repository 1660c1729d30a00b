//! Start-up and exit: what runs before the program's entry and after it returns, the
//! loader of the bank-1 file, and the save area where BASIC's state waits meanwhile.
//!
//! Assumes BASIC's configuration is mapped when the program is started (`SYS`), and the
//! entry function follows the AVR calling convention. Guarantees: the program runs in its
//! memory mode's configuration with the AVR stack at `stack_top`, r1, the flags and T
//! zero and `.bss` zeroed (static frames are not: a frame, like a stack frame, starts
//! undefined); on exit (return from the entry, `__c128_exit`, or a crash in the all-RAM
//! mode) BASIC's stack pointer, zero page, RAM vectors, RAM configuration and $FF00 are
//! back and the exit code is at [`EXIT_PORT`]. A bank-1 file that cannot be loaded gives
//! `?CANNOT LOAD name` and a return to BASIC with nothing changed.
//!
//! The bank-1 file comes first through the drive's burst FASTLOAD, unpacked as it arrives
//! ([`c128_loader::stream`]); when the drive is not a fast one (another drive, our emulator) or
//! the stream fails, through the KERNAL's LOAD, and it is then unpacked in place
//! ([`c128_loader::unpack`]).
//!
//! With a bank-1 file, the drive is sent `I0` (initialize: it reads the disk's BAM) once
//! the file has loaded, and the command channel is closed only after the file is unpacked:
//! the drive moves its head to the directory's track and reads it into its track cache
//! while the computer unpacks, instead of after, when the program first looks at the disk
//! (a 1581 took about half a second for that read in VICE). Assumes no logical file 15 is
//! open (BASIC's `RUN` has just cleared the KERNAL's table); a drive that answers neither
//! (none there) costs the OPEN's and CLOSE's time-outs only, and the close waits for the
//! drive to finish, so the program's first disk call finds it idle.

use super::{Machine, Routine, r, t};
use crate::mmap::*;
use c128_loader::{fastload, stream};
use c128_map::io::{CIA1_ICR, VIC_CLOCK, VIC_CONTROL, VIC_IRQ_FLAGS, VIC_IRQ_MASK, VIC_RASTER};
use mos_asm::asm::Locals;
use mos_asm::asm::{Arg, Asm, Item, Label, Part, Sym, op::*};
// KERNAL entry points the start-up code calls directly (BASIC's configuration is still
// mapped then).
use c128_map::kernal::{CHROUT, CLOSE, LOAD, OPEN, SETBNK, SETLFS, SETNAM};

/// Byte `off` of the save area.
fn save(off: i32) -> Arg {
    Arg::Sym(Sym::Code(Routine::Save.label()), Part::Word, off)
}

/// Where the all-RAM mode saves BASIC's RAM vectors at $FFFA-$FFFF: after the zero page in
/// the save area.
fn vector_save(m: &Machine, i: i32) -> Arg {
    save(2 + i32::from(m.zp_len) + i)
}

/// Where a program with interpreted functions in bank 1 saves $D506: after the vectors.
fn rcr_save(m: &Machine) -> Arg {
    save(2 + i32::from(m.zp_len) + 6)
}

/// Where the bank-1 loader keeps the address after the packed file's last byte (two bytes,
/// what LOAD returned in X and Y; a high byte of 0 when the file was streamed and is
/// unpacked already), then BASIC's $D030 and $D011 while it runs at 2 MHz.
fn bank1_end_at(m: &Machine) -> i32 {
    2 + i32::from(m.zp_len) + 7
}
fn clock_save(m: &Machine) -> Arg {
    save(bank1_end_at(m) + 2)
}
fn control_save(m: &Machine) -> Arg {
    save(bank1_end_at(m) + 3)
}

/// The logical file and secondary address of the command channel the start-up opens.
const COMMAND: u8 = 15;
/// What it sends there: initialize drive 0.
const INITIALIZE: &[u8] = b"I0";

/// Start, Exit and, with a bank-1 file, its name, the message when it cannot be loaded
/// and the unpacker.
pub(super) fn routines(entry: Label, loc: &mut Locals, m: &Machine, stack_top: u16) -> Vec<(Routine, Asm)> {
    let mut out = Vec::new();
    let mut a = Asm::default();
    let fast = m.bank1.filter(|_| m.fastload).and_then(fastload::drive_code);

    // The bank-1 file first, while BASIC's configuration (the KERNAL) is mapped and nothing
    // needs undoing: LOAD from the drive the program came from (FA, 8 if that was not a
    // drive) to the file's own address in bank 1. If it fails the program says so and
    // returns to BASIC. The file is packed (bac-pack): it loads at 2 MHz, with the VIC-IIe's
    // screen blanked as 2 MHz needs, and is unpacked in place below once the runtime has
    // the machine; its end address, which LOAD returns, locates the packed file's trailer.
    if let Some(name) = m.bank1 {
        let (drive, loaded) = (loc.fresh(), loc.fresh());
        a.w(LDA_ABS, VIC_CLOCK);
        a.items.push(Item::Ins(STA_ABS, clock_save(m)));
        a.w(LDA_ABS, VIC_CONTROL);
        a.items.push(Item::Ins(STA_ABS, control_save(m)));
        a.b(AND_IMM, 0xEF).w(STA_ABS, VIC_CONTROL).b(LDA_IMM, 1).w(STA_ABS, VIC_CLOCK);
        if fast.is_some() {
            // From a 1581, through the drive routine of ours (fastload.rs); the KERNAL's
            // LOAD below when that does not answer or fails.
            a.to(JSR, Routine::Fastload.label()).br(BCC, loaded);
        }
        // Streamed and unpacked as it comes from a fast drive (stream.rs), which leaves
        // nothing to unpack: the end's high byte 0 says so (LOAD never ends in page 0).
        let kernal_load = loc.fresh();
        a.to(JSR, Routine::Stream.label()).br(BCS, kernal_load).b(LDA_IMM, 0);
        a.items.push(Item::Ins(STA_ABS, save(bank1_end_at(m) + 1)));
        a.to(JMP, loaded).label(kernal_load);
        a.b(LDA_IMM, BANK1_LOAD_BANK).b(LDX_IMM, 0).w(JSR, SETBNK);
        a.b(LDA_IMM, 1).b(LDX_ZP, FA).b(CPX_IMM, 8).br(BCS, drive).b(LDX_IMM, 8);
        a.label(drive).b(LDY_IMM, 1).w(JSR, SETLFS);
        a.b(LDA_IMM, name.len() as u8);
        a.s(LDX_IMM, Sym::Code(Routine::Bank1Name.label()), Part::Lo);
        a.s(LDY_IMM, Sym::Code(Routine::Bank1Name.label()), Part::Hi);
        a.w(JSR, SETNAM).b(LDA_IMM, 0).w(JSR, LOAD);
        a.items.push(Item::Ins(STX_ABS, save(bank1_end_at(m))));
        a.items.push(Item::Ins(STY_ABS, save(bank1_end_at(m) + 1)));
        // Later OPENs take their file names from bank 0 again.
        a.i(PHP).b(LDA_IMM, 0).b(LDX_IMM, 0).w(JSR, SETBNK).i(PLP);
        a.br(BCC, loaded).to(JMP, Routine::Bank1Failed.label());
        a.label(loaded);
        // OPEN 15,drive,15,"I0": the drive starts reading its directory's track; the
        // command channel is closed after the unpacking (below). Its answer is not read.
        let drive = loc.fresh();
        a.b(LDA_IMM, COMMAND).b(LDX_ZP, FA).b(CPX_IMM, 8).br(BCS, drive).b(LDX_IMM, 8);
        a.label(drive).b(LDY_IMM, COMMAND).w(JSR, SETLFS);
        let initialize = |part| Arg::Sym(Sym::Code(Routine::Bank1Name.label()), part, name.len() as i32);
        a.b(LDA_IMM, INITIALIZE.len() as u8);
        a.items.push(Item::Ins(LDX_IMM, initialize(Part::Lo)));
        a.items.push(Item::Ins(LDY_IMM, initialize(Part::Hi)));
        a.w(JSR, SETNAM).w(JSR, OPEN);
    }

    // Start-up: save what BASIC needs back, map the program's configuration (all-RAM:
    // with interrupts off first, and our vectors in place of BASIC's RAM ones), set up the
    // AVR stack and zero register, zero .bss, run the program, then fall into exit.
    a.w(LDA_ABS, MMU_CR);
    a.items.push(Item::Ins(STA_ABS, save(0)));
    if m.all_ram {
        a.i(SEI);
    }
    a.b(LDA_IMM, m.mode.mmu_config()).w(STA_ABS, MMU_CR).i(CLD).i(TSX);
    a.items.push(Item::Ins(STX_ABS, save(1)));
    let l1 = loc.fresh();
    a.b(LDX_IMM, m.zp_len - 1).label(l1).b(LDA_ZPX, ZP_SAVE_START);
    a.items.push(Item::Ins(STA_ABX, save(2)));
    a.i(DEX).br(BPL, l1);
    if m.all_ram {
        let lv = loc.fresh();
        a.b(LDX_IMM, 5).label(lv).w(LDA_ABX, VECTORS);
        a.items.push(Item::Ins(STA_ABX, vector_save(m, 0)));
        a.i(DEX).br(BPL, lv);
        for (i, routine) in [Routine::Nmi, Routine::Crash, Routine::Irq].into_iter().enumerate() {
            let at = VECTORS + 2 * i as u16;
            a.s(LDA_IMM, Sym::Code(routine.label()), Part::Lo).w(STA_ABS, at);
            a.s(LDA_IMM, Sym::Code(routine.label()), Part::Hi).w(STA_ABS, at + 1);
        }
    }
    if m.bank1.is_some() {
        // 16 KB of common RAM (this code, the runtime and the interpreter), and the same
        // vectors in bank 1 for an interrupt while the interpreter reads AVR bytes there.
        a.w(LDA_ABS, MMU_RCR);
        a.items.push(Item::Ins(STA_ABS, rcr_save(m)));
        a.b(LDA_IMM, RCR_COMMON_16K).w(STA_ABS, MMU_RCR);
        let lv = loc.fresh();
        a.b(LDX_IMM, 5).label(lv).w(LDA_ABX, VECTORS).b(LDY_IMM, MMU_CONFIG_BANK1).w(STY_ABS, MMU_CR);
        a.w(STA_ABX, VECTORS).b(LDY_IMM, m.mode.mmu_config()).w(STY_ABS, MMU_CR).i(DEX).br(BPL, lv);
        // The interpreted code, unpacked where it runs unless it was streamed; then
        // BASIC's clock and screen.
        let unpacked = loc.fresh();
        a.items.push(Item::Ins(LDA_ABS, save(bank1_end_at(m) + 1)));
        a.br(BEQ, unpacked).to(JSR, Routine::Unpack.label()).label(unpacked);
        // The command channel closed, with the KERNAL mapped as for any of the program's
        // calls of it (runtime/kernal.rs); this waits for the drive's I0 to end.
        a.b(LDA_IMM, MMU_CONFIG).w(STA_ABS, MMU_CR).b(LDA_IMM, COMMAND).w(JSR, CLOSE);
        if m.all_ram {
            a.i(SEI);
        }
        a.b(LDA_IMM, m.mode.mmu_config()).w(STA_ABS, MMU_CR);
        a.items.push(Item::Ins(LDA_ABS, clock_save(m)));
        a.w(STA_ABS, VIC_CLOCK);
        a.items.push(Item::Ins(LDA_ABS, control_save(m)));
        a.w(STA_ABS, VIC_CONTROL);
    }
    a.b(LDA_IMM, stack_top as u8).b(STA_ZP, SPL).b(LDA_IMM, (stack_top >> 8) as u8).b(STA_ZP, SPH);
    a.b(LDA_IMM, 0).b(STA_ZP, r(1)).b(STA_ZP, FLAGS).b(STA_ZP, TFLAG);
    a.s(LDA_IMM, Sym::BssStart, Part::Lo).b(STA_ZP, t(0));
    a.s(LDA_IMM, Sym::BssStart, Part::Hi).b(STA_ZP, t(1));
    a.s(LDA_IMM, Sym::BssLen, Part::Lo).b(STA_ZP, t(2));
    a.s(LDA_IMM, Sym::BssLen, Part::Hi).b(STA_ZP, t(3));
    let (zl, zd) = (loc.fresh(), loc.fresh());
    a.b(LDY_IMM, 0).label(zl).b(LDA_ZP, t(2)).b(ORA_ZP, t(3)).br(BEQ, zd);
    a.b(LDA_IMM, 0).b(STA_IZY, t(0)).b(INC_ZP, t(0)).b(BNE, 2).b(INC_ZP, t(1));
    a.b(LDA_ZP, t(2)).b(BNE, 2).b(DEC_ZP, t(3)).b(DEC_ZP, t(2)).to(JMP, zl);
    a.label(zd);
    if m.key_buffer {
        // An empty ring, no key down so far, the raster interrupt on at KEYS_IRQ_LINE,
        // anything pending acknowledged, then interrupts on.
        let lz = loc.fresh();
        a.b(LDA_IMM, 0).w(STA_ABS, KEYS_HEAD).w(STA_ABS, KEYS_TAIL);
        a.b(LDX_IMM, KEY_LINES - 1).label(lz).w(STA_ABX, KEYS_LAST).i(DEX).br(BPL, lz);
        a.b(LDA_IMM, KEYS_MAGIC_ON).w(STA_ABS, KEYS_MAGIC);
        a.b(LDA_IMM, KEYS_IRQ_LINE).w(STA_ABS, VIC_RASTER);
        a.w(LDA_ABS, VIC_CONTROL).b(AND_IMM, 0x7F).w(STA_ABS, VIC_CONTROL);
        a.w(LDA_ABS, VIC_IRQ_MASK).b(ORA_IMM, 0x01).w(STA_ABS, VIC_IRQ_MASK);
        a.w(LDA_ABS, CIA1_ICR).w(LDA_ABS, VIC_IRQ_FLAGS).w(STA_ABS, VIC_IRQ_FLAGS);
        a.i(CLI);
    }
    a.to(JSR, entry);
    out.push((Routine::Start, a));
    if let Some(name) = m.bank1 {
        // Right after the start-up code, below $4000, where the receiving loop must run
        // (bank 1 is mapped while it decodes).
        let command = stream::command(name);
        let routine =
            stream::routine(loc, Routine::StreamCommand.label(), command.len(), stream::Output::bank1(m.packer));
        out.push((Routine::Stream, routine));
        let mut a = Asm::default();
        a.items.push(Item::Bytes(command));
        out.push((Routine::StreamCommand, a));
    }
    if let Some(code) = &fast {
        // Right after the start-up code, below $4000, where the receiving loop must run
        // (it maps bank 1 for each store) and BASIC's ROM does not hide the bytes it sends.
        let end = save(bank1_end_at(m));
        let host =
            fastload::host(loc, Routine::FastloadDrive.label(), code.len(), Routine::FastloadCommands.label(), end);
        out.push((Routine::Fastload, host));
        let mut a = Asm::default();
        a.items.push(Item::Bytes(code.clone()));
        out.push((Routine::FastloadDrive, a));
        let mut a = Asm::default();
        a.items.push(Item::Bytes(fastload::commands()));
        out.push((Routine::FastloadCommands, a));
    }

    // Exit: code in r24; reached by returning from the entry or from __c128_exit (and in
    // the all-RAM mode from a BRK). BASIC's stack pointer, zero page, RAM vectors and
    // $FF00 go back; all-RAM: interrupts on again, as BASIC had them.
    let mut a = Asm::default();
    if m.key_buffer {
        // No more readings: interrupts off while BASIC's state goes back.
        a.i(SEI).b(LDA_IMM, 0).w(STA_ABS, KEYS_MAGIC);
    }
    if m.bank1.is_some() {
        // BASIC's RAM configuration first: its variables are in bank 1 above $0400.
        a.items.push(Item::Ins(LDA_ABS, rcr_save(m)));
        a.w(STA_ABS, MMU_RCR);
    }
    a.b(LDA_ZP, r(24)).w(STA_ABS, EXIT_PORT);
    a.items.push(Item::Ins(LDX_ABS, save(1)));
    a.i(TXS);
    let l2 = loc.fresh();
    a.b(LDX_IMM, m.zp_len - 1).label(l2);
    a.items.push(Item::Ins(LDA_ABX, save(2)));
    a.b(STA_ZPX, ZP_SAVE_START).i(DEX).br(BPL, l2);
    if m.all_ram {
        let lv = loc.fresh();
        a.b(LDX_IMM, 5).label(lv);
        a.items.push(Item::Ins(LDA_ABX, vector_save(m, 0)));
        a.w(STA_ABX, VECTORS).i(DEX).br(BPL, lv);
    }
    a.items.push(Item::Ins(LDA_ABS, save(0)));
    a.w(STA_ABS, MMU_CR);
    if m.all_ram {
        a.i(CLI);
    }
    a.i(RTS);
    out.push((Routine::Exit, a));

    if let Some(name) = m.bank1 {
        let mut a = Asm::default();
        a.items.push(Item::Bytes([name, INITIALIZE].concat()));
        out.push((Routine::Bank1Name, a));
        // "?CANNOT LOAD <name>" on the screen, then back to BASIC: nothing was changed yet
        // but the clock and the screen, which go back first.
        let mut a = Asm::default();
        a.items.push(Item::Ins(LDA_ABS, clock_save(m)));
        a.w(STA_ABS, VIC_CLOCK);
        a.items.push(Item::Ins(LDA_ABS, control_save(m)));
        a.w(STA_ABS, VIC_CONTROL);
        let name_lp = loc.fresh();
        for &c in b"\r?CANNOT LOAD " {
            a.b(LDA_IMM, c).w(JSR, CHROUT);
        }
        a.b(LDX_IMM, 0).label(name_lp);
        a.items.push(Item::Ins(LDA_ABX, Arg::Sym(Sym::Code(Routine::Bank1Name.label()), Part::Word, 0)));
        a.w(JSR, CHROUT).i(INX).b(CPX_IMM, name.len() as u8).br(BCC, name_lp);
        a.b(LDA_IMM, b'\r').w(JSR, CHROUT).i(RTS);
        out.push((Routine::Bank1Failed, a));
        let end = (Sym::Code(Routine::Save.label()), bank1_end_at(m));
        let unpack = match m.packer {
            bac_pack::Format::Bytes => c128_loader::unpack::emit(loc, end, MMU_CONFIG_BANK1, m.mode.mmu_config()),
            bac_pack::Format::Dense => {
                c128_loader::unpack_dense::in_place(loc, end, MMU_CONFIG_BANK1, m.mode.mmu_config())
            }
        };
        out.push((Routine::Unpack, unpack));
    }

    out
}

/// The save area: $FF00, the 6502 SP, then the saved zero page (all-RAM: and BASIC's RAM
/// vectors; with a bank-1 file, $D506, the loaded file's end, BASIC's clock and screen).
pub(super) fn save_area(m: &Machine) -> Asm {
    // Save area: $FF00, the 6502 SP, then the saved zero page (all-RAM: and BASIC's RAM
    // vectors).
    let mut a = Asm::default();
    a.items.push(Item::Bytes(vec![
        0;
        2 + usize::from(m.zp_len)
            + if m.all_ram { 6 } else { 0 }
            + if m.bank1.is_some() { 5 } else { 0 }
    ]));
    a
}
