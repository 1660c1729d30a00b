//! Monte-Carlo play of whole shoes, with the rules' end-of-shoe policy and burn, their
//! drawing rules and strategies: what a player at the table would see, to set beside the
//! exact figures. Side bets are settled coup by coup, and a counting system plays its bet
//! only when its count says so.

use crate::composition::Composition;
use crate::count::CountSystem;
use crate::edge::house_edge;
use crate::exact::Odds;
use crate::fast_shoe::FastShoe;
use crate::outcomes::Ending;
use crate::side::{PayTable, Settle, payoff, settlement, table};
use bac_rules::tableau::PLAYER_STOOD;
use bac_rules::{Builtin, Card, Decision, DrawRules, Question, Rule, RuleSet, Shoe, Spot, Strategy, Xorshift32};
use std::sync::atomic::{AtomicU64, Ordering};

/// What to simulate.
#[derive(Clone, Debug)]
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
    /// Side bets to settle on every coup (names from `side::NAMES`).
    pub side_bets: Vec<&'static str>,
    /// A counting system to play over whole shoes.
    pub count: Option<&'static CountSystem>,
    /// Deal every coup from a fresh shuffle of this composition instead of whole shoes.
    pub shoe: Option<Composition>,
}

impl SimConfig {
    /// Main bets only, no count.
    pub fn new(rules: RuleSet, hands: u64, seed: u64, threads: usize, strategy: Builtin) -> SimConfig {
        SimConfig { rules, hands, seed, threads, strategy, side_bets: Vec::new(), count: None, shoe: None }
    }
}

/// What a counting system did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CountTally {
    /// Coups it bet on.
    pub bets: u64,
    /// The bettor's results summed, in units.
    pub won: f64,
    /// Their squares summed, for the interval.
    pub won_squared: f64,
    /// Shoes started.
    pub shoes: u64,
}

/// Counts of outcomes.
#[derive(Clone, Debug, Default, PartialEq)]
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
    /// Per side bet asked for, the coups that paid each line of its table.
    pub side: Vec<[u64; 8]>,
    /// The counting system's play.
    pub count: CountTally,
}

impl Counts {
    fn merge(&mut self, other: &Counts) {
        self.side.resize(other.side.len().max(self.side.len()), [0; 8]);
        for (a, b) in self.side.iter_mut().zip(&other.side) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self.count.bets += other.count.bets;
        self.count.won += other.count.won;
        self.count.won_squared += other.count.won_squared;
        self.count.shoes += other.count.shoes;
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

impl Counts {
    /// The house edge of the `i`th side bet asked for, with its 95% half-width, from the
    /// coups that paid each line of `table`.
    pub fn side_edge_interval(&self, i: usize, table: &PayTable) -> (f64, f64) {
        let n = self.hands.max(1) as f64;
        let lines = &self.side[i];
        let paid: u64 = lines.iter().sum();
        let mut results: Vec<(f64, f64)> =
            (0..table.pays.len()).map(|l| (payoff(table, Some(l)), lines[l] as f64 / n)).collect();
        results.push((-1.0, (self.hands - paid) as f64 / n));
        let mean: f64 = results.iter().map(|(x, w)| x * w).sum();
        let variance: f64 = results.iter().map(|(x, w)| w * (x - mean).powi(2)).sum();
        (-mean, 1.96 * (variance / n).sqrt())
    }

    /// The counting system's house edge on the coups it bet, with its 95% half-width.
    pub fn count_edge_interval(&self) -> (f64, f64) {
        let c = &self.count;
        let n = c.bets.max(1) as f64;
        let mean = c.won / n;
        let variance = (c.won_squared / n - mean * mean).max(0.0);
        (-mean, 1.96 * (variance / n).sqrt())
    }
}

/// Why a simulation could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    /// The rules could not make a shoe.
    Shoe(bac_rules::shoe::ShoeError),
    /// A side bet no table settles.
    UnknownBet(String),
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Shoe(e) => write!(f, "cannot build the shoe: {e:?}"),
            SimError::UnknownBet(name) => write!(f, "no side bet is called `{name}`"),
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
    for name in config.side_bets.iter().chain(config.count.map(|c| &c.bet)) {
        settlement(name).ok_or_else(|| SimError::UnknownBet((*name).to_string()))?;
    }
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
    /// Whether any cell leaves a choice (then every coup asks the strategy).
    free: bool,
    /// Both hands' draws at once, by [`draw_slot`] of the two-card totals and the card the
    /// player would draw: bit 0 the player draws, bit 1 the bank does. One lookup in place
    /// of two that wait on each other.
    draws: [u8; 4096],
}

/// Where [`RuleTables`]' `draws` holds a coup's draws: a bit field below 4096, so that the
/// masked index needs no bounds check.
#[inline(always)]
fn draw_slot(player: u8, banker: u8, player_third: u8) -> usize {
    (usize::from(player) << 8 | usize::from(banker) << 4 | usize::from(player_third)) & 4095
}

impl RuleTables {
    /// The tables of `rules`.
    pub fn new(rules: DrawRules) -> RuleTables {
        let player: [Rule; 10] = core::array::from_fn(|total| rules.player(total as u8));
        let banker: [[Rule; 11]; 8] = core::array::from_fn(|total| {
            core::array::from_fn(|column| rules.banker(total as u8, (column != PLAYER_STOOD).then_some(column as u8)))
        });
        let free = player.iter().chain(banker.iter().flatten()).any(|&r| r == Rule::Choose);
        let player_draws = player.map(|r| r == Rule::Draw);
        let banker_draws: [[bool; 11]; 10] =
            core::array::from_fn(|total| banker.get(total).map_or([false; 11], |row| row.map(|r| r == Rule::Draw)));
        let mut draws = [0; 4096];
        for (p, &player_may) in player_draws.iter().enumerate() {
            for (b, row) in banker_draws.iter().enumerate() {
                for third in 0..10 {
                    let natural = p >= 8 || b >= 8;
                    let player_drew = !natural && player_may;
                    let banker_drew = !natural && row[if player_drew { third } else { PLAYER_STOOD }];
                    draws[draw_slot(p as u8, b as u8, third as u8)] =
                        u8::from(player_drew) | u8::from(banker_drew) << 1;
                }
            }
        }
        RuleTables { player, banker, free, draws }
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
    /// The player drew a third card.
    pub player_drew: bool,
    /// The cards in the order dealt: player, bank, player, bank, then the thirds.
    pub dealt: [Card; 6],
}

impl Dealt {
    /// The coup's ending, as the exact analysis describes endings.
    pub fn ending(&self) -> Ending {
        let player_cards = 2 + u8::from(self.player_drew);
        Ending {
            player: self.player,
            banker: self.banker,
            player_cards,
            banker_cards: self.cards - player_cards,
            natural: self.natural,
        }
    }

    /// The first four cards: player, bank, player, bank.
    pub fn first_four(&self) -> [Card; 4] {
        [self.dealt[0], self.dealt[1], self.dealt[2], self.dealt[3]]
    }
}

/// Where `deal_coup` takes its cards from: the rules' shoe, or the simulator's lazy one.
pub trait Dealer {
    /// The next card.
    fn card(&mut self, rng: &mut Xorshift32) -> Card;
}

impl Dealer for Shoe {
    #[inline]
    fn card(&mut self, rng: &mut Xorshift32) -> Card {
        self.deal(rng, &mut |_| {})
    }
}

impl Dealer for FastShoe {
    /// The lazy shoe draws with its own generator; `rng` stays for the strategies.
    #[inline]
    fn card(&mut self, _: &mut Xorshift32) -> Card {
        self.deal()
    }
}

/// Deals one coup from `shoe` the way `bac_rules::Coup` does (same cards, same order, the
/// same questions put to `strategy` at the same points, so the generator stays in step),
/// without the state machine's bookkeeping: the simulator's hot loop. A test holds it to
/// the state machine coup for coup.
#[inline]
pub fn deal_coup(
    tables: &RuleTables,
    shoe: &mut impl Dealer,
    rng: &mut Xorshift32,
    strategy: &mut impl Strategy,
) -> Dealt {
    let first = [shoe.card(rng), shoe.card(rng), shoe.card(rng), shoe.card(rng)];
    let mut dealt = [first[0], first[1], first[2], first[3], first[0], first[0]];
    let mut player = (first[0].points() + first[2].points()) % 10;
    let mut banker = (first[1].points() + first[3].points()) % 10;
    if player >= 8 || banker >= 8 {
        return Dealt { player, banker, cards: 4, natural: true, player_drew: false, dealt };
    }
    let mut cards = 4;
    let draws = match tables.player[usize::from(player)] {
        Rule::Draw => true,
        Rule::Stand => false,
        Rule::Choose => strategy.decide(Question::PlayerOnFive, rng) == Decision::Draw,
    };
    let mut column = PLAYER_STOOD;
    let player_drew = draws;
    if draws {
        let card = shoe.card(rng);
        dealt[4] = card;
        let third = card.points();
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
        let card = shoe.card(rng);
        dealt[usize::from(cards)] = card;
        banker = (banker + card.points()) % 10;
        cards += 1;
    }
    Dealt { player, banker, cards, natural: false, player_drew, dealt }
}

/// The counting system's state within one thread.
struct Counter {
    system: &'static CountSystem,
    table: &'static PayTable,
    settle: Settle,
    running: i32,
}

/// Points by card index, 256 entries so that a `u8` index needs no bounds check.
static POINTS: [u8; 256] = {
    let mut points = [0; 256];
    let mut i = 0;
    while i < Card::PER_DECK {
        if let Some(card) = Card::from_index(i) {
            points[i as usize] = card.points();
        }
        i += 1;
    }
    points
};

/// Where [`play`] counts a coup: its totals and its cards beyond four, a bit field below
/// 1024 so that the masked index needs no bounds check.
#[inline(always)]
fn ending_slot(player: u8, banker: u8, cards: u8) -> usize {
    (usize::from(player) << 6 | usize::from(banker) << 2 | usize::from(cards.wrapping_sub(4))) & 1023
}

/// [`deal_coup`] for the simulator: where the rules leave no choice (Punto Banco's
/// tableau) and six cards are left, the coup is settled from six drawn cards without a
/// branch on the cards (a third card's need is a table lookup and a select), and only the
/// cards used are dealt. The same coups in distribution; otherwise `deal_coup` itself.
#[inline(always)]
pub fn deal_coup_fast(
    tables: &RuleTables,
    shoe: &mut FastShoe,
    rng: &mut Xorshift32,
    strategy: &mut impl Strategy,
) -> Dealt {
    if tables.free {
        return deal_coup(tables, shoe, rng, strategy);
    }
    let Some(c) = shoe.draw_six() else { return deal_coup(tables, shoe, rng, strategy) };
    let p = c.map(|card| POINTS[usize::from(card.index())]);
    // Sums of two totals below 10 are below 20: a subtraction, not a division.
    let digit = |x: u8| if x >= 10 { x - 10 } else { x };
    let two_player = digit(p[0] + p[2]);
    let two_banker = digit(p[1] + p[3]);
    let natural = two_player >= 8 || two_banker >= 8;
    let draws = tables.draws[draw_slot(two_player, two_banker, p[4])];
    let (player_drew, banker_drew) = (draws & 1 != 0, draws & 2 != 0);
    let banker_third = if player_drew { p[5] } else { p[4] };
    let player = if player_drew { digit(two_player + p[4]) } else { two_player };
    let banker = if banker_drew { digit(two_banker + banker_third) } else { two_banker };
    let cards = 4 + u8::from(player_drew) + u8::from(banker_drew);
    shoe.commit(usize::from(cards));
    Dealt { player, banker, cards, natural, player_drew, dealt: c }
}

fn play(config: &SimConfig, hands: u64, seed: u32, progress: &AtomicU64) -> Result<Counts, SimError> {
    let rules = &config.rules;
    let tables = RuleTables::new(rules.draw);
    let shoe_seed = u64::from(seed) << 32 | u64::from(seed.rotate_left(16));
    let mut shoe = match &config.shoe {
        Some(composition) => FastShoe::of_composition(composition.clone(), shoe_seed),
        None => FastShoe::new(rules.decks, rules.end_of_shoe, rules.burn, shoe_seed).map_err(SimError::Shoe)?,
    };
    let mut rng = Xorshift32::new(seed);
    let mut strategy = config.strategy;
    let mut counts = Counts { side: vec![[0; 8]; config.side_bets.len()], ..Counts::default() };
    let unknown = |name: &str| SimError::UnknownBet(name.to_string());
    let side: Vec<Settle> =
        config.side_bets.iter().map(|name| settlement(name).ok_or_else(|| unknown(name))).collect::<Result<_, _>>()?;
    let mut counter = match config.count {
        Some(system) => Some(Counter {
            system,
            table: table(system.bet).ok_or_else(|| unknown(system.bet))?,
            settle: settlement(system.bet).ok_or_else(|| unknown(system.bet))?,
            running: 0,
        }),
        None => None,
    };
    let mut endings = [0u64; 1024];
    let mut done = 0;
    while done < hands {
        let batch = PROGRESS_EVERY.min(hands - done);
        for _ in 0..batch {
            let before = shoe.remaining();
            shoe.begin_coup();
            let dealt = if let Some(counter) = &mut counter {
                if shoe.remaining() > before || counts.count.shoes == 0 {
                    // A new shoe: the count starts again (burned cards are unseen).
                    counter.running = counter.system.start(rules.decks);
                    counts.count.shoes += 1;
                }
                let bets = counter.system.bets(counter.running, shoe.remaining());
                let dealt = deal_coup_fast(&tables, &mut shoe, &mut rng, &mut strategy);
                for card in &dealt.dealt[..usize::from(dealt.cards)] {
                    counter.running += counter.system.tags[usize::from(card.points())];
                }
                if bets {
                    let result = payoff(counter.table, (counter.settle)(&dealt.ending(), &dealt.first_four()));
                    counts.count.bets += 1;
                    counts.count.won += result;
                    counts.count.won_squared += result * result;
                }
                dealt
            } else {
                deal_coup_fast(&tables, &mut shoe, &mut rng, &mut strategy)
            };
            // One count per coup, by its totals and cards; the figures are summed after.
            endings[ending_slot(dealt.player, dealt.banker, dealt.cards)] += 1;
            if !side.is_empty() {
                let (ending, first) = (dealt.ending(), dealt.first_four());
                for (bet, lines) in side.iter().zip(counts.side.iter_mut()) {
                    if let Some(line) = bet(&ending, &first) {
                        lines[line] += 1;
                    }
                }
            }
        }
        counts.hands += batch;
        done += batch;
        progress.fetch_add(batch, Ordering::Relaxed);
    }
    for player in 0..10u8 {
        for banker in 0..10u8 {
            for extra in 0..3u8 {
                let n = endings[ending_slot(player, banker, 4 + extra)];
                let extra = usize::from(extra);
                match player.cmp(&banker) {
                    std::cmp::Ordering::Greater => counts.player += n,
                    std::cmp::Ordering::Less if banker == 6 => {
                        counts.banker += n;
                        counts.banker_six += n;
                    }
                    std::cmp::Ordering::Less => counts.banker += n,
                    std::cmp::Ordering::Equal => counts.tie += n,
                }
                counts.cards[extra] += n;
                // Four cards with an 8 or 9 showing: only a natural ends there.
                if extra == 0 && player.max(banker) >= 8 {
                    counts.natural += n;
                }
            }
        }
    }
    Ok(counts)
}
