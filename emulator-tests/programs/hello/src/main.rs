//! Hello world for the C128: text through CHROUT, `core::fmt` with `u32` arithmetic,
//! and an exit code. Built by `avr2mos::pipeline` in its end-to-end tests.
#![no_std]
#![no_main]

use core::fmt::Write;

/// Prints a greeting and a formatted line, and ends with exit code 42.
#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    c128_rt::print(b"HELLO, C128!\r");
    let x: u32 = core::hint::black_box(12345);
    let _ = writeln!(c128_rt::Console, "n={} q={} r={}", x * 7, x / 3, x % 1000);
    42
}
