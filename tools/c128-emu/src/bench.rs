//! The emulator's speed: emulated 8502 cycles per host second, for `bac bench`.

use std::time::Instant;

use crate::{Config, Error, Machine, prg};

/// One measurement.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bench {
    /// Cycles emulated.
    pub cycles: u64,
    /// Host seconds it took.
    pub seconds: f64,
    /// Cycles per second.
    pub cycles_per_second: f64,
    /// How many times faster than a 1 MHz C128 (PAL clock).
    pub speedup: f64,
}

/// A loop that keeps the CPU busy with the kind of code translated programs run: zero-page
/// arithmetic, indexed loads and stores, branches and a subroutine call.
const WORKLOAD: &[u8] = &[
    0xA9, 0x0E, 0x8D, 0x00, 0xFF, // LDA #$0E / STA $FF00
    0xA2, 0x00, // loop: LDX #0
    0xBD, 0x00, 0x20, // inner: LDA $2000,X
    0x18, 0x65, 0xFB, // CLC / ADC $FB
    0x9D, 0x00, 0x21, // STA $2100,X
    0x85, 0xFB, // STA $FB
    0x20, 0x30, 0x1C, // JSR sub
    0xE8, // INX
    0xD0, 0xEF, // BNE inner
    0x4C, 0x12, 0x1C, // JMP loop
];

/// Measures the built-in workload for `cycles` emulated cycles.
pub fn measure(cycles: u64) -> Result<Bench, Error> {
    let mut code = WORKLOAD.to_vec();
    // Pad to the subroutine at $1C30: INC $FC / RTS.
    let (stub, entry) = prg::with_basic_stub(&[]);
    let sub_at = 0x1C30usize - usize::from(entry);
    code.resize(sub_at, 0xEA);
    code.extend_from_slice(&[0xE6, 0xFC, 0x60]);
    let mut file = stub;
    file.extend_from_slice(&code);
    let mut m = Machine::new(Config { max_cycles: cycles, ..Config::default() });
    m.load_prg(&file)?;
    let entry = m.sys_address()?;
    m.start(entry);
    let t = Instant::now();
    let end = m.run_until(cycles).map_err(|error| Error::Run { error, output: String::new() })?;
    let seconds = t.elapsed().as_secs_f64().max(1e-9);
    debug_assert!(end.is_none());
    let cycles = m.cpu.cycles;
    let cps = cycles as f64 / seconds;
    let clock = m.config.standard.clock_hz() as f64;
    Ok(Bench { cycles, seconds, cycles_per_second: cps, speedup: cps / clock })
}
