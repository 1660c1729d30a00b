//! Every payout of every preset, against the seeds' words.

use bac_rules::hand::Hand;
use bac_rules::{BetResult, Card, Money, Outcome, Preset, RuleSet, Spot, Suit, Winner};

fn hand(ranks: &[u8]) -> Hand {
    let mut hand = Hand::new();
    for &rank in ranks {
        hand.push(Card::new(rank, Suit::Spades).unwrap());
    }
    hand
}

fn outcome(player: &[u8], banker: &[u8]) -> Outcome {
    let (player, banker) = (hand(player), hand(banker));
    let winner = match player.total().cmp(&banker.total()) {
        std::cmp::Ordering::Greater => Winner::Player,
        std::cmp::Ordering::Less => Winner::Banker,
        std::cmp::Ordering::Equal => Winner::Tie,
    };
    Outcome { player, banker, winner }
}

const STAKE: Money = Money::units(20);

fn settle(rules: RuleSet, spot: Spot, o: &Outcome) -> BetResult {
    rules.pays.settle(spot, STAKE, o)
}

#[test]
fn punto_banco_pays_as_seeds_000_and_001() {
    let pb = RuleSet::preset(Preset::PuntoBanco);
    let player_wins = outcome(&[4, 5], &[3, 4]);
    let banker_wins = outcome(&[3, 4], &[4, 5]);
    let banker_six = outcome(&[2, 3], &[3, 3]);
    let tie = outcome(&[3, 4], &[2, 5]);
    assert_eq!(settle(pb, Spot::Player, &player_wins), BetResult::Won(Money::units(20)));
    assert_eq!(settle(pb, Spot::Banker, &player_wins), BetResult::Lost);
    assert_eq!(settle(pb, Spot::Tie, &player_wins), BetResult::Lost);
    assert_eq!(settle(pb, Spot::Banker, &banker_wins), BetResult::Won(Money::units(19)), "less 5%");
    assert_eq!(settle(pb, Spot::Banker, &banker_six), BetResult::Won(Money::units(19)));
    assert_eq!(settle(pb, Spot::Player, &banker_wins), BetResult::Lost);
    assert_eq!(settle(pb, Spot::Tie, &tie), BetResult::Won(Money::units(160)), "8 to 1");
    assert_eq!(settle(pb, Spot::Player, &tie), BetResult::Push);
    assert_eq!(settle(pb, Spot::Banker, &tie), BetResult::Push);
    let nine = pb.with_tie_pays(9).unwrap();
    assert_eq!(settle(nine, Spot::Tie, &tie), BetResult::Won(Money::units(180)), "9 to 1");
    assert_eq!(nine.pays.settle(Spot::Banker, Money::units(1), &banker_wins), BetResult::Won(Money::cents(95)));
}

#[test]
fn no_commission_pays_half_on_a_banker_six() {
    let nc = RuleSet::preset(Preset::NoCommission);
    assert_eq!(settle(nc, Spot::Banker, &outcome(&[3, 4], &[4, 5])), BetResult::Won(Money::units(20)));
    assert_eq!(settle(nc, Spot::Banker, &outcome(&[2, 3], &[3, 3])), BetResult::Won(Money::units(10)));
    assert_eq!(
        settle(nc, Spot::Banker, &outcome(&[2, 3], &[1, 2, 3])),
        BetResult::Won(Money::units(10)),
        "three-card six"
    );
    assert_eq!(nc.pays.settle(Spot::Banker, Money::units(1), &outcome(&[1], &[6])), BetResult::Won(Money::cents(50)));
    assert_eq!(settle(nc, Spot::Banker, &outcome(&[3, 3], &[2, 4])), BetResult::Push, "a six-six tie is a tie");
    assert_eq!(settle(nc, Spot::Player, &outcome(&[4, 5], &[3, 3])), BetResult::Won(Money::units(20)));
    assert_eq!(
        settle(nc.with_tie_pays(9).unwrap(), Spot::Tie, &outcome(&[3, 3], &[2, 4])),
        BetResult::Won(Money::units(180))
    );
}

#[test]
fn sahara_has_no_banker_bets_and_keeps_the_tie_stake() {
    let sahara = RuleSet::preset(Preset::Sahara);
    assert_eq!(sahara.pays.odds(Spot::Banker), None);
    assert_eq!(settle(sahara, Spot::Tie, &outcome(&[3, 4], &[2, 5])), BetResult::WonAndStays(Money::units(160)));
    assert_eq!(settle(sahara, Spot::Player, &outcome(&[3, 4], &[2, 5])), BetResult::Push);
    assert_eq!(settle(sahara, Spot::Player, &outcome(&[4, 4], &[2, 5])), BetResult::Won(Money::units(20)));
    assert_eq!(sahara.with_tie_pays(9), Err(bac_rules::RulesError::TiePays(9)));
    assert_eq!(sahara.decks, 8);
}

#[test]
fn the_bank_games_pay_even_money_and_ties_are_off() {
    for preset in [Preset::Loadstar, Preset::ChemDeFer] {
        let rules = RuleSet::preset(preset);
        assert_eq!(settle(rules, Spot::Player, &outcome(&[4, 5], &[3, 3])), BetResult::Won(Money::units(20)));
        assert_eq!(settle(rules, Spot::Player, &outcome(&[4, 1], &[3, 3])), BetResult::Lost);
        assert_eq!(settle(rules, Spot::Player, &outcome(&[3, 3], &[3, 3])), BetResult::Push);
        assert_eq!(rules.pays.odds(Spot::Tie), None);
        assert_eq!(rules.pays.odds(Spot::Banker), None);
        assert!(rules.with_tie_pays(8).is_err());
    }
    let loadstar = RuleSet::preset(Preset::Loadstar);
    assert_eq!(loadstar.decks, 4);
    assert_eq!(loadstar.starting_bankroll, Money::units(100_000));
    assert_eq!(loadstar.banking, bac_rules::Banking::House(Money::units(1_000_000)));
}

#[test]
fn odd_tie_odds_and_deck_counts_are_refused() {
    let pb = RuleSet::preset(Preset::PuntoBanco);
    assert!(pb.with_tie_pays(7).is_err());
    assert!(pb.with_decks(0).is_err());
    assert!(pb.with_decks(9).is_err());
    assert_eq!(pb.with_decks(1).unwrap().decks, 1);
}
