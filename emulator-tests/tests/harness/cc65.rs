//! The cc65 port of the rules core (`emulator-tests/cc65/`), built by Debian's cc65 and run
//! in the emulator, against the Rust rules crate on the host: the same seed must deal the
//! same cards, settle the same bets and end with the same bankroll. The benchmark figures of
//! issue 3 section 5 come from the same runs and are printed, never asserted.
//!
//! Needs `cl65` (`apt-get install cc65`). The Rust side runs through
//! `cc65/reference`, a separate little crate started with `cargo run`, because
//! emulator-tests has no dependency on `bac-rules`.

use bac_harness::cc65::{harness, trace};
use std::path::PathBuf;
use std::sync::OnceLock;

use harness::{Build, Cc65Error, phase};
use trace::{Params, Policy, Trace, bet, news};

/// A scratch directory of the test build for `name`.
fn scratch(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cc65-{name}-{}", std::process::id()))
}

/// The benchmark program, built once per test binary.
fn built() -> &'static Build {
    static BUILD: OnceLock<Build> = OnceLock::new();
    BUILD.get_or_init(|| harness::build(&scratch("build")).unwrap_or_else(|e| panic!("{e}")))
}

/// What the reference program (the Rust rules crate on the host) prints for `args`.
fn reference(args: &[String]) -> String {
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cc65-reference");
    harness::reference(args, &target).unwrap_or_else(|e| panic!("the reference: {e}"))
}

/// The Rust rules crate's trace for `params`, or the shoe error code it refuses them with.
fn rust_trace(params: &Params) -> Result<Trace, u8> {
    let text = reference(&params.to_args());
    if let Some(code) = text.strip_prefix("shoe-error ") {
        return Err(code.trim().parse().unwrap_or_else(|e| panic!("shoe-error {code:?}: {e}")));
    }
    Ok(Trace::from_text(&text).unwrap_or_else(|e| panic!("the reference's trace: {e}")))
}

/// The cc65 program's trace for `params`, or its non-zero exit code.
fn cc65_trace(params: &Params) -> Result<harness::Run, u8> {
    match harness::run(&built().prg, params) {
        Ok(run) => Ok(run),
        Err(Cc65Error::Exit(code)) => Err(code),
        Err(e) => panic!("{e}"),
    }
}

/// Plays `params` on both sides and insists they agree; returns the trace.
fn agree(params: &Params) -> Trace {
    let c = cc65_trace(params).unwrap_or_else(|code| panic!("{params:?}: cc65 exit code {code}"));
    let rust = rust_trace(params).unwrap_or_else(|code| panic!("{params:?}: rust shoe error {code}"));
    if let Some(difference) = c.trace.first_difference(&rust) {
        panic!("{params:?}: {difference}");
    }
    assert_eq!(c.trace.coups.len(), usize::from(params.coups));
    assert_eq!(c.coups_timed, u64::from(params.coups), "every coup marks its phase");
    c.trace
}

/// How many coups of `trace` carry the news bit `bit`.
fn with_news(trace: &Trace, bit: u8) -> usize {
    trace.coups.iter().filter(|c| c.news() & bit != 0).count()
}

#[test]
fn punto_banco_shoe_deals_the_same_coups_as_the_rust_rules() {
    for seed in [1, 2026, 0xDEAD_BEEF, 0] {
        let trace = agree(&Params::punto_banco(seed, 200));
        // Eight decks last about 80 coups: 200 coups cross two cut cards and reshuffles.
        assert!(with_news(&trace, news::CUT_CARD_OUT) >= 2, "seed {seed}");
        assert!(with_news(&trace, news::SHUFFLED) >= 2, "seed {seed}");
        let cards: Vec<usize> = trace.coups.iter().map(|c| c.cards()).collect();
        assert!(cards.iter().all(|n| (4..=6).contains(n)), "seed {seed}: {cards:?}");
        assert!(cards.contains(&4) && cards.contains(&6), "seed {seed}: naturals and two draws both occur");
        for outcome in [bet::LOST, bet::WON, bet::PUSH] {
            assert!(trace.coups.iter().any(|c| c.bet() == outcome), "seed {seed}: bet result {outcome} never seen");
        }
        assert_ne!(trace.bankroll, trace::START_BANKROLL, "seed {seed}: money moved");
    }
}

#[test]
fn every_end_of_shoe_policy_and_the_burn_agree() {
    // Loadstar's shoe: four decks, reshuffle at eight, here with the burn.
    let loadstar = agree(&Params { seed: 77, coups: 300, decks: 4, policy: Policy::ReshuffleAt(8), burn: true });
    assert!(with_news(&loadstar, news::SHUFFLED) >= 5);
    assert!(with_news(&loadstar, news::BURNED) >= 5);
    // One deck with Sahara's cut card seven from the end: the last coup of a shoe runs dry
    // and the discards are shuffled in (Shoe::replenish).
    let sahara = agree(&Params { seed: 4, coups: 400, decks: 1, policy: Policy::CutCard(7), burn: false });
    assert!(with_news(&sahara, news::REPLENISHED) >= 1, "no shoe ran dry: pick another seed");
    for decks in 2..=7 {
        agree(&Params {
            seed: u32::from(decks) * 1_000_003,
            coups: 60,
            decks,
            policy: Policy::CutCard(14),
            burn: true,
        });
    }
}

#[test]
fn every_deck_count_under_both_policies_agrees() {
    for decks in 1..=8u8 {
        for (n, policy) in [Policy::ReshuffleAt(8), Policy::CutCard(14)].into_iter().enumerate() {
            let seed = 0x9E37_79B9u32.wrapping_mul(u32::from(decks) * 2 + n as u32);
            agree(&Params { seed, coups: 150, decks, policy, burn: n == 0 });
        }
    }
}

#[test]
fn refused_shoes_end_with_the_same_error() {
    let cases = [
        Params { decks: 0, ..Params::punto_banco(1, 1) },
        Params { decks: 9, ..Params::punto_banco(1, 1) },
        Params { decks: 1, policy: Policy::CutCard(47), ..Params::punto_banco(1, 1) },
        Params { decks: 1, policy: Policy::ReshuffleAt(60), ..Params::punto_banco(1, 1) },
    ];
    for params in cases {
        let rust = rust_trace(&params).err();
        assert!(rust.is_some(), "{params:?}: the rules accept it");
        assert_eq!(cc65_trace(&params).err(), rust, "{params:?}");
    }
    // At the limit both accept: 46 + 6 = 52.
    agree(&Params { decks: 1, policy: Policy::CutCard(46), ..Params::punto_banco(1, 3) });
}

#[test]
fn the_comparison_catches_a_divergence() {
    let params = Params::punto_banco(9, 50);
    let c = cc65_trace(&params).unwrap_or_else(|code| panic!("exit code {code}"));
    // Another seed: the shuffles differ from the first card on.
    let other = rust_trace(&Params { seed: 10, ..params }).unwrap_or_else(|code| panic!("shoe error {code}"));
    let found = c.trace.first_difference(&other).expect("a different seed must not agree");
    assert!(found.starts_with("first cards"), "{found}");
    // One card changed in one coup of an otherwise equal trace: the coup is named.
    let rust = rust_trace(&params).unwrap_or_else(|code| panic!("shoe error {code}"));
    assert_eq!(c.trace.first_difference(&rust), None);
    let mut changed = rust.clone();
    changed.coups[17].0[3] ^= 1;
    let found = c.trace.first_difference(&changed).expect("a changed card must not agree");
    assert!(found.starts_with("coup 17 differs"), "{found}");
    // The final bankroll alone.
    let mut richer = rust;
    richer.bankroll += 95;
    assert!(c.trace.first_difference(&richer).expect("a different bankroll").starts_with("the ends differ"));
}

#[test]
fn happens_draws_the_same_chances() {
    let prg = harness::build_chance_check(&scratch("chance")).unwrap_or_else(|e| panic!("{e}"));
    for seed in [0, 1, 0x5EED_1234] {
        let (answers, next) = harness::run_chance_check(&prg, seed).unwrap_or_else(|e| panic!("{e}"));
        let expected = reference(&["chance".into(), seed.to_string(), answers.len().to_string()]);
        let words: Vec<String> = answers.iter().map(u8::to_string).collect();
        assert_eq!(format!("answers {}\nnext {next}\n", words.join(" ")), expected, "seed {seed}");
        assert_eq!(answers.len(), 512);
        // NEVER never happens and ALWAYS always does (positions 0 and 4 of the 8 chances).
        assert!(answers.iter().step_by(8).all(|&a| a == 0), "seed {seed}");
        assert!(answers.iter().skip(4).step_by(8).all(|&a| a == 1), "seed {seed}");
    }
}

/// The figures for `bac bench`, printed (`cargo test -p emulator-tests --test harness -- cc65:: --nocapture`).
#[test]
fn benchmark_figures() {
    let coups = 1000;
    let (figures, run) = harness::measure(&scratch("bench"), 1, coups).unwrap_or_else(|e| panic!("{e}"));
    let rust = rust_trace(&Params::punto_banco(1, coups)).unwrap_or_else(|code| panic!("shoe error {code}"));
    // The timed run is a checked run too.
    assert_eq!(run.trace.first_difference(&rust), None);
    assert!(figures.shuffle_cycles > 0 && figures.cycles_per_coup > 0.0);
    assert!(figures.sizes.rules_only > 0 && figures.sizes.rules_only < figures.sizes.code_rodata_data);
    eprintln!(
        "cc65 (cl65 -t c128 -Oirs): {:.0} cycles per coup (deal to settle, {} coups), {} cycles per 8-deck \
         shuffle, {} bytes of program (.prg minus load address and BASIC stub); CODE+RODATA+DATA {} bytes, \
         of which rules.o {}; {} cycles in all, {} idle",
        figures.cycles_per_coup,
        figures.coups,
        figures.shuffle_cycles,
        figures.sizes.program,
        figures.sizes.code_rodata_data,
        figures.sizes.rules_only,
        run.total_cycles,
        run.phase_cycles[phase::IDLE],
    );
}
