//! The Rust half of the benchmark against cc65 (issue 3, section 5): the same program as
//! `emulator-tests/cc65/bench.c`, written on the rules crate, reading its parameters from
//! and leaving its results in the same mailbox at $0B00, so that one harness times both
//! and checks both card by card against the rules crate on the host. The layout is
//! documented at the top of bench.c; the constants below mirror rules.h.
#![no_std]
#![no_main]

// The runtime: start-up, the panic handler and the exit through $D7FF.
use c128_rt as _;

use bac_rules::{BetResult, Burn, Coup, EndOfShoe, Money, PayTable, Shoe, ShoeNews, Spot, Step, Winner, Xorshift32};

const MAILBOX: usize = c128_map::test::MAILBOX as usize;
/// Fewer than bench.c keeps (1000): at today's translation density 8 KB of trace would not
/// fit beside the code. The harness compares the coups both recorded.
const TRACE_MAX: usize = 200;
const PHASE_IDLE: u8 = 0;
const PHASE_SHUFFLE: u8 = 1;
const PHASE_COUP: u8 = 2;
const NO_CARD: u8 = 255;
const BET_LOST: u8 = 0;
const BET_WON: u8 = 1;
const BET_PUSH: u8 = 2;
const BET_NONE: u8 = 3;

/// The trace of the first coups, 8 bytes each (bench.c's layout).
static mut TRACE: [u8; TRACE_MAX * 8] = [0; TRACE_MAX * 8];

fn peek(offset: usize) -> u8 {
    // SAFETY: the mailbox is free RAM (the cassette buffer) that the harness fills.
    unsafe { core::ptr::read_volatile((MAILBOX + offset) as *const u8) }
}

fn poke(offset: usize, value: u8) {
    // SAFETY: as for `peek`.
    unsafe { core::ptr::write_volatile((MAILBOX + offset) as *mut u8, value) }
}

fn poke_bytes(offset: usize, bytes: &[u8]) {
    for (i, &b) in bytes.iter().enumerate() {
        poke(offset + i, b);
    }
}

fn finish(code: u8) -> u8 {
    // SAFETY: the VICE debug cartridge port; writing it ends the run.
    unsafe { core::ptr::write_volatile(0xD7FF as *mut u8, code) };
    code
}

/// Plays the mailbox's coups and leaves the results there.
#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    let seed = u32::from_le_bytes([peek(4), peek(5), peek(6), peek(7)]);
    let coups = u16::from_le_bytes([peek(8), peek(9)]);
    let threshold = u16::from_le_bytes([peek(0xC), peek(0xD)]);
    let policy = if peek(0xB) == 0 {
        EndOfShoe::ReshuffleAt { remaining: threshold }
    } else {
        EndOfShoe::CutCard { from_end: threshold }
    };
    let burn = if peek(0xE) == 0 { Burn::None } else { Burn::ByFirstCard };
    let mut shoe = match Shoe::new(peek(0xA), policy, burn) {
        Ok(shoe) => shoe,
        Err(bac_rules::shoe::ShoeError::Decks(_)) => return finish(1),
        Err(bac_rules::shoe::ShoeError::Policy(_)) => return finish(2),
    };
    let mut rng = Xorshift32::new(seed);
    let pays = PayTable::commission(8);

    poke(0, PHASE_SHUFFLE);
    shoe.shuffle(&mut rng);
    poke(0, PHASE_IDLE);
    for (i, card) in shoe.undealt().iter().take(32).enumerate() {
        poke(0x20 + i, card.index());
    }

    let mut bankroll = Money::units(100_000);
    let mut stake = Money::ZERO;
    let mut turn = Spot::Tie;
    // SAFETY: the only reference to TRACE, in a single-threaded program.
    let trace = unsafe { &mut *core::ptr::addr_of_mut!(TRACE) };
    for coup in 0..coups {
        // The fixed bet pattern: player, banker, tie in turn; 1 to 7 units in turn.
        turn = match turn {
            Spot::Tie => Spot::Player,
            Spot::Player => Spot::Banker,
            Spot::Banker => Spot::Tie,
        };
        stake = if stake == Money::units(7) {
            Money::units(1)
        } else {
            stake.checked_add(Money::units(1)).unwrap_or(stake)
        };
        let spot = match bankroll.checked_sub(stake) {
            Some(rest) => {
                bankroll = rest;
                Some(turn)
            }
            None => None,
        };
        let mut news = 0u8;
        let mut note = |n: ShoeNews| {
            news |= match n {
                ShoeNews::Shuffled => 1,
                ShoeNews::Burned { .. } => 2,
                ShoeNews::CutCardOut => 4,
                ShoeNews::Replenished => 8,
            }
        };
        shoe.begin_coup(&mut rng, &mut note);
        poke(0, PHASE_COUP);
        let mut play = Coup::new(bac_rules::DrawRules::PuntoBanco);
        let outcome = loop {
            if let Step::Done(outcome) = play.step(&mut shoe, &mut rng, &mut note) {
                break outcome;
            }
        };
        let bet = match spot {
            None => BET_NONE,
            Some(spot) => match pays.settle(spot, stake, &outcome) {
                BetResult::Won(w) | BetResult::WonAndStays(w) => {
                    bankroll = bankroll.checked_add(stake).and_then(|b| b.checked_add(w)).unwrap_or(bankroll);
                    BET_WON
                }
                BetResult::Push => {
                    bankroll = bankroll.checked_add(stake).unwrap_or(bankroll);
                    BET_PUSH
                }
                BetResult::Lost => BET_LOST,
            },
        };
        poke(0, PHASE_IDLE);
        if let Some(record) = trace.get_mut(usize::from(coup) * 8..usize::from(coup) * 8 + 8) {
            let card = |hand: &bac_rules::hand::Hand, i: usize| hand.cards().get(i).map_or(NO_CARD, |c| c.index());
            for i in 0..3 {
                record[i] = card(&outcome.player, i);
                record[3 + i] = card(&outcome.banker, i);
            }
            record[6] = (outcome.player_total() << 4) | outcome.banker_total();
            let winner = match outcome.winner {
                Winner::Player => 0,
                Winner::Banker => 1,
                Winner::Tie => 2,
            };
            record[7] = winner | (bet << 2) | (news << 4);
        }
    }
    poke_bytes(0x10, &bankroll.in_cents().to_le_bytes());
    poke_bytes(0x14, &(trace.as_ptr() as usize as u16).to_le_bytes());
    poke_bytes(0x16, &coups.min(TRACE_MAX as u16).to_le_bytes());
    poke_bytes(0x18, &rng.next_word().to_le_bytes());
    poke_bytes(0x1C, &shoe.remaining().to_le_bytes());
    finish(0)
}
