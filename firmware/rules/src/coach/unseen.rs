//! The cards a chooser has not seen, by point value: all the coach ever knows of the shoe.
//!
//! Point values are all the main bets and the drawing rules look at, so ten counts (tens
//! and faces together as 0) are the whole state; a rank's count folds into its value.
//! The counts are bounded by a full eight-deck shoe, which bounds every sum the coach
//! forms (see `choice.rs` and `next_coup.rs` for the sizes they rely on).

use crate::card::Card;
use crate::shoe::MAX_DECKS;

/// Cards of one value 1–9 in one deck; tens and faces are four times as many.
const PER_DECK: u16 = 4;

/// The most of value `points` a full eight-deck shoe holds.
const fn most(points: usize) -> u16 {
    let per_deck = if points == 0 { 4 * PER_DECK } else { PER_DECK };
    per_deck * MAX_DECKS as u16
}

/// Unseen cards by point value: index 0 counts tens and faces, 1–9 the aces to nines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unseen {
    by_points: [u16; 10],
    total: u16,
}

impl Unseen {
    /// A full shoe of `decks` decks, as at the shuffle: nothing seen yet. `None` outside
    /// 1–8 decks.
    pub const fn full(decks: u8) -> Option<Unseen> {
        if decks < 1 || decks > MAX_DECKS {
            return None;
        }
        let d = decks as u16;
        let mut by_points = [PER_DECK * d; 10];
        by_points[0] = 4 * PER_DECK * d;
        Some(Unseen { by_points, total: 52 * d })
    }

    /// The counts by value (index 0: tens and faces); `None` if one is more than a full
    /// eight-deck shoe holds, the bound the coach's arithmetic is sized for.
    pub fn from_points(by_points: [u16; 10]) -> Option<Unseen> {
        let mut total = 0;
        for (points, &n) in by_points.iter().enumerate() {
            if n > most(points) {
                return None;
            }
            total += n;
        }
        Some(Unseen { by_points, total })
    }

    /// The counts by rank, aces to kings (index 0 the aces), folded into values.
    pub fn from_ranks(by_rank: [u16; 13]) -> Option<Unseen> {
        let mut by_points = [0u16; 10];
        for (i, &n) in by_rank.iter().enumerate() {
            let points = if i >= 9 { 0 } else { i + 1 };
            by_points[points] = by_points[points].checked_add(n)?;
        }
        Unseen::from_points(by_points)
    }

    /// Unseen cards of value `points` (0 for tens and faces).
    pub fn count(&self, points: u8) -> u16 {
        self.by_points.get(usize::from(points)).copied().unwrap_or(0)
    }

    /// The counts by value.
    pub fn by_points(&self) -> [u16; 10] {
        self.by_points
    }

    /// Unseen cards in all.
    pub fn total(&self) -> u16 {
        self.total
    }

    /// `card` has been seen: one fewer of its value. False (and nothing changes) if no card
    /// of that value is left unseen, which the game's bookkeeping never asks.
    pub fn see(&mut self, card: Card) -> bool {
        self.see_points(card.points())
    }

    /// A card of value `points` has been seen; false if none was left.
    pub fn see_points(&mut self, points: u8) -> bool {
        match self.by_points.get_mut(usize::from(points)) {
            Some(n) if *n > 0 => {
                *n -= 1;
                self.total -= 1;
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Suit;

    #[test]
    fn a_full_shoe_holds_what_its_decks_hold() {
        let six = Unseen::full(6).unwrap();
        assert_eq!(six.total(), 312);
        assert_eq!(six.count(0), 96);
        assert_eq!(six.count(7), 24);
        assert_eq!(Unseen::full(0), None);
        assert_eq!(Unseen::full(9), None);
    }

    #[test]
    fn ranks_fold_into_values_and_bounds_are_kept() {
        let mut by_rank = [2u16; 13];
        by_rank[12] = 5; // kings
        let u = Unseen::from_ranks(by_rank).unwrap();
        assert_eq!(u.count(0), 2 + 2 + 2 + 5);
        assert_eq!(u.count(1), 2);
        assert_eq!(u.total(), 12 * 2 + 5);
        assert_eq!(Unseen::from_points([0, 33 * 8, 0, 0, 0, 0, 0, 0, 0, 0]), None);
        assert!(Unseen::from_points([128, 32, 32, 32, 32, 32, 32, 32, 32, 32]).is_some());
        assert_eq!(Unseen::from_points([129, 0, 0, 0, 0, 0, 0, 0, 0, 0]), None);
    }

    #[test]
    fn seeing_a_card_takes_one_of_its_value() {
        let mut u = Unseen::from_points([1, 0, 0, 0, 0, 0, 0, 0, 0, 1]).unwrap();
        assert!(u.see(Card::new(12, Suit::Hearts).unwrap()));
        assert!(!u.see(Card::new(13, Suit::Hearts).unwrap()), "no ten left");
        assert!(u.see_points(9));
        assert_eq!(u.total(), 0);
    }
}
