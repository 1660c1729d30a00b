//! `bac bench`: the speed figures the README reports, measured here and now.
//!
//! Figures, not pass/fail: timings depend on the machine and its load. Each figure is the
//! median of several runs.

use anyhow::Result;
use bac_odds::exact::odds;
use bac_odds::play::Play;
use bac_odds::sim::{SimConfig, simulate};
use bac_odds::solve::solve;
use bac_rules::{Builtin, DrawRules, Preset, RuleSet};
use clap::Args;
use serde_json::{Value, json};
use std::sync::atomic::AtomicU64;
use std::time::Instant;

/// `bac bench` options.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// Coups per simulator run.
    #[arg(long, default_value_t = 20_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    hands: u64,
}

fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn sim_rate(hands: u64, threads: usize) -> Result<f64> {
    let config =
        SimConfig { rules: RuleSet::preset(Preset::PuntoBanco), hands, seed: 1, threads, strategy: Builtin::Casino };
    let start = Instant::now();
    simulate(&config, &AtomicU64::new(0))?;
    Ok(hands as f64 / start.elapsed().as_secs_f64())
}

/// Runs `bac bench`.
pub fn run(args: BenchArgs) -> Result<()> {
    let casino = Play::of(Builtin::Casino);
    let analyze_8 = median_ms(21, || {
        std::hint::black_box(odds(DrawRules::PuntoBanco, 8, &casino));
    });
    let solve_8 = median_ms(11, || {
        std::hint::black_box(solve(DrawRules::ChemDeFer, 8));
    });
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let one = sim_rate(args.hands, 1)?;
    let all = sim_rate(args.hands, cores)?;
    let figures: Value = json!({
        "analyze_8_decks_ms": analyze_8,
        "solve_chemin_de_fer_8_decks_ms": solve_8,
        "sim_hands_per_second_1_thread": one,
        "sim_hands_per_second_all_cores": all,
        "cores": cores,
    });
    if args.json {
        println!("{figures}");
    } else {
        println!("exact odds, Punto Banco, 8 decks     {analyze_8:8.2} ms (median of 21)");
        println!("equilibrium, Chemin de fer, 8 decks  {solve_8:8.2} ms (median of 11)");
        println!("simulator, 1 thread                  {:8.1} million coups/s", one / 1e6);
        println!("simulator, {cores} threads                  {:8.1} million coups/s", all / 1e6);
    }
    Ok(())
}
