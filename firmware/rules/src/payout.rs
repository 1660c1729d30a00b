//! What each bet pays, as tables taken from the seeds.

use crate::coup::{Outcome, Winner};
use crate::money::Money;

/// Where a stake is placed (seed 001: "Player, Tie, or Banker").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Spot {
    /// On the Player hand.
    Player,
    /// On the Banker hand.
    Banker,
    /// On a tie.
    Tie,
}

impl Spot {
    /// All spots, in the order the table shows them.
    pub const ALL: [Spot; 3] = [Spot::Player, Spot::Tie, Spot::Banker];

    /// Index into per-spot arrays.
    pub const fn index(self) -> usize {
        match self {
            Spot::Player => 0,
            Spot::Banker => 1,
            Spot::Tie => 2,
        }
    }
}

/// Winnings of `win` for every `per` staked ("8 to 1" is `Odds { win: 8, per: 1 }`; the
/// 5% commission is `19 per 20`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Odds {
    /// Won…
    pub win: u16,
    /// …for this much staked.
    pub per: u16,
}

impl Odds {
    /// Even money.
    pub const EVEN: Odds = Odds { win: 1, per: 1 };
    /// Seed 001: "an amount equal to their wager, less 5%".
    pub const LESS_FIVE_PERCENT: Odds = Odds { win: 19, per: 20 };
    /// Seed 000: "the 'Banker' will be paid 50% or half the original bet".
    pub const HALF: Odds = Odds { win: 1, per: 2 };

    /// `n` to 1.
    pub const fn to_one(n: u16) -> Odds {
        Odds { win: n, per: 1 }
    }

    /// The winnings on `stake`; `None` if they are not a whole number of cents or overflow.
    pub const fn winnings(self, stake: Money) -> Option<Money> {
        stake.ratio(self.win as u32, self.per as u32)
    }
}

/// How a bet ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BetResult {
    /// The stake comes back with these winnings.
    Won(Money),
    /// The stake goes to the bank.
    Lost,
    /// The stake comes back ("the croupier shall not touch the bets", seed 000).
    Push,
    /// The bet won these winnings and its stake stays on the table for the next coup
    /// (seed 002: "the initial bet remains on the table for the next hand").
    WonAndStays(Money),
}

/// A game's payouts. A spot with `None` takes no bets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PayTable {
    /// Player bets.
    pub player: Option<Odds>,
    /// Banker bets.
    pub banker: Option<Odds>,
    /// Banker bets when the banker wins with 6 (no-commission); `None` = as `banker`.
    pub banker_on_six: Option<Odds>,
    /// Tie bets.
    pub tie: Option<Odds>,
    /// A winning tie bet stays on the table (Sahara Sands).
    pub tie_stake_stays: bool,
}

impl PayTable {
    /// Seeds 000/001: player 1:1, banker 19:20, tie `tie_pays`:1; player and banker bets
    /// push on a tie (seed 000: "shall not touch the bets").
    pub const fn commission(tie_pays: u16) -> PayTable {
        PayTable {
            player: Some(Odds::EVEN),
            banker: Some(Odds::LESS_FIVE_PERCENT),
            banker_on_six: None,
            tie: Some(Odds::to_one(tie_pays)),
            tie_stake_stays: false,
        }
    }

    /// Seed 000's second house rule: even money both ways, but a banker win with 6 pays half.
    pub const fn no_commission(tie_pays: u16) -> PayTable {
        PayTable { banker: Some(Odds::EVEN), banker_on_six: Some(Odds::HALF), ..Self::commission(tie_pays) }
    }

    /// Seed 002, Sahara Sands: no banker bets, player 1:1, tie 8:1 with the stake kept on
    /// the table.
    pub const SAHARA: PayTable = PayTable {
        player: Some(Odds::EVEN),
        banker: None,
        banker_on_six: None,
        tie: Some(Odds::to_one(8)),
        tie_stake_stays: true,
    };

    /// Seeds 003 and 004: the punter's side against the bank at even money; ties are a
    /// stand-off. Only the Player spot exists: who is on the Banker side is the bank itself.
    pub const EVEN_AGAINST_THE_BANK: PayTable =
        PayTable { player: Some(Odds::EVEN), banker: None, banker_on_six: None, tie: None, tie_stake_stays: false };

    /// The odds for a spot, if it takes bets.
    ///
    /// The fields are read first and the match picks among their values. Matching on the
    /// fields themselves, LLVM picked among their addresses, which kept a table built in
    /// place in memory (`commission(8)` written out for `settle` to read back). Measured
    /// again, that form costs the benchmark 139 bytes more, over its size goal, though it
    /// is 72 cycles a coup faster.
    pub const fn odds(&self, spot: Spot) -> Option<Odds> {
        let (player, banker, tie) = (self.player, self.banker, self.tie);
        match spot {
            Spot::Player => player,
            Spot::Banker => banker,
            Spot::Tie => tie,
        }
    }

    /// The most a stake on `spot` can win, for checking that the bank can cover it.
    pub fn max_winnings(&self, spot: Spot, stake: Money) -> Option<Money> {
        let odds = self.odds(spot)?;
        let best = match (spot, self.banker_on_six) {
            (Spot::Banker, Some(six))
                if u32::from(six.win) * u32::from(odds.per) > u32::from(odds.win) * u32::from(six.per) =>
            {
                six
            }
            _ => odds,
        };
        best.winnings(stake)
    }

    /// How a stake on `spot` ends. A spot that takes no bets pushes (the table never lets
    /// such a bet be placed); winnings that are not whole cents cannot happen for whole-unit
    /// stakes and are paid as a push rather than rounded.
    ///
    /// The winnings are worked out in one place for every winning bet: with one call of
    /// [`Odds::winnings`] per arm, as first written, the 6502 carried its 32-bit
    /// multiplication and division twice.
    pub fn settle(&self, spot: Spot, stake: Money, outcome: &Outcome) -> BetResult {
        let Some(odds) = self.odds(spot) else {
            return BetResult::Push;
        };
        match (spot, outcome.winner) {
            (Spot::Player, Winner::Player) | (Spot::Banker, Winner::Banker) | (Spot::Tie, Winner::Tie) => {}
            (Spot::Player | Spot::Banker, Winner::Tie) => return BetResult::Push,
            _ => return BetResult::Lost,
        }
        let odds = match (spot, self.banker_on_six) {
            (Spot::Banker, Some(six)) if outcome.banker_total() == 6 => six,
            _ => odds,
        };
        match odds.winnings(stake) {
            None => BetResult::Push,
            Some(winnings) if spot == Spot::Tie && self.tie_stake_stays => BetResult::WonAndStays(winnings),
            Some(winnings) => BetResult::Won(winnings),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::{Card, Suit};
    use crate::hand::Hand;

    /// `settle` as first written, with the winnings worked out in each winning arm.
    fn reference_settle(pays: &PayTable, spot: Spot, stake: Money, outcome: &Outcome) -> BetResult {
        let Some(odds) = pays.odds(spot) else {
            return BetResult::Push;
        };
        let odds = match (spot, outcome.winner, pays.banker_on_six) {
            (Spot::Banker, Winner::Banker, Some(six)) if outcome.banker_total() == 6 => six,
            _ => odds,
        };
        let won = |odds: Odds| odds.winnings(stake).map_or(BetResult::Push, BetResult::Won);
        match (spot, outcome.winner) {
            (Spot::Player, Winner::Player) | (Spot::Banker, Winner::Banker) => won(odds),
            (Spot::Player | Spot::Banker, Winner::Tie) => BetResult::Push,
            (Spot::Tie, Winner::Tie) => match (won(odds), pays.tie_stake_stays) {
                (BetResult::Won(winnings), true) => BetResult::WonAndStays(winnings),
                (result, _) => result,
            },
            _ => BetResult::Lost,
        }
    }

    /// A two-card hand totalling `total`: a king and `total` (a ten for 0).
    fn hand(total: u8) -> Hand {
        let mut hand = Hand::new();
        hand.push(Card::new(13, Suit::Spades).unwrap());
        hand.push(Card::new(if total == 0 { 10 } else { total }, Suit::Hearts).unwrap());
        assert_eq!(hand.total(), total);
        hand
    }

    #[test]
    fn settle_matches_the_arm_by_arm_form_for_every_table_spot_and_outcome() {
        let odd_table = PayTable {
            player: Some(Odds { win: 3, per: 7 }),
            banker: Some(Odds { win: 0, per: 0 }),
            banker_on_six: Some(Odds { win: 65_535, per: 3 }),
            tie: Some(Odds::to_one(65_535)),
            tie_stake_stays: true,
        };
        let tables = [
            PayTable::commission(8),
            PayTable::commission(9),
            PayTable::no_commission(8),
            PayTable::SAHARA,
            PayTable::EVEN_AGAINST_THE_BANK,
            odd_table,
        ];
        let stakes = [0, 1, 5, 95, 100, 700, 1_900, 65_536, 100_000, 1 << 30, u32::MAX / 9, u32::MAX];
        for pays in &tables {
            for spot in Spot::ALL {
                for winner in [Winner::Player, Winner::Banker, Winner::Tie] {
                    for (player, banker) in (0..10).flat_map(|p| (0..10).map(move |b| (p, b))) {
                        let outcome = Outcome { player: hand(player), banker: hand(banker), winner };
                        for cents in stakes {
                            let stake = Money::cents(cents);
                            assert_eq!(
                                pays.settle(spot, stake, &outcome),
                                reference_settle(pays, spot, stake, &outcome),
                                "{pays:?}, {spot:?}, {winner:?}, banker {banker}, {cents} cents"
                            );
                        }
                    }
                }
            }
        }
    }
}
