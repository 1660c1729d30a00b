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
//!   A call whose quotient a `__mulsi3` after it multiplies by the divisor again calls
//!   a variant that also keeps that product ([`divide::PRODUCT`],
//!   [`crate::analysis::div_products`]).
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
//! - `__c128_bank1_end() -> u16`: the address after the bank-1 file's last byte; and
//!   `__c128_far_copy(dst: u16, src: u16, n: u16, maps: u16)`: `n` bytes from `src`, read
//!   with $FF00 = the low byte of `maps`, to `dst`, written with $FF00 = its high byte.
//!   Programs with a bank-1 file only ([`far`]).
//!
//! # Families
//! [`startup`] (start-up, exit, the bank-1 loader and the save area), [`interrupts`]
//! (NMI, IRQ, the key buffer's handler, the crash exit), [`support`] (the small routines
//! lowered instructions call: the AVR stack, SREG, `swap`), [`multiply`], [`divide`],
//! [`memory`] (`mem*`), [`kernal`] (the gateway) and [`far`] (bank 1 from bank 0's code).
//! [`emit`] runs them in the order the routines are laid out.

use crate::mmap::{MemoryMode, ZP_SAVE_LEN, ZP_SAVE_START, reg, temp};
use mos_asm::asm::{Asm, Label, Locals};

pub mod divide;
pub mod far;
pub mod interp;
pub mod interrupts;
pub mod kernal;
pub mod memory;
pub mod multiply;
pub mod startup;
pub mod support;

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
    ("__c128_bank1_end", 0x3F040, Routine::Bank1EndAt),
    ("__c128_far_copy", 0x3F044, Routine::FarCopy),
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
    PopRun17,
    SregRead,
    SregWrite,
    Udiv8,
    Udivmodqi4,
    Udivmodhi4,
    Udivmodsi4,
    Divmodsi4,
    Neg32,
    Udivmodsi4Keep,
    Divmodsi4Keep,
    Memcpy,
    Memmove,
    Memset,
    Memcmp,
    Nmi,
    Irq,
    Crash,
    Bank1Name,
    Bank1Failed,
    Fastload,
    FastloadDrive,
    FastloadCommands,
    Stream,
    StreamCommand,
    Unpack,
    KeyLines,
    Save,
    Bank1EndAt,
    FarCopy,
    Pow2,
}

const RT_BASE: u32 = 0x8000_0000;

impl Routine {
    /// The routines whose label lies inside another's code, a second entry after a first
    /// step of its own (`rt_poprun` after `rt_poprun17`'s `LDX`): named in the map and the
    /// listings by their label, not by a chunk of their own.
    pub const INNER: [Routine; 1] = [Routine::PopRun];

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

fn r(n: u8) -> u8 {
    reg(n)
}
fn t(n: u8) -> u8 {
    temp(n)
}

/// Emits every runtime routine for a program in `mode`. `entry` is the label of the
/// program's entry function. `bank1` is the name (PETSCII) of the file holding the
/// interpreted functions for RAM bank 1 (all-RAM mode only, see [`crate::mmap`]).
/// `stack_top` is the AVR stack's first byte ([`crate::mmap::STACK_TOP`], or $CFFF with a
/// high stack). `key_buffer`: run with interrupts on and keep the key buffer (all-RAM mode
/// only; see [`crate::mmap`]). `fastload`: with a bank-1 file, try the 1581 loader of
/// [`c128_loader::fastload`] before the KERNAL's LOAD. `zp_end` is the first zero-page byte after the
/// last the program uses ([`crate::frames::zp_slots`]): the start-up saves BASIC's zero page from
/// [`ZP_SAVE_START`] up to it, and at least [`ZP_SAVE_LEN`] bytes. `packer`: the bank-1
/// file's format. `small_divisors`: the widths whose every division's divisor is known
/// and small ([`divide::SmallDivisors`]).
#[allow(clippy::too_many_arguments)] // Each is one setting of the machine the routines serve.
pub fn emit(
    entry: Label,
    loc: &mut Locals,
    mode: MemoryMode,
    bank1: Option<&[u8]>,
    stack_top: u16,
    zp_end: u8,
    key_buffer: bool,
    fastload: bool,
    packer: bac_pack::Format,
    small_divisors: divide::SmallDivisors,
) -> Vec<(Routine, Asm)> {
    let all_ram = mode == MemoryMode::AllRam;
    let bank1 = bank1.filter(|_| all_ram);
    let zp_len = zp_end.saturating_sub(ZP_SAVE_START).max(ZP_SAVE_LEN);
    let machine = Machine {
        mode,
        all_ram,
        bank1,
        key_buffer: key_buffer && all_ram,
        fastload: fastload && bank1.is_some(),
        zp_len,
        packer,
    };
    let mut out = startup::routines(entry, loc, &machine, stack_top);
    if all_ram {
        out.extend(interrupts::routines(loc, &machine));
    }
    out.extend(support::routines(loc));
    out.extend(multiply::routines(loc));
    out.extend(divide::routines(loc, small_divisors));
    out.extend(memory::routines(loc));
    out.extend(kernal::routines(&machine));
    out.extend(far::routines(loc, &machine));
    out.extend(multiply::with_overflow(loc));
    out.push((Routine::Save, startup::save_area(&machine)));
    out
}

/// What the program runs on, as the routines that deal with the machine need it.
struct Machine<'a> {
    /// The memory mode.
    mode: MemoryMode,
    /// Whether it is [`MemoryMode::AllRam`].
    all_ram: bool,
    /// The bank-1 file's name (all-RAM mode only).
    bank1: Option<&'a [u8]>,
    /// Interrupts on, with the key buffer's handler (all-RAM mode only).
    key_buffer: bool,
    /// The bank-1 file through the 1581 loader first (with a bank-1 file only).
    fastload: bool,
    /// How many bytes of BASIC's zero page from [`ZP_SAVE_START`] the start-up saves.
    zp_len: u8,
    /// The bank-1 file's format.
    packer: bac_pack::Format,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mmap::STACK_TOP;
    use mos_asm::asm::{Arg, Item, Part, info};

    #[test]
    fn every_runtime_opcode_is_a_documented_one_with_its_size() {
        let code = Some(&b"CODE"[..]);
        let all = [
            (MemoryMode::Kernal, None, false, false),
            (MemoryMode::AllRam, None, false, false),
            (MemoryMode::AllRam, code, false, false),
            (MemoryMode::AllRam, code, true, false),
            (MemoryMode::AllRam, code, true, true),
        ];
        let emitted = all.into_iter().flat_map(|(m, b, k, f)| {
            [(bac_pack::Format::Bytes, false), (bac_pack::Format::Dense, true)].into_iter().flat_map(move |(p, d)| {
                let small = divide::SmallDivisors { narrow: d, wide: d };
                emit(Label(0), &mut Locals::default(), m, b, STACK_TOP, 0, k, f, p, small)
            })
        });
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

    /// The count the start-up's zero-page save loop starts from (`LDX #n` before
    /// `LDA ZP_SAVE_START,X`), and the save area's size.
    fn zero_page_saved(zp_end: u8) -> (u8, usize) {
        let routines = emit(
            Label(0),
            &mut Locals::default(),
            MemoryMode::Kernal,
            None,
            STACK_TOP,
            zp_end,
            false,
            false,
            bac_pack::Format::Bytes,
            divide::SmallDivisors::default(),
        );
        let start = &routines.iter().find(|(r, _)| *r == Routine::Start).expect("the start-up").1.items;
        let at = start.iter().position(|it| *it == Item::Ins(mos_asm::asm::op::LDA_ZPX, Arg::Byte(ZP_SAVE_START)));
        let ldx = |it: &Item| match it {
            Item::Ins(mos_asm::asm::op::LDX_IMM, Arg::Byte(n)) => Some(*n),
            _ => None,
        };
        let n = start[..at.expect("the save loop")].iter().rev().find_map(ldx).expect("its count");
        let area = &routines.iter().find(|(r, _)| *r == Routine::Save).expect("the save area").1.items;
        let Item::Bytes(bytes) = &area[0] else { panic!("the save area is bytes") };
        (n, bytes.len())
    }

    #[test]
    fn the_start_up_saves_zero_page_up_to_the_last_home() {
        assert_eq!(zero_page_saved(0), (ZP_SAVE_LEN - 1, 2 + usize::from(ZP_SAVE_LEN)), "no homes");
        assert_eq!(zero_page_saved(0x5A), (ZP_SAVE_LEN - 1, 2 + usize::from(ZP_SAVE_LEN)), "homes below $60");
        assert_eq!(zero_page_saved(0x71), (0x71 - ZP_SAVE_START - 1, 2 + 0x61), "homes up to $70");
        assert_eq!(zero_page_saved(0x90), (0x7F, 2 + 0x80), "every home: the loop's longest (BPL)");
    }
}
