//! Native 6502 routines that every translated program carries: start-up and exit, the
//! software-stack helpers, the multiply family, the libgcc helpers that
//! `compiler_builtins` lacks, and the gateway to the KERNAL.
//!
//! # How AVR code reaches these routines
//! The pipeline's linker script defines each native symbol ([`NATIVE`]) at a fixed
//! address outside `.text`; a `call` to such an address becomes a `JSR` to the routine.
//! The routines keep avr-gcc's register conventions for them, and clobber nothing else
//! (they only use the scratch bytes T0..T11), which is stricter than the ABI asks.
//!
//! - `__mulsi3`: r25:r22 = r25:r22 * r21:r18 (low 32 bits).
//! - `__divmodqi4`: r24 = r24 / r22, r25 = r24 % r22 (signed, truncating).
//! - `__divmodhi4`: r23:r22 = r25:r24 / r23:r22, r25:r24 = remainder (signed, truncating).
//! - `__udivmodqi4`, `__udivmodhi4`: the same, unsigned (native: several times faster than
//!   translating `compiler_builtins`' AVR versions).
//! - `__udivmodsi4`: r21:r18 = r25:r22 / r21:r18, r25:r22 = remainder (unsigned);
//!   `__divmodsi4`: the same, signed and truncating. Both are what LLVM's AVR back end
//!   calls for 32-bit `/` and `%`; a zero divisor gives what libgcc's give (quotient all
//!   ones, or its negation, and the dividend as remainder; Rust checks before calling).
//!   Native, they replace `compiler_builtins`' generic `u32_div_rem` (2.7 KB translated).
//! - `memcpy(dst: r25:r24, src: r23:r22, n: r21:r20)`, `memmove`, `memset(dst, c: r22,
//!   n)` return `dst` in r25:r24 (unchanged); `memcmp`/`bcmp(a, b, n)` return the
//!   difference of the first differing bytes (or 0) in r25:r24, as `compiler_builtins`'
//!   do. A page at a time with `(zp),Y`: a few dozen bytes instead of 3 KB of translated
//!   word-at-a-time Rust.
//! - `__c128_kernal(addr: u16, a: u8, x: u8, y: u8, carry: u8) -> u32`: loads A, X, Y and
//!   the carry (bit 0 of `carry`) and does `JSR addr`; returns A in bits 0-7, X in 8-15,
//!   Y in 16-23 and the carry in bit 24 (the KERNAL's error flag).
//!   In the all-RAM mode ([`MemoryMode::AllRam`]) it is a trampoline: $FF00 = $0E for
//!   the call (the KERNAL in, as in the default mode), then `SEI` and $FF00 = $3E again.
//!   Interrupts stay disabled during the call unless the routine itself enables them (so
//!   the KERNAL's IRQ does not scan the keyboard: a program that reads keys calls SCNKEY).
//!   With the key buffer (`key_buffer = true`) they are turned on again after the call.
//! - `__c128_exit(code: u8) -> !`: writes `code` to $D7FF and returns to BASIC.
//! - `__mulosi4(a: i32, b: i32, overflow: *mut c_int) -> i32` and
//!   `__mulodi4(a: i64, b: i64, overflow: *mut c_int) -> i64`: multiply with overflow
//!   check. They replace `compiler_builtins`' versions, which store a 32-bit overflow flag
//!   where LLVM's AVR code reserved a 16-bit C `int`, overwriting two stack bytes.

use crate::asm::{Arg, Asm, Item, Label, Part, Sym, op::*};
use crate::mmap::*;

/// Zero-page scratch of the wide multiply ($40-$59), saved and restored like the rest.
const WIDE: u8 = 0x40;

/// Native symbols the linker script defines, with the address it gives each (outside
/// the AVR code, so that a call to it can only mean the native routine).
pub const NATIVE: &[(&str, u32, Routine)] = &[
    ("__mulsi3", 0x3F000, Routine::Mulsi3),
    ("__divmodhi4", 0x3F004, Routine::Divmodhi4),
    ("__divmodqi4", 0x3F008, Routine::Divmodqi4),
    ("__c128_kernal", 0x3F00C, Routine::Kernal),
    ("__c128_exit", 0x3F010, Routine::Exit),
    ("__mulosi4", 0x3F014, Routine::Mulosi4),
    ("__mulodi4", 0x3F018, Routine::Mulodi4),
    ("__udivmodqi4", 0x3F01C, Routine::Udivmodqi4),
    ("__udivmodhi4", 0x3F020, Routine::Udivmodhi4),
    ("__udivmodsi4", 0x3F024, Routine::Udivmodsi4),
    ("__divmodsi4", 0x3F028, Routine::Divmodsi4),
    ("memcpy", 0x3F02C, Routine::Memcpy),
    ("memmove", 0x3F030, Routine::Memmove),
    ("memset", 0x3F034, Routine::Memset),
    ("memcmp", 0x3F038, Routine::Memcmp),
    ("bcmp", 0x3F03C, Routine::Memcmp),
];

/// The runtime routines, each with its own label.
#[allow(missing_docs)] // Names say what they are; the module docs give the conventions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Routine {
    Start,
    Exit,
    Push,
    Pop,
    Enter,
    Leave,
    Icall,
    Mul8u,
    Mul8s,
    Mul8su,
    Mulsi3,
    Divmodqi4,
    Divmodhi4,
    Kernal,
    KernalJump,
    Mulosi4,
    Mulodi4,
    SwapA,
    PushRun,
    PopRun,
    SregRead,
    SregWrite,
    Udiv8,
    Udiv16,
    Udivmodqi4,
    Udivmodhi4,
    Udivmodsi4,
    Divmodsi4,
    Neg32,
    Memcpy,
    Memmove,
    Memset,
    Memcmp,
    Nmi,
    Irq,
    Crash,
    Bank1Name,
    Bank1Failed,
    Unpack,
    KeyLines,
    Save,
}

const RT_BASE: u32 = 0x8000_0000;
const LOCAL_BASE: u32 = 0x4000_0000;

impl Routine {
    /// The routine's label.
    pub fn label(self) -> Label {
        Label(RT_BASE + self as u32)
    }

    /// The routine's name in the symbol map.
    pub fn name(self) -> String {
        format!("rt_{self:?}").to_lowercase()
    }

    /// The routine that implements a native symbol, if `name` is one.
    pub fn for_symbol(name: &str) -> Option<Routine> {
        NATIVE.iter().find(|(n, _, _)| *n == name).map(|&(_, _, r)| r)
    }
}

/// Allocates local labels for code sequences.
#[derive(Debug, Default)]
pub struct Locals(u32);

impl Locals {
    /// A fresh label.
    pub fn fresh(&mut self) -> Label {
        self.0 += 1;
        Label(LOCAL_BASE + self.0)
    }
}

fn r(n: u8) -> u8 {
    reg(n)
}
fn t(n: u8) -> u8 {
    temp(n)
}

fn neg16(a: &mut Asm, lo: u8) {
    a.i(SEC).b(LDA_IMM, 0).b(SBC_ZP, lo).b(STA_ZP, lo);
    a.b(LDA_IMM, 0).b(SBC_ZP, lo + 1).b(STA_ZP, lo + 1);
}

fn neg8_a(a: &mut Asm) {
    a.b(EOR_IMM, 0xFF).i(CLC).b(ADC_IMM, 1);
}

// The key buffer's interrupt handler reads the key matrix (CIA 1's ports and the C128's
// extra lines) and runs off the VIC-IIe's raster interrupt.
use c128_map::io::{
    CIA1_ICR, CIA1_PORT_A, CIA1_PORT_B, KEY_EXTRA_LINES, VIC_CLOCK, VIC_CONTROL, VIC_IRQ_FLAGS, VIC_IRQ_MASK,
    VIC_RASTER,
};

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
/// all 11 matrix lines into the ring's head slot and, if the reading differs from the last
/// one, keeps it (a full ring keeps the last reading, so the change is retried next frame).
/// About 500 cycles; it uses no zero page, and puts $DC00 and $D02F back as it found them.
fn key_irq(a: &mut Asm, loc: &mut Locals, mode: MemoryMode) {
    let lines = Sym::Code(Routine::KeyLines.label());
    let (scan, cmp, changed, copy, done) = (loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh());
    a.i(TYA).i(PHA).w(LDA_ABS, MMU_CR).i(PHA).b(LDA_IMM, mode.mmu_config()).w(STA_ABS, MMU_CR);
    a.w(LDA_ABS, CIA1_ICR).w(LDA_ABS, VIC_IRQ_FLAGS).w(STA_ABS, VIC_IRQ_FLAGS);
    a.b(LDA_IMM, KEYS_IRQ_LINE).w(STA_ABS, VIC_RASTER);
    a.w(LDA_ABS, CIA1_PORT_A).i(PHA).w(LDA_ABS, KEY_EXTRA_LINES).i(PHA);
    // Read every line into the head slot, a set bit per key down.
    a.w(LDY_ABS, KEYS_HEAD).b(LDX_IMM, 0);
    a.label(scan);
    a.items.push(Item::Ins(LDA_ABX, Arg::Sym(lines, Part::Word, 0)));
    a.w(STA_ABS, CIA1_PORT_A);
    a.items.push(Item::Ins(LDA_ABX, Arg::Sym(lines, Part::Word, i32::from(KEY_LINES))));
    a.w(STA_ABS, KEY_EXTRA_LINES);
    a.w(LDA_ABS, CIA1_PORT_B).b(EOR_IMM, 0xFF).w(STA_ABY, KEYS_RING);
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

fn save(off: i32) -> Arg {
    Arg::Sym(Sym::Code(Routine::Save.label()), Part::Word, off)
}

/// Where the all-RAM mode saves BASIC's RAM vectors at $FFFA-$FFFF: after the zero page in
/// the save area.
fn vector_save(i: i32) -> Arg {
    save(2 + i32::from(ZP_SAVE_LEN) + i)
}

/// Where a program with interpreted functions in bank 1 saves $D506: after the vectors.
fn rcr_save() -> Arg {
    save(2 + i32::from(ZP_SAVE_LEN) + 6)
}

/// Where the bank-1 loader keeps the address after the packed file's last byte (two bytes,
/// what LOAD returned in X and Y), then BASIC's $D030 and $D011 while it runs at 2 MHz.
fn bank1_end_at() -> i32 {
    2 + i32::from(ZP_SAVE_LEN) + 7
}
fn clock_save() -> Arg {
    save(bank1_end_at() + 2)
}
fn control_save() -> Arg {
    save(bank1_end_at() + 3)
}

// KERNAL entry points the start-up code calls directly (BASIC's configuration is still
// mapped then).
use c128_map::kernal::{CHROUT, LOAD, SETBNK, SETLFS, SETNAM};

/// Emits every runtime routine for a program in `mode`. `entry` is the label of the
/// program's entry function. `bank1` is the name (PETSCII) of the file holding the
/// interpreted functions for RAM bank 1 (all-RAM mode only, see [`crate::mmap`]).
/// `stack_top` is the AVR stack's first byte ([`STACK_TOP`], or $CFFF with a high stack).
/// `key_buffer`: run with interrupts on and keep the key buffer (all-RAM mode only; see
/// [`crate::mmap`]).
pub fn emit(
    entry: Label,
    loc: &mut Locals,
    mode: MemoryMode,
    bank1: Option<&[u8]>,
    stack_top: u16,
    key_buffer: bool,
) -> Vec<(Routine, Asm)> {
    let all_ram = mode == MemoryMode::AllRam;
    let bank1 = bank1.filter(|_| all_ram);
    let key_buffer = key_buffer && all_ram;
    let mut out = Vec::new();
    let mut a = Asm::default();

    // The bank-1 file first, while BASIC's configuration (the KERNAL) is mapped and nothing
    // needs undoing: LOAD from the drive the program came from (FA, 8 if that was not a
    // drive) to the file's own address in bank 1. If it fails the program says so and
    // returns to BASIC. The file is packed (bac-pack): it loads at 2 MHz, with the VIC-IIe's
    // screen blanked as 2 MHz needs, and is unpacked in place below once the runtime has
    // the machine; its end address, which LOAD returns, locates the packed file's trailer.
    if let Some(name) = bank1 {
        let (drive, loaded) = (loc.fresh(), loc.fresh());
        a.w(LDA_ABS, VIC_CLOCK);
        a.items.push(Item::Ins(STA_ABS, clock_save()));
        a.w(LDA_ABS, VIC_CONTROL);
        a.items.push(Item::Ins(STA_ABS, control_save()));
        a.b(AND_IMM, 0xEF).w(STA_ABS, VIC_CONTROL).b(LDA_IMM, 1).w(STA_ABS, VIC_CLOCK);
        a.b(LDA_IMM, BANK1_LOAD_BANK).b(LDX_IMM, 0).w(JSR, SETBNK);
        a.b(LDA_IMM, 1).b(LDX_ZP, FA).b(CPX_IMM, 8).br(BCS, drive).b(LDX_IMM, 8);
        a.label(drive).b(LDY_IMM, 1).w(JSR, SETLFS);
        a.b(LDA_IMM, name.len() as u8);
        a.s(LDX_IMM, Sym::Code(Routine::Bank1Name.label()), Part::Lo);
        a.s(LDY_IMM, Sym::Code(Routine::Bank1Name.label()), Part::Hi);
        a.w(JSR, SETNAM).b(LDA_IMM, 0).w(JSR, LOAD);
        a.items.push(Item::Ins(STX_ABS, save(bank1_end_at())));
        a.items.push(Item::Ins(STY_ABS, save(bank1_end_at() + 1)));
        // Later OPENs take their file names from bank 0 again.
        a.i(PHP).b(LDA_IMM, 0).b(LDX_IMM, 0).w(JSR, SETBNK).i(PLP);
        a.br(BCC, loaded).to(JMP, Routine::Bank1Failed.label());
        a.label(loaded);
    }

    // Start-up: save what BASIC needs back, map the program's configuration (all-RAM:
    // with interrupts off first, and our vectors in place of BASIC's RAM ones), set up the
    // AVR stack and zero register, zero .bss, run the program, then fall into exit.
    a.w(LDA_ABS, MMU_CR);
    a.items.push(Item::Ins(STA_ABS, save(0)));
    if all_ram {
        a.i(SEI);
    }
    a.b(LDA_IMM, mode.mmu_config()).w(STA_ABS, MMU_CR).i(CLD).i(TSX);
    a.items.push(Item::Ins(STX_ABS, save(1)));
    let l1 = loc.fresh();
    a.b(LDX_IMM, ZP_SAVE_LEN - 1).label(l1).b(LDA_ZPX, ZP_SAVE_START);
    a.items.push(Item::Ins(STA_ABX, save(2)));
    a.i(DEX).br(BPL, l1);
    if all_ram {
        let lv = loc.fresh();
        a.b(LDX_IMM, 5).label(lv).w(LDA_ABX, VECTORS);
        a.items.push(Item::Ins(STA_ABX, vector_save(0)));
        a.i(DEX).br(BPL, lv);
        for (i, routine) in [Routine::Nmi, Routine::Crash, Routine::Irq].into_iter().enumerate() {
            let at = VECTORS + 2 * i as u16;
            a.s(LDA_IMM, Sym::Code(routine.label()), Part::Lo).w(STA_ABS, at);
            a.s(LDA_IMM, Sym::Code(routine.label()), Part::Hi).w(STA_ABS, at + 1);
        }
    }
    if bank1.is_some() {
        // 16 KB of common RAM (this code, the runtime and the interpreter), and the same
        // vectors in bank 1 for an interrupt while the interpreter reads AVR bytes there.
        a.w(LDA_ABS, MMU_RCR);
        a.items.push(Item::Ins(STA_ABS, rcr_save()));
        a.b(LDA_IMM, RCR_COMMON_16K).w(STA_ABS, MMU_RCR);
        let lv = loc.fresh();
        a.b(LDX_IMM, 5).label(lv).w(LDA_ABX, VECTORS).b(LDY_IMM, MMU_CONFIG_BANK1).w(STY_ABS, MMU_CR);
        a.w(STA_ABX, VECTORS).b(LDY_IMM, mode.mmu_config()).w(STY_ABS, MMU_CR).i(DEX).br(BPL, lv);
        // The interpreted code, unpacked where it runs; then BASIC's clock and screen.
        a.to(JSR, Routine::Unpack.label());
        a.items.push(Item::Ins(LDA_ABS, clock_save()));
        a.w(STA_ABS, VIC_CLOCK);
        a.items.push(Item::Ins(LDA_ABS, control_save()));
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
    if key_buffer {
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

    // Exit: code in r24; reached by returning from the entry or from __c128_exit (and in
    // the all-RAM mode from a BRK). BASIC's stack pointer, zero page, RAM vectors and
    // $FF00 go back; all-RAM: interrupts on again, as BASIC had them.
    let mut a = Asm::default();
    if key_buffer {
        // No more readings: interrupts off while BASIC's state goes back.
        a.i(SEI).b(LDA_IMM, 0).w(STA_ABS, KEYS_MAGIC);
    }
    if bank1.is_some() {
        // BASIC's RAM configuration first: its variables are in bank 1 above $0400.
        a.items.push(Item::Ins(LDA_ABS, rcr_save()));
        a.w(STA_ABS, MMU_RCR);
    }
    a.b(LDA_ZP, r(24)).w(STA_ABS, EXIT_PORT);
    a.items.push(Item::Ins(LDX_ABS, save(1)));
    a.i(TXS);
    let l2 = loc.fresh();
    a.b(LDX_IMM, ZP_SAVE_LEN - 1).label(l2);
    a.items.push(Item::Ins(LDA_ABX, save(2)));
    a.b(STA_ZPX, ZP_SAVE_START).i(DEX).br(BPL, l2);
    if all_ram {
        let lv = loc.fresh();
        a.b(LDX_IMM, 5).label(lv);
        a.items.push(Item::Ins(LDA_ABX, vector_save(0)));
        a.w(STA_ABX, VECTORS).i(DEX).br(BPL, lv);
    }
    a.items.push(Item::Ins(LDA_ABS, save(0)));
    a.w(STA_ABS, MMU_CR);
    if all_ram {
        a.i(CLI);
    }
    a.i(RTS);
    out.push((Routine::Exit, a));

    if let Some(name) = bank1 {
        let mut a = Asm::default();
        a.items.push(Item::Bytes(name.to_vec()));
        out.push((Routine::Bank1Name, a));
        // "?CANNOT LOAD <name>" on the screen, then back to BASIC: nothing was changed yet
        // but the clock and the screen, which go back first.
        let mut a = Asm::default();
        a.items.push(Item::Ins(LDA_ABS, clock_save()));
        a.w(STA_ABS, VIC_CLOCK);
        a.items.push(Item::Ins(LDA_ABS, control_save()));
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
        let end = (Sym::Code(Routine::Save.label()), bank1_end_at());
        out.push((Routine::Unpack, crate::unpack::emit(loc, end, MMU_CONFIG_BANK1, mode.mmu_config())));
    }

    if all_ram {
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
        if key_buffer {
            key_irq(&mut a, loc, mode);
        } else {
            a.w(LDA_ABS, CIA1_ICR).w(LDA_ABS, VIC_IRQ_FLAGS).w(STA_ABS, VIC_IRQ_FLAGS).i(PLA).i(TAX).i(PLA).i(RTI);
        }
        out.push((Routine::Irq, a));
        if key_buffer {
            let mut a = Asm::default();
            a.items.push(Item::Bytes(key_line_selects()));
            out.push((Routine::KeyLines, a));
        }
        // A crash (BRK, or the RESET vector, which a real reset never reads from RAM).
        let mut a = Asm::default();
        a.b(LDA_IMM, CRASH_EXIT_CODE).b(STA_ZP, r(24)).to(JMP, Routine::Exit.label());
        out.push((Routine::Crash, a));
    }

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
    // move SP once.
    let mut a = Asm::default();
    let l = loc.fresh();
    a.i(CLC).b(ADC_IMM, 1).b(STA_ZP, t(0)).b(LDY_IMM, 1);
    a.label(l).b(LDA_IZY, SPL).b(STA_ZPX, 0).i(DEX).i(INY).b(CPY_ZP, t(0)).br(BNE, l);
    a.i(DEY).i(TYA).i(CLC).b(ADC_ZP, SPL).b(STA_ZP, SPL).b(BCC, 2).b(INC_ZP, SPH).i(RTS);
    out.push((Routine::PopRun, a));

    // r1:r0 = T0 * T1, unsigned.
    let mut a = Asm::default();
    let (ml, mn) = (loc.fresh(), loc.fresh());
    a.b(LDA_IMM, 0).b(LDX_IMM, 8).b(LSR_ZP, t(0));
    a.label(ml).br(BCC, mn).i(CLC).b(ADC_ZP, t(1));
    a.label(mn).i(ROR_A).b(ROR_ZP, t(0)).i(DEX).br(BNE, ml);
    a.b(STA_ZP, r(1)).b(LDA_ZP, t(0)).b(STA_ZP, r(0)).i(RTS);
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

    // __mulsi3: shift-and-add over the multiplier's bits. The product is the same either
    // way round, so the multiplier is r25:r22 unless only r21:r18 has a zero high half;
    // the loop runs 8 times per multiplier byte up to its highest non-zero one (money
    // times a small rate: 8 or 16 rounds instead of 32).
    let mut a = Asm::default();
    let (normal, common, go) = (loc.fresh(), loc.fresh(), loc.fresh());
    a.b(LDA_ZP, r(24)).b(ORA_ZP, r(25)).br(BEQ, normal);
    a.b(LDA_ZP, r(20)).b(ORA_ZP, r(21)).br(BNE, normal);
    for i in 0..4 {
        a.b(LDA_ZP, r(22 + i)).b(STA_ZP, t(i)).b(LDA_ZP, r(18 + i)).b(STA_ZP, t(4 + i));
    }
    a.to(JMP, common).label(normal);
    for i in 0..4 {
        a.b(LDA_ZP, r(18 + i)).b(STA_ZP, t(i)).b(LDA_ZP, r(22 + i)).b(STA_ZP, t(4 + i));
    }
    a.label(common).b(LDA_IMM, 0);
    for i in 8..12 {
        a.b(STA_ZP, t(i));
    }
    for (bytes, top) in [(4u8, 7u8), (3, 6), (2, 5)] {
        a.b(LDX_IMM, 8 * bytes).b(LDA_ZP, t(top)).br(BNE, go);
    }
    a.b(LDX_IMM, 8);
    let (l, n) = (loc.fresh(), loc.fresh());
    a.label(go).label(l);
    a.b(LSR_ZP, t(7)).b(ROR_ZP, t(6)).b(ROR_ZP, t(5)).b(ROR_ZP, t(4)).br(BCC, n).i(CLC);
    for i in 0..4 {
        a.b(LDA_ZP, t(8 + i)).b(ADC_ZP, t(i)).b(STA_ZP, t(8 + i));
    }
    a.label(n).b(ASL_ZP, t(0)).b(ROL_ZP, t(1)).b(ROL_ZP, t(2)).b(ROL_ZP, t(3));
    a.i(DEX).br(BNE, l);
    for i in 0..4 {
        a.b(LDA_ZP, t(8 + i)).b(STA_ZP, r(22 + i));
    }
    a.i(RTS);
    out.push((Routine::Mulsi3, a));

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

    // __udivmodsi4: the dividend shifts out of T0..T3 while the quotient shifts in; the
    // remainder builds up in r25:r22 (below 2^k after k steps: no 33rd bit); the divisor
    // is in T4..T7, the trial difference in T8..T10 and A.
    let mut a = Asm::default();
    let (cp, dl, ds, cq) = (loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh());
    a.b(LDX_IMM, 3).label(cp).b(LDA_ZPX, r(22)).b(STA_ZPX, t(0)).b(LDA_ZPX, r(18)).b(STA_ZPX, t(4));
    a.b(LDA_IMM, 0).b(STA_ZPX, r(22)).i(DEX).br(BPL, cp);
    // High dividend bytes that are zero give quotient bits 0 and leave the remainder 0
    // (when the divisor is not 0): skip their 8 rounds each by shifting the dividend a
    // byte left, down to 8 rounds. A zero divisor takes all 32 (libgcc's answer).
    let sk = loc.fresh();
    a.b(LDX_IMM, 32).b(LDA_ZP, t(4)).b(ORA_ZP, t(5)).b(ORA_ZP, t(6)).b(ORA_ZP, t(7)).br(BEQ, dl);
    a.label(sk).b(LDA_ZP, t(3)).br(BNE, dl).b(CPX_IMM, 8).br(BEQ, dl);
    a.b(LDA_ZP, t(2)).b(STA_ZP, t(3)).b(LDA_ZP, t(1)).b(STA_ZP, t(2)).b(LDA_ZP, t(0)).b(STA_ZP, t(1));
    a.b(LDA_IMM, 0).b(STA_ZP, t(0)).i(TXA).i(SEC).b(SBC_IMM, 8).i(TAX).br(BNE, sk);
    a.label(dl);
    a.b(ASL_ZP, t(0)).b(ROL_ZP, t(1)).b(ROL_ZP, t(2)).b(ROL_ZP, t(3));
    a.b(ROL_ZP, r(22)).b(ROL_ZP, r(23)).b(ROL_ZP, r(24)).b(ROL_ZP, r(25)).i(SEC);
    for i in 0..3 {
        a.b(LDA_ZP, r(22 + i)).b(SBC_ZP, t(4 + i)).b(STA_ZP, t(8 + i));
    }
    a.b(LDA_ZP, r(25)).b(SBC_ZP, t(7)).br(BCC, ds).b(STA_ZP, r(25));
    for i in 0..3 {
        a.b(LDA_ZP, t(8 + i)).b(STA_ZP, r(22 + i));
    }
    a.b(INC_ZP, t(0)).label(ds).i(DEX).br(BNE, dl);
    a.b(LDX_IMM, 3).label(cq).b(LDA_ZPX, t(0)).b(STA_ZPX, r(18)).i(DEX).br(BPL, cq).i(RTS);
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
    a.label(tail).b(LDX_ZP, r(20)).br(BEQ, done);
    a.label(tl).b(STA_IZY, t(0)).i(INY).i(DEX).br(BNE, tl);
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

    // __c128_kernal: A = r22, X = r20, Y = r18, carry = bit 0 of r16, JSR (r25:r24).
    // All-RAM: a trampoline (the runtime is in low RAM, visible in both configurations)
    // that maps the KERNAL in for the call and, interrupts off again, out after it; the
    // carry survives SEI, LDA # and STA.
    let mut a = Asm::default();
    a.b(LDA_ZP, r(16)).i(LSR_A);
    if all_ram {
        a.b(LDA_IMM, MMU_CONFIG).w(STA_ABS, MMU_CR);
    }
    a.b(LDA_ZP, r(22)).b(LDX_ZP, r(20)).b(LDY_ZP, r(18));
    a.to(JSR, Routine::KernalJump.label());
    if all_ram {
        a.i(SEI);
    }
    a.b(STA_ZP, r(22)).b(STX_ZP, r(23)).b(STY_ZP, r(24)).b(LDA_IMM, 0).i(ROL_A).b(STA_ZP, r(25));
    if all_ram {
        a.b(LDA_IMM, MMU_CONFIG_ALL_RAM).w(STA_ABS, MMU_CR);
    }
    if key_buffer {
        a.i(CLI);
    }
    a.i(RTS);
    out.push((Routine::Kernal, a));
    let mut a = Asm::default();
    a.w(JMP_IND, u16::from(r(24)));
    out.push((Routine::KernalJump, a));

    out.push((Routine::Mulosi4, mulo(loc, 4, 22, 18, 16)));
    out.push((Routine::Mulodi4, mulo(loc, 8, 18, 10, 8)));

    // Save area: $FF00, the 6502 SP, then the saved zero page (all-RAM: and BASIC's RAM
    // vectors).
    let mut a = Asm::default();
    a.items.push(Item::Bytes(vec![
        0;
        2 + usize::from(ZP_SAVE_LEN)
            + if all_ram { 6 } else { 0 }
            + if bank1.is_some() { 5 } else { 0 }
    ]));
    out.push((Routine::Save, a));
    out
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::{Item, info};

    #[test]
    fn every_runtime_opcode_is_a_documented_one_with_its_size() {
        let code = Some(&b"CODE"[..]);
        let all = [
            (MemoryMode::Kernal, None, false),
            (MemoryMode::AllRam, None, false),
            (MemoryMode::AllRam, code, false),
            (MemoryMode::AllRam, code, true),
        ];
        let emitted = all.into_iter().flat_map(|(m, b, k)| emit(Label(0), &mut Locals::default(), m, b, STACK_TOP, k));
        for (routine, a) in emitted {
            for it in &a.items {
                let (o, operand) = match it {
                    Item::Branch(o, _) => (*o, 1),
                    Item::Ins(o, Arg::None) => (*o, 0),
                    Item::Ins(o, Arg::Byte(_)) => (*o, 1),
                    Item::Ins(o, Arg::Word(_) | Arg::Sym(_, Part::Word, _)) => (*o, 2),
                    Item::Ins(o, Arg::Sym(..)) => (*o, 1),
                    _ => continue,
                };
                let (size, _) = info(o).unwrap_or_else(|| panic!("{routine:?}: opcode {o:#04x}"));
                assert_eq!(size, 1 + operand, "{routine:?}: opcode {o:#04x}");
            }
        }
    }
}
