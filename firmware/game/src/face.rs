//! A card's face on the screen: white, with red hearts and diamonds and black spades and
//! clubs, its rank and suit in two corners; and the screen blanked with its faces gone.
//!
//! Apart from the text and boxes of `draw`, which the C128 runs translated: here only
//! [`card`] is (`bac bench` times the settle from its last call); the rest runs
//! interpreted, as bank 0 has little room.

use bac_rules::{Card, Suit};

use crate::draw::{clear_rows, frame, glyph, suit, text, text_right};
use crate::platform::{Colour, Platform, colour};

/// A card's size in cells on a screen of `cols` columns: 5 x 5 in 40 columns (the
/// VIC-IIe's expanded sprite that gives it its white face is 48 x 42 pixels, so 5 x 5
/// cells is the largest face one sprite covers: the rank and the pips read from a sofa
/// across the room), 7 x 5 in 80.
pub fn card_size(cols: u8) -> (u8, u8) {
    if cols == 80 { (7, 5) } else { (5, 5) }
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
/// the suit over the rank at the bottom right, a pip in the middle.
///
/// ```text
/// 10.....   K....
/// ♥......   ♠....
/// ...♥...   ..♠..
/// ......♥   ....♠
/// .....10   ....K
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

/// The ink of a card's back: light red, 5.3:1 on the VIC-IIe's black; on the VDC's white
/// paper a label's dark red on white, 7.8:1 (c128-rt's `paper`).
pub const BACK_INK: Colour = colour::LIGHT_RED;

/// Draws a card face down ([`card_size`]): a white frame of rounded corners round a
/// checkerboard in [`BACK_INK`]. Cells alone, with no face laid under them (`slot`'s is
/// taken away), so that the back reads the same at both widths: on the 40-column black
/// cloth, and on the 80-column one, where the frame is white on the cloth and the
/// checkerboard a label (dark red on white).
///
/// ```text
/// ╭───╮   ╭─────╮
/// │▒▒▒│   │▒▒▒▒▒│
/// │▒▒▒│   │▒▒▒▒▒│
/// │▒▒▒│   │▒▒▒▒▒│
/// ╰───╯   ╰─────╯
/// ```
pub fn back(p: &mut impl Platform, slot: u8, x: u8, y: u8) {
    let (w, h) = card_size(p.columns());
    p.card_paper(slot, None);
    frame(p, x, y, w, h, colour::WHITE);
    p.fill(x + 1, y + 1, w - 2, h - 2, glyph::CHECKER, BACK_INK);
}

/// Blanks the whole screen, card faces too (on the VIC-IIe they are sprites, which no
/// cell drawn over them takes away).
pub fn clear_screen(p: &mut impl Platform) {
    clear_rows(p, 0, 25);
    for slot in 0..8 {
        p.card_paper(slot, None);
    }
}
