//! A cell grid: Conway's Game of Life on a 32 x 20 torus, a byte a cell, four generations.

use crate::rng::Rng;
use crate::sum::Sum;

/// Columns.
pub const W: usize = 32;
/// Rows.
pub const H: usize = 20;

/// A generation: 1 alive, 0 dead.
pub type Grid = [[u8; W]; H];

/// Writes the generation after `from` into `to`; the edges wrap round.
pub fn step(from: &Grid, to: &mut Grid) {
    for y in 0..H {
        let up = (y + H - 1) % H;
        let down = (y + 1) % H;
        for x in 0..W {
            let left = (x + W - 1) % W;
            let right = (x + 1) % W;
            let neighbours = from[up][left]
                + from[up][x]
                + from[up][right]
                + from[y][left]
                + from[y][right]
                + from[down][left]
                + from[down][x]
                + from[down][right];
            to[y][x] = u8::from(neighbours == 3 || (neighbours == 2 && from[y][x] == 1));
        }
    }
}

/// The kernel: a quarter of the cells alive at random, four generations; the last one's
/// checksum and population.
pub fn run(seed: u16) -> u32 {
    let mut rng = Rng::new(seed);
    let mut a: Grid = [[0; W]; H];
    for row in a.iter_mut() {
        for cell in row.iter_mut() {
            *cell = u8::from(rng.next_u16() & 3 == 0);
        }
    }
    let mut b: Grid = [[0; W]; H];
    for _ in 0..2 {
        step(&a, &mut b);
        step(&b, &mut a);
    }
    let mut sum = Sum::default();
    let mut population = 0u32;
    for row in a.iter() {
        sum.bytes(row);
        population += row.iter().map(|&c| u32::from(c)).sum::<u32>();
    }
    sum.value() ^ population
}

#[cfg(test)]
mod tests {
    use super::{Grid, H, W, step};

    #[test]
    fn a_blinker_blinks() {
        let mut a: Grid = [[0; W]; H];
        a[5][4] = 1;
        a[5][5] = 1;
        a[5][6] = 1;
        let mut b: Grid = [[0; W]; H];
        step(&a, &mut b);
        assert_eq!((b[4][5], b[5][5], b[6][5], b[5][4]), (1, 1, 1, 0));
        let mut c: Grid = [[0; W]; H];
        step(&b, &mut c);
        assert_eq!(a, c);
    }
}
