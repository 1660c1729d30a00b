//! The whole exact analysis of one shoe: the main bets and every side bet from one walk of
//! the enumeration, and the effects of removal that card counters work from.

use crate::composition::{Composition, RANKS, rank_name};
use crate::exact::Odds;
use crate::outcomes::Outcomes;
use crate::play::Play;
use crate::side::{SideBet, side_bets};
use bac_rules::DrawRules;

/// Every figure for one shoe.
#[derive(Clone, Debug, PartialEq)]
pub struct ShoeAnalysis {
    /// The main bets.
    pub odds: Odds,
    /// Every side bet, in [`crate::side::NAMES`] order.
    pub side: Vec<SideBet>,
}

/// Analyses `shoe` under `rules`, the free choices weighed by `play`.
pub fn analyze_shoe(rules: DrawRules, shoe: &Composition, play: &Play) -> ShoeAnalysis {
    let outcomes = Outcomes::of_shoe(rules, shoe.by_points(), play);
    let side = side_bets(&outcomes, &shoe.pair_moments(false), &shoe.pair_moments(true));
    ShoeAnalysis { odds: outcomes.odds(), side }
}

/// The shoe less one card of each kind a counter tells apart: every rank when the shoe
/// knows its tens by rank, else the nine values and a ten of unknown rank. Each with its
/// name; a kind with no card left is skipped.
pub fn removals(shoe: &Composition) -> Vec<(&'static str, Composition)> {
    if shoe.knows_ranks() {
        (1..=RANKS).filter_map(|rank| Some((rank_name(rank), shoe.without_rank(rank)?))).collect()
    } else {
        const VALUES: [&str; 10] = ["T", "A", "2", "3", "4", "5", "6", "7", "8", "9"];
        (1..10).chain([0]).filter_map(|v| Some((VALUES[usize::from(v)], shoe.without_points(v)?))).collect()
    }
}
