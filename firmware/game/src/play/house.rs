//! The Loadstar house bank (seed 003 and the original: 100,000 against a bank of
//! 1,000,000): shown over the table, kept with the bankrolls in the save, and, when a player
//! wins it all, broken on a screen of its own and replaced by a fresh bank.

use super::*;

impl<P: Platform> App<P> {
    /// Whether this table's house bank is the game's to show and keep: the Loadstar one. The
    /// other house games' banks are the casino's, deep enough never to matter.
    fn keeps_house(table: &Table) -> bool {
        table.rules().preset == Preset::Loadstar
    }

    /// The bank's balance at the right of the head's second row. Kept out of `draw_head`
    /// (translated into the full bank 0) so that it stays interpreted.
    #[inline(never)]
    pub(super) fn draw_house(&mut self, table: &Table) {
        if !Self::keeps_house(table) {
            return;
        }
        let m = num::money(table.house(), self.settings.lang);
        // Right of the counts at 40 columns; at 80, on the head row beside the game's name.
        let l = layout(self.p.columns());
        let (right, y) = (l.width, if l.grid { ROW_HEAD } else { ROW_HEAD + 1 });
        draw::text_right(&mut self.p, right, y, m.as_bytes(), INK);
        let label = self.t(Msg::Bank);
        draw::text_right(&mut self.p, right - m.len() - 1, y, label, colour::LIGHT_GREY);
    }

    /// Remembers the bank for the save and the next table.
    pub(super) fn keep_house(&mut self, table: &Table) {
        if Self::keeps_house(table) {
            self.house = Some(table.house());
        }
    }

    /// A new table starts from the bank as it was left (a bank too poor to take a bet is
    /// broken: it starts fresh).
    pub(super) fn restore_house(&mut self, table: &mut Table) {
        match self.house {
            Some(house) if Self::keeps_house(table) && house >= table.rules().min_bet => {
                let _ = table.set_house(house);
            }
            _ => {}
        }
    }

    /// When a player has won the whole bank (it cannot take the smallest bet), the original's
    /// moment: a screen that says so, then a fresh bank.
    #[inline(never)]
    pub(super) fn break_the_bank(&mut self, table: &mut Table) {
        let rules = *table.rules();
        let Banking::House(fresh) = rules.banking else {
            return;
        };
        if !Self::keeps_house(table) || table.house() >= rules.min_bet {
            return;
        }
        let cols = self.p.columns();
        self.p.set_columns(cols, BACKGROUND);
        self.sound(Sound::Win);
        let broken = self.t(Msg::BankBroken);
        draw::centred(&mut self.p, 10, broken, HIGHLIGHT);
        // Centred on the whole screen, as the line above: `message` centres on the table,
        // which at 80 columns is the 52 left of the scoreboard panel.
        let m = num::money(fresh, self.settings.lang);
        let then = self.t(Msg::FreshBank);
        let x = cols.saturating_sub(then.len() as u8 + m.len()) / 2;
        let x = draw::text(&mut self.p, x, 13, then, INK);
        draw::text(&mut self.p, x, 13, m.as_bytes(), INK);
        let next = self.t(Msg::NextCoup);
        draw::centred(&mut self.p, ROW_KEYS, next, colour::LIGHT_GREY);
        self.wait_key();
        let _ = table.set_house(fresh);
        self.keep_house(table);
    }
}
