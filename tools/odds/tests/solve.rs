//! The equilibrium is one: neither side gains by leaving it.

use bac_odds::exact::{Choices, walk};
use bac_odds::play::Play;
use bac_odds::solve::{player_on_five_values, solve};
use bac_rules::DrawRules;

fn value(rules: DrawRules, decks: u8, play: &Play) -> f64 {
    let mut total = 0.0;
    walk(rules, decks, Choices::Weighted(play), &mut |leaf, w| total += w * leaf.player_result());
    total
}

#[test]
fn neither_side_gains_by_deviating() {
    for rules in [DrawRules::Loadstar, DrawRules::ChemDeFer] {
        for decks in [1, 4, 8] {
            let eq = solve(rules, decks);
            let v = value(rules, decks, &eq.play);
            assert!((v - eq.value).abs() < 1e-9, "{rules:?} {decks}: value {v} vs {}", eq.value);
            // The player: no p on 5 does better against the bank's equilibrium play.
            for p in [0.0, 0.25, 0.5, 0.75, 1.0] {
                let deviation = value(rules, decks, &Play { player_on_five: p, ..eq.play });
                assert!(
                    deviation <= eq.value + 1e-9,
                    "{rules:?} {decks}: player p={p} gets {deviation} > {}",
                    eq.value
                );
            }
            // The bank: switching any one free cell does not lower the player's value.
            for &((t, c), _) in &eq.cells {
                for q in [0.0, 1.0] {
                    let mut play = eq.play;
                    play.banker[usize::from(t)][usize::from(c)] = q;
                    let deviation = value(rules, decks, &play);
                    assert!(deviation >= eq.value - 1e-9, "{rules:?} {decks}: bank ({t},{c})={q} gives {deviation}");
                }
            }
        }
    }
}

#[test]
fn chemin_de_fer_mixes_on_five() {
    for decks in [1, 6, 8] {
        let eq = solve(DrawRules::ChemDeFer, decks);
        let p = eq.play.player_on_five;
        assert!(p > 0.0 && p < 1.0, "{decks} decks: the player must mix on 5, got {p}");
        let (draw, stand) = player_on_five_values(DrawRules::ChemDeFer, decks, &eq.play);
        assert!((draw - stand).abs() < 1e-9, "indifferent on 5: {draw} vs {stand}");
        let mixed = eq.play.banker.iter().flatten().filter(|&&q| q > 0.0 && q < 1.0).count();
        assert_eq!(mixed, 1, "the bank mixes in exactly one cell");
        assert!(eq.value < 0.0, "the bank has the edge: {}", eq.value);
    }
}
