//! The scoreboard panel of the 80-column table: columns 52-79 of every row, beside the
//! cards and the seats. From the top: the shoe's counts (Player, Banker and Tie wins,
//! naturals, cards left and before the cut), the bead plate, the big road, then the
//! derived roads as casinos post them: big eye boy across the panel, small road and
//! cockroach pig side by side under it.
//!
//! The panel is white paper ([`colour::ON_PAPER`]), as casinos print the roads: on the
//! VDC that gives true red and blue marks (`bac-game-prg`'s `vdc_look`), and column 52 is a
//! gutter of cloth between it and the table. The derived roads are drawn with marks of
//! their own, as casinos draw them: big eye boy hollow circles, small road solid dots,
//! cockroach pig slashes, red or blue (`bac_glyphs::MARKS`, which the VDC holds in its
//! second character set: [`colour::MARK`]). A cell holds two marks of a column, one above
//! the other, so six rows of marks take three rows of the screen. A cell has one ink, and a
//! road's column is one colour, so the two nearly always agree; where they do not (a long
//! run's tail passing under a column of the other colour) the cell keeps the upper mark's
//! colour for both, so the column above reads whole and the tail shows in its shape.
//!
//! Assumes: 80 columns, and that the table draws nothing right of column 51. Guarantees:
//! it draws only in its own columns. It runs interpreted (bank 1) but for the half-size
//! drawing, which runs for every mark of three roads: translated, it took the 30th coup's
//! settled screen from 2.2 to 1.45 million cycles at 80 columns, for 1,130 bytes of bank 0
//! (`firmware/game-prg/Cargo.toml`). The bead plate and the big road it calls are
//! [`crate::scoreboard`]'s translated ones.

use bac_rules::Tally;

use bac_glyphs::mark;

use crate::draw::{self, INK, glyph};
use crate::num;
use crate::platform::{Colour, Platform, colour};
use crate::roads::{Road, Roads};
use crate::scoreboard::{self, History, ROWS};
use crate::text::{Lang, Msg};

/// The panel's left edge, a column of cloth; the table keeps the columns before it.
pub const X: u8 = 52;
/// Added to every colour the panel draws: it is white paper.
const PAPER: Colour = colour::ON_PAPER;
/// The derived roads' inks on the white: the Banker's red, the Player's blue.
const RED_MARK: Colour = colour::RED | PAPER | colour::MARK;
const BLUE_MARK: Colour = colour::BLUE | PAPER | colour::MARK;
/// The panel's first column of content, and its width.
const LEFT: u8 = X + 1;
const WIDTH: u8 = 80 - LEFT;
/// Rows of a half-size road.
const HALF_ROWS: u8 = ROWS / 2;
/// Where each part starts: its title's row; the part follows on the rows below.
const BEAD_TITLE: u8 = 2;
const BIG_ROAD_TITLE: u8 = BEAD_TITLE + ROWS + 1;
const BIG_EYE_TITLE: u8 = BIG_ROAD_TITLE + ROWS + 1;
const SMALL_TITLE: u8 = BIG_EYE_TITLE + HALF_ROWS + 1;
/// The small road and the cockroach pig share the width, a bar between them.
const SMALL_WIDTH: u8 = (WIDTH - 1) / 2;
const COCKROACH_X: u8 = LEFT + SMALL_WIDTH + 1;

/// The counts on the panel's first two rows: `P 12 B 10 T 2 NAT 5`, then the cards left
/// in the shoe and before the cut card (`shoe`, once it is shuffled).
#[inline(never)]
pub fn counts(p: &mut impl Platform, lang: Lang, tally: Tally, naturals: u16, shoe: Option<(u16, Option<u16>)>) {
    p.fill(LEFT, 0, WIDTH, 2, glyph::SPACE, INK | PAPER);
    // The last row, under the roads, is the panel's too.
    p.fill(LEFT, 24, WIDTH, 1, glyph::SPACE, INK | PAPER);
    scoreboard::counts(p, LEFT + 1, 0, tally, Msg::Naturals.text(lang), naturals, PAPER);
    let Some((left, cut)) = shoe else {
        return;
    };
    let mut x = draw::text(p, LEFT + 1, 1, Msg::CardsLeft.text(lang), colour::LIGHT_GREY | PAPER) + 1;
    x = draw::text(p, x, 1, num::number(u32::from(left)).as_bytes(), INK | PAPER) + 2;
    if let Some(cut) = cut {
        x = draw::text(p, x, 1, Msg::Cut.text(lang), colour::LIGHT_GREY | PAPER) + 1;
        draw::text(p, x, 1, num::number(u32::from(cut)).as_bytes(), INK | PAPER);
    }
}

/// The bead plate, the big road and the derived roads of the shoe so far.
#[inline(never)]
pub fn roads(p: &mut impl Platform, lang: Lang, history: &History, derived: &Roads) {
    title(p, LEFT, BEAD_TITLE, WIDTH, Msg::BeadPlate.text(lang));
    scoreboard::bead_plate(p, LEFT, BEAD_TITLE + 1, WIDTH, history, PAPER);
    title(p, LEFT, BIG_ROAD_TITLE, WIDTH, Msg::BigRoad.text(lang));
    scoreboard::draw_big_road(p, LEFT, BIG_ROAD_TITLE + 1, WIDTH, history, PAPER);
    title(p, LEFT, BIG_EYE_TITLE, WIDTH, Msg::BigEyeBoy.text(lang));
    half_size(p, LEFT, BIG_EYE_TITLE + 1, WIDTH, &derived.big_eye, mark::BIG_EYE);
    title(p, LEFT, SMALL_TITLE, SMALL_WIDTH, Msg::SmallRoad.text(lang));
    p.fill(COCKROACH_X - 1, SMALL_TITLE, 1, HALF_ROWS + 1, glyph::LINE_V, colour::LIGHT_GREY | PAPER);
    title(p, COCKROACH_X, SMALL_TITLE, SMALL_WIDTH, Msg::Cockroach.text(lang));
    half_size(p, LEFT, SMALL_TITLE + 1, SMALL_WIDTH, &derived.small, mark::SMALL);
    half_size(p, COCKROACH_X, SMALL_TITLE + 1, SMALL_WIDTH, &derived.cockroach, mark::COCKROACH);
}

/// A part's title on a rule across its width.
#[inline(never)]
fn title(p: &mut impl Platform, x: u8, y: u8, w: u8, text: &[u8]) {
    p.fill(x, y, w, 1, glyph::LINE_H, colour::LIGHT_GREY | PAPER);
    draw::text(p, x + 1, y, text, INK | PAPER);
}

/// Draws the right-hand end of a derived road in `cols` columns at (x, y), two rows of
/// marks to a row of the screen, with the road's marks from `first` ([`mark`]).
#[inline(never)]
fn half_size<const W: usize>(p: &mut impl Platform, x: u8, y: u8, cols: u8, road: &Road<W>, first: u8) {
    p.fill(x, y, cols, HALF_ROWS, glyph::SPACE, INK | PAPER);
    let first_col = road.width().saturating_sub(cols);
    for (at, col) in (first_col..road.width()).enumerate() {
        let Some(mut bits) = road.column(col) else {
            continue;
        };
        for half in 0..HALF_ROWS {
            // By the marks of a pair of rows: 1 the upper, 2 the lower, 3 both, as
            // `mark::UPPER`, `LOWER` and `BOTH` follow one another.
            let pair = bits as u8 & 3;
            if pair != 0 {
                // The upper mark's colour, or the lower's when alone.
                let red_bit = if pair & 1 != 0 { 0x100 } else { 0x200 };
                let ink = if bits & red_bit != 0 { RED_MARK } else { BLUE_MARK };
                p.put(x + at as u8, y + half, first + pair - 1, ink);
            }
            bits = bits >> 2 & 0x3F3F;
        }
    }
}
