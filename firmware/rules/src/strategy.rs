//! Who decides where the rules leave a choice: the player on 5 (Loadstar, Chemin de fer),
//! the bank's two Loadstar options, the Chemin de fer banker everywhere.

use crate::optimal::Solution;
use crate::question::{Decision, Question};
use crate::rng::Xorshift32;
use crate::tableau::{DrawRules, Rule};

/// Anything that can answer a [`Question`]: a built-in strategy, a person at the keyboard
/// (the game asks and answers), a test script.
pub trait Strategy {
    /// Answers `question`. `rng` is the table's generator, so mixed strategies replay
    /// identically on the host and on the C128.
    fn decide(&mut self, question: Question, rng: &mut Xorshift32) -> Decision;
}

/// The strategies that ship with the rules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Builtin {
    /// What a casino does: the Punto Banco tableau (draw on 5, the bank as seed 001).
    Casino,
    /// Always draw when free to.
    AlwaysDraw,
    /// Always stand when free to.
    AlwaysStand,
    /// The game-theoretic solution computed by `bac analyze`, mixed where it must be.
    Optimal(&'static Solution),
}

impl Strategy for Builtin {
    fn decide(&mut self, question: Question, rng: &mut Xorshift32) -> Decision {
        match (*self, question) {
            (Builtin::AlwaysDraw, _) => Decision::Draw,
            (Builtin::AlwaysStand, _) => Decision::Stand,
            (Builtin::Casino, Question::PlayerOnFive) => Decision::Draw,
            (Builtin::Casino, Question::Banker { total, player_third }) => {
                Decision::draw_if(DrawRules::PuntoBanco.banker(total, player_third) == Rule::Draw)
            }
            (Builtin::Optimal(solution), question) => Decision::draw_if(rng.happens(solution.chance(question))),
        }
    }
}

impl<F: FnMut(Question, &mut Xorshift32) -> Decision> Strategy for F {
    fn decide(&mut self, question: Question, rng: &mut Xorshift32) -> Decision {
        self(question, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn casino_follows_the_tableau() {
        let mut rng = Xorshift32::new(1);
        let mut casino = Builtin::Casino;
        assert_eq!(casino.decide(Question::PlayerOnFive, &mut rng), Decision::Draw);
        assert_eq!(casino.decide(Question::Banker { total: 3, player_third: Some(9) }, &mut rng), Decision::Draw);
        assert_eq!(casino.decide(Question::Banker { total: 3, player_third: Some(8) }, &mut rng), Decision::Stand);
        assert_eq!(casino.decide(Question::Banker { total: 6, player_third: None }, &mut rng), Decision::Stand);
        assert_eq!(Builtin::AlwaysStand.decide(Question::PlayerOnFive, &mut rng), Decision::Stand);
        assert_eq!(
            Builtin::AlwaysDraw.decide(Question::Banker { total: 7, player_third: None }, &mut rng),
            Decision::Draw
        );
    }
}
