//! The simulator's shoe: the same cards, end-of-shoe policy and burn as `bac_rules::Shoe`,
//! shuffled lazily. Fisher–Yates fixes one position per random draw, from the last down;
//! dealing the positions in the order it fixes them deals a uniformly shuffled shoe (the
//! same law as shuffling all of it first), so a card is shuffled only when it is dealt and
//! a new shoe costs nothing. The draws use a multiply instead of a power-of-two rejection
//! (Lemire's method, rarely more than one word), which the host does in one instruction,
//! and take 32 bits each from xoshiro256++ (`rand`), which gives 64 bits a step with more
//! parallelism than a chain of xorshift32 steps.
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
        let wide = [self.rng.next_u64(), self.rng.next_u64(), self.rng.next_u64()];
        let words = wide.map(|w| [w as u32, (w >> 32) as u32]);
        let mut drawn = [Card::in_fresh_decks(0); 6];
        let cards = &mut self.cards[..=top];
        for (k, slot) in drawn.iter_mut().enumerate() {
            let i = top - k;
            let j = below(words[k / 2][k % 2], i as u32 + 1, &mut self.rng).min(i);
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
