//! The screens as text: each cell's character (Unicode stand-ins for PETSCII graphics) and
//! colours, for a terminal front end (`bac play`) and for tests that read what is shown.

use crate::bus::C128Bus;
use crate::petscii;
use crate::screenshot::{RGBI_PALETTE, Screen, VIC_PALETTE, sprite_at};

/// One character cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    /// The character shown.
    pub ch: char,
    /// Foreground colour (RGB), after reverse video is applied.
    pub fg: [u8; 3],
    /// Background colour (RGB), after reverse video is applied.
    pub bg: [u8; 3],
}

/// The PETSCII code the editor would print to get screen code `sc` (reverse bit ignored).
fn screen_to_petscii(sc: u8) -> u8 {
    match sc & 0x7F {
        c @ 0x00..=0x1F => c + 0x40,
        c @ 0x20..=0x3F => c,
        c @ 0x40..=0x5F => c + 0x80,
        c => c + 0x40,
    }
}

/// The character screen code `sc` shows in the upper-case (`lower` false) or lower-case set,
/// as this module reads screens; front ends drawing screen codes of their own use it too.
pub fn glyph_char(sc: u8, lower: bool) -> char {
    petscii::to_char(screen_to_petscii(sc), lower).unwrap_or(' ')
}

/// The sprite colour most of a 40-column cell's background pixels show, if most show a
/// sprite rather than the screen's background: the paper of a cell on a card's white
/// face (whose rounded corner leaves a few pixels of its first cell to the cloth).
fn sprite_paper(bus: &C128Bus, col: u16, row: u16) -> Option<u8> {
    if bus.vic.regs[0x15] == 0 {
        return None;
    }
    let code = bus.vic_fetch(bus.vic.screen_base() + row * 40 + col);
    let glyph = bus.vic.charset_base() + u16::from(code) * 8;
    let mut counts = [0u8; 16];
    let mut screen = 0u8;
    for line in 0..8u16 {
        let bits = bus.vic_fetch(glyph + line);
        for x in 0..8u16 {
            if bits & (0x80 >> x) != 0 {
                continue;
            }
            match sprite_at(bus, i32::from(col * 8 + x), i32::from(row * 8 + line)) {
                Some(c) => counts[usize::from(c & 0x0F)] += 1,
                None => screen += 1,
            }
        }
    }
    let (colour, most) = (0..16u8).map(|c| (c, counts[usize::from(c)])).max_by_key(|&(_, n)| n)?;
    (most > screen).then_some(colour)
}

/// The cells of a screen, 25 rows of 40 or 80.
pub fn cells(bus: &C128Bus, screen: Screen) -> Vec<Vec<Cell>> {
    match screen {
        Screen::Forty => {
            let base = bus.vic.screen_base();
            // The ROM's second set is the lower-case one; a character set in RAM (such as
            // the game's, at $E800 of VIC bank 3) is read as the upper-case set it copies.
            let lower = bus.vic_uses_rom_font() && bus.vic.charset_base() & 0x0800 != 0;
            let bg = VIC_PALETTE[usize::from(bus.vic.regs[0x21] & 0x0F)];
            (0..25u16)
                .map(|row| {
                    (0..40u16)
                        .map(|col| {
                            let i = row * 40 + col;
                            let sc = bus.vic_fetch(base + i);
                            let fg = VIC_PALETTE[usize::from(bus.colour(i) & 0x0F)];
                            let bg = match sprite_paper(bus, col, row) {
                                Some(c) => VIC_PALETTE[usize::from(c & 0x0F)],
                                None => bg,
                            };
                            let (fg, bg) = if sc & 0x80 != 0 { (bg, fg) } else { (fg, bg) };
                            Cell { ch: glyph_char(sc, lower), fg, bg }
                        })
                        .collect()
                })
                .collect()
        }
        Screen::Eighty => {
            let vdc = &bus.vdc;
            let (fg_default, bg) = vdc.colours();
            let bg = RGBI_PALETTE[usize::from(bg)];
            (0..25u16)
                .map(|row| {
                    (0..80u16)
                        .map(|col| {
                            let i = row * 80 + col;
                            let sc = vdc.peek(vdc.display_start().wrapping_add(i));
                            let attr = if vdc.attributes_enabled() {
                                vdc.peek(vdc.attribute_start().wrapping_add(i))
                            } else {
                                fg_default
                            };
                            let fg = RGBI_PALETTE[usize::from(attr & 0x0F)];
                            let reverse = (sc & 0x80 != 0) != (attr & 0x40 != 0);
                            let (fg, bg) = if reverse { (bg, fg) } else { (fg, bg) };
                            Cell { ch: glyph_char(sc, attr & 0x80 != 0), fg, bg }
                        })
                        .collect()
                })
                .collect()
        }
    }
}

/// The screen as 25 lines of text, trailing spaces removed.
pub fn text(bus: &C128Bus, screen: Screen) -> String {
    let mut out = String::new();
    for row in cells(bus, screen) {
        let line: String = row.iter().map(|c| c.ch).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screen_codes_map_back_to_what_was_printed() {
        for p in (0x20u8..=0x5F).chain(0xA0..=0xFE) {
            let sc = petscii::to_screen_code(p).unwrap();
            let back = glyph_char(sc, false);
            assert_eq!(Some(back), petscii::to_char(p, false), "PETSCII {p:#04x}");
        }
    }
}
