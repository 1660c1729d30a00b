//! The coach (issue 33): what each option at a free choice is worth, exactly, from the
//! cards the chooser has not seen, and (between coups) what each bet is worth on the next
//! coup from the cards left.
//!
//! - [`unseen`]: the cards a chooser has not seen, by point value: the coach's only
//!   knowledge of the shoe. The game keeps one for the table, taking out every card as it
//!   is turned up; [`advise`] takes out the chooser's own cards.
//! - [`choice`]: the exact values of drawing and standing for the player on 5 and for a
//!   free bank, over every hidden hand and third card.
//! - [`wide`]: the 64-bit sums and exact fractions they come as, with no 64-bit multiply
//!   or divide helper (the firmware forbids them).
//!
//! Integer arithmetic only, no allocation: the same code is the host's reference and runs
//! on the C128. `bac analyze --choice` asks the same questions on the host.

pub mod choice;
pub mod unseen;
pub mod wide;

pub use choice::{CoachError, Values, banker_values, player_values};
pub use unseen::Unseen;
pub use wide::Ev;

use crate::coup::Coup;
use crate::optimal::Solution;
use crate::question::Question;
use crate::tableau::DrawRules;

/// The coach's answer at a free choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Advice {
    /// The choice.
    pub question: Question,
    /// What drawing and standing are worth to the one who chooses, per unit staked.
    pub values: Values,
}

/// Advice for the choice `coup` is waiting on, from what the chooser may see: `table`
/// (the cards nobody at the table has seen when the coup began: the shoe less every card
/// turned up in earlier coups) less the chooser's own cards and, for the bank, the
/// player's third card, which is dealt face up. The other hand's hidden cards are never
/// read, so changing them cannot change the figures.
///
/// The other side is taken to play as the rules say and, where they leave it free, as
/// `play` (the solution the computer seats play).
pub fn advise(rules: DrawRules, coup: &Coup, table: &Unseen, play: &Solution) -> Result<Advice, CoachError> {
    let question = coup.pending().ok_or(CoachError::NothingAsked)?;
    let mut view = *table;
    let values = match question {
        Question::PlayerOnFive => {
            for &card in coup.player().cards() {
                if !view.see(card) {
                    return Err(CoachError::Impossible);
                }
            }
            player_values(rules, coup.player().total(), &view, play)?
        }
        Question::Banker { total, player_third } => {
            let third = coup.player().third();
            for &card in coup.banker().cards().iter().chain(third.as_ref()) {
                if !view.see(card) {
                    return Err(CoachError::Impossible);
                }
            }
            banker_values(rules, total, player_third, &view, play)?
        }
    };
    Ok(Advice { question, values })
}
