//! Fixed-point math: the Mandelbrot set on a 16 x 8 grid in 4.12 fixed point (16-bit
//! numbers, 32-bit products), at most 16 iterations a point.

/// One in 4.12.
const ONE: i32 = 1 << 12;
/// Iterations before a point counts as inside.
const MAX_ITER: u8 = 16;

/// Iterations until `c` escapes the circle of radius 2 (`MAX_ITER` if it does not).
pub fn escape(cr: i16, ci: i16) -> u8 {
    let (mut zr, mut zi) = (0i16, 0i16);
    for n in 0..MAX_ITER {
        let zr2 = (i32::from(zr) * i32::from(zr)) >> 12;
        let zi2 = (i32::from(zi) * i32::from(zi)) >> 12;
        if zr2 + zi2 > 4 * ONE {
            return n;
        }
        let zri = (2 * i32::from(zr) * i32::from(zi)) >> 12;
        zr = (zr2 - zi2 + i32::from(cr)) as i16;
        zi = (zri + i32::from(ci)) as i16;
    }
    MAX_ITER
}

/// The kernel: the grid from -2.0 - 1.0i to 0.5 + 1.0i, moved right by `seed % 64`
/// 4096ths; the sum of the iterations in the low half, a row-weighted sum in the high.
pub fn run(seed: u16) -> u32 {
    let x0 = -2 * ONE as i16 + (seed % 64) as i16;
    let y0 = -ONE as i16;
    let mut total = 0u16;
    let mut weighted = 0u16;
    for y in 0..8i16 {
        let ci = y0 + y * (ONE as i16 / 4);
        for x in 0..16i16 {
            let cr = x0 + x * (ONE as i16 * 5 / 32);
            let n = u16::from(escape(cr, ci));
            total += n;
            weighted = weighted.wrapping_add(n * (y as u16 + 1));
        }
    }
    (u32::from(weighted) << 16) | u32::from(total)
}

#[cfg(test)]
mod tests {
    use super::{MAX_ITER, ONE, escape};

    #[test]
    fn inside_and_outside() {
        assert_eq!(escape(0, 0), MAX_ITER);
        assert_eq!(escape(-ONE as i16, 0), MAX_ITER);
        assert!(escape(ONE as i16, ONE as i16) < 3);
    }
}
