//! The shuffle is uniform: every card is equally likely at every position.

use bac_rules::{Burn, EndOfShoe, Shoe, Xorshift32};

/// Pearson's chi-square over the 52 × 52 (card, position) table of one-deck shuffles. With
/// 51 × 51 = 2601 degrees of freedom the statistic has mean 2601 and standard deviation
/// about 72; a biased shuffle (a bare modulo, or swapping with any position) lands far
/// outside five deviations.
#[test]
fn every_card_is_equally_likely_at_every_position() {
    const SHUFFLES: u32 = 52 * 400;
    let mut shoe = Shoe::new(1, EndOfShoe::ReshuffleAt { remaining: 8 }, Burn::None).unwrap();
    let mut rng = Xorshift32::new(0xBACC_A2A7);
    let mut counts = [[0u32; 52]; 52];
    for _ in 0..SHUFFLES {
        shoe.shuffle(&mut rng);
        for (position, card) in shoe.undealt().iter().enumerate() {
            counts[usize::from(card.index())][position] += 1;
        }
    }
    let expected = f64::from(SHUFFLES) / 52.0;
    let chi2: f64 = counts.iter().flatten().map(|&c| (f64::from(c) - expected).powi(2) / expected).sum();
    assert!((2601.0 - 5.0 * 72.1..2601.0 + 5.0 * 72.1).contains(&chi2), "chi-square {chi2:.0}");
}

/// The same test catches the classic mistake it is there for.
#[test]
fn the_chi_square_detects_a_naive_shuffle() {
    const SHUFFLES: u32 = 52 * 400;
    let mut rng = Xorshift32::new(0xBACC_A2A7);
    let mut counts = [[0u32; 52]; 52];
    let mut deck: [u8; 52] = core::array::from_fn(|i| i as u8);
    for _ in 0..SHUFFLES {
        deck = core::array::from_fn(|i| i as u8);
        for i in 0..52 {
            let j = usize::from(rng.below(52)); // swaps with any position: biased
            deck.swap(i, j);
        }
        for (position, &card) in deck.iter().enumerate() {
            counts[usize::from(card)][position] += 1;
        }
    }
    let expected = f64::from(SHUFFLES) / 52.0;
    let chi2: f64 = counts.iter().flatten().map(|&c| (f64::from(c) - expected).powi(2) / expected).sum();
    assert!(chi2 > 2601.0 + 5.0 * 72.1, "chi-square {chi2:.0} should expose the bias");
    let _ = deck;
}
