//! Integer arithmetic on u32 and i32, run on the C128: prints one digest per type
//! (`U32 <hex>`, `I32 <hex>`), which the host test compares with the same code run
//! natively. One bin per width keeps each program small enough for bank 0.
#![no_std]
#![no_main]

use core::fmt::Write;

#[allow(dead_code)] // Each bin uses the functions of its own width.
#[path = "../ops.rs"]
mod ops;

/// Seed and operand count; the host test uses the same values.
const SEED: u32 = 0x1234_5678;
const N: u32 = ops::PAIRS_32;

#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    let mut rng = ops::Rng(core::hint::black_box(SEED));
    let n = core::hint::black_box(N);
    let u = ops::ops_u32(&mut rng, n);
    let i = ops::ops_i32(&mut rng, n);
    let _ = write!(c128_rt::Console, "U32 {u:016X}\rI32 {i:016X}\r");
    0
}
