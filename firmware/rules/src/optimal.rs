//! The game-theoretic solutions of the games with choices, as integer tables.
//!
//! `bac analyze` solves each game exactly on the host (in floating point) and writes
//! `optimal_table.rs` from the result; the firmware only reads it. A test in `bac-odds`
//! checks that the file is what the solver computes today.

use crate::question::Question;
use crate::rng::Chance;
use crate::tableau::{DrawRules, PLAYER_STOOD};

/// One solution: the player's chance of drawing on 5, and the bank's play in every cell the
/// rules leave free (cells the rules fix are never consulted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The player's chance of drawing on 5.
    pub player_draws_on_five: Chance,
    /// Bit `c` of row `t`: the bank on `t` draws against third card `c` (bit 10: the
    /// player stood).
    pub banker_draws: [u16; 8],
    /// The one cell where the bank mixes, if any: (total, column, chance of drawing).
    pub banker_mixes: Option<(u8, u8, Chance)>,
}

impl Solution {
    /// The chance of drawing this solution gives for `question`.
    pub fn chance(&self, question: Question) -> Chance {
        match question {
            Question::PlayerOnFive => self.player_draws_on_five,
            Question::Banker { total, player_third } => {
                let column = player_third.map_or(PLAYER_STOOD as u8, |points| points % 10);
                match self.banker_mixes {
                    Some((t, c, chance)) if t == total && c == column => chance,
                    _ => {
                        let row = self.banker_draws.get(usize::from(total)).copied().unwrap_or(0);
                        if row & (1 << column) != 0 { Chance::ALWAYS } else { Chance::NEVER }
                    }
                }
            }
        }
    }
}

include!("optimal_table.rs");

/// The solution for `rules` with `decks` decks; `None` for Punto Banco (no choices) or a
/// deck count outside 1–8.
pub fn solution(rules: DrawRules, decks: u8) -> Option<&'static Solution> {
    let by_decks = match rules {
        DrawRules::PuntoBanco => return None,
        DrawRules::Loadstar => &LOADSTAR,
        DrawRules::ChemDeFer => &CHEMIN_DE_FER,
    };
    by_decks.get(usize::from(decks).checked_sub(1)?)
}
