//! Taking the bets: the house-banked games' round of bets, Chemin de fer's bank and
//! punts (banco among them), each seat's chips, the computer players' bets, and the keys
//! that leave the table.

use super::*;

impl<P: Platform> App<P> {
    #[inline(never)]
    pub(super) fn house_bets(&mut self, table: &mut Table) -> Bets {
        self.view.results = [[None; 3]; crate::save::MAX_SAVED_SEATS];
        if self.view.ahead == Some(REPEAT_KEY) {
            self.view.ahead = None;
            if self.repeat_bets(table) {
                return Bets::Deal;
            }
        }
        let min = table.rules().min_bet;
        for id in 0..self.seats.count {
            // A person who can stake nothing (less than the table's minimum) and has nothing
            // on the table sits the coup out.
            let can_play = table.bankroll(id).is_some_and(|b| b >= min) || table.tie_stays(id) > Money::ZERO;
            if self.seats.seats[usize::from(id)].kind != SeatKind::Human || !can_play {
                continue;
            }
            if let Bets::Leave(l) = self.bet(table, id, Role::House) {
                return Bets::Leave(l);
            }
        }
        Bets::Deal
    }

    #[inline(never)]
    pub(super) fn chemin_bets(&mut self, table: &mut Table) -> Bets {
        self.view.results = [[None; 3]; crate::save::MAX_SAVED_SEATS];
        if table.banker().is_none() {
            self.draw_for_bank(table);
        }
        let banker = loop {
            let Some(banker) = table.banker() else {
                return Bets::Leave(Leave::Options);
            };
            self.draw_head(table);
            let name = self.seats.seats[usize::from(banker)].name;
            let holds = self.t(Msg::HoldsBank);
            self.message(ROW_MSG, &[name.as_bytes(), holds], HIGHLIGHT);
            self.draw_seats(table, Some(banker));
            if !self.is_human(banker) {
                let roll = table.bankroll(banker).unwrap_or(Money::ZERO).whole_units();
                let _ = table.stake_bank(Money::units((roll / 10).max(1).min(roll)), &mut Log::new());
                self.pause(DEAL_FRAMES);
                break banker;
            }
            match self.bet(table, banker, Role::Banker) {
                Bets::Leave(l) => return Bets::Leave(l),
                Bets::GiveUp => {
                    let mut log = Log::new();
                    let _ = table.give_up_bank(&mut log);
                    let gives_up = self.t(Msg::GivesUpBank);
                    self.message(ROW_MSG, &[name.as_bytes(), gives_up], HIGHLIGHT);
                    self.clear_lines(ROW_MSG2, 1);
                    self.pause(DEAL_FRAMES);
                    self.shoe_news(&log);
                }
                _ => break banker,
            }
        };
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
                return Bets::Deal;
            }
        }
        self.match_the_bank(table, banker);
        Bets::Deal
    }

    /// [`REPEAT_KEY`] at the settled screen: each person's stakes brought back up to the
    /// last coup's, spot by spot (a Sahara tie stake that stayed counts as staked). True if
    /// something is staked and the coup can be dealt; false if nothing was bet last time,
    /// or the table refused a stake (the refusal is shown, the stakes placed stay, and the
    /// bets go on as usual).
    #[inline(never)]
    fn repeat_bets(&mut self, table: &mut Table) -> bool {
        let mut staked = false;
        for id in 0..self.seats.count {
            if !self.is_human(id) {
                continue;
            }
            for spot in Spot::ALL {
                let (last, now) = (self.view.last_bets[usize::from(id)][spot.index()], table.stake(id, spot));
                if last > now {
                    if let Err(e) = Self::place(table, id, spot, last.saturating_sub(now)) {
                        self.draw_seats(table, Some(id));
                        self.sound(Sound::Error);
                        self.refusal(e);
                        self.pause(2 * DEAL_FRAMES);
                        return false;
                    }
                    staked = true;
                }
            }
        }
        staked
    }

    /// Seed 004: "The player who draws the highest card is the dealer". Each seat's card is
    /// turned in turn; the banker's mark shows only once every card is up.
    fn draw_for_bank(&mut self, table: &mut Table) {
        self.say(ROW_MSG, Msg::DrawForBank, HIGHLIGHT);
        let mut log = Log::new();
        if table.draw_for_bank(&mut log).is_err() {
            return;
        }
        self.view.drawing_for_bank = true;
        // The seats that drew in this round: one drawing again starts the next round, after
        // a tie for the highest card.
        let mut drawn = 0u8;
        for event in log.events() {
            if let Event::DrewForBank { seat, card } = *event {
                let bit = 1 << (seat & 7);
                if drawn & bit != 0 {
                    drawn = 0;
                    self.say(ROW_MSG, Msg::DrawAgain, HIGHLIGHT);
                    self.pause(2 * DEAL_FRAMES);
                }
                drawn |= bit;
                self.view.drew[usize::from(seat)] = Some(card);
                self.draw_seats(table, None);
                self.sound(Sound::Card);
                self.pause(DEAL_FRAMES);
            }
        }
        self.view.drawing_for_bank = false;
        self.draw_seats(table, None);
        self.pause(2 * DEAL_FRAMES);
        self.view.drew = [None; crate::save::MAX_SAVED_SEATS];
    }

    /// Seed 004: "If the total of the players' bets is less than that of the dealer, any
    /// player makes up the deficit. If the total of the players' bets is more than that of
    /// the dealer, the dealer can make up the deficit or return the excess bets." People are
    /// asked; a computer makes up a deficit, or covers an excess as banker, when it costs
    /// no more than a quarter of its money. What nobody matches goes back at the deal (the
    /// deal's log says who gets what back).
    fn match_the_bank(&mut self, table: &mut Table, banker: SeatId) {
        let (bank, punted) = (table.bank_stake(), table.punted());
        if punted == Money::ZERO || bank == punted {
            return;
        }
        if bank > punted {
            let short = bank.saturating_sub(punted);
            let count = self.seats.count;
            for step in 1..count {
                let id = (banker + step) % count;
                if self.will_add(table, id, short, Msg::BankShort, Msg::MakeUpKeys, b'M', b'N')
                    && table.place(id, Spot::Player, short).is_ok()
                {
                    self.announce(table, id, Msg::MakesUp, short);
                    return;
                }
            }
        } else {
            let over = punted.saturating_sub(bank);
            if self.will_add(table, banker, over, Msg::BetsOver, Msg::CoverKeys, b'C', b'R')
                && table.stake_bank(over, &mut Log::new()).is_ok()
            {
                self.announce(table, banker, Msg::Covers, over);
            }
        }
        self.clear_lines(ROW_MSG2, 1);
    }

    /// Whether seat `id` puts `amount` more on the table: a person is asked (`yes` or `no`),
    /// a computer says yes when `amount` is at most a quarter of its money. Nobody is asked
    /// for more than they have.
    #[allow(clippy::too_many_arguments, reason = "the two prompts and their keys are one question")]
    fn will_add(&mut self, table: &Table, id: SeatId, amount: Money, why: Msg, keys: Msg, yes: u8, no: u8) -> bool {
        let roll = table.bankroll(id).unwrap_or(Money::ZERO);
        if roll < amount {
            return false;
        }
        if !self.is_human(id) {
            return amount <= roll.ratio(1, 4).unwrap_or(Money::ZERO);
        }
        let m = num::money(amount, self.settings.lang);
        let why = self.t(why);
        self.message(ROW_MSG, &[why, m.as_bytes()], HIGHLIGHT);
        let name = self.seats.seats[usize::from(id)].name;
        let keys = self.t(keys);
        self.message(ROW_MSG2, &[name.as_bytes(), keys], HIGHLIGHT);
        self.clear_lines(ROW_KEYS, 1);
        self.draw_seats(table, Some(id));
        loop {
            match self.wait_key() {
                k if k == yes => return true,
                k if k == no || k == key::RETURN => return false,
                _ => self.sound(Sound::Error),
            }
        }
    }

    /// Says that seat `id` put `amount` more on the table, and shows it.
    fn announce(&mut self, table: &Table, id: SeatId, what: Msg, amount: Money) {
        let name = self.seats.seats[usize::from(id)].name;
        let what = self.t(what);
        let m = num::money(amount, self.settings.lang);
        self.message(ROW_MSG, &[name.as_bytes(), what, m.as_bytes()], HIGHLIGHT);
        self.clear_lines(ROW_MSG2, 1);
        self.draw_seats(table, Some(id));
        self.sound(Sound::Chip);
        self.pause(DEAL_FRAMES);
    }

    /// A computer punter calls "Banco" on a bank it can easily cover, and otherwise bets a
    /// tenth of its money.
    pub(super) fn computer_punts(&mut self, table: &mut Table, id: SeatId) -> bool {
        let roll = table.bankroll(id).unwrap_or(Money::ZERO);
        let bank = table.bank_stake();
        let mut log = Log::new();
        let banco = bank <= roll.ratio(1, 4).unwrap_or(Money::ZERO) && table.banco(id, &mut log).is_ok();
        if banco {
            self.banco_called(table, id, &log);
            return true;
        }
        let units = (roll.whole_units() / 10).max(1).min(bank.whole_units().max(1));
        let _ = table.place(id, Spot::Player, Money::units(units));
        self.draw_seats(table, Some(id));
        self.sound(Sound::Chip);
        self.pause(DEAL_FRAMES);
        false
    }

    /// Shows a "Banco" and, one by one, the other punters' stakes it sent back.
    fn banco_called(&mut self, table: &Table, id: SeatId, log: &Log) {
        let name = self.seats.seats[usize::from(id)].name;
        let says = self.t(Msg::CallsBanco);
        self.message(ROW_MSG, &[name.as_bytes(), says], HIGHLIGHT);
        self.clear_lines(ROW_MSG2, 1);
        self.draw_seats(table, Some(id));
        self.sound(Sound::Chip);
        self.pause(DEAL_FRAMES);
        self.shoe_news(log);
    }

    pub(super) fn is_human(&self, id: SeatId) -> bool {
        self.seats.seats.get(usize::from(id)).is_some_and(|s| s.kind == SeatKind::Human)
    }

    #[inline(never)]
    pub(super) fn bet(&mut self, table: &mut Table, id: SeatId, role: Role) -> Bets {
        if self.view.typed_by != id {
            self.view.typed = None;
        }
        let name = self.seats.seats[usize::from(id)].name;
        let prompt = match role {
            Role::House => Msg::PlaceBets,
            Role::Banker => Msg::StakeBank,
            Role::Punter => Msg::BancoOrBet,
        };
        let pays = table.rules().pays;
        // The keys of the spots this game takes bets on (seed 002: no banker bets at Sahara;
        // seeds 003 and 004: the punter bets on the Player hand alone), the same letters in
        // both languages, then the rest of the line.
        let (spots, keys): (&[u8], Msg) = match role {
            Role::House if pays.banker.is_some() => (b"P B T", Msg::KeysHouse),
            Role::House if pays.tie.is_some() => (b"P T", Msg::KeysHouse),
            Role::House => (b"P", Msg::KeysHouse),
            Role::Banker => (b"", Msg::KeysBank),
            Role::Punter => (b"", Msg::KeysPunter),
        };
        let mut redraw = true;
        let mut seats_changed = true;
        // RETURN with nothing staked deals only when pressed again, after a warning.
        let mut warned = false;
        loop {
            if redraw {
                self.draw_head(table);
                self.draw_board();
                let p = self.t(prompt);
                self.message(ROW_MSG, &[name.as_bytes(), b": ", p], HIGHLIGHT);
                self.clear_lines(ROW_MSG2, 1);
                self.draw_chips();
                let k = self.t(keys);
                self.message(ROW_KEYS, &[spots, k], colour::LIGHT_GREY);
                redraw = false;
            }
            // The seats are drawn again only when a stake moved: redrawing them takes frames,
            // and a key typed meanwhile could be missed.
            if seats_changed {
                self.draw_seats(table, Some(id));
            }
            let chip = self.view.typed.unwrap_or(Money::units(CHIPS[usize::from(self.view.chip)]));
            // A key typed at the settled screen is the first one here.
            let k = match self.view.ahead.take() {
                Some(k) => k,
                None => self.wait_key(),
            };
            if matches!(k, b'1'..=b'8' | key::RIGHT | key::LEFT) {
                self.view.typed = None;
            }
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
                (b'A', _) => {
                    self.type_amount(table, id);
                    continue;
                }
                (b'P', Role::House | Role::Punter) => Self::place(table, id, Spot::Player, chip),
                (b'B', Role::House) => Self::place(table, id, Spot::Banker, chip),
                (b'T' | b'E', Role::House) => Self::place(table, id, Spot::Tie, chip),
                (b'B', Role::Banker) => table.stake_bank(chip, &mut Log::new()),
                (b'B', Role::Punter) => {
                    let mut log = Log::new();
                    let r = table.banco(id, &mut log);
                    if r.is_ok() {
                        self.banco_called(table, id, &log);
                        return Bets::Banco;
                    }
                    r
                }
                (b'P', Role::Banker) => return Bets::GiveUp,
                (b'C', _) => table.clear(id),
                (key::RETURN, Role::Banker) if table.bank_stake() == Money::ZERO => Err(TableError::NoBankStake),
                (key::RETURN, Role::House)
                    if !warned && Spot::ALL.iter().all(|&spot| table.stake(id, spot) == Money::ZERO) =>
                {
                    warned = true;
                    self.sound(Sound::Error);
                    self.say(ROW_MSG2, Msg::NoStake, HIGHLIGHT);
                    continue;
                }
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
                        self.clear_lines(ROW_MSG2, 1);
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

    /// [`Table::place`] for the game's people, refused at a house-banked table when the
    /// bet could take the seat past [`BANKROLL_CEILING`] if every stake won. A fresh bank
    /// replaces every bank a player breaks, so without a ceiling a bankroll grows without
    /// end, until the 32-bit cents of the save and of the table's sums overflow (issue 31:
    /// past 42.9 million the bank showed 0 and the game looped between the options and the
    /// title). At Chemin de fer the money only changes hands, so it needs none.
    fn place(table: &mut Table, id: SeatId, spot: Spot, amount: Money) -> Result<(), TableError> {
        if table.rules().banking != Banking::Seats && !within_ceiling(table, id, spot, amount) {
            return Err(TableError::Overflow);
        }
        table.place(id, spot, amount)
    }

    /// Says why a bet was refused.
    pub(super) fn refusal(&mut self, e: TableError) {
        let (msg, amount) = match e {
            TableError::SpotClosed(_) => (Msg::SpotClosed, None),
            TableError::BelowMinimum(m) => (Msg::BelowMinimum, Some(m)),
            TableError::AboveMaximum(m) => (Msg::AboveMaximum, Some(m)),
            TableError::NotEnoughMoney(_) => (Msg::NotEnough, None),
            // Only the ceiling's check (`App::place`) gives it: the rules' own sums cannot
            // overflow below it.
            TableError::Overflow => (Msg::Ceiling, Some(BANKROLL_CEILING)),
            TableError::BankCannotCover(house) => (Msg::BankHoldsOnly, Some(house)),
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
    pub(super) fn leave_prompt(&mut self) -> Option<Leave> {
        self.say(ROW_MSG2, Msg::LeavePrompt, HIGHLIGHT);
        loop {
            match self.wait_key() {
                b'Y' | b'Q' => return Some(Leave::Quit),
                b'O' | key::F1 => return Some(Leave::Options),
                b'N' | key::STOP | key::ESC | key::RETURN => {
                    self.clear_lines(ROW_MSG2, 1);
                    return None;
                }
                _ => {}
            }
        }
    }
}

/// The most a seat may hold at a house-banked table: ten million units, so that three
/// seats at the ceiling, their winnings and a fresh Punto Banco bank stay inside the 32-bit
/// cents of [`Money`] (42.9 million units). Each column of the seats' grid fits it
/// (`num::fitted`).
pub(super) const BANKROLL_CEILING: Money = Money::units(10_000_000);

/// Whether seat `id`, with `amount` more on `spot`, holds at most [`BANKROLL_CEILING`]
/// should every stake of its win: its bankroll and stakes now, plus the most each stake
/// can win.
fn within_ceiling(table: &Table, id: SeatId, spot: Spot, amount: Money) -> bool {
    let pays = table.rules().pays;
    let mut most = table.bankroll(id).unwrap_or(Money::ZERO);
    for each in Spot::ALL {
        let now = table.stake(id, each);
        let after = if each == spot { now.checked_add(amount) } else { Some(now) };
        let wins = match after {
            Some(Money::ZERO) => Some(Money::ZERO),
            Some(after) => pays.max_winnings(each, after),
            None => None,
        };
        match wins.and_then(|w| most.checked_add(now)?.checked_add(w)) {
            Some(m) => most = m,
            None => return false,
        }
    }
    most <= BANKROLL_CEILING
}
