//! Everything a game does with the rules, in one function with no generic left open, so
//! that building this for AVR compiles all of it: `cargo xtask avr` then reads the object
//! code for calls to floating-point or 64-bit division helpers. It is not run.
// On the host (`cargo test --all-targets` builds examples too) it links std like any other.
#![cfg_attr(target_arch = "avr", no_std)]

use bac_rules::{Builtin, DrawRules, Event, Money, Preset, RuleSet, SeatKind, Spot, Table, coach, optimal};

/// Plays a few coups of every preset and returns the money seen, so nothing is optimised
/// away.
#[unsafe(no_mangle)]
pub extern "C" fn bac_rules_probe(seed: u32, coups: u16) -> u32 {
    let mut seen = 0u32;
    let mut money = 0u32;
    let mut sink = |event: Event| {
        if let Event::Settled { stake, .. } = event {
            seen = seen.wrapping_add(stake.in_cents());
        }
    };
    for preset in Preset::ALL {
        let rules = RuleSet::preset(preset);
        let Ok(mut table) = Table::new(rules, seed) else { continue };
        let Ok(seat) = table.sit(SeatKind::Human, None) else { continue };
        let _ = table.sit(SeatKind::Computer, None);
        let mut strategy = optimal::solution(rules.draw, rules.decks).map_or(Builtin::Casino, Builtin::Optimal);
        if table.draw_for_bank(&mut sink).is_ok() {
            let _ = table.stake_bank(Money::units(10), &mut sink);
        }
        for _ in 0..coups {
            let _ = table.place(seat, Spot::Player, Money::units(5));
            let _ = table.place(seat, Spot::Banker, Money::units(5));
            let _ = table.place(seat, Spot::Tie, Money::units(1));
            let _ = table.play_coup(&mut strategy, &mut Builtin::Casino, &mut sink);
        }
        money = money.wrapping_add(table.total_money().in_cents());
    }
    seen.wrapping_add(money)
}

/// Asks the coach every question it answers, on a shoe of `decks` less `seen` cards of
/// each value, and returns the figures shown, so that its arithmetic is in the object
/// code the check reads.
#[unsafe(no_mangle)]
pub extern "C" fn bac_rules_coach_probe(decks: u8, seen: u8) -> i32 {
    let Some(mut unseen) = coach::Unseen::full(decks) else { return 0 };
    for points in 0..10 {
        for _ in 0..seen {
            unseen.see_points(points);
        }
    }
    let mut shown = 0i32;
    for rules in [DrawRules::Loadstar, DrawRules::ChemDeFer] {
        let Some(play) = optimal::solution(rules, decks) else { continue };
        let mut add = |values: Result<coach::Values, coach::CoachError>| {
            if let Ok(v) = values {
                shown = shown.wrapping_add(v.draw.to_fixed(4)).wrapping_sub(v.stand.to_fixed(4));
            }
        };
        add(coach::player_values(rules, 5, &unseen, play));
        add(coach::banker_values(rules, 6, None, &unseen, play));
        add(coach::banker_values(rules, 3, Some(9), &unseen, play));
    }
    shown
}

#[cfg(target_arch = "avr")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
