//! The native `mem*` routines, 32-bit divisions and multiplications of avr2mos against the
//! host: prints one hex digest a line for every case of [`cases`], which the test computes
//! natively.
#![no_std]
#![no_main]

mod cases;

/// Pairs of random operands the divisions and multiplications run after the edge cases.
const RANDOM: u32 = 500;

static mut BUF: [u8; cases::BUF] = [0; cases::BUF];

fn hex(v: u32) {
    let mut line = [b'\r'; 9];
    for (i, c) in line[..8].iter_mut().enumerate() {
        let d = (v >> (28 - 4 * i)) as u8 & 15;
        *c = if d < 10 { b'0' + d } else { b'A' + d - 10 };
    }
    c128_rt::print(&line);
}

/// Runs every case and ends with exit code 0.
#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    // SAFETY: the only reference to the buffer, in a program without threads.
    let buf = unsafe { &mut *core::ptr::addr_of_mut!(BUF) };
    cases::memory(buf, &mut hex);
    cases::division(RANDOM, &mut hex);
    cases::multiplication(RANDOM, &mut hex);
    0
}
