//! bac128's own 8 x 8 character set (no Commodore ROM is copied), laid out like the C128's
//! character ROM: [`UPPER`] is the upper-case/graphics set and [`LOWER`] the
//! lower/upper-case set, each 128 glyphs by screen code; a screen shows code + 128 as the
//! reverse image, which [`reversed`] gives.
//!
//! One source of truth for two users: the emulator (`emulator-tests`) draws its
//! screenshots with these glyphs, and the game (through `c128-rt`'s `screen` module)
//! installs them on both the VIC-IIe and the VDC, so that a screenshot and a real C128 in
//! VICE show the same picture.
//!
//! The glyphs are written below as art strings (`#` lit, `.` dark, rows separated by `/`)
//! and turned into bytes by `const fn`s at compile time: a malformed string is a compile
//! error, and a program that uses the tables carries only the 2 KB of bytes.
//!
//! Letters, digits and punctuation are complete. Of the PETSCII graphics, the lines,
//! corners (square and rounded, all two pixels thick so that they join), card suits,
//! circles and the commonest block characters are drawn; the rest show a hatched
//! stand-in, so that a screenshot still shows where they are.
#![no_std]

/// The screen code that shows ASCII `c` in this set: `@`, `A`-`Z` and `[\]^_` as codes
/// 0-31 (`\` is the pound sign, `^` the up arrow, `_` the left arrow), lower case as the same
/// capitals, space to `?` as themselves. `None` for anything else: what stands in for a
/// character the set lacks is each screen's own choice. Always inlined: the screens' row
/// writers call it for every cell, and a call would cost them their register saves.
#[inline(always)]
pub const fn screen_code(c: u8) -> Option<u8> {
    match c {
        b'@'..=b'_' => Some(c - b'@'),
        b'a'..=b'z' => Some(c - b'a' + 1),
        b' '..=b'?' => Some(c),
        _ => None,
    }
}

/// A glyph: eight rows, the leftmost pixel in bit 7.
pub type Glyph = [u8; 8];

/// The stand-in for graphics characters this font does not draw.
pub const HATCH: Glyph = [0x00, 0x44, 0x22, 0x11, 0x88, 0x44, 0x22, 0x00];

/// Screen codes a card game uses, by what they show.
pub mod code {
    /// Space.
    pub const SPACE: u8 = 0x20;
    /// Horizontal line through the middle (joins the rounded corners).
    pub const HLINE: u8 = 0x40;
    /// Spade.
    pub const SPADE: u8 = 0x41;
    /// Rounded corner, top right of a box.
    pub const ROUND_TOP_RIGHT: u8 = 0x49;
    /// Rounded corner, bottom left of a box.
    pub const ROUND_BOTTOM_LEFT: u8 = 0x4A;
    /// Rounded corner, bottom right of a box.
    pub const ROUND_BOTTOM_RIGHT: u8 = 0x4B;
    /// Heart.
    pub const HEART: u8 = 0x53;
    /// Rounded corner, top left of a box.
    pub const ROUND_TOP_LEFT: u8 = 0x55;
    /// Club.
    pub const CLUB: u8 = 0x58;
    /// Diamond.
    pub const DIAMOND: u8 = 0x5A;
    /// Vertical line through the middle.
    pub const VLINE: u8 = 0x5D;
    /// A diagonal line, bottom left to top right: a tie before the big road's first mark.
    pub const SLASH: u8 = 0x4E;
    /// A filled ball in the ROM; this set draws a ring with a slash through it there.
    pub const SLASHED_RING: u8 = 0x51;
    /// A ring: the big road's mark.
    pub const RING: u8 = 0x57;
    /// Checkerboard (a card's back).
    pub const CHECKER: u8 = 0x66;
    /// Solid block (the reverse image of a space).
    pub const BLOCK: u8 = 0xA0;
}

/// Screen codes 0-63 of both sets (letters are capitals here), as 5 x 7 art.
const TEXT: [&str; 64] = [
    ".###./#...#/#.###/#.#.#/#.###/#..../.###.", // 0x00 @
    ".###./#...#/#...#/#####/#...#/#...#/#...#", // 0x01 A
    "####./#...#/#...#/####./#...#/#...#/####.", // 0x02 B
    ".###./#...#/#..../#..../#..../#...#/.###.", // 0x03 C
    "####./#...#/#...#/#...#/#...#/#...#/####.", // 0x04 D
    "#####/#..../#..../####./#..../#..../#####", // 0x05 E
    "#####/#..../#..../####./#..../#..../#....", // 0x06 F
    ".###./#...#/#..../#.###/#...#/#...#/.####", // 0x07 G
    "#...#/#...#/#...#/#####/#...#/#...#/#...#", // 0x08 H
    ".###./..#../..#../..#../..#../..#../.###.", // 0x09 I
    "..###/...#./...#./...#./...#./#..#./.##..", // 0x0a J
    "#...#/#..#./#.#../##.../#.#../#..#./#...#", // 0x0b K
    "#..../#..../#..../#..../#..../#..../#####", // 0x0c L
    "#...#/##.##/#.#.#/#.#.#/#...#/#...#/#...#", // 0x0d M
    "#...#/##..#/#.#.#/#..##/#...#/#...#/#...#", // 0x0e N
    ".###./#...#/#...#/#...#/#...#/#...#/.###.", // 0x0f O
    "####./#...#/#...#/####./#..../#..../#....", // 0x10 P
    ".###./#...#/#...#/#...#/#.#.#/#..#./.##.#", // 0x11 Q
    "####./#...#/#...#/####./#.#../#..#./#...#", // 0x12 R
    ".####/#..../#..../.###./....#/....#/####.", // 0x13 S
    "#####/..#../..#../..#../..#../..#../..#..", // 0x14 T
    "#...#/#...#/#...#/#...#/#...#/#...#/.###.", // 0x15 U
    "#...#/#...#/#...#/#...#/#...#/.#.#./..#..", // 0x16 V
    "#...#/#...#/#...#/#.#.#/#.#.#/#.#.#/.#.#.", // 0x17 W
    "#...#/#...#/.#.#./..#../.#.#./#...#/#...#", // 0x18 X
    "#...#/#...#/.#.#./..#../..#../..#../..#..", // 0x19 Y
    "#####/....#/...#./..#../.#.../#..../#####", // 0x1a Z
    ".###./.#.../.#.../.#.../.#.../.#.../.###.", // 0x1b [
    "..##./.#..#/.#.../###../.#.../.#..#/#.##.", // 0x1c £
    ".###./...#./...#./...#./...#./...#./.###.", // 0x1d ]
    "..#../.###./#.#.#/..#../..#../..#../..#..", // 0x1e ↑
    "...../..#../.#.../#####/.#.../..#../.....", // 0x1f ←
    "...../...../...../...../...../...../.....", // 0x20
    "..#../..#../..#../..#../..#../...../..#..", // 0x21 !
    ".#.#./.#.#./...../...../...../...../.....", // 0x22 "
    ".#.#./.#.#./#####/.#.#./#####/.#.#./.#.#.", // 0x23 #
    "..#../.####/#.#../.###./..#.#/####./..#..", // 0x24 $
    "##..#/##.#./...#./..#../.#.../.#.##/#..##", // 0x25 %
    ".##../#..#./#.#../.#.../#.#.#/#..#./.##.#", // 0x26 &
    "..#../..#../.#.../...../...../...../.....", // 0x27 '
    "...#./..#../.#.../.#.../.#.../..#../...#.", // 0x28 (
    ".#.../..#../...#./...#./...#./..#../.#...", // 0x29 )
    "...../..#../#.#.#/.###./#.#.#/..#../.....", // 0x2a *
    "...../..#../..#../#####/..#../..#../.....", // 0x2b +
    "...../...../...../...../.##../..#../.#...", // 0x2c ,
    "...../...../...../#####/...../...../.....", // 0x2d -
    "...../...../...../...../...../.##../.##..", // 0x2e .
    "...../....#/...#./..#../.#.../#..../.....", // 0x2f /
    ".###./#...#/#..##/#.#.#/##..#/#...#/.###.", // 0x30 0
    "..#../.##../..#../..#../..#../..#../.###.", // 0x31 1
    ".###./#...#/....#/..##./.#.../#..../#####", // 0x32 2
    "#####/...#./..#../...#./....#/#...#/.###.", // 0x33 3
    "...#./..##./.#.#./#..#./#####/...#./...#.", // 0x34 4
    "#####/#..../####./....#/....#/#...#/.###.", // 0x35 5
    "..##./.#.../#..../####./#...#/#...#/.###.", // 0x36 6
    "#####/....#/...#./..#../.#.../.#.../.#...", // 0x37 7
    ".###./#...#/#...#/.###./#...#/#...#/.###.", // 0x38 8
    ".###./#...#/#...#/.####/....#/...#./.##..", // 0x39 9
    "...../.##../.##../...../.##../.##../.....", // 0x3a :
    "...../.##../.##../...../.##../..#../.#...", // 0x3b ;
    "...#./..#../.#.../#..../.#.../..#../...#.", // 0x3c <
    "...../...../#####/...../#####/...../.....", // 0x3d =
    ".#.../..#../...#./....#/...#./..#../.#...", // 0x3e >
    ".###./#...#/....#/...#./..#../...../..#..", // 0x3f ?
];

/// The lower-case letters of the lower/upper-case set (screen codes 1-26), as 5 x 7 art.
const LOWER_LETTERS: [&str; 26] = [
    "...../...../.###./....#/.####/#...#/.####", // a
    "#..../#..../#.##./##..#/#...#/#...#/####.", // b
    "...../...../.###./#..../#..../#...#/.###.", // c
    "....#/....#/.##.#/#..##/#...#/#...#/.####", // d
    "...../...../.###./#...#/#####/#..../.###.", // e
    "..##./.#..#/.#.../###../.#.../.#.../.#...", // f
    "...../.####/#...#/#...#/.####/....#/.###.", // g
    "#..../#..../#.##./##..#/#...#/#...#/#...#", // h
    "..#../...../.##../..#../..#../..#../.###.", // i
    "...#./...../..##./...#./...#./#..#./.##..", // j
    "#..../#..../#..#./#.#../##.../#.#../#..#.", // k
    ".##../..#../..#../..#../..#../..#../.###.", // l
    "...../...../##.#./#.#.#/#.#.#/#...#/#...#", // m
    "...../...../#.##./##..#/#...#/#...#/#...#", // n
    "...../...../.###./#...#/#...#/#...#/.###.", // o
    "...../...../####./#...#/####./#..../#....", // p
    "...../...../.##.#/#..##/.####/....#/....#", // q
    "...../...../#.##./##..#/#..../#..../#....", // r
    "...../...../.###./#..../.###./....#/####.", // s
    ".#.../.#.../###../.#.../.#.../.#..#/..##.", // t
    "...../...../#...#/#...#/#...#/#..##/.##.#", // u
    "...../...../#...#/#...#/#...#/.#.#./..#..", // v
    "...../...../#...#/#...#/#.#.#/#.#.#/.#.#.", // w
    "...../...../#...#/.#.#./..#../.#.#./#...#", // x
    "...../...../#...#/#...#/.####/....#/.###.", // y
    "...../...../#####/...#./..#../.#.../#####", // z
];

/// Full-cell graphics by screen code (64-127), as 8 x 8 art.
const GRAPHICS: [(u8, &str); 64] = [
    (0x40, "......../......../......../########/########/......../......../........"),
    (0x41, "...##.../..####../.######./########/########/...##.../..####../........"),
    (0x42, "...##.../...##.../...##.../...##.../...##.../...##.../...##.../...##..."),
    (0x43, "......../......../......../########/......../......../......../........"),
    (0x44, "......../......../########/......../......../......../......../........"),
    (0x45, "......../########/......../......../......../......../......../........"),
    (0x46, "......../......../......../......../......../########/......../........"),
    (0x47, ".#....../.#....../.#....../.#....../.#....../.#....../.#....../.#......"),
    (0x48, "......#./......#./......#./......#./......#./......#./......#./......#."),
    (0x49, "......../......../......../####..../#####.../...##.../...##.../...##..."),
    (0x4A, "...##.../...##.../...##.../...#####/....####/......../......../........"),
    (0x4B, "...##.../...##.../...##.../#####.../####..../......../......../........"),
    (0x4C, "#......./#......./#......./#......./#......./#......./#......./########"),
    (0x4D, "#......./.#....../..#...../...#..../....#.../.....#../......#./.......#"),
    (0x4E, ".......#/......#./.....#../....#.../...#..../..#...../.#....../#......."),
    (0x4F, "########/#......./#......./#......./#......./#......./#......./#......."),
    (0x50, "########/.......#/.......#/.......#/.......#/.......#/.......#/.......#"),
    // The ROM's filled ball is drawn as a ring with a slash through it: the big road's
    // mark with a tie after it, as casinos post it (the game shows no ball).
    (0x51, ".......#/..#####./.##..##./.#..#.#./.#.#..#./.##..##./.#####../#......."),
    (0x52, "......../......../......../......../......../......../########/........"),
    (0x53, ".##..##./########/########/########/.######./..####../...##.../........"),
    (0x54, "..#...../..#...../..#...../..#...../..#...../..#...../..#...../..#....."),
    (0x55, "......../......../......../....####/...#####/...##.../...##.../...##..."),
    (0x56, "##....##/###..###/.######./..####../..####../.######./###..###/##....##"),
    (0x57, "......../..####../.##..##./.#....#./.#....#./.##..##./..####../........"),
    (0x58, "...##.../..####../...##.../.##..##./########/.##..##./...##.../..####.."),
    (0x59, ".....#../.....#../.....#../.....#../.....#../.....#../.....#../.....#.."),
    (0x5A, "...##.../..####../.######./########/.######./..####../...##.../........"),
    (0x5B, "...##.../...##.../...##.../########/########/...##.../...##.../...##..."),
    (0x5C, "#.#...../.#.#..../#.#...../.#.#..../#.#...../.#.#..../#.#...../.#.#...."),
    (0x5D, "...##.../...##.../...##.../...##.../...##.../...##.../...##.../...##..."),
    (0x5E, "......../......../.######./#.#..#../..#..#../..#..#../..#..#../........"),
    (0x5F, "########/#######./######../#####.../####..../###...../##....../#......."),
    (0x60, "......../......../......../......../......../......../......../........"),
    (0x61, "####..../####..../####..../####..../####..../####..../####..../####...."),
    (0x62, "......../......../......../......../########/########/########/########"),
    (0x63, "########/......../......../......../......../......../......../........"),
    (0x64, "......../......../......../......../......../......../......../########"),
    (0x65, "#......./#......./#......./#......./#......./#......./#......./#......."),
    (0x66, "#.#.#.#./.#.#.#.#/#.#.#.#./.#.#.#.#/#.#.#.#./.#.#.#.#/#.#.#.#./.#.#.#.#"),
    (0x67, ".......#/.......#/.......#/.......#/.......#/.......#/.......#/.......#"),
    (0x68, "......../......../......../......../#.#.#.#./.#.#.#.#/#.#.#.#./.#.#.#.#"),
    (0x69, ".......#/......##/.....###/....####/...#####/..######/.#######/########"),
    (0x6A, "......##/......##/......##/......##/......##/......##/......##/......##"),
    (0x6B, "...##.../...##.../...##.../...#####/...#####/...##.../...##.../...##..."),
    (0x6C, "......../......../......../......../....####/....####/....####/....####"),
    (0x6D, "...##.../...##.../...##.../...#####/...#####/......../......../........"),
    (0x6E, "......../......../......../#####.../#####.../...##.../...##.../...##..."),
    (0x6F, "......../......../......../......../......../......../########/########"),
    (0x70, "......../......../......../...#####/...#####/...##.../...##.../...##..."),
    (0x71, "...##.../...##.../...##.../########/########/......../......../........"),
    (0x72, "......../......../......../########/########/...##.../...##.../...##..."),
    (0x73, "...##.../...##.../...##.../#####.../#####.../...##.../...##.../...##..."),
    (0x74, "##....../##....../##....../##....../##....../##....../##....../##......"),
    (0x75, "###...../###...../###...../###...../###...../###...../###...../###....."),
    (0x76, ".....###/.....###/.....###/.....###/.....###/.....###/.....###/.....###"),
    (0x77, "########/########/......../......../......../......../......../........"),
    (0x78, "########/########/########/......../......../......../......../........"),
    (0x79, "......../......../......../......../......../########/########/########"),
    (0x7A, ".......#/.......#/.......#/.......#/.......#/.......#/.......#/########"),
    (0x7B, "......../......../......../......../####..../####..../####..../####...."),
    (0x7C, "....####/....####/....####/....####/......../......../......../........"),
    (0x7D, "...##.../...##.../...##.../#####.../#####.../......../......../........"),
    (0x7E, "####..../####..../####..../####..../......../......../......../........"),
    (0x7F, "####..../####..../####..../####..../....####/....####/....####/....####"),
];

/// A 5 x 7 glyph drawn in columns 1-5 and rows 0-6 of the cell.
const fn small(art: &str) -> Glyph {
    parse(art, 7, 5, 0x40)
}

/// A full 8 x 8 glyph.
const fn wide(art: &str) -> Glyph {
    parse(art, 8, 8, 0x80)
}

/// Turns art of `rows` rows of `width` characters into bytes, the first column at `first`.
/// Any other shape, or a character other than `#`, `.` and `/`, stops the compilation.
const fn parse(art: &str, rows: usize, width: usize, first: u8) -> Glyph {
    let bytes = art.as_bytes();
    let mut glyph = [0u8; 8];
    let (mut row, mut x, mut i) = (0, 0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'/' => {
                assert!(x == width, "a glyph row has the wrong width");
                row += 1;
                x = 0;
            }
            c => {
                assert!(c == b'#' || c == b'.', "glyph art is made of '#', '.' and '/'");
                assert!(row < rows && x < width, "a glyph is too large");
                if c == b'#' {
                    glyph[row] |= first >> x;
                }
                x += 1;
            }
        }
        i += 1;
    }
    assert!(row + 1 == rows && x == width, "a glyph has the wrong number of rows");
    glyph
}

/// The glyph of `code` (0-127) in the upper-case set, or with `lower` in the lower-case set.
const fn glyph(code: u8, lower: bool) -> Glyph {
    match code {
        1..=26 if lower => small(LOWER_LETTERS[code as usize - 1]),
        0..=63 => small(TEXT[code as usize]),
        65..=90 if lower => small(TEXT[code as usize - 64]),
        _ => {
            let mut i = 0;
            while i < GRAPHICS.len() {
                if GRAPHICS[i].0 == code {
                    return wide(GRAPHICS[i].1);
                }
                i += 1;
            }
            HATCH
        }
    }
}

const fn set(lower: bool) -> [Glyph; 128] {
    let mut out = [[0u8; 8]; 128];
    let mut code = 0;
    while code < 128 {
        out[code] = glyph(code as u8, lower);
        code += 1;
    }
    out
}

/// The upper-case/graphics set by screen code (the C128's power-on set).
pub const UPPER: [Glyph; 128] = set(false);

/// The lower/upper-case set by screen code: lower-case letters at 1-26, capitals at 65-90.
pub const LOWER: [Glyph; 128] = set(true);

/// The derived roads' marks as casinos draw them, for the 80-column scoreboard: a cell
/// holds two marks of one road, one above the other (a road's column is one colour, so
/// the two nearly always share the cell's one ink). Each mark is 6 x 3 pixels in columns
/// 1-6 of its half of the cell (rows 0-2 or 4-6): the VDC's pixels are about twice as
/// tall as they are wide, so that is round, and the blank rows and columns keep the marks
/// of a column and of two columns apart. The VDC shows them from its second character set
/// (attribute bit 7), which our character set leaves free; index by [`mark`].
pub const MARKS: [Glyph; 9] = {
    let halves = [
        // Big eye boy: a hollow circle.
        "..####../.#....#./..####../........",
        // Small road: a solid dot.
        "..####../.######./..####../........",
        // Cockroach pig: a slash.
        ".....##./...##.../.##...../........",
    ];
    let mut out = [[0u8; 8]; 9];
    let mut road = 0;
    while road < 3 {
        let half = parse(halves[road], 4, 8, 0x80);
        let mut row = 0;
        while row < 4 {
            out[3 * road + mark::UPPER as usize][row] = half[row];
            out[3 * road + mark::LOWER as usize][row + 4] = half[row];
            out[3 * road + mark::BOTH as usize][row] = half[row];
            out[3 * road + mark::BOTH as usize][row + 4] = half[row];
            row += 1;
        }
        road += 1;
    }
    out
};

/// Indices into [`MARKS`]: a road's first glyph plus which of its two marks the cell shows.
pub mod mark {
    /// Big eye boy's glyphs start here.
    pub const BIG_EYE: u8 = 0;
    /// Small road's.
    pub const SMALL: u8 = 3;
    /// Cockroach pig's.
    pub const COCKROACH: u8 = 6;
    /// Added to a road's first: the upper mark alone.
    pub const UPPER: u8 = 0;
    /// The lower mark alone.
    pub const LOWER: u8 = 1;
    /// Both marks.
    pub const BOTH: u8 = 2;
}

/// The reverse image of a glyph (what screen code + 128 shows).
pub const fn reversed(glyph: Glyph) -> Glyph {
    let mut out = glyph;
    let mut i = 0;
    while i < 8 {
        out[i] = !out[i];
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_sit_in_columns_one_to_five() {
        assert_eq!(UPPER[1][0], 0b0011_1000, "A's top row");
        assert_ne!(UPPER[1], UPPER[2]);
        assert_eq!(LOWER[65], UPPER[1], "capitals of the lower-case set");
        assert_ne!(LOWER[1], UPPER[1]);
    }

    #[test]
    fn every_text_glyph_is_drawn_and_distinct() {
        for (i, a) in UPPER[..64].iter().enumerate() {
            for (j, b) in UPPER[..64].iter().enumerate().skip(i + 1) {
                assert_ne!(a, b, "screen codes {i:#04x} and {j:#04x} look the same");
            }
        }
    }

    #[test]
    fn road_marks_stack_and_differ_by_road() {
        for road in [mark::BIG_EYE, mark::SMALL, mark::COCKROACH] {
            let g = |m: u8| MARKS[usize::from(road + m)];
            let (upper, lower, both) = (g(mark::UPPER), g(mark::LOWER), g(mark::BOTH));
            assert_eq!(&upper[..4], &lower[4..], "the lower mark is the upper moved down");
            assert_eq!(upper[4..], [0; 4]);
            assert_eq!(lower[..4], [0; 4]);
            assert!((0..8).all(|r| both[r] == upper[r] | lower[r]));
            assert!(both.iter().all(|row| row & 0x81 == 0), "columns 0 and 7 stay blank");
            assert_eq!((both[3], both[7]), (0, 0), "a blank row under each mark");
        }
        assert_ne!(MARKS[0], MARKS[3]);
        assert_ne!(MARKS[3], MARKS[6]);
        assert_eq!(MARKS[0][1], 0b0100_0010, "big eye boy's ring is hollow");
        assert_eq!(MARKS[3][1], 0b0111_1110, "small road's dot is solid");
    }

    #[test]
    fn the_slashed_ring_is_the_ring_with_a_slash_through_it() {
        let g = |c: u8| UPPER[usize::from(c)];
        let (ring, slash, slashed) = (g(code::RING), g(code::SLASH), g(code::SLASHED_RING));
        for row in 0..8 {
            assert_eq!(slashed[row], ring[row] | slash[row], "row {row}");
        }
    }

    #[test]
    fn card_glyphs_are_drawn_and_the_frame_joins() {
        use code::*;
        for c in [SPADE, HEART, CLUB, DIAMOND, HLINE, VLINE, CHECKER, ROUND_TOP_LEFT, ROUND_TOP_RIGHT] {
            assert_ne!(UPPER[usize::from(c)], HATCH, "{c:#04x}");
        }
        for c in [ROUND_BOTTOM_LEFT, ROUND_BOTTOM_RIGHT] {
            assert_ne!(UPPER[usize::from(c)], HATCH, "{c:#04x}");
        }
        let g = |c: u8| UPPER[usize::from(c)];
        // The horizontal line meets the corners' arms at the cell edges, and so does the
        // vertical line.
        let right_edge = |c: u8| g(c).map(|r| r & 1);
        let left_edge = |c: u8| g(c).map(|r| r >> 7);
        assert_eq!(right_edge(ROUND_TOP_LEFT), left_edge(HLINE));
        assert_eq!(left_edge(ROUND_TOP_RIGHT), right_edge(HLINE));
        assert_eq!(right_edge(ROUND_BOTTOM_LEFT), left_edge(HLINE));
        assert_eq!(left_edge(ROUND_BOTTOM_RIGHT), right_edge(HLINE));
        assert_eq!(g(ROUND_TOP_LEFT)[7], g(VLINE)[0]);
        assert_eq!(g(ROUND_TOP_RIGHT)[7], g(VLINE)[0]);
        assert_eq!(g(ROUND_BOTTOM_LEFT)[0], g(VLINE)[7]);
        assert_eq!(g(ROUND_BOTTOM_RIGHT)[0], g(VLINE)[7]);
        assert_eq!(reversed(g(SPACE)), [0xFF; 8]);
    }
}
