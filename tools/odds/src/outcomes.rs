//! Every way a coup can end, with its probability: one walk of the enumeration fills a small
//! table (who holds what, with two or three cards, natural or not), and the main bets and
//! every side bet that depends on the finished hands are read off it. One walk instead of
//! one per bet is what keeps the whole analysis as fast as the main bets alone.

use crate::exact::{Choices, Odds, walk_shoe};
use crate::play::Play;
use bac_rules::DrawRules;

/// How a coup ended, as far as any bet on the finished hands can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The player's final total.
    pub player: u8,
    /// The bank's final total.
    pub banker: u8,
    /// Cards in the player's hand, 2 or 3.
    pub player_cards: u8,
    /// Cards in the bank's hand, 2 or 3.
    pub banker_cards: u8,
    /// Either hand was a natural (both then hold two cards).
    pub natural: bool,
}

impl Ending {
    /// The player's hand won.
    pub fn player_wins(&self) -> bool {
        self.player > self.banker
    }

    /// The bank's hand won.
    pub fn banker_wins(&self) -> bool {
        self.banker > self.player
    }

    /// Neither won.
    pub fn tie(&self) -> bool {
        self.player == self.banker
    }

    /// Cards dealt in the coup.
    pub fn cards(&self) -> u8 {
        self.player_cards + self.banker_cards
    }
}

/// Classes of card counts: a natural, then (player drew, bank drew) without one.
const CLASSES: usize = 5;

/// The probability of every [`Ending`].
#[derive(Clone, Debug, PartialEq)]
pub struct Outcomes {
    by_class: [[[f64; 10]; 10]; CLASSES],
}

fn class(natural: bool, player_drew: bool, banker_drew: bool) -> usize {
    if natural { 0 } else { 1 + usize::from(player_drew) + 2 * usize::from(banker_drew) }
}

impl Outcomes {
    /// Walks every deal of the shoe `by_points` (cards of each point value, index 0 the
    /// tens) with the free choices weighed by `play`.
    pub fn of_shoe(rules: DrawRules, by_points: [u32; 10], play: &Play) -> Outcomes {
        let mut by_class = [[[0.0; 10]; 10]; CLASSES];
        walk_shoe(rules, by_points, Choices::Weighted(play), &mut |leaf, w| {
            let banker_drew = leaf.cards - 4 > u8::from(leaf.player_drew);
            by_class[class(leaf.natural, leaf.player_drew, banker_drew)][usize::from(leaf.player)]
                [usize::from(leaf.banker)] += w;
        });
        Outcomes { by_class }
    }

    /// Every ending with its probability (those that cannot happen included, at zero).
    pub fn each(&self) -> impl Iterator<Item = (Ending, f64)> + '_ {
        self.by_class.iter().enumerate().flat_map(|(c, grid)| {
            let (natural, player_drew, banker_drew) =
                if c == 0 { (true, 0, 0) } else { (false, (c - 1) & 1, (c - 1) >> 1) };
            grid.iter().enumerate().flat_map(move |(player, row)| {
                row.iter().enumerate().map(move |(banker, &p)| {
                    let ending = Ending {
                        player: player as u8,
                        banker: banker as u8,
                        player_cards: 2 + player_drew as u8,
                        banker_cards: 2 + banker_drew as u8,
                        natural,
                    };
                    (ending, p)
                })
            })
        })
    }

    /// The probability that an ending satisfies `event`.
    pub fn probability(&self, event: impl Fn(&Ending) -> bool) -> f64 {
        self.each().filter(|(e, _)| event(e)).map(|(_, p)| p).sum()
    }

    /// The main bets' figures, in the shape [`crate::exact::odds`] gives them.
    pub fn odds(&self) -> Odds {
        let mut odds = Odds::default();
        for (e, p) in self.each() {
            if e.player_wins() {
                odds.player += p;
            } else if e.banker_wins() {
                odds.banker += p;
                if e.banker == 6 {
                    odds.banker_six += p;
                }
            } else {
                odds.tie += p;
            }
            odds.cards[usize::from(e.cards() - 4)] += p;
            if e.natural {
                odds.natural += p;
            }
        }
        odds
    }
}
