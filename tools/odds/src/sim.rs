//! Monte-Carlo play of whole shoes, with the rules' own shoe, end-of-shoe policy and coup
//! state machine: what a player at the table would see, to set beside the exact figures.

use crate::edge::house_edge;
use crate::exact::Odds;
use bac_rules::tableau::PLAYER_STOOD;
use bac_rules::{Builtin, Decision, DrawRules, Question, Rule, RuleSet, Shoe, Spot, Strategy, Xorshift32};
use std::sync::atomic::{AtomicU64, Ordering};

/// What to simulate.
#[derive(Clone, Copy, Debug)]
pub struct SimConfig {
    /// The rules (decks and end-of-shoe policy included).
    pub rules: RuleSet,
    /// Coups to play in all.
    pub hands: u64,
    /// The seed; with the same seed and thread count the result is identical.
    pub seed: u64,
    /// Worker threads, at least 1.
    pub threads: usize,
    /// Who answers the free choices (both sides).
    pub strategy: Builtin,
}

/// Counts of outcomes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Coups played.
    pub hands: u64,
    /// Player wins.
    pub player: u64,
    /// Bank wins.
    pub banker: u64,
    /// Bank wins with 6.
    pub banker_six: u64,
    /// Ties.
    pub tie: u64,
    /// Coups of 4, 5, 6 cards.
    pub cards: [u64; 3],
    /// Coups with a natural.
    pub natural: u64,
}

impl Counts {
    fn merge(&mut self, other: &Counts) {
        self.hands += other.hands;
        self.player += other.player;
        self.banker += other.banker;
        self.banker_six += other.banker_six;
        self.tie += other.tie;
        self.natural += other.natural;
        for (a, b) in self.cards.iter_mut().zip(other.cards) {
            *a += b;
        }
    }

    /// The observed frequencies, in the shape of the exact [`Odds`].
    pub fn frequencies(&self) -> Odds {
        let n = self.hands.max(1) as f64;
        Odds {
            banker: self.banker as f64 / n,
            banker_six: self.banker_six as f64 / n,
            player: self.player as f64 / n,
            tie: self.tie as f64 / n,
            cards: self.cards.map(|c| c as f64 / n),
            natural: self.natural as f64 / n,
        }
    }

    /// A 95% confidence interval's half-width for a frequency of `count` in these hands.
    pub fn proportion_interval(&self, count: u64) -> f64 {
        let n = self.hands.max(1) as f64;
        let p = count as f64 / n;
        1.96 * (p * (1.0 - p) / n).sqrt()
    }

    /// The house edge of `spot` with its 95% half-width, from the payoff of each outcome
    /// class (player win, bank win, bank win with 6, tie) and their observed frequencies.
    pub fn edge_interval(&self, rules: &RuleSet, spot: Spot) -> Option<(f64, f64)> {
        let f = self.frequencies();
        let edge = house_edge(&rules.pays, &f, spot)?;
        // The bettor's result in each class, read off the same edge formula with one
        // class certain.
        let class = |player: f64, banker: f64, six: f64, tie: f64| {
            let odds = Odds { player, banker, banker_six: six, tie, ..Odds::default() };
            house_edge(&rules.pays, &odds, spot).map(|e| -e)
        };
        let results = [
            class(1.0, 0.0, 0.0, 0.0)?,
            class(0.0, 1.0, 0.0, 0.0)?,
            class(0.0, 1.0, 1.0, 0.0)?,
            class(0.0, 0.0, 0.0, 1.0)?,
        ];
        let weights = [f.player, f.banker - f.banker_six, f.banker_six, f.tie];
        let mean = -edge;
        let variance: f64 = results.iter().zip(weights).map(|(x, w)| w * (x - mean).powi(2)).sum();
        Some((edge, 1.96 * (variance / self.hands.max(1) as f64).sqrt()))
    }
}

/// Why a simulation could not run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimError {
    /// The rules could not make a shoe.
    Shoe(bac_rules::shoe::ShoeError),
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Shoe(e) => write!(f, "cannot build the shoe: {e:?}"),
        }
    }
}

impl std::error::Error for SimError {}

/// Hands between updates of the shared progress counter.
const PROGRESS_EVERY: u64 = 1 << 16;

/// Plays `config.hands` coups on `config.threads` threads, adding to `progress` as it goes.
pub fn simulate(config: &SimConfig, progress: &AtomicU64) -> Result<Counts, SimError> {
    let threads = config.threads.max(1) as u64;
    // Fail before spawning anything.
    Shoe::new(config.rules.decks, config.rules.end_of_shoe, config.rules.burn).map_err(SimError::Shoe)?;
    let mut total = Counts::default();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let share = config.hands / threads + u64::from(t < config.hands % threads);
                let seed = thread_seed(config.seed, t);
                scope.spawn(move || play(config, share, seed, progress))
            })
            .collect();
        for worker in workers {
            if let Ok(Ok(counts)) = worker.join() {
                total.merge(&counts);
            }
        }
    });
    Ok(total)
}

/// A distinct non-zero 32-bit seed per thread (splitmix64's finaliser spreads nearby seeds).
fn thread_seed(seed: u64, thread: u64) -> u32 {
    let mut z = seed.wrapping_add(thread.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) as u32 | 1
}

/// The drawing rules flattened into tables once per run, read from `DrawRules` (the
/// firmware's own rules), so that the hot loop is lookups rather than matches.
#[derive(Clone, Copy, Debug)]
pub struct RuleTables {
    player: [Rule; 10],
    banker: [[Rule; 11]; 8],
}

impl RuleTables {
    /// The tables of `rules`.
    pub fn new(rules: DrawRules) -> RuleTables {
        RuleTables {
            player: core::array::from_fn(|total| rules.player(total as u8)),
            banker: core::array::from_fn(|total| {
                core::array::from_fn(|column| {
                    rules.banker(total as u8, (column != PLAYER_STOOD).then_some(column as u8))
                })
            }),
        }
    }
}

/// One coup's result, as the simulator counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dealt {
    /// The player's final total.
    pub player: u8,
    /// The bank's final total.
    pub banker: u8,
    /// Cards dealt.
    pub cards: u8,
    /// Either hand was a natural.
    pub natural: bool,
}

/// Deals one coup from `shoe` the way `bac_rules::Coup` does (same cards, same order, the
/// same questions put to `strategy` at the same points, so the generator stays in step),
/// without the state machine's bookkeeping: the simulator's hot loop. A test holds it to
/// the state machine coup for coup.
#[inline]
pub fn deal_coup(tables: &RuleTables, shoe: &mut Shoe, rng: &mut Xorshift32, strategy: &mut impl Strategy) -> Dealt {
    let mut quiet = |_| {};
    let mut card = |shoe: &mut Shoe, rng: &mut Xorshift32| shoe.deal(rng, &mut quiet).points();
    let p1 = card(shoe, rng);
    let b1 = card(shoe, rng);
    let mut player = (p1 + card(shoe, rng)) % 10;
    let mut banker = (b1 + card(shoe, rng)) % 10;
    if player >= 8 || banker >= 8 {
        return Dealt { player, banker, cards: 4, natural: true };
    }
    let mut cards = 4;
    let draws = match tables.player[usize::from(player)] {
        Rule::Draw => true,
        Rule::Stand => false,
        Rule::Choose => strategy.decide(Question::PlayerOnFive, rng) == Decision::Draw,
    };
    let mut column = PLAYER_STOOD;
    if draws {
        let third = card(shoe, rng);
        player = (player + third) % 10;
        column = usize::from(third);
        cards += 1;
    }
    let draws = match tables.banker[usize::from(banker)][column] {
        Rule::Draw => true,
        Rule::Stand => false,
        Rule::Choose => {
            let player_third = (column != PLAYER_STOOD).then_some(column as u8);
            strategy.decide(Question::Banker { total: banker, player_third }, rng) == Decision::Draw
        }
    };
    if draws {
        banker = (banker + card(shoe, rng)) % 10;
        cards += 1;
    }
    Dealt { player, banker, cards, natural: false }
}

fn play(config: &SimConfig, hands: u64, seed: u32, progress: &AtomicU64) -> Result<Counts, SimError> {
    let rules = &config.rules;
    let tables = RuleTables::new(rules.draw);
    let mut shoe = Shoe::new(rules.decks, rules.end_of_shoe, rules.burn).map_err(SimError::Shoe)?;
    let mut rng = Xorshift32::new(seed);
    let mut strategy = config.strategy;
    let mut counts = Counts::default();
    let mut done = 0;
    while done < hands {
        let batch = PROGRESS_EVERY.min(hands - done);
        for _ in 0..batch {
            shoe.begin_coup(&mut rng, &mut |_| {});
            let dealt = deal_coup(&tables, &mut shoe, &mut rng, &mut strategy);
            let player_wins = dealt.player > dealt.banker;
            let banker_wins = dealt.banker > dealt.player;
            counts.player += u64::from(player_wins);
            counts.banker += u64::from(banker_wins);
            counts.banker_six += u64::from(banker_wins && dealt.banker == 6);
            counts.tie += u64::from(dealt.player == dealt.banker);
            counts.cards[usize::from(dealt.cards - 4)] += 1;
            counts.natural += u64::from(dealt.natural);
        }
        counts.hands += batch;
        done += batch;
        progress.fetch_add(batch, Ordering::Relaxed);
    }
    Ok(counts)
}
