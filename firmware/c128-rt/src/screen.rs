//! Both text screens through one API: open the 40-column (VIC-IIe) or the 80-column (VDC)
//! display with bac128's own glyphs (`bac-glyphs`), put screen codes and text in colour,
//! fill rectangles, and give BASIC its screens back.
//!
//! # Where things are
//! - 40 columns: VIC bank 3 (CIA 2 $DD00 bits 0-1 = 0), screen at $E000, character set at
//!   $E800 ($D018 = $8A), colour RAM at $D800. $E000-$EFFF is RAM under the KERNAL ROM:
//!   writes reach it in MMU configuration $0E as well as $3E, and the VIC always reads RAM.
//!   The screen editor's shadow VM1 ($0A2C) gets the same value, because the KERNAL's
//!   interrupt (which can run inside KERNAL disk calls) copies it into $D018.
//! - 80 columns: VDC display at $0000, attributes at $0800, character set at $2000 (16
//!   bytes a glyph, 8 used). The attribute of a cell is its RGBI colour alone (no
//!   alternate set, reverse, underline or flash): reverse glyphs are codes 128-255.
//!
//! # Card faces
//! Cards are white with red or black ink, which neither chip's text mode gives a cell
//! (one ink per cell, one paper for the whole screen). A colour with [`ON_PAPER`] set is
//! ink on a card's white face:
//! - 40 columns: [`card_paper`] puts a white sprite, X and Y expanded (40 x 40 pixels, a
//!   card of 5 x 5 cells, the most of an expanded sprite's 48 x 42; square corners so
//!   that every cell of the face is all paper and ink), behind the text; the sprite shows
//!   wherever a cell's pixels are background, so
//!   the ink keeps its colour. Eight sprites, so eight faces at once; their shape is at
//!   $E400 (block $90).
//! - 80 columns: the VDC has no sprites and one paper for the whole screen (R26's low
//!   nibble, `background`). Opened with white paper, the driver draws in [`crate::paper`]'s
//!   white-paper mode: a face cell is its ink on white, and the rest of the screen is a
//!   cloth (`border`, kept in R26's high nibble, which the VDC ignores with attributes on)
//!   of reversed cells with white text and labels of dark ink on white. On any other paper
//!   a cell is its colour's RGBI ink on that paper, and [`ON_PAPER`] means nothing.
//!
//! [`ALTERNATE`] in a colour draws the cell from the VDC's second character set, where
//! [`open`] installs bac-glyphs' road marks ([`bac_glyphs::MARKS`]); 80 columns only.
//!
//! Coordinates outside the screen are ignored and text is clipped at the right edge, so a
//! drawing bug never writes outside the screen.

use crate::global::Global;
use crate::hw::{MMU_MODE, Reg8, VIC_BACKGROUND, VIC_BORDER, VIC_CLOCK, vdc_read, vdc_write};
use crate::{kernal, paper, vdc};
use bac_glyphs::UPPER;

/// Which display is in use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    /// The VIC-IIe's 40 x 25 screen (1 MHz).
    Forty,
    /// The VDC's 80 x 25 screen (2 MHz).
    Eighty,
}

/// Colours by their VIC-II numbers; on the VDC each becomes the nearest RGBI colour.
pub mod colour {
    /// Black.
    pub const BLACK: u8 = 0;
    /// White.
    pub const WHITE: u8 = 1;
    /// Red.
    pub const RED: u8 = 2;
    /// Cyan.
    pub const CYAN: u8 = 3;
    /// Purple.
    pub const PURPLE: u8 = 4;
    /// Green.
    pub const GREEN: u8 = 5;
    /// Blue.
    pub const BLUE: u8 = 6;
    /// Yellow.
    pub const YELLOW: u8 = 7;
    /// Orange.
    pub const ORANGE: u8 = 8;
    /// Brown.
    pub const BROWN: u8 = 9;
    /// Light red.
    pub const LIGHT_RED: u8 = 10;
    /// Dark grey.
    pub const DARK_GREY: u8 = 11;
    /// Grey.
    pub const GREY: u8 = 12;
    /// Light green.
    pub const LIGHT_GREEN: u8 = 13;
    /// Light blue.
    pub const LIGHT_BLUE: u8 = 14;
    /// Light grey.
    pub const LIGHT_GREY: u8 = 15;
}

/// The colour byte's flags, named where the white paper that gives them meaning is made.
pub use crate::paper::{ALTERNATE, ON_PAPER};

/// Rows on either screen.
pub const ROWS: u8 = 25;

/// The screen code of a space.
const SPACE: u8 = 0x20;

/// The KERNAL's own VIC-to-RGBI table (what the screen editor uses on the VDC).
const RGBI: [u8; 16] = [0, 15, 8, 7, 11, 4, 2, 13, 10, 12, 9, 1, 6, 5, 3, 14];

pub(crate) const VIC_SCREEN: u16 = 0xE000;
const VIC_CHARSET: u16 = 0xE800;
const COLOUR_RAM: u16 = c128_map::io::COLOUR_RAM;
/// $D018 for screen $2000 and characters $2800 of the VIC bank.
pub(crate) const VIC_MEMORY: u8 = 0x8A;
/// $D018 and VM1 as BASIC has them: screen $0400, the ROM's upper-case set.
const BASIC_VIC_MEMORY: u8 = 0x14;
const BASIC_SCREEN: u16 = 0x0400;
/// The screen editor's shadow of $D018 for the text screen.
const VM1: Reg8 = Reg8::at(c128_map::zp::VM1);
const VIC_CONTROL: Reg8 = Reg8::at(c128_map::io::VIC_CONTROL);
const VIC_CONTROL2: Reg8 = Reg8::at(c128_map::io::VIC_CONTROL2);
pub(crate) const VIC_MEMORY_REG: Reg8 = Reg8::at(c128_map::io::VIC_MEMORY);
/// CIA 2 port A and its direction register: bits 0-1 choose the VIC bank (inverted).
const CIA2_PORT_A: Reg8 = Reg8::at(c128_map::io::CIA2_PORT_A);
const CIA2_DDR_A: Reg8 = Reg8::at(c128_map::io::CIA2_DDR_A);

/// The card face's sprite shape: block $90 of VIC bank 3, after the screen's sprite
/// pointers and before the glyphs.
const SPRITE_SHAPE: u16 = 0xE400;
const SPRITE_BLOCK: u8 = 0x90;
/// Sprite pointers: the last 8 bytes of the screen's kilobyte.
const SPRITE_POINTERS: u16 = VIC_SCREEN + 0x3F8;
/// Sprite registers: positions from $D000 (X, Y pairs), X bit 8, enable, Y expansion,
/// priority (1 = behind the text's foreground), multicolour, X expansion, colours.
const SPRITE_X_HIGH: Reg8 = Reg8::at(0xD010);
const SPRITE_ENABLE: Reg8 = Reg8::at(0xD015);
const SPRITE_TALL: Reg8 = Reg8::at(0xD017);
const SPRITE_BEHIND: Reg8 = Reg8::at(0xD01B);
const SPRITE_MULTI: Reg8 = Reg8::at(0xD01C);
const SPRITE_WIDE: Reg8 = Reg8::at(0xD01D);
const SPRITE_COLOUR: u16 = 0xD027;

/// R26: the paper (low nibble) and, in the white-paper mode, the cloth (high nibble).
const PAPER: u8 = 26;

const VDC_SCREEN: u16 = 0x0000;
const VDC_ATTRIBUTES: u16 = 0x0800;
const VDC_CHARSET: u16 = 0x2000;

/// DLCHR: the KERNAL copies the character ROM into the VDC.
const DLCHR: u16 = c128_map::kernal::DLCHR;

/// The display in use, on which chips our glyphs are installed ([`ON_VIC`], [`ON_VDC`]),
/// and the VDC's R26 as [`open`] last set it (kept here so that a cell need not read the
/// chip).
#[derive(Clone, Copy)]
struct State {
    width: Width,
    installed: u8,
    paper: u8,
}

/// [`State::installed`]: the VIC-IIe's glyphs (and the card sprites) are in its bank.
const ON_VIC: u8 = 1;
/// [`State::installed`]: the VDC's character RAM holds our glyphs.
const ON_VDC: u8 = 2;

static STATE: Global<State> = Global::new(State { width: Width::Forty, installed: 0, paper: 0 });

/// The 40/80 key now: down means 80 columns.
pub fn key_40_80() -> Width {
    if MMU_MODE.read() & 0x80 == 0 { Width::Eighty } else { Width::Forty }
}

/// Opens `width`: installs our glyphs on its chip the first time, selects the display
/// and its clock (FAST for 80 columns; SLOW for 40, where FAST would show garbage), sets
/// the colours and clears it to spaces. The VDC has no border: there `border` is the cloth
/// of the white-paper mode (see "Card faces"), stored in R26's high nibble.
pub fn open(width: Width, background: u8, border: u8) {
    // Each chip gets its glyphs the first time its screen opens, not both at once: writing
    // the VDC's 8 KB of character RAM takes about 650,000 cycles (0.3 s at 2 MHz), which a
    // game started in 40 columns would otherwise spend before its title.
    let mut state = STATE.get();
    let chip = match width {
        Width::Forty => ON_VIC,
        Width::Eighty => ON_VDC,
    };
    if state.installed & chip == 0 {
        if chip == ON_VIC {
            install_vic();
        } else {
            install_vdc();
        }
        state.installed |= chip;
    }
    state.width = width;
    SPRITE_ENABLE.write(0);
    match width {
        Width::Forty => {
            VIC_CLOCK.modify(|v| v & !1);
            set_vic_text_mode(background, border);
        }
        Width::Eighty => {
            VIC_CLOCK.modify(|v| v | 1);
            vdc_write(12, (VDC_SCREEN >> 8) as u8);
            vdc_write(13, VDC_SCREEN as u8);
            vdc_write(20, (VDC_ATTRIBUTES >> 8) as u8);
            vdc_write(21, VDC_ATTRIBUTES as u8);
            vdc_write(28, (vdc_read(28) & 0x1F) | (VDC_CHARSET >> 8) as u8);
            // Text mode with attributes.
            vdc_write(25, (vdc_read(25) & 0x0F) | 0x40);
            state.paper = rgbi(border) << 4 | rgbi(background);
            vdc_write(PAPER, state.paper);
        }
    }
    STATE.set(state);
    fill(0, 0, columns(), ROWS, SPACE, colour::WHITE);
}

/// Our VIC bank, memory pointers, text mode and colours.
fn set_vic_text_mode(background: u8, border: u8) {
    CIA2_DDR_A.modify(|v| v | 3);
    CIA2_PORT_A.modify(|v| v & !3);
    VIC_MEMORY_REG.write(VIC_MEMORY);
    VM1.write(VIC_MEMORY);
    // Text mode, display on, 25 rows; no multicolour.
    VIC_CONTROL.write(0x1B);
    VIC_CONTROL2.modify(|v| v & !0x10);
    VIC_BORDER.write(border);
    VIC_BACKGROUND.write(background);
}

/// The display [`open`] selected last (40 columns before any).
pub fn width() -> Width {
    STATE.get().width
}

/// 40 or 80.
pub fn columns() -> u8 {
    match width() {
        Width::Forty => 40,
        Width::Eighty => 80,
    }
}

/// The RGBI colour the VDC shows for VIC colour `c`.
fn rgbi(c: u8) -> u8 {
    RGBI[usize::from(c & 0x0F)]
}

/// The screen code that shows ASCII `c` ([`bac_glyphs::screen_code`]); a character the set
/// lacks shows as `?`.
pub fn screen_code(c: u8) -> u8 {
    bac_glyphs::screen_code(c).unwrap_or(b'?')
}

/// The offset of each row's first cell at 40 columns (at 80, twice it). A table: the 6502
/// has no multiply, and [`offset`] runs for every character drawn (the runtime's 8-bit
/// multiply took 150 cycles a call).
const ROW_STARTS: [u16; ROWS as usize] = {
    let mut starts = [0; ROWS as usize];
    let mut y = 0;
    while y < starts.len() {
        starts[y] = 40 * y as u16;
        y += 1;
    }
    starts
};

/// The offset of cell (`x`, `y`) from the start of the screen (`y` < [`ROWS`]).
fn offset(x: u8, y: u8) -> u16 {
    let start = ROW_STARTS.get(usize::from(y)).copied().unwrap_or(0);
    let start = match width() {
        Width::Forty => start,
        Width::Eighty => start << 1,
    };
    start + u16::from(x)
}

/// Writes a VIC screen byte and its colour.
fn vic_cell(offset: u16, code: u8, colour: u8) {
    // SAFETY: $E000-$E3E7 is the 40-column screen in RAM (under the KERNAL ROM, where
    // writes land in RAM) and $D800-$DBE7 colour RAM: `offset` < 1,000 (callers clip).
    unsafe {
        core::ptr::write_volatile(usize::from(VIC_SCREEN + offset) as *mut u8, code);
        core::ptr::write_volatile(usize::from(COLOUR_RAM + offset) as *mut u8, colour);
    }
}

/// Puts screen code `code` at column `x`, row `y` in `colour`; nothing if off the screen.
pub fn put(x: u8, y: u8, code: u8, colour: u8) {
    if x >= columns() || y >= ROWS {
        return;
    }
    let at = offset(x, y);
    match width() {
        Width::Forty => vic_cell(at, code, colour & 0x0F),
        Width::Eighty => vdc_put(at, code, colour),
    }
}

/// [`put`] at 80 columns. A function of its own so that `put` keeps nothing across a call
/// and saves no register: at 40 columns, the game's every character, the saves cost more
/// than the writes (about 220 cycles a character).
#[inline(never)]
fn vdc_put(at: u16, code: u8, colour: u8) {
    let (code, attribute) = vdc_cell(code, colour);
    vdc::write_run(VDC_SCREEN + at, core::iter::once(code));
    vdc::write_run(VDC_ATTRIBUTES + at, core::iter::once(attribute));
}

/// The VDC's screen code and attribute for `code` in `colour`: its RGBI ink, or on white
/// paper what [`crate::paper`] makes of it; from the second character set with
/// [`ALTERNATE`].
fn vdc_cell(code: u8, colour: u8) -> (u8, u8) {
    let alternate = if colour & ALTERNATE != 0 { 0x80 } else { 0 };
    let r26 = STATE.get().paper;
    let (code, attribute) =
        if r26 & 0x0F == paper::WHITE { paper::cell(code, colour, r26) } else { (code, rgbi(colour)) };
    (code, attribute | alternate)
}

/// While a picture is held ([`crate::held`]), the card faces that are to be on once the
/// screen drawn behind it shows: a face switched on meanwhile belongs to that screen, and
/// its white sprite alone would show a blank card until then. `None` when nothing is held.
static HELD_FACES: Global<Option<u8>> = Global::new(None);

/// From now until [`show_faces`], [`card_paper`] switches faces on and off for the screen
/// drawn behind the held picture, not on the chip. (A face already on that is moved would
/// still move at once; the game moves none while a picture is held.)
pub(crate) fn hold_faces() {
    HELD_FACES.set(Some(SPRITE_ENABLE.read()));
}

/// Switches on the faces [`card_paper`] kept since [`hold_faces`], with the screen they
/// belong to.
pub(crate) fn show_faces() {
    if let Some(on) = HELD_FACES.get() {
        SPRITE_ENABLE.write(on);
        HELD_FACES.set(None);
    }
}

/// Shows a card's white face behind the 5 x 5 cells from column `x`, row `y` (40
/// columns; the VDC draws its faces cell by cell), or hides face `slot` (0-7) for `None`
/// (or a place off the screen). While a picture is held the switch waits for its screen
/// ([`hold_faces`]).
pub fn card_paper(slot: u8, at: Option<(u8, u8)>) {
    if width() != Width::Forty {
        return;
    }
    let bit = 1u8 << (slot & 7);
    let held = HELD_FACES.get();
    let on = held.unwrap_or_else(|| SPRITE_ENABLE.read());
    let on = match at.filter(|&(x, y)| x < 40 && y < ROWS) {
        None => on & !bit,
        Some((x, y)) => {
            // Sprite X 24, Y 50 is the text area's top left; X passes 255 from column 29 on.
            let reg = 0xD000 + u16::from((slot & 7) << 1);
            Reg8::at(reg).write((x << 3).wrapping_add(24));
            Reg8::at(reg + 1).write((y << 3) + 50);
            SPRITE_X_HIGH.modify(|v| if x >= 29 { v | bit } else { v & !bit });
            on | bit
        }
    };
    match held {
        Some(_) => HELD_FACES.set(Some(on)),
        None => SPRITE_ENABLE.write(on),
    }
}

/// Writes a row of cells from column `x`, row `y` on, one for each byte of `text`: its
/// screen code ([`bac_glyphs::screen_code`], `missing` for a byte the set lacks), reversed
/// if `reverse`, in `colour`; clipped at the right edge. Returns the column after the
/// whole text, `x + text.len()` (at most 255), clipped or not. What [`put`] does for each
/// cell, with the bounds checked and the address found once for the row.
///
/// Each width's row is written by a function of its own (`vic_row` calls nothing)
/// and works out the column it returns itself, so that nothing here lives across a call:
/// the translation then saves no register for it (at 40 columns the saves cost about 600
/// cycles a row, more than the four cells of a settle's average row).
pub fn put_row(x: u8, y: u8, text: &[u8], missing: u8, reverse: bool, colour: u8) -> u8 {
    let flip = if reverse { 0x80 } else { 0 };
    match width() {
        Width::Forty => vic_row(x, y, text, flip | colour & 0x0F, missing),
        Width::Eighty => vdc_row(x, y, text, flip, colour, missing),
    }
}

/// The column after `text` from column `x` (at most 255), and the part of it that fits on
/// a screen of `cols` columns from there; `None` for that if (`x`, `y`) is off the screen.
#[inline(always)]
fn clip(x: u8, y: u8, text: &[u8], cols: u8) -> (u8, Option<&[u8]>) {
    let end = x.saturating_add(text.len().min(255) as u8);
    if x >= cols || y >= ROWS {
        return (end, None);
    }
    let room = usize::from(cols - x);
    (end, Some(if text.len() > room { &text[..room] } else { text }))
}

/// [`put_row`] at 40 columns: the colours (`style`'s low nibble) and then the codes (bit
/// 7 of `style` reverses them), each a pointer stepped along and counted by a byte. Written
/// so that it needs only the registers a call may clobber: the end column worked out
/// first, the cell's address dead once both pointers are set.
#[inline(never)]
fn vic_row(x: u8, y: u8, text: &[u8], style: u8, missing: u8) -> u8 {
    let (end, text) = clip(x, y, text, 40);
    let Some(text) = text else { return end };
    let n = text.len() as u8;
    let at = ROW_STARTS[usize::from(y)] + u16::from(x);
    // SAFETY (both): as in `vic_cell`: the row is clipped to the screen, and `text` holds
    // `n` bytes.
    unsafe { fill_bytes(usize::from(COLOUR_RAM + at) as *mut u8, style & 0x0F, n) };
    let flip = style & 0x80;
    let (mut screen, mut from) = (usize::from(VIC_SCREEN + at) as *mut u8, text.as_ptr());
    for _ in 0..n {
        unsafe {
            screen.write_volatile(cell_code(from.read(), missing) | flip);
            screen = screen.add(1);
            from = from.add(1);
        }
    }
    end
}

/// [`put_row`] at 80 columns: one run of codes and one block fill of attributes (a cell's
/// attribute, and whether its code is reversed, depend on the colour and the reverse bit
/// alone, so they are the same for the whole row).
#[inline(never)]
fn vdc_row(x: u8, y: u8, text: &[u8], flip: u8, colour: u8, missing: u8) -> u8 {
    let (end, text) = clip(x, y, text, 80);
    let Some(text) = text else { return end };
    let at = offset(x, y);
    let (flip, attribute) = vdc_cell(flip, colour);
    vdc::write_run(VDC_SCREEN + at, text.iter().map(|&c| cell_code(c, missing) | flip));
    vdc::fill(VDC_ATTRIBUTES + at, attribute, text.len() as u16);
    end
}

/// The screen code (below 128) for ASCII `c`, `missing` if the set lacks it.
#[inline(always)]
fn cell_code(c: u8, missing: u8) -> u8 {
    bac_glyphs::screen_code(c).unwrap_or(missing) & 0x7F
}

/// Writes ASCII `text` from column `x`, row `y` on in `colour`, clipped at the right edge:
/// [`put_row`], a character the set lacks shown as `?` (this crate's [`screen_code`]).
pub fn put_text(x: u8, y: u8, text: &[u8], colour: u8) {
    put_row(x, y, text, b'?', false, colour);
}

/// Fills the rectangle of `w` x `h` cells from column `x`, row `y` with `code` in
/// `colour`, clipped to the screen. Each width's rows are filled by a function of its
/// own, called last, so that nothing here lives across a call and the translation saves
/// no register here (as for [`put_row`]); `vic_fill` saves its own once a rectangle
/// for the `memset` of each row.
pub fn fill(x: u8, y: u8, w: u8, h: u8, code: u8, colour: u8) {
    let cols = columns();
    if x >= cols || y >= ROWS {
        return;
    }
    let w = w.min(cols - x);
    let h = h.min(ROWS - y);
    let at = offset(x, y);
    match width() {
        Width::Forty => vic_fill(at, w, h, code, colour),
        Width::Eighty => vdc_fill(at, w, h, code, colour),
    }
}

/// [`fill`] at 40 columns, on the clipped rectangle at offset `at`. Each row is the
/// runtime's `memset` (13 cycles a byte, a loop of stepped pointers 36).
#[inline(never)]
fn vic_fill(mut at: u16, w: u8, h: u8, code: u8, colour: u8) {
    for _ in 0..h {
        // SAFETY (both): as in `vic_cell`: `fill` clipped the rectangle to the screen.
        // Screen and colour RAM have no side effects to keep in order, so the writes need
        // not be volatile: the VIC reads them at its own pace whatever their order.
        unsafe { core::ptr::write_bytes(usize::from(VIC_SCREEN + at) as *mut u8, code, usize::from(w)) };
        // A space shows no ink: its colour is never seen (the sprites of the card faces
        // show through it whatever it is), and every later character brings its own.
        // Left alone, a row of the table is cleared in half the time.
        if code != SPACE {
            unsafe { core::ptr::write_bytes(usize::from(COLOUR_RAM + at) as *mut u8, colour & 0x0F, usize::from(w)) };
        }
        at += 40;
    }
}

/// [`fill`] at 80 columns: a block fill of codes and one of attributes a row.
#[inline(never)]
fn vdc_fill(mut at: u16, w: u8, h: u8, code: u8, colour: u8) {
    let (code, attribute) = vdc_cell(code, colour);
    for _ in 0..h {
        vdc::fill(VDC_SCREEN + at, code, u16::from(w));
        vdc::fill(VDC_ATTRIBUTES + at, attribute, u16::from(w));
        at += 80;
    }
}

/// Writes `value` to the `n` bytes from `at` on, stepping a pointer and counting a byte.
/// Always inlined: a call would make its callers keep their pointers across it.
///
/// # Safety
/// The `n` bytes from `at` on must be RAM (or colour RAM) the caller may write.
#[inline(always)]
unsafe fn fill_bytes(mut at: *mut u8, value: u8, n: u8) {
    for _ in 0..n {
        // SAFETY: the caller's.
        unsafe {
            at.write_volatile(value);
            at = at.add(1);
        }
    }
}

/// Copies the glyphs and their reverse images to $E800 for the VIC, and sets up the
/// card faces' sprites.
fn install_vic() {
    install_sprites();
    let mut at = VIC_CHARSET;
    for glyph in UPPER.iter() {
        for &row in glyph {
            // SAFETY: $E800-$EFFF is RAM under the KERNAL ROM, set aside for the glyphs.
            unsafe {
                core::ptr::write_volatile(usize::from(at) as *mut u8, row);
                core::ptr::write_volatile(usize::from(at + 0x400) as *mut u8, !row);
            }
            at += 1;
        }
    }
}

/// Sets up the eight card-face sprites, hidden: shape, pointers, white, expanded, behind
/// the text. Not inlined: a program short of room may run it interpreted (it runs once).
#[inline(never)]
pub fn install_sprites() {
    let mut at = usize::from(SPRITE_SHAPE);
    for line in 0..21u8 {
        // 20 pixels by 20 lines (5 x 5 cells once expanded): two and a half of each
        // line's three bytes, 20 lines.
        let (solid, half) = if line < 20 { (0xFF, 0xF0) } else { (0, 0) };
        // SAFETY: $E400-$E43E is RAM under the KERNAL ROM, set aside for the shape.
        unsafe {
            core::ptr::write_volatile(at as *mut u8, solid);
            core::ptr::write_volatile((at + 1) as *mut u8, solid);
            core::ptr::write_volatile((at + 2) as *mut u8, half);
        }
        at += 3;
    }
    for n in 0..8u16 {
        // SAFETY: $E3F8-$E3FF are the screen's sprite pointers, outside its 1,000 cells.
        unsafe { core::ptr::write_volatile(usize::from(SPRITE_POINTERS + n) as *mut u8, SPRITE_BLOCK) };
        Reg8::at(SPRITE_COLOUR + n).write(colour::WHITE);
    }
    SPRITE_ENABLE.write(0);
    SPRITE_TALL.write(0xFF);
    SPRITE_WIDE.write(0xFF);
    SPRITE_BEHIND.write(0xFF);
    SPRITE_MULTI.write(0);
}

/// Copies the glyphs and their reverse images to the VDC's character set, and the road
/// marks to the start of its second set: 8 bytes of each 16-byte slot written, the other
/// 8 cleared with a block fill. One loop over the 256 codes (the reversed half by its
/// bit 7), not inlined, so that it stays small.
#[inline(never)]
fn install_vdc() {
    let mut at = VDC_CHARSET;
    for code in 0..=255u8 {
        let invert = if code & 0x80 != 0 { 0xFF } else { 0 };
        vdc_glyph(at, &UPPER[usize::from(code & 0x7F)], invert);
        at += 16;
    }
    for glyph in bac_glyphs::MARKS.iter() {
        vdc_glyph(at, glyph, 0);
        at += 16;
    }
}

/// One glyph of the VDC's character set at `at`, its rows XORed with `invert`. Not inlined,
/// so that the three loops over glyphs share it.
#[inline(never)]
fn vdc_glyph(at: u16, glyph: &bac_glyphs::Glyph, invert: u8) {
    vdc::write_run(at, glyph.iter().map(|&row| row ^ invert));
    vdc::fill(at + 8, 0, 8);
}

/// Gives BASIC its screens back: VIC bank 0 with the screen at $0400 and the ROM's
/// character set, the VDC's character set reloaded by the KERNAL (DLCHR), both screens
/// cleared in the colours of power-on, SLOW, and the editor's cursor at home.
pub fn close() {
    VIC_CLOCK.modify(|v| v & !1);
    SPRITE_ENABLE.write(0);
    CIA2_PORT_A.modify(|v| v | 3);
    VIC_MEMORY_REG.write(BASIC_VIC_MEMORY);
    VM1.write(BASIC_VIC_MEMORY);
    VIC_BORDER.write(colour::LIGHT_GREEN);
    VIC_BACKGROUND.write(colour::DARK_GREY);
    for i in 0..1000u16 {
        // SAFETY: BASIC's 40-column screen and colour RAM, 1,000 cells each.
        unsafe {
            core::ptr::write_volatile(usize::from(BASIC_SCREEN + i) as *mut u8, SPACE);
            core::ptr::write_volatile(usize::from(COLOUR_RAM + i) as *mut u8, colour::LIGHT_GREEN);
        }
    }
    kernal::call(DLCHR, 0, 0, 0, false);
    vdc_write(PAPER, 0xF0);
    vdc::fill(VDC_SCREEN, SPACE, 2000);
    vdc::fill(VDC_ATTRIBUTES, rgbi(colour::CYAN), 2000);
    STATE.set(State { width: Width::Forty, installed: 0, paper: 0 });
    // Clear/home: the editor's cursor and its idea of the active screen start afresh.
    kernal::chrout(147);
}
