//! The drawing rules of the three games in the seeds, as tables.
//!
//! Each rule answers with [`Rule`]: the hand must draw, must stand, or the holder may choose.
//! A choice is put to a [`crate::strategy::Strategy`]; nothing here picks for anyone.

/// What the rules say a hand does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Must take a third card.
    Draw,
    /// Must not.
    Stand,
    /// The holder decides.
    Choose,
}

/// Which drawing rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawRules {
    /// Seeds 000, 001 and 002: the fixed tableau, no choices.
    PuntoBanco,
    /// Seed 003: the player chooses on 5; the bank has two options.
    Loadstar,
    /// Seed 004: the player chooses on 5; the banker is free.
    ChemDeFer,
}

/// The banker's column when the player stood, in the rows of [`PUNTO_BANCO`].
pub const PLAYER_STOOD: usize = 10;

/// Punto Banco: `PUNTO_BANCO[banker total][player's third card, or PLAYER_STOOD]`, true =
/// the bank draws. Rows 0–7 (8 and 9 are naturals). This is seed 001's "Has 3 — draw if
/// Player has 0,1,2,3,4,5,6,7,9" table read across, with seed 000's "If the Player did not
/// draw a card, the Banker draws if he has 0-5" as the last column.
pub const PUNTO_BANCO: [[bool; 11]; 8] = {
    const D: bool = true;
    const S: bool = false;
    [
        //  third card: 0  1  2  3  4  5  6  7  8  9 | stood
        /* bank 0 */
        [D, D, D, D, D, D, D, D, D, D, D],
        /* bank 1 */ [D, D, D, D, D, D, D, D, D, D, D],
        /* bank 2 */ [D, D, D, D, D, D, D, D, D, D, D],
        /* bank 3 */ [D, D, D, D, D, D, D, D, S, D, D],
        /* bank 4 */ [S, S, D, D, D, D, D, D, S, S, D],
        /* bank 5 */ [S, S, S, S, D, D, D, D, S, S, D],
        /* bank 6 */ [S, S, S, S, S, S, D, D, S, S, S],
        /* bank 7 */ [S, S, S, S, S, S, S, S, S, S, S],
    ]
};

impl DrawRules {
    /// The player's rule on a two-card `total` (0–7; naturals never reach here).
    pub fn player(self, total: u8) -> Rule {
        match (self, total) {
            (_, 0..=4) => Rule::Draw,
            (DrawRules::PuntoBanco, 5) => Rule::Draw,
            (_, 5) => Rule::Choose,
            _ => Rule::Stand,
        }
    }

    /// The banker's rule on a two-card `total` (0–7), given the player's third card's points
    /// (`None` when the player stood).
    pub fn banker(self, total: u8, player_third: Option<u8>) -> Rule {
        let column = player_third.map_or(PLAYER_STOOD, |points| usize::from(points % 10));
        let tableau = if total < 8 && (BANK_DRAWS[column] >> total) & 1 != 0 { Rule::Draw } else { Rule::Stand };
        match self {
            DrawRules::PuntoBanco => tableau,
            DrawRules::ChemDeFer => Rule::Choose,
            // Seed 003 is the Punto Banco tableau (its "BANK MUST DRAW ON 0, 1, or 2 / BANK
            // MUST STAND ON 7", its stood column and its "BANK DRAWS IF" column agree with
            // it cell for cell, as the tests check) but for the two cells of its "BANK HAS
            // OPTION IF" column. Points past 9 are no card's: the bank stands on them from
            // 3 up, as the table written out case by case did.
            DrawRules::Loadstar => match (total, player_third) {
                (3, Some(9)) | (5, Some(4)) => Rule::Choose,
                (3.., Some(10..)) => Rule::Stand,
                _ => tableau,
            },
        }
    }
}

/// [`PUNTO_BANCO`] by column, for the 6502: bit `total` of `BANK_DRAWS[column]` is
/// `PUNTO_BANCO[total][column]`. Rows of 11 cells cost a multiplication by 11 on every
/// look-up (a loop of shifts and adds on the 6502): reading `PUNTO_BANCO` itself costs the
/// benchmark 416 cycles a coup and 135 bytes more. A mask byte per column is also an
/// eighth of the table.
const BANK_DRAWS: [u8; PLAYER_STOOD + 1] = {
    let mut columns = [0u8; PLAYER_STOOD + 1];
    let mut total = 0;
    while total < PUNTO_BANCO.len() {
        let mut column = 0;
        while column <= PLAYER_STOOD {
            if PUNTO_BANCO[total][column] {
                columns[column] |= 1 << total;
            }
            column += 1;
        }
        total += 1;
    }
    columns
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed 000's prose, restated independently of the table: the bank with `total` draws
    /// after the player's third card `third`.
    fn seed_000_banker_draws(total: u8, third: Option<u8>) -> bool {
        match third {
            None => total <= 5,
            Some(2 | 3) => total <= 4,
            Some(4 | 5) => total <= 5,
            Some(6 | 7) => total <= 6,
            Some(8) => total <= 2,
            Some(_) => total <= 3, // ace, 9, 10 or face: 1, 9, 0
        }
    }

    #[test]
    fn every_punto_banco_cell_matches_seed_000() {
        for total in 0..8 {
            for third in (0..10).map(Some).chain([None]) {
                let expected = if seed_000_banker_draws(total, third) { Rule::Draw } else { Rule::Stand };
                assert_eq!(DrawRules::PuntoBanco.banker(total, third), expected, "bank {total}, third {third:?}");
            }
        }
    }

    #[test]
    fn seed_001_rows_read_the_same() {
        // "Has 4 -- Draw if Player has 2,3,4,5,6,7"; "Has 6 -- Draw if Player has 6,7".
        let draws = |total| {
            (0..10).filter(|&c| DrawRules::PuntoBanco.banker(total, Some(c)) == Rule::Draw).collect::<Vec<u8>>()
        };
        assert_eq!(draws(3).as_slice(), &[0, 1, 2, 3, 4, 5, 6, 7, 9]);
        assert_eq!(draws(4).as_slice(), &[2, 3, 4, 5, 6, 7]);
        assert_eq!(draws(5).as_slice(), &[4, 5, 6, 7]);
        assert_eq!(draws(6).as_slice(), &[6, 7]);
        assert!(draws(7).is_empty());
    }

    #[test]
    fn player_rules_per_game() {
        for total in 0..8 {
            let expected = if total <= 5 { Rule::Draw } else { Rule::Stand };
            assert_eq!(DrawRules::PuntoBanco.player(total), expected);
            for rules in [DrawRules::Loadstar, DrawRules::ChemDeFer] {
                let expected = match total {
                    0..=4 => Rule::Draw,
                    5 => Rule::Choose,
                    _ => Rule::Stand,
                };
                assert_eq!(rules.player(total), expected);
            }
        }
    }

    #[test]
    fn loadstar_bank_follows_seed_003() {
        let l = DrawRules::Loadstar;
        for third in (0..10).map(Some).chain([None]) {
            for total in 0..=2 {
                assert_eq!(l.banker(total, third), Rule::Draw);
            }
            assert_eq!(l.banker(7, third), Rule::Stand);
        }
        assert_eq!(l.banker(3, Some(9)), Rule::Choose);
        assert_eq!(l.banker(5, Some(4)), Rule::Choose);
        assert_eq!(l.banker(3, Some(8)), Rule::Stand);
        assert_eq!(l.banker(5, Some(5)), Rule::Draw);
        assert_eq!(l.banker(5, Some(3)), Rule::Stand);
        assert_eq!(l.banker(4, Some(1)), Rule::Stand);
        assert_eq!(l.banker(6, Some(7)), Rule::Draw);
        assert_eq!(l.banker(6, None), Rule::Stand);
        assert_eq!(l.banker(5, None), Rule::Draw);
        // Outside the two options the Loadstar bank agrees with the Punto Banco tableau.
        for total in 0..8 {
            for third in (0..10).map(Some).chain([None]) {
                let rule = l.banker(total, third);
                if rule != Rule::Choose {
                    assert_eq!(rule, DrawRules::PuntoBanco.banker(total, third), "bank {total}, third {third:?}");
                }
            }
        }
    }

    /// The banker's rule as first written, case by case: the bit masks must answer the
    /// same for every total and every third card, points past 9 included.
    fn reference_banker(rules: DrawRules, total: u8, player_third: Option<u8>) -> Rule {
        let column = player_third.map_or(PLAYER_STOOD, |points| usize::from(points % 10));
        let tableau = |total: u8| match PUNTO_BANCO.get(usize::from(total)) {
            Some(row) if row[column] => Rule::Draw,
            _ => Rule::Stand,
        };
        match rules {
            DrawRules::PuntoBanco => tableau(total),
            DrawRules::ChemDeFer => Rule::Choose,
            DrawRules::Loadstar => match (total, player_third) {
                (0..=2, _) => Rule::Draw,
                (3..=5, None) => Rule::Draw,
                (6.., None) => Rule::Stand,
                (3, Some(9)) | (5, Some(4)) => Rule::Choose,
                (3, Some(0..=7)) | (4, Some(2..=7)) | (5, Some(5..=7)) | (6, Some(6..=7)) => Rule::Draw,
                _ => Rule::Stand,
            },
        }
    }

    #[test]
    fn banker_matches_the_case_by_case_rules_for_every_input() {
        for rules in [DrawRules::PuntoBanco, DrawRules::Loadstar, DrawRules::ChemDeFer] {
            for total in 0..=u8::MAX {
                for third in (0..=u8::MAX).map(Some).chain([None]) {
                    let expected = reference_banker(rules, total, third);
                    assert_eq!(rules.banker(total, third), expected, "{rules:?}, bank {total}, third {third:?}");
                }
            }
        }
    }

    #[test]
    fn chemin_de_fer_banker_is_free() {
        assert_eq!(DrawRules::ChemDeFer.banker(0, None), Rule::Choose);
        assert_eq!(DrawRules::ChemDeFer.banker(7, Some(3)), Rule::Choose);
    }
}
