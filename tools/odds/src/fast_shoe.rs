//! The simulator's shoe: the same cards, end-of-shoe policy and burn as `bac_rules::Shoe`,
//! shuffled lazily. Fisher–Yates fixes one position per random draw, from the last down;
//! dealing the positions in the order it fixes them deals a uniformly shuffled shoe (the
//! same law as shuffling all of it first), so a card is shuffled only when it is dealt and
//! a new shoe costs nothing. The draws use a multiply instead of a power-of-two rejection
//! (Lemire's method, rarely more than one word), which the host does in one instruction,
//! and take their words from xoshiro256++ (`rand`). A coup's six draws take two 64-bit
//! words, three draws each: three ranges multiplied together stay below 2^27 in the
//! largest shoe, so one Lemire draw over their product, read digit by digit, is the three
//! draws at once.
//!
//! What it deals is not card for card what the C128's shoe deals from the same seed (the
//! game shuffles all 416 cards at once with xorshift32, in its own order), only the same
//! in distribution; `deal_coup` with the real `Shoe` stays for the checks against the
//! state machine.

use crate::composition::Composition;
use bac_rules::shoe::ShoeError;
use bac_rules::{Burn, Card, EndOfShoe, Shoe};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cut {
    InShoe,
    OutThisCoup,
    LastCoup,
}

/// A lazily shuffled shoe.
#[derive(Clone, Debug)]
pub struct FastShoe {
    cards: Vec<Card>,
    dealt: usize,
    coup_start: usize,
    policy: EndOfShoe,
    burn: Burn,
    cut: Cut,
    fresh: bool,
    rng: Xoshiro256PlusPlus,
    /// Deal every coup from a fresh shuffle of a given composition (`--shoe`).
    composition: Option<Composition>,
}

/// A uniform integer in `0..n` (`n` at least 1) from the top of `word × n`, unbiased by
/// rejecting the few low parts below `2^32 mod n` (and drawing again from `rng`).
#[inline(always)]
fn below(word: u32, n: u32, rng: &mut Xoshiro256PlusPlus) -> usize {
    let mut m = u64::from(word) * u64::from(n);
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as usize
}

/// Every product of three ranges [`three_from`] is asked for is below this (the largest
/// shoe, 416 cards, gives 416 × 415 × 414 < 416^3 < 2^27), so a low part at or above it is
/// above Lemire's threshold `2^64 mod product` too, and the product need not be formed.
const THREE_BOUND: u64 = 1 << 27;
const _: () = assert!((bac_rules::shoe::MAX_CARDS as u64).pow(3) < THREE_BOUND);

/// Three independent uniform integers, the `k`th in `0..n - k` (`n` from 3 to the largest
/// shoe's 416 cards), from one 64-bit `word`: one Lemire draw of `A` in `0..P`, `P` the
/// product of the three ranges, read as a mixed-radix number. Multiplying the word by each
/// range in turn and keeping the low 64 bits leaves each range's digit on top, and the low
/// part after the third is `word × P mod 2^64`, on which Lemire's rejection (below
/// `2^64 mod P`) makes `A`, hence each digit, exactly uniform. `None` when the word is
/// rejected (fewer than one word in 2^37).
#[inline(always)]
fn three_from(word: u64, n: u32) -> Option<[usize; 3]> {
    let (digits, low) = three_digits(word, n);
    if low >= THREE_BOUND {
        return Some(digits);
    }
    let product: u64 = (0..3).map(|k| u64::from(n - k)).product();
    (low >= product.wrapping_neg() % product).then_some(digits)
}

/// [`three_from`]'s digits and the low part its rejection looks at.
#[inline(always)]
fn three_digits(word: u64, n: u32) -> ([usize; 3], u64) {
    let mut low = word;
    let mut digits = [0usize; 3];
    for (k, digit) in digits.iter_mut().enumerate() {
        let wide = u128::from(low) * u128::from(n - k as u32);
        *digit = (wide >> 64) as usize;
        low = wide as u64;
    }
    (digits, low)
}

/// [`three_from`] with a fresh word of `rng` until one is accepted.
#[inline(always)]
fn three_below(n: u32, rng: &mut Xoshiro256PlusPlus) -> [usize; 3] {
    loop {
        if let Some(digits) = three_from(rng.next_u64(), n) {
            return digits;
        }
    }
}

/// Six independent uniform integers, the `k`th in `0..n - k` (`n` from 6 to 416), from two
/// words: two chains of three multiplies that the processor runs side by side (one chain
/// of six, from one word, was slower for its latency).
#[inline(always)]
fn six_below(n: u32, rng: &mut Xoshiro256PlusPlus) -> [usize; 6] {
    debug_assert!((6..=bac_rules::shoe::MAX_CARDS as u32).contains(&n));
    let (first, second) = (rng.next_u64(), rng.next_u64());
    let ((high, high_low), (low, low_low)) = (three_digits(first, n), three_digits(second, n - 3));
    // Both low parts clear of every threshold: one test for the two (nearly always).
    if high_low.min(low_low) >= THREE_BOUND {
        return [high[0], high[1], high[2], low[0], low[1], low[2]];
    }
    six_below_exactly(n, first, second, rng)
}

/// [`six_below`] when a low part came near its threshold: each word's draw accepted or
/// rejected as [`three_from`] says, a rejected one drawn again.
#[cold]
#[inline(never)]
fn six_below_exactly(n: u32, first: u64, second: u64, rng: &mut Xoshiro256PlusPlus) -> [usize; 6] {
    let high = three_from(first, n).unwrap_or_else(|| three_below(n, rng));
    let low = three_from(second, n - 3).unwrap_or_else(|| three_below(n - 3, rng));
    [high[0], high[1], high[2], low[0], low[1], low[2]]
}

impl FastShoe {
    /// The shoe of `decks` decks with `policy` and `burn`, refused as `Shoe::new` refuses,
    /// shuffled by a generator seeded with `seed`.
    pub fn new(decks: u8, policy: EndOfShoe, burn: Burn, seed: u64) -> Result<FastShoe, ShoeError> {
        let shoe = Shoe::new(decks, policy, burn)?;
        let cards = (0..shoe.size()).map(Card::in_fresh_decks).collect();
        let rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        Ok(FastShoe {
            cards,
            dealt: 0,
            coup_start: 0,
            policy,
            burn,
            cut: Cut::InShoe,
            fresh: true,
            rng,
            composition: None,
        })
    }

    /// A shoe that deals every coup from a fresh shuffle of one shoe `composition` may be
    /// (drawn anew each coup where it leaves suits or ranks unknown): the Monte-Carlo
    /// counterpart of the exact analysis of that composition. No end-of-shoe policy, no
    /// burn; the composition holds at least six cards.
    pub fn of_composition(composition: Composition, seed: u64) -> FastShoe {
        let mut shoe = FastShoe {
            cards: Vec::new(),
            dealt: 0,
            coup_start: 0,
            policy: EndOfShoe::ReshuffleAt { remaining: 0 },
            burn: Burn::None,
            cut: Cut::InShoe,
            fresh: true,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            composition: Some(composition),
        };
        shoe.begin_coup();
        shoe
    }

    /// Cards still to be dealt.
    pub fn remaining(&self) -> usize {
        self.cards.len() - self.dealt
    }

    /// Before the first card of every coup: shuffles (by forgetting what was dealt) and
    /// burns when the policy says, as `Shoe::begin_coup` does.
    #[inline]
    pub fn begin_coup(&mut self) {
        if let Some(composition) = &self.composition {
            composition.sample(&mut self.rng, &mut self.cards);
            self.dealt = 0;
            self.coup_start = 0;
            return;
        }
        let due = self.fresh
            || match (self.policy, self.cut) {
                (EndOfShoe::ReshuffleAt { remaining }, _) => self.remaining() <= usize::from(remaining),
                (EndOfShoe::CutCard { .. }, Cut::LastCoup) => true,
                (EndOfShoe::CutCard { .. }, _) => false,
            };
        if due {
            self.dealt = 0;
            self.cut = Cut::InShoe;
            self.fresh = false;
            if self.burn == Burn::ByFirstCard {
                let shown = self.take();
                for _ in 0..shown.burn_count() {
                    self.take();
                }
            }
        } else if self.cut == Cut::OutThisCoup {
            self.cut = Cut::LastCoup;
        }
        self.coup_start = self.dealt;
    }

    /// The next card, with the cut card and an empty shoe handled as `Shoe::deal` does.
    #[inline]
    pub fn deal(&mut self) -> Card {
        if self.remaining() == 0 {
            self.replenish();
        }
        if let (EndOfShoe::CutCard { from_end }, Cut::InShoe) = (self.policy, self.cut)
            && self.remaining() <= usize::from(from_end)
        {
            self.cut = Cut::OutThisCoup;
        }
        self.take()
    }

    #[inline(always)]
    fn take(&mut self) -> Card {
        let i = self.cards.len() - 1 - self.dealt;
        let word = self.rng.next_u32();
        let j = below(word, i as u32 + 1, &mut self.rng);
        self.cards.swap(i, j);
        self.dealt += 1;
        self.cards[i]
    }

    /// The next six cards a coup may need, drawn but not yet dealt (`None` with fewer than
    /// six left): [`FastShoe::commit`] then deals as many as the coup used. A drawn card
    /// that is not dealt stays among the undealt ones, whose order does not matter: every
    /// later draw picks uniformly among them. This lets a coup be settled without a branch
    /// on each card's need.
    #[inline(always)]
    pub fn draw_six(&mut self) -> Option<[Card; 6]> {
        if self.remaining() < 6 {
            return None;
        }
        let top = self.cards.len() - 1 - self.dealt;
        let picks = six_below(top as u32 + 1, &mut self.rng);
        let mut drawn = [Card::in_fresh_decks(0); 6];
        let cards = &mut self.cards[..=top];
        for (k, (slot, pick)) in drawn.iter_mut().zip(picks).enumerate() {
            let i = top - k;
            // `pick` is below `i + 1` already; the clamp tells the compiler so.
            let j = pick.min(i);
            cards.swap(i, j);
            *slot = cards[i];
        }
        Some(drawn)
    }

    /// Deals the first `used` of the cards [`FastShoe::draw_six`] drew, with the cut card
    /// coming out as `deal` would have had it.
    #[inline(always)]
    pub fn commit(&mut self, used: usize) {
        if let (EndOfShoe::CutCard { from_end }, Cut::InShoe) = (self.policy, self.cut)
            && self.remaining() - (used - 1) <= usize::from(from_end)
        {
            self.cut = Cut::OutThisCoup;
        }
        self.dealt += used;
    }

    /// The shoe ran dry inside a coup: the cards on the table go to the dealt end, every
    /// other card back into play.
    fn replenish(&mut self) {
        let len = self.cards.len();
        let on_table = self.dealt - self.coup_start;
        for k in 0..on_table {
            self.cards.swap(len - 1 - k, len - 1 - (self.coup_start + k));
        }
        self.dealt = on_table;
        self.coup_start = 0;
        self.cut = Cut::LastCoup;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `three_from` is Lemire's single draw over the product of the ranges, done the long way
    /// in 128 bits: the same digits and the same rejections, including words picked to land
    /// just above a multiple of `2^64 / P`, where the rejection is decided.
    #[test]
    fn three_from_is_one_lemire_draw_over_the_product() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut rejected = 0;
        for n in [3u32, 4, 7, 13, 52, 311, 416] {
            let product: u64 = (0..3).map(|k| u64::from(n - k)).product();
            let threshold = product.wrapping_neg() % product;
            for trial in 0..200_000u64 {
                let word = if trial % 2 == 0 {
                    rng.next_u64()
                } else {
                    // The smallest word whose product passes a random multiple of 2^64:
                    // its low part is below the product, near the threshold.
                    let m = u128::from(rng.next_u64() % product);
                    (m << 64).div_ceil(u128::from(product)) as u64
                };
                let wide = u128::from(word) * u128::from(product);
                let (mut value, low) = ((wide >> 64) as u64, wide as u64);
                let mut expected = [0usize; 3];
                for k in (0..3).rev() {
                    let range = u64::from(n) - k as u64;
                    expected[k] = (value % range) as usize;
                    value /= range;
                }
                let expected = (low >= threshold).then_some(expected);
                rejected += usize::from(expected.is_none());
                assert_eq!(three_from(word, n), expected, "n {n}, word {word:#x}");
            }
        }
        assert!(rejected > 0, "the rejection was exercised");
    }

    /// The slow path gives the fast path's digits when both words are accepted, and draws
    /// again for a rejected one (a word whose low part is 0 is below every threshold).
    #[test]
    fn six_below_exactly_agrees_with_the_fast_path() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
        for n in [6u32, 52, 416] {
            for _ in 0..10_000 {
                let (first, second) = (rng.next_u64(), rng.next_u64());
                let ((high, _), (low, _)) = (three_digits(first, n), three_digits(second, n - 3));
                let expected = [high[0], high[1], high[2], low[0], low[1], low[2]];
                assert_eq!(six_below_exactly(n, first, second, &mut rng.clone()), expected);
            }
            // 0 times anything is 0: rejected, so the digits come from fresh words.
            let mut fresh = rng.clone();
            let redrawn = six_below_exactly(n, 0, 0, &mut rng);
            let (high, low) = (three_below(n, &mut fresh), three_below(n - 3, &mut fresh));
            assert_eq!(redrawn, [high[0], high[1], high[2], low[0], low[1], low[2]]);
        }
    }

    /// Pearson's statistic of `counts` against a uniform spread; below `df + 5 sqrt(2 df)`
    /// (far beyond the 99.9% point) for a fair draw.
    fn fair(counts: &[u64]) -> bool {
        let total: u64 = counts.iter().sum();
        let expected = total as f64 / counts.len() as f64;
        let chi2: f64 = counts.iter().map(|&c| (c as f64 - expected).powi(2) / expected).sum();
        let df = (counts.len() - 1) as f64;
        chi2 < df + 5.0 * (2.0 * df).sqrt()
    }

    /// The six draws are uniform and independent: the joint draw over all 720 orderings of
    /// six cards, and each position alone in a full 8-deck shoe, pass a chi-square test.
    #[test]
    fn six_below_is_uniform_over_positions() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
        let mut joint = vec![0u64; 720];
        for _ in 0..720 * 300 {
            let d = six_below(6, &mut rng);
            let cell = d.iter().zip([6, 5, 4, 3, 2, 1]).fold(0, |acc, (&digit, range)| acc * range + digit);
            joint[cell] += 1;
        }
        assert!(fair(&joint), "joint {joint:?}");
        let mut by_position = vec![vec![0u64; 416]; 6];
        for _ in 0..416 * 500 {
            for (k, digit) in six_below(416, &mut rng).into_iter().enumerate() {
                by_position[k][digit] += 1;
            }
        }
        for (k, counts) in by_position.iter().enumerate() {
            assert!(counts[416 - k..].iter().all(|&c| c == 0), "position {k} stays in its range");
            assert!(fair(&counts[..416 - k]), "position {k}: {counts:?}");
        }
    }
}
