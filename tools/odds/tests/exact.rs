//! The exact enumeration against published figures and its own invariants.

use bac_odds::edge::house_edge;
use bac_odds::exact::odds;
use bac_odds::play::Play;
use bac_rules::{Builtin, DrawRules, Preset, RuleSet, Spot};

fn punto_banco(decks: u8) -> bac_odds::exact::Odds {
    odds(DrawRules::PuntoBanco, decks, &Play::of(Builtin::Casino))
}

/// The eight-deck figures every Baccarat reference quotes (to six places): banker 0.458597,
/// player 0.446247, tie 0.095156; edges banker 1.06%, player 1.24%, tie 14.36% at 8:1 and
/// 4.84% at 9:1.
#[test]
fn eight_decks_match_the_published_figures() {
    let o = punto_banco(8);
    assert!((o.banker - 0.458_597).abs() < 5e-7, "{}", o.banker);
    assert!((o.player - 0.446_247).abs() < 5e-7, "{}", o.player);
    assert!((o.tie - 0.095_156).abs() < 5e-7, "{}", o.tie);
    let pb = RuleSet::preset(Preset::PuntoBanco);
    let edge = |rules: RuleSet, spot| house_edge(&rules.pays, &o, spot).unwrap();
    assert!((edge(pb, Spot::Banker) - 0.010_579).abs() < 5e-6);
    assert!((edge(pb, Spot::Player) - 0.012_351).abs() < 5e-6);
    assert!((edge(pb, Spot::Tie) - 0.143_596).abs() < 5e-6);
    assert!((edge(pb.with_tie_pays(9).unwrap(), Spot::Tie) - 0.048_440).abs() < 5e-6);
    // No commission: the banker six paying half costs the bettor 1.46%.
    assert!((edge(RuleSet::preset(Preset::NoCommission), Spot::Banker) - 0.014_581).abs() < 5e-6);
}

/// A million leaves summed in `f64` carry about 1e-12 of rounding: 1e-10 leaves room and is
/// still far below the ten decimals the reports print.
#[test]
fn every_deck_count_sums_to_one() {
    for decks in 1..=8 {
        for rules in [DrawRules::PuntoBanco, DrawRules::Loadstar, DrawRules::ChemDeFer] {
            for builtin in [Builtin::Casino, Builtin::AlwaysDraw, Builtin::AlwaysStand] {
                let o = odds(rules, decks, &Play::of(builtin));
                assert!((o.banker + o.player + o.tie - 1.0).abs() < 1e-10);
                assert!(
                    (o.cards.iter().sum::<f64>() - 1.0).abs() < 1e-10,
                    "{rules:?} {decks} {builtin:?} {:?}",
                    o.cards
                );
                assert!(o.natural > 0.3 && o.natural < 0.4, "{}", o.natural);
                assert!(o.cards[0] >= o.natural - 1e-12, "every natural is a four-card coup");
            }
        }
    }
}

#[test]
fn choices_matter_only_where_the_rules_leave_them() {
    for decks in [1, 6] {
        let casino = Play::of(Builtin::Casino);
        let pb = odds(DrawRules::PuntoBanco, decks, &casino);
        // The Loadstar and Chemin de fer games played the casino way are Punto Banco.
        assert!((odds(DrawRules::Loadstar, decks, &casino).banker - pb.banker).abs() < 1e-12);
        assert!((odds(DrawRules::ChemDeFer, decks, &casino).banker - pb.banker).abs() < 1e-12);
        // Punto Banco ignores strategies altogether.
        assert_eq!(odds(DrawRules::PuntoBanco, decks, &Play::of(Builtin::AlwaysStand)), pb);
        // A bank that never draws when free loses more often.
        assert!(odds(DrawRules::ChemDeFer, decks, &Play::of(Builtin::AlwaysStand)).banker < pb.banker - 0.01);
    }
}
