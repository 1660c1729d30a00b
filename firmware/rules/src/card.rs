//! Playing cards: a standard 52-card deck, no jokers (seed 002 removes them).
//!
//! A card is one byte so that an eight-deck shoe (416 cards) fits in 416 bytes of C128 RAM.

/// The four suits, in bridge order. Only the screen cares about suits; the rules never do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Suit {
    /// ♣
    Clubs,
    /// ♦
    Diamonds,
    /// ♥
    Hearts,
    /// ♠
    Spades,
}

impl Suit {
    /// Diamonds and hearts are drawn in red.
    pub const fn is_red(self) -> bool {
        matches!(self, Suit::Diamonds | Suit::Hearts)
    }
}

/// Rank by card index. A table, because the 6502 has no divider: `index % 13` would be a
/// software division on every card dealt.
const RANKS: [u8; 52] = {
    let mut ranks = [0u8; 52];
    let mut i = 0;
    while i < 52 {
        ranks[i] = (i % 13) as u8 + 1;
        i += 1;
    }
    ranks
};

/// Baccarat points by card index, for the same reason.
const POINTS: [u8; 52] = {
    let mut points = [0u8; 52];
    let mut i = 0;
    while i < 52 {
        points[i] = if RANKS[i] >= 10 { 0 } else { RANKS[i] };
        i += 1;
    }
    points
};

/// A table entry; a card index is always below 52, and the comparison lets the compiler
/// drop the bounds check and its panic path.
const fn lookup(table: &[u8; 52], index: u8) -> u8 {
    if (index as usize) < table.len() { table[index as usize] } else { 0 }
}

/// One card: `index = suit * 13 + (rank - 1)`, so 0 is the ace of clubs and 51 the king of
/// spades.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Card(u8);

impl Card {
    /// Cards in one deck.
    pub const PER_DECK: u8 = 52;

    /// The card with this index in a fresh deck; `None` past 51.
    pub const fn from_index(index: u8) -> Option<Card> {
        if index < Self::PER_DECK { Some(Card(index)) } else { None }
    }

    /// The card at position `i` of fresh decks laid end to end (deck order repeats every 52).
    pub const fn in_fresh_decks(i: u16) -> Card {
        Card((i % Self::PER_DECK as u16) as u8)
    }

    /// The card after this one in fresh decks laid end to end: the next in its deck, and
    /// after the king of spades the ace of clubs.
    pub const fn next_in_fresh_decks(self) -> Card {
        if self.0 + 1 < Self::PER_DECK { Card(self.0 + 1) } else { Card(0) }
    }

    /// The card of `rank` (1 = ace … 13 = king) in `suit`; `None` for a rank out of range.
    pub const fn new(rank: u8, suit: Suit) -> Option<Card> {
        if rank >= 1 && rank <= 13 { Some(Card(suit as u8 * 13 + rank - 1)) } else { None }
    }

    /// Position in a fresh deck, 0..52.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// 1 = ace, 2–10 pips, 11 = jack, 12 = queen, 13 = king.
    pub const fn rank(self) -> u8 {
        lookup(&RANKS, self.0)
    }

    /// The card's suit.
    pub const fn suit(self) -> Suit {
        match self.0 {
            0..13 => Suit::Clubs,
            13..26 => Suit::Diamonds,
            26..39 => Suit::Hearts,
            _ => Suit::Spades,
        }
    }

    /// Baccarat value: aces 1, 2–9 their pips, tens and faces 0 (every seed agrees).
    pub const fn points(self) -> u8 {
        lookup(&POINTS, self.0)
    }

    /// The count a burn card calls for: tens and faces count 10 here, not 0, so that a burn
    /// always discards at least one more card.
    pub const fn burn_count(self) -> u8 {
        let rank = self.rank();
        if rank >= 10 { 10 } else { rank }
    }

    /// The rank as printed on the card face: `A 2 … 9 T J Q K`.
    pub const fn rank_char(self) -> u8 {
        b"A23456789TJQK"[(self.rank() - 1) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_round_trips_through_rank_and_suit() {
        for i in 0..52 {
            let card = Card::from_index(i).unwrap();
            assert_eq!(Card::new(card.rank(), card.suit()), Some(card));
        }
        assert_eq!(Card::from_index(52), None);
        assert_eq!(Card::new(0, Suit::Clubs), None);
        assert_eq!(Card::new(14, Suit::Clubs), None);
    }

    #[test]
    fn next_in_fresh_decks_follows_the_positions() {
        for i in 0..1000 {
            assert_eq!(Card::in_fresh_decks(i).next_in_fresh_decks(), Card::in_fresh_decks(i + 1), "position {i}");
        }
    }

    #[test]
    fn points_follow_the_seeds() {
        let points: [u8; 13] = core::array::from_fn(|r| Card::new(r as u8 + 1, Suit::Hearts).unwrap().points());
        assert_eq!(points, [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]);
        let deck_total: u32 = (0..52).map(|i| Card::from_index(i).unwrap().points() as u32).sum();
        assert_eq!(deck_total, 4 * 45);
    }

    #[test]
    fn suits_colour() {
        assert!(Card::new(1, Suit::Hearts).unwrap().suit().is_red());
        assert!(!Card::new(13, Suit::Spades).unwrap().suit().is_red());
        assert_eq!(Card::new(10, Suit::Spades).unwrap().rank_char(), b'T');
    }
}
