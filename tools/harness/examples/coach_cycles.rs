//! The coach's time on the C128 (issue 33): builds `emulator-tests/coach-prg` through the
//! translator, runs each case in the emulator, checks the figures it leaves against the
//! rules crate on the host, and prints the cycles of the computation alone (the KERNAL's
//! interrupts included as they fall) and the seconds they take at 1 MHz and at 2 MHz.
//!
//! `cargo run --release -p bac-harness --example coach_cycles [-- --profile CASE]`; with
//! `--profile` it prints where case CASE spends its cycles, function by function.

use bac_coach_cases::{CASES, NO_FIGURES, figures, game, question};
use bac_harness::kernels;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let target = bac_harness::build::repo_root().join("target/c128");
    let report = bac_harness::build::program("emulator-tests/coach-prg", "coach-probe", &target)?;
    let prg = std::fs::read(&report.prg)?;
    let mut args = std::env::args().skip(1);
    if args.next().as_deref() == Some("--profile") {
        let case: u16 = args.next().ok_or("--profile CASE")?.parse()?;
        // By symbol of the map: the cycles of the instructions from each symbol to the next.
        let symbols: Vec<(u16, String)> = bac_harness::profile::map_symbols(&std::fs::read_to_string(&report.map)?)
            .into_iter()
            .map(|(at, name)| (at, bac_harness::profile::short_name(&name)))
            .collect();
        let mut by_symbol = vec![0u64; symbols.len() + 1];
        kernels::run_observed(&prg, case, &mut |_, pc, phase, cycles| {
            if phase == 1 {
                by_symbol[symbols.partition_point(|s| s.0 <= pc)] += cycles;
            }
        })?;
        let mut rows: Vec<(u64, &str)> = by_symbol
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, i.checked_sub(1).map_or("(before the first symbol)", |i| symbols[i].1.as_str())))
            .collect();
        rows.sort_by_key(|row| std::cmp::Reverse(row.0));
        for (cycles, name) in rows.iter().take(20).filter(|r| r.0 > 0) {
            println!("{cycles:>10}  {name}");
        }
        return Ok(());
    }
    println!("coach probe: {} program bytes", kernels::program_bytes(&prg));
    println!("{:<62} {:>11} {:>8} {:>8}  figures (draw / stand)", "case", "cycles", "1 MHz s", "2 MHz s");
    for case in 0..CASES {
        let (rules, decks) = game(case);
        let name = format!("{rules:?}, {decks} decks: {}", question(case));
        let run = kernels::run(&prg, case)?;
        let expected = figures(case);
        if run.result != expected {
            return Err(format!("{name}: the C128 left {:#010x}, the host {expected:#010x}", run.result).into());
        }
        if run.result == NO_FIGURES {
            return Err(format!("{name}: the coach had no figures").into());
        }
        let (draw, stand) = ((run.result >> 16) as u16 as i16, run.result as u16 as i16);
        let seconds = run.cycles as f64 / 1e6;
        println!(
            "{name:<62} {:>11} {seconds:>8.3} {:>8.3}  {:+.4} / {:+.4}",
            run.cycles,
            seconds / 2.0,
            f64::from(draw) / 1e4,
            f64::from(stand) / 1e4
        );
    }
    Ok(())
}
