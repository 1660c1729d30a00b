//! A Baccarat hand: two or three cards, scored modulo 10.

use crate::card::Card;

/// Up to three cards, with the total kept as they arrive: the coup asks for it after every
/// card, and on the 6502 a running sum is far cheaper than a loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hand {
    cards: [Card; 3],
    len: u8,
    total: u8,
}

impl Default for Hand {
    fn default() -> Hand {
        Hand::new()
    }
}

impl Hand {
    /// An empty hand.
    pub const fn new() -> Hand {
        Hand { cards: [Card::in_fresh_decks(0); 3], len: 0, total: 0 }
    }

    /// Adds a card; a fourth card is refused (returns `false`), never stored.
    pub fn push(&mut self, card: Card) -> bool {
        let Some(slot) = self.cards.get_mut(usize::from(self.len)) else { return false };
        *slot = card;
        self.len += 1;
        // Both are 0–9, so one subtraction does what `% 10` would. `% 10` is a call of
        // `__udivmodqi4`, which the translator turns into a loop of subtractions in place,
        // counting the quotient too: 75 cycles a coup and 13 bytes more in the benchmark.
        let sum = self.total + card.points();
        self.total = if sum >= 10 { sum - 10 } else { sum };
        true
    }

    /// The cards in the order dealt.
    pub fn cards(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }

    /// How many cards the hand holds.
    pub fn len(&self) -> u8 {
        self.len
    }

    /// True before the first card.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The third card, if one was drawn.
    pub fn third(&self) -> Option<Card> {
        if self.len == 3 { Some(self.cards[2]) } else { None }
    }

    /// The sum of the points, units digit only (seed 000: "the sum of all cards modulo 10").
    pub fn total(&self) -> u8 {
        self.total
    }

    /// Eight or nine on the first two cards.
    pub fn is_natural(&self) -> bool {
        self.len == 2 && self.total >= 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Suit;

    fn card(rank: u8) -> Card {
        Card::new(rank, Suit::Clubs).unwrap()
    }

    #[test]
    fn seed_examples_score_as_the_seeds_say() {
        let score = |ranks: &[u8]| {
            let mut hand = Hand::new();
            ranks.iter().for_each(|&r| assert!(hand.push(card(r))));
            hand.total()
        };
        assert_eq!(score(&[2, 3]), 5); // seed 000
        assert_eq!(score(&[6, 7]), 3); // seed 000
        assert_eq!(score(&[4, 6]), 0); // seed 000: "Baccarat"
        assert_eq!(score(&[7, 8]), 5); // seed 001
        assert_eq!(score(&[7, 5]), 2); // seed 002
        assert_eq!(score(&[6, 8]), 4); // seed 003
        assert_eq!(score(&[9, 11]), 9); // seed 004: nine and a jack
        assert_eq!(score(&[13, 12, 1]), 1);
    }

    #[test]
    fn naturals_need_two_cards() {
        let mut hand = Hand::new();
        hand.push(card(4));
        hand.push(card(4));
        assert!(hand.is_natural());
        hand.push(card(10));
        assert!(!hand.is_natural(), "eight on three cards is not a natural");
        assert!(!hand.push(card(1)), "a fourth card is refused");
        assert_eq!(hand.len(), 3);
    }
}
