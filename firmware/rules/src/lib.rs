//! The rules of Baccarat as bac128 plays them: one crate, run on the host as the reference
//! and compiled for the C128 as the game's engine.
//!
//! `no_std`, no allocation, no floating point, and no panic on any input: the same source
//! runs on a 64-bit host and, through the AVR-to-6502 pipeline, on an 8-bit 8502 with 41 KB
//! for code and data. Everything a game needs is here:
//!
//! - [`card`], [`shoe`]: 1–8 decks, an unbiased Fisher–Yates shuffle on [`rng::Xorshift32`],
//!   the two end-of-shoe policies of the seeds (reshuffle at k cards, a cut card), burns.
//! - [`hand`], [`tableau`]: totals modulo 10, naturals, and the drawing rules of Punto Banco,
//!   the Loadstar original and Chemin de fer, as tables checked against the seed texts.
//! - [`question`], [`strategy`], [`optimal`]: every choice the rules leave is a [`question::Question`]
//!   answered by a person or a built-in strategy, the game-theoretic one included.
//! - [`payout`], [`money`], [`rules`]: exact integer payouts (money in cents) for each preset.
//! - [`coach`]: the exact value of each option at a free choice, from the cards unseen.
//! - [`coup`], [`table`], [`event`]: a coup as a state machine the screen drives card by
//!   card, seats and banks with money conserved, and the event log everyone shares.
#![cfg_attr(not(test), no_std)]

pub mod card;
pub mod coach;
pub mod coup;
pub mod event;
pub mod hand;
pub mod money;
pub mod optimal;
pub mod payout;
pub mod question;
pub mod rng;
pub mod rules;
pub mod shoe;
pub mod strategy;
pub mod table;
pub mod tableau;

pub use card::{Card, Suit};
pub use coup::{Coup, Outcome, Side, Step, Winner};
pub use event::{Event, EventSink, SeatId};
pub use money::Money;
pub use payout::{BetResult, Odds, PayTable, Spot};
pub use question::{Decision, Question};
pub use rng::{Chance, Xorshift32};
pub use rules::{Banking, Preset, RuleSet, RulesError};
pub use shoe::{Burn, EndOfShoe, Shoe, ShoeNews};
pub use strategy::{Builtin, Strategy};
pub use table::{Asker, MAX_SEATS, SeatKind, Table, TableError, TableStep, Tally};
pub use tableau::{DrawRules, Rule};
