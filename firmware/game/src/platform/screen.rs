//! The screen: character cells in 40 or 80 columns, their colours, the card faces laid
//! under them, and holding a picture while the next is drawn.

/// A colour, numbered as on the VIC-II (the C128's 80-column side maps it to RGBI).
pub type Colour = u8;

/// The VIC-II's sixteen colours, by the names the C128 manual gives them.
pub mod colour {
    use super::Colour;
    /// Black.
    pub const BLACK: Colour = 0;
    /// White.
    pub const WHITE: Colour = 1;
    /// Red.
    pub const RED: Colour = 2;
    /// Cyan.
    pub const CYAN: Colour = 3;
    /// Green: the baize.
    pub const GREEN: Colour = 5;
    /// Blue.
    pub const BLUE: Colour = 6;
    /// Yellow.
    pub const YELLOW: Colour = 7;
    /// Orange.
    pub const ORANGE: Colour = 8;
    /// Light red: red cards, the Banker.
    pub const LIGHT_RED: Colour = 10;
    /// Light green: winnings.
    pub const LIGHT_GREEN: Colour = 13;
    /// Light blue: the Player.
    pub const LIGHT_BLUE: Colour = 14;
    /// Light grey.
    pub const LIGHT_GREY: Colour = 15;
    /// Added to a colour: the cell lies on a card's white face and the colour is its ink
    /// (each platform makes the white its own way; see [`super::super::Screen::card_paper`]).
    pub const ON_PAPER: Colour = 0x10;
    /// Added to an [`ON_PAPER`] colour: the code is a road mark (`bac_glyphs::MARKS`), not
    /// a character. 80 columns only: the VDC holds the marks in its second character set.
    pub const MARK: Colour = 0x20;
}

/// Character cells, in the game's colours.
pub trait Screen {
    /// Columns of the screen in use: 40 or 80.
    fn columns(&self) -> u8;
    /// Shows the 40- or 80-column screen, cleared to `background`.
    fn set_columns(&mut self, columns: u8, background: Colour);
    /// Writes a screen code (0-255; 128 and up are reversed) at a cell; cells off the
    /// screen are ignored.
    fn put(&mut self, x: u8, y: u8, code: u8, colour: Colour);
    /// Writes ASCII `text` from (`x`, `y`) on, each character as [`crate::glyph::screen_code`]
    /// shows it, reversed if `reverse`, in `colour`; cells off the screen are ignored.
    /// Returns the column after the text. A platform that can write a row at once
    /// overrides this: the game's text is most of what it draws.
    fn put_text(&mut self, x: u8, y: u8, text: &[u8], reverse: bool, colour: Colour) -> u8 {
        let flip = if reverse { crate::glyph::REVERSE } else { 0 };
        let mut at = x;
        for &c in text {
            self.put(at, y, crate::glyph::screen_code(c) | flip, colour);
            at = at.saturating_add(1);
        }
        at
    }
    /// Fills a rectangle of cells.
    fn fill(&mut self, x: u8, y: u8, w: u8, h: u8, code: u8, colour: Colour);
    /// Lays card face `slot` (0-7) under the cells from (`x`, `y`) on, or takes it away
    /// for `None`; [`set_columns`](Screen::set_columns) takes them all away. For a
    /// platform whose cells cannot show coloured ink on white by themselves (the VIC-IIe
    /// gives each face a sprite); the others draw [`colour::ON_PAPER`] cells white.
    fn card_paper(&mut self, _slot: u8, _at: Option<(u8, u8)>) {}
    /// Keeps the picture the player sees as it is while the game draws on behind it, until
    /// [`Self::show`]: what is drawn meanwhile (cells, and card faces laid or taken away)
    /// is not seen. True if the platform did; the default cannot (drawing then shows as it
    /// comes), and the game draws its screens as it did without it.
    fn hold(&mut self) -> bool {
        false
    }
    /// Shows everything drawn since [`Self::hold`] at once; nothing if nothing is held.
    fn show(&mut self) {}
}
