//! The coach on the C128, timed: the harness writes a case number where the kernels'
//! programs take their seed ($0B04), the program computes that case in the timed phase
//! (phase 1 at $0B00) and leaves the figures the screen would show at $0B10, which the
//! harness checks against the host (`tools/harness/examples/coach_cycles.rs` holds the
//! same cases).
#![no_std]
#![no_main]

// The runtime: start-up, the panic handler and the exit through $D7FF.
use c128_rt as _;

use bac_rules::DrawRules;
use bac_rules::coach::{self, CoachError, Unseen, Values};
use bac_rules::optimal;

const MAILBOX: usize = c128_map::test::MAILBOX as usize;
const PHASE: usize = MAILBOX;
const CASE: usize = MAILBOX + 4;
const RESULT: usize = MAILBOX + 0x10;

fn poke(at: usize, value: u8) {
    // SAFETY: the mailbox is free RAM (the cassette buffer) that the harness reads.
    unsafe { core::ptr::write_volatile(at as *mut u8, value) }
}

fn peek(at: usize) -> u8 {
    // SAFETY: as for `poke`; the harness wrote the case there before the start.
    unsafe { core::ptr::read_volatile(at as *const u8) }
}

/// The figures shown, EV per unit to four decimals: draw in the high half, stand in the
/// low, as `u16`s; `u32::MAX` if the coach had none.
fn shown(values: Result<Values, CoachError>) -> u32 {
    match values {
        Ok(v) => (u32::from(v.draw.to_fixed(4) as u16) << 16) | u32::from(v.stand.to_fixed(4) as u16),
        Err(_) => u32::MAX,
    }
}

/// Case `case`: its game, decks and question (the harness's table says which is which).
fn run(case: u16) -> u32 {
    let (rules, decks) = match case % 4 {
        0 => (DrawRules::ChemDeFer, 8),
        1 => (DrawRules::ChemDeFer, 4),
        2 => (DrawRules::Loadstar, 4),
        _ => (DrawRules::Loadstar, 8),
    };
    let (Some(mut unseen), Some(play)) = (Unseen::full(decks), optimal::solution(rules, decks)) else {
        return u32::MAX - 1;
    };
    match case / 4 {
        // The player on 5 holding a 2 and a 3.
        0 => {
            unseen.see_points(2);
            unseen.see_points(3);
            shown(coach::player_values(rules, 5, &unseen, play))
        }
        // The bank on 6 (a king and a 6) against a player who stood.
        1 => {
            unseen.see_points(0);
            unseen.see_points(6);
            shown(coach::banker_values(rules, 6, None, &unseen, play))
        }
        // The bank on 3 (a 1 and a 2) against a third card 9.
        _ => {
            unseen.see_points(1);
            unseen.see_points(2);
            unseen.see_points(9);
            shown(coach::banker_values(rules, 3, Some(9), &unseen, play))
        }
    }
}

/// Times the mailbox's case and leaves its figures; the exit code is 0.
#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    let case = u16::from_le_bytes([peek(CASE), peek(CASE + 1)]);
    poke(PHASE, 1);
    let result = run(case);
    poke(PHASE, 0);
    for (i, b) in result.to_le_bytes().into_iter().enumerate() {
        poke(RESULT + i, b);
    }
    0
}
