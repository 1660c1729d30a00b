//! The proof that the C128 runs the same rules as the host: seeded sessions of every
//! preset and deck count, with random bets, every card, decision and payout folded into a
//! 32-bit digest. `firmware/verify-prg` runs [`play_round`] on the C128 and
//! prints the digests; `bac verify` runs the same function on the host and compares.
//!
//! The plan travels inside the `.prg`: [`Plan::MAGIC`] followed by its bytes, which the host
//! patches before loading, so one build serves every seed and round count.
#![no_std]

use bac_rules::{
    BetResult, Builtin, Coup, Money, Preset, Question, RuleSet, Shoe, ShoeNews, Side, Spot, Step, Strategy, Xorshift32,
    optimal,
};

pub use bac_rules::Event;

/// What to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The master seed.
    pub seed: u32,
    /// The first round's number (rounds are independent: any range can be replayed).
    pub first_round: u32,
    /// How many rounds.
    pub rounds: u32,
    /// Coups in each round.
    pub coups: u16,
    /// Print every event of every round, not just the digests.
    pub verbose: bool,
}

impl Plan {
    /// Marks the plan's bytes in the program image.
    pub const MAGIC: [u8; 8] = *b"BACPLAN1";
    /// Bytes after the magic.
    pub const LEN: usize = 15;

    /// The plan as bytes (little-endian), as patched into the program.
    pub fn to_bytes(&self) -> [u8; Self::LEN] {
        let mut out = [0u8; Self::LEN];
        out[0..4].copy_from_slice(&self.seed.to_le_bytes());
        out[4..8].copy_from_slice(&self.first_round.to_le_bytes());
        out[8..12].copy_from_slice(&self.rounds.to_le_bytes());
        out[12..14].copy_from_slice(&self.coups.to_le_bytes());
        out[14] = u8::from(self.verbose);
        out
    }

    /// The plan from its bytes.
    pub fn from_bytes(b: &[u8; Self::LEN]) -> Plan {
        let word = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        Plan {
            seed: word(0),
            first_round: word(4),
            rounds: word(8),
            coups: u16::from_le_bytes([b[12], b[13]]),
            verbose: b[14] != 0,
        }
    }
}

/// One round's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundResult {
    /// The round's number.
    pub round: u32,
    /// Every event, bet result and balance folded together.
    pub digest: u32,
    /// Coups settled.
    pub coups: u16,
    /// The first seat's bankroll at the end, in cents.
    pub bankroll: u32,
}

/// The preset and deck count of round `round`: every preset with every deck count comes up
/// within 40 rounds.
pub fn round_rules(round: u32) -> RuleSet {
    let preset = Preset::ALL[(round % 5) as usize];
    let decks = 1 + ((round / 5) % 8) as u8;
    let rules = RuleSet::preset(preset);
    rules.with_decks(decks).unwrap_or(rules)
}

/// A distinct seed per round, without a multiply (the 6502 has none).
pub fn round_seed(seed: u32, round: u32) -> u32 {
    let mut rng = Xorshift32::new(seed ^ round.rotate_left(16) ^ round);
    rng.next_word()
}

/// Folds bytes into a 32-bit digest with shifts and adds only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Digest(pub u32);

impl Digest {
    /// The starting value.
    pub const fn new() -> Digest {
        Digest(0x811C_9DC5)
    }

    /// Adds bytes.
    pub fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            let h = self.0 ^ u32::from(b);
            self.0 = h.wrapping_add(h << 7) ^ (h >> 3);
        }
    }
}

impl Default for Digest {
    fn default() -> Digest {
        Digest::new()
    }
}

/// An event as bytes: the tag, then its fields. Both sides digest and print these bytes.
pub fn encode(event: &Event, out: &mut [u8; 12]) -> usize {
    let money = |m: Money| m.in_cents().to_le_bytes();
    let side = |s: Side| u8::from(s == Side::Banker);
    let spot = |s: Spot| s.index() as u8;
    let mut put = |bytes: &[u8]| {
        let n = bytes.len().min(out.len());
        out[..n].copy_from_slice(&bytes[..n]);
        n
    };
    match *event {
        Event::Shoe(news) => match news {
            ShoeNews::Shuffled => put(&[1, 0]),
            ShoeNews::Burned { shown, count } => put(&[1, 1, shown.index(), count]),
            ShoeNews::CutCardOut => put(&[1, 2]),
            ShoeNews::Replenished => put(&[1, 3]),
        },
        Event::Card { side: s, card } => put(&[2, side(s), card.index()]),
        Event::Decided { side: s, decision } => put(&[3, side(s), u8::from(decision == bac_rules::Decision::Draw)]),
        Event::Result(o) => put(&[4, o.player_total(), o.banker_total(), o.cards(), o.winner as u8]),
        Event::Settled { seat, spot: s, stake, result } => {
            let (kind, amount) = match result {
                BetResult::Won(w) => (0, w),
                BetResult::Lost => (1, Money::ZERO),
                BetResult::Push => (2, Money::ZERO),
                BetResult::WonAndStays(w) => (3, w),
            };
            let [a, b, c, d] = money(stake);
            let [e, f, g, h] = money(amount);
            put(&[5, seat, spot(s), kind, a, b, c, d, e, f, g, h])
        }
        Event::DrewForBank { seat, card } => put(&[6, seat, card.index()]),
        Event::Banker { seat } => put(&[7, seat]),
        Event::BankStake { amount } => {
            let [a, b, c, d] = money(amount);
            put(&[8, a, b, c, d])
        }
        Event::Banco { seat } => put(&[9, seat]),
        Event::Returned { seat, amount } => {
            let [a, b, c, d] = money(amount);
            put(&[10, seat, a, b, c, d])
        }
        Event::HandHolder { seat } => put(&[11, seat]),
    }
}

/// Plays round `round` of `plan`: a shoe of the round's rules, `plan.coups` coups dealt by
/// `bac_rules::Coup` with the optimal strategy where the rules leave choices, random whole-
/// unit stakes on every spot the preset allows, each settled by the preset's `PayTable`
/// into one bankroll. `on_event` sees every event (for verbose listings).
///
/// This exercises the shoe, the coup state machine, the strategies and the payouts; the
/// seat and bank bookkeeping of `bac_rules::Table` is left out so that the C128 program
/// stays small enough for bank 0 at today's translation density.
pub fn play_round(plan: &Plan, round: u32, on_event: &mut impl FnMut(&Event)) -> RoundResult {
    let rules = round_rules(round);
    let seed = round_seed(plan.seed, round);
    let mut digest = Digest::new();
    let mut record = |event: Event| {
        let mut bytes = [0u8; 12];
        let n = encode(&event, &mut bytes);
        digest.add(&bytes[..n]);
        on_event(&event);
    };
    let mut rng = Xorshift32::new(seed);
    let mut bets = Xorshift32::new(seed ^ 0x5A5A_5A5A);
    let Ok(mut shoe) = Shoe::new(rules.decks, rules.end_of_shoe, rules.burn) else {
        return RoundResult { round, digest: 0, coups: 0, bankroll: 0 };
    };
    let mut strategy = optimal::solution(rules.draw, rules.decks).map_or(Builtin::Casino, Builtin::Optimal);
    let mut bankroll = Money::units(1_000_000);
    let mut coups = 0;
    for _ in 0..plan.coups {
        let mut stakes = [Money::ZERO; 3];
        for spot in Spot::ALL {
            if rules.pays.odds(spot).is_some() && bets.below(2) == 0 {
                stakes[spot.index()] = Money::units(1 + u32::from(bets.below(50)));
            }
        }
        shoe.begin_coup(&mut rng, &mut |news| record(Event::Shoe(news)));
        let mut coup = Coup::new(rules.draw);
        let outcome = loop {
            match coup.step(&mut shoe, &mut rng, &mut |news| record(Event::Shoe(news))) {
                Step::Card { side, card } => record(Event::Card { side, card }),
                Step::Ask(question) => {
                    let decision = strategy.decide(question, &mut rng);
                    let side = if question == Question::PlayerOnFive { Side::Player } else { Side::Banker };
                    record(Event::Decided { side, decision });
                    // The coup asked, so it takes the answer.
                    let _ = coup.answer(decision);
                }
                Step::Done(outcome) => break outcome,
            }
        };
        record(Event::Result(outcome));
        for spot in Spot::ALL {
            let stake = stakes[spot.index()];
            if stake == Money::ZERO {
                continue;
            }
            let result = rules.pays.settle(spot, stake, &outcome);
            bankroll = match result {
                BetResult::Won(w) | BetResult::WonAndStays(w) => bankroll.checked_add(w),
                BetResult::Lost => bankroll.checked_sub(stake),
                BetResult::Push => Some(bankroll),
            }
            .unwrap_or(bankroll);
            record(Event::Settled { seat: 0, spot, stake, result });
        }
        coups += 1;
    }
    digest.add(&bankroll.in_cents().to_le_bytes());
    RoundResult { round, digest: digest.0, coups, bankroll: bankroll.in_cents() }
}
