//! `cargo bench -p bac-odds`: the exact analysis with every side bet, the main bets alone,
//! the effects of removal, and the simulator, timed here and now (medians; figures to
//! report, not to assert: they depend on the machine and its load).

use bac_odds::analysis::{analyze_shoe, removals};
use bac_odds::composition::Composition;
use bac_odds::exact::odds;
use bac_odds::play::Play;
use bac_odds::sim::{SimConfig, simulate};
use bac_rules::{Builtin, DrawRules, Preset, RuleSet};
use std::hint::black_box;
use std::sync::atomic::AtomicU64;
use std::time::Instant;

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

fn main() {
    // `cargo test --benches` runs this too: one quick pass then.
    let quick = std::env::args().any(|a| a == "--test");
    let runs = if quick { 1 } else { 51 };
    let play = Play::of(Builtin::Casino);
    let full = Composition::full(8);
    let all = median_ms(runs, || {
        black_box(analyze_shoe(DrawRules::PuntoBanco, black_box(&full), &play));
    });
    let main = median_ms(runs, || {
        black_box(odds(DrawRules::PuntoBanco, black_box(8), &play));
    });
    let eor = median_ms(runs.min(11), || {
        for (_, less) in removals(&full) {
            black_box(analyze_shoe(DrawRules::PuntoBanco, &less, &play));
        }
    });
    println!("analysis, main bets and all 17 side bets, 8 decks: {all:.2} ms (median of {runs})");
    println!("main bets alone, 8 decks:                          {main:.2} ms");
    println!("effects of removal, 13 ranks:                       {eor:.1} ms");
    let hands = if quick { 100_000 } else { 100_000_000 };
    for threads in [1, 2] {
        let config = SimConfig::new(RuleSet::preset(Preset::PuntoBanco), hands, 1, threads, Builtin::Casino);
        let start = Instant::now();
        simulate(&config, &AtomicU64::new(0)).expect("the preset's shoe");
        let rate = hands as f64 / start.elapsed().as_secs_f64();
        println!("simulator, Punto Banco, {threads} thread(s):             {:.1} million coups/s", rate / 1e6);
    }
}
