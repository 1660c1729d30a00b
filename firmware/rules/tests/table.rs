//! Tables: bets, limits, money conservation, the Sahara carry and the Chemin de fer bank.

use bac_rules::{
    Asker, BetResult, Builtin, Decision, Event, Money, Preset, Question, RuleSet, SeatId, SeatKind, Spot, Table,
    TableError, TableStep, Winner, Xorshift32,
};

fn quiet() -> impl FnMut(Event) {
    |_| {}
}

#[test]
fn bets_respect_limits_bankroll_and_closed_spots() {
    let mut table = Table::new(RuleSet::preset(Preset::PuntoBanco), 1).unwrap();
    let seat = table.sit(SeatKind::Human, Some(Money::units(500))).unwrap();
    assert_eq!(table.place(seat, Spot::Player, Money::cents(150)), Err(TableError::NotWholeUnits));
    assert_eq!(table.place(seat, Spot::Player, Money::units(600)), Err(TableError::NotEnoughMoney(Money::units(500))));
    assert_eq!(
        table.place(seat, Spot::Player, Money::units(10_001)),
        Err(TableError::AboveMaximum(Money::units(10_000)))
    );
    assert_eq!(table.place(seat, Spot::Player, Money::ZERO), Err(TableError::BelowMinimum(Money::units(1))));
    assert_eq!(table.place(9, Spot::Player, Money::units(1)), Err(TableError::NoSeat(9)));
    table.place(seat, Spot::Player, Money::units(100)).unwrap();
    table.place(seat, Spot::Player, Money::units(25)).unwrap();
    assert_eq!(table.stake(seat, Spot::Player), Money::units(125));
    assert_eq!(table.bankroll(seat), Some(Money::units(375)));
    table.clear(seat).unwrap();
    assert_eq!(table.bankroll(seat), Some(Money::units(500)));

    let mut sahara = Table::new(RuleSet::preset(Preset::Sahara), 1).unwrap();
    let seat = sahara.sit(SeatKind::Human, None).unwrap();
    assert_eq!(sahara.place(seat, Spot::Banker, Money::units(5)), Err(TableError::SpotClosed(Spot::Banker)));
}

#[test]
fn bets_close_while_a_coup_is_dealt() {
    let mut table = Table::new(RuleSet::preset(Preset::PuntoBanco), 2).unwrap();
    let seat = table.sit(SeatKind::Human, None).unwrap();
    table.place(seat, Spot::Banker, Money::units(10)).unwrap();
    table.deal(&mut quiet()).unwrap();
    assert_eq!(table.place(seat, Spot::Player, Money::units(1)), Err(TableError::CoupInProgress));
    assert_eq!(table.clear(seat), Err(TableError::CoupInProgress));
    assert_eq!(table.deal(&mut quiet()), Err(TableError::CoupInProgress));
    assert_eq!(table.answer(Decision::Draw, &mut quiet()), Err(TableError::NothingAsked));
    let mut cards = 0;
    loop {
        match table.step(&mut quiet()).unwrap() {
            TableStep::Card { .. } => cards += 1,
            TableStep::Ask { .. } => panic!("Punto Banco never asks"),
            TableStep::Settled(outcome) => {
                assert_eq!(cards, outcome.cards());
                break;
            }
        }
    }
    assert_eq!(table.step(&mut quiet()), Err(TableError::NoCoup));
    assert_eq!(table.stake(seat, Spot::Banker), Money::ZERO, "settled");
}

#[test]
fn the_loadstar_house_must_cover_every_bet() {
    let rules = RuleSet { starting_bankroll: Money::units(2_000_000), ..RuleSet::preset(Preset::Loadstar) };
    let mut table = Table::new(rules, 3).unwrap();
    let seat = table.sit(SeatKind::Human, None).unwrap();
    assert_eq!(
        table.place(seat, Spot::Player, Money::units(1_000_001)),
        Err(TableError::BankCannotCover(Money::units(1_000_000)))
    );
    table.place(seat, Spot::Player, Money::units(1_000_000)).unwrap();
    assert_eq!(table.place(seat, Spot::Tie, Money::units(1)), Err(TableError::SpotClosed(Spot::Tie)));
}

#[test]
fn loadstar_asks_the_player_on_five_and_the_house_on_its_options() {
    let mut table = Table::new(RuleSet::preset(Preset::Loadstar), 4).unwrap();
    let seat = table.sit(SeatKind::Human, None).unwrap();
    let (mut asked_player, mut asked_house) = (0, 0);
    for _ in 0..4000 {
        table.place(seat, Spot::Player, Money::units(10)).unwrap();
        table.deal(&mut quiet()).unwrap();
        loop {
            match table.step(&mut quiet()).unwrap() {
                TableStep::Ask { question: Question::PlayerOnFive, asker } => {
                    assert_eq!(asker, Asker::Seat(seat));
                    asked_player += 1;
                    table.answer(Decision::Stand, &mut quiet()).unwrap();
                }
                TableStep::Ask { question: Question::Banker { total, player_third }, asker } => {
                    assert_eq!(asker, Asker::House);
                    assert!(matches!((total, player_third), (3, Some(9)) | (5, Some(4))), "{total} {player_third:?}");
                    asked_house += 1;
                    table.answer(Decision::Draw, &mut quiet()).unwrap();
                }
                TableStep::Card { .. } => {}
                TableStep::Settled(_) => break,
            }
        }
    }
    assert!(asked_player > 200 && asked_house > 10, "{asked_player} {asked_house}");
}

#[test]
fn sahara_tie_stake_stays_for_the_next_coup() {
    let mut table = Table::new(RuleSet::preset(Preset::Sahara), 5).unwrap();
    let seat = table.sit(SeatKind::Human, Some(Money::units(100_000))).unwrap();
    let total = table.total_money();
    let mut carried = 0;
    for _ in 0..3000 {
        if table.stake(seat, Spot::Tie) == Money::ZERO {
            table.place(seat, Spot::Tie, Money::units(10)).unwrap();
        }
        let before = table.bankroll(seat).unwrap();
        let outcome = table.play_coup(&mut Builtin::Casino, &mut Builtin::Casino, &mut quiet()).unwrap();
        if outcome.winner == Winner::Tie {
            carried += 1;
            assert_eq!(table.stake(seat, Spot::Tie), Money::units(10), "the stake stays on the table");
            assert_eq!(table.bankroll(seat).unwrap(), before.checked_add(Money::units(80)).unwrap());
            table.clear(seat).unwrap();
            assert_eq!(table.stake(seat, Spot::Tie), Money::units(10), "and cannot be taken back");
        } else {
            assert_eq!(table.stake(seat, Spot::Tie), Money::ZERO);
        }
        assert_eq!(table.total_money(), total);
    }
    assert!(carried > 100, "{carried}");
}

#[test]
fn chemin_de_fer_bank_rotates_and_money_moves_between_seats_only() {
    let mut table = Table::new(RuleSet::preset(Preset::ChemDeFer), 6).unwrap();
    let seats: Vec<_> = (0..4).map(|_| table.sit(SeatKind::Computer, None).unwrap()).collect();
    assert_eq!(table.place(seats[1], Spot::Player, Money::units(5)), Err(TableError::NoBanker));
    let mut first = Vec::new();
    let banker = table.draw_for_bank(&mut |e| first.push(e)).unwrap();
    let best = first
        .iter()
        .filter_map(|e| if let Event::DrewForBank { seat, card } = e { Some((*seat, card.rank())) } else { None })
        .fold(Vec::new(), |mut last_round, (seat, rank)| {
            if last_round.iter().any(|&(s, _)| s == seat) {
                last_round.clear();
            }
            last_round.push((seat, rank));
            last_round
        });
    let top = best.iter().map(|&(_, r)| r).max().unwrap();
    assert_eq!(best.iter().filter(|&&(_, r)| r == top).map(|&(s, _)| s).collect::<Vec<_>>(), vec![banker]);
    assert_eq!(table.house(), Money::ZERO);
    let total = table.total_money();
    let mut passes = 0;
    for _ in 0..500 {
        let banker = table.banker().unwrap();
        assert_eq!(table.place(banker, Spot::Player, Money::units(1)), Err(TableError::WrongSide));
        let bank = table.bankroll(banker).unwrap().whole_units().min(50);
        if bank == 0 {
            break;
        }
        table.stake_bank(Money::units(bank), &mut quiet()).unwrap();
        let punters: Vec<_> = seats.iter().copied().filter(|&s| s != banker).collect();
        for &p in &punters {
            let can = table.bankroll(p).unwrap().whole_units().min(30);
            if can > 0 {
                table.place(p, Spot::Player, Money::units(can)).unwrap();
            }
        }
        let mut events = Vec::new();
        match table.play_coup(&mut Builtin::Casino, &mut Builtin::Casino, &mut |e| events.push(e)) {
            Ok(outcome) => {
                let passed = events.iter().any(|e| matches!(e, Event::Banker { .. }));
                if outcome.winner == Winner::Player {
                    assert!(passed, "a losing bank passes");
                    passes += 1;
                }
                if outcome.winner == Winner::Tie {
                    assert!(
                        events
                            .iter()
                            .all(|e| !matches!(e, Event::Settled { result: BetResult::Won(_) | BetResult::Lost, .. }))
                    );
                }
            }
            Err(TableError::NoPunters) => {
                table.clear(banker).unwrap();
                break;
            }
            Err(e) => panic!("{e:?}"),
        }
        assert_eq!(table.total_money(), total, "money only moves between seats");
    }
    assert!(passes > 50, "{passes}");
}

/// A Chemin de fer table (seeded with `seed`) where three people sat and drew for the bank:
/// the table, the banker and the two punters.
fn three_at_chemin_de_fer(seed: u32) -> (Table, SeatId, Vec<SeatId>) {
    let mut table = Table::new(RuleSet::preset(Preset::ChemDeFer), seed).unwrap();
    for _ in 0..3 {
        table.sit(SeatKind::Human, None).unwrap();
    }
    let banker = table.draw_for_bank(&mut quiet()).unwrap();
    let others = table.seat_ids().filter(|&s| s != banker).collect();
    (table, banker, others)
}

/// Deals the coup to its end, every question answered with a stand.
fn play_out_standing(table: &mut Table) {
    while !matches!(table.step(&mut quiet()).unwrap(), TableStep::Settled(_)) {
        let _ = table.answer(Decision::Stand, &mut quiet());
    }
}

/// The next coup's bets: the banker stakes 40 and the two punters 30 each, 20 over the
/// bank.
fn two_punters_over_a_bank_of_40(table: &mut Table) {
    let banker = table.banker().unwrap();
    let others: Vec<_> = table.seat_ids().filter(|&s| s != banker).collect();
    table.stake_bank(Money::units(40), &mut quiet()).unwrap();
    table.place(others[0], Spot::Player, Money::units(30)).unwrap();
    table.place(others[1], Spot::Player, Money::units(30)).unwrap();
}

#[test]
fn banco_matches_the_whole_bank_and_returns_other_bets() {
    let (mut table, _, others) = three_at_chemin_de_fer(7);
    table.stake_bank(Money::units(200), &mut quiet()).unwrap();
    table.place(others[0], Spot::Player, Money::units(50)).unwrap();
    let mut events = Vec::new();
    table.banco(others[1], &mut |e| events.push(e)).unwrap();
    assert!(events.contains(&Event::Returned { seat: others[0], amount: Money::units(50) }));
    assert_eq!(table.stake(others[1], Spot::Player), Money::units(200));
    assert_eq!(table.place(others[0], Spot::Player, Money::units(5)), Err(TableError::BancoCalled));
    let mut holder = None;
    table
        .deal(&mut |e| {
            if let Event::HandHolder { seat } = e {
                holder = Some(seat)
            }
        })
        .unwrap();
    assert_eq!(holder, Some(others[1]), "the banco caller holds the Player hand");
}

/// A punter who has already bet more than the bank and then calls "Banco" stakes the bank
/// and gets the rest back (issue 31's money checker found the rest lost).
#[test]
fn banco_over_a_larger_punt_returns_the_rest() {
    let (mut table, _, others) = three_at_chemin_de_fer(7);
    table.stake_bank(Money::units(110), &mut quiet()).unwrap();
    let total = table.total_money();
    let roll = table.bankroll(others[0]).unwrap();
    table.place(others[0], Spot::Player, Money::units(500)).unwrap();
    let mut events = Vec::new();
    table.banco(others[0], &mut |e| events.push(e)).unwrap();
    assert_eq!(table.stake(others[0], Spot::Player), Money::units(110));
    assert_eq!(table.bankroll(others[0]), roll.checked_sub(Money::units(110)));
    assert!(events.contains(&Event::Returned { seat: others[0], amount: Money::units(390) }), "{events:?}");
    assert_eq!(table.total_money(), total);
}

#[test]
fn an_uncovered_bank_and_excess_bets_go_back() {
    let (mut table, banker, others) = three_at_chemin_de_fer(8);
    table.stake_bank(Money::units(100), &mut quiet()).unwrap();
    table.place(others[0], Spot::Player, Money::units(30)).unwrap();
    let mut events = Vec::new();
    table.deal(&mut |e| events.push(e)).unwrap();
    assert!(events.contains(&Event::Returned { seat: banker, amount: Money::units(70) }));
    assert_eq!(table.bank_stake(), Money::units(30));
    play_out_standing(&mut table);
    two_punters_over_a_bank_of_40(&mut table);
    let mut events = Vec::new();
    table.deal(&mut |e| events.push(e)).unwrap();
    let returned: u32 = events
        .iter()
        .filter_map(|e| if let Event::Returned { amount, .. } = e { Some(amount.whole_units()) } else { None })
        .sum();
    assert_eq!(returned, 20, "60 bet against a bank of 40");
}

/// Random sessions with random bets on every preset: money is conserved at every settle and
/// no bankroll ever goes negative (it is unsigned: an attempt would be an error, not a wrap).
#[test]
fn money_is_conserved_over_long_random_sessions() {
    let mut dice = Xorshift32::new(2024);
    for preset in Preset::ALL {
        for decks in [1, 4, 8] {
            let rules = RuleSet::preset(preset).with_decks(decks).unwrap();
            let mut table = Table::new(rules, dice.next_word()).unwrap();
            // Deep pockets, so that the sessions last: going broke is tested elsewhere.
            let seats: Vec<_> =
                (0..4).map(|_| table.sit(SeatKind::Human, Some(Money::units(200_000))).unwrap()).collect();
            if preset == Preset::ChemDeFer {
                table.draw_for_bank(&mut quiet()).unwrap();
            }
            let total = table.total_money();
            let mut settled = 0;
            for _ in 0..2_000 {
                if preset == Preset::ChemDeFer {
                    let _ = table.stake_bank(Money::units(1 + u32::from(dice.below(200))), &mut quiet());
                    if dice.below(8) == 0 {
                        let _ = table.banco(seats[usize::from(dice.below(4))], &mut quiet());
                    }
                }
                for &seat in &seats {
                    for spot in Spot::ALL.into_iter().filter(|&spot| rules.pays.odds(spot).is_some()) {
                        if dice.below(2) == 0 {
                            let _ = table.place(seat, spot, Money::units(u32::from(dice.below(300))));
                        }
                    }
                    if dice.below(20) == 0 {
                        table.clear(seat).unwrap();
                    }
                }
                let mut random = |_: Question, _: &mut Xorshift32| Decision::draw_if(dice.below(2) == 0);
                let mut optimal = Builtin::Casino;
                match table.play_coup(&mut optimal, &mut random, &mut quiet()) {
                    Ok(_) => settled += 1,
                    Err(TableError::NoPunters | TableError::NoBankStake) => {
                        for &seat in &seats {
                            table.clear(seat).unwrap();
                        }
                    }
                    Err(e) => panic!("{preset:?}: {e:?}"),
                }
                assert_eq!(table.total_money(), total, "{preset:?} with {decks} decks");
            }
            assert!(settled > 500, "{preset:?}: only {settled} coups settled");
        }
    }
}

#[test]
fn the_same_seed_replays_the_same_events() {
    let run = |seed| {
        let mut table = Table::new(RuleSet::preset(Preset::PuntoBanco).with_decks(6).unwrap(), seed).unwrap();
        let seat = table.sit(SeatKind::Human, None).unwrap();
        let mut log = Vec::new();
        for _ in 0..200 {
            table.place(seat, Spot::Banker, Money::units(1)).unwrap();
            table.play_coup(&mut Builtin::Casino, &mut Builtin::Casino, &mut |e| log.push(e)).unwrap();
        }
        log
    };
    assert_eq!(run(77), run(77));
    assert_ne!(run(77), run(78));
}

/// Any sequence of calls, in any order, with any arguments: errors are fine, panics are not,
/// and the money is always all there.
#[test]
fn random_calls_never_panic_and_never_lose_money() {
    let mut dice = Xorshift32::new(99);
    for preset in Preset::ALL {
        for round in 0..20 {
            let rules = RuleSet::preset(preset).with_decks(1 + (round % 8) as u8).unwrap();
            let mut table = Table::new(rules, dice.next_word()).unwrap();
            for _ in 0..1 + dice.below(6) {
                let kind = if dice.below(2) == 0 { SeatKind::Human } else { SeatKind::Computer };
                let _ = table.sit(kind, Some(Money::units(u32::from(dice.below(5000)))));
            }
            let total = table.total_money();
            for _ in 0..3_000 {
                let seat = dice.below(8) as u8;
                let amount = Money::cents(u32::from(dice.below(40_000)));
                let spot = Spot::ALL[usize::from(dice.below(3))];
                let decision = Decision::draw_if(dice.below(2) == 0);
                let _ = match dice.below(10) {
                    0 => table.place(seat, spot, amount),
                    1 => table.clear(seat),
                    2 => table.deal(&mut quiet()),
                    3 | 4 => table.step(&mut quiet()).map(|_| ()),
                    5 => table.answer(decision, &mut quiet()),
                    6 => table.stake_bank(amount, &mut quiet()),
                    7 => table.banco(seat, &mut quiet()),
                    8 => table.draw_for_bank(&mut quiet()).map(|_| ()),
                    _ => table.place(seat, spot, Money::units(u32::from(dice.below(100)))),
                };
                assert_eq!(table.total_money(), total, "{preset:?}");
            }
        }
    }
}

/// Seed 004: "If the total of the players' bets is less than that of the dealer, any player
/// makes up the deficit"; "the dealer can make up the deficit or return the excess bets".
/// A punter adding the deficit, or the banker adding the excess, leaves nothing to return.
#[test]
fn a_deficit_made_up_or_an_excess_covered_leaves_nothing_to_return() {
    let (mut table, _, others) = three_at_chemin_de_fer(9);
    table.stake_bank(Money::units(100), &mut quiet()).unwrap();
    table.place(others[0], Spot::Player, Money::units(30)).unwrap();
    assert_eq!(table.punted(), Money::units(30));
    // The other punter makes up the 70 short.
    table.place(others[1], Spot::Player, table.bank_stake().checked_sub(table.punted()).unwrap()).unwrap();
    assert_eq!(table.punted(), Money::units(100));
    let mut events = Vec::new();
    table.deal(&mut |e| events.push(e)).unwrap();
    assert!(!events.iter().any(|e| matches!(e, Event::Returned { .. })), "{events:?}");
    assert_eq!(table.bank_stake(), Money::units(100));
    play_out_standing(&mut table);
    two_punters_over_a_bank_of_40(&mut table);
    // The banker covers the 20 over the bank.
    table.stake_bank(table.punted().checked_sub(table.bank_stake()).unwrap(), &mut quiet()).unwrap();
    let mut events = Vec::new();
    table.deal(&mut |e| events.push(e)).unwrap();
    assert!(!events.iter().any(|e| matches!(e, Event::Returned { .. })), "{events:?}");
    assert_eq!(table.bank_stake(), Money::units(60));
}

/// A banker may give up the bank before the deal: the stake goes back and the bank passes
/// to the next seat round the table, as when it loses.
#[test]
fn a_banker_who_gives_up_the_bank_gets_the_stake_back_and_it_passes_on() {
    let (mut table, banker, _) = three_at_chemin_de_fer(10);
    let total = table.total_money();
    let roll = table.bankroll(banker).unwrap();
    table.stake_bank(Money::units(50), &mut quiet()).unwrap();
    let mut events = Vec::new();
    let next = table.give_up_bank(&mut |e| events.push(e)).unwrap();
    assert_eq!(next, (banker + 1) % 3);
    assert_eq!(table.banker(), Some(next));
    assert_eq!(table.bankroll(banker), Some(roll));
    assert!(events.contains(&Event::Returned { seat: banker, amount: Money::units(50) }));
    assert!(events.contains(&Event::Banker { seat: next }));
    assert_eq!(table.total_money(), total);
    let mut punto = Table::new(RuleSet::preset(Preset::PuntoBanco), 10).unwrap();
    assert_eq!(punto.give_up_bank(&mut quiet()), Err(TableError::NotChemDeFer));
}

/// A Loadstar bank carried over from a save, or a fresh one after it was broken: the house
/// is what the game says, bets are checked against it, and nothing moves during a coup.
#[test]
fn the_house_bank_can_be_set_between_coups() {
    let mut table = Table::new(RuleSet::preset(Preset::Loadstar), 11).unwrap();
    let seat = table.sit(SeatKind::Human, None).unwrap();
    table.set_house(Money::units(50)).unwrap();
    assert_eq!(table.house(), Money::units(50));
    assert_eq!(table.place(seat, Spot::Player, Money::units(51)), Err(TableError::BankCannotCover(Money::units(50))));
    table.place(seat, Spot::Player, Money::units(50)).unwrap();
    table.deal(&mut quiet()).unwrap();
    assert_eq!(table.set_house(Money::units(1_000_000)), Err(TableError::CoupInProgress));
    assert_eq!(table.set_house(Money::MAX), Err(TableError::CoupInProgress));
    play_out_standing(&mut table);
    assert!(table.set_house(Money::MAX).is_err(), "the money at the table would overflow");
    let mut chemin = Table::new(RuleSet::preset(Preset::ChemDeFer), 11).unwrap();
    assert_eq!(chemin.set_house(Money::units(5)), Err(TableError::WrongSide));
}

/// Seed 002's tie stake that stays can be put back on a new table (a saved game): it is
/// on the Tie spot, cannot be cleared, and rides the next coup.
#[test]
fn a_tie_stake_that_stays_is_restored_and_cannot_be_taken_back() {
    let mut table = Table::new(RuleSet::preset(Preset::Sahara), 12).unwrap();
    let seat = table.sit(SeatKind::Human, Some(Money::units(100))).unwrap();
    table.restore_tie_stake(seat, Money::units(5)).unwrap();
    assert_eq!(table.stake(seat, Spot::Tie), Money::units(5));
    assert_eq!(table.tie_stays(seat), Money::units(5));
    table.clear(seat).unwrap();
    assert_eq!(table.stake(seat, Spot::Tie), Money::units(5), "the stake stays");
    assert_eq!(table.bankroll(seat), Some(Money::units(100)));
    let mut punto = Table::new(RuleSet::preset(Preset::Loadstar), 12).unwrap();
    let seat = punto.sit(SeatKind::Human, None).unwrap();
    assert_eq!(punto.restore_tie_stake(seat, Money::units(5)), Err(TableError::SpotClosed(Spot::Tie)));
}
