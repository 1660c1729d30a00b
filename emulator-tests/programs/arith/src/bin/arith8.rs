//! Integer arithmetic on u8 and i8, run on the C128: prints one digest per type
//! (`U8 <hex>`, `I8 <hex>`), which the host test compares with the same code run
//! natively. One bin per width keeps each program small enough for bank 0.
#![no_std]
#![no_main]

use core::fmt::Write;

#[allow(dead_code)] // Each bin uses the functions of its own width.
#[path = "../ops.rs"]
mod ops;

/// Seed and operand count; the host test uses the same values.
const SEED: u32 = 0x1234_5678;
const N: u32 = ops::PAIRS_8;

#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    let mut rng = ops::Rng(core::hint::black_box(SEED));
    let n = core::hint::black_box(N);
    let u = ops::ops_u8(&mut rng, n);
    let i = ops::ops_i8(&mut rng, n);
    let _ = write!(c128_rt::Console, "U8 {u:016X}\rI8 {i:016X}\r");
    0
}
