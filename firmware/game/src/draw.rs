//! Text, cards and boxes on the character screen.
//!
//! Screen codes are the C128 character ROM's upper-case/graphics layout, which the game's
//! own character set keeps: letters and digits where BASIC's are, the suits and the
//! rounded corners where PETSCII has them. So text reads the same in our runner, in VICE
//! and on a real machine.

use bac_rules::Suit;

use crate::platform::{Colour, Platform, colour};

/// The table's cloth: dark, because on VICE's palettes no ink but black reads on the green
/// (white on it is 3.3:1 on the VIC-IIe, 3.1:1 on the VDC; light red 1.2 and 1.0), while
/// on black every ink the game uses is above 4.5:1 (the contrast test). The VDC draws its
/// own cloth under white paper (c128-rt's `paper`, the C128's `CLOTH_80`).
pub const BACKGROUND: Colour = colour::BLACK;
/// The Player's side: its head, its wins, its beads. Cyan, not light blue: light blue on
/// black is 4.1:1 on the VDC.
pub const PLAYER_INK: Colour = colour::CYAN;
/// Ordinary text.
pub const INK: Colour = colour::WHITE;
/// What asks for attention: prompts, the selected item.
pub const HIGHLIGHT: Colour = colour::YELLOW;
/// The screen codes the game draws with, where drawing code has long named them.
pub use crate::glyph::{self, screen_code};

/// Writes ASCII text; returns the column after it.
pub fn text(p: &mut impl Platform, x: u8, y: u8, s: &[u8], colour: Colour) -> u8 {
    p.put_text(x, y, s, false, colour)
}

/// Writes text in reverse video (a highlighted item).
pub fn text_reversed(p: &mut impl Platform, x: u8, y: u8, s: &[u8], colour: Colour) -> u8 {
    p.put_text(x, y, s, true, colour)
}

/// Writes text right-aligned so that it ends just before column `end`.
pub fn text_right(p: &mut impl Platform, end: u8, y: u8, s: &[u8], colour: Colour) {
    text(p, end.saturating_sub(s.len() as u8), y, s, colour);
}

/// Writes text centred on the row.
pub fn centred(p: &mut impl Platform, y: u8, s: &[u8], colour: Colour) {
    let cols = p.columns();
    let x = cols.saturating_sub(s.len() as u8) / 2;
    text(p, x, y, s, colour);
}

/// Writes text centred on the row; returns the column after it.
pub fn centred_at(p: &mut impl Platform, y: u8, s: &[u8], colour: Colour) -> u8 {
    let cols = p.columns();
    let x = cols.saturating_sub(s.len() as u8 + 2) / 2;
    text(p, x, y, s, colour)
}

/// Blanks whole rows.
pub fn clear_rows(p: &mut impl Platform, y: u8, h: u8) {
    let cols = p.columns();
    p.fill(0, y, cols, h, glyph::SPACE, INK);
}

/// Screen code and colour of a suit.
pub fn suit(s: Suit) -> (u8, Colour) {
    match s {
        Suit::Spades => (0x41, INK),
        Suit::Hearts => (0x53, colour::LIGHT_RED),
        Suit::Clubs => (0x58, INK),
        Suit::Diamonds => (0x5A, colour::LIGHT_RED),
    }
}

/// A frame of rounded corners round a rectangle of cells.
pub fn frame(p: &mut impl Platform, x: u8, y: u8, w: u8, h: u8, colour: Colour) {
    p.put(x, y, glyph::TOP_LEFT, colour);
    p.fill(x + 1, y, w - 2, 1, glyph::LINE_H, colour);
    p.put(x + w - 1, y, glyph::TOP_RIGHT, colour);
    p.fill(x, y + 1, 1, h - 2, glyph::LINE_V, colour);
    p.fill(x + w - 1, y + 1, 1, h - 2, glyph::LINE_V, colour);
    p.put(x, y + h - 1, glyph::BOTTOM_LEFT, colour);
    p.fill(x + 1, y + h - 1, w - 2, 1, glyph::LINE_H, colour);
    p.put(x + w - 1, y + h - 1, glyph::BOTTOM_RIGHT, colour);
}

/// A boxed panel with a title in its top edge.
pub fn panel(p: &mut impl Platform, x: u8, y: u8, w: u8, h: u8, title: &[u8]) {
    frame(p, x, y, w, h, colour::LIGHT_GREY);
    text(p, x + 2, y, title, HIGHLIGHT);
}
