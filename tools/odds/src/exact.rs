//! Exact odds from a full shoe: every deal of up to six cards, by point value, weighed by
//! its probability without replacement. No sampling: the figures are exact up to the
//! rounding of `f64` sums (about 1e-15).

use crate::play::Play;
use bac_rules::tableau::PLAYER_STOOD;
use bac_rules::{DrawRules, Rule};

/// One finished deal as the enumeration reaches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// The player's two-card total.
    pub player_first: u8,
    /// The bank's two-card total.
    pub banker_first: u8,
    /// The player's final total.
    pub player: u8,
    /// The bank's final total.
    pub banker: u8,
    /// Cards dealt, 4–6.
    pub cards: u8,
    /// The player drew a third card (so `cards - 4 - player_drew` is the bank's third).
    pub player_drew: bool,
    /// Either hand was a natural.
    pub natural: bool,
    /// The bank's free choice on the way here, as (total, column, drew).
    pub banker_choice: Option<(u8, u8, bool)>,
    /// The player's free choice on 5 on the way here: drew or not.
    pub player_choice: Option<bool>,
}

impl Leaf {
    /// +1 when the player wins, −1 when the bank wins, 0 on a tie.
    pub fn player_result(&self) -> f64 {
        match self.player.cmp(&self.banker) {
            core::cmp::Ordering::Greater => 1.0,
            core::cmp::Ordering::Less => -1.0,
            core::cmp::Ordering::Equal => 0.0,
        }
    }
}

/// How free choices are walked.
#[derive(Clone, Copy, Debug)]
pub enum Choices<'a> {
    /// Weighted by a strategy's probabilities.
    Weighted(&'a Play),
    /// Both branches with weight one, reported in the leaf: what the solver needs.
    Explore,
}

/// Card counts by point value: index 0 holds tens and faces.
#[derive(Clone, Copy)]
struct Counts {
    by_points: [u32; 10],
    total: u32,
}

impl Counts {
    fn new(by_points: [u32; 10]) -> Counts {
        Counts { by_points, total: by_points.iter().sum() }
    }

    /// Calls `f` with each point value, its probability, and the counts without that card.
    #[inline(always)]
    fn each(&self, mut f: impl FnMut(u8, f64, &Counts)) {
        let total = f64::from(self.total);
        for points in 0..10u8 {
            let n = self.by_points[usize::from(points)];
            if n == 0 {
                continue;
            }
            let mut rest = *self;
            rest.by_points[usize::from(points)] -= 1;
            rest.total -= 1;
            f(points, f64::from(n) / total, &rest);
        }
    }
}

/// Cards of each point value (index 0: tens and faces) in a full shoe of `decks` decks.
pub fn full_shoe(decks: u8) -> [u32; 10] {
    let mut by_points = [4 * u32::from(decks); 10];
    by_points[0] = 16 * u32::from(decks);
    by_points
}

/// Walks every deal of a full `decks`-deck shoe under `rules`, calling `visit` with each
/// finished deal and its probability (or, with [`Choices::Explore`], its probability
/// ignoring the choices made).
pub fn walk(rules: DrawRules, decks: u8, choices: Choices<'_>, visit: &mut impl FnMut(&Leaf, f64)) {
    walk_shoe(rules, full_shoe(decks), choices, visit);
}

/// [`walk`] from any shoe, given as its cards of each point value. A shoe of fewer than six
/// cards weighs only the deals it can complete, so its leaves sum to less than one: the
/// callers ask for at least six (see `composition`).
pub fn walk_shoe(rules: DrawRules, by_points: [u32; 10], choices: Choices<'_>, visit: &mut impl FnMut(&Leaf, f64)) {
    let shoe = Counts::new(by_points);
    shoe.each(|p1, w1, shoe| {
        shoe.each(|b1, w2, shoe| {
            shoe.each(|p2, w3, shoe| {
                shoe.each(|b2, w4, shoe| {
                    let weight = w1 * w2 * w3 * w4;
                    let (player, banker) = ((p1 + p2) % 10, (b1 + b2) % 10);
                    let leaf = Leaf {
                        player_first: player,
                        banker_first: banker,
                        player,
                        banker,
                        cards: 4,
                        player_drew: false,
                        natural: player >= 8 || banker >= 8,
                        banker_choice: None,
                        player_choice: None,
                    };
                    if leaf.natural {
                        visit(&leaf, weight);
                    } else {
                        player_turn(rules, choices, shoe, leaf, weight, visit);
                    }
                })
            })
        })
    });
}

fn player_turn(
    rules: DrawRules,
    choices: Choices<'_>,
    shoe: &Counts,
    leaf: Leaf,
    weight: f64,
    visit: &mut impl FnMut(&Leaf, f64),
) {
    let draw = |leaf: Leaf, weight: f64, visit: &mut dyn FnMut(&Leaf, f64)| {
        shoe.each(|third, w, shoe| {
            let leaf = Leaf { player: (leaf.player + third) % 10, cards: 5, player_drew: true, ..leaf };
            banker_turn(rules, choices, shoe, leaf, Some(third), weight * w, &mut |l: &Leaf, w| visit(l, w));
        })
    };
    let stand = |leaf: Leaf, weight: f64, visit: &mut dyn FnMut(&Leaf, f64)| {
        banker_turn(rules, choices, shoe, leaf, None, weight, &mut |l: &Leaf, w| visit(l, w));
    };
    match rules.player(leaf.player) {
        Rule::Draw => draw(leaf, weight, visit),
        Rule::Stand => stand(leaf, weight, visit),
        Rule::Choose => {
            let (p_draw, p_stand) = match choices {
                Choices::Weighted(play) => (play.player_on_five, 1.0 - play.player_on_five),
                Choices::Explore => (1.0, 1.0),
            };
            if p_draw > 0.0 {
                draw(Leaf { player_choice: Some(true), ..leaf }, weight * p_draw, visit);
            }
            if p_stand > 0.0 {
                stand(Leaf { player_choice: Some(false), ..leaf }, weight * p_stand, visit);
            }
        }
    }
}

fn banker_turn(
    rules: DrawRules,
    choices: Choices<'_>,
    shoe: &Counts,
    leaf: Leaf,
    player_third: Option<u8>,
    weight: f64,
    visit: &mut dyn FnMut(&Leaf, f64),
) {
    let draw = |leaf: Leaf, weight: f64, visit: &mut dyn FnMut(&Leaf, f64)| {
        shoe.each(|third, w, _| {
            visit(&Leaf { banker: (leaf.banker + third) % 10, cards: leaf.cards + 1, ..leaf }, weight * w);
        })
    };
    match rules.banker(leaf.banker, player_third) {
        Rule::Draw => draw(leaf, weight, visit),
        Rule::Stand => visit(&leaf, weight),
        Rule::Choose => {
            let column = player_third.map_or(PLAYER_STOOD, usize::from);
            let p = match choices {
                Choices::Weighted(play) => play.banker[usize::from(leaf.banker)][column],
                Choices::Explore => 1.0,
            };
            let choice = |drew| Some((leaf.banker, column as u8, drew));
            if p > 0.0 {
                draw(Leaf { banker_choice: choice(true), ..leaf }, weight * p, visit);
            }
            let q = if matches!(choices, Choices::Explore) { 1.0 } else { 1.0 - p };
            if q > 0.0 {
                visit(&Leaf { banker_choice: choice(false), ..leaf }, weight * q);
            }
        }
    }
}

/// The probabilities of a game under one strategy.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Odds {
    /// P(the bank wins).
    pub banker: f64,
    /// P(the bank wins with 6), for the no-commission half payout.
    pub banker_six: f64,
    /// P(the player wins).
    pub player: f64,
    /// P(tie).
    pub tie: f64,
    /// P(4, 5, 6 cards dealt).
    pub cards: [f64; 3],
    /// P(a natural).
    pub natural: f64,
}

/// Exact odds of `rules` with `decks` decks when every free choice follows `play`.
pub fn odds(rules: DrawRules, decks: u8, play: &Play) -> Odds {
    let mut odds = Odds::default();
    walk(rules, decks, Choices::Weighted(play), &mut |leaf, w| {
        match leaf.player.cmp(&leaf.banker) {
            core::cmp::Ordering::Greater => odds.player += w,
            core::cmp::Ordering::Less => {
                odds.banker += w;
                if leaf.banker == 6 {
                    odds.banker_six += w;
                }
            }
            core::cmp::Ordering::Equal => odds.tie += w,
        }
        odds.cards[usize::from(leaf.cards - 4)] += w;
        if leaf.natural {
            odds.natural += w;
        }
    });
    odds
}
