//! Published card-counting systems for side bets, as the simulator plays them over whole
//! shoes: tags by point value, a running count from the top of each shoe, and the point at
//! which the counter bets.

/// When a count says bet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Trigger {
    /// An unbalanced count: start at `start_per_deck` times the decks, bet when the running
    /// count is at least `bet_at` (no division at the table).
    Running {
        /// The initial count per deck.
        start_per_deck: i32,
        /// The running count to bet at.
        bet_at: i32,
    },
    /// A balanced count: bet when the running count per deck left is at least `bet_at`.
    True {
        /// The true count to bet at.
        bet_at: i32,
    },
}

/// A counting system for one side bet.
#[derive(Debug, PartialEq)]
pub struct CountSystem {
    /// Its command-line name.
    pub name: &'static str,
    /// The side bet it plays (one of `side::NAMES`).
    pub bet: &'static str,
    /// Where it is published, and what its author measured with it.
    pub source: &'static str,
    /// Tag per point value (index 0: tens and faces).
    pub tags: [i32; 10],
    /// When to bet.
    pub trigger: Trigger,
}

impl CountSystem {
    /// The running count a fresh shoe of `decks` starts from.
    pub fn start(&self, decks: u8) -> i32 {
        match self.trigger {
            Trigger::Running { start_per_deck, .. } => start_per_deck * i32::from(decks),
            Trigger::True { .. } => 0,
        }
    }

    /// Whether to bet with running count `running` and `remaining` cards left.
    pub fn bets(&self, running: i32, remaining: usize) -> bool {
        match self.trigger {
            Trigger::Running { bet_at, .. } => running >= bet_at,
            // running / (remaining / 52) >= bet_at, without a division.
            Trigger::True { bet_at } => i64::from(running) * 52 >= i64::from(bet_at) * remaining as i64,
        }
    }
}

/// Stephen How's unbalanced Dragon 7 count: A +1, 4 to 7 −1, 8 and 9 +2; start at −32
/// with eight decks (−4 a deck: one deck's tags add up to +4), bet when the count is 0 or
/// more. He reports +52% of a bet per eight-deck shoe with 16 cards behind the cut card,
/// about 6.8 bets a shoe.
pub const DRAGON_7_HOW: CountSystem = CountSystem {
    name: "dragon-7",
    bet: "dragon-7",
    source: "Stephen How, \"Unbalanced Dragon 7 Count\", discountgambling.net, 2012",
    tags: [0, 1, 0, 0, -1, -1, -1, -1, 2, 2],
    trigger: Trigger::Running { start_per_deck: -4, bet_at: 0 },
};

/// Eliot Jacobson's Big Tiger count: 3, 4, 5 −1, 6 −2, 7 +1, 8 and 9 +2; bet at a true
/// count of +8. He reports, over 100 million eight-deck shoes cut at 14 cards, a bet
/// frequency of 3.536% and an edge of 7.227% when betting.
pub const BIG_TIGER_JACOBSON: CountSystem = CountSystem {
    name: "big-tiger",
    bet: "big-tiger",
    source: "Eliot Jacobson, \"Card Counting the Big Tiger Baccarat Side Bet\", advancedadvantageplay.com, 2024",
    tags: [0, 0, 0, -1, -1, -1, -2, 1, 2, 2],
    trigger: Trigger::True { bet_at: 8 },
};

/// Every system, by name.
pub const SYSTEMS: [&CountSystem; 2] = [&DRAGON_7_HOW, &BIG_TIGER_JACOBSON];

/// The system called `name`.
pub fn system(name: &str) -> Option<&'static CountSystem> {
    SYSTEMS.into_iter().find(|s| s.name == name)
}
