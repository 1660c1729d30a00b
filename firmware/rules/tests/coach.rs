//! The coach's figures against brute force: every ordered sequence of distinct cards from
//! small shoes, each card its own object, in exact 128-bit integers; and, for full shoes
//! too large for that, every sequence of values with its count of ways. Neither groups
//! anything or knows the coach's sums; both read the rules only through `DrawRules` and
//! the solution's chances, the game's own answers to "who draws".

use bac_rules::coach::{self, Ev, Unseen, Values};
use bac_rules::optimal::{self, Solution};
use bac_rules::{Chance, Decision, DrawRules, Question, Rule};

const ONE: i128 = 65_536;

/// The player's result: 1 a win, -1 a loss, 0 a stand-off.
fn result(player: u8, banker: u8) -> i128 {
    (i128::from(player) - i128::from(banker)).signum()
}

/// The chance (in 65,536ths) that the bank draws on `total` against `third`.
fn bank_draws(rules: DrawRules, play: &Solution, total: u8, third: Option<u8>) -> i128 {
    match rules.banker(total, third) {
        Rule::Draw => ONE,
        Rule::Stand => 0,
        Rule::Choose => i128::from(play.chance(Question::Banker { total, player_third: third }).numerator()),
    }
}

/// The chance (in 65,536ths) that the player on two-card `total` draws.
fn player_draws(rules: DrawRules, play: &Solution, total: u8) -> i128 {
    match rules.player(total) {
        Rule::Draw => ONE,
        Rule::Stand => 0,
        Rule::Choose => i128::from(play.player_draws_on_five.numerator()),
    }
}

/// A shoe as a list of cards (their points), one entry a card.
fn cards(by_points: [u16; 10]) -> Vec<u8> {
    (0..10u8).flat_map(|v| std::iter::repeat_n(v, usize::from(by_points[usize::from(v)]))).collect()
}

/// Every ordered choice of `k` distinct positions among `n`.
fn sequences(n: usize, k: usize, mut visit: impl FnMut(&[usize])) {
    fn go(n: usize, k: usize, chosen: &mut Vec<usize>, visit: &mut dyn FnMut(&[usize])) {
        if chosen.len() == k {
            visit(chosen);
            return;
        }
        for i in 0..n {
            if !chosen.contains(&i) {
                chosen.push(i);
                go(n, k, chosen, visit);
                chosen.pop();
            }
        }
    }
    go(n, k, &mut Vec::new(), &mut visit);
}

/// (draw, stand, denominator) for the player on `total`, card by card: the bank's two
/// hidden cards, then the next card (the player's third, or the bank's if the player
/// stands), then the one after (the bank's after the player's).
fn brute_player(rules: DrawRules, total: u8, shoe: &[u8], play: &Solution) -> (i128, i128, i128) {
    let (mut draw, mut stand, mut den) = (0, 0, 0);
    sequences(shoe.len(), 4, |s| {
        let (b1, b2, x, y) = (shoe[s[0]], shoe[s[1]], shoe[s[2]], shoe[s[3]]);
        let bt = (b1 + b2) % 10;
        if bt >= 8 {
            return; // a natural: the coup never asks
        }
        den += ONE;
        let p = bank_draws(rules, play, bt, None);
        stand += p * result(total, (bt + x) % 10) + (ONE - p) * result(total, bt);
        let pt = (total + x) % 10;
        let p = bank_draws(rules, play, bt, Some(x));
        draw += p * result(pt, (bt + y) % 10) + (ONE - p) * result(pt, bt);
    });
    (draw, stand, den)
}

/// (draw, stand, denominator) for the bank on `total` that saw the player stand (`None`)
/// or draw a card of `third`'s points, card by card from `shoe`, the cards the bank had
/// not seen before the player's third card: the player's two, the player's third when
/// drawn, the bank's own. Each sequence weighs as likely as the player's play makes what
/// the bank saw.
fn brute_banker(rules: DrawRules, total: u8, third: Option<u8>, shoe: &[u8], play: &Solution) -> (i128, i128, i128) {
    let (mut draw, mut stand, mut den) = (0, 0, 0);
    sequences(shoe.len(), 4, |s| {
        let (p1, p2, x, y) = (shoe[s[0]], shoe[s[1]], shoe[s[2]], shoe[s[3]]);
        let pt = (p1 + p2) % 10;
        if pt >= 8 {
            return;
        }
        let q = player_draws(rules, play, pt);
        let (weight, pt, bank_card) = match third {
            None => (ONE - q, pt, x),
            Some(c) if x == c => (q, (pt + c) % 10, y),
            Some(_) => return,
        };
        den += weight;
        draw -= weight * result(pt, (total + bank_card) % 10);
        stand -= weight * result(pt, total);
    });
    (draw, stand, den)
}

fn same(ev: Ev, numerator: i128, den: i128) -> bool {
    i128::from(ev.numerator) * den == numerator * i128::from(ev.denominator)
}

fn assert_values(values: &Values, (draw, stand, den): (i128, i128, i128), what: &str) {
    assert!(den > 0, "{what}: the brute force found no hand");
    assert!(same(values.draw, draw, den), "{what}: draw {:?} against {draw}/{den}", values.draw);
    assert!(same(values.stand, stand, den), "{what}: stand {:?} against {stand}/{den}", values.stand);
    let better = match draw.cmp(&stand) {
        std::cmp::Ordering::Greater => Some(Decision::Draw),
        std::cmp::Ordering::Less => Some(Decision::Stand),
        std::cmp::Ordering::Equal => None,
    };
    assert_eq!(values.better(), better, "{what}");
}

/// Small shoes: every value present, values missing, tens scarce or plentiful.
const SHOES: [[u16; 10]; 4] = [
    [4, 2, 2, 1, 3, 2, 2, 1, 2, 1],
    [6, 1, 0, 2, 2, 3, 1, 2, 0, 1],
    [2, 2, 2, 2, 2, 2, 2, 2, 2, 2],
    [0, 3, 3, 1, 3, 3, 0, 2, 1, 2],
];

/// The solutions the game plays, and two made up to mix where the real ones do not: the
/// bank mixing against a third card 2 on 4, and against a player who stood on 3.
fn plays() -> Vec<(&'static str, DrawRules, Solution)> {
    let loadstar = *optimal::solution(DrawRules::Loadstar, 1).unwrap();
    let chemin = *optimal::solution(DrawRules::ChemDeFer, 1).unwrap();
    let mixed_third = Solution { banker_mixes: Some((4, 2, Chance::in_65536(20_000))), ..chemin };
    let mixed_stood = Solution {
        banker_mixes: Some((3, 10, Chance::in_65536(40_001))),
        player_draws_on_five: Chance::in_65536(12_345),
        ..chemin
    };
    vec![
        ("loadstar", DrawRules::Loadstar, loadstar),
        ("chemin de fer", DrawRules::ChemDeFer, chemin),
        ("chemin de fer, mixing on 4 against a 2", DrawRules::ChemDeFer, mixed_third),
        ("chemin de fer, mixing on 3 against a stand", DrawRules::ChemDeFer, mixed_stood),
    ]
}

#[test]
fn the_players_option_on_five_is_the_brute_forces() {
    for (name, rules, play) in plays() {
        for shoe in SHOES {
            let unseen = Unseen::from_points(shoe).unwrap();
            let values = coach::player_values(rules, 5, &unseen, &play).unwrap();
            assert_values(&values, brute_player(rules, 5, &cards(shoe), &play), &format!("{name}, {shoe:?}"));
        }
    }
}

#[test]
fn the_banks_options_are_the_brute_forces() {
    for (name, rules, play) in plays() {
        for shoe in SHOES {
            for total in 0..8u8 {
                for third in (0..10u8).map(Some).chain([None]) {
                    if rules.banker(total, third) != Rule::Choose {
                        continue;
                    }
                    // The coach is given what the bank has not seen: not the third card.
                    let mut unseen = Unseen::from_points(shoe).unwrap();
                    if let Some(c) = third
                        && !unseen.see_points(c)
                    {
                        continue;
                    }
                    let brute = brute_banker(rules, total, third, &cards(shoe), &play);
                    let what = format!("{name}, {shoe:?}, bank {total}, third {third:?}");
                    match coach::banker_values(rules, total, third, &unseen, &play) {
                        Ok(values) => assert_values(&values, brute, &what),
                        Err(e) => assert_eq!(brute.2, 0, "{what}: {e:?}, but the brute force found hands"),
                    }
                }
            }
        }
    }
}

/// Ways to draw `values` in order from `n` without replacement.
fn ways(n: &[u16; 10], values: &[u8]) -> i128 {
    let mut left = *n;
    let mut ways = 1i128;
    for &v in values {
        let count = &mut left[usize::from(v)];
        if *count == 0 {
            return 0;
        }
        ways *= i128::from(*count);
        *count -= 1;
    }
    ways
}

/// [`brute_player`] by values, each sequence weighed by its ways: for full shoes.
fn by_values_player(rules: DrawRules, total: u8, n: &[u16; 10], play: &Solution) -> (i128, i128, i128) {
    let (mut draw, mut stand, mut den) = (0, 0, 0);
    for b1 in 0..10u8 {
        for b2 in 0..10u8 {
            let bt = (b1 + b2) % 10;
            if bt >= 8 {
                continue;
            }
            for x in 0..10u8 {
                for y in 0..10u8 {
                    let w = ways(n, &[b1, b2, x, y]);
                    if w == 0 {
                        continue;
                    }
                    den += w * ONE;
                    let p = bank_draws(rules, play, bt, None);
                    stand += w * (p * result(total, (bt + x) % 10) + (ONE - p) * result(total, bt));
                    let pt = (total + x) % 10;
                    let p = bank_draws(rules, play, bt, Some(x));
                    draw += w * (p * result(pt, (bt + y) % 10) + (ONE - p) * result(pt, bt));
                }
            }
        }
    }
    (draw, stand, den)
}

#[test]
fn full_shoes_give_the_value_by_value_sums() {
    for decks in [1u8, 4, 6, 8] {
        for rules in [DrawRules::Loadstar, DrawRules::ChemDeFer] {
            let play = optimal::solution(rules, decks).unwrap();
            let full = Unseen::full(decks).unwrap();
            for own in [[2u8, 3], [0, 5], [6, 9]] {
                let mut unseen = full;
                own.iter().for_each(|&v| assert!(unseen.see_points(v)));
                let values = coach::player_values(rules, 5, &unseen, play).unwrap();
                let brute = by_values_player(rules, 5, &unseen.by_points(), play);
                assert_values(&values, brute, &format!("{rules:?}, {decks} decks, player holds {own:?}"));
            }
        }
    }
}

mod hidden {
    //! The figures at a free choice come from what the chooser may see: coups dealt from
    //! real shuffles that differ only in the other hand's hidden cards get the same advice.

    use super::*;
    use bac_rules::coup::Coup;
    use bac_rules::{Burn, EndOfShoe, Shoe, Step, Xorshift32};
    use std::collections::HashMap;

    /// The first coup of a freshly shuffled shoe from `seed`, dealt up to its first
    /// question (`None` if it asks none).
    fn first_question(rules: DrawRules, decks: u8, seed: u32) -> Option<Coup> {
        let mut shoe = Shoe::new(decks, EndOfShoe::ReshuffleAt { remaining: 8 }, Burn::None).unwrap();
        let mut rng = Xorshift32::new(seed);
        shoe.begin_coup(&mut rng, &mut |_| {});
        let mut coup = Coup::new(rules);
        loop {
            match coup.step(&mut shoe, &mut rng, &mut |_| {}) {
                Step::Card { .. } => {}
                Step::Ask(_) => return Some(coup),
                Step::Done(_) => return None,
            }
        }
    }

    fn points(cards: &[bac_rules::Card]) -> Vec<u8> {
        let mut points: Vec<u8> = cards.iter().map(|c| c.points()).collect();
        points.sort_unstable();
        points
    }

    /// Groups coups by what the chooser sees and checks that every coup of a group gets
    /// the same advice although their hidden hands differ; returns how many groups had
    /// different hidden hands, and how many of those an oracle that also knew the hidden
    /// cards would have told apart (so that the check could fail).
    fn check(rules: DrawRules, decks: u8, is_banker: bool) -> (usize, usize) {
        let play = optimal::solution(rules, decks).unwrap();
        let table = Unseen::full(decks).unwrap();
        let mut groups: HashMap<(Vec<u8>, Option<u8>), Vec<Coup>> = HashMap::new();
        for seed in 1..4000 {
            let Some(coup) = first_question(rules, decks, seed) else { continue };
            let asked_bank = matches!(coup.pending(), Some(Question::Banker { .. }));
            if asked_bank != is_banker {
                continue;
            }
            let (own, third) = if is_banker {
                (points(coup.banker().cards()), coup.player().third().map(|c| c.points()))
            } else {
                (points(coup.player().cards()), None)
            };
            groups.entry((own, third)).or_default().push(coup);
        }
        let (mut differing, mut oracle_differs) = (0, 0);
        for coups in groups.values() {
            let hidden = |coup: &Coup| {
                let hand = if is_banker { coup.player() } else { coup.banker() };
                points(&hand.cards()[..2])
            };
            let first = &coups[0];
            let advice = coach::advise(rules, first, &table, play).unwrap();
            for other in &coups[1..] {
                assert_eq!(coach::advise(rules, other, &table, play).unwrap(), advice, "{rules:?}");
                if hidden(other) != hidden(first) {
                    differing += 1;
                    // An oracle that took the hidden cards out too sees two different shoes.
                    let oracle = |coup: &Coup| {
                        let mut view = table;
                        let hand = if is_banker { coup.player() } else { coup.banker() };
                        hand.cards()[..2].iter().for_each(|&c| assert!(view.see(c)));
                        coach::advise(rules, coup, &view, play).unwrap()
                    };
                    if oracle(other) != oracle(first) {
                        oracle_differs += 1;
                    }
                }
            }
        }
        (differing, oracle_differs)
    }

    #[test]
    fn the_players_figures_do_not_depend_on_the_banks_hidden_cards() {
        for rules in [DrawRules::Loadstar, DrawRules::ChemDeFer] {
            let (differing, oracle) = check(rules, 1, false);
            assert!(differing > 20 && oracle > 20, "{rules:?}: {differing} coups, {oracle} told apart");
        }
    }

    #[test]
    fn the_bankers_figures_do_not_depend_on_the_players_hidden_cards() {
        let (differing, oracle) = check(DrawRules::ChemDeFer, 1, true);
        assert!(differing > 20 && oracle > 20, "{differing} coups, {oracle} told apart");
    }

    #[test]
    fn advice_takes_out_only_the_choosers_cards() {
        let rules = DrawRules::ChemDeFer;
        let play = optimal::solution(rules, 1).unwrap();
        let table = Unseen::full(1).unwrap();
        let coup = (1..).find_map(|seed| first_question(rules, 1, seed)).unwrap();
        let advice = coach::advise(rules, &coup, &table, play).unwrap();
        let mut view = table;
        let expected = match advice.question {
            Question::PlayerOnFive => {
                coup.player().cards().iter().for_each(|&c| assert!(view.see(c)));
                coach::player_values(rules, 5, &view, play).unwrap()
            }
            Question::Banker { total, player_third } => {
                coup.banker().cards().iter().for_each(|&c| assert!(view.see(c)));
                if let Some(card) = coup.player().third() {
                    assert!(view.see(card));
                }
                coach::banker_values(rules, total, player_third, &view, play).unwrap()
            }
        };
        assert_eq!(advice.values, expected);
        let empty = Unseen::from_points([0; 10]).unwrap();
        assert_eq!(coach::advise(rules, &coup, &empty, play), Err(coach::CoachError::Impossible));
        assert_eq!(coach::advise(rules, &Coup::new(rules), &table, play), Err(coach::CoachError::NothingAsked));
    }
}
