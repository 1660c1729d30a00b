//! What is left in a shoe, as exactly as it is known: the cards of each point value, and
//! for the bets on pairs, what is known of their ranks and suits.
//!
//! A card taken out by rank alone ("remove K") leaves its suit unknown; a count of tens
//! leaves their ranks unknown. Such a shoe is not one shoe but a distribution over shoes:
//! the unseen cards are a uniformly random subset of those their description allows. The
//! cards of one *group* (one rank, or all the tens for a count by point value) then follow
//! a multivariate hypergeometric law, whose factorial moments are closed forms; the pair
//! bets need nothing more (see [`Composition::pair_moments`]). The main bets and the bets on
//! finished hands depend only on point values, which are always known exactly.

use bac_rules::{Card, Suit};
use rand::{Rng, RngExt};
use std::fmt;

/// Ranks 1 (ace) to 13 (king); 10 to 13 count zero.
pub const RANKS: u8 = 13;
/// Suits, in the order `s h d c`.
pub const SUITS: &str = "shdc";

/// The point value of a rank.
pub fn points(rank: u8) -> u8 {
    if rank >= 10 { 0 } else { rank }
}

/// The name of a rank as the shoe syntax writes it.
pub fn rank_name(rank: u8) -> &'static str {
    ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"][usize::from(rank - 1)]
}

/// One kind of card (rank and suit) inside a group, with how many of it the shoe held
/// before the cards of unknown suit or rank were taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Label {
    rank: u8,
    suit: u8,
    count: u32,
}

/// Cards whose ranks and suits are known only together: `remaining` of them are left, a
/// uniformly random choice among the `labels` counts.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Group {
    labels: Vec<Label>,
    remaining: u32,
}

impl Group {
    fn prior(&self) -> u32 {
        self.labels.iter().map(|l| l.count).sum()
    }
}

/// A shoe's composition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Composition {
    decks: u8,
    groups: Vec<Group>,
}

/// Why a shoe description was refused. Each names what it refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShoeError {
    /// A word that is neither a card nor a count.
    NotACard(String),
    /// More cards of one kind taken out than the shoe holds.
    TooMany {
        /// The card, as written.
        card: String,
        /// How many of it the shoe held.
        held: u32,
    },
    /// A count vector of the wrong length.
    Length(usize),
    /// A word in a count vector that is not a whole number.
    NotACount(String),
    /// A count larger than the shoe holds.
    CountTooLarge {
        /// The value counted (`A`, `2`..`9`, `T`).
        value: &'static str,
        /// The count given.
        count: u32,
        /// What the shoe holds.
        held: u32,
    },
    /// Fewer cards left than one coup may need.
    TooFew(u32),
    /// Nothing after `remove`, or nothing at all.
    Empty,
}

impl fmt::Display for ShoeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShoeError::NotACard(word) => write!(
                f,
                "`{word}` is not a card: write A, 2-9, 10 (or T), J, Q, K, with an optional suit s, h, d or c (Ks, 10h)"
            ),
            ShoeError::TooMany { card, held } => {
                write!(f, "`{card}` is taken out more often than the shoe holds it ({held})")
            }
            ShoeError::NotACount(word) => {
                write!(f, "`{word}` is not a count: ten whole numbers, or `remove` and the cards taken out")
            }
            ShoeError::Length(n) => {
                write!(f, "a count vector has 10 numbers (A, 2, ..., 9, then tens and faces), not {n}")
            }
            ShoeError::CountTooLarge { value, count, held } => {
                write!(f, "{count} cards of value {value}, but the shoe holds only {held}")
            }
            ShoeError::TooFew(0) => write!(f, "the shoe is empty: no card is left to deal"),
            ShoeError::TooFew(n) => write!(f, "{n} cards left: a coup may need 6"),
            ShoeError::Empty => write!(f, "the shoe description is empty: `remove CARD ...` or 10 counts"),
        }
    }
}

impl std::error::Error for ShoeError {}

/// The value names of a count vector, in its order.
const VALUE_NAMES: [&str; 10] = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"];

impl Composition {
    /// A full shoe of `decks` decks.
    pub fn full(decks: u8) -> Composition {
        let d = u32::from(decks);
        let groups = (1..=RANKS)
            .map(|rank| Group { labels: (0..4).map(|suit| Label { rank, suit, count: d }).collect(), remaining: 4 * d })
            .collect();
        Composition { decks, groups }
    }

    /// Reads `remove CARD ...` (cards taken out of a full shoe of `decks` decks) or ten
    /// counts (aces to nines, then tens and faces: what is left).
    pub fn parse(decks: u8, text: &str) -> Result<Composition, ShoeError> {
        let words: Vec<&str> = text.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
        let composition = match words.split_first() {
            None => return Err(ShoeError::Empty),
            Some((first, cards)) if first.eq_ignore_ascii_case("remove") => {
                let mut shoe = Composition::full(decks);
                for card in cards {
                    shoe.remove(card)?;
                }
                shoe
            }
            Some(_) => {
                if words.len() != 10 {
                    return Err(ShoeError::Length(words.len()));
                }
                let mut counts = [0u32; 10];
                for (i, word) in words.iter().enumerate() {
                    counts[i] = word.parse().map_err(|_| ShoeError::NotACount((*word).to_string()))?;
                }
                Composition::from_counts(decks, counts)?
            }
        };
        match composition.total() {
            n if n < 6 => Err(ShoeError::TooFew(n)),
            _ => Ok(composition),
        }
    }

    /// What is left when `counts` (aces to nines, then tens) remain of `decks` decks: the
    /// ranks of the tens and every suit unknown.
    pub fn from_counts(decks: u8, counts: [u32; 10]) -> Result<Composition, ShoeError> {
        let d = u32::from(decks);
        let mut groups = Vec::new();
        for (i, &count) in counts.iter().enumerate() {
            let ranks: Vec<u8> = if i < 9 { vec![i as u8 + 1] } else { (10..=RANKS).collect() };
            let labels: Vec<Label> =
                ranks.iter().flat_map(|&rank| (0..4).map(move |suit| Label { rank, suit, count: d })).collect();
            let group = Group { remaining: count, labels };
            if count > group.prior() {
                return Err(ShoeError::CountTooLarge { value: VALUE_NAMES[i], count, held: group.prior() });
            }
            groups.push(group);
        }
        Ok(Composition { decks, groups })
    }

    /// Takes one card out, by rank (its suit unknown) or by rank and suit.
    pub fn remove(&mut self, card: &str) -> Result<(), ShoeError> {
        let (rank, suit) = parse_card(card).ok_or_else(|| ShoeError::NotACard(card.to_string()))?;
        let group = self
            .groups
            .iter_mut()
            .find(|g| g.labels.iter().any(|l| l.rank == rank))
            .ok_or_else(|| ShoeError::NotACard(card.to_string()))?;
        let held = group.remaining;
        let too_many = || ShoeError::TooMany { card: card.to_string(), held };
        if group.remaining == 0 {
            return Err(too_many());
        }
        if let Some(suit) = suit {
            let label = group.labels.iter_mut().find(|l| l.rank == rank && l.suit == suit).ok_or_else(too_many)?;
            if label.count == 0 {
                return Err(too_many());
            }
            label.count -= 1;
        } else if group.labels.iter().all(|l| l.rank == rank) {
            // A rank taken out of its own group: the suit stays unknown.
        } else {
            // A rank taken out of the tens when only their total is known would need the
            // ranks' posterior, not one hypergeometric law: refuse rather than approximate.
            return Err(ShoeError::NotACard(format!("{card} (a count vector knows only the tens' total)")));
        }
        group.remaining -= 1;
        Ok(())
    }

    /// The same shoe less one card of `rank`, suit unknown; `None` if none is left.
    pub fn without_rank(&self, rank: u8) -> Option<Composition> {
        let mut shoe = self.clone();
        shoe.remove(rank_name(rank)).ok()?;
        Some(shoe)
    }

    /// The same shoe less one card of point value `points`, its rank (for a ten) and suit
    /// unknown; `None` if none is left or the shoe knows its tens by rank.
    pub fn without_points(&self, points_value: u8) -> Option<Composition> {
        if points_value == 0 && self.knows_ranks() {
            return None;
        }
        let mut shoe = self.clone();
        let group = shoe.groups.iter_mut().find(|g| g.labels.iter().all(|l| points(l.rank) == points_value))?;
        group.remaining = group.remaining.checked_sub(1)?;
        Some(shoe)
    }

    /// Whether the tens are known by rank (a `remove` list) or only by their total (counts).
    pub fn knows_ranks(&self) -> bool {
        self.groups.iter().all(|g| g.labels.iter().all(|l| l.rank == g.labels[0].rank))
    }

    /// Decks the shoe started from.
    pub fn decks(&self) -> u8 {
        self.decks
    }

    /// Cards left.
    pub fn total(&self) -> u32 {
        self.groups.iter().map(|g| g.remaining).sum()
    }

    /// Cards left of each point value (index 0: tens and faces).
    pub fn by_points(&self) -> [u32; 10] {
        let mut counts = [0; 10];
        for g in &self.groups {
            counts[usize::from(points(g.labels[0].rank))] += g.remaining;
        }
        counts
    }

    /// The pair figures for two-card hands dealt from this shoe, by rank (`suited` false)
    /// or by rank and suit.
    pub fn pair_moments(&self, suited: bool) -> PairMoments {
        // Keys: a rank, or a rank and suit; each with its group and its prior count.
        let mut keys: Vec<(usize, u32)> = Vec::new();
        for (g, group) in self.groups.iter().enumerate() {
            for l in &group.labels {
                let same_key = |k: &Label| k.rank == l.rank && (!suited || k.suit == l.suit);
                if group.labels.iter().position(same_key) == group.labels.iter().position(|k| k == l) {
                    let count = group.labels.iter().filter(|k| same_key(k)).map(|k| k.count).sum();
                    keys.push((g, count));
                }
            }
        }
        // E[Y^(a) Z^(b)] for disjoint kinds of one group: n^(a+b) K^(a) L^(b) / N^(a+b).
        let moment = |g: usize, counts: &[(u32, u32)]| -> f64 {
            let group = &self.groups[g];
            let order: u32 = counts.iter().map(|c| c.1).sum();
            let prior = falling(group.prior(), order);
            if prior == 0.0 {
                return 0.0;
            }
            counts.iter().map(|&(k, a)| falling(k, a)).product::<f64>() * falling(group.remaining, order) / prior
        };
        let total = self.total();
        let (two, four) = (falling(total, 2), falling(total, 4));
        let mut same2 = 0.0;
        let mut same4 = 0.0;
        let mut cross = 0.0;
        for (i, &(g, k)) in keys.iter().enumerate() {
            same2 += moment(g, &[(k, 2)]);
            same4 += moment(g, &[(k, 4)]);
            for &(h, l) in &keys[i + 1..] {
                let both =
                    if g == h { moment(g, &[(k, 2), (l, 2)]) } else { moment(g, &[(k, 2)]) * moment(h, &[(l, 2)]) };
                cross += 2.0 * both;
            }
        }
        let ratio = |x: f64, d: f64| if d == 0.0 { 0.0 } else { x / d };
        PairMoments { one: ratio(same2, two), both: ratio(same4 + cross, four), twin: ratio(same4, four) }
    }
}

impl Composition {
    /// One shoe this composition may be, drawn at random (each card of unknown suit or rank
    /// equally likely any it could be), into `out`: what the simulator deals a coup from.
    pub fn sample(&self, rng: &mut impl Rng, out: &mut Vec<Card>) {
        const SUIT_OF: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];
        out.clear();
        for group in &self.groups {
            let start = out.len();
            for l in &group.labels {
                if let Some(card) = Card::new(l.rank, SUIT_OF[usize::from(l.suit)]) {
                    out.extend(std::iter::repeat_n(card, l.count as usize));
                }
            }
            // Keep a uniformly random `remaining` of the group: a partial Fisher–Yates.
            let cards = &mut out[start..];
            let keep = group.remaining as usize;
            if keep < cards.len() {
                for i in 0..keep {
                    let j = rng.random_range(i..cards.len());
                    cards.swap(i, j);
                }
                out.truncate(start + keep);
            }
        }
    }
}

/// What the pair bets need, for the four cards that open a coup (two to each hand).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairMoments {
    /// P(a given hand's two cards are a pair).
    pub one: f64,
    /// P(both hands are pairs).
    pub both: f64,
    /// P(both hands are pairs of the same kind).
    pub twin: f64,
}

/// n (n − 1) ... (n − k + 1), in `f64` (exact: these stay below 2^53).
fn falling(n: u32, k: u32) -> f64 {
    (0..k).map(|i| f64::from(n) - f64::from(i)).map(|x| x.max(0.0)).product()
}

/// `K`, `Ks`, `10h`, `t`: the rank and, if written, the suit (0-3 in [`SUITS`] order);
/// `None` for a word that is no card.
pub fn parse_card(word: &str) -> Option<(u8, Option<u8>)> {
    let upper = word.to_ascii_uppercase();
    let (rank_text, suit) = match upper.char_indices().last() {
        Some((i, c)) if upper.len() > 1 && "SHDC".contains(c) => (&upper[..i], SUITS.find(c.to_ascii_lowercase())),
        _ => (upper.as_str(), None),
    };
    let rank = match rank_text {
        "A" | "1" => 1,
        "T" | "10" => 10,
        "J" => 11,
        "Q" => 12,
        "K" => 13,
        digit => match digit.parse::<u8>() {
            Ok(n @ 2..=9) => n,
            _ => return None,
        },
    };
    Some((rank, suit.map(|s| s as u8)))
}
