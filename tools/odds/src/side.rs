//! The side bets casinos offer beside the three main bets, each with the pay table it is
//! dealt under and the source that table comes from, valued exactly from the endings of a
//! coup ([`Outcomes`]) and the pair figures of the shoe ([`PairMoments`]).
//!
//! Pays are whole ratios (`win` for `per` staked), so a 0.54:1 bet is 27:50 and no pay is
//! rounded; the house edge is a fraction of the stake per coup.

use crate::composition::PairMoments;
use crate::outcomes::{Ending, Outcomes};
use bac_rules::Card;

/// A pay: `win` for every `per` staked; `0:1` is a push (the stake comes back).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pays {
    /// Won.
    pub win: u32,
    /// For this much staked.
    pub per: u32,
}

impl Pays {
    const fn to_one(win: u32) -> Pays {
        Pays { win, per: 1 }
    }

    /// The stake back, nothing won.
    pub const PUSH: Pays = Pays { win: 0, per: 1 };

    fn ratio(self) -> f64 {
        f64::from(self.win) / f64::from(self.per)
    }
}

impl std::fmt::Display for Pays {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if *self == Pays::PUSH { write!(f, "push") } else { write!(f, "{}:{}", self.win, self.per) }
    }
}

/// One paying (or pushing) outcome of a bet; whatever no line names loses the stake.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    /// The outcome, in words.
    pub event: &'static str,
    /// What it pays.
    pub pays: Pays,
    /// Its probability.
    pub probability: f64,
}

/// A side bet valued on one shoe.
#[derive(Clone, Debug, PartialEq)]
pub struct SideBet {
    /// Its command-line and JSON name.
    pub key: &'static str,
    /// The pay table's name and where it comes from.
    pub table: &'static PayTable,
    /// Every outcome that does not lose.
    pub lines: Vec<Line>,
}

impl SideBet {
    /// P(the stake is lost).
    pub fn loses(&self) -> f64 {
        1.0 - self.lines.iter().map(|l| l.probability).sum::<f64>()
    }

    /// The bettor's expectation per unit staked.
    pub fn expectation(&self) -> f64 {
        self.lines.iter().map(|l| l.pays.ratio() * l.probability).sum::<f64>() - self.loses()
    }

    /// The house edge, a fraction of the stake.
    pub fn house_edge(&self) -> f64 {
        -self.expectation()
    }

    /// The standard deviation of the bettor's result per unit staked: what a counter's
    /// bankroll and a casino's limits are set by.
    pub fn standard_deviation(&self) -> f64 {
        let mean = self.expectation();
        let paying: f64 = self.lines.iter().map(|l| l.probability * (l.pays.ratio() - mean).powi(2)).sum();
        (paying + self.loses() * (-1.0 - mean).powi(2)).sqrt()
    }
}

/// A named pay table and the source it is quoted from.
#[derive(Debug, PartialEq, Eq)]
pub struct PayTable {
    /// The table's name.
    pub name: &'static str,
    /// Where the table is published.
    pub source: &'static str,
    /// (outcome, pays), in the order reports list them.
    pub pays: &'static [(&'static str, Pays)],
}

const WOO_SIDE_BETS: &str = "Wizard of Odds, Baccarat side bets (wizardofodds.com/games/baccarat/side-bets)";

/// The pair bet on the player's or the bank's first two cards: same rank, suits aside.
pub const PAIR_11: PayTable = PayTable {
    name: "Pair 11:1",
    source: WOO_SIDE_BETS,
    pays: &[("the hand's first two cards pair", Pays::to_one(11))],
};
/// Either Pair: a pair in either hand, paid once.
pub const EITHER_PAIR_5: PayTable =
    PayTable { name: "Either Pair 5:1", source: WOO_SIDE_BETS, pays: &[("either hand pairs", Pays::to_one(5))] };
/// Perfect Pair, version 1: a pair of the same rank and suit in either hand, paid once.
pub const PERFECT_PAIR_25: PayTable = PayTable {
    name: "Perfect Pairs (version 1) 25:1",
    source: "Wizard of Odds, Perfect Pairs version 1 (Playtech, BetConstruct)",
    pays: &[("either hand is a pair of one rank and suit", Pays::to_one(25))],
};
/// EZ Baccarat's Dragon 7.
pub const DRAGON_7_40: PayTable = PayTable {
    name: "EZ Baccarat Dragon 7 40:1",
    source: "EZ Baccarat (DEQ Systems), as the casinos dealing it publish it",
    pays: &[("the bank wins with a three-card 7", Pays::to_one(40))],
};
/// EZ Baccarat's Panda 8.
pub const PANDA_8_25: PayTable = PayTable {
    name: "EZ Baccarat Panda 8 25:1",
    source: "EZ Baccarat (DEQ Systems), as the casinos dealing it publish it",
    pays: &[("the player wins with a three-card 8", Pays::to_one(25))],
};
/// EZ Baccarat's bank bet: even money, no commission, a three-card 7 win pushes.
pub const EZ_BANKER: PayTable = PayTable {
    name: "EZ Baccarat banker",
    source: "EZ Baccarat (DEQ Systems), as the casinos dealing it publish it",
    pays: &[
        ("the bank wins, not with a three-card 7", Pays::to_one(1)),
        ("the bank wins with a three-card 7", Pays::PUSH),
        ("tie", Pays::PUSH),
    ],
};
/// EZ Baccarat's player bet: the ordinary one.
pub const EZ_PLAYER: PayTable = PayTable {
    name: "EZ Baccarat player",
    source: "EZ Baccarat (DEQ Systems), as the casinos dealing it publish it",
    pays: &[("the player wins", Pays::to_one(1)), ("tie", Pays::PUSH)],
};
/// The common Dragon Bonus table, the same on either side.
pub const DRAGON_BONUS: PayTable = PayTable {
    name: "Dragon Bonus (common table)",
    source: "Wizard of Odds, Baccarat appendix 5, Dragon Bonus",
    pays: &[
        ("natural win", Pays::to_one(1)),
        ("natural tie", Pays::PUSH),
        ("non-natural win by 9", Pays::to_one(30)),
        ("non-natural win by 8", Pays::to_one(10)),
        ("non-natural win by 7", Pays::to_one(6)),
        ("non-natural win by 6", Pays::to_one(4)),
        ("non-natural win by 5", Pays::to_one(2)),
        ("non-natural win by 4", Pays::to_one(1)),
    ],
};
/// Big: five or six cards dealt.
pub const BIG: PayTable = PayTable {
    name: "Big 0.54:1",
    source: "Big and Small as Playtech and Ezugi deal them (Wizard of Odds, Baccarat side bets)",
    pays: &[("five or six cards dealt", Pays { win: 27, per: 50 })],
};
/// Small: four cards dealt.
pub const SMALL: PayTable = PayTable {
    name: "Small 1.5:1",
    source: "Big and Small as Playtech and Ezugi deal them (Wizard of Odds, Baccarat side bets)",
    pays: &[("four cards dealt", Pays { win: 3, per: 2 })],
};
const TIGER_SOURCE: &str = "EZ Baccarat's Tiger bets as casinos deal them (no published analysis checked)";
const SIX_SOURCE: &str =
    "Macau's Small 6 / Big 6 (Macau Daily Times, 2024); Eliot Jacobson, advancedadvantageplay.com, 2024";
/// Tiger: the bank wins with 6.
pub const TIGER: PayTable = PayTable {
    name: "Tiger 12:1 / 20:1",
    source: TIGER_SOURCE,
    pays: &[
        ("the bank wins with a two-card 6", Pays::to_one(12)),
        ("the bank wins with a three-card 6", Pays::to_one(20)),
    ],
};
/// Small Tiger: the bank wins with a two-card 6.
pub const SMALL_TIGER: PayTable = PayTable {
    name: "Small Tiger 22:1",
    source: SIX_SOURCE,
    pays: &[("the bank wins with a two-card 6", Pays::to_one(22))],
};
/// Big Tiger: the bank wins with a three-card 6.
pub const BIG_TIGER: PayTable = PayTable {
    name: "Big Tiger 50:1",
    source: SIX_SOURCE,
    pays: &[("the bank wins with a three-card 6", Pays::to_one(50))],
};
/// Tiger Tie: a tie at 6.
pub const TIGER_TIE: PayTable =
    PayTable { name: "Tiger Tie 35:1", source: TIGER_SOURCE, pays: &[("a tie at 6", Pays::to_one(35))] };
/// Tiger Pair: pairs in the first two cards of either or both hands.
pub const TIGER_PAIR: PayTable = PayTable {
    name: "Tiger Pair 4:1 / 20:1 / 100:1",
    source: TIGER_SOURCE,
    pays: &[
        ("one hand pairs", Pays::to_one(4)),
        ("both hands pair, different ranks", Pays::to_one(20)),
        ("both hands pair, the same rank (twin pair)", Pays::to_one(100)),
    ],
};

/// Every side bet's name, in report order: what `--side-bets` and the sim accept.
pub const NAMES: [&str; 17] = [
    "player-pair",
    "banker-pair",
    "either-pair",
    "perfect-pair",
    "dragon-7",
    "panda-8",
    "ez-banker",
    "ez-player",
    "dragon-bonus-player",
    "dragon-bonus-banker",
    "big",
    "small",
    "tiger",
    "small-tiger",
    "big-tiger",
    "tiger-tie",
    "tiger-pair",
];

/// Which hand a bet backs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Player,
    Banker,
}

impl Side {
    fn wins(self, e: &Ending) -> bool {
        match self {
            Side::Player => e.player_wins(),
            Side::Banker => e.banker_wins(),
        }
    }

    fn margin(self, e: &Ending) -> u8 {
        match self {
            Side::Player => e.player.wrapping_sub(e.banker),
            Side::Banker => e.banker.wrapping_sub(e.player),
        }
    }

    fn natural(self, e: &Ending) -> bool {
        let (total, cards) = match self {
            Side::Player => (e.player, e.player_cards),
            Side::Banker => (e.banker, e.banker_cards),
        };
        cards == 2 && total >= 8
    }
}

fn dragon_7(e: &Ending) -> bool {
    e.banker_wins() && e.banker == 7 && e.banker_cards == 3
}

fn panda_8(e: &Ending) -> bool {
    e.player_wins() && e.player == 8 && e.player_cards == 3
}

fn banker_six(e: &Ending, cards: u8) -> bool {
    e.banker_wins() && e.banker == 6 && e.banker_cards == cards
}

/// Every side bet, valued on the shoe whose endings are `outcomes` and whose pair figures
/// are `pairs` (by rank) and `suited` (by rank and suit).
pub fn side_bets(outcomes: &Outcomes, pairs: &PairMoments, suited: &PairMoments) -> Vec<SideBet> {
    let p = |event: &dyn Fn(&Ending) -> bool| outcomes.probability(event);
    let bet = |key, table: &'static PayTable, probabilities: &[f64]| SideBet {
        key,
        table,
        lines: table
            .pays
            .iter()
            .zip(probabilities)
            .map(|(&(event, pays), &probability)| Line { event, pays, probability })
            .collect(),
    };
    let dragon_bonus = |side: Side| {
        let mut probabilities = vec![p(&|e| side.natural(e) && side.wins(e)), p(&|e| e.natural && e.tie())];
        for margin in (4..=9).rev() {
            probabilities.push(p(&|e| !side.natural(e) && side.wins(e) && side.margin(e) == margin));
        }
        probabilities
    };
    let d7 = p(&dragon_7);
    vec![
        bet("player-pair", &PAIR_11, &[pairs.one]),
        bet("banker-pair", &PAIR_11, &[pairs.one]),
        bet("either-pair", &EITHER_PAIR_5, &[2.0 * pairs.one - pairs.both]),
        bet("perfect-pair", &PERFECT_PAIR_25, &[2.0 * suited.one - suited.both]),
        bet("dragon-7", &DRAGON_7_40, &[d7]),
        bet("panda-8", &PANDA_8_25, &[p(&panda_8)]),
        bet("ez-banker", &EZ_BANKER, &[p(&|e| e.banker_wins()) - d7, d7, p(&|e| e.tie())]),
        bet("ez-player", &EZ_PLAYER, &[p(&|e| e.player_wins()), p(&|e| e.tie())]),
        bet("dragon-bonus-player", &DRAGON_BONUS, &dragon_bonus(Side::Player)),
        bet("dragon-bonus-banker", &DRAGON_BONUS, &dragon_bonus(Side::Banker)),
        bet("big", &BIG, &[p(&|e| e.cards() > 4)]),
        bet("small", &SMALL, &[p(&|e| e.cards() == 4)]),
        bet("tiger", &TIGER, &[p(&|e| banker_six(e, 2)), p(&|e| banker_six(e, 3))]),
        bet("small-tiger", &SMALL_TIGER, &[p(&|e| banker_six(e, 2))]),
        bet("big-tiger", &BIG_TIGER, &[p(&|e| banker_six(e, 3))]),
        bet("tiger-tie", &TIGER_TIE, &[p(&|e| e.tie() && e.player == 6)]),
        bet("tiger-pair", &TIGER_PAIR, &[2.0 * (pairs.one - pairs.both), pairs.both - pairs.twin, pairs.twin]),
    ]
}

/// Which line of a bet one dealt coup pays, if any: the same events as [`side_bets`],
/// decided card by card (the simulator's settlement, and a second reading of each table).
pub type Settle = fn(&Ending, &[Card; 4]) -> Option<usize>;

fn pair(a: Card, b: Card) -> bool {
    a.rank() == b.rank()
}

fn perfect(a: Card, b: Card) -> bool {
    a == b
}

/// The settlement of the bet named `key` (one of [`NAMES`]); the four cards are the
/// first four dealt: player, bank, player, bank.
pub fn settlement(key: &str) -> Option<Settle> {
    let settle: Settle = match key {
        "player-pair" => |_, c| pair(c[0], c[2]).then_some(0),
        "banker-pair" => |_, c| pair(c[1], c[3]).then_some(0),
        "either-pair" => |_, c| (pair(c[0], c[2]) || pair(c[1], c[3])).then_some(0),
        "perfect-pair" => |_, c| (perfect(c[0], c[2]) || perfect(c[1], c[3])).then_some(0),
        "dragon-7" => |e, _| dragon_7(e).then_some(0),
        "panda-8" => |e, _| panda_8(e).then_some(0),
        "ez-banker" => |e, _| {
            if dragon_7(e) {
                Some(1)
            } else if e.banker_wins() {
                Some(0)
            } else {
                e.tie().then_some(2)
            }
        },
        "ez-player" => |e, _| {
            if e.player_wins() { Some(0) } else { e.tie().then_some(1) }
        },
        "dragon-bonus-player" => |e, _| dragon_bonus_line(Side::Player, e),
        "dragon-bonus-banker" => |e, _| dragon_bonus_line(Side::Banker, e),
        "big" => |e, _| (e.cards() > 4).then_some(0),
        "small" => |e, _| (e.cards() == 4).then_some(0),
        "tiger" => |e, _| {
            if banker_six(e, 2) { Some(0) } else { banker_six(e, 3).then_some(1) }
        },
        "small-tiger" => |e, _| banker_six(e, 2).then_some(0),
        "big-tiger" => |e, _| banker_six(e, 3).then_some(0),
        "tiger-tie" => |e, _| (e.tie() && e.player == 6).then_some(0),
        "tiger-pair" => |_, c| match (pair(c[0], c[2]), pair(c[1], c[3])) {
            (true, true) if c[0].rank() == c[1].rank() => Some(2),
            (true, true) => Some(1),
            (true, false) | (false, true) => Some(0),
            (false, false) => None,
        },
        _ => return None,
    };
    Some(settle)
}

fn dragon_bonus_line(side: Side, e: &Ending) -> Option<usize> {
    if side.natural(e) && side.wins(e) {
        Some(0)
    } else if e.natural && e.tie() {
        Some(1)
    } else if side.wins(e) && side.margin(e) >= 4 {
        Some(2 + usize::from(9 - side.margin(e)))
    } else {
        None
    }
}

/// The pay table of the bet named `key`.
pub fn table(key: &str) -> Option<&'static PayTable> {
    Some(match key {
        "player-pair" | "banker-pair" => &PAIR_11,
        "either-pair" => &EITHER_PAIR_5,
        "perfect-pair" => &PERFECT_PAIR_25,
        "dragon-7" => &DRAGON_7_40,
        "panda-8" => &PANDA_8_25,
        "ez-banker" => &EZ_BANKER,
        "ez-player" => &EZ_PLAYER,
        "dragon-bonus-player" | "dragon-bonus-banker" => &DRAGON_BONUS,
        "big" => &BIG,
        "small" => &SMALL,
        "tiger" => &TIGER,
        "small-tiger" => &SMALL_TIGER,
        "big-tiger" => &BIG_TIGER,
        "tiger-tie" => &TIGER_TIE,
        "tiger-pair" => &TIGER_PAIR,
        _ => return None,
    })
}

/// The bettor's result per unit staked when line `line` pays (`None`: the stake is lost).
pub fn payoff(table: &PayTable, line: Option<usize>) -> f64 {
    line.map_or(-1.0, |i| table.pays[i].1.ratio())
}
