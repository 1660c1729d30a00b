//! The program around one kernel of the suite (`emulator-tests/kernels`, see its README):
//! each bin in `src/bin` is a kernel of `bac-kernels` handed to [`time`], and `empty` is
//! the program without one, whose bytes the harness takes from each kernel's.
//!
//! It keeps the mailbox of `../c/main.c` (the cc65 benchmark's, at $0B00): the seed at
//! $0B04, the phase at $0B00 (1 while the kernel runs, which the harness times) and the
//! result at $0B10; the program ends through the debug cartridge's port at $D7FF.
#![no_std]

// The runtime: start-up, the panic handler and the exit through $D7FF.
use c128_rt as _;

const MAILBOX: usize = c128_map::test::MAILBOX as usize;
const PHASE: usize = MAILBOX;
const SEED: usize = MAILBOX + 4;
const RESULT: usize = MAILBOX + 0x10;
/// The phase the harness times.
const PHASE_KERNEL: u8 = 1;
const PHASE_IDLE: u8 = 0;

fn poke(at: usize, value: u8) {
    // SAFETY: the mailbox is free RAM (the cassette buffer) that the harness reads.
    unsafe { core::ptr::write_volatile(at as *mut u8, value) }
}

fn peek(at: usize) -> u8 {
    // SAFETY: as for `poke`; the harness wrote the seed there before the start.
    unsafe { core::ptr::read_volatile(at as *const u8) }
}

/// Runs `kernel` on the mailbox's seed in the timed phase, leaves its result in the
/// mailbox, and returns `main`'s exit code, 0 (the runtime ends the program with it).
pub fn time(kernel: bac_kernels::Kernel) -> u8 {
    let seed = u16::from_le_bytes([peek(SEED), peek(SEED + 1)]);
    poke(PHASE, PHASE_KERNEL);
    let result = kernel(seed);
    poke(PHASE, PHASE_IDLE);
    for (i, b) in result.to_le_bytes().into_iter().enumerate() {
        poke(RESULT + i, b);
    }
    0
}
