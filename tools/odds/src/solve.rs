//! The game-theoretic solution of the games where the rules leave choices.
//!
//! The player chooses only on 5, without seeing the bank's cards; the bank chooses knowing
//! its own total and the player's third card (or that the player stood). Against a player
//! who draws on 5 with probability `p`, each free bank cell is a choice between two lines
//! in `p`, so the player's guaranteed value `f(p)` (the bank answering every `p` as well as
//! it can) is concave and piecewise linear: its maximum is at 0, 1 or a crossing of two
//! lines. At an interior maximum the bank mixes in the crossing cell so that the player is
//! indifferent on 5; that mix is the bank's equilibrium strategy.

use crate::exact::{Choices, walk};
use crate::play::Play;
use bac_rules::DrawRules;
use bac_rules::question::{Decision, Question};
use bac_rules::tableau::PLAYER_STOOD;

const EPSILON: f64 = 1e-13;

/// The player's result in one free bank cell, for one bank action, as a line in `p`:
/// `fixed + p * if_draws + (1 - p) * if_stands`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Line {
    fixed: f64,
    if_draws: f64,
    if_stands: f64,
}

impl Line {
    fn at(&self, p: f64) -> f64 {
        self.fixed + p * self.if_draws + (1.0 - p) * self.if_stands
    }

    fn slope(&self) -> f64 {
        self.if_draws - self.if_stands
    }

    fn add(&mut self, player_choice: Option<bool>, value: f64) {
        match player_choice {
            None => self.fixed += value,
            Some(true) => self.if_draws += value,
            Some(false) => self.if_stands += value,
        }
    }
}

/// The player's expected result (+1 win, −1 loss) split by where the choices fall.
#[derive(Clone, Debug, Default)]
struct Game {
    /// Everything outside the bank's free cells.
    outside: Line,
    /// Per free cell (total, column): the lines for [draw, stand].
    cells: Vec<((u8, u8), [Line; 2])>,
}

impl Game {
    fn build(rules: DrawRules, decks: u8) -> Game {
        let mut grid = [[[Line::default(); 2]; 11]; 8];
        let mut free = [[false; 11]; 8];
        let mut outside = Line::default();
        walk(rules, decks, Choices::Explore, &mut |leaf, w| {
            let value = w * leaf.player_result();
            match leaf.banker_choice {
                None => outside.add(leaf.player_choice, value),
                Some((total, column, drew)) => {
                    let (t, c) = (usize::from(total), usize::from(column));
                    free[t][c] = true;
                    grid[t][c][usize::from(!drew)].add(leaf.player_choice, value);
                }
            }
        });
        let mut cells = Vec::new();
        for t in 0..8 {
            for c in 0..11 {
                if free[t][c] {
                    cells.push(((t as u8, c as u8), grid[t][c]));
                }
            }
        }
        Game { outside, cells }
    }

    /// The player's value when drawing on 5 with probability `p` and the bank answering
    /// each cell as well as it can.
    fn guaranteed(&self, p: f64) -> f64 {
        self.outside.at(p) + self.cells.iter().map(|(_, [draw, stand])| draw.at(p).min(stand.at(p))).sum::<f64>()
    }
}

/// A solved game.
#[derive(Clone, Debug, PartialEq)]
pub struct Equilibrium {
    /// Both sides' strategies.
    pub play: Play,
    /// The player's expected result per coup (+1 win, −1 loss, ties 0) when both play it.
    pub value: f64,
    /// The bank's free cells, with the player's expected result for (draw, stand) there at
    /// the equilibrium `p`: for reports and tests.
    pub cells: Vec<((u8, u8), (f64, f64))>,
}

/// Solves `rules` with `decks` decks exactly. For Punto Banco (no choices) the value is the
/// player's expected result and `play` is the casino's.
pub fn solve(rules: DrawRules, decks: u8) -> Equilibrium {
    let game = Game::build(rules, decks);
    let mut candidates = vec![0.0, 1.0];
    for (_, [draw, stand]) in &game.cells {
        // Where the two lines cross: draw.at(p) == stand.at(p).
        let (a, b) = (draw.at(0.0) - stand.at(0.0), draw.slope() - stand.slope());
        if b.abs() > EPSILON {
            let p = -a / b;
            if (0.0..=1.0).contains(&p) {
                candidates.push(p);
            }
        }
    }
    // The best guaranteed value; among equals the larger p (drawing is the casino custom).
    let p = candidates
        .iter()
        .copied()
        .fold(None, |best: Option<(f64, f64)>, p| {
            let v = game.guaranteed(p);
            match best {
                Some((bp, bv)) if bv > v + EPSILON || (bv > v - EPSILON && bp >= p) => Some((bp, bv)),
                _ => Some((p, v)),
            }
        })
        .map_or(1.0, |(p, _)| p);

    let casino = Play::of(bac_rules::Builtin::Casino);
    let mut play = Play { player_on_five: p, banker: casino.banker };
    let interior = p > EPSILON && p < 1.0 - EPSILON;
    // The slope in p of the player's result, from every cell but the one left to mix.
    let mut slope = game.outside.slope();
    let mut to_mix = None;
    let mut cells = Vec::new();
    for &((t, c), [draw, stand]) in &game.cells {
        let (vd, vs) = (draw.at(p), stand.at(p));
        cells.push(((t, c), (vd, vs)));
        let chance = &mut play.banker[usize::from(t)][usize::from(c)];
        let indifferent = (vd - vs).abs() <= EPSILON;
        if indifferent && interior && to_mix.is_none() {
            to_mix = Some((t, c, draw.slope(), stand.slope()));
            continue;
        }
        // A strict best response, or (indifferent elsewhere) the customary action.
        let draws = if indifferent { *chance >= 1.0 } else { vd < vs };
        *chance = f64::from(u8::from(draws));
        slope += if draws { draw.slope() } else { stand.slope() };
    }
    if let Some((t, c, if_draw, if_stand)) = to_mix {
        // The mix q that makes the player indifferent on 5: slope + q*d + (1-q)*s = 0.
        let chance = &mut play.banker[usize::from(t)][usize::from(c)];
        if (if_draw - if_stand).abs() > EPSILON {
            *chance = ((-slope - if_stand) / (if_draw - if_stand)).clamp(0.0, 1.0);
        }
    }
    let value = game.guaranteed(p);
    Equilibrium { play, value, cells }
}

/// The player's expected result for always drawing and always standing on 5 against the
/// bank's side of `play`: equal at an interior equilibrium.
pub fn player_on_five_values(rules: DrawRules, decks: u8, play: &Play) -> (f64, f64) {
    let value = |p| {
        let mut total = 0.0;
        let play = Play { player_on_five: p, ..*play };
        walk(rules, decks, Choices::Weighted(&play), &mut |leaf, w| total += w * leaf.player_result());
        total
    };
    (value(1.0), value(0.0))
}

/// The equilibrium's answer as a decision table, for display: the decision with the larger
/// chance (mixed cells answer `Draw` when drawing is at least as likely).
pub fn describe(play: &Play, question: Question) -> (Decision, f64) {
    let p = match question {
        Question::PlayerOnFive => play.player_on_five,
        Question::Banker { total, player_third } => {
            play.banker[usize::from(total.min(7))][player_third.map_or(PLAYER_STOOD, |c| usize::from(c % 10))]
        }
    };
    (Decision::draw_if(p >= 0.5), p)
}
