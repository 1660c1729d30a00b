//! Amounts too wide for their column, in thousands or millions (`num::fitted`'s last
//! resort). A module of its own so that game-prg's placement.toml, which translates
//! `bac_game::num::` whole, leaves it interpreted: only amounts past a column's width
//! (tens of thousands at 40 columns) come here, never the coups that the C128 must draw
//! fast, and bank 0 has no bytes to spare for it.

use crate::digits::{Digits, decimal, separators};
use crate::text::Lang;

/// `units` in thousands or millions with two decimals, one or none (the first that fits
/// `width`), trailing zeros dropped: `1.23M`, `12.3M`, `100K`.
#[inline(never)]
pub fn abbreviated(units: u32, sign: u8, width: u8, lang: Lang) -> Digits {
    let (scale, suffix) = if units < 1_000_000 { (1_000, b'K') } else { (1_000_000, b'M') };
    let (_, point) = separators(lang);
    let whole = units / scale;
    let hundredths = ((units % scale) / (scale / 100)) as u8;
    let mut out = Digits::new();
    for decimals in [2u8, 1, 0] {
        out = Digits::new();
        out.push_front(suffix);
        let (mut fraction, mut digits) = match decimals {
            2 => (hundredths, 2),
            1 => (hundredths / 10, 1),
            _ => (0, 0),
        };
        while digits > 0 && fraction.is_multiple_of(10) {
            fraction /= 10;
            digits -= 1;
        }
        if digits > 0 {
            for _ in 0..digits {
                out.push_front(b'0' + fraction % 10);
                fraction /= 10;
            }
            out.push_front(point);
        }
        decimal(&mut out, whole, 0);
        if sign != 0 {
            out.push_front(sign);
        }
        if out.len() <= width {
            break;
        }
    }
    out
}
