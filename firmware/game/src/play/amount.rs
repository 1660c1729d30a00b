//! A stake typed as a number (A at the bets), for the stakes the chips make slow: the
//! Loadstar original's 100,000 is ten presses of the largest chip. The amount is checked
//! against the bankroll, the table limit and the house bank as it is entered, and said
//! plainly when it is refused; the table checks it again when it is placed.

use super::*;

/// Digits a typed amount may have: 99,999,999 units, past every bankroll here.
const MAX_DIGITS: u8 = 8;

impl<P: Platform> App<P> {
    /// Reads an amount on the second message row (digits, DEL, RETURN; STOP gives up) and,
    /// when it is one this seat could stake, makes it the chip in hand.
    #[inline(never)]
    pub(super) fn type_amount(&mut self, table: &Table, id: SeatId) {
        let mut units = 0u32;
        let mut digits = 0u8;
        loop {
            let prompt = self.t(Msg::TypeAmount);
            let n = num::number(units);
            let shown: &[u8] = if digits == 0 { b"" } else { n.as_bytes() };
            // The cursor is a reversed blank, as in the name's field: `_` is a left arrow in
            // the C128's character set.
            self.message(ROW_MSG2, &[prompt, shown, b" "], HIGHLIGHT);
            let l = layout(self.p.columns());
            let len = (prompt.len() + shown.len()) as u8 + 1;
            let cursor = l.width.saturating_sub(len) / 2 + len - 1;
            self.p.put(cursor, l.row(ROW_MSG2, &self.view.moves), glyph::SPACE | glyph::REVERSE, HIGHLIGHT);
            match self.wait_key() {
                k @ b'0'..=b'9' if digits < MAX_DIGITS && (digits > 0 || k != b'0') => {
                    units = units * 10 + u32::from(k - b'0');
                    digits += 1;
                }
                key::DEL if digits > 0 => {
                    units /= 10;
                    digits -= 1;
                }
                key::RETURN => break,
                key::STOP | key::ESC => {
                    self.clear_lines(ROW_MSG2, 1);
                    return;
                }
                _ => self.sound(Sound::Error),
            }
        }
        self.clear_lines(ROW_MSG2, 1);
        if units == 0 {
            return;
        }
        let amount = Money::units(units);
        match Self::amount_allowed(table, id, amount) {
            Ok(()) => {
                self.view.typed = Some(amount);
                self.view.typed_by = id;
                self.draw_chips();
                self.sound(Sound::Chip);
            }
            Err(e) => {
                self.sound(Sound::Error);
                self.refusal(e);
            }
        }
    }

    /// Whether `amount` could be staked by seat `id`: within the table limit, what the bank
    /// holds (in the house games) and the seat's bankroll, said in that order.
    fn amount_allowed(table: &Table, id: SeatId, amount: Money) -> Result<(), TableError> {
        let rules = table.rules();
        if amount > rules.max_bet {
            return Err(TableError::AboveMaximum(rules.max_bet));
        }
        if matches!(rules.banking, Banking::House(_)) && amount > table.house() {
            return Err(TableError::BankCannotCover(table.house()));
        }
        let roll = table.bankroll(id).unwrap_or(Money::ZERO);
        if amount > roll {
            return Err(TableError::NotEnoughMoney(roll));
        }
        Ok(())
    }
}
