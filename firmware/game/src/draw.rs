//! Text, cards and boxes on the character screen.
//!
//! Screen codes are the C128 character ROM's upper-case/graphics layout, which the game's
//! own character set keeps: letters and digits where BASIC's are, the suits and the
//! rounded corners where PETSCII has them. So text reads the same in our runner, in VICE
//! and on a real machine.

use bac_rules::{Card, Suit};

use crate::platform::{Colour, Platform, colour};

/// The table's cloth: dark, because on VICE's palettes no ink but black reads on the green
/// (white on it is 3.3:1 on the VIC-IIe, 3.1:1 on the VDC; light red 1.2 and 1.0), while
/// on black every ink the game uses is above 4.5:1 on both chips (the contrast test).
pub const BACKGROUND: Colour = colour::BLACK;
/// The Player's side: its head, its wins, its beads. Cyan, not light blue: light blue on
/// black is 4.1:1 on the VDC.
pub const PLAYER_INK: Colour = colour::CYAN;
/// Ordinary text.
pub const INK: Colour = colour::WHITE;
/// What asks for attention: prompts, the selected item.
pub const HIGHLIGHT: Colour = colour::YELLOW;
/// Screen codes of the PETSCII graphics the game draws with.
pub mod glyph {
    /// Horizontal line.
    pub const LINE_H: u8 = 0x40;
    /// Vertical line.
    pub const LINE_V: u8 = 0x5D;
    /// Rounded corner, top left.
    pub const TOP_LEFT: u8 = 0x55;
    /// Rounded corner, top right.
    pub const TOP_RIGHT: u8 = 0x49;
    /// Rounded corner, bottom left.
    pub const BOTTOM_LEFT: u8 = 0x4A;
    /// Rounded corner, bottom right.
    pub const BOTTOM_RIGHT: u8 = 0x4B;
    /// Checkerboard: the back of a card.
    pub const CHECKER: u8 = 0x66;
    /// A filled disc: a bead on the scoreboard.
    pub const BALL: u8 = 0x51;
    /// An open circle: a bead with a tie after it.
    pub const CIRCLE: u8 = 0x57;
    /// Space.
    pub const SPACE: u8 = 0x20;
    /// The reverse-video bit.
    pub const REVERSE: u8 = 0x80;
}

/// The screen code that shows ASCII character `c` ([`bac_glyphs::screen_code`]); a
/// character the set lacks shows as a space.
pub fn screen_code(c: u8) -> u8 {
    bac_glyphs::screen_code(c).unwrap_or(glyph::SPACE)
}

/// Writes ASCII text; returns the column after it.
pub fn text(p: &mut impl Platform, x: u8, y: u8, s: &[u8], colour: Colour) -> u8 {
    let mut at = x;
    for &c in s {
        p.put(at, y, screen_code(c), colour);
        at = at.saturating_add(1);
    }
    at
}

/// Writes text in reverse video (a highlighted item).
pub fn text_reversed(p: &mut impl Platform, x: u8, y: u8, s: &[u8], colour: Colour) -> u8 {
    let mut at = x;
    for &c in s {
        p.put(at, y, screen_code(c) | glyph::REVERSE, colour);
        at = at.saturating_add(1);
    }
    at
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

/// Blanks the whole screen, card faces too (on the VIC-IIe they are sprites, which no
/// cell drawn over them takes away).
pub fn clear_screen(p: &mut impl Platform) {
    clear_rows(p, 0, 25);
    for slot in 0..8 {
        p.card_paper(slot, None);
    }
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

fn frame(p: &mut impl Platform, x: u8, y: u8, w: u8, h: u8, colour: Colour) {
    p.put(x, y, glyph::TOP_LEFT, colour);
    p.fill(x + 1, y, w - 2, 1, glyph::LINE_H, colour);
    p.put(x + w - 1, y, glyph::TOP_RIGHT, colour);
    p.fill(x, y + 1, 1, h - 2, glyph::LINE_V, colour);
    p.fill(x + w - 1, y + 1, 1, h - 2, glyph::LINE_V, colour);
    p.put(x, y + h - 1, glyph::BOTTOM_LEFT, colour);
    p.fill(x + 1, y + h - 1, w - 2, 1, glyph::LINE_H, colour);
    p.put(x + w - 1, y + h - 1, glyph::BOTTOM_RIGHT, colour);
}

/// A card's size in cells on a screen of `cols` columns: 4 x 4 in 40 columns (the
/// VIC-IIe's expanded sprite that gives it its white face; the fifth column of today's
/// places is the cloth between two cards), 7 x 5 in 80.
pub fn card_size(cols: u8) -> (u8, u8) {
    if cols == 80 { (7, 5) } else { (4, 4) }
}

/// The ink of a suit on a card's white face: red hearts and diamonds, black spades and
/// clubs. Red, not light red: light red on white is 4.0:1 on VICE's VIC-IIe palette.
pub fn face_ink(s: Suit) -> Colour {
    match s {
        Suit::Hearts | Suit::Diamonds => colour::RED | colour::ON_PAPER,
        Suit::Spades | Suit::Clubs => colour::BLACK | colour::ON_PAPER,
    }
}

/// Draws a card face up on its white face ([`card_size`]), `slot` (0-7) naming the face
/// for the platforms that lay one under the cells: the rank over the suit at the top left,
/// the suit over the rank at the bottom right, a pip in the middle in 80 columns.
///
/// ```text
/// 10.....   K...
/// ♥......   ♠...
/// ...♥...   ...♠
/// ......♥   ...K
/// .....10
/// ```
pub fn card(p: &mut impl Platform, slot: u8, x: u8, y: u8, card: Card) {
    let (w, h) = card_size(p.columns());
    p.fill(x, y, w, h, glyph::SPACE, colour::BLACK | colour::ON_PAPER);
    p.card_paper(slot, Some((x, y)));
    let ink = face_ink(card.suit());
    let pip = suit(card.suit()).0;
    let single = [card.rank_char()];
    let rank = if card.rank() == 10 { b"10".as_slice() } else { &single };
    let right = x + w - 1;
    text(p, x, y, rank, ink);
    p.put(x, y + 1, pip, ink);
    p.put(right, y + h - 2, pip, ink);
    text_right(p, right + 1, y + h - 1, rank, ink);
    if h == 5 {
        p.put(x + w / 2, y + 2, pip, ink);
    }
}

/// A boxed panel with a title in its top edge.
pub fn panel(p: &mut impl Platform, x: u8, y: u8, w: u8, h: u8, title: &[u8]) {
    frame(p, x, y, w, h, colour::LIGHT_GREY);
    text(p, x + 2, y, title, HIGHLIGHT);
}
