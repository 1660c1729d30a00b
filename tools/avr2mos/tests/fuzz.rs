//! A differential fuzzer of our own: random AVR programs (byte arithmetic and carry
//! chains, compares and branches on every flag, skips, counted loops, pointer walks in
//! every addressing mode, pushes, multiplies, calls between functions and to the runtime)
//! run translated on the `mos6502` CPU and on the reference AVR simulator from the same
//! registers and memory; every function's defined registers and flags, and the memory
//! window, must agree. At both optimisation levels.
//!
//! The bounded run here takes [`CASES`] programs from [`SEED`]. A longer run:
//! `FUZZ_CASES=100000 FUZZ_SEED=1 cargo test --release -p avr2mos --test fuzz`, or
//! `cargo xtask fuzz --cases N --seed S`. A failure prints the seed, the shrunk program's
//! AVR listing and the translator's listing of it; `FUZZ_SEED=<seed> FUZZ_CASES=1` runs that
//! one case again.

mod common;
#[path = "fuzz/generate.rs"]
mod generate;
#[path = "fuzz/insn.rs"]
mod insn;
#[path = "fuzz/program.rs"]
mod program;
#[path = "fuzz/run.rs"]
mod run;
#[path = "fuzz/shrink.rs"]
mod shrink;

use avr2mos::OptLevel;

/// Programs in the bounded run of the normal test suite.
const CASES: u64 = 200;
/// The first seed of the bounded run.
const SEED: u64 = 0xBAC_0128;

/// Miscompiles the fuzzer found that are not fixed yet: `(seed, level, what)`. The bounded
/// run skips them (so the suite stays green while they wait) and
/// [`known_miscompiles_still_fail`] checks that each still fails, so a fix removes its line.
const KNOWN_MISCOMPILES: &[(u64, OptLevel, &str)] = &[];

/// The seeds to run: `FUZZ_SEED` (default [`SEED`]) and `FUZZ_CASES` (default [`CASES`]).
fn settings() -> (u64, u64) {
    let var = |name: &str, default: u64| {
        std::env::var(name).ok().map_or(default, |v| {
            let v = v.trim();
            let parsed = match v.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => v.parse(),
            };
            parsed.unwrap_or_else(|e| panic!("{name}={v}: {e}"))
        })
    };
    (var("FUZZ_SEED", SEED), var("FUZZ_CASES", CASES))
}

fn level_name(level: OptLevel) -> &'static str {
    match level {
        OptLevel::Plain => "--opt-level 0",
        OptLevel::Full => "--opt-level 1",
    }
}

/// The report of one failing case, its program shrunk first.
fn report(seed: u64, level: OptLevel, p: &program::Program) -> String {
    let small = shrink::shrink(p, |c| run::run(c, level).is_err());
    let failure = match run::run(&small, level) {
        Err(f) => f,
        Ok(()) => unreachable!("the shrinker keeps only failing programs"),
    };
    format!(
        "seed {seed:#x} at {}: {}\n(run again: FUZZ_SEED={seed:#x} FUZZ_CASES=1 cargo test --release -p avr2mos --test fuzz)\n\
         registers at entry: {:02x?}\n\nAVR program (shrunk):\n{}\n6502 translation:\n{}",
        level_name(level),
        failure.what,
        small.regs,
        failure.avr,
        failure.mos
    )
}

#[test]
fn random_programs_run_alike_translated_and_simulated() {
    let (first, cases) = settings();
    let mut failures = Vec::new();
    for seed in first..first + cases {
        let p = generate::program(seed);
        for level in [OptLevel::Full, OptLevel::Plain] {
            if KNOWN_MISCOMPILES.iter().any(|&(s, l, _)| s == seed && l == level) {
                continue;
            }
            if run::run(&p, level).is_err() {
                let text = report(seed, level, &p);
                eprintln!("{text}\n");
                failures.push(format!("seed {seed:#x} at {}", level_name(level)));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {cases} cases failed: {}", failures.len(), failures.join(", "));
}

#[test]
fn known_miscompiles_still_fail() {
    for &(seed, level, what) in KNOWN_MISCOMPILES {
        let p = generate::program(seed);
        assert!(run::run(&p, level).is_err(), "seed {seed:#x} ({what}) passes now: take it off KNOWN_MISCOMPILES");
    }
}
