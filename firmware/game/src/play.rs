//! The table: bets with chips as in seed 001, the coup dealt card by card with the
//! third-card rule called out, every payout shown and applied, Chemin de fer's bank, and
//! the scoreboard of the shoe.

use bac_rules::{
    Asker, Banking, BetResult, Builtin, Card, Decision, Event, EventSink, Money, Outcome, Question, SeatId, SeatKind,
    ShoeNews, Side, Spot, Strategy, Table, TableError, TableStep, Winner, optimal,
};

use crate::app::{App, Leave};
use crate::draw::{self, BACKGROUND, CARD_H, CARD_W, HIGHLIGHT, INK, glyph};
use crate::help;
use crate::num;
use crate::platform::{Colour, Platform, Sound, colour, key};
use crate::scoreboard::{self, History};
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
/// Frames between two cards: half a second on PAL, a dealer's pace.
const DEAL_FRAMES: u8 = 25;
const MAX_EVENTS: usize = 24;

/// Where things go on a screen of 40 or 80 columns.
struct Layout {
    player_x: u8,
    banker_x: u8,
    card_step: u8,
    name_w: u8,
    roll_end: u8,
    stake_end: [u8; 3],
    bead_w: u8,
    road_x: u8,
    road_w: u8,
}

fn layout(cols: u8) -> Layout {
    if cols == 80 {
        Layout {
            player_x: 6,
            banker_x: 46,
            card_step: CARD_W + 1,
            name_w: 12,
            roll_end: 30,
            stake_end: [44, 58, 72],
            bead_w: 24,
            road_x: 26,
            road_w: 54,
        }
    } else {
        Layout {
            player_x: 1,
            banker_x: 21,
            card_step: CARD_W,
            name_w: 9,
            roll_end: 19,
            stake_end: [26, 33, 40],
            bead_w: 12,
            road_x: 13,
            road_w: 27,
        }
    }
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
}

impl EventSink for Log {
    fn event(&mut self, event: Event) {
        if self.len < MAX_EVENTS {
            self.events[self.len] = event;
            self.len += 1;
        }
    }
}

/// What the table screen remembers between coups.
#[derive(Clone, Debug)]
pub struct View {
    /// The results of this shoe.
    pub history: History,
    /// How each seat's bets ended, shown until the next bets.
    results: [[Option<(Money, BetResult)>; 3]; crate::save::MAX_SAVED_SEATS],
    /// Cards drawn for the bank, shown beside the seats.
    drew: [Option<Card>; crate::save::MAX_SAVED_SEATS],
    /// The chip in hand.
    chip: u8,
    /// Coups settled since the program started.
    coups: u16,
}

impl View {
    /// A fresh view: empty scoreboard, the smallest chip.
    pub const fn new() -> View {
        View {
            history: History::new(),
            results: [[None; 3]; crate::save::MAX_SAVED_SEATS],
            drew: [None; crate::save::MAX_SAVED_SEATS],
            chip: 0,
            coups: 0,
        }
    }
}

impl Default for View {
    fn default() -> View {
        View::new()
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
            self.draw_table(&table);
            let bets = if table.rules().banking == Banking::Seats {
                self.chemin_bets(&mut table)
            } else {
                self.house_bets(&mut table)
            };
            if let Bets::Leave(leave) = bets {
                break leave;
            }
            self.deal_coup(&mut table);
        };
        // Stakes still on the table go back to their seats' bankrolls (keep_bankrolls
        // counts them), so leaving never costs money.
        self.keep_bankrolls(&table);
        if leave == Leave::Options {
            self.table = Some(table);
        }
        leave
    }

    #[inline(never)]
    fn new_table(&mut self) -> Option<Table> {
        let mut table = Table::new(self.settings.rules(), self.p.ticks() | 1).ok()?;
        for seat in &self.seats.seats[..usize::from(self.seats.count)] {
            table.sit(seat.kind, Some(seat.bankroll)).ok()?;
        }
        self.view = View::new();
        Some(table)
    }

    /// Copies the table's bankrolls, with whatever is staked, back to the seats.
    fn keep_bankrolls(&mut self, table: &Table) {
        for (id, seat) in self.seats.seats[..usize::from(self.seats.count)].iter_mut().enumerate() {
            let id = id as SeatId;
            let staked =
                Spot::ALL.iter().fold(Money::ZERO, |sum, &spot| sum.checked_add(table.stake(id, spot)).unwrap_or(sum));
            seat.bankroll = table.bankroll(id).unwrap_or(Money::ZERO).checked_add(staked).unwrap_or(Money::MAX);
        }
    }

    /// When no person has money left, everyone starts again with the table's stake (as the
    /// original did when you broke); at Chemin de fer a lone solvent seat cannot play either.
    #[inline(never)]
    fn rebuy_if_broke(&mut self, table: &mut Table) {
        let count = usize::from(self.seats.count);
        let solvent = |s: &crate::save::SavedSeat| s.bankroll > Money::ZERO;
        let humans_ok = self.seats.seats[..count].iter().any(|s| s.kind == SeatKind::Human && solvent(s));
        let players_ok = self.seats.seats[..count].iter().filter(|s| solvent(s)).count() >= 2
            || table.rules().banking != Banking::Seats;
        if humans_ok && players_ok {
            return;
        }
        draw::clear_rows(&mut self.p, ROW_MSG, 2);
        let msg = self.t(Msg::Broke);
        draw::centred(&mut self.p, ROW_MSG, msg, HIGHLIGHT);
        self.wait_key();
        let start = table.rules().starting_bankroll;
        for seat in self.seats.seats[..count].iter_mut() {
            if seat.bankroll == Money::ZERO {
                seat.bankroll = start;
            }
        }
        if let Some(t) = self.new_table() {
            *table = t;
        }
    }

    // ---- Drawing -------------------------------------------------------------------------

    #[inline(never)]
    fn draw_table(&mut self, table: &Table) {
        let cols = self.p.columns();
        self.p.set_columns(cols, BACKGROUND);
        self.draw_head(table);
        let l = layout(cols);
        let (player, banker) = (self.t(Msg::Player), self.t(Msg::Banker));
        draw::text(&mut self.p, l.player_x, ROW_LABELS, player, colour::LIGHT_BLUE);
        draw::text(&mut self.p, l.banker_x, ROW_LABELS, banker, colour::LIGHT_RED);
        self.draw_seats(table, None);
        self.draw_board();
    }

    fn draw_head(&mut self, table: &Table) {
        let cols = self.p.columns();
        draw::clear_rows(&mut self.p, ROW_HEAD, 2);
        let name = self.t(Msg::preset(table.rules().preset));
        let end = draw::text_reversed(&mut self.p, 0, ROW_HEAD, b" ", HIGHLIGHT);
        let end = draw::text_reversed(&mut self.p, end, ROW_HEAD, name, HIGHLIGHT);
        draw::text_reversed(&mut self.p, end, ROW_HEAD, b" ", HIGHLIGHT);
        let shoe = table.shoe();
        if shoe.remaining() == 0 {
            // Not shuffled yet: the first deal shuffles.
            scoreboard::counts(&mut self.p, 1, ROW_HEAD + 1, table.tally());
            return;
        }
        let mut right = cols;
        if let Some(cut) = shoe.before_cut() {
            let n = num::number(u32::from(cut));
            draw::text_right(&mut self.p, right, ROW_HEAD, n.as_bytes(), INK);
            right -= n.len() + 1;
            let label = self.t(Msg::Cut);
            draw::text_right(&mut self.p, right, ROW_HEAD, label, colour::LIGHT_GREY);
            right -= label.len() as u8 + 1;
        }
        let n = num::number(u32::from(shoe.remaining()));
        draw::text_right(&mut self.p, right, ROW_HEAD, n.as_bytes(), INK);
        right -= n.len() + 1;
        let label = self.t(Msg::CardsLeft);
        draw::text_right(&mut self.p, right, ROW_HEAD, label, colour::LIGHT_GREY);
        scoreboard::counts(&mut self.p, 1, ROW_HEAD + 1, table.tally());
    }

    fn draw_board(&mut self) {
        let l = layout(self.p.columns());
        scoreboard::bead_plate(&mut self.p, 0, ROW_BOARD, l.bead_w, &self.view.history);
        self.p.fill(l.bead_w, ROW_BOARD, 1, scoreboard::ROWS, glyph::LINE_V, colour::LIGHT_GREY);
        scoreboard::draw_big_road(&mut self.p, l.road_x, ROW_BOARD, l.road_w, &self.view.history);
    }

    fn draw_seats(&mut self, table: &Table, active: Option<SeatId>) {
        let l = layout(self.p.columns());
        let cols = self.p.columns();
        draw::clear_rows(&mut self.p, ROW_SEATS_HEAD, 1 + crate::save::MAX_SAVED_SEATS as u8);
        let chemin = table.rules().banking == Banking::Seats;
        let heads = if chemin { [Msg::Punto, Msg::Bank, Msg::Empty] } else { [Msg::Player, Msg::Banker, Msg::Tie] };
        let bankroll = self.t(Msg::Bankroll);
        draw::text_right(&mut self.p, l.roll_end, ROW_SEATS_HEAD, bankroll, colour::LIGHT_GREY);
        for (end, head) in l.stake_end.iter().zip(heads) {
            let h = self.t(head);
            draw::text_right(&mut self.p, *end, ROW_SEATS_HEAD, h, colour::LIGHT_GREY);
        }
        for id in 0..self.seats.count {
            let y = ROW_SEATS + id;
            let seat = self.seats.seats[usize::from(id)];
            let ink = if Some(id) == active { HIGHLIGHT } else { INK };
            let x = if cols == 80 { 2 } else { 0 };
            let name = seat.name.as_bytes();
            let name = &name[..name.len().min(usize::from(l.name_w))];
            if Some(id) == active {
                draw::text_reversed(&mut self.p, x, y, name, ink);
            } else {
                draw::text(&mut self.p, x, y, name, ink);
            }
            if chemin && table.banker() == Some(id) {
                self.p.put(x + l.name_w, y, draw::screen_code(b'*'), HIGHLIGHT);
            }
            let roll = num::money(table.bankroll(id).unwrap_or(Money::ZERO), self.settings.lang);
            draw::text_right(&mut self.p, l.roll_end, y, roll.as_bytes(), ink);
            if let Some(card) = self.view.drew[usize::from(id)] {
                // Drawing for the bank: the card shows in the first stake column.
                let (pip, pink) = draw::suit(card.suit());
                let end = l.stake_end[0];
                let single = [card.rank_char()];
                let rank = if card.rank() == 10 { b"10".as_slice() } else { &single };
                draw::text_right(&mut self.p, end - 1, y, rank, INK);
                self.p.put(end - 1, y, pip, if pink == colour::BLACK { INK } else { pink });
                continue;
            }
            for (i, spot) in Spot::ALL.iter().enumerate() {
                let column = match spot {
                    Spot::Player => 0,
                    Spot::Banker => 1,
                    Spot::Tie => 2,
                };
                let end = l.stake_end[column];
                let stake = table.stake(id, *spot);
                let (text, ink) = match self.view.results[usize::from(id)][i] {
                    Some((_, BetResult::Won(w))) | Some((_, BetResult::WonAndStays(w))) => {
                        (num::signed(w, b'+', self.settings.lang), colour::LIGHT_GREEN)
                    }
                    Some((s, BetResult::Lost)) => (num::signed(s, b'-', self.settings.lang), colour::LIGHT_RED),
                    Some((s, BetResult::Push)) => (num::signed(s, b'=', self.settings.lang), colour::LIGHT_GREY),
                    None if stake > Money::ZERO => (num::money(stake, self.settings.lang), ink),
                    None => continue,
                };
                draw::text_right(&mut self.p, end, y, text.as_bytes(), ink);
            }
        }
    }

    fn message(&mut self, row: u8, parts: &[&[u8]], ink: Colour) {
        draw::clear_rows(&mut self.p, row, 1);
        let len: usize = parts.iter().map(|p| p.len()).sum();
        let mut x = self.p.columns().saturating_sub(len as u8) / 2;
        for part in parts {
            x = draw::text(&mut self.p, x, row, part, ink);
        }
    }

    fn say(&mut self, row: u8, msg: Msg, ink: Colour) {
        let text = self.t(msg);
        self.message(row, &[text], ink);
    }

    fn draw_chips(&mut self) {
        draw::clear_rows(&mut self.p, ROW_CHIPS, 1);
        let label = self.t(Msg::Chip);
        let mut x = self.p.columns().saturating_sub(label.len() as u8 + 26) / 2;
        x = draw::text(&mut self.p, x, ROW_CHIPS, label, colour::LIGHT_GREY) + 1;
        for (i, chip) in CHIP_LABELS.iter().enumerate() {
            x = if i as u8 == self.view.chip {
                draw::text_reversed(&mut self.p, x, ROW_CHIPS, chip, HIGHLIGHT)
            } else {
                draw::text(&mut self.p, x, ROW_CHIPS, chip, INK)
            } + 1;
        }
    }

    // ---- Betting -------------------------------------------------------------------------

    #[inline(never)]
    fn house_bets(&mut self, table: &mut Table) -> Bets {
        self.view.results = [[None; 3]; crate::save::MAX_SAVED_SEATS];
        for id in 0..self.seats.count {
            if self.seats.seats[usize::from(id)].kind != SeatKind::Human || table.bankroll(id) == Some(Money::ZERO) {
                continue;
            }
            if let Bets::Leave(l) = self.bet(table, id, Role::House) {
                return Bets::Leave(l);
            }
        }
        Bets::Deal
    }

    #[inline(never)]
    fn chemin_bets(&mut self, table: &mut Table) -> Bets {
        self.view.results = [[None; 3]; crate::save::MAX_SAVED_SEATS];
        if table.banker().is_none() {
            self.say(ROW_MSG, Msg::DrawForBank, HIGHLIGHT);
            let mut log = Log::new();
            if table.draw_for_bank(&mut log).is_err() {
                return Bets::Leave(Leave::Options);
            }
            for event in log.events() {
                if let Event::DrewForBank { seat, card } = *event {
                    self.view.drew[usize::from(seat)] = Some(card);
                    self.draw_seats(table, None);
                    self.sound(Sound::Card);
                    self.pause(DEAL_FRAMES);
                }
            }
            self.view.drew = [None; crate::save::MAX_SAVED_SEATS];
        }
        let Some(banker) = table.banker() else {
            return Bets::Leave(Leave::Options);
        };
        self.draw_head(table);
        let name = self.seats.seats[usize::from(banker)].name;
        let holds = self.t(Msg::HoldsBank);
        self.message(ROW_MSG, &[name.as_bytes(), holds], HIGHLIGHT);
        self.draw_seats(table, Some(banker));
        if self.is_human(banker) {
            if let Bets::Leave(l) = self.bet(table, banker, Role::Banker) {
                return Bets::Leave(l);
            }
        } else {
            let roll = table.bankroll(banker).unwrap_or(Money::ZERO).whole_units();
            let _ = table.stake_bank(Money::units((roll / 10).max(1).min(roll)), &mut Log::new());
            self.pause(DEAL_FRAMES);
        }
        let count = self.seats.count;
        for step in 1..count {
            let id = (banker + step) % count;
            if table.bankroll(id) == Some(Money::ZERO) {
                continue;
            }
            let banco = if self.is_human(id) {
                match self.bet(table, id, Role::Punter) {
                    Bets::Leave(l) => return Bets::Leave(l),
                    bets => matches!(bets, Bets::Banco),
                }
            } else {
                self.computer_punts(table, id)
            };
            if banco {
                break;
            }
        }
        Bets::Deal
    }

    /// A computer punter calls "Banco" on a bank it can easily cover, and otherwise bets a
    /// tenth of its money.
    fn computer_punts(&mut self, table: &mut Table, id: SeatId) -> bool {
        let roll = table.bankroll(id).unwrap_or(Money::ZERO);
        let bank = table.bank_stake();
        let name = self.seats.seats[usize::from(id)].name;
        let banco = bank <= roll.ratio(1, 4).unwrap_or(Money::ZERO) && table.banco(id, &mut Log::new()).is_ok();
        if banco {
            let says = self.t(Msg::CallsBanco);
            self.message(ROW_MSG2, &[name.as_bytes(), says], HIGHLIGHT);
        } else {
            let units = (roll.whole_units() / 10).max(1).min(bank.whole_units().max(1));
            let _ = table.place(id, Spot::Player, Money::units(units));
        }
        self.draw_seats(table, Some(id));
        self.sound(Sound::Chip);
        self.pause(DEAL_FRAMES);
        banco
    }

    fn is_human(&self, id: SeatId) -> bool {
        self.seats.seats.get(usize::from(id)).is_some_and(|s| s.kind == SeatKind::Human)
    }

    #[inline(never)]
    fn bet(&mut self, table: &mut Table, id: SeatId, role: Role) -> Bets {
        let name = self.seats.seats[usize::from(id)].name;
        let prompt = match role {
            Role::House => Msg::PlaceBets,
            Role::Banker => Msg::StakeBank,
            Role::Punter => Msg::BancoOrBet,
        };
        let keys = match role {
            Role::House => Msg::KeysHouse,
            Role::Banker => Msg::KeysBank,
            Role::Punter => Msg::KeysPunter,
        };
        let mut redraw = true;
        let mut seats_changed = true;
        loop {
            if redraw {
                self.draw_head(table);
                self.draw_board();
                let p = self.t(prompt);
                self.message(ROW_MSG, &[name.as_bytes(), b": ", p], HIGHLIGHT);
                draw::clear_rows(&mut self.p, ROW_MSG2, 1);
                self.draw_chips();
                let k = self.t(keys);
                self.message(ROW_KEYS, &[k], colour::LIGHT_GREY);
                redraw = false;
            }
            // The seats are drawn again only when a stake moved: redrawing them takes frames,
            // and a key typed meanwhile could be missed.
            if seats_changed {
                self.draw_seats(table, Some(id));
            }
            let chip = Money::units(CHIPS[usize::from(self.view.chip)]);
            let k = self.wait_key();
            let result = match (k, role) {
                (k @ b'1'..=b'8', _) => {
                    self.view.chip = k - b'1';
                    self.draw_chips();
                    Ok(())
                }
                (key::RIGHT, _) => {
                    self.view.chip = (self.view.chip + 1) % CHIPS.len() as u8;
                    self.draw_chips();
                    Ok(())
                }
                (key::LEFT, _) => {
                    self.view.chip = (self.view.chip + CHIPS.len() as u8 - 1) % CHIPS.len() as u8;
                    self.draw_chips();
                    Ok(())
                }
                (b'P', Role::House | Role::Punter) => table.place(id, Spot::Player, chip),
                (b'B', Role::House) => table.place(id, Spot::Banker, chip),
                (b'T' | b'E', Role::House) => table.place(id, Spot::Tie, chip),
                (b'B', Role::Banker) => table.stake_bank(chip, &mut Log::new()),
                (b'B', Role::Punter) => {
                    let r = table.banco(id, &mut Log::new());
                    if r.is_ok() {
                        self.sound(Sound::Chip);
                        return Bets::Banco;
                    }
                    r
                }
                (b'C', _) => table.clear(id),
                (key::RETURN, Role::Banker) if table.bank_stake() == Money::ZERO => Err(TableError::NoBankStake),
                (key::RETURN, _) => return Bets::Deal,
                (key::HELP | key::F5, _) => {
                    help::show(&mut self.p, self.settings.lang);
                    self.draw_table(table);
                    redraw = true;
                    Ok(())
                }
                (key::STOP | key::ESC, _) => {
                    match self.leave_prompt() {
                        Some(l) => {
                            let _ = table.clear(id);
                            return Bets::Leave(l);
                        }
                        None => redraw = true,
                    }
                    Ok(())
                }
                _ => Err(TableError::NothingAsked),
            };
            let chip_key = matches!(k, b'1'..=b'8' | key::RIGHT | key::LEFT);
            seats_changed = redraw || (result.is_ok() && !chip_key);
            match result {
                Ok(()) => {
                    if !redraw {
                        draw::clear_rows(&mut self.p, ROW_MSG2, 1);
                    }
                    self.sound(Sound::Chip);
                }
                Err(e) => {
                    self.sound(Sound::Error);
                    self.refusal(e);
                }
            }
        }
    }

    /// Says why a bet was refused.
    fn refusal(&mut self, e: TableError) {
        let (msg, amount) = match e {
            TableError::SpotClosed(_) => (Msg::SpotClosed, None),
            TableError::BelowMinimum(m) => (Msg::BelowMinimum, Some(m)),
            TableError::AboveMaximum(m) => (Msg::AboveMaximum, Some(m)),
            TableError::NotEnoughMoney(_) => (Msg::NotEnough, None),
            TableError::BankCannotCover => (Msg::BankCannotCover, None),
            TableError::BancoCalled => (Msg::BancoCalled, None),
            TableError::WrongSide => (Msg::WrongSide, None),
            TableError::NoBankStake => (Msg::StakeFirst, None),
            TableError::NoPunters => (Msg::NoPunters, None),
            TableError::NothingAsked => (Msg::UnknownKey, None),
            _ => (Msg::NotNow, None),
        };
        let text = self.t(msg);
        match amount {
            Some(m) => {
                let m = num::money(m, self.settings.lang);
                self.message(ROW_MSG2, &[text, b" ", m.as_bytes()], colour::LIGHT_RED);
            }
            None => self.message(ROW_MSG2, &[text], colour::LIGHT_RED),
        }
    }

    /// STOP at the table: quit to BASIC (saving), go to the options, or play on.
    fn leave_prompt(&mut self) -> Option<Leave> {
        self.say(ROW_MSG2, Msg::LeavePrompt, HIGHLIGHT);
        loop {
            match self.wait_key() {
                b'Y' | b'Q' => return Some(Leave::Quit),
                b'O' | key::F1 => return Some(Leave::Options),
                b'N' | key::STOP | key::ESC | key::RETURN => {
                    draw::clear_rows(&mut self.p, ROW_MSG2, 1);
                    return None;
                }
                _ => {}
            }
        }
    }

    // ---- The coup ------------------------------------------------------------------------

    #[inline(never)]
    fn deal_coup(&mut self, table: &mut Table) {
        let before = table.total_money().in_cents();
        let mut log = Log::new();
        let dealt = table.deal(&mut log);
        self.shoe_news(&log);
        if let Err(e) = dealt {
            self.refusal(e);
            // Nothing is dealt: every stake goes back (Chemin de fer with no punters).
            for id in 0..self.seats.count {
                let _ = table.clear(id);
            }
            self.draw_seats(table, None);
            self.pause(2 * DEAL_FRAMES);
            return;
        }
        draw::clear_rows(&mut self.p, ROW_MSG, 3);
        let l = layout(self.p.columns());
        for x in [l.player_x, l.banker_x] {
            self.p.fill(x, ROW_CARDS, 3 * l.card_step, CARD_H, glyph::SPACE, INK);
        }
        self.draw_seats(table, None);
        let mut count = [0u8; 2];
        let mut total = [0u8; 2];
        loop {
            let mut log = Log::new();
            let Ok(step) = table.step(&mut log) else {
                return;
            };
            self.shoe_news(&log);
            match step {
                TableStep::Card { side, card } => {
                    let i = usize::from(side == Side::Banker);
                    if count[i] == 2 {
                        self.explain_draw(side, total, count[0] == 3);
                    }
                    self.pause(DEAL_FRAMES);
                    let x = [l.player_x, l.banker_x][i] + count[i] * l.card_step;
                    draw::card(&mut self.p, x, ROW_CARDS, Some(card));
                    self.sound(Sound::Card);
                    count[i] += 1;
                    total[i] = (total[i] + card.points()) % 10;
                    let label_end = [l.player_x, l.banker_x][i] + 8;
                    let t = num::number(u32::from(total[i]));
                    draw::text(&mut self.p, label_end, ROW_LABELS, t.as_bytes(), HIGHLIGHT);
                    if count[0] == 3 && i == 0 {
                        // The Player hand's third card is known: the bank's rule now applies.
                        self.player_third = Some(card.points());
                    }
                }
                TableStep::Ask { question, asker } => {
                    let decision = match asker {
                        Asker::Seat(id) if self.is_human(id) => self.ask(question, id),
                        _ => {
                            let rules = table.rules();
                            let mut strategy = match optimal::solution(rules.draw, rules.decks) {
                                Some(solution) => Builtin::Optimal(solution),
                                None => Builtin::Casino,
                            };
                            strategy.decide(question, table.rng())
                        }
                    };
                    let mut log = Log::new();
                    let _ = table.answer(decision, &mut log);
                    let side = if question == Question::PlayerOnFive { Side::Player } else { Side::Banker };
                    let what = match (side, decision) {
                        (Side::Player, Decision::Draw) => Msg::PlayerTakes,
                        (Side::Player, Decision::Stand) => Msg::PlayerKeeps,
                        (Side::Banker, Decision::Draw) => Msg::BankerTakes,
                        (Side::Banker, Decision::Stand) => Msg::BankerKeeps,
                    };
                    self.say(ROW_MSG2, what, HIGHLIGHT);
                }
                TableStep::Settled(outcome) => {
                    self.player_third = None;
                    self.settle(table, &outcome, &log, count, before);
                    return;
                }
            }
        }
    }

    /// Calls out the rule behind a third card.
    fn explain_draw(&mut self, side: Side, total: [u8; 2], player_drew: bool) {
        let (who, t) = match side {
            Side::Player => (Msg::PlayerDrawsOn, total[0]),
            Side::Banker => (Msg::BankerDrawsOn, total[1]),
        };
        let who = self.t(who);
        let n = num::number(u32::from(t));
        match (side, player_drew, self.player_third) {
            (Side::Banker, true, Some(third)) => {
                let against = self.t(Msg::Against);
                let p = num::number(u32::from(third));
                self.message(ROW_MSG, &[who, n.as_bytes(), against, p.as_bytes()], INK);
            }
            _ => self.message(ROW_MSG, &[who, n.as_bytes()], INK),
        }
    }

    /// The shoe's news: a shuffle starts a new scoreboard; the cut card warns of the end.
    fn shoe_news(&mut self, log: &Log) {
        for event in log.events() {
            match event {
                Event::Shoe(ShoeNews::Shuffled) => {
                    self.view.history.clear();
                    self.say(ROW_MSG, Msg::Shuffling, HIGHLIGHT);
                    self.sound(Sound::Shuffle);
                    self.pause(2 * DEAL_FRAMES);
                }
                Event::Shoe(ShoeNews::CutCardOut) => {
                    self.say(ROW_MSG2, Msg::CutCardOut, HIGHLIGHT);
                    self.pause(DEAL_FRAMES);
                }
                Event::Returned { seat, amount } => {
                    let name = self.seats.seats[usize::from(*seat)].name;
                    let back = self.t(Msg::GetsBack);
                    let m = num::money(*amount, self.settings.lang);
                    self.message(ROW_MSG2, &[name.as_bytes(), back, m.as_bytes()], INK);
                    self.pause(DEAL_FRAMES);
                }
                _ => {}
            }
        }
    }

    /// Asks a person to draw or stand.
    fn ask(&mut self, question: Question, id: SeatId) -> Decision {
        let name = self.seats.seats[usize::from(id)].name;
        match question {
            Question::PlayerOnFive => {
                let q = self.t(Msg::YouHaveFive);
                self.message(ROW_MSG, &[name.as_bytes(), q], HIGHLIGHT);
            }
            Question::Banker { total, player_third } => {
                let bank = self.t(Msg::BankHas);
                let t = num::number(u32::from(total));
                match player_third {
                    Some(p) => {
                        let against = self.t(Msg::Against);
                        let p = num::number(u32::from(p));
                        self.message(ROW_MSG, &[name.as_bytes(), bank, t.as_bytes(), against, p.as_bytes()], HIGHLIGHT);
                    }
                    None => {
                        let stood = self.t(Msg::PlayerStood);
                        self.message(ROW_MSG, &[name.as_bytes(), bank, t.as_bytes(), stood], HIGHLIGHT);
                    }
                }
            }
        }
        self.say(ROW_MSG2, Msg::DrawOrStand, HIGHLIGHT);
        loop {
            match self.wait_key() {
                b'D' => return Decision::Draw,
                b'S' | b'R' => return Decision::Stand,
                key::HELP | key::F5 => {
                    help::show(&mut self.p, self.settings.lang);
                    return self.ask_again(question, id);
                }
                _ => self.sound(Sound::Error),
            }
        }
    }

    fn ask_again(&mut self, question: Question, id: SeatId) -> Decision {
        // The help screen wiped the table; the cards are not redrawn, the question is.
        self.p.set_columns(self.p.columns(), BACKGROUND);
        self.ask(question, id)
    }

    #[inline(never)]
    fn settle(&mut self, table: &Table, outcome: &Outcome, log: &Log, count: [u8; 2], before: u32) {
        let (pt, bt) = (outcome.player_total(), outcome.banker_total());
        if outcome.natural() {
            let n = num::number(u32::from(pt.max(bt)));
            let natural = self.t(Msg::Natural);
            self.message(ROW_MSG, &[natural, n.as_bytes()], INK);
        } else if count[1] == 2 {
            let stands = self.t(Msg::BankerStandsOn);
            let n = num::number(u32::from(bt));
            self.message(ROW_MSG, &[stands, n.as_bytes()], INK);
        }
        let (win, ink) = match outcome.winner {
            Winner::Player => (Msg::PlayerWins, colour::LIGHT_BLUE),
            Winner::Banker => (Msg::BankerWins, colour::LIGHT_RED),
            Winner::Tie => (Msg::TieResult, colour::YELLOW),
        };
        let (p, b) = (num::number(u32::from(pt)), num::number(u32::from(bt)));
        let w = self.t(win);
        self.message(ROW_MSG2, &[w, b"  ", p.as_bytes(), b"-", b.as_bytes()], ink);
        let mut net_win = false;
        let mut net_loss = false;
        for event in log.events() {
            if let Event::Settled { seat, spot, stake, result } = *event {
                let i = spot.index();
                if let Some(slot) = self.view.results.get_mut(usize::from(seat)) {
                    slot[i] = Some((stake, result));
                }
                if self.is_human(seat) {
                    match result {
                        BetResult::Won(_) | BetResult::WonAndStays(_) => net_win = true,
                        BetResult::Lost => net_loss = true,
                        BetResult::Push => {}
                    }
                }
            }
        }
        self.view.history.push(outcome.winner);
        self.view.coups = self.view.coups.wrapping_add(1);
        self.p.settled(self.view.coups, before, table.total_money().in_cents());
        self.draw_seats(table, None);
        self.draw_head(table);
        self.draw_board();
        if net_win {
            self.sound(Sound::Win);
        } else if net_loss {
            self.sound(Sound::Loss);
        }
        let next = self.t(Msg::NextCoup);
        self.message(ROW_KEYS, &[next], colour::LIGHT_GREY);
        self.wait_key();
    }
}
