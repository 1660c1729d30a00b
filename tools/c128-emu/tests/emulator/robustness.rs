//! Random machine code never panics or hangs the emulator: every run ends with an exit or a
//! typed error within its budget, whatever the code does to the MMU, the chips or the
//! KERNAL.

use c128_emu::{Config, Error, RunOptions, run_until_exit};

/// A small deterministic generator (xorshift), so that failures repeat.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn random_code_ends_with_an_exit_or_a_typed_error() {
    let mut rng = Rng(0x00C1_28BA_C128);
    let (mut exits, mut errors) = (0, 0);
    for round in 0..300 {
        // Bias towards the interesting addresses: KERNAL entries, I/O and the MMU.
        let mut code: Vec<u8> = (0..200).map(|_| rng.next() as u8).collect();
        for _ in 0..12 {
            let at = (rng.next() % 197) as usize;
            let target: u16 = match rng.next() % 6 {
                0 => 0xFFD2,
                1 => 0xFF00,
                2 => 0xD600 + (rng.next() % 2) as u16,
                3 => 0xDC00 + (rng.next() % 16) as u16,
                4 => 0xD000 + (rng.next() % 0x31) as u16,
                _ => 0xFFC0 + 3 * (rng.next() % 12) as u16,
            };
            let op = [0x20, 0x8D, 0xAD, 0x4C][(rng.next() % 4) as usize];
            code[at..at + 3].copy_from_slice(&[op, target as u8, (target >> 8) as u8]);
        }
        let (prg, _) = c128_emu::prg::with_basic_stub(&code);
        let allow_undocumented = round % 2 == 0;
        let opts = RunOptions {
            config: Config { max_cycles: 300_000, allow_undocumented, ..Config::default() },
            keys: Some("A{RETURN}".into()),
            drive: Some(Box::new(c128_emu::disk::MemoryDrive::default())),
            ..RunOptions::default()
        };
        match run_until_exit(&prg, opts) {
            Ok(r) => {
                exits += 1;
                assert!(r.exit.cycles <= 300_000 + 10_000, "round {round}");
            }
            Err(Error::Run { error, .. }) => {
                errors += 1;
                assert!(error.location().cpu.cycles <= 300_000 + 10_000, "round {round}: {error}");
            }
            Err(e) => panic!("round {round}: not a run error: {e}"),
        }
    }
    assert_eq!(exits + errors, 300);
}
