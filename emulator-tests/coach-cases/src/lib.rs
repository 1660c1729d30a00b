//! The coach's cases, numbered, in one place for both sides: the C128 probe
//! (`emulator-tests/coach-prg`) computes the case the harness names, and the host computes
//! the same here to hold it to (`emulator-tests/tests/harness/coach.rs` checks every case,
//! `tools/harness/examples/coach_cycles.rs` times them).
//!
//! A case is a game and a deck count (`case % 4`) and a question (`case / 4`): the player
//! on 5, the bank on 6 against a player who stood, the bank on 3 against a third card.
#![no_std]

use bac_rules::DrawRules;
use bac_rules::coach::{self, CoachError, Unseen, Values};
use bac_rules::optimal;

/// How many cases there are.
pub const CASES: u16 = 12;

/// What [`figures`] returns when the game or the question has no coach.
pub const NO_FIGURES: u32 = u32::MAX;

/// The game and the deck count of `case`.
pub fn game(case: u16) -> (DrawRules, u8) {
    match case % 4 {
        0 => (DrawRules::ChemDeFer, 8),
        1 => (DrawRules::ChemDeFer, 4),
        2 => (DrawRules::Loadstar, 4),
        _ => (DrawRules::Loadstar, 8),
    }
}

/// The question of `case`, in words.
pub fn question(case: u16) -> &'static str {
    match case / 4 {
        0 => "the player on 5 (2, 3)",
        1 => "the bank on 6 (K, 6), the player stood",
        _ => "the bank on 3 (A, 2), the player's third a 9",
    }
}

/// The figures a screen would show for `case`: the expected value per unit of drawing in
/// the high half and of standing in the low, each to four decimals as an `i16`;
/// [`NO_FIGURES`] if the coach had none. Integers, as the firmware keeps no floats.
pub fn figures(case: u16) -> u32 {
    let (rules, decks) = game(case);
    let (Some(mut unseen), Some(play)) = (Unseen::full(decks), optimal::solution(rules, decks)) else {
        return NO_FIGURES;
    };
    let values = match case / 4 {
        0 => {
            unseen.see_points(2);
            unseen.see_points(3);
            coach::player_values(rules, 5, &unseen, play)
        }
        1 => {
            unseen.see_points(0);
            unseen.see_points(6);
            coach::banker_values(rules, 6, None, &unseen, play)
        }
        _ => {
            unseen.see_points(1);
            unseen.see_points(2);
            unseen.see_points(9);
            coach::banker_values(rules, 3, Some(9), &unseen, play)
        }
    };
    packed(values)
}

/// Drawing's and standing's values as [`figures`] packs them.
fn packed(values: Result<Values, CoachError>) -> u32 {
    match values {
        Ok(v) => (u32::from(v.draw.to_fixed(4) as u16) << 16) | u32::from(v.stand.to_fixed(4) as u16),
        Err(_) => NO_FIGURES,
    }
}
