//! The exact value of each option at a free choice, from the cards the chooser has not
//! seen: the player on 5 (Loadstar, Chemin de fer) and the bank wherever the rules leave
//! it free (the Chemin de fer banker, the Loadstar bank's two options).
//!
//! The hidden hand is every two-card hand the unseen cards can make (by value, with the
//! ways to draw it as its weight), weighed by what the chooser has learnt: the bank's hand
//! is no natural, or the coup would be over; the player's hand is one that would have
//! stood, or drawn, as the player did, under the player's play. Then every third card.
//!
//! Grouped so that the C128 does few multiplications: for a bank total `bt` and a
//! player's final total `pt`, the sum over the bank's third card of (cards of that value
//! left) × (result) is `sums[pt][bt]` over all unseen cards, less the result of each card
//! already taken out of them (the hidden hand's, the player's third). So the innermost
//! level is a table look-up and three subtractions, and the multiplications are one per
//! player's third card and one per hidden hand.
//!
//! Sizes, for a shoe no larger than eight decks (`Unseen` refuses more): a value's count
//! is at most 128, so a hand's weight is below 2^14 and fits a `u16`; a hand's sum over
//! the third cards is at most 414 × 413 < 2^18; their products with the weights are added
//! in 64 bits, and the denominator, (hands) × 414 × 413 × 65,536, stays below 2^51.

use super::unseen::Unseen;
use super::wide::{Ev, mul_i32_u16, mul_i64_u32, mul_u32};
use crate::optimal::Solution;
use crate::question::{Decision, Question};
use crate::tableau::{DrawRules, PLAYER_STOOD, Rule};

/// Chances are in 65,536ths, as [`crate::Chance`] keeps them.
const ONE: u32 = 65_536;

/// Why the coach has no figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoachError {
    /// Too few unseen cards for the hidden hand and the third cards (4 for the player's
    /// choice, 3 for the bank's): a shoe about to be refilled.
    TooFewCards(u16),
    /// No hidden hand fits what the chooser saw: the counts contradict the coup (a total
    /// outside 0–7, or a bank that cannot be free there).
    Impossible,
    /// [`super::advise`] was called with no choice pending.
    NothingAsked,
}

/// The values of the two options, per unit staked, for the one who chooses: both over the
/// same denominator, so the better one has the larger numerator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Values {
    /// Taking a third card.
    pub draw: Ev,
    /// Standing.
    pub stand: Ev,
}

impl Values {
    /// The better option; `None` when they are worth exactly the same.
    pub fn better(&self) -> Option<Decision> {
        if self.draw.numerator > self.stand.numerator {
            Some(Decision::Draw)
        } else if self.draw.numerator < self.stand.numerator {
            Some(Decision::Stand)
        } else {
            None
        }
    }
}

/// The player's result against the bank: 1 a win, -1 a loss, 0 a stand-off.
fn result(player: u8, banker: u8) -> i16 {
    if player > banker {
        1
    } else if player < banker {
        -1
    } else {
        0
    }
}

/// `a + b` modulo 10 for totals and points (both below 10).
fn add(a: u8, b: u8) -> u8 {
    let sum = a + b;
    if sum >= 10 { sum - 10 } else { sum }
}

/// `sums[pt][bt]`: the sum, over every unseen card, of the player's result when the bank
/// on `bt` draws it against a player on `pt`. As `d` runs over the values, the bank's
/// total `bt + d` runs over all ten, so the sum is the cards that leave the bank below
/// `pt` less those that leave it above: a running count per `bt`, additions only.
fn draw_sums(n: &[u16; 10]) -> [[i16; 8]; 10] {
    let total: i16 = n.iter().map(|&c| c as i16).sum();
    let mut sums = [[0i16; 8]; 10];
    for bt in 0..8u8 {
        let mut below = 0i16;
        for pt in 0..10u8 {
            // The card that takes the bank from `bt` to `pt`.
            let at_pt = n[usize::from(add(pt, 10 - bt))] as i16;
            sums[usize::from(pt)][usize::from(bt)] = below - (total - below - at_pt);
            below += at_pt;
        }
    }
    sums
}

/// How the side that is not choosing plays a cell, by the rules and, where they leave it
/// free, by the game's play (the solution the computer seats use).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Play {
    Draw,
    Stand,
    /// The one cell where the solution mixes: its chance is `Opponent::mix`.
    Mix,
}

struct Opponent<'a> {
    rules: DrawRules,
    play: &'a Solution,
}

impl Opponent<'_> {
    fn bank(&self, total: u8, third: Option<u8>) -> Play {
        match self.rules.banker(total, third) {
            Rule::Draw => Play::Draw,
            Rule::Stand => Play::Stand,
            Rule::Choose => {
                let column = third.unwrap_or(PLAYER_STOOD as u8);
                match self.play.banker_mixes {
                    Some((t, c, _)) if t == total && c == column => Play::Mix,
                    _ => {
                        let chance = self.play.chance(Question::Banker { total, player_third: third });
                        if chance.numerator() >= ONE { Play::Draw } else { Play::Stand }
                    }
                }
            }
        }
    }

    /// How the bank on `total` plays against each third card (index 10: the player stood):
    /// one look-up each in the loops instead of the rules and the solution every time.
    fn bank_row(&self, total: u8) -> [Play; 11] {
        let mut row = [Play::Stand; 11];
        for (column, play) in row.iter_mut().enumerate() {
            let third = (column != PLAYER_STOOD).then_some(column as u8);
            *play = self.bank(total, third);
        }
        row
    }

    /// The bank's chance of drawing in its mixed cell.
    fn mix(&self) -> u32 {
        self.play.banker_mixes.map_or(0, |(_, _, chance)| chance.numerator())
    }
}

/// A sum split by how the opponent played: the cells it plays one way, and its mixed cell
/// drawing and standing, each weighed later by its chance.
#[derive(Clone, Copy, Default)]
struct Split<T> {
    fixed: T,
    mix_draw: T,
    mix_stand: T,
}

impl Split<i32> {
    /// Adds `draw` or `stand`, whichever `play` plays (both, apart, where it mixes).
    fn add(&mut self, play: Play, draw: impl FnOnce() -> i32, stand: impl FnOnce() -> i32) {
        match play {
            Play::Draw => self.fixed += draw(),
            Play::Stand => self.fixed += stand(),
            Play::Mix => {
                self.mix_draw += draw();
                self.mix_stand += stand();
            }
        }
    }
}

impl Split<i64> {
    /// Adds `part` weighed by the hand's `weight`.
    fn add_weighted(&mut self, part: &Split<i32>, weight: u16) {
        self.fixed += mul_i32_u16(part.fixed, weight);
        if part.mix_draw != 0 || part.mix_stand != 0 {
            self.mix_draw += mul_i32_u16(part.mix_draw, weight);
            self.mix_stand += mul_i32_u16(part.mix_stand, weight);
        }
    }

    /// The whole, in 65,536ths: the fixed cells whole, the mixed cell by its chance.
    fn total(&self, mix: u32) -> i64 {
        mul_i64_u32(self.fixed, ONE) + mul_i64_u32(self.mix_draw, mix) + mul_i64_u32(self.mix_stand, ONE - mix)
    }
}

/// The ways to draw the unordered hand `{a, b}` (a ≤ b) by value from `n`: below 2^14.
fn ways(n: &[u16; 10], a: usize, b: usize) -> u16 {
    if a == b { n[a] * n[a].saturating_sub(1) } else { 2 * n[a] * n[b] }
}

/// The player's options on a two-card `total` (5 where the rules let the player choose),
/// from `unseen`, the cards the player has not seen (the bank's hidden hand among them),
/// against the bank as `play` and the rules play it. The result is the player's: a win
/// +1, a loss -1, a stand-off 0.
pub fn player_values(rules: DrawRules, total: u8, unseen: &Unseen, play: &Solution) -> Result<Values, CoachError> {
    if unseen.total() < 4 {
        return Err(CoachError::TooFewCards(unseen.total()));
    }
    if total >= 8 {
        return Err(CoachError::Impossible);
    }
    let opponent = Opponent { rules, play };
    let n = unseen.by_points();
    let sums = draw_sums(&n);
    let left = i32::from(unseen.total());
    let (after_hand, after_third) = (left - 2, left - 3);
    // The player's total after a third card of each value.
    let mut with = [0u8; 10];
    for (c, pt) in with.iter_mut().enumerate() {
        *pt = add(total, c as u8);
    }
    let mut hands = 0u32;
    let mut stand = Split::<i64>::default();
    let mut draw = Split::<i64>::default();
    for bt in 0..8u8 {
        let row = opponent.bank_row(bt);
        let b = usize::from(bt);
        // Drawing, for a hand of `bt` before its own cards are taken out: over every
        // third card c, (cards c) × (the bank's result drawing from all the unseen cards,
        // or standing). The only multiplications of the option: ten per bank total.
        let mut base = Split::<i32>::default();
        for (c, &count) in n.iter().enumerate() {
            let (count, pt) = (i32::from(count), usize::from(with[c]));
            base.add(
                row[c],
                || count * i32::from(sums[pt][b]),
                || count * i32::from(result(with[c], bt)) * after_third,
            );
        }
        for b1 in 0..10u8 {
            let b2 = add(10 - b1, bt);
            let weight = if b2 < b1 { 0 } else { ways(&n, usize::from(b1), usize::from(b2)) };
            if weight == 0 {
                continue;
            }
            hands += u32::from(weight);
            // The result of the bank drawing a card from those left once the hand and
            // `taken` are out, as corrections to `sums`: one result per card taken.
            let taken = |pt: u8, c: u8| -> i32 {
                i32::from(result(pt, add(bt, b1)) + result(pt, add(bt, b2)) + result(pt, add(bt, c)))
            };
            // Standing: the bank's third card is one of `left - 2`; scaled by `left - 3`
            // to share the drawing option's denominator.
            let mut part = Split::<i32>::default();
            part.add(
                row[PLAYER_STOOD],
                || {
                    let drawn = sums[usize::from(total)][b] - result(total, add(bt, b1)) - result(total, add(bt, b2));
                    i32::from(drawn) * after_third
                },
                || i32::from(result(total, bt)) * after_hand * after_third,
            );
            stand.add_weighted(&part, weight);
            // Drawing: the base, less the third cards the hand's own cards took away,
            // less each third card's corrections (at most three results a card).
            let mut part = base;
            for x in [b1, b2] {
                let pt = with[usize::from(x)];
                part.add(
                    row[usize::from(x)],
                    || -i32::from(sums[usize::from(pt)][b]),
                    || -i32::from(result(pt, bt)) * after_third,
                );
            }
            for (c, &count) in n.iter().enumerate() {
                let m = i32::from(count) - i32::from(c == usize::from(b1)) - i32::from(c == usize::from(b2));
                if m > 0 {
                    let correction = taken(with[c], c as u8);
                    if correction != 0 {
                        part.add(row[c], || -m * correction, || 0);
                    }
                }
            }
            draw.add_weighted(&part, weight);
        }
    }
    if hands == 0 {
        return Err(CoachError::Impossible);
    }
    let denominator = mul_u32(mul_u32(u64::from(hands), (after_hand * after_third) as u32), ONE);
    let mix = opponent.mix();
    Ok(Values {
        draw: Ev { numerator: draw.total(mix), denominator },
        stand: Ev { numerator: stand.total(mix), denominator },
    })
}

/// The bank's options on a two-card `total`, having seen the player stand
/// (`player_third` `None`) or draw a card of those points, from `unseen`, the cards the
/// bank has not seen (the player's two hidden cards among them; not the player's third).
/// The player's hidden hand is weighed by the player's play on 5 in `play`. The result
/// is the bank's: a win +1, a loss -1, a stand-off 0.
pub fn banker_values(
    rules: DrawRules,
    total: u8,
    player_third: Option<u8>,
    unseen: &Unseen,
    play: &Solution,
) -> Result<Values, CoachError> {
    if unseen.total() < 3 {
        return Err(CoachError::TooFewCards(unseen.total()));
    }
    if total >= 8 || player_third.is_some_and(|c| c >= 10) {
        return Err(CoachError::Impossible);
    }
    let n = unseen.by_points();
    let sums = draw_sums(&n);
    let after_hand = i32::from(unseen.total()) - 2;
    // The player's play on 5, as the chance of what the bank saw the player do.
    let on_five = play.player_draws_on_five.numerator();
    let five_did = if player_third.is_some() { on_five } else { ONE - on_five };
    // Sums over the hands the player draws or stands on by rule, and over those on 5
    // where the player chose; each in (bank draws, bank stands), and the hands' weights.
    let (mut fixed, mut five) = ([0i32; 2], [0i32; 2]);
    let (mut fixed_hands, mut five_hands) = (0u32, 0u32);
    for p1 in 0..10usize {
        for p2 in p1..10usize {
            let weight = ways(&n, p1, p2);
            let pt = add(p1 as u8, p2 as u8);
            if weight == 0 || pt >= 8 {
                continue;
            }
            let chosen = match (rules.player(pt), player_third) {
                (Rule::Choose, _) => true,
                (Rule::Draw, Some(_)) | (Rule::Stand, None) => false,
                _ => continue,
            };
            let pt = player_third.map_or(pt, |c| add(pt, c));
            // The bank's results are the player's negated.
            let drawn = sums[usize::from(pt)][usize::from(total)]
                - result(pt, add(total, p1 as u8))
                - result(pt, add(total, p2 as u8));
            let values = [-i32::from(drawn), -i32::from(result(pt, total)) * after_hand];
            let w = i32::from(weight);
            let (sums, hands) = if chosen { (&mut five, &mut five_hands) } else { (&mut fixed, &mut fixed_hands) };
            // |w × value| < 2^14 × 2^9 and at most 55 hands: the sums fit an `i32`.
            sums[0] += w * values[0];
            sums[1] += w * values[1];
            *hands += u32::from(weight);
        }
    }
    let weigh = |fixed: i32, five: i32| mul_i64_u32(i64::from(fixed), ONE) + mul_i64_u32(i64::from(five), five_did);
    let hands = mul_u32(u64::from(fixed_hands), ONE) + mul_u32(u64::from(five_hands), five_did);
    if hands == 0 {
        return Err(CoachError::Impossible);
    }
    let denominator = mul_u32(hands, after_hand as u32);
    Ok(Values {
        draw: Ev { numerator: weigh(fixed[0], five[0]), denominator },
        stand: Ev { numerator: weigh(fixed[1], five[1]), denominator },
    })
}
