//! The screen editor's output side: what CHROUT does to the 40-column (VIC) or 80-column (VDC)
//! screen: printing, cursor movement, clear/home, reverse, colours, charset switching and
//! scrolling. The active screen follows MODE ($D7) bit 7, as on the real machine.

use crate::bus::C128Bus;
use crate::petscii;
use c128_map::zp::VM1;

/// MODE: bit 7 set when the 80-column screen is active.
pub const MODE: u16 = 0x00D7;
/// Cursor row and column as the KERNAL keeps them.
pub const TBLX: u16 = 0x00EB;
/// Cursor column.
pub const PNTR: u16 = 0x00EC;
/// The current text colour (VIC colour number).
pub const COLOR: u16 = 0x00F1;

/// The RGBI colour the editor uses on the VDC for each VIC colour number.
pub const VIC_TO_RGBI: [u8; 16] = [0, 15, 8, 7, 11, 4, 2, 13, 10, 12, 9, 1, 6, 5, 3, 14];

/// Cursor and modes of the screen editor.
#[derive(Debug, Clone, Default)]
pub struct Editor {
    /// Reverse mode (CHR$(18)).
    pub reverse: bool,
}

impl Editor {
    fn eighty(bus: &C128Bus) -> bool {
        bus.ram_peek(0, MODE) & 0x80 != 0
    }

    /// Screen width in columns of the active screen.
    pub fn width(bus: &C128Bus) -> u8 {
        if Self::eighty(bus) { 80 } else { 40 }
    }

    /// The cursor (row, column).
    pub fn cursor(bus: &C128Bus) -> (u8, u8) {
        (bus.ram_peek(0, TBLX), bus.ram_peek(0, PNTR))
    }

    /// Moves the cursor, clamped to the screen.
    pub fn set_cursor(bus: &mut C128Bus, row: u8, col: u8) {
        let w = Self::width(bus);
        bus.ram_poke(0, TBLX, row.min(24));
        bus.ram_poke(0, PNTR, col.min(w - 1));
    }

    fn put_cell(&self, bus: &mut C128Bus, row: u8, col: u8, code: u8) {
        let colour = bus.ram_peek(0, COLOR) & 0x0F;
        if Self::eighty(bus) {
            let w = u16::from(Self::width(bus));
            let off = u16::from(row) * w + u16::from(col);
            // The lower-case set is the VDC's alternate character set (attribute bit 7).
            let alt = if bus.ram_peek(0, VM1) & 0x02 != 0 { 0x80 } else { 0 };
            let d = bus.vdc.display_start().wrapping_add(off);
            let a = bus.vdc.attribute_start().wrapping_add(off);
            bus.vdc.poke(d, code);
            bus.vdc.poke(a, VIC_TO_RGBI[usize::from(colour)] | alt);
        } else {
            let off = u16::from(row) * 40 + u16::from(col);
            bus.ram_poke(0, 0x0400 + off, code);
            *bus.cpu_colour_mut(off) = colour;
        }
    }

    fn scroll(&self, bus: &mut C128Bus) {
        if Self::eighty(bus) {
            let d = bus.vdc.display_start();
            let a = bus.vdc.attribute_start();
            for i in 0..24 * 80u16 {
                let v = bus.vdc.peek(d.wrapping_add(i + 80));
                bus.vdc.poke(d.wrapping_add(i), v);
                let v = bus.vdc.peek(a.wrapping_add(i + 80));
                bus.vdc.poke(a.wrapping_add(i), v);
            }
            for i in 24 * 80..25 * 80u16 {
                bus.vdc.poke(d.wrapping_add(i), 0x20);
            }
        } else {
            for i in 0..24 * 40u16 {
                let v = bus.ram_peek(0, 0x0428 + i);
                bus.ram_poke(0, 0x0400 + i, v);
                *bus.cpu_colour_mut(i) = *bus.cpu_colour_mut(i + 40);
            }
            for i in 24 * 40..25 * 40u16 {
                bus.ram_poke(0, 0x0400 + i, 0x20);
            }
        }
    }

    /// Clears the active screen and homes the cursor.
    pub fn clear(&self, bus: &mut C128Bus) {
        let colour = bus.ram_peek(0, COLOR) & 0x0F;
        if Self::eighty(bus) {
            let d = bus.vdc.display_start();
            let a = bus.vdc.attribute_start();
            for i in 0..2000u16 {
                bus.vdc.poke(d.wrapping_add(i), 0x20);
                bus.vdc.poke(a.wrapping_add(i), VIC_TO_RGBI[usize::from(colour)]);
            }
        } else {
            for i in 0..1000u16 {
                bus.ram_poke(0, 0x0400 + i, 0x20);
                *bus.cpu_colour_mut(i) = colour;
            }
        }
        Self::set_cursor(bus, 0, 0);
    }

    fn newline(&self, bus: &mut C128Bus) {
        let (row, _) = Self::cursor(bus);
        if row >= 24 {
            self.scroll(bus);
            Self::set_cursor(bus, 24, 0);
        } else {
            Self::set_cursor(bus, row + 1, 0);
        }
    }

    /// Prints one PETSCII code on the active screen.
    pub fn print(&mut self, bus: &mut C128Bus, code: u8) {
        let (row, col) = Self::cursor(bus);
        let w = Self::width(bus);
        let colour = |c: u8| -> Option<u8> {
            Some(match c {
                0x90 => 0,
                0x05 => 1,
                0x1C => 2,
                0x9F => 3,
                0x9C => 4,
                0x1E => 5,
                0x1F => 6,
                0x9E => 7,
                0x81 => 8,
                0x95 => 9,
                0x96 => 10,
                0x97 => 11,
                0x98 => 12,
                0x99 => 13,
                0x9A => 14,
                0x9B => 15,
                _ => return None,
            })
        };
        if let Some(c) = colour(code) {
            bus.ram_poke(0, COLOR, c);
            return;
        }
        match code {
            0x0D | 0x8D => {
                self.reverse = false;
                self.newline(bus);
            }
            0x93 => self.clear(bus),
            0x13 => Self::set_cursor(bus, 0, 0),
            0x11 => {
                if row >= 24 {
                    self.scroll(bus);
                } else {
                    Self::set_cursor(bus, row + 1, col);
                }
            }
            0x91 => Self::set_cursor(bus, row.saturating_sub(1), col),
            0x1D => {
                if col + 1 >= w {
                    self.newline(bus);
                } else {
                    Self::set_cursor(bus, row, col + 1);
                }
            }
            0x9D => {
                if col == 0 {
                    Self::set_cursor(bus, row.saturating_sub(1), w - 1);
                } else {
                    Self::set_cursor(bus, row, col - 1);
                }
            }
            0x12 => self.reverse = true,
            0x92 => self.reverse = false,
            0x0E => {
                let v = bus.ram_peek(0, VM1);
                bus.ram_poke(0, VM1, v | 0x02);
            }
            0x8E => {
                let v = bus.ram_peek(0, VM1);
                bus.ram_poke(0, VM1, v & !0x02);
            }
            0x14 => {
                if col > 0 {
                    Self::set_cursor(bus, row, col - 1);
                    self.put_cell(bus, row, col - 1, 0x20);
                }
            }
            _ => {
                if let Some(sc) = petscii::to_screen_code(code) {
                    let sc = if self.reverse { sc | 0x80 } else { sc };
                    self.put_cell(bus, row, col, sc);
                    if col + 1 >= w {
                        self.newline(bus);
                    } else {
                        Self::set_cursor(bus, row, col + 1);
                    }
                }
            }
        }
    }
}
