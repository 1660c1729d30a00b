//! A strategy as probabilities: what the enumeration weighs each free choice with.

use bac_rules::optimal::Solution;
use bac_rules::tableau::PLAYER_STOOD;
use bac_rules::{Builtin, DrawRules, Question, Rule};

/// Probability of drawing at every free choice: the player on 5, and the bank per (its
/// total 0–7, the player's third card 0–9 or [`PLAYER_STOOD`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Play {
    /// P(the player draws on 5).
    pub player_on_five: f64,
    /// P(the bank draws), where the rules let it choose.
    pub banker: [[f64; 11]; 8],
}

impl Play {
    /// The probabilities of a built-in strategy (the optimal one read back from its table).
    pub fn of(builtin: Builtin) -> Play {
        let chance = |question| match builtin {
            Builtin::AlwaysDraw => 1.0,
            Builtin::AlwaysStand => 0.0,
            Builtin::Casino => match question {
                Question::PlayerOnFive => 1.0,
                Question::Banker { total, player_third } => {
                    f64::from(u8::from(DrawRules::PuntoBanco.banker(total, player_third) == Rule::Draw))
                }
            },
            Builtin::Optimal(solution) => f64::from(solution.chance(question).numerator()) / 65_536.0,
        };
        let banker = core::array::from_fn(|total| {
            core::array::from_fn(|column| {
                let player_third = (column != PLAYER_STOOD).then_some(column as u8);
                chance(Question::Banker { total: total as u8, player_third })
            })
        });
        Play { player_on_five: chance(Question::PlayerOnFive), banker }
    }

    /// The firmware's table for this play: probabilities rounded to 65,536ths.
    pub fn to_solution(&self) -> Solution {
        let chance = |p: f64| bac_rules::Chance::in_65536((p.clamp(0.0, 1.0) * 65_536.0).round() as u32);
        let mut banker_draws = [0u16; 8];
        let mut banker_mixes = None;
        for (total, row) in self.banker.iter().enumerate() {
            for (column, &p) in row.iter().enumerate() {
                if p >= 1.0 {
                    banker_draws[total] |= 1 << column;
                } else if p > 0.0 {
                    banker_mixes = Some((total as u8, column as u8, chance(p)));
                }
            }
        }
        Solution { player_draws_on_five: chance(self.player_on_five), banker_draws, banker_mixes }
    }
}
