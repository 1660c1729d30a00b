//! `bac verify`: the rules crate translated for the C128 against the same crate on the
//! host, 100,000 coups over every preset and every deck count from 1 to 8, every card,
//! decision, payout and balance folded into each round's digest.

use std::process::Command;

#[test]
fn a_hundred_thousand_coups_agree_on_the_c128_and_the_host() {
    let out = Command::new(env!("CARGO_BIN_EXE_bac"))
        .args(["verify", "--rounds", "4000", "--coups", "25", "--seed", "2026"])
        .output()
        .expect("bac runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout.trim(), "4000 rounds agree (100000 coups)");
}
