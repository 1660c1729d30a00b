//! The C128's text screens as terminal cells: a character and its colours per cell.
//!
//! Characters come from the screen codes, read the way the character ROM lays them out
//! (upper case and graphics, or lower and upper case); colours from the VIC's palette or the
//! VDC's RGBI attributes. A program with its own character set keeps its letters and digits
//! where the ROM has them, so its text reads right; its own glyphs show as the ROM's.

use emulator_tests::Screen;
use emulator_tests::bus::C128Bus;
use emulator_tests::screenshot::{RGBI_PALETTE, VIC_PALETTE};

/// One character cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// What to print.
    pub ch: char,
    /// Foreground colour.
    pub fg: [u8; 3],
    /// Background colour.
    pub bg: [u8; 3],
}

/// Graphics characters of screen codes $40-$7F in the upper-case set, approximated.
const GRAPHICS: [char; 64] = [
    '─', '♠', '│', '─', '─', '─', '─', '│', '│', '╮', '╰', '╯', '▁', '╲', '╱', '▔', //
    '▔', '●', '▁', '♥', '▏', '╭', '╳', '○', '♣', '▕', '♦', '┼', '▒', '│', 'π', '◥', //
    ' ', '▌', '▄', '▔', '▁', '▏', '▒', '▕', '▒', '◤', '▕', '├', '▗', '└', '┐', '▂', //
    '┌', '┴', '┬', '┤', '▎', '▍', '▐', '▔', '▀', '▃', '✓', '▖', '▝', '┘', '▘', '▚', //
];

/// The character for a screen code (bit 7, reverse video, is handled by the caller).
pub fn screen_code_char(code: u8, lower_case: bool) -> char {
    let code = code & 0x7F;
    match code {
        0x00 => '@',
        0x01..=0x1A if lower_case => char::from(b'a' + code - 1),
        0x01..=0x1A => char::from(b'A' + code - 1),
        0x1B => '[',
        0x1C => '£',
        0x1D => ']',
        0x1E => '↑',
        0x1F => '←',
        0x20..=0x3F => char::from(code),
        0x41..=0x5A if lower_case => char::from(b'A' + code - 0x41),
        _ => GRAPHICS[usize::from(code - 0x40)],
    }
}

/// The cells of `screen`, row by row, with its width and height.
pub fn cells(bus: &C128Bus, screen: Screen) -> (usize, usize, Vec<Cell>) {
    match screen {
        Screen::Forty => forty(bus),
        Screen::Eighty => eighty(bus),
    }
}

fn forty(bus: &C128Bus) -> (usize, usize, Vec<Cell>) {
    let regs = &bus.vic.regs;
    let background = VIC_PALETTE[usize::from(regs[0x21] & 0x0F)];
    // $D018 bit 1 picks the character ROM's second half: lower and upper case.
    let lower = regs[0x18] & 0x02 != 0;
    let screen = bus.vic.screen_base();
    let blank = regs[0x11] & 0x10 == 0;
    let cells = (0..1000u16)
        .map(|i| {
            let code = bus.vic_fetch(screen + i);
            let fg = VIC_PALETTE[usize::from(bus.colour_ram[usize::from(i)] & 0x0F)];
            let cell = Cell { ch: screen_code_char(code, lower), fg, bg: background };
            match (blank, code & 0x80 != 0) {
                (true, _) => Cell { ch: ' ', fg: background, bg: background },
                (false, true) => Cell { fg: cell.bg, bg: cell.fg, ..cell },
                (false, false) => cell,
            }
        })
        .collect();
    (40, 25, cells)
}

fn eighty(bus: &C128Bus) -> (usize, usize, Vec<Cell>) {
    let vdc = &bus.vdc;
    let (cols, rows) = vdc.size();
    let (cols, rows) = (cols.clamp(1, 80), rows.clamp(1, 25));
    let (fg_default, bg) = vdc.colours();
    let background = RGBI_PALETTE[usize::from(bg & 0x0F)];
    let mut out = Vec::with_capacity(usize::from(cols) * usize::from(rows));
    for cell in 0..cols * rows {
        let code = vdc.peek(vdc.display_start().wrapping_add(cell));
        let attr =
            if vdc.attributes_enabled() { vdc.peek(vdc.attribute_start().wrapping_add(cell)) } else { fg_default };
        let fg = RGBI_PALETTE[usize::from(attr & 0x0F)];
        // Attribute bit 7 selects the second character set: lower and upper case.
        let ch = screen_code_char(code, attr & 0x80 != 0);
        let reverse = (attr & 0x40 != 0) != (code & 0x80 != 0 && attr & 0x80 == 0);
        out.push(if reverse { Cell { ch, fg: background, bg: fg } } else { Cell { ch, fg, bg: background } });
    }
    (usize::from(cols), usize::from(rows), out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screen_codes_read_as_the_character_rom_lays_them_out() {
        assert_eq!(screen_code_char(0x08, false), 'H');
        assert_eq!(screen_code_char(0x08, true), 'h');
        assert_eq!(screen_code_char(0x48, true), 'H');
        assert_eq!(screen_code_char(0x20, false), ' ');
        assert_eq!(screen_code_char(0x31, false), '1');
        assert_eq!(screen_code_char(0x41, false), '♠');
        assert_eq!(screen_code_char(0x53, false), '♥');
        assert_eq!(screen_code_char(0x88, false), 'H', "reverse video is the caller's");
    }
}
