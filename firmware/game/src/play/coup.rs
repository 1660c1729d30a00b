//! The coup: dealt card by card with each third-card decision explained, the questions the
//! rules leave open asked of the person who holds the hand, the shoe's news, and the
//! settlement shown and posted.

use super::*;

impl<P: Platform> App<P> {
    /// Deals the coup and settles it; SPACE, tapped or held, hurries its pauses.
    pub(super) fn deal_coup(&mut self, table: &mut Table) {
        self.view.pace = Pace::Dealing;
        self.deal_and_settle(table);
        self.view.pace = Pace::Betting;
    }

    /// Waits `frames` frames, or [`HURRIED_FRAMES`] once the player has hurried the coup
    /// being dealt. Only SPACE is looked at, and taken: every other key stays for the
    /// question or the screen it was typed for.
    fn deal_pause(&mut self, frames: u8) {
        let now = self.p.clock();
        self.deal_pause_since(now, frames);
    }

    /// [`Self::deal_pause`] counted from the clock's reading `since`: the work done since
    /// then (the table's next step, the derived roads catching up) is part of the pause
    /// instead of coming on top of it, so the cards keep a dealer's pace while the coup is
    /// settled behind them. It never waits more frames than `frames`, whatever the clock
    /// says, so a clock that stood still could not stop the deal.
    #[inline(never)]
    fn deal_pause_since(&mut self, since: u8, frames: u8) {
        self.view.catch_up_roads();
        for done in 0..frames {
            if self.view.pace == Pace::Dealing && self.p.hurry() {
                self.view.pace = Pace::Hurried;
            }
            let wait = if self.view.pace == Pace::Hurried { HURRIED_FRAMES } else { frames };
            if done >= wait || self.p.clock().wrapping_sub(since) >= wait {
                return;
            }
            self.p.frame();
        }
    }

    #[inline(never)]
    fn deal_and_settle(&mut self, table: &mut Table) {
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
        self.clear_lines(ROW_MSG, 3);
        // The betting keys are over: during the deal the only keys are SPACE's and a
        // question's.
        self.hurry_line();
        let l = layout(self.p.columns());
        self.new_hands(l);
        self.draw_seats(table, None);
        let mut count = [0u8; 2];
        let mut total = [0u8; 2];
        // Two logs: the step being shown and the one after it, taken ahead (see below).
        // Swapping the references moves no event.
        let mut ahead = Log::new();
        let (mut log, mut next) = (&mut log, &mut ahead);
        let mut step = log.step(table);
        loop {
            // Read in place: a step moved out of its `Result` was copied slot by slot by
            // the interpreter (about 10,000 cycles between the last card and the result).
            let Ok(this) = &step else {
                return;
            };
            match this {
                &TableStep::Card { side, card } => {
                    // The shoe's news comes with a card (the cut card, a refill), never with
                    // a question or the settling step, whose log took the interpreter
                    // 18,000 cycles to read.
                    self.shoe_news(log);
                    // This card's pause starts after the shoe's news (which pauses on its
                    // own): what follows, up to the next step's settling of every bet, is
                    // done inside it.
                    let since = self.p.clock();
                    let i = usize::from(side == Side::Banker);
                    if count[i] == 2 {
                        self.explain_draw(side, total, count[0] == 3);
                    }
                    // The table's next step is taken now, before this card's pause, not
                    // after it is shown: after the last card that step settles every bet
                    // (interpreted, about 150,000 cycles), which the player would otherwise
                    // wait for between the last card and the result. Nothing below reads
                    // the table but the settled screen drawn ahead, which the player sees
                    // only with this card, so its state running one step ahead shows
                    // nowhere before it.
                    step = next.step(table);
                    core::mem::swap(&mut log, &mut next);
                    // The settled screen's sound, when that screen is drawn ahead (in this
                    // card's pause, behind the screen the player sees).
                    let mut drawn_ahead = None;
                    if let Ok(TableStep::Settled(outcome)) = &step {
                        // The derived roads take it in the pause below.
                        self.view.result_due(outcome.winner);
                        drawn_ahead = self.settle_ahead(table, outcome, log, count, i, before);
                    }
                    self.deal_pause_since(since, DEAL_FRAMES);
                    if self.card_shown(l, i, card, &mut count, &mut total, drawn_ahead) {
                        return;
                    }
                    self.turn_up_for(table, &step, count);
                    if count[0] == 3 && i == 0 {
                        // The Player hand's third card is known: the bank's rule now applies.
                        self.player_third = Some(card.points());
                    }
                }
                &TableStep::Ask { question, asker } => {
                    let decision = match asker {
                        Asker::Seat(id) if self.is_human(id) => self.ask(table, question, id),
                        _ => {
                            let rules = table.rules();
                            let mut strategy = match optimal::solution(rules.draw, rules.decks) {
                                Some(solution) => Builtin::Optimal(solution),
                                None => Builtin::Casino,
                            };
                            strategy.decide(question, table.rng())
                        }
                    };
                    log.clear();
                    let _ = table.answer(decision, log);
                    let side = if question == Question::PlayerOnFive { Side::Player } else { Side::Banker };
                    let what = match (side, decision) {
                        (Side::Player, Decision::Draw) => Msg::PlayerTakes,
                        (Side::Player, Decision::Stand) => Msg::PlayerKeeps,
                        (Side::Banker, Decision::Draw) => Msg::BankerTakes,
                        (Side::Banker, Decision::Stand) => Msg::BankerKeeps,
                    };
                    self.say(ROW_MSG2, what, HIGHLIGHT);
                    step = log.step(table);
                    if let Ok(TableStep::Settled(outcome)) = &step {
                        self.view.result_due(outcome.winner);
                    }
                    self.turn_up_for(table, &step, count);
                }
                TableStep::Settled(outcome) => {
                    self.player_third = None;
                    self.settle(table, outcome, log, count, before);
                    return;
                }
            }
        }
    }

    /// Calls out the rule behind a third card. Never inlined: in `deal_and_settle` it made
    /// the frame larger and more of its slots slower to reach (22,000 cycles more in the
    /// settle, through the interpreter).
    #[inline(never)]
    pub(super) fn explain_draw(&mut self, side: Side, total: [u8; 2], player_drew: bool) {
        if !self.view.up[usize::from(side == Side::Banker)] {
            // A hand still face down (its holder's total is the banker's to guess, seed
            // 004): the table says only that it draws, face up.
            self.say(ROW_MSG, Msg::PlayerTakes, INK);
            return;
        }
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
    pub(super) fn shoe_news(&mut self, log: &Log) {
        for event in log.events() {
            match event {
                Event::Shoe(ShoeNews::Shuffled) => {
                    self.view.history.clear();
                    self.view.roads = Roads::new();
                    self.view.roads_due = None;
                    self.say(ROW_MSG, Msg::Shuffling, HIGHLIGHT);
                    self.sound(Sound::Shuffle);
                    self.deal_pause(2 * DEAL_FRAMES);
                }
                // The marker's coup and one more are the shoe's last (`ShoeNews::CutCardOut`).
                Event::Shoe(ShoeNews::CutCardOut) => {
                    self.say(ROW_MSG2, Msg::CutCardOut, HIGHLIGHT);
                    self.deal_pause(DEAL_FRAMES);
                }
                Event::Shoe(ShoeNews::Replenished) => {
                    self.say(ROW_MSG2, Msg::Replenished, HIGHLIGHT);
                    self.sound(Sound::Shuffle);
                    self.deal_pause(DEAL_FRAMES);
                }
                Event::Returned { seat, amount } => {
                    let name = self.seats.seats[usize::from(*seat)].name;
                    let back = self.t(Msg::GetsBack);
                    let m = num::money(*amount, self.settings.lang);
                    self.message(ROW_MSG2, &[name.as_bytes(), back, m.as_bytes()], INK);
                    self.deal_pause(DEAL_FRAMES);
                }
                _ => {}
            }
        }
    }

    /// Asks a person to draw or stand.
    pub(super) fn ask(&mut self, table: &Table, question: Question, id: SeatId) -> Decision {
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
                    return self.ask_again(table, question, id);
                }
                _ => self.sound(Sound::Error),
            }
        }
    }

    /// The question again after the help, which wiped the screen: the whole table comes
    /// back first (heads, seats, scoreboard, the cards as they lie, face up or down, and
    /// the totals of the hands turned up), then the question.
    #[inline(never)]
    pub(super) fn ask_again(&mut self, table: &Table, question: Question, id: SeatId) -> Decision {
        self.draw_table(table);
        self.draw_hands();
        self.hurry_line();
        self.ask(table, question, id)
    }

    /// The key line while a coup is dealt: SPACE hurries it.
    pub(super) fn hurry_line(&mut self) {
        self.say(ROW_KEYS, Msg::HurryKey, colour::LIGHT_GREY);
    }

    /// A new coup's hands: no cards, none turned up, the cards' rows and the totals blank.
    #[inline(never)]
    fn new_hands(&mut self, l: &Layout) {
        self.view.hands = [[None; 3]; 2];
        self.view.up = [false; 2];
        for x in [l.player_x, l.banker_x] {
            let (code, ink) = l.cloth;
            self.p.fill(x, l.cards_y, 3 * l.card_step - 1, l.card_h, code, ink);
            self.p.put(x + TOTAL_AT, ROW_LABELS, glyph::SPACE, INK);
        }
        for slot in 0..6 {
            self.p.card_paper(slot, None);
        }
    }

    /// Card `n` of hand `i` (0 Player, 1 Banker) where it lies: face up when its hand is
    /// turned up or it is a third card (seeds 003 and 004: "dealt face up"), else its back.
    #[inline(never)]
    fn draw_card(&mut self, l: &Layout, i: usize, n: u8) {
        let Some(card) = self.view.hands[i][usize::from(n)] else {
            return;
        };
        let x = [l.player_x, l.banker_x][i] + n * l.card_step;
        let slot = 3 * i as u8 + n;
        if self.view.up[i] || n == 2 {
            face::card(&mut self.p, slot, x, l.cards_y, card);
        } else {
            face::back(&mut self.p, slot, x, l.cards_y);
        }
    }

    /// The total of hand `i` beside its head, if the hand is turned up.
    fn draw_total(&mut self, l: &Layout, i: usize) {
        if !self.view.up[i] {
            return;
        }
        let total = self.view.hands[i].iter().flatten().fold(0, |t, c| (t + c.points()) % 10);
        let t = num::number(u32::from(total));
        draw::text(&mut self.p, [l.player_x, l.banker_x][i] + TOTAL_AT, ROW_LABELS, t.as_bytes(), HIGHLIGHT);
    }

    /// Both hands as they lie, with their totals: after the help.
    #[inline(never)]
    pub(super) fn draw_hands(&mut self) {
        let l = layout(self.p.columns());
        for i in 0..2 {
            for n in 0..3 {
                self.draw_card(l, i, n);
            }
            self.draw_total(l, i);
        }
    }

    /// Turns hand `i` up, with its total.
    #[inline(never)]
    fn turn_up(&mut self, l: &Layout, i: usize) {
        self.turn(l, i, true);
    }

    /// Turns hand `i` up or down: its first two cards and its total (a third card is face
    /// up either way).
    fn turn(&mut self, l: &Layout, i: usize, up: bool) {
        if self.view.up[i] == up {
            return;
        }
        self.view.up[i] = up;
        self.draw_card(l, i, 0);
        self.draw_card(l, i, 1);
        let x = [l.player_x, l.banker_x][i] + TOTAL_AT;
        self.p.put(x, ROW_LABELS, glyph::SPACE, INK);
        self.draw_total(l, i);
    }

    /// What is shown when, once the first four cards are down (`count`) and the coup's next
    /// `step` is known. Seed 004 deals all four face down, and a natural is turned up at
    /// once (seed 003); a person who chooses decides from what the rules let them see:
    /// their own two cards and a third card, dealt face up.
    /// - A person asked to draw or stand (the Player hand's holder on 5, a Chemin de fer
    ///   banker) has their own hand turned up, and the other is down (in hot seat the
    ///   punter's hand, up for the punter's question, is turned down again for the
    ///   banker's).
    /// - A computer or the house choosing turns nothing up.
    /// - The Player hand's third card, while a person who holds the bank has yet to choose
    ///   (Chemin de fer), turns nothing up either: the banker sees that card alone.
    /// - Anything else (a natural, a third card once every choice is made, the settle)
    ///   turns both hands up: with no choice left to a person, the croupier turns them over
    ///   and calls the totals (seed 000).
    ///
    /// There is no key to look at one's own cards: in hot seat the question names the
    /// chooser's total (only the Player hand's 5 is asked, and every seat knows the rule),
    /// so covering the chooser's cards from the others would hide nothing that counts.
    #[inline(never)]
    fn turn_up_for(&mut self, table: &Table, step: &Result<TableStep, TableError>, count: [u8; 2]) {
        if count[0] < 2 || count[1] < 2 {
            return;
        }
        let l = layout(self.p.columns());
        let hands = match *step {
            Ok(TableStep::Ask { question, asker: Asker::Seat(id) }) if self.is_human(id) => {
                let own = usize::from(question != Question::PlayerOnFive);
                self.turn(l, 1 - own, false);
                own..own + 1
            }
            Ok(TableStep::Ask { .. }) => return,
            Ok(TableStep::Card { side: Side::Player, .. })
                if table.rules().banking == Banking::Seats && table.banker().is_some_and(|b| self.is_human(b)) =>
            {
                return;
            }
            _ => 0..2,
        };
        for i in hands {
            self.turn_up(l, i);
        }
    }

    /// Draws the settled screen in the last card's pause, behind the screen the player sees
    /// ([`Screen::hold`](crate::platform::Screen::hold)), so that it shows with that card
    /// (`count` the cards shown before it, `i` its hand) instead of after it; returns the
    /// sound the screen ends with.
    /// `None` where the platform cannot hold its screen, or the player hurries the deal
    /// (its pause is two frames, which the drawing would lengthen): the settle then draws
    /// after the card, as [`Self::settle`].
    #[inline(never)]
    fn settle_ahead(
        &mut self,
        table: &Table,
        outcome: &Outcome,
        log: &Log,
        mut count: [u8; 2],
        i: usize,
        before: u32,
    ) -> Option<Option<Sound>> {
        if self.view.pace == Pace::Hurried || !self.p.hold() {
            return None;
        }
        count[i] += 1;
        Some(self.settled_screen(table, outcome, log, count, before))
    }

    /// The settled screen drawn, its sound played and a key waited for.
    #[inline(never)]
    pub(super) fn settle(&mut self, table: &Table, outcome: &Outcome, log: &Log, count: [u8; 2], before: u32) {
        let sound = self.settled_screen(table, outcome, log, count, before);
        self.settled_wait(sound);
    }

    /// Plays the settled coup's `sound` and waits for a key.
    fn settled_wait(&mut self, sound: Option<Sound>) {
        if let Some(s) = sound {
            self.sound(s);
        }
        self.settled_keys(None);
    }

    /// The keys of the settled screen, `first` the one already read: each acts or is
    /// ignored on purpose.
    /// - SPACE is ignored: it hurries the deal, and a tap too many must not skip the result.
    /// - RETURN goes to the next coup's bets.
    /// - [`REPEAT_KEY`] stakes the last coup's bets again and deals (`house_bets`).
    /// - Any other key goes to the bets as the first key typed there (a chip, a spot, HELP,
    ///   STOP...), where it acts as it would have: a bet typed ahead is never lost.
    #[inline(never)]
    fn settled_keys(&mut self, mut first: Option<u8>) {
        loop {
            let k = match first.take() {
                Some(k) => k,
                None => self.wait_key(),
            };
            match k {
                key::SPACE => {}
                key::RETURN => return,
                k => {
                    self.view.ahead = Some(k);
                    return;
                }
            }
        }
    }

    /// [`Self::settled_wait`] for a settled screen that came with the last card: the
    /// keyboard is read at once, so a key typed ahead ends the coup without a frame's wait,
    /// and `sound` waits for the card's flick ([`CARD_SOUND_FRAMES`] frames) to end, as the
    /// SID plays one effect at a time. A key read before then starts `sound` at once, so
    /// that a key typed ahead never silences the result.
    fn settled_wait_after_card(&mut self, sound: Option<Sound>) {
        let mut frames = 0;
        let key_read = loop {
            if let Some(k) = self.p.key() {
                break Some(k);
            }
            if frames == CARD_SOUND_FRAMES {
                break None;
            }
            self.p.frame();
            frames += 1;
        };
        if key_read.is_some() {
            if let Some(s) = sound {
                self.sound(s);
            }
            self.settled_keys(key_read);
        } else {
            self.settled_wait(sound);
        }
    }

    /// Shows `card`, dealt to side `i` (0 Player, 1 Banker): its face, its sound, the side's
    /// `count` and `total` stepped and the total beside the label. With `settled` (the
    /// settled screen drawn ahead in this card's pause, and its sound) that screen comes on
    /// with the card, its sound (if any) plays and the next key is waited for; returns
    /// whether it did.
    ///
    /// A function of its own, not part of `deal_and_settle` (interpreted: 7.8 KB of AVR
    /// code), so that all the player waits on after the last card runs translated.
    #[inline(never)]
    fn card_shown(
        &mut self,
        l: &Layout,
        i: usize,
        card: Card,
        count: &mut [u8; 2],
        total: &mut [u8; 2],
        settled: Option<Option<Sound>>,
    ) -> bool {
        self.lay_card(l, i, count[i], card);
        self.sound(Sound::Card);
        count[i] += 1;
        total[i] = (total[i] + card.points()) % 10;
        let Some(sound) = settled else {
            return false;
        };
        // The last card and the settled screen show together, both hands turned up.
        self.turn_up(l, 0);
        self.turn_up(l, 1);
        self.p.show();
        self.player_third = None;
        self.settled_wait_after_card(sound);
        true
    }

    /// Lays `card` as card `n` of hand `i`: kept, drawn face up or down, and the hand's
    /// total if it is turned up.
    #[inline(never)]
    fn lay_card(&mut self, l: &Layout, i: usize, n: u8, card: Card) {
        self.view.hands[i][usize::from(n)] = Some(card);
        self.draw_card(l, i, n);
        self.draw_total(l, i);
    }

    /// The settled coup on the screen: how it ended, each seat's results and bankroll, the
    /// head's counts, the scoreboard and the key for the next coup; the results kept and the
    /// settle posted. Returns the sound for the seats' net result (none if no person won or
    /// lost).
    #[inline(never)]
    fn settled_screen(
        &mut self,
        table: &Table,
        outcome: &Outcome,
        log: &Log,
        count: [u8; 2],
        before: u32,
    ) -> Option<Sound> {
        let (pt, bt) = (outcome.player_total(), outcome.banker_total());
        let natural = outcome.natural();
        if natural {
            let n = num::number(u32::from(pt.max(bt)));
            let natural = self.t(Msg::Natural);
            self.message(ROW_MSG, &[natural, n.as_bytes()], INK);
        } else if count[1] == 2 {
            let stands = self.t(Msg::BankerStandsOn);
            let n = num::number(u32::from(bt));
            self.message(ROW_MSG, &[stands, n.as_bytes()], INK);
        }
        let (win, ink) = match outcome.winner {
            Winner::Player => (Msg::PlayerWins, draw::PLAYER_INK),
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
        // The derived roads were given this result when its step was taken
        // (`View::result_due`).
        self.view.history.push(outcome.winner, natural);
        self.view.coups = self.view.coups.wrapping_add(1);
        self.p.settled(self.view.coups, before, table.total_money().in_cents());
        self.p.audit(table, &self.seats, log.events());
        self.draw_seats(table, None);
        self.draw_head(table);
        self.draw_board();
        let keys = if table.rules().banking == Banking::Seats { Msg::SettledKeysChemin } else { Msg::SettledKeys };
        let next = self.t(keys);
        self.message(ROW_KEYS, &[next], colour::LIGHT_GREY);
        if net_win {
            Some(Sound::Win)
        } else if net_loss {
            Some(Sound::Loss)
        } else {
            None
        }
    }
}
