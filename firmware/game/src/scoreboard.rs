//! The scoreboard of the shoe, as casinos post it: the bead plate (every coup in order,
//! six to a column) and the big road (a column per run of Player or Banker wins, each a
//! ring in the winner's colour, a run longer than six turning right along the bottom). A
//! tie is a slash on the mark before it, in the tie's colour, and more than one its count;
//! ties before the first win are a slash alone, which the first win's ring then takes.
//!
//! A character cell has one ink, on the VIC-IIe as on the VDC, so a slashed mark is drawn
//! wholly in the tie's colour: its side still reads from the road itself, whose columns
//! alternate between Player and Banker.

use bac_rules::{Tally, Winner};

use crate::draw::{self, glyph};
use crate::platform::{Colour, Platform, colour};

/// Coups kept: a shoe of eight decks deals about eighty.
pub const MAX_COUPS: usize = 120;
/// Rows of both boards.
pub const ROWS: u8 = 6;

/// The results of the shoe so far.
#[derive(Clone, Debug)]
pub struct History {
    results: [Winner; MAX_COUPS],
    len: usize,
    naturals: u16,
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

impl History {
    /// An empty history: a fresh shoe.
    pub const fn new() -> History {
        History { results: [Winner::Tie; MAX_COUPS], len: 0, naturals: 0 }
    }

    /// Records a coup, and whether either hand was a natural; the oldest result is
    /// forgotten when full.
    pub fn push(&mut self, w: Winner, natural: bool) {
        self.naturals += u16::from(natural);
        if self.len == MAX_COUPS {
            self.results.copy_within(1.., 0);
            self.len -= 1;
        }
        self.results[self.len] = w;
        self.len += 1;
    }

    /// Forgets everything (the shoe was shuffled).
    pub fn clear(&mut self) {
        self.len = 0;
        self.naturals = 0;
    }

    /// Coups of this shoe won with a natural (or tied on one).
    pub fn naturals(&self) -> u16 {
        self.naturals
    }

    /// The results, oldest first.
    pub fn results(&self) -> &[Winner] {
        &self.results[..self.len]
    }
}

fn winner_look(w: Winner) -> (u8, u8) {
    match w {
        Winner::Player => (draw::screen_code(b'P'), draw::PLAYER_INK),
        Winner::Banker => (draw::screen_code(b'B'), colour::LIGHT_RED),
        Winner::Tie => (draw::screen_code(b'T'), colour::YELLOW),
    }
}

/// Draws the bead plate in `cols` columns at (x, y): the latest coups, six per column.
/// `paper` is added to every colour: 0 on the cloth, [`colour::ON_PAPER`] on the 80-column
/// panel's white (and the same for [`draw_big_road`] and [`counts`]).
#[inline(never)]
pub fn bead_plate(p: &mut impl Platform, x: u8, y: u8, cols: u8, history: &History, paper: Colour) {
    p.fill(x, y, cols, ROWS, glyph::SPACE, colour::WHITE | paper);
    let results = history.results();
    let shown_cols = results.len().div_ceil(usize::from(ROWS));
    let first_col = shown_cols.saturating_sub(usize::from(cols));
    // The bead's place is counted along, not divided out of its index: on the C128 a
    // 16-bit division is a 16-step loop, and the 30th coup's plate took 31 of them.
    let (mut col, mut row) = (0u8, 0u8);
    for &w in results.iter().skip(first_col * usize::from(ROWS)) {
        let (code, ink) = winner_look(w);
        p.put(x + col, y + row, code, ink | paper);
        row += 1;
        if row == ROWS {
            row = 0;
            col += 1;
        }
    }
}

/// One bead of the big road.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bead {
    /// Column, from the left of the whole road.
    pub col: u16,
    /// Row, 0 at the top.
    pub row: u8,
    /// Player or Banker; [`Winner::Tie`] only for ties before the first win, which hold
    /// the first mark's place until it comes.
    pub winner: Winner,
    /// Ties that followed it (or, for a first mark, came before it).
    pub ties: u8,
}

/// Lays out the big road. `emit` receives each bead, in order; a later bead may update an
/// earlier one's tie count, so `emit` is called again for it. The road can be wider than
/// any screen: the caller keeps the right-hand end.
pub fn big_road(history: &History, mut emit: impl FnMut(Bead)) {
    // Rows taken in each column, one bit per row: a run meeting an earlier bead turns right.
    let mut taken = [0u8; MAX_COUPS + 1];
    let mut last: Option<Bead> = None;
    let mut run_col: u16 = 0;
    let mut turned = false;
    for &w in history.results() {
        let next = match (w, last) {
            (Winner::Tie, Some(mut bead)) => {
                bead.ties = bead.ties.saturating_add(1);
                emit(bead);
                last = Some(bead);
                continue;
            }
            (Winner::Tie, None) => {
                let bead = Bead { col: 0, row: 0, winner: Winner::Tie, ties: 1 };
                emit(bead);
                last = Some(bead);
                continue;
            }
            // The first win takes the place of the ties before it, and their count.
            (w, Some(prev)) if prev.winner == Winner::Tie => Bead { winner: w, ..prev },
            (w, Some(prev)) if prev.winner == w => {
                let below = prev.row + 1;
                let free = below < ROWS && taken.get(usize::from(prev.col)).is_some_and(|t| t & (1 << below) == 0);
                if free && !turned {
                    Bead { col: prev.col, row: below, winner: w, ties: 0 }
                } else {
                    turned = true;
                    Bead { col: prev.col + 1, row: prev.row, winner: w, ties: 0 }
                }
            }
            (w, prev) => {
                run_col = if prev.is_some() { run_col + 1 } else { 0 };
                turned = false;
                Bead { col: run_col, row: 0, winner: w, ties: 0 }
            }
        };
        if let Some(t) = taken.get_mut(usize::from(next.col)) {
            *t |= 1 << next.row;
        }
        emit(next);
        last = Some(next);
    }
}

/// Draws the right-hand end of the big road in `cols` columns at (x, y).
#[inline(never)]
pub fn draw_big_road(p: &mut impl Platform, x: u8, y: u8, cols: u8, history: &History, paper: Colour) {
    p.fill(x, y, cols, ROWS, glyph::SPACE, colour::WHITE | paper);
    let mut width = 0u16;
    big_road(history, |b| width = width.max(b.col + 1));
    let first = width.saturating_sub(u16::from(cols));
    big_road(history, |b| {
        if b.col >= first {
            let (code, ink) = mark_look(b);
            p.put(x + (b.col - first) as u8, y + b.row, code, ink | paper);
        }
    });
}

/// A big-road cell: a ring in the winner's colour; with one tie the ring slashed (a slash
/// alone before the first win), with more the count (9 at most), in the tie's colour.
fn mark_look(b: Bead) -> (u8, u8) {
    let (_, tie_ink) = winner_look(Winner::Tie);
    match (b.winner, b.ties) {
        (w, 0) => (glyph::RING, winner_look(w).1),
        (Winner::Tie, 1) => (glyph::SLASH, tie_ink),
        (_, 1) => (glyph::SLASHED_RING, tie_ink),
        (_, n) => (draw::screen_code(b'0' + n.min(9)), tie_ink),
    }
}

/// The counts line: `P 12 B 10 T 2 NAT 5`, the naturals under the label `nat`.
#[inline(never)]
pub fn counts(p: &mut impl Platform, x: u8, y: u8, tally: Tally, nat: &[u8], naturals: u16, paper: Colour) -> u8 {
    let mut at = x;
    for (label, n, ink) in [
        (b"P".as_slice(), tally.player, draw::PLAYER_INK),
        (b"B", tally.banker, colour::LIGHT_RED),
        (b"T", tally.tie, colour::YELLOW),
        (nat, naturals, colour::LIGHT_GREY),
    ] {
        at = draw::text(p, at, y, label, ink | paper) + 1;
        at = draw::text(p, at, y, crate::num::number(u32::from(n)).as_bytes(), draw::INK | paper) + 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use Winner::{Banker as B, Player as P, Tie as T};

    fn road(results: &[Winner]) -> std::vec::Vec<Bead> {
        let mut h = History::new();
        results.iter().for_each(|&w| h.push(w, false));
        let mut out: std::vec::Vec<Bead> = std::vec::Vec::new();
        big_road(&h, |b| {
            out.retain(|o| (o.col, o.row) != (b.col, b.row));
            out.push(b)
        });
        out
    }

    #[test]
    fn runs_go_down_and_change_of_side_starts_a_column() {
        let r = road(&[B, B, P, T, T, P, B]);
        let cells: std::vec::Vec<_> = r.iter().map(|b| (b.col, b.row, b.winner, b.ties)).collect();
        assert_eq!(cells, [(0, 0, B, 0), (0, 1, B, 0), (1, 0, P, 2), (1, 1, P, 0), (2, 0, B, 0)]);
    }

    #[test]
    fn ties_before_the_first_win_hold_its_place_and_it_takes_their_count() {
        let cells =
            |r: &[Winner]| road(r).iter().map(|b| (b.col, b.row, b.winner, b.ties)).collect::<std::vec::Vec<_>>();
        assert_eq!(cells(&[T]), [(0, 0, T, 1)], "a tie on the first coup still shows");
        assert_eq!(cells(&[T, T]), [(0, 0, T, 2)]);
        assert_eq!(cells(&[T, T, B, T, B]), [(0, 0, B, 3), (0, 1, B, 0)]);
        assert_eq!(cells(&[T, P, B]), [(0, 0, P, 1), (1, 0, B, 0)]);
    }

    #[test]
    fn a_mark_is_a_ring_slashed_by_a_tie_and_counted_by_more() {
        let (_, tie) = winner_look(T);
        let look = |winner, ties| mark_look(Bead { col: 0, row: 0, winner, ties });
        assert_eq!(look(B, 0), (glyph::RING, colour::LIGHT_RED));
        assert_eq!(look(P, 0), (glyph::RING, draw::PLAYER_INK));
        assert_eq!(look(P, 1), (glyph::SLASHED_RING, tie));
        assert_eq!(look(T, 1), (glyph::SLASH, tie));
        assert_eq!(look(B, 3), (draw::screen_code(b'3'), tie));
        assert_eq!(look(T, 12), (draw::screen_code(b'9'), tie), "a count past nine shows 9");
    }

    #[test]
    fn a_long_run_turns_right_along_the_bottom() {
        let r = road(&[P; 8]);
        let cells: std::vec::Vec<_> = r.iter().map(|b| (b.col, b.row)).collect();
        assert_eq!(cells, [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 5), (2, 5)]);
    }

    #[test]
    fn a_run_beside_a_dragon_turns_above_it() {
        let mut seq = std::vec![P; 8];
        seq.extend([B; 7]);
        let r = road(&seq);
        let banker: std::vec::Vec<_> = r.iter().filter(|b| b.winner == B).map(|b| (b.col, b.row)).collect();
        // The dragon holds the bottom row of columns 0-2, so the Banker run turns at row 4.
        assert_eq!(banker, [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (2, 4), (3, 4)]);
    }

    #[test]
    fn history_keeps_the_latest() {
        let mut h = History::new();
        for i in 0..MAX_COUPS + 5 {
            h.push(if i % 2 == 0 { P } else { B }, i % 3 == 0);
        }
        assert_eq!(h.results().len(), MAX_COUPS);
        assert_eq!(h.results()[0], B);
        assert_eq!(h.naturals(), 42, "every third coup of 125 was a natural, forgotten or not");
        h.clear();
        assert!(h.results().is_empty());
        assert_eq!(h.naturals(), 0);
    }
}
