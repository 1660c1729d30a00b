//! Path finding: breadth-first search over a 24 x 16 tile map with a third of the tiles
//! walls, the distance from a corner to every tile it reaches.

use crate::rng::Rng;

/// Columns.
pub const W: usize = 24;
/// Rows.
pub const H: usize = 16;
/// A tile not reached.
pub const UNREACHED: u8 = 255;

/// The distances (in steps, `UNREACHED` for walls and tiles cut off) from `start` over
/// `walls`, both indexed `y * W + x`.
pub fn distances(walls: &[bool; W * H], start: usize, dist: &mut [u8; W * H]) {
    dist.fill(UNREACHED);
    let mut queue = [0u16; W * H];
    let (mut head, mut tail) = (0, 0);
    dist[start] = 0;
    queue[tail] = start as u16;
    tail += 1;
    while head < tail {
        let at = usize::from(queue[head]);
        head += 1;
        let (x, y) = (at % W, at / W);
        let mut visit = |next: usize| {
            if !walls[next] && dist[next] == UNREACHED {
                dist[next] = dist[at] + 1;
                queue[tail] = next as u16;
                tail += 1;
            }
        };
        if x > 0 {
            visit(at - 1);
        }
        if x + 1 < W {
            visit(at + 1);
        }
        if y > 0 {
            visit(at - W);
        }
        if y + 1 < H {
            visit(at + W);
        }
    }
}

/// The kernel: a map from `seed` and a search from each of its four corners; the tiles
/// reached in the high half, the sum of their distances in the low.
pub fn run(seed: u16) -> u32 {
    let mut rng = Rng::new(seed);
    let mut walls = [false; W * H];
    for wall in walls.iter_mut() {
        *wall = rng.next_u16().is_multiple_of(3);
    }
    let mut dist = [0u8; W * H];
    let mut reached = 0u16;
    let mut total = 0u16;
    for start in [0, W - 1, W * (H - 1), W * H - 1] {
        walls[start] = false;
        distances(&walls, start, &mut dist);
        for &d in dist.iter() {
            if d != UNREACHED {
                reached += 1;
                total = total.wrapping_add(u16::from(d));
            }
        }
    }
    (u32::from(reached) << 16) | u32::from(total)
}

#[cfg(test)]
mod tests {
    use super::{H, UNREACHED, W, distances};

    #[test]
    fn an_open_map_is_manhattan() {
        let walls = [false; W * H];
        let mut dist = [0u8; W * H];
        distances(&walls, 0, &mut dist);
        assert_eq!(dist[W * H - 1] as usize, W - 1 + H - 1);
        let mut walls = walls;
        walls[1] = true;
        walls[W] = true;
        distances(&walls, 0, &mut dist);
        assert_eq!(dist[2], UNREACHED);
    }
}
