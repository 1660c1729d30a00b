//! The shoe: one to eight decks, shuffled, dealt from the front, with the two end-of-shoe
//! policies the seeds describe.

use crate::card::Card;
use crate::rng::Xorshift32;

/// The most decks any rule set uses (seed 002: "6-8 decks").
pub const MAX_DECKS: u8 = 8;
/// Cards in the largest shoe.
pub const MAX_CARDS: usize = MAX_DECKS as usize * Card::PER_DECK as usize;
/// The most cards one coup can take: three to each hand.
pub const MAX_CARDS_PER_COUP: u16 = 6;

/// When the shoe is shuffled again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndOfShoe {
    /// Reshuffle at the end of a coup when `remaining` or fewer cards are left (seed 003,
    /// Loadstar: "reshuffled at the completion of any hand when 8 or fewer cards remain").
    ReshuffleAt {
        /// The threshold k.
        remaining: u16,
    },
    /// A marker card `from_end` cards before the end (seed 002, Sahara Sands: seven). When it
    /// comes out, the coup in progress is finished and one more is dealt; then the shoe is
    /// shuffled.
    CutCard {
        /// Cards behind the marker.
        from_end: u16,
    },
}

/// What happens to the first cards of a freshly shuffled shoe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Burn {
    /// Deal from the first card.
    None,
    /// Turn the first card and discard as many more as its count (tens and faces ten): the
    /// customary casino burn.
    ByFirstCard,
}

/// Why a shoe cannot be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShoeError {
    /// Decks outside 1..=8.
    Decks(u8),
    /// An end-of-shoe threshold that leaves no room for a single coup.
    Policy(EndOfShoe),
}

/// Something the shoe did that the table should announce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShoeNews {
    /// The shoe was shuffled.
    Shuffled,
    /// A burn turned `shown` and discarded `count` cards after it.
    Burned {
        /// The turned card.
        shown: Card,
        /// Cards discarded unseen after it.
        count: u8,
    },
    /// The cut card came out: this coup and one more are the last of the shoe.
    CutCardOut,
    /// The shoe ran dry inside a coup (possible only with a cut card close to the end): the
    /// discards were shuffled to finish it.
    Replenished,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CutState {
    /// The marker is still in the shoe.
    InShoe,
    /// It came out during the coup being dealt.
    OutThisCoup,
    /// The coup being dealt is the one more after the marker.
    LastCoup,
}

/// A shoe of `decks` × 52 cards. `cards[..next]` are dealt or burned, `cards[next..len]` wait.
#[derive(Clone, Debug)]
pub struct Shoe {
    cards: [Card; MAX_CARDS],
    len: u16,
    next: u16,
    coup_start: u16,
    decks: u8,
    policy: EndOfShoe,
    burn: Burn,
    cut: CutState,
    fresh: bool,
}

impl Shoe {
    /// An unshuffled shoe, in deck order; the first [`Shoe::begin_coup`] shuffles it.
    pub fn new(decks: u8, policy: EndOfShoe, burn: Burn) -> Result<Shoe, ShoeError> {
        if !(1..=MAX_DECKS).contains(&decks) {
            return Err(ShoeError::Decks(decks));
        }
        let len = u16::from(decks) * u16::from(Card::PER_DECK);
        let threshold = match policy {
            EndOfShoe::ReshuffleAt { remaining } => remaining,
            EndOfShoe::CutCard { from_end } => from_end,
        };
        // A threshold at least a coup's worth below the full shoe leaves room to deal
        // (`len` is at least a deck, so the subtraction cannot wrap; an addition to the
        // threshold could, for thresholds near 65,535).
        if threshold > len - MAX_CARDS_PER_COUP {
            return Err(ShoeError::Policy(policy));
        }
        // Card by card rather than `Card::in_fresh_decks(i)` for each `i`: its `i % 52` is a
        // 16-bit division, and brings the divider along (354 bytes more in the benchmark).
        let mut cards = [Card::in_fresh_decks(0); MAX_CARDS];
        let mut card = Card::in_fresh_decks(0);
        for slot in cards.iter_mut().take(usize::from(len)) {
            *slot = card;
            card = card.next_in_fresh_decks();
        }
        Ok(Shoe { cards, len, next: len, coup_start: len, decks, policy, burn, cut: CutState::InShoe, fresh: true })
    }

    /// Decks in the shoe.
    pub fn decks(&self) -> u8 {
        self.decks
    }

    /// Cards in the shoe when full.
    pub fn size(&self) -> u16 {
        self.len
    }

    /// Cards still to be dealt.
    pub fn remaining(&self) -> u16 {
        self.len - self.next
    }

    /// Cards left before the cut card, if the shoe has one still in it.
    pub fn before_cut(&self) -> Option<u16> {
        match (self.policy, self.cut) {
            (EndOfShoe::CutCard { from_end }, CutState::InShoe) => Some(self.remaining().saturating_sub(from_end)),
            _ => None,
        }
    }

    /// The end-of-shoe policy.
    pub fn policy(&self) -> EndOfShoe {
        self.policy
    }

    /// Shuffles all cards back into the shoe: Fisher–Yates, each swap partner drawn without
    /// bias by [`Xorshift32::below`].
    pub fn shuffle(&mut self, rng: &mut Xorshift32) {
        fisher_yates(&mut self.cards[..usize::from(self.len)], rng);
        self.next = 0;
        self.coup_start = 0;
        self.cut = CutState::InShoe;
        self.fresh = false;
    }

    /// Called before the first card of every coup: applies the end-of-shoe policy (shuffle
    /// and burn when due) and reports what it did through `news`.
    pub fn begin_coup(&mut self, rng: &mut Xorshift32, news: &mut impl FnMut(ShoeNews)) {
        let due = self.fresh
            || match (self.policy, self.cut) {
                (EndOfShoe::ReshuffleAt { remaining }, _) => self.remaining() <= remaining,
                (EndOfShoe::CutCard { .. }, CutState::LastCoup) => true,
                (EndOfShoe::CutCard { .. }, _) => false,
            };
        if due {
            self.shuffle(rng);
            news(ShoeNews::Shuffled);
            if self.burn == Burn::ByFirstCard {
                let shown = self.take();
                let count = shown.burn_count();
                self.next += u16::from(count);
                news(ShoeNews::Burned { shown, count });
            }
        } else if self.cut == CutState::OutThisCoup {
            self.cut = CutState::LastCoup;
        }
        self.coup_start = self.next;
    }

    /// Deals the next card. Never fails: if a cut card close to the end leaves too few cards
    /// for the last coup, the discards (every card not on the table) are shuffled in, as a
    /// croupier would.
    pub fn deal(&mut self, rng: &mut Xorshift32, news: &mut impl FnMut(ShoeNews)) -> Card {
        if self.remaining() == 0 {
            self.replenish(rng);
            news(ShoeNews::Replenished);
        }
        if let (EndOfShoe::CutCard { from_end }, CutState::InShoe) = (self.policy, self.cut)
            && self.remaining() <= from_end
        {
            self.cut = CutState::OutThisCoup;
            news(ShoeNews::CutCardOut);
        }
        self.take()
    }

    fn take(&mut self) -> Card {
        let card = self.cards[usize::from(self.next)];
        self.next += 1;
        card
    }

    /// Moves the cards of the coup in progress to the front and reshuffles the rest.
    ///
    /// Cold: it runs once in many shoes, and without the hint LLVM gave its loops the
    /// registers the deal's common path wants (in the benchmark 23 cycles a coup and 25
    /// bytes more).
    #[cold]
    fn replenish(&mut self, rng: &mut Xorshift32) {
        let on_table = usize::from(self.next - self.coup_start);
        let all = &mut self.cards[..usize::from(self.len)];
        rotate_left(all, usize::from(self.coup_start));
        fisher_yates(&mut all[on_table..], rng);
        self.coup_start = 0;
        self.next = on_table as u16;
        // The marker went out long ago; the replenished cards finish this coup only.
        self.cut = CutState::LastCoup;
    }

    /// The cards still to be dealt, in order: what the exact analysis of a shoe in play needs.
    pub fn undealt(&self) -> &[Card] {
        &self.cards[usize::from(self.next)..usize::from(self.len)]
    }
}

/// `cards.rotate_left(mid)` as three reversals (`mid` is at most `cards.len()`), as the
/// cc65 benchmark's `replenish` does. core's `rotate_left` picks one of three algorithms as
/// it runs and brings all three along: 744 bytes more of 6502 in the benchmark (over its
/// size goal) and 153 fewer free in the game's bank 0, for a path that runs once in many
/// shoes. The reversals are one short loop, and for a shoe of cards a fraction of a
/// shuffle's time.
fn rotate_left(cards: &mut [Card], mid: usize) {
    cards[..mid].reverse();
    cards[mid..].reverse();
    cards.reverse();
}

/// Fisher–Yates: for `i` from the last card down to 1, swap card `i` with card
/// `j = rng.below(i + 1)`.
///
/// The same draws as calling [`Xorshift32::below`] for each card, arranged for the 6502:
/// the cards are taken in bands of equal `i.leading_zeros()` (with eight decks `i` in
/// 256–415, then 128–255, ...), so the shift `below` needs is worked out once per band
/// instead of once per card, and the generator's state stays in registers throughout.
fn fisher_yates(cards: &mut [Card], rng: &mut Xorshift32) {
    let Some(last) = cards.len().checked_sub(1) else { return };
    let mut state = rng.clone();
    let mut i = last as u16;
    let mut shift = leading_zeros(i);
    while i > 0 {
        // The smallest `i` whose leading zeros are `shift`.
        let low = 0x8000u16 >> shift;
        while i >= low {
            let j = state.below_shifted(i + 1, shift);
            let (a, b) = (cards[usize::from(i)], cards[usize::from(j)]);
            cards[usize::from(i)] = b;
            cards[usize::from(j)] = a;
            i -= 1;
        }
        shift += 1;
    }
    *rng = state;
}

/// `x.leading_zeros()` (16 for 0) as a loop of one-bit steps. LLVM's AVR back end
/// counts leading zeros with a population count: with `i.leading_zeros()` the benchmark
/// is 270 bytes larger, its 8-deck shuffle 570 cycles slower, and the game's bank 0 has
/// 275 bytes less free. The shuffle needs the count once, and the loop is a few dozen
/// bytes and at most 16 steps. Out of line, because inlined it changed how LLVM allotted
/// the shuffle loop's registers (15,700 cycles more for eight decks, and 22 bytes).
#[inline(never)]
fn leading_zeros(mut x: u16) -> u8 {
    let mut zeros = 0;
    while zeros < 16 && x & 0x8000 == 0 {
        x <<= 1;
        zeros += 1;
    }
    zeros
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet() -> impl FnMut(ShoeNews) {
        |_| {}
    }

    /// The shuffle as it was first written, on `Xorshift32::below`: the band-wise
    /// [`fisher_yates`] must leave the same cards and the same generator.
    fn reference_fisher_yates(cards: &mut [Card], rng: &mut Xorshift32) {
        for i in (1..cards.len()).rev() {
            let j = usize::from(rng.below(i as u16 + 1));
            cards.swap(i, j);
        }
    }

    #[test]
    fn rotate_left_matches_the_slice_method_for_every_length_and_mid() {
        for len in 0..=20 {
            for mid in 0..=len {
                let fresh: [Card; 20] = core::array::from_fn(|i| Card::in_fresh_decks(i as u16));
                let (mut ours, mut expected) = (fresh, fresh);
                rotate_left(&mut ours[..len], mid);
                expected[..len].rotate_left(mid);
                assert_eq!(ours, expected, "{len} cards, mid {mid}");
            }
        }
    }

    #[test]
    fn leading_zeros_matches_the_integer_method_for_every_u16() {
        for x in 0..=u16::MAX {
            assert_eq!(u32::from(leading_zeros(x)), x.leading_zeros(), "{x:#06x}");
        }
    }

    #[test]
    fn fisher_yates_matches_the_reference_for_every_length_and_many_seeds() {
        let fresh: [Card; MAX_CARDS] = core::array::from_fn(|i| Card::in_fresh_decks(i as u16));
        for seed in (0..40u32).chain([12_345, 0xDEAD_BEEF, u32::MAX]) {
            for len in 0..=MAX_CARDS {
                let mut rng = Xorshift32::new(seed.wrapping_mul(2_654_435_761).wrapping_add(len as u32));
                let mut reference_rng = rng.clone();
                let (mut cards, mut reference) = (fresh, fresh);
                fisher_yates(&mut cards[..len], &mut rng);
                reference_fisher_yates(&mut reference[..len], &mut reference_rng);
                assert_eq!(cards, reference, "seed {seed}, {len} cards");
                assert_eq!(rng, reference_rng, "seed {seed}, {len} cards");
            }
        }
    }

    #[test]
    fn shuffle_matches_the_reference_for_every_deck_count() {
        for decks in 1..=MAX_DECKS {
            for seed in 0..50 {
                let mut shoe = Shoe::new(decks, EndOfShoe::ReshuffleAt { remaining: 8 }, Burn::None).unwrap();
                let mut reference: [Card; MAX_CARDS] = shoe.cards;
                let (mut rng, mut reference_rng) = (Xorshift32::new(seed), Xorshift32::new(seed));
                // Twice: the second shuffle starts from the first one's order.
                for _ in 0..2 {
                    shoe.shuffle(&mut rng);
                    reference_fisher_yates(&mut reference[..usize::from(shoe.size())], &mut reference_rng);
                    assert_eq!(shoe.undealt(), &reference[..usize::from(shoe.size())], "{decks} decks, seed {seed}");
                    assert_eq!(rng, reference_rng);
                }
            }
        }
    }

    #[test]
    fn rejects_bad_deck_counts_and_policies() {
        assert_eq!(Shoe::new(0, EndOfShoe::ReshuffleAt { remaining: 8 }, Burn::None).err(), Some(ShoeError::Decks(0)));
        assert_eq!(Shoe::new(9, EndOfShoe::ReshuffleAt { remaining: 8 }, Burn::None).err(), Some(ShoeError::Decks(9)));
        let greedy = EndOfShoe::CutCard { from_end: 50 };
        assert_eq!(Shoe::new(1, greedy, Burn::None).err(), Some(ShoeError::Policy(greedy)));
        for remaining in [47, u16::MAX - 5, u16::MAX] {
            let policy = EndOfShoe::ReshuffleAt { remaining };
            assert_eq!(Shoe::new(1, policy, Burn::None).err(), Some(ShoeError::Policy(policy)), "{remaining}");
        }
        assert!(Shoe::new(1, EndOfShoe::ReshuffleAt { remaining: 46 }, Burn::None).is_ok());
    }

    #[test]
    fn a_shuffled_shoe_holds_every_card_decks_times() {
        let mut shoe = Shoe::new(6, EndOfShoe::ReshuffleAt { remaining: 8 }, Burn::None).unwrap();
        let mut rng = Xorshift32::new(11);
        shoe.begin_coup(&mut rng, &mut quiet());
        let mut counts = [0u8; 52];
        for card in shoe.undealt() {
            counts[usize::from(card.index())] += 1;
        }
        assert!(counts.iter().all(|&c| c == 6));
        assert_eq!(shoe.remaining(), 312);
    }

    #[test]
    fn reshuffles_only_when_k_or_fewer_remain_at_a_coup_start() {
        let mut shoe = Shoe::new(4, EndOfShoe::ReshuffleAt { remaining: 8 }, Burn::None).unwrap();
        let mut rng = Xorshift32::new(5);
        let mut shuffles = 0;
        let mut on_news = |n| {
            if n == ShoeNews::Shuffled {
                shuffles += 1
            }
        };
        shoe.begin_coup(&mut rng, &mut on_news);
        for _ in 0..199 {
            shoe.deal(&mut rng, &mut on_news);
        }
        assert_eq!(shoe.remaining(), 9);
        shoe.begin_coup(&mut rng, &mut on_news);
        assert_eq!(shoe.remaining(), 9, "9 cards left is more than k = 8: no shuffle");
        shoe.deal(&mut rng, &mut on_news);
        shoe.begin_coup(&mut rng, &mut on_news);
        assert_eq!(shoe.remaining(), 208, "8 left: reshuffled");
        assert_eq!(shuffles, 2);
    }

    #[test]
    fn cut_card_finishes_the_coup_then_deals_one_more() {
        let mut shoe = Shoe::new(1, EndOfShoe::CutCard { from_end: 7 }, Burn::None).unwrap();
        let mut rng = Xorshift32::new(9);
        let mut log = [None; 8];
        let mut n = 0;
        let mut record = |e| {
            if n < log.len() {
                log[n] = Some(e);
                n += 1;
            }
        };
        shoe.begin_coup(&mut rng, &mut record);
        for _ in 0..44 {
            shoe.deal(&mut rng, &mut record);
        }
        assert_eq!(shoe.before_cut(), Some(1));
        shoe.deal(&mut rng, &mut record); // 7 left: the marker is next.
        assert_eq!(shoe.before_cut(), Some(0));
        shoe.deal(&mut rng, &mut record); // The marker comes out before this card.
        assert_eq!(shoe.before_cut(), None);
        shoe.begin_coup(&mut rng, &mut record); // One more coup, no shuffle.
        assert_eq!(shoe.remaining(), 6);
        shoe.deal(&mut rng, &mut record);
        shoe.begin_coup(&mut rng, &mut record); // Now the shuffle.
        assert_eq!(shoe.remaining(), 52);
        assert_eq!(log[..3], [Some(ShoeNews::Shuffled), Some(ShoeNews::CutCardOut), Some(ShoeNews::Shuffled)]);
    }

    #[test]
    fn an_exhausted_cut_card_shoe_keeps_the_table_cards_and_refills() {
        let mut shoe = Shoe::new(1, EndOfShoe::CutCard { from_end: 7 }, Burn::None).unwrap();
        let mut rng = Xorshift32::new(4);
        shoe.begin_coup(&mut rng, &mut quiet());
        for _ in 0..48 {
            shoe.deal(&mut rng, &mut quiet());
        }
        shoe.begin_coup(&mut rng, &mut quiet());
        let table: [Card; 4] = core::array::from_fn(|_| shoe.deal(&mut rng, &mut quiet()));
        let mut replenished = false;
        let fifth = shoe.deal(&mut rng, &mut |n| replenished |= n == ShoeNews::Replenished);
        assert!(replenished);
        assert!(!table.contains(&fifth) || shoe.decks() > 1);
        // The four table cards were not reshuffled into the shoe.
        let mut counts = [0u8; 52];
        for card in shoe.undealt().iter().chain(table.iter()).chain([fifth].iter()) {
            counts[usize::from(card.index())] += 1;
        }
        assert!(counts.iter().all(|&c| c == 1), "{counts:?}");
    }

    #[test]
    fn burn_discards_by_the_first_card() {
        let mut shoe = Shoe::new(8, EndOfShoe::CutCard { from_end: 14 }, Burn::ByFirstCard).unwrap();
        let mut rng = Xorshift32::new(21);
        let mut burned = None;
        shoe.begin_coup(&mut rng, &mut |n| {
            if let ShoeNews::Burned { shown, count } = n {
                burned = Some((shown, count));
            }
        });
        let (shown, count) = burned.expect("a burn");
        assert_eq!(count, shown.burn_count());
        assert_eq!(shoe.remaining(), 416 - 1 - u16::from(count));
    }
}
