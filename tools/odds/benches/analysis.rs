//! `cargo bench -p bac-odds`: the exact analysis with every side bet, the main bets alone,
//! the effects of removal, and the simulator's coups per second, measured by criterion
//! (figures to report, never to assert: they depend on the machine and its load).

use std::hint::black_box;
use std::sync::atomic::AtomicU64;

use bac_odds::analysis::{analyze_shoe, removals};
use bac_odds::composition::Composition;
use bac_odds::exact::odds;
use bac_odds::play::Play;
use bac_odds::sim::{SimConfig, simulate};
use bac_rules::{Builtin, DrawRules, Preset, RuleSet};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn exact(c: &mut Criterion) {
    let play = Play::of(Builtin::Casino);
    let full = Composition::full(8);
    let mut group = c.benchmark_group("exact, Punto Banco, 8 decks");
    group.bench_function("main bets and all 17 side bets", |b| {
        b.iter(|| analyze_shoe(DrawRules::PuntoBanco, black_box(&full), &play))
    });
    group.bench_function("main bets alone", |b| b.iter(|| odds(DrawRules::PuntoBanco, black_box(8), &play)));
    group.sample_size(10);
    group.bench_function("effects of removal, 13 ranks", |b| {
        b.iter(|| {
            for (_, less) in removals(black_box(&full)) {
                black_box(analyze_shoe(DrawRules::PuntoBanco, &less, &play));
            }
        })
    });
    group.finish();
}

/// Coups per second, whole shoes with the preset's end-of-shoe policy, on one and two
/// threads (criterion reports them as elements per second).
fn simulator(c: &mut Criterion) {
    const HANDS: u64 = 2_000_000;
    let mut group = c.benchmark_group("simulator, Punto Banco");
    group.sample_size(10).throughput(Throughput::Elements(HANDS));
    for threads in [1, 2] {
        let config = SimConfig::new(RuleSet::preset(Preset::PuntoBanco), HANDS, 1, threads, Builtin::Casino);
        group.bench_function(format!("{threads} thread(s)"), |b| {
            b.iter(|| simulate(black_box(&config), &AtomicU64::new(0)).expect("the preset's shoe"))
        });
    }
    group.finish();
}

criterion_group!(benches, exact, simulator);
criterion_main!(benches);
