//! What the table screen remembers between coups ([`View`]): the shoe's scoreboard and
//! roads, the seats' last results and bets, the chip in hand, the cards as they lie. A file
//! of its own because the [`crate::app::App`] holds one, while `play`'s modules, which
//! draw and change it, are methods of the `App`: so `app` and `play` do not import each
//! other.

use bac_rules::{BetResult, Card, Money, SeatId, Winner};

use crate::roads::Roads;
use crate::save::MAX_SAVED_SEATS;
use crate::scoreboard::History;

/// What the table screen remembers between coups.
#[derive(Clone, Debug)]
pub struct View {
    /// The results of this shoe.
    pub history: History,
    /// Its derived roads, kept as the results come.
    pub(super) roads: Roads,
    /// A result the derived roads have yet to take ([`View::result_due`]): their update
    /// (up to 90,000 cycles of interpreted code at a shoe's 30th coup) waits for a pause of
    /// the deal, or for the panel that shows them (80 columns).
    pub(super) roads_due: Option<Winner>,
    /// How each seat's bets ended, shown until the next bets.
    pub(super) results: [[Option<(Money, BetResult)>; 3]; MAX_SAVED_SEATS],
    /// Cards drawn for the bank, shown beside the seats.
    pub(super) drew: [Option<Card>; MAX_SAVED_SEATS],
    /// True while the cards for the bank are turned one by one: the table already knows the
    /// banker, the players must not see it before the last card.
    pub(super) drawing_for_bank: bool,
    /// The chip in hand.
    pub(super) chip: u8,
    /// An amount typed in place of a chip (A at the bets), until a chip is chosen again.
    pub(super) typed: Option<Money>,
    /// The seat that typed it: in hot seat the next person starts from the chips, not from
    /// an amount checked against someone else's bankroll.
    pub(super) typed_by: SeatId,
    /// Coups settled since the program started.
    pub(super) coups: u16,
    /// Whether a coup is being dealt, and at what pace.
    pub(super) pace: Pace,
    /// The coup's cards by hand (Player, Banker) as they were dealt, kept so that a screen
    /// wiped by the help comes back with them (`draw_hands`).
    pub(super) hands: [[Option<Card>; 3]; 2],
    /// Which hands are turned up: seed 004 deals every card face down (see
    /// `App::turn_up_for`).
    pub(super) up: [bool; 2],
    /// Each seat's stakes by spot (`Spot::index`) as the last coup was dealt: what L at the
    /// settled screen stakes again.
    pub(super) last_bets: [[Money; 3]; MAX_SAVED_SEATS],
    /// The key that ended the settled screen, when it was not RETURN: L (the same bets
    /// again), or a key for the bets, which the first seat to bet takes as typed.
    pub(super) ahead: Option<u8>,
    /// How far the 40-column table's rows move down into the rows the seats leave free
    /// (`play::moves_for`); set as the table is drawn, as the seats change only between
    /// tables.
    pub(super) moves: [u8; 4],
}

/// The pace of the table's pauses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pace {
    /// No coup is being dealt: pauses run whole, and SPACE is a key like any other.
    Betting,
    /// A coup is dealt at a dealer's pace; SPACE hurries it.
    Dealing,
    /// The player hurried this coup: its pauses are cut to [`super::HURRIED_FRAMES`].
    Hurried,
}

impl View {
    /// Gives the derived roads the result they were left, if any: before they are drawn
    /// and in the deal's pauses.
    pub(super) fn catch_up_roads(&mut self) {
        if let Some(winner) = self.roads_due.take() {
            self.roads.push(winner);
        }
    }

    /// Leaves a coup's result to the derived roads as soon as its step is taken, before the
    /// last card shows: the pause of that card gives it to them ([`View::catch_up_roads`]),
    /// and the player never waits for it.
    pub(super) fn result_due(&mut self, winner: Winner) {
        self.catch_up_roads();
        self.roads_due = Some(winner);
    }

    /// A fresh view: empty scoreboard, the smallest chip.
    pub const fn new() -> View {
        View {
            history: History::new(),
            roads: Roads::new(),
            roads_due: None,
            results: [[None; 3]; MAX_SAVED_SEATS],
            drew: [None; MAX_SAVED_SEATS],
            drawing_for_bank: false,
            chip: 0,
            typed: None,
            typed_by: 0,
            coups: 0,
            pace: Pace::Betting,
            hands: [[None; 3]; 2],
            up: [false; 2],
            last_bets: [[Money::ZERO; 3]; MAX_SAVED_SEATS],
            ahead: None,
            moves: [0; 4],
        }
    }
}

impl Default for View {
    fn default() -> View {
        View::new()
    }
}
