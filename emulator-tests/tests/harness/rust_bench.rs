//! The rules crate translated to 6502 (`firmware/bench-prg`, built by the AVR-to-6502
//! pipeline) against the same crate on the host, through the harness and mailbox of the
//! cc65 benchmark: the same seed must deal the same cards, settle the same bets and end
//! with the same bankroll. The Rust figures for the benchmark come from the same runs and
//! are printed, never asserted.

use bac_harness::cc65::{harness, trace};
use std::path::PathBuf;
use std::sync::OnceLock;

use harness::{Cc65Error, phase};
use trace::{Params, Policy, Trace};

use crate::build;

/// The translated benchmark program, built once per test binary.
fn built() -> &'static Vec<u8> {
    static PRG: OnceLock<Vec<u8>> = OnceLock::new();
    PRG.get_or_init(|| {
        let report = report();
        std::fs::read(&report.prg).unwrap_or_else(|e| panic!("{}: {e}", report.prg.display()))
    })
}

/// The benchmark with functions interpreted by avr2mos's 6502 interpreter: all of them
/// (`["*"]`), or every other one (`mixed`), so that calls cross between translated and
/// interpreted code both ways.
fn interpreted(mixed: bool) -> avr2mos::Translation {
    let elf = &report().elf;
    let interpret = if mixed {
        let prog = avr2mos::AvrProgram::from_elf(&std::fs::read(elf).unwrap()).unwrap();
        prog.functions.iter().skip(1).step_by(2).map(|f| avr2mos::runtime::interp::demangle(&f.name)).collect()
    } else {
        vec!["*".to_string()]
    };
    avr2mos::pipeline::translate_elf_with(elf, &avr2mos::Options { interpret, ..Default::default() })
        .unwrap_or_else(|e| panic!("interpreting the Rust bench: {e}"))
}

/// The pipeline's build of the benchmark, once per test binary.
fn report() -> &'static avr2mos::pipeline::BuildReport {
    static REPORT: OnceLock<avr2mos::pipeline::BuildReport> = OnceLock::new();
    REPORT.get_or_init(|| build::program("firmware/bench-prg", "rust-bench"))
}

/// What the reference program (the Rust rules crate on the host) prints for `args`.
fn reference(args: &[String]) -> String {
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cc65-reference");
    harness::reference(args, &target).unwrap_or_else(|e| panic!("the reference: {e}"))
}

fn host_trace(params: &Params, recorded: usize) -> Trace {
    let text = reference(&params.to_args());
    let mut trace = Trace::from_text(&text).unwrap_or_else(|e| panic!("the reference's trace: {e}"));
    // The translated program keeps fewer coups in its trace than bench.c (it has less room).
    trace.coups.truncate(recorded);
    trace
}

fn run(params: &Params) -> harness::Run {
    run_prg(built(), params)
}

fn run_prg(prg: &[u8], params: &Params) -> harness::Run {
    match harness::run(prg, params) {
        Ok(run) => run,
        Err(Cc65Error::Exit(code)) => panic!("{params:?}: the translated program exited with {code}"),
        Err(e) => panic!("{e}"),
    }
}

/// Plays `params` in the translated program and on the host; they must agree.
fn agree(params: &Params) -> harness::Run {
    agree_prg(built(), params)
}

fn agree_prg(prg: &[u8], params: &Params) -> harness::Run {
    let c128 = run_prg(prg, params);
    let host = host_trace(params, c128.trace.coups.len());
    if let Some(difference) = c128.trace.first_difference(&host) {
        panic!("{params:?}: {difference}");
    }
    assert_eq!(c128.coups_timed, u64::from(params.coups), "every coup marks its phase");
    c128
}

#[test]
fn the_translated_rules_deal_what_the_host_deals() {
    for seed in [1, 2026, 0xDEAD_BEEF] {
        let run = agree(&Params::punto_banco(seed, 200));
        assert_eq!(run.trace.coups.len(), 200);
    }
    agree(&Params { seed: 77, coups: 150, decks: 4, policy: Policy::ReshuffleAt(8), burn: true });
    agree(&Params { seed: 4, coups: 150, decks: 1, policy: Policy::CutCard(7), burn: false });
}

#[test]
fn a_different_seed_does_not_agree() {
    let params = Params::punto_banco(9, 30);
    let c128 = run(&params);
    let other = host_trace(&Params { seed: 10, ..params }, c128.trace.coups.len());
    assert!(c128.trace.first_difference(&other).is_some());
}

/// The Rust figures beside cc65's (`cargo test -p emulator-tests --test harness -- rust_bench:: --nocapture`).
#[test]
fn benchmark_figures() {
    let run = agree(&Params::punto_banco(1, 1000));
    let prg = built();
    eprintln!(
        "rust (bac prg): {:.0} cycles per coup (deal to settle, 1000 coups), {} cycles per 8-deck shuffle, \
         {} bytes of program (.prg minus load address and BASIC stub)",
        run.phase_cycles[phase::COUP] as f64 / 1000.0,
        run.phase_cycles[phase::SHUFFLE],
        prg.len() - 2 - 12
    );
}

#[test]
fn the_interpreted_rules_deal_what_the_host_deals() {
    for mixed in [false, true] {
        let t = interpreted(mixed);
        for seed in [1, 2026] {
            let run = agree_prg(&t.prg, &Params::punto_banco(seed, 100));
            assert_eq!(run.trace.coups.len(), 100);
        }
        agree_prg(&t.prg, &Params { seed: 77, coups: 60, decks: 4, policy: Policy::ReshuffleAt(8), burn: true });
    }
}

/// The interpreted figures beside the translated ones (`-- --nocapture`).
#[test]
fn interpreted_benchmark_figures() {
    for mixed in [false, true] {
        let t = interpreted(mixed);
        let run = agree_prg(&t.prg, &Params::punto_banco(1, 200));
        eprintln!(
            "rust ({}): {:.0} cycles per coup (200 coups), {} cycles per 8-deck shuffle, {} bytes of program \
             ({} of interpreted functions, {} of interpreter)",
            if mixed { "every other function interpreted" } else { "all interpreted" },
            run.phase_cycles[phase::COUP] as f64 / 200.0,
            run.phase_cycles[phase::SHUFFLE],
            t.prg.len() - 2 - 12,
            t.stats.interpreted_bytes,
            t.stats.interpreter_bytes
        );
    }
}
