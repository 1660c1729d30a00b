//! One coup as a state machine: the screen deals a card, shows it, and asks for the next
//! step; decisions are questions the caller answers. The host, the C128 and the tests all
//! drive the same machine, so they see the same cards in the same order.

use crate::card::Card;
use crate::hand::Hand;
use crate::question::{Decision, Question};
use crate::rng::Xorshift32;
use crate::shoe::{Shoe, ShoeNews};
use crate::tableau::{DrawRules, Rule};

/// The two hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Punto.
    Player,
    /// Banco.
    Banker,
}

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Winner {
    /// The Player hand.
    Player,
    /// The Banker hand.
    Banker,
    /// Equal totals.
    Tie,
}

/// A finished coup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The Player hand.
    pub player: Hand,
    /// The Banker hand.
    pub banker: Hand,
    /// The higher total; 9 beats 8; equal totals tie.
    pub winner: Winner,
}

impl Outcome {
    /// The totals are compared with `>` and `<`: `cmp` builds an `Ordering` (-1, 0 or 1)
    /// first and matches on it, 73 bytes and 35 cycles a coup more in the benchmark.
    fn of(player: Hand, banker: Hand) -> Outcome {
        let (p, b) = (player.total(), banker.total());
        let winner = if p > b {
            Winner::Player
        } else if p < b {
            Winner::Banker
        } else {
            Winner::Tie
        };
        Outcome { player, banker, winner }
    }

    /// The Player hand's total.
    pub fn player_total(&self) -> u8 {
        self.player.total()
    }

    /// The Banker hand's total.
    pub fn banker_total(&self) -> u8 {
        self.banker.total()
    }

    /// Either hand was a natural.
    pub fn natural(&self) -> bool {
        self.player.is_natural() || self.banker.is_natural()
    }

    /// Cards dealt in the coup: 4, 5 or 6.
    pub fn cards(&self) -> u8 {
        self.player.len() + self.banker.len()
    }
}

/// What the coup did, or needs, next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A card went to a hand.
    Card {
        /// The hand.
        side: Side,
        /// The card.
        card: Card,
    },
    /// A choice is needed before the coup can go on; answer with [`Coup::answer`].
    Ask(Question),
    /// The coup is over.
    Done(Outcome),
}

/// A call that does not fit the coup's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoupError {
    /// An answer when no question is pending.
    NothingAsked,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Dealing the first four cards; the number already dealt.
    Opening(u8),
    PlayerTurn,
    AskingPlayer,
    PlayerDraws,
    BankerTurn,
    AskingBanker,
    BankerDraws,
    Finished,
}

/// A coup in progress.
#[derive(Clone, Debug)]
pub struct Coup {
    rules: DrawRules,
    player: Hand,
    banker: Hand,
    phase: Phase,
}

impl Coup {
    /// A coup under `rules`, before its first card. Call [`Shoe::begin_coup`] first.
    pub fn new(rules: DrawRules) -> Coup {
        Coup { rules, player: Hand::new(), banker: Hand::new(), phase: Phase::Opening(0) }
    }

    /// The Player hand so far.
    pub fn player(&self) -> &Hand {
        &self.player
    }

    /// The Banker hand so far.
    pub fn banker(&self) -> &Hand {
        &self.banker
    }

    /// The question waiting for an answer, if any.
    pub fn pending(&self) -> Option<Question> {
        match self.phase {
            Phase::AskingPlayer => Some(Question::PlayerOnFive),
            Phase::AskingBanker => Some(self.banker_question()),
            _ => None,
        }
    }

    /// What the bank sees: its own two-card total and the points of the player's third card.
    fn banker_view(&self) -> (u8, Option<u8>) {
        (self.banker.total(), self.player.third().map(|card| card.points()))
    }

    fn banker_question(&self) -> Question {
        let (total, player_third) = self.banker_view();
        Question::Banker { total, player_third }
    }

    /// Advances by one card or one rule. Calling it while a question is pending asks again.
    pub fn step(&mut self, shoe: &mut Shoe, rng: &mut Xorshift32, news: &mut impl FnMut(ShoeNews)) -> Step {
        // The three phases that deal pick the side and the next phase, and one call of
        // `Coup::give` after the match deals for all of them. With a call in each, LLVM
        // kept the deal out of line: on the 6502 every card paid for a call that saves and
        // restores a dozen registers, and the drawing rules, read back after a call that
        // was handed the whole coup, were never folded. With one call the deal is inlined
        // (the benchmark: 900 cycles a coup and 120 bytes fewer).
        let side = loop {
            match self.phase {
                Phase::Opening(dealt) => {
                    // Seed 000: "one to the 'Player' first, then to the 'Banker'; 'Player'
                    // then 'Banker' again". After the fourth card the phase is settled
                    // below, once the hands can be looked at.
                    self.phase = Phase::Opening(dealt + 1);
                    break if dealt % 2 == 0 { Side::Player } else { Side::Banker };
                }
                Phase::PlayerTurn => {
                    self.phase = match self.rules.player(self.player.total()) {
                        Rule::Draw => Phase::PlayerDraws,
                        Rule::Stand => Phase::BankerTurn,
                        Rule::Choose => Phase::AskingPlayer,
                    }
                }
                Phase::PlayerDraws => {
                    self.phase = Phase::BankerTurn;
                    break Side::Player;
                }
                Phase::BankerTurn => {
                    let (total, player_third) = self.banker_view();
                    self.phase = match self.rules.banker(total, player_third) {
                        Rule::Draw => Phase::BankerDraws,
                        Rule::Stand => Phase::Finished,
                        Rule::Choose => Phase::AskingBanker,
                    }
                }
                Phase::BankerDraws => {
                    self.phase = Phase::Finished;
                    break Side::Banker;
                }
                Phase::AskingPlayer | Phase::AskingBanker => {
                    return Step::Ask(self.pending().unwrap_or(Question::PlayerOnFive));
                }
                Phase::Finished => return Step::Done(Outcome::of(self.player, self.banker)),
            }
        };
        let card = self.give(side, shoe, rng, news);
        if self.phase == Phase::Opening(4) {
            self.phase =
                if self.player.is_natural() || self.banker.is_natural() { Phase::Finished } else { Phase::PlayerTurn };
        }
        Step::Card { side, card }
    }

    /// Answers the pending question.
    pub fn answer(&mut self, decision: Decision) -> Result<(), CoupError> {
        self.phase = match (self.phase, decision) {
            (Phase::AskingPlayer, Decision::Draw) => Phase::PlayerDraws,
            (Phase::AskingPlayer, Decision::Stand) => Phase::BankerTurn,
            (Phase::AskingBanker, Decision::Draw) => Phase::BankerDraws,
            (Phase::AskingBanker, Decision::Stand) => Phase::Finished,
            _ => return Err(CoupError::NothingAsked),
        };
        Ok(())
    }

    fn give(&mut self, side: Side, shoe: &mut Shoe, rng: &mut Xorshift32, news: &mut impl FnMut(ShoeNews)) -> Card {
        let card = shoe.deal(rng, news);
        let hand = match side {
            Side::Player => &mut self.player,
            Side::Banker => &mut self.banker,
        };
        // The phases never deal a fourth card; `push` would refuse one anyway.
        hand.push(card);
        card
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Suit;

    /// A two-card hand totalling `total`: a king and `total` (a ten for 0).
    fn hand(total: u8) -> Hand {
        let mut hand = Hand::new();
        hand.push(Card::new(13, Suit::Clubs).unwrap());
        hand.push(Card::new(if total == 0 { 10 } else { total }, Suit::Clubs).unwrap());
        hand
    }

    #[test]
    fn the_higher_total_wins_and_equal_totals_tie() {
        for (p, b) in (0..10).flat_map(|p| (0..10).map(move |b| (p, b))) {
            let expected = match p.cmp(&b) {
                core::cmp::Ordering::Greater => Winner::Player,
                core::cmp::Ordering::Less => Winner::Banker,
                core::cmp::Ordering::Equal => Winner::Tie,
            };
            assert_eq!(Outcome::of(hand(p), hand(b)).winner, expected, "player {p}, banker {b}");
        }
    }
}
