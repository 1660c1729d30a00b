//! The firmware's optimal-strategy table is what the solver computes today.
//!
//! Run with `BLESS=1` to rewrite it after a change to the rules or the solver.

use bac_odds::table_gen::optimal_table_source;
use std::path::Path;

#[test]
fn optimal_table_is_up_to_date() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../firmware/rules/src/optimal_table.rs");
    let expected = optimal_table_source();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &expected).unwrap();
    }
    let actual = std::fs::read_to_string(&path).unwrap();
    assert!(actual == expected, "{} is stale: rerun with BLESS=1\n--- expected\n{expected}", path.display());
}

#[test]
fn the_firmware_table_plays_the_solution() {
    use bac_odds::play::Play;
    use bac_odds::solve::solve;
    use bac_rules::{Builtin, DrawRules, optimal};
    for rules in [DrawRules::Loadstar, DrawRules::ChemDeFer] {
        for decks in 1..=8 {
            let eq = solve(rules, decks);
            let table = Play::of(Builtin::Optimal(optimal::solution(rules, decks).unwrap()));
            assert!((table.player_on_five - eq.play.player_on_five).abs() <= 0.5 / 65_536.0);
            for (a, b) in table.banker.iter().flatten().zip(eq.play.banker.iter().flatten()) {
                assert!(
                    (a - b).abs() <= 0.5 / 65_536.0,
                    "{rules:?} {decks}: {a} vs {b}\n{:?}\n{:?}",
                    table.banker,
                    eq.play.banker
                );
            }
        }
    }
    assert!(optimal::solution(DrawRules::PuntoBanco, 8).is_none());
    assert!(optimal::solution(DrawRules::ChemDeFer, 0).is_none());
    assert!(optimal::solution(DrawRules::ChemDeFer, 9).is_none());
}
