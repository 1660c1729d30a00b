//! The derived roads of the scoreboard: big eye boy, small road and cockroach pig.
//!
//! Each reads the big road by its columns: a column per run of Player or Banker wins, ties
//! left out, however the run is drawn (a long run turns right on the screen but is still
//! one column here). For every big-road entry from the road's start on it puts a mark: red
//! where the big road repeats the pattern of `N` columns back, blue where it breaks it
//! (`N` = 1, 2, 3 for the three roads). For an entry at row `r` of column `c`:
//!
//! - the first entry of a column (`r = 0`): red if the two columns before it, `c - 1` and
//!   `c - 1 - N`, are of the same length, else blue;
//! - a later entry: blue if column `c - N` has exactly `r` entries (its cell beside this
//!   one is empty and the cell above that is not), else red (that cell is there, or the
//!   column ended even earlier).
//!
//! So a road starts at the second entry of column `N` (counting from 0), or at the first
//! entry of column `N + 1` when column `N` holds one entry. The marks are then laid out
//! like the big road: a column per run of one colour, six rows, a long run turning right
//! along its row when it reaches the bottom or a mark below.
//!
//! [`Roads`] does it as the shoe goes, a result at a time, and keeps of each road only what
//! the screen shows (its last [`WIDE`] or [`NARROW`] columns) and the tails of long runs that later
//! runs may meet: the game draws the roads several times a coup, and a layout from the
//! shoe's first result each time would take seconds in the interpreter.
//!
//! Assumes: the results of one shoe in order, oldest first, at most 255 columns to a road.
//! Guarantees: no money is involved, nothing panics, at most one mark per road per result,
//! and each road's window as a layout of the whole road would show it (tested against one).
//! This module runs interpreted (it is not in game-prg's translated list), so it costs
//! bank 1, not bank 0.

use bac_rules::Winner;

#[cfg(test)]
use crate::scoreboard::MAX_COUPS;
use crate::scoreboard::ROWS;

/// The three derived roads, in the order casinos post them.
pub const ROADS: usize = 3;
/// How many big-road columns back each road compares: big eye boy, small road, cockroach
/// pig.
pub const OFFSETS: [u8; ROADS] = [1, 2, 3];

/// Where the big road stands, for the derived roads' marks: the lengths of its latest
/// columns (`[0]` the current one, `[1]` the one before...; four back is as far as the
/// cockroach pig looks), how many columns it has, and the side of the last entry.
#[derive(Clone, Copy, Debug)]
struct Marker {
    lens: [u8; 5],
    columns: u8,
    last: Winner,
}

impl Marker {
    const fn new() -> Marker {
        Marker { lens: [0; 5], columns: 0, last: Winner::Tie }
    }

    /// Takes the next result; calls `mark(road, red)` for each road it marks.
    fn next(&mut self, w: Winner, mut mark: impl FnMut(usize, bool)) {
        if w == Winner::Tie {
            return;
        }
        let lens = &mut self.lens;
        if w != self.last {
            *lens = [0, lens[0], lens[1], lens[2], lens[3]];
            self.columns = self.columns.saturating_add(1);
            self.last = w;
        }
        let row = lens[0];
        lens[0] = lens[0].saturating_add(1);
        let col = self.columns - 1;
        for (road, &n) in OFFSETS.iter().enumerate() {
            let back = usize::from(n);
            if row == 0 {
                if col > n {
                    mark(road, lens[1] == lens[1 + back]);
                }
            } else if col >= n {
                mark(road, lens[back] != row);
            }
        }
    }
}

/// Calls `mark(road, red)` for each mark of the three roads, in the order of the results
/// that make them (`road` indexes [`OFFSETS`]).
pub fn marks(results: &[Winner], mut mark: impl FnMut(usize, bool)) {
    let mut marker = Marker::new();
    for &w in results {
        marker.next(w, &mut mark);
    }
}

/// Columns of big eye boy the screen shows: the panel's width.
pub const WIDE: usize = 27;
/// Columns of the small road and of the cockroach pig, side by side under it.
pub const NARROW: usize = 13;

/// One derived road laid out as it grows (see the module docs): the last `W` columns'
/// marks, and what placing the next mark needs. Small: the game keeps three in the 2 KB
/// below the program with the rest of its state.
#[derive(Clone, Copy, Debug)]
pub struct Road<const W: usize> {
    /// Column `c`'s marks at `c % W`: a bit per row holding one (bit 0 the top), and the
    /// same bits eight higher for the red ones.
    cells: [u16; W],
    /// Columns used.
    width: u8,
    /// The last mark's column and row, and [`LAST`], [`RED`] and [`TURNED`].
    last_col: u8,
    last_row: u8,
    flags: u8,
    /// Column of the current run's first mark.
    run_col: u8,
    /// By row, the last column of the tail of a run that turned right along it (0: none),
    /// which a later run going down may meet. A tail starts right of its run's first
    /// column, so left of any later run's: its end alone says where it reaches.
    tail_end: [u8; ROWS as usize],
}

/// [`Road::flags`]: there is a last mark...
const LAST: u8 = 1;
/// ...it is red...
const RED: u8 = 2;
/// ...and its run has turned right.
const TURNED: u8 = 4;

impl<const W: usize> Default for Road<W> {
    fn default() -> Road<W> {
        Road::new()
    }
}

impl<const W: usize> Road<W> {
    /// An empty road.
    pub const fn new() -> Road<W> {
        Road { cells: [0; W], width: 0, last_col: 0, last_row: 0, flags: 0, run_col: 0, tail_end: [0; ROWS as usize] }
    }

    /// Places the next mark.
    #[inline(never)]
    pub fn push(&mut self, red: bool) {
        let colour = if red { RED } else { 0 };
        let (col, row) = if self.flags & LAST == 0 {
            (0, 0)
        } else if self.flags & RED != colour {
            self.run_col = self.run_col.saturating_add(1);
            self.flags &= !TURNED;
            (self.run_col, 0)
        } else {
            let (col, row) = (self.last_col, self.last_row);
            let below = usize::from(row + 1);
            let blocked = self.tail_end.get(below).is_none_or(|&end| end >= col && end != 0);
            if self.flags & TURNED == 0 && !blocked {
                (col, row + 1)
            } else {
                // Along the row: the tail there ends one column further.
                self.flags |= TURNED;
                let next = col.saturating_add(1);
                self.tail_end[usize::from(row)] = next;
                (next, row)
            }
        };
        self.last_col = col;
        self.last_row = row;
        self.flags = (self.flags & TURNED) | LAST | colour;
        // New columns come in empty; a mark left of the window is not kept.
        while self.width <= col {
            self.cells[usize::from(self.width) % W] = 0;
            self.width += 1;
        }
        if usize::from(col) + W < usize::from(self.width) {
            return;
        }
        let bit = 1u16 << row;
        self.cells[usize::from(col) % W] |= if red { bit | bit << 8 } else { bit };
    }

    /// Columns used.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Column `col`'s marks, if it is in the window: a bit per row (bit 0 the top), and the
    /// same bits eight higher for the red ones.
    pub fn column(&self, col: u8) -> Option<u16> {
        let shown = usize::from(col) < usize::from(self.width) && usize::from(col) + W >= usize::from(self.width);
        shown.then(|| self.cells[usize::from(col) % W])
    }

    /// The mark at a column and row, if shown: `Some(true)` for red.
    pub fn at(&self, col: u8, row: u8) -> Option<bool> {
        let bits = self.column(col)?;
        let bit = 1u16.checked_shl(u32::from(row))?;
        (bits & bit != 0).then_some(bits & bit << 8 != 0)
    }
}

/// The three derived roads of a shoe, kept up a result at a time.
#[derive(Clone, Copy, Debug)]
pub struct Roads {
    marker: Marker,
    /// Big eye boy.
    pub big_eye: Road<WIDE>,
    /// Small road.
    pub small: Road<NARROW>,
    /// Cockroach pig.
    pub cockroach: Road<NARROW>,
}

impl Default for Roads {
    fn default() -> Roads {
        Roads::new()
    }
}

impl Roads {
    /// No results yet: a fresh shoe.
    pub const fn new() -> Roads {
        Roads { marker: Marker::new(), big_eye: Road::new(), small: Road::new(), cockroach: Road::new() }
    }

    /// Takes the next result of the shoe.
    #[inline(never)]
    pub fn push(&mut self, w: Winner) {
        let (big_eye, small, cockroach) = (&mut self.big_eye, &mut self.small, &mut self.cockroach);
        self.marker.next(w, |road, red| match road {
            0 => big_eye.push(red),
            1 => small.push(red),
            _ => cockroach.push(red),
        });
    }
}

/// Columns a laid-out road can need: one per mark at most.
#[cfg(test)]
const GRID_COLS: usize = MAX_COUPS + 1;

/// A whole road of red and blue marks laid out on [`ROWS`] rows at once, as the big road
/// is: the reference the tests hold [`Road`] to.
#[cfg(test)]
#[derive(Clone, Debug)]
struct Grid {
    /// Rows holding a mark, a bit per row (bit 0 the top), by column.
    taken: [u8; GRID_COLS],
    /// Rows whose mark is red, by column.
    red: [u8; GRID_COLS],
    /// Columns used.
    width: u8,
    /// The last mark: column, row, red.
    last: Option<(u8, u8, bool)>,
    /// Column of the current run's first mark.
    run_col: u8,
    /// Whether the current run has turned right.
    turned: bool,
}

#[cfg(test)]
impl Grid {
    /// An empty road.
    const fn new() -> Grid {
        Grid { taken: [0; GRID_COLS], red: [0; GRID_COLS], width: 0, last: None, run_col: 0, turned: false }
    }

    /// Places the next mark. Marks past [`GRID_COLS`] columns are dropped (a shoe of eight
    /// decks deals at most 104 coups).
    fn push(&mut self, red: bool) {
        let (col, row) = match self.last {
            Some((col, row, was_red)) if was_red == red => {
                let below = row + 1;
                let free = below < ROWS && self.taken.get(usize::from(col)).is_some_and(|t| t & (1 << below) == 0);
                if free && !self.turned {
                    (col, below)
                } else {
                    self.turned = true;
                    (col.saturating_add(1), row)
                }
            }
            Some(_) => {
                self.run_col = self.run_col.saturating_add(1);
                self.turned = false;
                (self.run_col, 0)
            }
            None => (0, 0),
        };
        let Some(taken) = self.taken.get_mut(usize::from(col)) else {
            return;
        };
        *taken |= 1 << row;
        if red {
            self.red[usize::from(col)] |= 1 << row;
        }
        self.width = self.width.max(col + 1);
        self.last = Some((col, row, red));
    }

    /// Columns used.
    fn width(&self) -> u8 {
        self.width
    }

    /// The mark at a column and row: `None` for none, `Some(true)` for red.
    fn at(&self, col: u8, row: u8) -> Option<bool> {
        let i = usize::from(col);
        let bit = 1u8.checked_shl(u32::from(row))?;
        let taken = *self.taken.get(i)?;
        (taken & bit != 0).then(|| self.red[i] & bit != 0)
    }
}

/// Lays out one road of the results: `road` indexes [`OFFSETS`].
#[cfg(test)]
fn grid(results: &[Winner], road: usize) -> Grid {
    let mut g = Grid::new();
    marks(results, |r, red| {
        if r == road {
            g.push(red);
        }
    });
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use Winner::{Banker as B, Player as P, Tie as T};

    /// The marks of each road, `R` and `b` (blue) in order.
    fn roads(results: &[Winner]) -> [std::string::String; ROADS] {
        let mut out: [std::string::String; ROADS] = Default::default();
        marks(results, |road, red| out[road].push(if red { 'R' } else { 'b' }));
        out
    }

    #[test]
    fn each_road_starts_at_the_second_entry_of_column_n_or_the_top_of_the_next() {
        // Big road: B B | P | B. Big eye boy starts at the 2nd entry of column 1 (there is
        // none) or the top of column 2: the third entry's run, B.
        let r = roads(&[B, B, P, B]);
        assert_eq!(r[0], "b", "column 2's top: columns 1 (1) and 0 (2) differ");
        assert_eq!(r[1], "", "the small road needs column 3 or a 2nd entry in column 2");
        // Column 1 holds two: the big eye boy starts at its second entry.
        let r = roads(&[B, P, P]);
        assert_eq!(r[0], "b", "column 0 has exactly one entry: the cell beside is empty, the one above is not");
        assert_eq!(r[1], "");
        assert_eq!(r[2], "");
    }

    #[test]
    fn ties_make_no_marks() {
        assert_eq!(roads(&[B, T, P, T, T, P, B]), roads(&[B, P, P, B]));
        assert_eq!(roads(&[T, T, T]), ["", "", ""]);
    }

    #[test]
    fn a_chop_is_red_on_every_road() {
        // P B P B ...: every column has one entry, so every new column compares two equal
        // lengths.
        let chop: std::vec::Vec<_> = (0..10).map(|i| if i % 2 == 0 { P } else { B }).collect();
        let r = roads(&chop);
        // The first mark of road N comes at column N + 1: 10 columns give 8, 7, 6 marks.
        assert_eq!(r, ["RRRRRRRR", "RRRRRRR", "RRRRRR"]);
    }

    #[test]
    fn a_run_against_shorter_columns_is_blue_once_then_red() {
        // Big road columns: B (1), P (1), B B B B (4).
        let r = roads(&[B, P, B, B, B, B]);
        // Big eye boy: column 2's top compares columns 1 and 0 (1 = 1): R. Row 1 of column
        // 2: column 1 has exactly 1 entry: b. Rows 2, 3: column 1 ended earlier: R R.
        assert_eq!(r[0], "RbRR");
        // Small road: column 2, row 1 looks at column 0 (1 entry): b; then R R.
        assert_eq!(r[1], "bRR");
        // Cockroach pig: needs column 3, or a second entry in column 3: none yet.
        assert_eq!(r[2], "");
    }

    #[test]
    fn a_worked_shoe() {
        // Big road, by columns: B B (2) | P (1) | B B B (3) | P P (2) | B (1) | P (1).
        let shoe = [B, B, P, B, B, B, P, P, B, P];
        let r = roads(&shoe);
        // Big eye boy (N = 1):
        //   col 1 row 0: no mark (needs col 2 or row 1).
        //   col 2 row 0: cols 1 (1) vs 0 (2): b.  row 1: col 1 has 1 = r: b.  row 2: col 1 has
        //   1 < 2: R.
        //   col 3 row 0: cols 2 (3) vs 1 (1): b.  row 1: col 2 has 3 != 1: R.
        //   col 4 row 0: cols 3 (2) vs 2 (3): b.
        //   col 5 row 0: cols 4 (1) vs 3 (2): b.
        assert_eq!(r[0], "bbRbRbb");
        // Small road (N = 2):
        //   col 2 row 1: col 0 has 2 != 1: R.  row 2: col 0 has 2 = r: b.
        //   col 3 row 0: cols 2 (3) vs 0 (2): b.  row 1: col 1 has 1 = r: b.
        //   col 4 row 0: cols 3 (2) vs 1 (1): b.
        //   col 5 row 0: cols 4 (1) vs 2 (3): b.
        assert_eq!(r[1], "Rbbbbb");
        // Cockroach pig (N = 3):
        //   col 3 row 1: col 0 has 2 != 1: R.
        //   col 4 row 0: cols 3 (2) vs 0 (2): R.
        //   col 5 row 0: cols 4 (1) vs 1 (1): R.
        assert_eq!(r[2], "RRR");
    }

    #[test]
    fn the_grid_lays_marks_out_like_the_big_road() {
        let mut g = Grid::new();
        for red in [true, true, false, true, true, true, true, true, true, true] {
            g.push(red);
        }
        // R R in column 0; b in column 1; seven R from column 2: six down, one to the right.
        assert_eq!((g.at(0, 0), g.at(0, 1), g.at(0, 2)), (Some(true), Some(true), None));
        assert_eq!(g.at(1, 0), Some(false));
        assert!((0..6).all(|row| g.at(2, row) == Some(true)));
        assert_eq!(g.at(3, 5), Some(true));
        assert_eq!(g.width(), 4);
        // A blue run now starts in column 3 and stops above the red tail.
        for _ in 0..6 {
            g.push(false);
        }
        assert!((0..5).all(|row| g.at(3, row) == Some(false)));
        assert_eq!(g.at(4, 4), Some(false), "the run turns right above the tail");
        assert_eq!(g.at(3, 5), Some(true));
        assert_eq!(g.at(9, 7), None, "off the grid is empty");
    }

    #[test]
    fn grid_follows_the_road() {
        let shoe = [B, B, P, B, B, B, P, P, B, P];
        let g = &grid(&shoe, 0);
        // bbRbRbb: b b down column 0, R in column 1, b in 2, R in 3, b b down column 4.
        let marks: std::vec::Vec<_> =
            (0..g.width()).flat_map(|c| (0..ROWS).filter_map(move |r| g.at(c, r).map(|red| (c, r, red)))).collect();
        assert_eq!(
            marks,
            [(0, 0, false), (0, 1, false), (1, 0, true), (2, 0, false), (3, 0, true), (4, 0, false), (4, 1, false)]
        );
    }

    #[test]
    fn a_full_history_stays_on_the_grid() {
        // Every result a new column: the grids are as wide as their marks, and no wider
        // than the grid.
        let chop: std::vec::Vec<_> = (0..MAX_COUPS).map(|i| if i % 2 == 0 { P } else { B }).collect();
        for road in 0..ROADS {
            let g = grid(&chop, road);
            // All red: one run, six down, then along the bottom.
            let marks = MAX_COUPS - 1 - road - 1;
            assert_eq!(usize::from(g.width()), marks - 5);
        }
    }

    /// Every mark sequence of a few kinds (chops, dragons, random runs): the road kept a
    /// mark at a time shows, on its window, exactly what the whole layout has there.
    #[test]
    fn the_kept_road_shows_what_the_whole_layout_has() {
        let mut seed = 0x1234_5678u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        for case in 0..400 {
            let len = 1 + next() as usize % MAX_COUPS;
            // Longer runs in some cases, so that tails pass under later columns and off
            // the window's left edge.
            let stay = [2, 8, 30, 60][case % 4];
            let mut red = next() & 1 == 0;
            let (mut road, mut whole) = (Road::<WIDE>::new(), Grid::new());
            for _ in 0..len {
                if next() % 64 >= stay {
                    red = !red;
                }
                road.push(red);
                whole.push(red);
                assert_eq!(road.width(), whole.width(), "case {case}");
                let first = road.width().saturating_sub(WIDE as u8);
                for col in first..road.width() {
                    for row in 0..ROWS {
                        assert_eq!(road.at(col, row), whole.at(col, row), "case {case}: column {col} row {row}");
                    }
                }
            }
        }
    }

    #[test]
    fn roads_keep_each_road_as_marks_lays_it_out() {
        let shoe = [B, B, P, B, B, B, P, P, B, P, T, P, P, B, B, B, B, B, B, B, P];
        let mut roads = Roads::new();
        shoe.iter().for_each(|&w| roads.push(w));
        let kept: [&dyn Fn(u8, u8) -> Option<bool>; ROADS] =
            [&|c, r| roads.big_eye.at(c, r), &|c, r| roads.small.at(c, r), &|c, r| roads.cockroach.at(c, r)];
        for (road, at) in kept.iter().enumerate() {
            let whole = grid(&shoe, road);
            for col in 0..whole.width() {
                for row in 0..ROWS {
                    assert_eq!(at(col, row), whole.at(col, row), "road {road}: column {col} row {row}");
                }
            }
        }
    }
}
