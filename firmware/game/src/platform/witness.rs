//! The watcher of the game's money. It is not part of the machine: it is how a check sees
//! the money move (the host tests' ledger, and the C128's mailbox that the keyboard fuzz
//! test in VICE reads). Its methods do nothing by default, so a platform that nobody
//! watches writes `impl Witness for MyPlatform {}` and pays nothing.

use bac_rules::{Event, Table};

use crate::save::Seats;

/// Told of the money on the table as the game moves it.
pub trait Witness {
    /// Called after every settled coup with the money on the table (bankrolls, stakes and
    /// the house, in cents) before the coup was dealt and after it was settled: the two are
    /// always equal, and the C128 posts them where the keyboard fuzz test watches them.
    fn settled(&mut self, _coups: u16, _before: u32, _after: u32) {}
    /// Shown the table whenever its money can be counted: as each round of bets opens (after
    /// any rebuy), with `settled` empty, and as each coup is settled, with the events of the
    /// step that settled it (its [`Event::Settled`] records). `seats` says who sits where
    /// (their bankrolls there are as last kept; the table's are the ones that count). Host
    /// tests check with it that money moves only as coups settle it; the default does
    /// nothing, and costs the C128 nothing.
    fn audit(&mut self, _table: &Table, _seats: &Seats, _settled: &[Event]) {}
}
