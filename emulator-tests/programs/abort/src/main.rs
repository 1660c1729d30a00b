//! Prints a line, then indexes past the end of an array: under `panic = "immediate-abort"`
//! the panic ends the program at once through `c128-rt`'s `abort`, with exit code 101 and
//! no message.
#![no_std]
#![no_main]

/// Prints, then panics.
#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    c128_rt::print(b"BEFORE\r");
    let table = [1u8, 2, 3];
    let index = core::hint::black_box(7usize);
    let value = table[index];
    c128_rt::print(b"AFTER\r");
    value
}
