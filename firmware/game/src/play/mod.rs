//! The table: bets with chips as in seed 001, the coup dealt card by card with the
//! third-card rule called out, every payout shown and applied, Chemin de fer's bank, and
//! the scoreboard of the shoe.
//!
//! This module is the table's flow from coup to coup; what the screen remembers between
//! them is [`View`] (`view`), and the three things done at the table each have a module:
//! drawing it (`screen`), taking the bets (`bets`), dealing and settling the coup (`coup`).

mod amount;
mod bets;
mod coup;
mod house;
mod screen;
pub(crate) mod view;

use view::Pace;
pub use view::View;

use bac_rules::{
    Asker, Banking, BetResult, Builtin, Card, Decision, Event, EventSink, Money, Outcome, Preset, Question, SeatId,
    SeatKind, ShoeNews, Side, Spot, Strategy, Table, TableError, TableStep, Winner, optimal,
};

use crate::app::{App, Leave};
use crate::draw::{self, BACKGROUND, HIGHLIGHT, INK, glyph};
use crate::face;
use crate::help;
use crate::num;
use crate::platform::{Colour, Platform, Sound, colour, key};
use crate::roads::Roads;
use crate::save::MAX_SAVED_SEATS;
use crate::scoreboard;
use crate::settings::Settings;
use crate::text::Msg;

const ROW_HEAD: u8 = 0;
const ROW_LABELS: u8 = 2;
const ROW_CARDS: u8 = 3;
const ROW_MSG: u8 = 8;
const ROW_MSG2: u8 = 9;
const ROW_CHIPS: u8 = 10;
const ROW_SEATS_HEAD: u8 = 11;
const ROW_SEATS: u8 = 12;
const ROW_BOARD: u8 = 18;
const ROW_KEYS: u8 = 24;

/// The chips, in units (seed 001's rack, with the high-roller plaques).
const CHIPS: [u32; 8] = [1, 5, 25, 100, 500, 1_000, 5_000, 10_000];
const CHIP_LABELS: [&[u8]; 8] = [b"1", b"5", b"25", b"100", b"500", b"1K", b"5K", b"10K"];
/// From a hand's head to its total: the longest head in any language and two cells of
/// cloth, so the two never touch.
const TOTAL_AT: u8 = crate::text::HAND_HEAD_MAX + 2;
/// Frames between two cards: half a second on PAL, a dealer's pace.
const DEAL_FRAMES: u8 = 25;
/// What is left of each pause of a coup the player hurried with SPACE: the cards still
/// land one at a time, each with its sound.
const HURRIED_FRAMES: u8 = 2;
/// Frames a card's sound lasts (a flick of noise), which the settled coup's sound waits
/// for when it follows the last card at once.
const CARD_SOUND_FRAMES: u8 = 2;
const MAX_EVENTS: usize = 24;
/// At the settled screen: the same bets again, and deal (house-banked games). L for "last
/// bets" and "les memes": no screen of the game gives L a meaning of its own.
const REPEAT_KEY: u8 = b'L';

/// Where things go on a screen of 40 or 80 columns.
struct Layout {
    /// Columns of the table itself: all 40, or 52 of 80 (the scoreboard panel takes the
    /// rest, from [`crate::panel::X`]).
    width: u8,
    /// Where each row of the 40-column table goes on this screen, and how far it may move
    /// down when the seats leave rows free (see [`Layout::row`]); 32 entries, so that a row
    /// number masked to five bits needs no bounds check.
    rows: [u8; 32],
    player_x: u8,
    banker_x: u8,
    /// From one card to the next of the same hand.
    card_step: u8,
    /// Rows a card takes ([`face::card_size`]).
    card_h: u8,
    /// The cards' first row: at 80 columns a row of cloth under the heads, whose white
    /// labels would otherwise run into the white faces below them.
    cards_y: u8,
    /// The cell the cards lie on where no card is: the 40-column felt (a reversed space
    /// in green, see [`FELT`]), or the 80-column cloth (a space: the VDC's paper mode
    /// makes every plain cell cloth).
    cloth: (u8, Colour),
    name_w: u8,
    roll_end: u8,
    /// Characters a bankroll may take: from the banker's mark after the name to
    /// `roll_end`.
    roll_w: u8,
    stake_end: [u8; 3],
    /// Characters a stake or a result may take: its column less the cell that keeps it
    /// apart from the column before (a blank at 40 columns, a bar at 80).
    stake_w: u8,
    /// The seats' grid lines: a rule under the heads and bars between the money columns
    /// (80 columns only; 40 have no cell to spare).
    grid: bool,
    bead_w: u8,
    road_x: u8,
    road_w: u8,
}

/// The 40-column felt: the band of the table the hands lie on, from the hands' heads to
/// the row over the messages. A reversed space in green is a green cell: the VIC-IIe has
/// one paper for the whole screen, and black keeps the most inks legible on VICE's palette
/// (eight inks at 4.5:1 or more, where green paper keeps only black), so the felt is drawn
/// with cells and everything read on it sits on black: the hands' heads are black plaques
/// on the felt, the cards white faces or their framed backs.
const FELT: (u8, Colour) = (glyph::SPACE | glyph::REVERSE, colour::GREEN);

/// A row number that may move down by up to `n` rows when the seats leave rows free.
const fn may_move(row: u8, n: u8) -> u8 {
    row | n << 5
}

/// The 40-column table's rows. With six seats every row is taken: the head and counts,
/// the felt (the hands' heads and the cards), two message rows, the chips, the seats'
/// heads and six seats, the scoreboard and the key line. Fewer seats leave rows free,
/// which go between the regions ([`Layout::row`]): one under the felt, one between the
/// messages and the chips, one between the chips and the seats, in that order; one more
/// stays over the scoreboard.
const ROWS_40: [u8; 32] = {
    let mut rows = [0u8; 32];
    let mut r = 0;
    while r < 32 {
        rows[r] = match r as u8 {
            ROW_MSG | ROW_MSG2 => may_move(r as u8, 1),
            ROW_CHIPS => may_move(r as u8, 2),
            ROW_SEATS_HEAD..ROW_BOARD => may_move(r as u8, 3),
            _ => r as u8,
        };
        r += 1;
    }
    rows
};

/// At 80 columns the cards own rows 1-10 of the table's 52 columns, so the messages, the
/// chips and the seats' grid (with its rule, a row more) move below them. Nothing moves
/// with the seats: 80 columns have rows to spare.
const ROWS_80: [u8; 32] = {
    let mut rows = [0u8; 32];
    let mut r = 0;
    while r < 32 {
        rows[r] = match r as u8 {
            ROW_MSG => 11,
            ROW_MSG2 => 12,
            ROW_CHIPS => 14,
            ROW_SEATS_HEAD => 16,
            ROW_SEATS..ROW_BOARD => r as u8 - ROW_SEATS + 18,
            _ => r as u8,
        };
        r += 1;
    }
    rows
};

/// Both layouts, by `columns == 80`: static, so that a translated caller reads its fields
/// where they are and the interpreter never builds one.
static LAYOUTS: [Layout; 2] = [
    Layout {
        width: 40,
        rows: ROWS_40,
        player_x: 1,
        banker_x: 21,
        card_step: 6,
        card_h: 5,
        cards_y: ROW_CARDS,
        cloth: FELT,
        name_w: 9,
        roll_end: 19,
        roll_w: 9,
        stake_end: [26, 33, 40],
        stake_w: 6,
        grid: false,
        bead_w: 12,
        road_x: 13,
        road_w: 27,
    },
    Layout {
        width: crate::panel::X,
        rows: ROWS_80,
        player_x: 1,
        banker_x: 27,
        card_step: 8,
        card_h: 5,
        cards_y: ROW_CARDS + 1,
        cloth: (glyph::SPACE, INK),
        name_w: 10,
        roll_end: 24,
        roll_w: 12,
        stake_end: [33, 42, 51],
        stake_w: 8,
        grid: true,
        bead_w: 0,
        road_x: 0,
        road_w: 0,
    },
];

fn layout(cols: u8) -> &'static Layout {
    &LAYOUTS[usize::from(cols == 80)]
}

impl Layout {
    /// Where a row of the 40-column table goes on this screen, given how far the seats
    /// let rows move ([`moves_for`], kept in [`View::moves`]): the rows are named for 40
    /// columns; at 80 some move (see [`ROWS_80`]), at 40 some move down into the free
    /// rows (see [`ROWS_40`]). A look-up, not a `min`: this runs in every translated
    /// drawing of the table, where bank 0's bytes are scarce.
    fn row(&self, row: u8, moves: &[u8; 4]) -> u8 {
        let at = self.rows[usize::from(row & 31)];
        (at & 31) + moves[usize::from(at >> 5 & 3)]
    }
}

/// Rows the seats leave free at 40 columns that go between the table's regions
/// ([`ROWS_40`]): all six seats take every row, and one free row always stays over the
/// scoreboard.
fn room_for(seats: u8) -> u8 {
    (MAX_SAVED_SEATS as u8).saturating_sub(seats).saturating_sub(1).min(3)
}

/// How far a row that may move by up to `n` rows ([`may_move`]) moves with `seats` seats,
/// for each `n`.
fn moves_for(seats: u8) -> [u8; 4] {
    let room = room_for(seats);
    [0, 1, 2, 3].map(|n: u8| n.min(room))
}

/// Where the table's lines are on a screen: what a reader of the screen (the tests, a
/// tool) needs, since at 40 columns they move with the number of seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableRows {
    /// The message.
    pub msg: u8,
    /// The line under it: a second message, or a question's keys.
    pub msg2: u8,
    /// The chips' row.
    pub chips: u8,
    /// The seats' heads (BANKROLL, PLAYER, ...).
    pub seats_head: u8,
    /// The first seat; the others follow it.
    pub seats: u8,
    /// The key line.
    pub keys: u8,
}

/// The table's rows on a screen of `cols` columns with `seats` seats at the table.
pub fn table_rows(cols: u8, seats: u8) -> TableRows {
    let (l, moves) = (layout(cols), &moves_for(seats));
    TableRows {
        msg: l.row(ROW_MSG, moves),
        msg2: l.row(ROW_MSG2, moves),
        chips: l.row(ROW_CHIPS, moves),
        seats_head: l.row(ROW_SEATS_HEAD, moves),
        seats: l.row(ROW_SEATS, moves),
        keys: l.row(ROW_KEYS, moves),
    }
}

/// The table's rows on a screen of `cols` columns whose seats' heads (BANKROLL, ...) are on
/// row `head`: how a reader of the screen finds the lines without knowing the seats, since
/// at 40 columns the heads move with them. A screen without the heads (`None`, or a row no
/// number of seats puts them on) reads as the table of six seats, where nothing moves.
pub fn table_rows_with_heads_on(cols: u8, head: Option<u8>) -> TableRows {
    (1..=MAX_SAVED_SEATS as u8)
        .map(|seats| table_rows(cols, seats))
        .find(|r| Some(r.seats_head) == head)
        .unwrap_or_else(|| table_rows(cols, MAX_SAVED_SEATS as u8))
}

/// What a call to the table said, kept for the screen.
struct Log {
    events: [Event; MAX_EVENTS],
    len: usize,
}

impl Log {
    fn new() -> Log {
        Log { events: [Event::Shoe(ShoeNews::Shuffled); MAX_EVENTS], len: 0 }
    }

    fn events(&self) -> &[Event] {
        &self.events[..self.len]
    }

    /// Forgets the events: a log used again costs nothing, a new one copies 24 events
    /// (8,000 cycles on the C128, in every step of a coup).
    fn clear(&mut self) {
        self.len = 0;
    }

    /// The coup's next step, its events in this log (emptied first). A function of its own:
    /// the rules' step, with the settling of every bet, inlines here (3.8 KB of AVR code),
    /// once for the three places in `deal_and_settle` that take a step, and under a name
    /// the C128 build's `interpret` list can give.
    #[inline(never)]
    fn step(&mut self, table: &mut Table) -> Result<TableStep, TableError> {
        self.clear();
        table.step(self)
    }
}

impl EventSink for Log {
    fn event(&mut self, event: Event) {
        if self.len < MAX_EVENTS {
            self.events[self.len] = event;
            self.len += 1;
        }
    }
}

/// Who is betting, and on what.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A house-banked game: Player, Banker, Tie.
    House,
    /// Chemin de fer: the banker stakes the bank.
    Banker,
    /// Chemin de fer: a punter bets on the Player hand or calls "Banco".
    Punter,
}

/// How a round of bets ended.
enum Bets {
    Deal,
    /// A punter called "Banco": betting is closed.
    Banco,
    /// Chemin de fer: the banker gives up the bank.
    GiveUp,
    Leave(Leave),
}

/// Whether two option settings deal the same game (then the table and its shoe stay).
pub fn same_game(a: &Settings, b: &Settings) -> bool {
    (a.preset, a.decks, a.tie_pays, a.humans, a.computers) == (b.preset, b.decks, b.tie_pays, b.humans, b.computers)
}

impl<P: Platform> App<P> {
    /// Plays at the table until the players leave it.
    #[inline(never)]
    pub fn play(&mut self) -> Leave {
        let mut table = match self.table.take() {
            Some(t) if same_game(&self.table_settings, &self.settings) => t,
            _ => match self.new_table() {
                Some(t) => t,
                None => return Leave::Options,
            },
        };
        self.table_settings = self.settings;
        self.played = true;
        let leave = loop {
            self.keep_bankrolls(&table);
            self.rebuy_if_broke(&mut table);
            self.p.audit(&table, &self.seats, &[]);
            self.draw_table(&table);
            let bets = if table.rules().banking == Banking::Seats {
                self.chemin_bets(&mut table)
            } else {
                self.house_bets(&mut table)
            };
            if let Bets::Leave(leave) = bets {
                break leave;
            }
            for (id, bets) in self.view.last_bets[..usize::from(self.seats.count)].iter_mut().enumerate() {
                for spot in Spot::ALL {
                    bets[spot.index()] = table.stake(id as SeatId, spot);
                }
            }
            self.deal_coup(&mut table);
            self.break_the_bank(&mut table);
        };
        // Stakes still on the table go back to their seats' bankrolls (keep_bankrolls
        // counts them), so leaving never costs money; a Sahara tie stake that stays is kept
        // apart, in the save (seed 002).
        self.keep_bankrolls(&table);
        if leave == Leave::Options {
            self.table = Some(table);
        }
        leave
    }

    #[inline(never)]
    fn new_table(&mut self) -> Option<Table> {
        // A seed from the disk (`BAC SEED`) replays the same shoe; else the clock's.
        let seed = match self.seed {
            Some(seed) => seed,
            None => self.p.ticks(),
        };
        let mut table = Table::new(self.settings.rules(), seed | 1).ok()?;
        let stays = table.rules().pays.tie_stake_stays;
        for seat in self.seats.seats[..usize::from(self.seats.count)].iter_mut() {
            if !stays {
                seat.take_back_tie_stake();
            }
            let id = table.sit(seat.kind, Some(seat.bankroll)).ok()?;
            if seat.tie_stake > Money::ZERO {
                // Refused only when the table cannot hold that much money, as `sit` is.
                table.restore_tie_stake(id, seat.tie_stake).ok()?;
            }
        }
        self.restore_house(&mut table);
        self.view = View::new();
        Some(table)
    }

    /// Copies the table's bankrolls, with whatever is staked, back to the seats; a tie stake
    /// that stays (seed 002) is kept apart, as it cannot be taken back.
    ///
    /// The money model: a seat owns its bankroll and its stakes on the table, and nothing
    /// else. A tie stake that stays belongs to the Sahara table it stays on: it is kept in
    /// the seat and the save only while the game is Sahara's (a new shoe, a rebuy, or the
    /// saved game continued deal it again), and comes back to the bankroll as soon as the
    /// players take a game without that rule
    /// ([`SavedSeat::take_back_tie_stake`](crate::save::SavedSeat::take_back_tie_stake) in
    /// `new_table`), as a player picks up the chips when leaving a table.
    fn keep_bankrolls(&mut self, table: &Table) {
        for (id, seat) in self.seats.seats[..usize::from(self.seats.count)].iter_mut().enumerate() {
            let id = id as SeatId;
            let staked =
                Spot::ALL.iter().fold(Money::ZERO, |sum, &spot| sum.checked_add(table.stake(id, spot)).unwrap_or(sum));
            // Zero at a table without the rule.
            seat.tie_stake = table.tie_stays(id);
            let staked = staked.saturating_sub(seat.tie_stake);
            seat.bankroll = table.bankroll(id).unwrap_or(Money::ZERO).checked_add(staked).unwrap_or(Money::MAX);
        }
        self.keep_house(table);
    }

    /// When no person can cover the table's minimum (0.80 left after a commission bets
    /// nothing), everyone short of it starts again with the table's stake (as the original
    /// did when you broke); at Chemin de fer a lone seat that can play cannot play either.
    #[inline(never)]
    fn rebuy_if_broke(&mut self, table: &mut Table) {
        let count = usize::from(self.seats.count);
        let min = table.rules().min_bet;
        let solvent = |s: &crate::save::SavedSeat| s.can_play(min);
        let humans_ok = self.seats.seats[..count].iter().any(|s| s.kind == SeatKind::Human && solvent(s));
        let players_ok = self.seats.seats[..count].iter().filter(|s| solvent(s)).count() >= 2
            || table.rules().banking != Banking::Seats;
        if humans_ok && players_ok {
            return;
        }
        self.clear_lines(ROW_MSG, 2);
        let msg = self.t(Msg::Broke);
        self.message(ROW_MSG, &[msg], HIGHLIGHT);
        self.wait_key();
        let start = table.rules().starting_bankroll;
        for seat in self.seats.seats[..count].iter_mut() {
            if !seat.can_play(min) {
                seat.bankroll = start;
            }
        }
        if let Some(t) = self.new_table() {
            *table = t;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Lang;

    /// Issue 31's 40-column table: regions with room between them. However many seats
    /// there are, the lines keep their order, the felt ends over the messages, the last
    /// seat ends over the scoreboard, and with fewer than six seats one free row stays
    /// over the scoreboard and the others fall between the regions (under the felt
    /// first); six seats take every row. At 80 columns nothing moves.
    #[test]
    fn the_40_column_table_spreads_its_regions_over_the_rows_the_seats_leave() {
        for seats in 1..=MAX_SAVED_SEATS as u8 {
            let r = table_rows(40, seats);
            let cards_end = ROW_CARDS + LAYOUTS[0].card_h;
            let felt_end = cards_end + u8::from(room_for(seats) > 0);
            let seats_end = r.seats + seats;
            assert!(felt_end <= r.msg, "{seats} seats: {r:?}");
            assert!(r.msg < r.msg2 && r.msg2 < r.chips && r.chips < r.seats_head, "{seats} seats: {r:?}");
            assert_eq!(r.seats, r.seats_head + 1);
            assert!(seats_end <= ROW_BOARD && r.keys == ROW_KEYS, "{seats} seats: {r:?}");
            let gaps = (r.msg - cards_end) + (r.chips - r.msg2 - 1) + (r.seats_head - r.chips - 1);
            let free = MAX_SAVED_SEATS as u8 - seats;
            assert_eq!(gaps + (ROW_BOARD - seats_end), free, "{seats} seats: every free row is somewhere");
            if free > 0 {
                assert!(ROW_BOARD - seats_end >= 1, "{seats} seats: a free row over the scoreboard");
            }
            if free > 1 {
                assert_eq!(r.msg, ROW_MSG + 1, "{seats} seats: the next free row goes under the felt");
            }
            if free >= 4 {
                assert_eq!(gaps, 3, "{seats} seats: a row between each region");
            }
            assert_eq!(table_rows(80, seats), table_rows(80, 1));
        }
        assert_eq!(table_rows(40, 6).msg, ROW_MSG);
        let eighty = table_rows(80, 3);
        assert_eq!((eighty.msg, eighty.msg2, eighty.chips, eighty.seats_head, eighty.seats), (11, 12, 14, 16, 18));
    }

    /// The 40-column settle leaves each result to the derived roads' next catch-up (the
    /// next deal's first pause, or a redraw at 80 columns): however the catch-ups fall,
    /// the roads end as if every result had been pushed at once, none lost or doubled.
    #[test]
    fn results_left_to_the_derived_roads_catch_up_in_order() {
        let mut seed = 0x2545_f491u32;
        for catch_up_every in 1..5 {
            let (mut at_once, mut view) = (Roads::new(), View::new());
            for i in 0..70 {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                let w =
                    [Winner::Player, Winner::Banker, Winner::Banker, Winner::Player, Winner::Tie][seed as usize % 5];
                at_once.push(w);
                view.catch_up_roads();
                view.roads_due = Some(w);
                if i % catch_up_every == 0 {
                    view.catch_up_roads();
                }
            }
            view.catch_up_roads();
            assert_eq!(format!("{:?}", view.roads), format!("{at_once:?}"), "catching up every {catch_up_every}");
        }
    }

    #[test]
    fn a_hands_total_stands_apart_from_its_head_and_the_next_hand_at_both_widths() {
        for l in &LAYOUTS {
            for lang in [Lang::English, Lang::French] {
                for (x, head, next) in [(l.player_x, Msg::Player, l.banker_x), (l.banker_x, Msg::Banker, l.width)] {
                    let total = x + TOTAL_AT;
                    assert!(x + head.text(lang).len() as u8 + 1 < total, "{head:?} {lang:?} at {}", l.width);
                    // A total is one digit, and the next hand's head needs a cell of cloth before it.
                    assert!(total + 1 < next, "{head:?} {lang:?} at {}", l.width);
                }
            }
        }
    }
}
