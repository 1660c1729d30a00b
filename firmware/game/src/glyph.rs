//! Screen codes: what the game writes into a character cell. The codes are the C128
//! character ROM's upper-case/graphics layout, which the game's own character set keeps
//! (`bac_glyphs`), so a code shows the same in our emulator, in VICE and on a real machine.
//!
//! A leaf module: the screen's trait ([`crate::platform::Screen`]) and the drawing
//! ([`crate::draw`]) both speak these codes.

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
/// A ring: a mark of the big road, in the winner's colour.
pub const RING: u8 = bac_glyphs::code::RING;
/// A ring with a slash through it: a big-road mark with a tie after it.
pub const SLASHED_RING: u8 = bac_glyphs::code::SLASHED_RING;
/// A slash: a tie before the big road's first mark.
pub const SLASH: u8 = bac_glyphs::code::SLASH;
/// Space.
pub const SPACE: u8 = 0x20;
/// Lines crossing: where the seats' rule meets a column's bar.
pub const CROSS: u8 = 0x5B;
/// The reverse-video bit.
pub const REVERSE: u8 = 0x80;

/// The screen code that shows ASCII character `c` ([`bac_glyphs::screen_code`]); a
/// character the set lacks shows as a space.
pub fn screen_code(c: u8) -> u8 {
    bac_glyphs::screen_code(c).unwrap_or(SPACE)
}
