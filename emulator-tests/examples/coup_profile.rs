//! Where the Rust benchmark's coups spend their cycles: builds `firmware/bench-prg` as
//! `bac bench` does, runs it in the emulator on the benchmark's parameters and prints, for
//! the coup phase only, each function's and runtime routine's own cycles per coup (what
//! runs at addresses from its symbol to the next) and how often per coup it is entered.
//! What runs outside the program's code (the KERNAL's interrupt handler in ROM) is one line.
//! `cargo run --release -p emulator-tests --example coup_profile [COUPS]`

use std::collections::HashMap;

use emulator_tests::cc65::harness::{self, phase};
use emulator_tests::cc65::trace::Params;

/// The line for cycles outside the program's code.
const OUTSIDE: &str = "(outside the program: the KERNAL's interrupt handler)";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let coups: u16 = std::env::args().nth(1).map_or(Ok(1000), |a| a.parse())?;
    let target = emulator_tests::build::repo_root().join("target/c128");
    let report = emulator_tests::build::program("firmware/bench-prg", "bench", &target)?;
    let prg = std::fs::read(&report.prg)?;
    // The map's code symbols, up to its `data` line (where the code ends).
    let mut symbols: Vec<(u16, String)> = Vec::new();
    let mut code_end = u16::MAX;
    for line in std::fs::read_to_string(&report.map)?.lines().filter(|l| !l.starts_with('#')) {
        let Some((at, name)) = line.split_once(' ') else { continue };
        let Ok(at) = u16::from_str_radix(at, 16) else { continue };
        if name.starts_with("data ") {
            code_end = at;
            break;
        }
        symbols.push((at, name.to_string()));
    }
    symbols.sort();
    symbols.push((code_end, OUTSIDE.into()));
    let first = symbols[0].0;
    let mut own: HashMap<usize, u64> = HashMap::new();
    let mut entered: HashMap<usize, u64> = HashMap::new();
    let run = harness::run_observed(&prg, &Params::punto_banco(1, coups), &mut |_, pc, shown, cycles| {
        if shown != phase::COUP {
            return;
        }
        let k = if pc < first || pc >= code_end {
            symbols.len() - 1
        } else {
            symbols.partition_point(|&(at, _)| at <= pc) - 1
        };
        *own.entry(k).or_default() += cycles;
        if symbols[k].0 == pc {
            *entered.entry(k).or_default() += 1;
        }
    })?;
    let timed = run.phase_cycles[phase::COUP] as f64 / f64::from(coups);
    println!("{timed:.0} cycles per coup over {coups} coups; own cycles per coup, share, entries per coup:");
    let mut rows: Vec<(usize, u64)> = own.into_iter().collect();
    rows.sort_by_key(|&(k, c)| (std::cmp::Reverse(c), k));
    for (k, c) in rows {
        let per = c as f64 / f64::from(coups);
        let calls = entered.get(&k).map_or(0.0, |&n| n as f64 / f64::from(coups));
        println!("{per:9.1} {:5.1}% {calls:7.2}  {}", 100.0 * per / timed, symbols[k].1);
    }
    Ok(())
}
