//! The VDC's white-paper mode: what a cell becomes when the 80-column screen's paper (R26's
//! low nibble) is white. A normal cell then shows its attribute's colour as ink on white, a
//! reversed one white ink on its attribute's colour, so a program gets true red and black
//! on white (cards, a scoreboard) and a dark cloth of reversed cells with white text.
//!
//! Assumes: the program opened the VDC with white paper and its cloth in R26's high nibble
//! ([`crate::screen::open`] with `background` white and `border` the cloth), and names its
//! colours as the game does (white and greys for plain text and rules; the reds, blues,
//! greens, purple and yellow for something that means more). Guarantees: every cell is
//! white and one other colour, black, dark blue, dark red, dark purple, dark yellow, dark
//! grey or the cloth, and a colour that carries a meaning is never drawn white:
//! - a cell on paper ([`ON_PAPER`]: a card's face, a scoreboard) is its
//!   ink's dark shade on white ([`ON_WHITE`]);
//! - on the cloth, plain text is white on the cloth, and the inks that say something (a
//!   side, a result, a highlight) become their dark shade on a white cell: a label;
//! - a reversed cell (a selected item, a cursor) is a label too, the inverse of the
//!   cloth's white on colour.
//!
//! R26 is the only state (the driver keeps a copy where its "glyphs installed" flag was,
//! so that a cell need not read the chip): no byte of RAM more, and a program that opens
//! the VDC on any other paper gets the plain RGBI cells.

/// Set in a colour: the cell lies on a card's white face and the colour is its ink (see
/// `crate::screen`'s "Card faces").
pub const ON_PAPER: u8 = 0x10;

/// Set in a colour on the VDC: the cell's glyph comes from the second character set
/// (attribute bit 7), which holds [`bac_glyphs::MARKS`] from code 0 on.
pub const ALTERNATE: u8 = 0x20;

/// RGBI white: the paper of this mode.
pub const WHITE: u8 = 15;

/// A label: the colour says something, so on the cloth it is drawn on white.
const LABEL: u8 = 0x80;

/// By VIC colour: its ink's shade on white in RGBI (contrast on white in VICE's VDC
/// palette), with [`LABEL`] for the colours that are labels on the cloth (all but black,
/// white and the greys, which are plain text). Black for white and for the greens (the
/// VDC's dark green is 3.1:1 on white, so a win reads "in the black"), dark yellow for
/// yellow (the highlight, 5.2:1), dark grey for the greys (7.5:1), and the dark shade of
/// the same hue for the others (dark red 7.8:1, dark blue 13.3:1, dark purple 6.4:1).
static ON_WHITE: [u8; 16] = [
    0,          // black
    0,          // white
    8 | LABEL,  // red: dark red
    2 | LABEL,  // cyan: dark blue
    10 | LABEL, // purple: dark purple
    LABEL,      // green: black
    2 | LABEL,  // blue: dark blue
    12 | LABEL, // yellow: dark yellow
    12 | LABEL, // orange: dark yellow
    12 | LABEL, // brown: dark yellow
    8 | LABEL,  // light red: dark red
    1,          // dark grey
    1,          // grey: dark grey
    LABEL,      // light green: black
    2 | LABEL,  // light blue: dark blue
    1,          // light grey: dark grey
];

/// The reverse-video bit of a screen code.
const REVERSE: u8 = 0x80;

/// The screen code and attribute of `code` in `colour` under R26 = `r26` (white paper):
/// see the module's rules. The attribute's bit 7 ([`ALTERNATE`]) is the caller's.
pub fn cell(code: u8, colour: u8, r26: u8) -> (u8, u8) {
    // SAFETY: an element of the table (the index is masked to 0-15). Read as a volatile
    // load so that the compiler keeps the table: folded into a 16-bit mask of the label
    // colours, its test became a shift by the colour, a loop of up to 15 steps on the 6502
    // (about 150 cycles of every 80-column cell).
    let look = unsafe { core::ptr::read_volatile(ON_WHITE.as_ptr().add(usize::from(colour & 0x0F))) };
    if colour & ON_PAPER != 0 || code & REVERSE != 0 || look & LABEL != 0 {
        (code & !REVERSE, look & 0x0F)
    } else {
        (code | REVERSE, r26 >> 4)
    }
}

const _: () = assert!(ALTERNATE & 0x0F == 0 && ON_PAPER & 0x0F == 0);
