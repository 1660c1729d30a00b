//! The coach on the C128: its probe (`emulator-tests/coach-prg`) built through the
//! translator and run for every case, each held to the same case computed on the host
//! (`bac_coach_cases`). The cycles are `coach_cycles`' to print (docs/speed.md), never
//! asserted here.

use crate::build;
use bac_coach_cases::{CASES, NO_FIGURES, figures, game, question};

#[test]
fn every_case_gives_the_hosts_figures() {
    let prg = build::bytes(&build::program("emulator-tests/coach-prg", "coach-probe"));
    for case in 0..CASES {
        let (rules, decks) = game(case);
        let expected = figures(case);
        assert_ne!(expected, NO_FIGURES, "case {case}: the host has no figures for {rules:?}, {decks} decks");
        let run = bac_harness::kernels::run(&prg, case).unwrap_or_else(|e| panic!("case {case}: {e}"));
        assert_eq!(
            run.result,
            expected,
            "case {case} ({rules:?}, {decks} decks, {}): the C128 left {:#010x}, the host {expected:#010x}",
            question(case),
            run.result
        );
    }
}
