//! The coach's time on the C128 (issue 33): builds `emulator-tests/coach-prg` through the
//! translator, runs each case in the emulator, checks the figures it leaves against the
//! rules crate on the host, and prints the cycles of the computation alone (the KERNAL's
//! interrupts included as they fall) and the seconds they take at 1 MHz and at 2 MHz.
//!
//! `cargo run --release -p bac-harness --example coach_cycles [-- --profile CASE]`; with
//! `--profile` it prints where case CASE spends its cycles, function by function.

use bac_harness::kernels;
use bac_rules::DrawRules;
use bac_rules::coach::{self, CoachError, Unseen, Values};
use bac_rules::optimal;

/// The probe's cases, as its `run` numbers them: (name, rules, decks, question).
fn cases() -> Vec<(u16, String)> {
    let mut cases = Vec::new();
    for case in 0..12u16 {
        let (rules, decks) = game(case);
        let question = match case / 4 {
            0 => "the player on 5 (2, 3)",
            1 => "the bank on 6 (K, 6), the player stood",
            _ => "the bank on 3 (A, 2), the player's third a 9",
        };
        cases.push((case, format!("{rules:?}, {decks} decks: {question}")));
    }
    cases
}

fn game(case: u16) -> (DrawRules, u8) {
    match case % 4 {
        0 => (DrawRules::ChemDeFer, 8),
        1 => (DrawRules::ChemDeFer, 4),
        2 => (DrawRules::Loadstar, 4),
        _ => (DrawRules::Loadstar, 8),
    }
}

fn shown(values: Result<Values, CoachError>) -> u32 {
    match values {
        Ok(v) => (u32::from(v.draw.to_fixed(4) as u16) << 16) | u32::from(v.stand.to_fixed(4) as u16),
        Err(_) => u32::MAX,
    }
}

/// What the probe must leave for `case`, computed on the host.
fn host(case: u16) -> u32 {
    let (rules, decks) = game(case);
    let mut unseen = Unseen::full(decks).expect("1-8 decks");
    let play = optimal::solution(rules, decks).expect("a game with choices");
    match case / 4 {
        0 => {
            unseen.see_points(2);
            unseen.see_points(3);
            shown(coach::player_values(rules, 5, &unseen, play))
        }
        1 => {
            unseen.see_points(0);
            unseen.see_points(6);
            shown(coach::banker_values(rules, 6, None, &unseen, play))
        }
        _ => {
            unseen.see_points(1);
            unseen.see_points(2);
            unseen.see_points(9);
            shown(coach::banker_values(rules, 3, Some(9), &unseen, play))
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let target = bac_harness::build::repo_root().join("target/c128");
    let report = bac_harness::build::program("emulator-tests/coach-prg", "coach-probe", &target)?;
    let prg = std::fs::read(&report.prg)?;
    let mut args = std::env::args().skip(1);
    if args.next().as_deref() == Some("--profile") {
        let case: u16 = args.next().ok_or("--profile CASE")?.parse()?;
        // By symbol of the map: the cycles of the instructions from each symbol to the next.
        let mut symbols: Vec<(u16, String)> = std::fs::read_to_string(&report.map)?
            .lines()
            .filter_map(|l| {
                let (at, name) = l.split_once(' ')?;
                let at = u16::from_str_radix(at.strip_prefix('$').unwrap_or(at), 16).ok()?;
                (!name.contains(' ')).then(|| (at, bac_harness::profile::short_name(name)))
            })
            .collect();
        symbols.sort();
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
    for (case, name) in cases() {
        let run = kernels::run(&prg, case)?;
        let expected = host(case);
        if run.result != expected {
            return Err(format!("{name}: the C128 left {:#010x}, the host {expected:#010x}", run.result).into());
        }
        if run.result == u32::MAX {
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
