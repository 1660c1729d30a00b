//! The C128 memory map of a translated program, in one of two modes ([`MemoryMode`],
//! chosen by the program's `[package.metadata.c128] memory`):
//!
//! - `"kernal"` (the default): MMU configuration $0E while the program runs: RAM 0 from
//!   $0000 to $BFFF, I/O at $D000, the KERNAL ROM above $E000 (and the screen editor ROM
//!   at $C000). Interrupts stay as BASIC left them (enabled).
//! - `"all-ram"`: MMU configuration $3E: RAM 0 everywhere but the I/O block at $D000, and
//!   interrupts disabled (`SEI`) for the whole run. The program's image may reach $CFFF;
//!   KERNAL calls go through a trampoline in the runtime (low RAM) that maps the KERNAL
//!   in for the call and out again; RAM vectors at $FFFA-$FFFF catch an NMI, IRQ or `BRK`.
//!
//! | Address        | Use                                                             |
//! |----------------|-----------------------------------------------------------------|
//! | `$0010-$002F`  | AVR registers r0..r31 (r1 is the zero register)                 |
//! | `$0030-$0031`  | AVR stack pointer (SP), pointing at the first free byte          |
//! | `$0032`        | AVR flags C, Z, V, N in 6502 `P` layout (bits 0, 1, 6, 7)        |
//! | `$0033`        | AVR T flag (non-zero = set)                                      |
//! | `$0034-$003F`  | scratch bytes of the runtime routines (T0..T11); the interpreter |
//! |                | of AVR code keeps its PC and operands in T4..T11 (`avr2mos::runtime::interp`) |
//! | `$0040-$0059`  | scratch of the wide multiplies and the 32-bit signed division   |
//! |                | (`$0042-$0045`: a 32-bit division's product, kept for the multiply |
//! |                | that follows it, `avr2mos::analysis::div_products`)              |
//! | `$005A-$008F`  | zero-page homes of the most used static slots                   |
//! |                | (`avr2mos::frames::zp_slots::ZP_HOMES`), as many as the program uses    |
//! | `$0100-$01FF`  | 6502 stack: return addresses of translated calls                |
//! | `$0B80-$0B9A`, | `key_buffer = true`: the key buffer's state and its ring of key  |
//! | `$0C00-$0CFF`  | matrix readings (see "The key buffer" below)                    |
//! | `$1300-$1BFF`  | AVR software stack, growing down from `$1BFF`; with interpreted  |
//! |                | functions `$1300-$13FF` is the interpreter's return stack       |
//! |                | (`avr2mos::runtime::interp::SHADOW`) and the AVR stack ends at `$1400`    |
//! | `$1C01-$1C0C`  | BASIC 7.0 stub `10 SYS 7181`                                     |
//! | `$1C0D-`       | start-up code, runtime routines (the KERNAL trampoline and the  |
//! |                | interrupt handlers of `all-ram` among them) and save area,      |
//! |                | then the translated code                                        |
//! | after the code | AVR `.rodata` and `.data` (initial values loaded with the file) |
//! | after the data | AVR `.bss`, zeroed at start-up, up to `$BFFF` (`kernal`) or      |
//! |                | `$CFFF` (`all-ram`; the `.prg` file itself ends below `$D000`,   |
//! |                | so LOAD never writes where the I/O block is)                    |
//! | `$D000-$DFFF`  | I/O in both modes                                               |
//! | `$E000-$FEFF`  | `kernal`: KERNAL ROM. `all-ram`: RAM 0 left to the program (the |
//! |                | game's 40-column screen at `$E000`, card sprite at `$E400` and  |
//! |                | character set at `$E800`, VIC bank 3); the translator never     |
//! |                | places anything there                                           |
//! | `$FF00-$FF04`  | the MMU registers, in every configuration                      |
//! | `$FFFA-$FFFF`  | `all-ram`: the runtime's NMI, RESET and IRQ/BRK vectors in RAM  |
//! |                | (BASIC's RAM values are saved at start-up and put back on exit)|
//!
//! # A high stack
//! A program whose call chains need more than the 2 KB-2.3 KB of AVR stack at
//! `$1300-$1BFF` sets `[package.metadata.c128] stack = N` (all-RAM mode only): the AVR
//! stack is then the top N bytes below $D000, growing down from $CFFF, the image must end
//! below $D000 - N, and `.bss` moves to [`LOW_BSS_START`] when it fits below the BASIC stub
//! (the interpreter's return stack stays at `$1300-$13FF`).
//!
//! # Interpreted functions in RAM bank 1
//! With `[package.metadata.c128] bank1 = "NAME"` (all-RAM mode only), the AVR bytes of the
//! interpreted functions (`avr2mos::runtime::interp`) are not in the image but in a second file,
//! NAME, packed by bac-pack, loaded by the start-up code (KERNAL LOAD, `SETBNK 1`, at
//! 2 MHz) to RAM bank 1 where the packer placed it, and unpacked there in place from
//! [`BANK1_START`] ([`crate::unpack`]). While the program runs, $D506 makes the bottom 16 KB common RAM, so the
//! start-up code, the runtime and the interpreter ($1C0D up, below [`COMMON_END`]) are the
//! same bytes in both banks; the interpreter maps bank 1 ($FF00 = [`MMU_CONFIG_BANK1`]) only
//! for the instructions that read AVR bytes, and bank 0 back at once. Bank 1's copy of the
//! vectors at $FFFA points at the same handlers, for an NMI that comes in between.
//!
//! # The key buffer
//! A program that reads the keyboard only between drawing loses keys pressed and let go
//! while it draws. With `[package.metadata.c128] key_buffer = true` (all-RAM mode only) it
//! runs with interrupts on: the start-up code turns the VIC-IIe's raster interrupt on at
//! line [`KEYS_IRQ_LINE`], and the runtime's IRQ handler reads all 11 key matrix lines once
//! a frame into [`KEYS_NOW`], counts the frame in [`KEYS_FRAMES`] and puts each reading that differs from the one before into a
//! ring ([`KEYS_RING`]), which `c128_rt::keyboard::poll` empties in order. The handler maps
//! I/O for itself (it may interrupt a bank-1 window), uses no zero page and leaves CIA 1's
//! port A and $D02F as it found them; the KERNAL trampoline turns interrupts back on after
//! a call, and the exit turns them off before it restores BASIC's state.
//!
//! BASIC's zero page `$10-$5F` (and on up to the last zero-page home a program uses, at
//! most `$8F`) is saved at start-up and restored on exit, as are the 6502 stack pointer
//! and `$FF00`, so the program returns cleanly to `READY.` (in `all-ram` mode also with
//! interrupts enabled again and BASIC's RAM vectors back). Nothing the program runs
//! meanwhile uses BASIC's zero page: the KERNAL's own starts at `$90` (llvm-mos-sdk's C128
//! target takes `$0A-$8F` on the same grounds), an interrupt that runs BASIC's handler
//! under BASIC must leave the interpreter's working bytes as it found them, and the
//! runtime's interrupt handlers use none.

/// Zero-page address of AVR register r0; rN is at `REGS + N`.
pub const REGS: u8 = 0x10;
/// Low byte of the AVR stack pointer.
pub const SPL: u8 = 0x30;
/// High byte of the AVR stack pointer.
pub const SPH: u8 = 0x31;
/// AVR flags in 6502 `P` layout: C bit 0, Z bit 1, V bit 6, N bit 7.
pub const FLAGS: u8 = 0x32;
/// The AVR T flag.
pub const TFLAG: u8 = 0x33;
/// First scratch byte of the runtime routines; T0..T11 follow.
pub const TEMP: u8 = 0x34;
/// First zero-page byte saved at start-up and restored on exit.
pub const ZP_SAVE_START: u8 = 0x10;
/// Number of zero-page bytes saved, at least: more when the program has zero-page homes
/// past `$5F` (`avr2mos::frames::zp_slots`).
pub const ZP_SAVE_LEN: u8 = 0x50;
/// Load address of the `.prg` (start of BASIC text on the C128).
pub const LOAD_ADDR: u16 = 0x1C01;
/// First byte after the BASIC stub: the `SYS` target.
pub const CODE_START: u16 = 0x1C0D;
/// Initial AVR stack pointer (the stack grows down from here). The C128 leaves
/// `$1300-$1BFF` to machine-language programs; putting the stack there gives code and data
/// everything from `$1C0D` to `$BFFF`.
pub const STACK_TOP: u16 = 0x1BFF;
/// Lowest address the AVR stack may reach (2,304 bytes of stack).
pub const STACK_LIMIT: u16 = 0x1300;
/// With a high stack (`[package.metadata.c128] stack`): where `.bss` goes if it fits below
/// [`LOW_BSS_END`] (the default stack's place, above the interpreter's return stack).
pub const LOW_BSS_START: u16 = 0x1400;
/// First address a low `.bss` may not reach (the BASIC stub).
pub const LOW_BSS_END: u16 = 0x1C00;

/// First address code, data and `.bss` may not reach in the default mode (RAM 0 ends under
/// the screen editor and KERNAL ROMs).
pub const IMAGE_END: u16 = 0xC000;
/// First address code, data and `.bss` may not reach in the all-RAM mode (the I/O block).
pub const IMAGE_END_ALL_RAM: u16 = 0xD000;
pub use c128_map::io::{MMU_CR, MMU_RCR};
pub use c128_map::test::EXIT_PORT;
/// MMU configuration used while the program runs in the default mode (and by the
/// all-RAM mode's trampoline while the KERNAL runs).
pub const MMU_CONFIG: u8 = c128_map::mmu::KERNAL;
/// MMU configuration of the all-RAM mode: RAM 0 everywhere, I/O at $D000.
pub const MMU_CONFIG_ALL_RAM: u8 = c128_map::mmu::ALL_RAM;
/// The 6502's NMI vector; RESET and IRQ/BRK follow.
pub const VECTORS: u16 = 0xFFFA;
/// Exit code of a program stopped by a `BRK` (or a RESET vector taken) in the all-RAM
/// mode: a crash, so the code of a panic.
pub const CRASH_EXIT_CODE: u8 = 101;

/// First address of the bank-1 file (above the 16 KB of common RAM).
pub const BANK1_START: u16 = 0x4000;
/// First address the bank-1 file may not reach (the MMU registers at $FF00).
pub const BANK1_END: u16 = c128_map::mmu::BANK1_TOP;
/// The end of the common RAM while a bank-1 program runs: the interpreter must end below.
pub const COMMON_END: u16 = 0x4000;
/// MMU configuration while the interpreter reads AVR bytes: RAM 1 everywhere (no I/O, so
/// that $D000-$DFFF of bank 1 holds code too).
pub const MMU_CONFIG_BANK1: u8 = c128_map::mmu::BANK1;
/// $D506 while a bank-1 program runs: 16 KB of common RAM at the bottom, VIC in bank 0.
pub const RCR_COMMON_16K: u8 = 0x07;
/// The KERNAL bank number (SETBNK) the bank-1 file is loaded into.
pub const BANK1_LOAD_BANK: u8 = 1;
/// The KERNAL's current device number (the drive the program was loaded from).
pub const FA: u8 = 0xBA;

// The key buffer (module docs, "The key buffer"): its layout is shared with the runtime's
// reader (`c128_rt::keyboard`), so it is named once, in `c128-map`.
pub use c128_map::key_buffer::{
    FRAMES as KEYS_FRAMES, HEAD as KEYS_HEAD, IRQ_LINE as KEYS_IRQ_LINE, LAST as KEYS_LAST, LINES as KEY_LINES,
    MAGIC as KEYS_MAGIC, MAGIC_ON as KEYS_MAGIC_ON, NOW as KEYS_NOW, RING as KEYS_RING, SLOT as KEYS_SLOT,
    TAIL as KEYS_TAIL,
};

/// Where the program's image may go and what is mapped while it runs; see the module
/// docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MemoryMode {
    /// MMU $0E, the KERNAL ROM mapped, interrupts as BASIC left them; up to $BFFF.
    #[default]
    Kernal,
    /// MMU $3E, RAM everywhere but I/O, interrupts disabled; up to $CFFF, and
    /// $E000-$FEFF left to the program.
    AllRam,
}

impl MemoryMode {
    /// The name in `[package.metadata.c128] memory`.
    pub fn name(self) -> &'static str {
        match self {
            MemoryMode::Kernal => "kernal",
            MemoryMode::AllRam => "all-ram",
        }
    }

    /// The mode of a `memory` setting.
    pub fn from_name(name: &str) -> Option<Self> {
        [MemoryMode::Kernal, MemoryMode::AllRam].into_iter().find(|m| m.name() == name)
    }

    /// The MMU configuration while the program's code runs.
    pub fn mmu_config(self) -> u8 {
        match self {
            MemoryMode::Kernal => MMU_CONFIG,
            MemoryMode::AllRam => MMU_CONFIG_ALL_RAM,
        }
    }

    /// First address code, data and `.bss` may not reach.
    pub fn image_end(self) -> u16 {
        match self {
            MemoryMode::Kernal => IMAGE_END,
            MemoryMode::AllRam => IMAGE_END_ALL_RAM,
        }
    }
}

/// Zero-page address of AVR register `n`.
pub const fn reg(n: u8) -> u8 {
    REGS + n
}

/// Zero-page address of runtime scratch byte `n`.
pub const fn temp(n: u8) -> u8 {
    TEMP + n
}
