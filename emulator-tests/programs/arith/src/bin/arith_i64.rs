//! Integer arithmetic on i64, run on the C128: prints its digest (`I64 <hex>`), which the
//! host test compares with the same code run natively. 64-bit arithmetic is large on an
//! 8-bit CPU, so each 64-bit type has its own program.
#![no_std]
#![no_main]

use core::fmt::Write;

#[allow(dead_code)] // Each bin uses the functions of its own width.
#[path = "../ops.rs"]
mod ops;

/// Seed and operand count; the host test uses the same values.
const SEED: u32 = 0x1234_5678;
const N: u32 = ops::PAIRS_64;

#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    let mut rng = ops::Rng(core::hint::black_box(SEED));
    let d = ops::ops_i64(&mut rng, core::hint::black_box(N));
    let _ = write!(c128_rt::Console, "I64 {d:016X}\r");
    0
}
