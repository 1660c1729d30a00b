//! The host half of `bac verify`: plans, rounds and digests behave as the C128 half relies on.

use bac_verify::{Digest, Plan, encode, play_round, round_rules};
use std::collections::HashSet;

#[test]
fn a_plan_survives_its_bytes() {
    let plan = Plan { seed: 0xDEAD_BEEF, first_round: 77, rounds: 1234, coups: 250, verbose: true };
    assert_eq!(Plan::from_bytes(&plan.to_bytes()), plan);
}

#[test]
fn forty_rounds_cover_every_preset_and_deck_count() {
    let combos: HashSet<_> = (0..40).map(|r| (round_rules(r).preset, round_rules(r).decks)).collect();
    assert_eq!(combos.len(), 5 * 8);
}

#[test]
fn rounds_replay_exactly_and_differ_by_seed() {
    let plan = Plan { seed: 5, first_round: 0, rounds: 1, coups: 60, verbose: false };
    for round in 0..10 {
        let mut events = Vec::new();
        let a = play_round(&plan, round, &mut |e| events.push(*e));
        let b = play_round(&plan, round, &mut |_| {});
        assert_eq!(a, b);
        assert_eq!(a.coups, 60);
        assert!(events.len() >= 60 * 5, "every coup has at least four cards and a result");
        let other = play_round(&Plan { seed: 6, ..plan }, round, &mut |_| {});
        assert_ne!(a.digest, other.digest);
    }
}

#[test]
fn the_digest_sees_every_byte() {
    let mut a = Digest::new();
    a.add(&[1, 2, 3]);
    let mut b = Digest::new();
    b.add(&[1, 2, 4]);
    let mut c = Digest::new();
    c.add(&[2, 1, 3]);
    assert_ne!(a, b);
    assert_ne!(a, c, "order matters");
}

#[test]
fn events_encode_to_distinct_bytes() {
    let plan = Plan { seed: 9, first_round: 0, rounds: 1, coups: 200, verbose: false };
    let mut seen = HashSet::new();
    let mut count = 0;
    play_round(&plan, 3, &mut |event| {
        let mut bytes = [0u8; 12];
        let n = encode(event, &mut bytes);
        assert!(n >= 2);
        // A result is encoded by its totals and winner alone: its cards were encoded as
        // they were dealt.
        if matches!(event, bac_rules::Event::Result(_)) {
            return;
        }
        seen.insert((format!("{event:?}"), bytes[..n].to_vec()));
        count += 1;
    });
    // No two different events share an encoding.
    let encodings: HashSet<_> = seen.iter().map(|(_, b)| b.clone()).collect();
    assert_eq!(encodings.len(), seen.len(), "{count} events");
}
