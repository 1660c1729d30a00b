//! The coach on the C128, timed: the harness writes a case number where the kernels'
//! programs take their seed ($0B04), the program computes that case in the timed phase
//! (phase 1 at $0B00) and leaves the figures the screen would show at $0B10, which the
//! harness checks against the host: the cases are `bac_coach_cases`, the same source on
//! both sides.
#![no_std]
#![no_main]

// The runtime: start-up, the panic handler and the exit through $D7FF.
use c128_rt as _;

const MAILBOX: usize = c128_map::test::MAILBOX as usize;
const PHASE: usize = MAILBOX;
const CASE: usize = MAILBOX + 4;
const RESULT: usize = MAILBOX + 0x10;

fn poke(at: usize, value: u8) {
    // SAFETY: the mailbox is free RAM (the cassette buffer) that the harness reads.
    unsafe { core::ptr::write_volatile(at as *mut u8, value) }
}

fn peek(at: usize) -> u8 {
    // SAFETY: as for `poke`; the harness wrote the case there before the start.
    unsafe { core::ptr::read_volatile(at as *const u8) }
}

/// Times the mailbox's case and leaves its figures; the exit code is 0.
#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    let case = u16::from_le_bytes([peek(CASE), peek(CASE + 1)]);
    poke(PHASE, 1);
    let result = bac_coach_cases::figures(case);
    poke(PHASE, 0);
    for (i, b) in result.to_le_bytes().into_iter().enumerate() {
        poke(RESULT + i, b);
    }
    0
}
