//! The event log: everything a table does, in order, for the screen, the host and the tests.

use crate::card::Card;
use crate::coup::{Outcome, Side};
use crate::money::Money;
use crate::payout::{BetResult, Spot};
use crate::question::Decision;
use crate::shoe::ShoeNews;

/// A seat number, 0-based.
pub type SeatId = u8;

/// One thing that happened at the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The shoe was shuffled, burned, passed its cut card or was replenished.
    Shoe(ShoeNews),
    /// A card was dealt to a hand.
    Card {
        /// The hand.
        side: Side,
        /// The card.
        card: Card,
    },
    /// A hand's holder chose.
    Decided {
        /// Whose hand.
        side: Side,
        /// The choice.
        decision: Decision,
    },
    /// The coup ended.
    Result(Outcome),
    /// A bet was settled.
    Settled {
        /// Whose bet.
        seat: SeatId,
        /// Where it was.
        spot: Spot,
        /// How much was staked.
        stake: Money,
        /// How it ended.
        result: BetResult,
    },
    /// Chemin de fer: a seat drew a card for the bank.
    DrewForBank {
        /// Who drew.
        seat: SeatId,
        /// What.
        card: Card,
    },
    /// Chemin de fer: this seat holds the bank.
    Banker {
        /// The new banker.
        seat: SeatId,
    },
    /// Chemin de fer: the bank stakes this much.
    BankStake {
        /// The stake.
        amount: Money,
    },
    /// Chemin de fer: a seat called "Banco", matching the whole bank.
    Banco {
        /// Who called.
        seat: SeatId,
    },
    /// Money went back to a seat unplayed: an excess over the bank, or the part of the bank
    /// nobody covered.
    Returned {
        /// To whom.
        seat: SeatId,
        /// How much.
        amount: Money,
    },
    /// This seat holds the Player hand (the highest bettor).
    HandHolder {
        /// The seat.
        seat: SeatId,
    },
}

/// Where events go: a closure, a screen, a recorder.
pub trait EventSink {
    /// Receives one event.
    fn event(&mut self, event: Event);
}

impl<F: FnMut(Event)> EventSink for F {
    fn event(&mut self, event: Event) {
        self(event)
    }
}
