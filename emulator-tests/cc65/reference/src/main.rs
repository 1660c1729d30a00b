//! The host half of the cc65 differential test: plays the coups of `cc65/bench.c` with the
//! Rust rules crate (`bac-rules`, the source of truth) and prints the trace as text.
//!
//! `cc65-reference SEED COUPS DECKS reshuffle-at|cut-card THRESHOLD BURN` prints the trace
//! (`tools/harness/src/cc65/trace.rs`), or `shoe-error N` with `bench.c`'s exit code for parameters the shoe
//! refuses. `cc65-reference chance SEED DRAWS` prints what `chance_check.c` should find.

use std::process::ExitCode;

#[allow(dead_code, reason = "shared with the test, which uses the other half")]
#[path = "../../../../tools/harness/src/cc65/trace.rs"]
mod trace;

use bac_rules::shoe::ShoeError;
use bac_rules::{
    BetResult, Burn, Chance, Coup, DrawRules, EndOfShoe, Money, Outcome, PayTable, Shoe, ShoeNews, Spot, Step, Winner,
    Xorshift32,
};
use trace::{CoupRecord, FIRST_CARDS, Params, Policy, START_BANKROLL, TRACE_MAX, Trace, bet, news};

/// The bit `bench.c` records for a piece of shoe news.
fn news_bit(item: ShoeNews) -> u8 {
    match item {
        ShoeNews::Shuffled => news::SHUFFLED,
        ShoeNews::Burned { .. } => news::BURNED,
        ShoeNews::CutCardOut => news::CUT_CARD_OUT,
        ShoeNews::Replenished => news::REPLENISHED,
    }
}

/// `bench.c`'s exit code for a shoe the rules refuse (`SHOE_ERROR_` in `rules.h`).
fn error_code(error: ShoeError) -> u8 {
    match error {
        ShoeError::Decks(_) => 1,
        ShoeError::Policy(_) => 2,
    }
}

/// Plays `params` as `bench.c` does: one shuffle, then the coups with the fixed bet pattern.
fn play(params: &Params) -> Result<Trace, ShoeError> {
    let policy = match params.policy {
        Policy::ReshuffleAt(remaining) => EndOfShoe::ReshuffleAt { remaining },
        Policy::CutCard(from_end) => EndOfShoe::CutCard { from_end },
    };
    let burn = if params.burn { Burn::ByFirstCard } else { Burn::None };
    let mut shoe = Shoe::new(params.decks, policy, burn)?;
    let mut rng = Xorshift32::new(params.seed);
    shoe.shuffle(&mut rng);
    let first_cards = shoe.undealt().iter().take(FIRST_CARDS).map(|c| c.index()).collect();

    let pays = PayTable::commission(8);
    let spots = [Spot::Player, Spot::Banker, Spot::Tie];
    let mut bankroll = Money::cents(START_BANKROLL);
    let mut coups = Vec::new();
    for n in 0..usize::from(params.coups) {
        let spot = spots[n % 3];
        let stake = Money::units(n as u32 % 7 + 1);
        let placed = match bankroll.checked_sub(stake) {
            Some(rest) => {
                bankroll = rest;
                true
            }
            None => false,
        };

        let mut bits = 0u8;
        shoe.begin_coup(&mut rng, &mut |item| bits |= news_bit(item));
        let mut coup = Coup::new(DrawRules::PuntoBanco);
        let outcome: Outcome = loop {
            match coup.step(&mut shoe, &mut rng, &mut |item| bits |= news_bit(item)) {
                Step::Card { .. } => {}
                Step::Done(outcome) => break outcome,
                // Punto Banco leaves no choice; a question would be a rules-crate bug.
                Step::Ask(question) => unreachable!("Punto Banco asked {question:?}"),
            }
        };
        let result = if placed {
            match pays.settle(spot, stake, &outcome) {
                BetResult::Won(winnings) | BetResult::WonAndStays(winnings) => {
                    bankroll = bankroll.checked_add(stake).and_then(|b| b.checked_add(winnings)).unwrap_or(Money::MAX);
                    bet::WON
                }
                BetResult::Push => {
                    bankroll = bankroll.checked_add(stake).unwrap_or(Money::MAX);
                    bet::PUSH
                }
                BetResult::Lost => bet::LOST,
            }
        } else {
            bet::NONE
        };
        if coups.len() < TRACE_MAX {
            let cards = |hand: &bac_rules::hand::Hand| hand.cards().iter().map(|c| c.index()).collect::<Vec<_>>();
            let winner = match outcome.winner {
                Winner::Player => 0,
                Winner::Banker => 1,
                Winner::Tie => 2,
            };
            let totals = (outcome.player_total(), outcome.banker_total());
            coups.push(CoupRecord::new(&cards(&outcome.player), &cards(&outcome.banker), totals, winner, result, bits));
        }
    }
    Ok(Trace {
        first_cards,
        coups,
        bankroll: bankroll.in_cents(),
        next_word: rng.next_word(),
        remaining: shoe.remaining(),
    })
}

/// The chances `chance_check.c` cycles through, in 65,536ths.
const CHANCES: [u32; 8] = [0, 1, 32_768, 65_535, 65_536, 12_345, 50_000, 40_000];

/// `Xorshift32::happens` as `chance_check.c` draws it: `draws` answers and the next word.
fn chances(seed: u32, draws: usize) -> (Vec<u8>, u32) {
    let mut rng = Xorshift32::new(seed);
    let answers = (0..draws).map(|i| u8::from(rng.happens(Chance::in_65536(CHANCES[i % CHANCES.len()])))).collect();
    (answers, rng.next_word())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [mode, seed, draws] = args.as_slice()
        && mode == "chance"
    {
        let (Ok(seed), Ok(draws)) = (seed.parse(), draws.parse()) else {
            eprintln!("cc65-reference: chance SEED DRAWS takes two numbers");
            return ExitCode::from(2);
        };
        let (answers, next) = chances(seed, draws);
        let words: Vec<String> = answers.iter().map(u8::to_string).collect();
        println!("answers {}\nnext {next}", words.join(" "));
        return ExitCode::SUCCESS;
    }
    let params = match Params::from_args(&args) {
        Ok(params) => params,
        Err(message) => {
            eprintln!("cc65-reference: {message}");
            return ExitCode::from(2);
        }
    };
    match play(&params) {
        Ok(trace) => print!("{}", trace.to_text()),
        Err(error) => println!("shoe-error {}", error_code(error)),
    }
    ExitCode::SUCCESS
}
