//! What the game needs from the machine, and nothing more: character cells, keys, frames,
//! sound and four file operations. The C128 program implements it on the VIC/VDC, the key
//! matrix, the raster and the SID; host tests implement it with a scripted keyboard.

use bac_rules::{Event, Table};

use crate::app::Seats;
use crate::text::Lang;

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
    /// (each platform makes the white its own way; see [`super::Platform::card_paper`]).
    pub const ON_PAPER: Colour = 0x10;
    /// Added to an [`ON_PAPER`] colour: the code is a road mark (`bac_glyphs::MARKS`), not
    /// a character. 80 columns only: the VDC holds the marks in its second character set.
    pub const MARK: Colour = 0x20;
}

/// Keys as PETSCII codes, the way the C128's GETIN reports them.
pub mod key {
    /// RUN/STOP.
    pub const STOP: u8 = 3;
    /// TAB.
    pub const TAB: u8 = 9;
    /// RETURN (and the keypad's ENTER).
    pub const RETURN: u8 = 13;
    /// Cursor down.
    pub const DOWN: u8 = 17;
    /// CLR/HOME.
    pub const HOME: u8 = 19;
    /// INST/DEL.
    pub const DEL: u8 = 20;
    /// ESC.
    pub const ESC: u8 = 27;
    /// Cursor right.
    pub const RIGHT: u8 = 29;
    /// SPACE.
    pub const SPACE: u8 = 32;
    /// HELP.
    pub const HELP: u8 = 132;
    /// F1.
    pub const F1: u8 = 133;
    /// F3.
    pub const F3: u8 = 134;
    /// F5.
    pub const F5: u8 = 135;
    /// F7.
    pub const F7: u8 = 136;
    /// Cursor up.
    pub const UP: u8 = 145;
    /// Cursor left.
    pub const LEFT: u8 = 157;
}

/// Sound effects, each a few frames long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sound {
    /// A card lands.
    Card,
    /// The player's side won.
    Win,
    /// The player's side lost.
    Loss,
    /// The shoe is shuffled.
    Shuffle,
    /// A chip is placed.
    Chip,
    /// A refused key or bet.
    Error,
}

/// Why a file operation failed, as the 1581 reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiskError {
    /// 62 FILE NOT FOUND.
    NotFound,
    /// 26 WRITE PROTECT ON.
    WriteProtected,
    /// 72 DISK FULL.
    DiskFull,
    /// No drive answered.
    NoDevice,
    /// The file is longer than the buffer.
    TooLong,
    /// Any other DOS status.
    Dos(u8),
}

/// The machine under the game.
pub trait Platform {
    /// Columns of the screen in use: 40 or 80.
    fn columns(&self) -> u8;
    /// Shows the 40- or 80-column screen, cleared to `background`.
    fn set_columns(&mut self, columns: u8, background: Colour);
    /// Writes a screen code (0-255; 128 and up are reversed) at a cell; cells off the
    /// screen are ignored.
    fn put(&mut self, x: u8, y: u8, code: u8, colour: Colour);
    /// Writes ASCII `text` from (`x`, `y`) on, each character as [`crate::draw::screen_code`]
    /// shows it, reversed if `reverse`, in `colour`; cells off the screen are ignored.
    /// Returns the column after the text. A platform that can write a row at once
    /// overrides this: the game's text is most of what it draws.
    fn put_text(&mut self, x: u8, y: u8, text: &[u8], reverse: bool, colour: Colour) -> u8 {
        let flip = if reverse { crate::draw::glyph::REVERSE } else { 0 };
        let mut at = x;
        for &c in text {
            self.put(at, y, crate::draw::screen_code(c) | flip, colour);
            at = at.saturating_add(1);
        }
        at
    }
    /// Fills a rectangle of cells.
    fn fill(&mut self, x: u8, y: u8, w: u8, h: u8, code: u8, colour: Colour);
    /// Lays card face `slot` (0-7) under the cells from (`x`, `y`) on, or takes it away
    /// for `None`; [`set_columns`](Platform::set_columns) takes them all away. For a
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
    /// A key that went down since the last call.
    fn key(&mut self) -> Option<u8>;
    /// Whether the player taps or holds SPACE to hurry the deal: SPACE went down since the
    /// last call or is down now. Those presses of SPACE are taken (no later [`Self::key`]
    /// reports them) and every other key stays for [`Self::key`], so a deal that asks
    /// cannot swallow a key meant for the screen after it.
    fn hurry(&mut self) -> bool;
    /// Waits for the next frame (1/50 s on PAL, 1/60 on NTSC) and moves sound effects on.
    fn frame(&mut self);
    /// The frames that have passed, wrapping at 256, counted by the machine's clock rather
    /// than by calls of [`Self::frame`]: work done between two frames counts too, so a pause
    /// can take off the time the work before it already took. A platform with no such
    /// clock may count its calls of [`Self::frame`]; a pause then runs whole.
    fn clock(&self) -> u8;
    /// Starts a sound effect.
    fn sound(&mut self, sound: Sound);
    /// A counter that runs with time and with the raster: the generator's seed.
    fn ticks(&self) -> u32;
    /// Reads a whole SEQ file.
    fn read(&mut self, name: &[u8], buf: &mut [u8]) -> Result<usize, DiskError>;
    /// Writes a new SEQ file.
    fn write(&mut self, name: &[u8], data: &[u8]) -> Result<(), DiskError>;
    /// Scratches a file.
    fn scratch(&mut self, name: &[u8]) -> Result<(), DiskError>;
    /// Renames a file.
    fn rename(&mut self, from: &[u8], to: &[u8]) -> Result<(), DiskError>;
    /// Opens the help text in `lang` (the SEQ file [`crate::help::file_name`] names) for
    /// reading from its start. It is read as it is shown, so it may be longer than any
    /// buffer the game could spare.
    fn open_help(&mut self, lang: Lang) -> Result<(), DiskError>;
    /// The next byte of the help text (PETSCII), or `None` at its end or on an error.
    fn help_byte(&mut self) -> Option<u8>;
    /// The help text's next line: its characters, as [`crate::help::ascii`] gives them, into
    /// `line` (the first 80 of a longer one); returns how many, the bytes it took from the
    /// file (its RETURN or line feed included) and whether the text goes on after it.
    ///
    /// The default reads it with [`Platform::help_byte`]; the C128 reads it in one call,
    /// as its game's help pages run interpreted, about ten times slower than translated
    /// code: a byte at a time, a page took seven seconds to show.
    fn help_line(&mut self, line: &mut [u8; 80]) -> (u8, u16, bool) {
        let (mut len, mut used) = (0u8, 0u16);
        while let Some(byte) = self.help_byte() {
            used += 1;
            if byte == crate::help::RETURN || byte == crate::help::LINE_FEED {
                return (len, used, true);
            }
            if usize::from(len) < line.len() {
                line[usize::from(len)] = crate::help::ascii(byte);
                len += 1;
            }
        }
        (len, used, false)
    }
    /// Closes the help text.
    fn close_help(&mut self);
    /// Called after every settled coup with the money on the table (bankrolls, stakes and
    /// the house, in cents) before the coup was dealt and after it was settled: the two are
    /// always equal, and the C128 posts them where the keyboard fuzz test watches them.
    fn settled(&mut self, coups: u16, before: u32, after: u32);
    /// Shown the table whenever its money can be counted: as each round of bets opens (after
    /// any rebuy), with `settled` empty, and as each coup is settled, with the events of the
    /// step that settled it (its [`Event::Settled`] records). `seats` says who sits where
    /// (their bankrolls there are as last kept; the table's are the ones that count). Host
    /// tests check with it that money moves only as coups settle it; the default does
    /// nothing, and costs the C128 nothing.
    fn audit(&mut self, _table: &Table, _seats: &Seats, _settled: &[Event]) {}
}

/// Waits for a key, keeping the frames (and the sound) going.
pub fn wait_key(p: &mut impl Platform) -> u8 {
    loop {
        p.frame();
        if let Some(k) = p.key() {
            return k;
        }
    }
}
