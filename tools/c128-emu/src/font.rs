//! The emulator's character ROM: bac128's own 8 x 8 font (`bac-glyphs`, no Commodore ROM),
//! laid out like the C128's character ROM: the upper-case/graphics set in the first 2 KB,
//! the lower/upper-case set in the second, 128 glyphs each followed by their reverse
//! images. The game installs the same glyphs on both screens, so screenshots and a real
//! C128 agree.

use bac_glyphs::{LOWER, UPPER, reversed};

/// The whole 4 KB character set, built at compile time.
pub fn charset() -> &'static [u8; 4096] {
    static ROM: [u8; 4096] = build();
    &ROM
}

const fn build() -> [u8; 4096] {
    let mut rom = [0u8; 4096];
    let mut set = 0;
    while set < 2 {
        let glyphs = if set == 0 { &UPPER } else { &LOWER };
        let mut code = 0;
        while code < 128 {
            let normal = glyphs[code];
            let reverse = reversed(normal);
            let mut row = 0;
            while row < 8 {
                let base = set * 2048 + code * 8 + row;
                rom[base] = normal[row];
                rom[base + 1024] = reverse[row];
                row += 1;
            }
            code += 1;
        }
        set += 1;
    }
    rom
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_differ_and_reverse_is_inverse() {
        let rom = charset();
        let a = &rom[8..16];
        let b = &rom[16..24];
        assert_ne!(a, b);
        assert_eq!(a[0], 0b0011_1000);
        assert!(rom[(128 + 1) * 8..(128 + 2) * 8].iter().zip(a).all(|(r, n)| *r == !*n));
        let lower_a = &rom[2048 + 8..2048 + 16];
        assert_ne!(lower_a, a);
        assert_eq!(&rom[2048 + 65 * 8..2048 + 66 * 8], a);
    }
}
