//! The runtime of Rust programs on the Commodore 128 (built for `avr-none` and translated
//! to 6502 code by `avr2mos`).
//!
//! A program is a `no_std`, `no_main` bin crate that depends on this crate and defines
//! `#[unsafe(no_mangle)] pub extern "C" fn main() -> u8`. This crate supplies:
//! - `_start`, which calls `main` and ends the program with its return value as the exit
//!   code (the translator's start-up code has already zeroed `.bss`, set up the stack and
//!   saved BASIC's state; [`exit`] empties the KERNAL's keyboard buffer, writes the code to
//!   $D7FF, the VICE debug cartridge port, and returns to BASIC's `READY.`);
//! - a panic handler that prints `PANIC: ` and the message through CHROUT and exits
//!   with code [`PANIC_EXIT_CODE`];
//! - the KERNAL calls ([`kernal`]) and typed volatile access to hardware registers
//!   ([`hw`]);
//! - the game's platform drivers, which need neither interrupts nor the KERNAL's
//!   interrupt services: [`screen`] (both text screens with bac128's own glyphs; [`held`]
//!   holds the picture while the next is drawn behind it),
//!   [`keyboard`] (the key matrix), [`frame`] (raster timing), [`sound`] (SID effects) and
//!   [`disk`] (whole SEQ files through the KERNAL);
//! - [`spare`]: bank 1's RAM above a bank-1 file, for a program that has one.
//!
//! # How AVR code reaches the KERNAL
//! `avr2mos` implements two symbols natively (its linker script defines them, its
//! translator turns a call to them into 6502 code): `__c128_kernal` loads A, X, Y and the
//! carry from its arguments, `JSR`s to the address and returns A, X, Y and the status
//! register; `__c128_exit` writes the exit port and returns to BASIC. Data addresses are
//! the C128's own (one to one), so a pointer passed to the KERNAL is valid as it is.
//!
//! A program that sets `memory = "all-ram"` under `[package.metadata.c128]` runs with
//! RAM everywhere but the I/O block ($FF00 = $3E) and interrupts disabled; the gateway
//! maps the KERNAL in for each call (see `c128_loader::mmap`, tools/loader/src/mmap.rs), and $E000-$FEFF is the
//! program's own RAM.

#![no_std]

pub mod disk;
pub mod frame;
mod global;
pub mod held;
pub mod hw;
pub mod kernal;
pub mod keyboard;
pub mod paper;
pub mod screen;
pub mod sound;
pub mod spare;
mod vdc;

use core::fmt;

/// Exit code of a program that panicked.
pub const PANIC_EXIT_CODE: u8 = 101;

unsafe extern "C" {
    fn __c128_exit(code: u8) -> !;
    fn main() -> u8;
}

/// Writes bytes to the current output channel (the screen unless redirected) through
/// CHROUT. The bytes are PETSCII: digits, upper-case letters, space, punctuation and
/// RETURN (13) are as in ASCII.
pub fn print(bytes: &[u8]) {
    for &b in bytes {
        kernal::chrout(b);
    }
}

/// Ends the program with an exit code: writes it to $D7FF and returns to BASIC.
///
/// BASIC gets no keys from the program: the KERNAL's keyboard buffer and a function key's
/// pending text are emptied first ([`kernal::forget_keys`]).
pub fn exit(code: u8) -> ! {
    kernal::forget_keys();
    // SAFETY: implemented natively by the translator; it never returns.
    unsafe { __c128_exit(code) }
}

/// ASCII to PETSCII in the C128's default (upper case and graphics) character set:
/// lower-case letters print as upper case and `\n` becomes RETURN.
pub fn petscii(c: u8) -> u8 {
    match c {
        b'a'..=b'z' => c - 32,
        b'\n' => 13,
        _ => c,
    }
}

/// A `core::fmt::Write` sink that prints text through CHROUT, converted with [`petscii`].
#[derive(Debug, Default, Clone, Copy)]
pub struct Console;

impl fmt::Write for Console {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for b in s.bytes() {
            kernal::chrout(petscii(b));
        }
        Ok(())
    }
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    use fmt::Write as _;
    let _ = write!(Console, "PANIC: {}\r", info.message());
    exit(PANIC_EXIT_CODE)
}

/// Where a panic ends under `-C panic=immediate-abort` (`[package.metadata.c128] panic =
/// "immediate-abort"`): LLVM's AVR back end lowers its trap to a call to `abort`. The exit
/// code is a panic's, as with the message-printing handler, so a run still says "panicked".
#[unsafe(no_mangle)]
pub extern "C" fn abort() -> ! {
    exit(PANIC_EXIT_CODE)
}

/// The program's entry point, called by the translator's start-up code.
#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    // SAFETY: the program defines `main` with this signature (the crate's contract).
    let code = unsafe { main() };
    exit(code)
}
