//! The C128 memory map of a translated program (MMU configuration $0E: RAM 0 from $0000 to
//! $BFFF, I/O at $D000, KERNAL ROM above $E000).
//!
//! | Address        | Use                                                             |
//! |----------------|-----------------------------------------------------------------|
//! | `$0010-$002F`  | AVR registers r0..r31 (r1 is the zero register)                 |
//! | `$0030-$0031`  | AVR stack pointer (SP), pointing at the first free byte          |
//! | `$0032`        | AVR flags C, Z, V, N in 6502 `P` layout (bits 0, 1, 6, 7)        |
//! | `$0033`        | AVR T flag (non-zero = set)                                      |
//! | `$0034-$003F`  | scratch bytes of the runtime routines (T0..T11)                  |
//! | `$0040-$005F`  | scratch of the wide multiplies (`__mulosi4`, `__mulodi4`)        |
//! | `$0100-$01FF`  | 6502 stack: return addresses of translated calls                |
//! | `$1C01-$1C0C`  | BASIC 7.0 stub `10 SYS 7181`                                     |
//! | `$1C0D-`       | start-up code, runtime routines and save area, translated code  |
//! | after the code | AVR `.rodata` and `.data` (initial values loaded with the file) |
//! | after the data | AVR `.bss`, zeroed at start-up, up to `$BFFF`                    |
//! | `$1300-$1BFF`  | AVR software stack, growing down from `$1BFF`                   |
//!
//! BASIC's zero page `$10-$5F` is saved at start-up and restored on exit, as are the
//! 6502 stack pointer and `$FF00`, so the program returns cleanly to `READY.`.

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
/// Number of zero-page bytes saved.
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
/// First address code, data and `.bss` may not reach (RAM 0 ends under the KERNAL ROM).
pub const IMAGE_END: u16 = 0xC000;
/// The VICE debug cartridge port: writing a byte ends the run with that exit code.
pub const EXIT_PORT: u16 = 0xD7FF;
/// MMU configuration register.
pub const MMU_CR: u16 = 0xFF00;
/// MMU configuration used while the program runs.
pub const MMU_CONFIG: u8 = 0x0E;

/// Zero-page address of AVR register `n`.
pub const fn reg(n: u8) -> u8 {
    REGS + n
}

/// Zero-page address of runtime scratch byte `n`.
pub const fn temp(n: u8) -> u8 {
    TEMP + n
}
