//! A table: seats with bankrolls, a bank, a shoe, bets, and coups settled by the rules.
//!
//! Money only moves, it is never made: the sum of every bankroll, every stake on the table
//! and the house is the same before and after every call ([`Table::total_money`]).

use crate::card::Card;
use crate::coup::{Coup, CoupError, Outcome, Side, Step, Winner};
use crate::event::{Event, EventSink, SeatId};
use crate::money::Money;
use crate::payout::{BetResult, Spot};
use crate::rng::Xorshift32;
use crate::rules::{Banking, RuleSet};
use crate::shoe::{Shoe, ShoeError, ShoeNews};
use crate::strategy::{Decision, Question, Strategy};
use crate::tableau::DrawRules;

/// Up to four people by name plus computer players at Chemin de fer.
pub const MAX_SEATS: usize = 6;

/// Who sits in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// A person at the keyboard.
    Human,
    /// The computer, playing the optimal strategy.
    Computer,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seat {
    kind: SeatKind,
    bankroll: Money,
    stakes: [Money; 3],
    /// Part of the tie stake that stays from the last coup and cannot be withdrawn.
    locked_tie: Money,
}

/// Who must answer a question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asker {
    /// A seat: the Player hand's holder, or the Chemin de fer banker.
    Seat(SeatId),
    /// The house bank (Loadstar's options).
    House,
}

/// What a table step produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableStep {
    /// A card went to a hand.
    Card {
        /// The hand.
        side: Side,
        /// The card.
        card: Card,
    },
    /// A choice is needed: answer with [`Table::answer`].
    Ask {
        /// The choice.
        question: Question,
        /// Who makes it.
        asker: Asker,
    },
    /// The coup is over and every bet is settled; the table takes bets again.
    Settled(Outcome),
}

/// A refused bet or a call out of turn. Each says what was wrong so the screen can say it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableError {
    /// The rules could not make a shoe.
    Shoe(ShoeError),
    /// All seats are taken.
    TableFull,
    /// No such seat.
    NoSeat(SeatId),
    /// This game takes no bets on that spot.
    SpotClosed(Spot),
    /// Stakes are whole units.
    NotWholeUnits,
    /// Below the table minimum.
    BelowMinimum(Money),
    /// Above the table maximum for one spot.
    AboveMaximum(Money),
    /// More than the seat's bankroll.
    NotEnoughMoney(Money),
    /// The bank could not pay every bet on the table if it lost; it holds this much.
    BankCannotCover(Money),
    /// A sum would overflow.
    Overflow,
    /// Bets are closed while a coup is dealt.
    CoupInProgress,
    /// Dealing, answering or stepping when no coup is in progress.
    NoCoup,
    /// Nothing was asked.
    NothingAsked,
    /// Chemin de fer needs a banker first ([`Table::draw_for_bank`]).
    NoBanker,
    /// Chemin de fer: the bank has not staked.
    NoBankStake,
    /// Chemin de fer: nobody bet against the bank.
    NoPunters,
    /// Chemin de fer: the banker cannot bet against himself, nor punters stake the bank.
    WrongSide,
    /// Chemin de fer: betting closed after a "Banco".
    BancoCalled,
    /// Only a game with a seat bank has a banker to draw for or to stake.
    NotChemDeFer,
}

impl From<CoupError> for TableError {
    fn from(_: CoupError) -> TableError {
        TableError::NothingAsked
    }
}

/// Chemin de fer's rotating bank.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct SeatBank {
    banker: Option<SeatId>,
    banco: Option<SeatId>,
    holder: Option<SeatId>,
}

/// Counts of the shoe so far, for the scoreboard.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Player wins.
    pub player: u16,
    /// Banker wins.
    pub banker: u16,
    /// Ties.
    pub tie: u16,
}

/// A Baccarat table.
#[derive(Clone, Debug)]
pub struct Table {
    rules: RuleSet,
    shoe: Shoe,
    rng: Xorshift32,
    seats: [Option<Seat>; MAX_SEATS],
    house: Money,
    coup: Option<Coup>,
    bank: SeatBank,
    tally: Tally,
}

impl Table {
    /// A table with no seats, its shoe unshuffled, its generator seeded with `seed`.
    pub fn new(rules: RuleSet, seed: u32) -> Result<Table, TableError> {
        let shoe = Shoe::new(rules.decks, rules.end_of_shoe, rules.burn).map_err(TableError::Shoe)?;
        let house = match rules.banking {
            Banking::House(bank) => bank,
            Banking::Seats => Money::ZERO,
        };
        Ok(Table {
            rules,
            shoe,
            rng: Xorshift32::new(seed),
            seats: [None; MAX_SEATS],
            house,
            coup: None,
            bank: SeatBank::default(),
            tally: Tally::default(),
        })
    }

    /// The rules in force.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The shoe, for the cards-left display.
    pub fn shoe(&self) -> &Shoe {
        &self.shoe
    }

    /// The generator, for strategies driven outside [`Table::play_coup`].
    pub fn rng(&mut self) -> &mut Xorshift32 {
        &mut self.rng
    }

    /// Wins so far in this shoe.
    pub fn tally(&self) -> Tally {
        self.tally
    }

    /// The house bank (zero when the seats bank).
    pub fn house(&self) -> Money {
        self.house
    }

    /// Sets the house bank: one carried over from a saved game, or a fresh one after a
    /// player broke it (the Loadstar original starts a new bank of 1,000,000). The only call
    /// that changes the money at the table, so it is refused during a coup.
    pub fn set_house(&mut self, house: Money) -> Result<(), TableError> {
        if self.coup.is_some() {
            return Err(TableError::CoupInProgress);
        }
        if self.seat_banked() {
            return Err(TableError::WrongSide);
        }
        let others = self.total_money().checked_sub(self.house).ok_or(TableError::Overflow)?;
        others.checked_add(house).filter(|&t| t < Money::MAX).ok_or(TableError::Overflow)?;
        self.house = house;
        Ok(())
    }

    /// The part of a seat's tie stake that stays on the table for the next coup (seed 002:
    /// "the initial bet remains on the table for the next hand"); it cannot be taken back.
    pub fn tie_stays(&self, seat: SeatId) -> Money {
        self.seat(seat).map_or(Money::ZERO, |s| s.locked_tie)
    }

    /// Puts back a tie stake that stays (seed 002) on a seat of a new table: a saved game's,
    /// or one carried from the last table. It comes from outside the table, like a bankroll
    /// at [`Table::sit`].
    pub fn restore_tie_stake(&mut self, seat: SeatId, stake: Money) -> Result<(), TableError> {
        if self.coup.is_some() {
            return Err(TableError::CoupInProgress);
        }
        if self.rules.pays.odds(Spot::Tie).is_none() {
            return Err(TableError::SpotClosed(Spot::Tie));
        }
        self.total_money().checked_add(stake).filter(|&t| t < Money::MAX).ok_or(TableError::Overflow)?;
        let s = self.seat_mut(seat)?;
        s.stakes[Spot::Tie.index()] = s.stakes[Spot::Tie.index()].checked_add(stake).ok_or(TableError::Overflow)?;
        s.locked_tie = s.locked_tie.checked_add(stake).ok_or(TableError::Overflow)?;
        Ok(())
    }

    /// Seats a player with the preset's starting bankroll, or `bankroll` if given (a saved
    /// game). Returns the seat number.
    pub fn sit(&mut self, kind: SeatKind, bankroll: Option<Money>) -> Result<SeatId, TableError> {
        let bankroll = bankroll.unwrap_or(self.rules.starting_bankroll);
        self.total_money().checked_add(bankroll).ok_or(TableError::Overflow)?;
        let (index, slot) =
            self.seats.iter_mut().enumerate().find(|(_, s)| s.is_none()).ok_or(TableError::TableFull)?;
        *slot = Some(Seat { kind, bankroll, stakes: [Money::ZERO; 3], locked_tie: Money::ZERO });
        Ok(index as SeatId)
    }

    /// The seats in use, in order.
    pub fn seat_ids(&self) -> impl Iterator<Item = SeatId> + '_ {
        self.seats.iter().enumerate().filter(|(_, s)| s.is_some()).map(|(i, _)| i as SeatId)
    }

    /// Who sits in `seat`.
    pub fn kind(&self, seat: SeatId) -> Option<SeatKind> {
        self.seat(seat).ok().map(|s| s.kind)
    }

    /// A seat's money off the table.
    pub fn bankroll(&self, seat: SeatId) -> Option<Money> {
        self.seat(seat).ok().map(|s| s.bankroll)
    }

    /// A seat's stake on `spot`.
    pub fn stake(&self, seat: SeatId, spot: Spot) -> Money {
        self.seat(seat).map_or(Money::ZERO, |s| s.stakes[spot.index()])
    }

    /// Every bankroll, every stake and the house: constant for the life of the table.
    pub fn total_money(&self) -> Money {
        self.seats.iter().flatten().fold(self.house, |sum, seat| {
            seat.stakes.iter().fold(sum.checked_add(seat.bankroll).unwrap_or(Money::MAX), |sum, stake| {
                sum.checked_add(*stake).unwrap_or(Money::MAX)
            })
        })
    }

    /// True while a coup is being dealt.
    pub fn in_coup(&self) -> bool {
        self.coup.is_some()
    }

    fn seat(&self, id: SeatId) -> Result<&Seat, TableError> {
        self.seats.get(usize::from(id)).and_then(|s| s.as_ref()).ok_or(TableError::NoSeat(id))
    }

    fn seat_mut(&mut self, id: SeatId) -> Result<&mut Seat, TableError> {
        self.seats.get_mut(usize::from(id)).and_then(|s| s.as_mut()).ok_or(TableError::NoSeat(id))
    }

    fn seat_banked(&self) -> bool {
        self.rules.banking == Banking::Seats
    }

    /// Adds `amount` to a seat's stake on `spot`, taking it from the bankroll. Every check
    /// happens before anything moves.
    pub fn place(&mut self, seat: SeatId, spot: Spot, amount: Money) -> Result<(), TableError> {
        if self.coup.is_some() {
            return Err(TableError::CoupInProgress);
        }
        let rules = self.rules;
        if rules.pays.odds(spot).is_none() {
            return Err(TableError::SpotClosed(spot));
        }
        if self.seat_banked() {
            let banker = self.bank.banker.ok_or(TableError::NoBanker)?;
            if banker == seat {
                return Err(TableError::WrongSide);
            }
            if self.bank.banco.is_some() {
                return Err(TableError::BancoCalled);
            }
        }
        let current = self.seat(seat)?;
        if !amount.is_whole() {
            return Err(TableError::NotWholeUnits);
        }
        let new_stake = current.stakes[spot.index()].checked_add(amount).ok_or(TableError::Overflow)?;
        if new_stake < rules.min_bet {
            return Err(TableError::BelowMinimum(rules.min_bet));
        }
        if new_stake > rules.max_bet {
            return Err(TableError::AboveMaximum(rules.max_bet));
        }
        if amount > current.bankroll {
            return Err(TableError::NotEnoughMoney(current.bankroll));
        }
        if !self.seat_banked() {
            let exposure = self.exposure_with(seat, spot, new_stake).ok_or(TableError::Overflow)?;
            if exposure > self.house {
                return Err(TableError::BankCannotCover(self.house));
            }
        }
        let seat = self.seat_mut(seat)?;
        seat.bankroll = seat.bankroll.saturating_sub(amount);
        seat.stakes[spot.index()] = new_stake;
        Ok(())
    }

    /// What the house would pay out at most if every bet on the table won, with `seat`'s
    /// stake on `spot` replaced by `stake`.
    fn exposure_with(&self, seat: SeatId, spot: Spot, stake: Money) -> Option<Money> {
        let mut total = Money::ZERO;
        for (id, s) in self.seats.iter().enumerate() {
            let Some(s) = s else { continue };
            for each in Spot::ALL {
                let staked = if id == usize::from(seat) && each == spot { stake } else { s.stakes[each.index()] };
                if staked > Money::ZERO {
                    total = total.checked_add(self.rules.pays.max_winnings(each, staked)?)?;
                }
            }
        }
        Some(total)
    }

    /// Takes back a seat's stakes (all but a tie stake that the rules keep on the table). A
    /// "Banco" is off when its caller or the banker takes money back.
    pub fn clear(&mut self, seat: SeatId) -> Result<(), TableError> {
        if self.coup.is_some() {
            return Err(TableError::CoupInProgress);
        }
        if self.bank.banco == Some(seat) || self.bank.banker == Some(seat) {
            self.bank.banco = None;
        }
        let seat = self.seat_mut(seat)?;
        let mut back = Money::ZERO;
        for spot in Spot::ALL {
            let keep = if spot == Spot::Tie { seat.locked_tie } else { Money::ZERO };
            let stake = &mut seat.stakes[spot.index()];
            back = back.checked_add(stake.saturating_sub(keep)).ok_or(TableError::Overflow)?;
            *stake = keep;
        }
        seat.bankroll = seat.bankroll.checked_add(back).ok_or(TableError::Overflow)?;
        Ok(())
    }

    /// Chemin de fer: every seat with money draws a card; the highest rank (king high) takes
    /// the bank, ties draw again (seed 004: "The player who draws the highest card is the
    /// dealer").
    pub fn draw_for_bank(&mut self, sink: &mut impl EventSink) -> Result<SeatId, TableError> {
        if !self.seat_banked() {
            return Err(TableError::NotChemDeFer);
        }
        if self.coup.is_some() {
            return Err(TableError::CoupInProgress);
        }
        let mut in_draw = [false; MAX_SEATS];
        for (flag, seat) in in_draw.iter_mut().zip(self.seats.iter()) {
            *flag = seat.is_some_and(|s| s.bankroll > Money::ZERO);
        }
        loop {
            let mut best = 0u8;
            let mut ranks = [0u8; MAX_SEATS];
            let (shoe, rng) = (&mut self.shoe, &mut self.rng);
            shoe.begin_coup(rng, &mut |news| sink.event(Event::Shoe(news)));
            for (id, rank) in ranks.iter_mut().enumerate().filter(|(id, _)| in_draw[*id]) {
                let card = shoe.deal(rng, &mut |news| sink.event(Event::Shoe(news)));
                sink.event(Event::DrewForBank { seat: id as SeatId, card });
                *rank = card.rank();
                best = best.max(card.rank());
            }
            let mut leaders = 0;
            for (flag, rank) in in_draw.iter_mut().zip(ranks) {
                *flag = *flag && rank == best;
                leaders += u8::from(*flag);
            }
            if leaders == 0 {
                return Err(TableError::NoPunters);
            }
            if leaders == 1 {
                let seat = in_draw.iter().position(|&f| f).unwrap_or(0) as SeatId;
                self.bank = SeatBank { banker: Some(seat), ..SeatBank::default() };
                sink.event(Event::Banker { seat });
                return Ok(seat);
            }
        }
    }

    /// Chemin de fer: the banker at the moment.
    pub fn banker(&self) -> Option<SeatId> {
        self.bank.banker
    }

    /// Chemin de fer: the banker puts up the bank (seed 004: "places his stake first").
    pub fn stake_bank(&mut self, amount: Money, sink: &mut impl EventSink) -> Result<(), TableError> {
        if !self.seat_banked() {
            return Err(TableError::NotChemDeFer);
        }
        let banker = self.bank.banker.ok_or(TableError::NoBanker)?;
        let rules = self.rules;
        let seat = self.seat(banker)?;
        let total = seat.stakes[Spot::Banker.index()].checked_add(amount).ok_or(TableError::Overflow)?;
        if self.coup.is_some() {
            return Err(TableError::CoupInProgress);
        }
        if !amount.is_whole() {
            return Err(TableError::NotWholeUnits);
        }
        if total < rules.min_bet {
            return Err(TableError::BelowMinimum(rules.min_bet));
        }
        if amount > seat.bankroll {
            return Err(TableError::NotEnoughMoney(seat.bankroll));
        }
        let seat = self.seat_mut(banker)?;
        seat.bankroll = seat.bankroll.saturating_sub(amount);
        seat.stakes[Spot::Banker.index()] = total;
        sink.event(Event::BankStake { amount: total });
        Ok(())
    }

    /// The bank's stake on the table.
    pub fn bank_stake(&self) -> Money {
        self.bank.banker.map_or(Money::ZERO, |b| self.stake(b, Spot::Banker))
    }

    /// Chemin de fer: `seat` calls "Banco", matching the whole bank; the other punters' bets
    /// go back and betting closes.
    pub fn banco(&mut self, seat: SeatId, sink: &mut impl EventSink) -> Result<(), TableError> {
        if !self.seat_banked() {
            return Err(TableError::NotChemDeFer);
        }
        if self.coup.is_some() {
            return Err(TableError::CoupInProgress);
        }
        let banker = self.bank.banker.ok_or(TableError::NoBanker)?;
        if banker == seat {
            return Err(TableError::WrongSide);
        }
        if self.bank.banco.is_some() {
            return Err(TableError::BancoCalled);
        }
        let bank = self.bank_stake();
        if bank == Money::ZERO {
            return Err(TableError::NoBankStake);
        }
        let caller = self.seat(seat)?;
        let available = caller.bankroll.checked_add(caller.stakes[Spot::Player.index()]).ok_or(TableError::Overflow)?;
        if available < bank {
            return Err(TableError::NotEnoughMoney(available));
        }
        for id in 0..MAX_SEATS as SeatId {
            if id != seat && id != banker {
                self.return_stake(id, Spot::Player, Money::MAX, sink);
            }
        }
        // A punt already over the bank matches it, and the rest goes back, as an excess does
        // at the deal.
        let over = self.stake(seat, Spot::Player).saturating_sub(bank);
        self.return_stake(seat, Spot::Player, over, sink);
        let caller = self.seat_mut(seat)?;
        let extra = bank.saturating_sub(caller.stakes[Spot::Player.index()]);
        caller.bankroll = caller.bankroll.saturating_sub(extra);
        caller.stakes[Spot::Player.index()] = bank;
        self.bank.banco = Some(seat);
        sink.event(Event::Banco { seat });
        Ok(())
    }

    /// Chemin de fer: what the punters have bet against the bank so far. Before the deal the
    /// game compares it with [`Table::bank_stake`]: below it a punter may make up the deficit
    /// with [`Table::place`], above it the banker may cover the excess with
    /// [`Table::stake_bank`] (seed 004); whatever is left unmatched goes back at the deal.
    pub fn punted(&self) -> Money {
        let banker = self.bank.banker;
        self.seat_ids()
            .filter(|&id| Some(id) != banker)
            .fold(Money::ZERO, |sum, id| sum.checked_add(self.stake(id, Spot::Player)).unwrap_or(Money::MAX))
    }

    /// Chemin de fer: the banker gives up the bank before the deal, as a banker may at any
    /// table ("passer la main"). Every stake goes back and the bank passes on round the table
    /// as when it loses (seed 004). Returns the new banker, who may be the same seat when no
    /// other seat has money.
    pub fn give_up_bank(&mut self, sink: &mut impl EventSink) -> Result<SeatId, TableError> {
        if !self.seat_banked() {
            return Err(TableError::NotChemDeFer);
        }
        if self.coup.is_some() {
            return Err(TableError::CoupInProgress);
        }
        let banker = self.bank.banker.ok_or(TableError::NoBanker)?;
        for id in 0..MAX_SEATS as SeatId {
            self.return_stake(id, Spot::Player, Money::MAX, sink);
        }
        self.return_stake(banker, Spot::Banker, Money::MAX, sink);
        self.bank.banco = None;
        self.pass_bank(banker, sink);
        self.bank.banker.ok_or(TableError::NoBanker)
    }

    /// Moves up to `limit` of a seat's stake on `spot` back to its bankroll.
    fn return_stake(&mut self, seat: SeatId, spot: Spot, limit: Money, sink: &mut impl EventSink) -> Money {
        let Ok(s) = self.seat_mut(seat) else {
            return Money::ZERO;
        };
        let stake = &mut s.stakes[spot.index()];
        let amount = if *stake < limit { *stake } else { limit };
        if amount == Money::ZERO {
            return amount;
        }
        *stake = stake.saturating_sub(amount);
        s.bankroll = s.bankroll.checked_add(amount).unwrap_or(Money::MAX);
        sink.event(Event::Returned { seat, amount });
        amount
    }

    /// Closes the bets and starts a coup: the shoe applies its end-of-shoe policy, and at
    /// Chemin de fer the bank and the punters are matched first.
    pub fn deal(&mut self, sink: &mut impl EventSink) -> Result<(), TableError> {
        if self.coup.is_some() {
            return Err(TableError::CoupInProgress);
        }
        if self.seat_banked() {
            self.match_bank(sink)?;
        } else {
            self.bank.holder = self.highest_bettor();
        }
        if let Some(seat) = self.bank.holder {
            sink.event(Event::HandHolder { seat });
        }
        let mut shuffled = false;
        self.shoe.begin_coup(&mut self.rng, &mut |news| {
            shuffled |= news == ShoeNews::Shuffled;
            sink.event(Event::Shoe(news))
        });
        if shuffled {
            self.tally = Tally::default();
        }
        self.coup = Some(Coup::new(self.rules.draw));
        Ok(())
    }

    /// The seat with the largest Player stake holds the Player hand (seed 004: "The player
    /// with the highest bet becomes the 'player'"); the first seat wins a tie.
    fn highest_bettor(&self) -> Option<SeatId> {
        let mut best: Option<(SeatId, Money)> = None;
        for id in self.seat_ids() {
            let stake = self.stake(id, Spot::Player);
            if stake > Money::ZERO && best.is_none_or(|(_, b)| stake > b) {
                best = Some((id, stake));
            }
        }
        best.map(|(id, _)| id)
    }

    /// Chemin de fer: what is still unmatched at the deal goes back. Seed 004 lets a punter
    /// make up a deficit and the banker cover an excess first ([`Table::punted`]); an excess
    /// nobody covered is "returned" (last seats first), and the part of the bank no punter
    /// made up goes back to the banker.
    fn match_bank(&mut self, sink: &mut impl EventSink) -> Result<(), TableError> {
        let banker = self.bank.banker.ok_or(TableError::NoBanker)?;
        let bank = self.bank_stake();
        if bank == Money::ZERO {
            return Err(TableError::NoBankStake);
        }
        let punters = self
            .seat_ids()
            .filter(|&id| id != banker)
            .fold(Money::ZERO, |sum, id| sum.checked_add(self.stake(id, Spot::Player)).unwrap_or(Money::MAX));
        if punters == Money::ZERO {
            return Err(TableError::NoPunters);
        }
        if punters > bank {
            let mut excess = punters.saturating_sub(bank);
            // Going round from the seat before the banker, backwards: the last to bet.
            for step in 1..=MAX_SEATS {
                let id = ((usize::from(banker) + MAX_SEATS - step) % MAX_SEATS) as SeatId;
                if id != banker && excess > Money::ZERO {
                    excess = excess.saturating_sub(self.return_stake(id, Spot::Player, excess, sink));
                }
            }
        } else if bank > punters {
            self.return_stake(banker, Spot::Banker, bank.saturating_sub(punters), sink);
        }
        self.bank.holder = self.highest_bettor_except(banker);
        Ok(())
    }

    fn highest_bettor_except(&self, banker: SeatId) -> Option<SeatId> {
        if let Some(caller) = self.bank.banco {
            return Some(caller);
        }
        let mut best: Option<(SeatId, Money)> = None;
        for step in 1..MAX_SEATS {
            let id = ((usize::from(banker) + step) % MAX_SEATS) as SeatId;
            let stake = self.stake(id, Spot::Player);
            if stake > Money::ZERO && best.is_none_or(|(_, b)| stake > b) {
                best = Some((id, stake));
            }
        }
        best.map(|(id, _)| id)
    }

    /// Who answers `question` at this table.
    pub fn asker(&self, question: Question) -> Asker {
        match (question, self.rules.draw, self.bank.banker) {
            (Question::PlayerOnFive, _, _) => self.bank.holder.map_or(Asker::House, Asker::Seat),
            (Question::Banker { .. }, DrawRules::ChemDeFer, Some(banker)) => Asker::Seat(banker),
            _ => Asker::House,
        }
    }

    /// The coup's next card or question; settles the bets when it ends.
    pub fn step(&mut self, sink: &mut impl EventSink) -> Result<TableStep, TableError> {
        let coup = self.coup.as_mut().ok_or(TableError::NoCoup)?;
        let (shoe, rng) = (&mut self.shoe, &mut self.rng);
        match coup.step(shoe, rng, &mut |news| sink.event(Event::Shoe(news))) {
            Step::Card { side, card } => {
                sink.event(Event::Card { side, card });
                Ok(TableStep::Card { side, card })
            }
            Step::Ask(question) => Ok(TableStep::Ask { question, asker: self.asker(question) }),
            Step::Done(outcome) => {
                self.coup = None;
                sink.event(Event::Result(outcome));
                self.settle(&outcome, sink);
                Ok(TableStep::Settled(outcome))
            }
        }
    }

    /// Answers the coup's pending question.
    pub fn answer(&mut self, decision: Decision, sink: &mut impl EventSink) -> Result<(), TableError> {
        let coup = self.coup.as_mut().ok_or(TableError::NoCoup)?;
        let side = match coup.pending() {
            Some(Question::PlayerOnFive) => Side::Player,
            Some(Question::Banker { .. }) => Side::Banker,
            None => return Err(TableError::NothingAsked),
        };
        coup.answer(decision)?;
        sink.event(Event::Decided { side, decision });
        Ok(())
    }

    /// Deals a whole coup, asking `player` and `banker` whenever the rules leave a choice.
    pub fn play_coup(
        &mut self,
        player: &mut impl Strategy,
        banker: &mut impl Strategy,
        sink: &mut impl EventSink,
    ) -> Result<Outcome, TableError> {
        self.deal(sink)?;
        loop {
            match self.step(sink)? {
                TableStep::Card { .. } => {}
                TableStep::Ask { question, .. } => {
                    let decision = match question {
                        Question::PlayerOnFive => player.decide(question, &mut self.rng),
                        Question::Banker { .. } => banker.decide(question, &mut self.rng),
                    };
                    self.answer(decision, sink)?;
                }
                TableStep::Settled(outcome) => return Ok(outcome),
            }
        }
    }

    fn settle(&mut self, outcome: &Outcome, sink: &mut impl EventSink) {
        match outcome.winner {
            Winner::Player => self.tally.player = self.tally.player.saturating_add(1),
            Winner::Banker => self.tally.banker = self.tally.banker.saturating_add(1),
            Winner::Tie => self.tally.tie = self.tally.tie.saturating_add(1),
        }
        if self.seat_banked() {
            self.settle_seat_bank(outcome, sink);
        } else {
            self.settle_house(outcome, sink);
        }
    }

    fn settle_house(&mut self, outcome: &Outcome, sink: &mut impl EventSink) {
        let pays = self.rules.pays;
        for (id, slot) in self.seats.iter_mut().enumerate() {
            let Some(seat) = slot else { continue };
            for spot in Spot::ALL {
                let stake = seat.stakes[spot.index()];
                if stake == Money::ZERO {
                    continue;
                }
                let mut result = pays.settle(spot, stake, outcome);
                let winnings = match result {
                    BetResult::Won(w) | BetResult::WonAndStays(w) => w,
                    _ => Money::ZERO,
                };
                // Exposure checks at placement make this impossible; if it ever happened
                // the bet is returned rather than money invented.
                let Some(house) = self.house.checked_sub(winnings) else {
                    result = BetResult::Push;
                    seat.bankroll = seat.bankroll.checked_add(stake).unwrap_or(Money::MAX);
                    seat.stakes[spot.index()] = Money::ZERO;
                    sink.event(Event::Settled { seat: id as SeatId, spot, stake, result });
                    continue;
                };
                match result {
                    BetResult::Won(w) => {
                        self.house = house;
                        seat.bankroll =
                            seat.bankroll.checked_add(stake).and_then(|b| b.checked_add(w)).unwrap_or(Money::MAX);
                        seat.stakes[spot.index()] = Money::ZERO;
                    }
                    BetResult::WonAndStays(w) => {
                        self.house = house;
                        seat.bankroll = seat.bankroll.checked_add(w).unwrap_or(Money::MAX);
                        seat.locked_tie = stake;
                    }
                    BetResult::Lost => {
                        self.house = self.house.checked_add(stake).unwrap_or(Money::MAX);
                        seat.stakes[spot.index()] = Money::ZERO;
                    }
                    BetResult::Push => {
                        seat.bankroll = seat.bankroll.checked_add(stake).unwrap_or(Money::MAX);
                        seat.stakes[spot.index()] = Money::ZERO;
                    }
                }
                if spot == Spot::Tie && !matches!(result, BetResult::WonAndStays(_)) {
                    seat.locked_tie = Money::ZERO;
                }
                sink.event(Event::Settled { seat: id as SeatId, spot, stake, result });
            }
        }
    }

    fn settle_seat_bank(&mut self, outcome: &Outcome, sink: &mut impl EventSink) {
        let Some(banker) = self.bank.banker else {
            return;
        };
        let bank_stake = self.bank_stake();
        let mut bank_back = match outcome.winner {
            Winner::Banker | Winner::Tie => bank_stake,
            Winner::Player => Money::ZERO,
        };
        for id in 0..MAX_SEATS as SeatId {
            if id == banker {
                continue;
            }
            let stake = self.stake(id, Spot::Player);
            if stake == Money::ZERO {
                continue;
            }
            let result = match outcome.winner {
                Winner::Player => BetResult::Won(stake),
                Winner::Banker => BetResult::Lost,
                Winner::Tie => BetResult::Push,
            };
            let Ok(seat) = self.seat_mut(id) else {
                continue;
            };
            seat.stakes[Spot::Player.index()] = Money::ZERO;
            match result {
                // The punter's winnings come out of the bank's stake.
                BetResult::Won(w) => {
                    seat.bankroll =
                        seat.bankroll.checked_add(stake).and_then(|b| b.checked_add(w)).unwrap_or(Money::MAX)
                }
                BetResult::Push => seat.bankroll = seat.bankroll.checked_add(stake).unwrap_or(Money::MAX),
                _ => bank_back = bank_back.checked_add(stake).unwrap_or(Money::MAX),
            }
            sink.event(Event::Settled { seat: id, spot: Spot::Player, stake, result });
        }
        let bank_result = match outcome.winner {
            Winner::Banker => BetResult::Won(bank_back.saturating_sub(bank_stake)),
            Winner::Player => BetResult::Lost,
            Winner::Tie => BetResult::Push,
        };
        if let Ok(seat) = self.seat_mut(banker) {
            seat.stakes[Spot::Banker.index()] = Money::ZERO;
            seat.bankroll = seat.bankroll.checked_add(bank_back).unwrap_or(Money::MAX);
        }
        sink.event(Event::Settled { seat: banker, spot: Spot::Banker, stake: bank_stake, result: bank_result });
        self.bank.banco = None;
        let banker_broke = self.bankroll(banker).is_none_or(|b| b == Money::ZERO);
        if outcome.winner == Winner::Player || banker_broke {
            self.pass_bank(banker, sink);
        }
    }

    /// Seed 004: "If the 'dealer' has won he retains the deal, otherwise it passes on to the
    /// next player" — the next seat round the table with money.
    fn pass_bank(&mut self, from: SeatId, sink: &mut impl EventSink) {
        for step in 1..=MAX_SEATS {
            let id = ((usize::from(from) + step) % MAX_SEATS) as SeatId;
            if self.bankroll(id).is_some_and(|b| b > Money::ZERO) {
                self.bank.banker = Some(id);
                sink.event(Event::Banker { seat: id });
                return;
            }
        }
    }
}
