//! The picture held while the next one is drawn behind it: [`hold`] shows a copy of the
//! screen, and the drivers go on drawing where they always do, unseen, until [`show`]
//! shows their screen again. A screen that takes several frames to draw then appears at
//! once, and its drawing can be done ahead, while the player still looks at the picture
//! before it.
//!
//! # Assumes
//! - A screen opened by [`crate::screen::open`], and the program in all-RAM mode.
//! - 40 columns: the codes at $E000 with the sprite pointers at $E3F8, glyphs at $E800,
//!   VIC bank 3; $F000-$F7FF is RAM the translator leaves to the program: the copy of the
//!   screen goes to $F000 (its sprite pointers to $F3F8, so the card faces stay) and $F400
//!   is the colour RAM's passage from one bank to the other. The processor port's bits 0
//!   and 1 are outputs (the KERNAL leaves $00 = $2F): bit 0 chooses the colour RAM bank
//!   the CPU sees at $D800, bit 1 the one the VIC-IIe shows; the drivers draw in the bank
//!   the CPU sees, the held copy is in the other. No KERNAL call comes between [`hold`]
//!   and [`show`]: the KERNAL's interrupt would copy the screen editor's $D018 (VM1) over
//!   the held one.
//! - 80 columns: the codes at $0000 and the attributes at $0800 of VDC RAM, its character
//!   sets from $2000: $1000-$1FFF is free for the copy of both (16 KB of VDC RAM or 64).
//!
//! # Guarantees
//! - [`hold`] changes nothing the player sees: the copy is the same picture.
//! - [`show`] puts the chip back on the drivers' screen, held or not.
//! - At 40 columns a card face (a sprite, [`screen::card_paper`]) switched on or off while
//!   the picture is held switches with [`show`], with the cells it goes behind.

use crate::hw::{Reg8, vdc_read, vdc_write};
use crate::screen::{self, VIC_MEMORY, VIC_MEMORY_REG, VIC_SCREEN, Width};

/// The held copy of the 40-column screen: 1 KB, the codes and the sprite pointers.
const HELD_SCREEN: u16 = 0xF000;
/// $D018 for screen $3000 and characters $2800 of the VIC bank (the copy at $F000).
const HELD_VIC_MEMORY: u8 = 0xCA;
/// Where colour RAM passes from one bank to the other (1,000 bytes, after the copy).
const PASSAGE: u16 = 0xF400;
/// The processor port: bit 0 the CPU's colour RAM bank, bit 1 the VIC-IIe's.
const PORT: Reg8 = Reg8::at(0x0001);
/// The colour RAM, as the CPU sees it.
const COLOUR_RAM: u16 = c128_map::io::COLOUR_RAM;
/// Cells of the 40-column screen.
const CELLS: usize = 1000;

/// The VDC's copy: the high bytes of its codes and attributes (the drivers' are $00 and
/// $08), 4 KB from $0000 copied in 16 blocks of 256.
const HELD_VDC: u8 = 0x10;
/// R12 and R20: the high bytes of the display's and the attributes' start.
const DISPLAY_HI: u8 = 12;
const ATTRIBUTES_HI: u8 = 20;
/// R18/R19 the update address (the copy's destination), R32/R33 the copy's source, R24
/// bit 7 copy rather than fill, R30 the count that starts a block (0 is 256).
const UPDATE_HI: u8 = 18;
const UPDATE_LO: u8 = 19;
const SOURCE_HI: u8 = 32;
const SOURCE_LO: u8 = 33;
const BLOCK_MODE: u8 = 24;
const WORD_COUNT: u8 = 30;

/// Shows a copy of the screen and its colours, so that drawing goes on unseen until
/// [`show`].
pub fn hold() {
    match screen::width() {
        Width::Forty => hold_40(),
        Width::Eighty => hold_80(),
    }
}

fn hold_40() {
    let port = PORT.read();
    // SAFETY: $E000-$E3FF is the screen and its sprite pointers, $F000-$F7FF RAM left to
    // the program (see "Assumes"), $D800-$DBE7 colour RAM; none overlap.
    unsafe {
        copy(VIC_SCREEN, HELD_SCREEN, 1024);
        copy(COLOUR_RAM, PASSAGE, CELLS);
        PORT.write(port ^ 1);
        copy(PASSAGE, COLOUR_RAM, CELLS);
    }
    // The CPU back on its bank, the VIC-IIe on the other, then on the copy of the codes:
    // the two pictures are the same, so the moment between the writes shows nothing.
    PORT.write(port & !2 | (!port & 1) << 1);
    VIC_MEMORY_REG.write(HELD_VIC_MEMORY);
    // A card face switched on from now belongs to the screen drawn behind the copy.
    screen::hold_faces();
}

fn hold_80() {
    vdc_write(UPDATE_HI, HELD_VDC);
    vdc_write(UPDATE_LO, 0);
    vdc_write(SOURCE_HI, 0);
    vdc_write(SOURCE_LO, 0);
    vdc_write(BLOCK_MODE, vdc_read(BLOCK_MODE) | 0x80);
    for _ in 0..16 {
        vdc_write(WORD_COUNT, 0);
    }
    // Back to fills (the drivers' `vdc::fill` sets it too), then the display on the copy.
    vdc_write(BLOCK_MODE, vdc_read(BLOCK_MODE) & 0x7F);
    vdc_write(DISPLAY_HI, HELD_VDC);
    vdc_write(ATTRIBUTES_HI, HELD_VDC + 0x08);
}

/// Shows the drivers' screen and colours: everything drawn since [`hold`] at once.
pub fn show() {
    match screen::width() {
        Width::Forty => {
            VIC_MEMORY_REG.write(VIC_MEMORY);
            PORT.modify(|p| p & !2 | (p & 1) << 1);
            screen::show_faces();
        }
        Width::Eighty => {
            vdc_write(DISPLAY_HI, 0);
            vdc_write(ATTRIBUTES_HI, 0x08);
        }
    }
}

/// Copies `n` bytes from `from` to `to` (the runtime's `memcpy`).
///
/// # Safety
/// Both ranges must be memory the caller may read and write, not overlapping.
unsafe fn copy(from: u16, to: u16, n: usize) {
    // SAFETY: the caller's.
    unsafe { core::ptr::copy_nonoverlapping(usize::from(from) as *const u8, usize::from(to) as *mut u8, n) };
}
