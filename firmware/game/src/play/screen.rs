//! Drawing the table: the heads, the cards' rows, the seats with their stakes and results,
//! the chips, the messages and the scoreboard.

use super::*;

impl<P: Platform> App<P> {
    #[inline(never)]
    pub(super) fn draw_table(&mut self, table: &Table) {
        let cols = self.p.columns();
        self.p.set_columns(cols, BACKGROUND);
        self.view.moves = moves_for(self.seats.count);
        self.draw_head(table);
        let l = layout(cols);
        // The felt (40 columns; the cloth at 80 is the screen's own): from the hands'
        // heads to the row over the messages, with the row under the cards when the seats
        // leave one. Each head sits on a black plaque, a cell wider than head and total.
        let (code, ink) = l.cloth;
        let felt = ROW_MSG + self.view.moves[1] - ROW_LABELS;
        self.p.fill(0, ROW_LABELS, l.width, felt, code, ink);
        let (player, banker) = (self.t(Msg::Player), self.t(Msg::Banker));
        for (x, head, ink) in [(l.player_x, player, draw::PLAYER_INK), (l.banker_x, banker, colour::LIGHT_RED)] {
            self.p.fill(x - 1, ROW_LABELS, TOTAL_AT + 3, 1, glyph::SPACE, INK);
            draw::text(&mut self.p, x, ROW_LABELS, head, ink);
        }
        self.draw_seats(table, None);
        self.draw_board();
    }

    pub(super) fn draw_head(&mut self, table: &Table) {
        let l = layout(self.p.columns());
        // At 80 columns row 1 of the table is the cards' own.
        self.clear_lines(ROW_HEAD, if l.grid { 1 } else { 2 });
        self.draw_house(table);
        let name = self.t(Msg::preset(table.rules().preset));
        let end = draw::text_reversed(&mut self.p, 0, ROW_HEAD, b" ", HIGHLIGHT);
        let end = draw::text_reversed(&mut self.p, end, ROW_HEAD, name, HIGHLIGHT);
        draw::text_reversed(&mut self.p, end, ROW_HEAD, b" ", HIGHLIGHT);
        self.draw_counts(table);
    }

    /// The shoe's counts and the cards left: under the head at 40 columns, at the top of
    /// the scoreboard panel at 80. Interpreted (not in game-prg's translated list): bank 0
    /// has no room for it, and it runs once a coup.
    #[inline(never)]
    pub(super) fn draw_counts(&mut self, table: &Table) {
        let l = layout(self.p.columns());
        let shoe = table.shoe();
        let (remaining, cut) = (shoe.remaining(), shoe.before_cut());
        let naturals = self.view.history.naturals();
        if l.grid {
            let shoe = (remaining > 0).then_some((remaining, cut));
            crate::panel::counts(&mut self.p, self.settings.lang, table.tally(), naturals, shoe);
            return;
        }
        let nat = self.t(Msg::Naturals);
        scoreboard::counts(&mut self.p, 1, ROW_HEAD + 1, table.tally(), nat, naturals, 0);
        if remaining == 0 {
            // Not shuffled yet: the first deal shuffles.
            return;
        }
        let mut right = l.width;
        if let Some(cut) = cut {
            let n = num::number(u32::from(cut));
            draw::text_right(&mut self.p, right, ROW_HEAD, n.as_bytes(), INK);
            right -= n.len() + 1;
            let label = self.t(Msg::Cut);
            draw::text_right(&mut self.p, right, ROW_HEAD, label, colour::LIGHT_GREY);
            right -= label.len() as u8 + 1;
        }
        let n = num::number(u32::from(remaining));
        draw::text_right(&mut self.p, right, ROW_HEAD, n.as_bytes(), INK);
        right -= n.len() + 1;
        let label = self.t(Msg::CardsLeft);
        draw::text_right(&mut self.p, right, ROW_HEAD, label, colour::LIGHT_GREY);
    }

    pub(super) fn draw_board(&mut self) {
        let l = layout(self.p.columns());
        if l.grid {
            self.view.catch_up_roads();
            crate::panel::roads(&mut self.p, self.settings.lang, &self.view.history, &self.view.roads);
            return;
        }
        scoreboard::bead_plate(&mut self.p, 0, ROW_BOARD, l.bead_w, &self.view.history, 0);
        self.p.fill(l.bead_w, ROW_BOARD, 1, scoreboard::ROWS, glyph::LINE_V, colour::LIGHT_GREY);
        scoreboard::draw_big_road(&mut self.p, l.road_x, ROW_BOARD, l.road_w, &self.view.history, 0);
    }

    /// The seats' grid at 80 columns: a rule under the heads on row `head` and a bar after
    /// the bankroll and each spot but the last. None between the name and its bankroll,
    /// which read as one (`ADA  1,500`, as the VICE check reads a seat). Kept out of line so
    /// that the game's interpreted list can name it (translated: every `draw_seats` at 80
    /// columns runs it).
    ///
    /// Only the first `columns` stake columns are closed by a bar: Loadstar, which takes
    /// bets on PLAYER alone, shows no empty BANKER and TIE columns.
    #[inline(never)]
    fn draw_grid_lines(&mut self, l: &Layout, head: u8, columns: usize) {
        self.p.fill(0, head + 1, l.width, 1, glyph::LINE_H, colour::LIGHT_GREY);
        for x in [l.roll_end, l.stake_end[0], l.stake_end[1]].into_iter().take(columns) {
            self.p.fill(x, head, 1, 2 + self.seats.count, glyph::LINE_V, colour::LIGHT_GREY);
            self.p.put(x, head + 1, glyph::CROSS, colour::LIGHT_GREY);
        }
    }

    /// Blanks rows of the table (40-column rows, placed by [`Layout::row`]), leaving the
    /// scoreboard panel of 80 columns alone.
    #[inline(never)]
    pub(super) fn clear_lines(&mut self, row: u8, h: u8) {
        let l = layout(self.p.columns());
        for r in row..row + h {
            self.p.fill(0, l.row(r, &self.view.moves), l.width, 1, glyph::SPACE, INK);
        }
    }

    pub(super) fn draw_seats(&mut self, table: &Table, active: Option<SeatId>) {
        let l = layout(self.p.columns());
        // The heads and the rows of the seats in play: the rows below them stay blank from
        // the table's first drawing (`draw_table` clears the screen, and the seats change
        // only between tables), and each row cleared is a fill of the table's width.
        self.clear_lines(ROW_SEATS_HEAD, 1 + self.seats.count);
        let (head, seats) = (l.row(ROW_SEATS_HEAD, &self.view.moves), l.row(ROW_SEATS, &self.view.moves));
        let chemin = table.rules().banking == Banking::Seats;
        // A head only over a spot that takes bets here (Sahara has no banker bets, Loadstar
        // neither banker nor tie bets).
        let pays = table.rules().pays;
        let open = |spot: Spot, head: Msg| if pays.odds(spot).is_some() { head } else { Msg::Empty };
        let heads = if chemin {
            [Msg::Punto, Msg::Bank, Msg::Empty]
        } else {
            [Msg::Player, open(Spot::Banker, Msg::Banker), open(Spot::Tie, Msg::Tie)]
        };
        let bankroll = self.t(Msg::Bankroll);
        draw::text_right(&mut self.p, l.roll_end, head, bankroll, colour::LIGHT_GREY);
        for (end, msg) in l.stake_end.iter().zip(heads) {
            let h = self.t(msg);
            draw::text_right(&mut self.p, *end, head, h, colour::LIGHT_GREY);
        }
        if l.grid {
            // The stake columns in use: Chemin de fer's punt and bank, else up to the last
            // spot the game takes bets on.
            let columns = if chemin {
                2
            } else {
                Spot::ALL.iter().rposition(|&spot| pays.odds(spot).is_some()).map_or(0, |i| i + 1)
            };
            self.draw_grid_lines(l, head, columns);
        }
        for id in 0..self.seats.count {
            let y = seats + id;
            let seat = self.seats.seats[usize::from(id)];
            let ink = if Some(id) == active { HIGHLIGHT } else { INK };
            let x = u8::from(l.grid);
            let name = seat.name.as_bytes();
            let name = &name[..name.len().min(usize::from(l.name_w))];
            if Some(id) == active {
                draw::text_reversed(&mut self.p, x, y, name, ink);
            } else {
                draw::text(&mut self.p, x, y, name, ink);
            }
            if chemin && table.banker() == Some(id) && !self.view.drawing_for_bank {
                self.p.put(x + l.name_w, y, draw::screen_code(b'*'), HIGHLIGHT);
            }
            let lang = self.settings.lang;
            let roll = num::fitted(table.bankroll(id).unwrap_or(Money::ZERO), 0, l.roll_w, lang);
            draw::text_right(&mut self.p, l.roll_end, y, roll.as_bytes(), ink);
            if let Some(card) = self.view.drew[usize::from(id)] {
                // Drawing for the bank: the card shows in the first stake column.
                let (pip, pink) = draw::suit(card.suit());
                let end = l.stake_end[0];
                let single = [card.rank_char()];
                let rank = if card.rank() == 10 { b"10".as_slice() } else { &single };
                draw::text_right(&mut self.p, end - 1, y, rank, INK);
                self.p.put(end - 1, y, pip, pink);
                continue;
            }
            // A spot's stake, its result and its column all go by `Spot::index` (settle
            // keeps the results that way; the heads are in that order).
            for spot in Spot::ALL {
                let i = spot.index();
                let end = l.stake_end[i];
                let stake = table.stake(id, spot);
                let (text, ink) = match self.view.results[usize::from(id)][i] {
                    Some((_, BetResult::Won(w))) | Some((_, BetResult::WonAndStays(w))) => {
                        (num::fitted(w, b'+', l.stake_w, lang), colour::LIGHT_GREEN)
                    }
                    Some((s, BetResult::Lost)) => (num::fitted(s, b'-', l.stake_w, lang), colour::LIGHT_RED),
                    Some((s, BetResult::Push)) => (num::fitted(s, b'=', l.stake_w, lang), colour::LIGHT_GREY),
                    None if stake > Money::ZERO => (num::fitted(stake, 0, l.stake_w, lang), ink),
                    None => continue,
                };
                draw::text_right(&mut self.p, end, y, text.as_bytes(), ink);
            }
        }
    }

    /// Writes a message centred on a row of the table (a 40-column row: see
    /// [`Layout::row`]).
    pub(super) fn message(&mut self, row: u8, parts: &[&[u8]], ink: Colour) {
        self.clear_lines(row, 1);
        let l = layout(self.p.columns());
        let len: usize = parts.iter().map(|p| p.len()).sum();
        let mut x = l.width.saturating_sub(len as u8) / 2;
        let y = l.row(row, &self.view.moves);
        for part in parts {
            x = draw::text(&mut self.p, x, y, part, ink);
        }
    }

    pub(super) fn say(&mut self, row: u8, msg: Msg, ink: Colour) {
        let text = self.t(msg);
        self.message(row, &[text], ink);
    }

    pub(super) fn draw_chips(&mut self) {
        self.clear_lines(ROW_CHIPS, 1);
        let l = layout(self.p.columns());
        let y = l.row(ROW_CHIPS, &self.view.moves);
        // The label, the chips' 26 cells, then a typed amount in hand or "A:" and the word
        // for one. A long amount at 40 columns leaves out the label.
        let typed = self.view.typed.map(|m| num::money(m, self.settings.lang));
        let word = self.t(Msg::Amount);
        let tail = typed.map_or(2 + word.len() as u8, |t| t.len());
        let label = self.t(Msg::Chip);
        let cols = l.width;
        let label = if label.len() as u8 + 27 + tail > cols { b"".as_slice() } else { label };
        let mut x = cols.saturating_sub(label.len() as u8 + 27 + tail) / 2;
        x = draw::text(&mut self.p, x, y, label, colour::LIGHT_GREY) + u8::from(!label.is_empty());
        for (i, chip) in CHIP_LABELS.iter().enumerate() {
            x = if i as u8 == self.view.chip && typed.is_none() {
                draw::text_reversed(&mut self.p, x, y, chip, HIGHLIGHT)
            } else {
                draw::text(&mut self.p, x, y, chip, INK)
            } + 1;
        }
        match typed {
            Some(t) => draw::text_reversed(&mut self.p, x, y, t.as_bytes(), HIGHLIGHT),
            None => {
                x = draw::text(&mut self.p, x, y, b"A:", colour::LIGHT_GREY);
                draw::text(&mut self.p, x, y, word, colour::LIGHT_GREY)
            }
        };
    }
}
