//! `f32` arithmetic (compiler_builtins' soft float, translated like everything else):
//! prints the results as integers, which the host test computes the same way.
#![no_std]
#![no_main]

use core::fmt::Write;
use core::hint::black_box;

#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    let (a, b): (f32, f32) = (black_box(3.75), black_box(-1.25));
    let c = a * b + a / b - (a - b);
    let third = black_box(7u32) as f32 / 3.0;
    let root = {
        // Newton's method for the square root of 2.
        let mut x = black_box(1.0f32);
        for _ in 0..6 {
            x = 0.5 * (x + 2.0 / x);
        }
        x
    };
    let _ = writeln!(
        c128_rt::Console,
        "{} {} {} {} {}",
        (a * 1000.0) as i32,
        (c * 1000.0) as i32,
        (third * 1e6) as u32,
        (root * 1e6) as u32,
        a > b && b < 0.0
    );
    0
}
