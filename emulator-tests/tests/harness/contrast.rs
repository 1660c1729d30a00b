//! Every ink the game shows reads on VICE's palettes: at least 4.5:1 (WCAG 2's contrast of
//! relative luminances, the usual floor for text) against its paper, in both widths, on
//! the screens a player sees: the title, the options, the betting screen and coups of
//! several results with the scoreboard filling up.
//!
//! Our emulator's palette is kinder than VICE's, so the colours are judged by VICE's: a
//! cell's colour index (recovered from our palette) is looked up in the RGB values VICE 3.9's
//! x128 puts on its screenshots (`emulator-tests/vice`, `target/vice/vice-*-frame.png`). On
//! the VDC those are the RGBI values our emulator uses; on the VIC-IIe they differ, and a
//! colour whose VICE value has not been read off a screenshot fails the test until it is.

use crate::built_game::{boot, built};
use c128_emu::Screen;
use c128_emu::screenshot::{RGBI_PALETTE, VIC_PALETTE};

/// VICE 3.9's VIC-IIe colours by index, as read off its screenshots; `None` where no
/// screenshot has shown the colour yet.
const VICE_VIC: [Option<[u8; 3]>; 16] = [
    Some([0x00, 0x00, 0x00]), // black
    Some([0xFF, 0xFF, 0xFF]), // white
    Some([0x7A, 0x41, 0x32]), // red
    Some([0x76, 0xAF, 0xBE]), // cyan
    None,                     // purple
    Some([0x59, 0x9D, 0x53]), // green
    Some([0x3D, 0x2F, 0xA2]), // blue
    Some([0xC3, 0xD1, 0x5E]), // yellow
    Some([0x81, 0x5B, 0x20]), // orange
    None,                     // brown
    Some([0xAA, 0x71, 0x62]), // light red
    None,                     // dark grey
    None,                     // grey
    Some([0x99, 0xDD, 0x93]), // light green
    Some([0x75, 0x67, 0xDA]), // light blue
    Some([0xA0, 0xA0, 0xA0]), // light grey
];

/// The floor for text.
const FLOOR: f64 = 4.5;

/// WCAG 2's relative luminance of an sRGB colour.
fn luminance(rgb: [u8; 3]) -> f64 {
    let linear = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.039_28 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
    };
    0.2126 * linear(rgb[0]) + 0.7152 * linear(rgb[1]) + 0.0722 * linear(rgb[2])
}

/// WCAG 2's contrast ratio, from 1 (the same) to 21 (black and white).
fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// The colour VICE shows for a colour our emulator drew on `screen`.
fn in_vice(screen: Screen, ours: [u8; 3]) -> Result<[u8; 3], String> {
    match screen {
        Screen::Eighty => Ok(ours),
        Screen::Forty => {
            let index = VIC_PALETTE.iter().position(|&c| c == ours).ok_or(format!("{ours:02X?} is no VIC colour"))?;
            VICE_VIC[index].ok_or(format!("VICE's value of VIC colour {index} was never read off a screenshot"))
        }
    }
}

/// The cells of `screen` whose ink is below the floor on VICE's palette.
fn illegible(m: &c128_emu::Machine, screen: Screen) -> Vec<String> {
    let mut bad = Vec::new();
    for (y, row) in c128_emu::text::cells(m.bus(), screen).iter().enumerate() {
        for (x, cell) in row.iter().enumerate() {
            if cell.ch == ' ' {
                continue;
            }
            match (in_vice(screen, cell.fg), in_vice(screen, cell.bg)) {
                (Ok(ink), Ok(paper)) => {
                    let ratio = contrast(ink, paper);
                    if ratio < FLOOR {
                        bad.push(format!("({x},{y}) {:?}: {ink:02X?} on {paper:02X?} is {ratio:.2}:1", cell.ch));
                    }
                }
                (Err(e), _) | (_, Err(e)) => bad.push(format!("({x},{y}) {:?}: {e}", cell.ch)),
            }
        }
    }
    bad
}

#[test]
fn the_contrast_measure_is_wcags() {
    assert!((contrast([0, 0, 0], [0xFF, 0xFF, 0xFF]) - 21.0).abs() < 1e-9);
    assert!((contrast([0x80, 0x80, 0x80], [0x80, 0x80, 0x80]) - 1.0).abs() < 1e-9);
    // The figures of issue 14: red on the green table, 1.21 (VIC-IIe) and 1.01 (VDC).
    assert!((contrast(VICE_VIC[10].unwrap(), VICE_VIC[5].unwrap()) - 1.21).abs() < 0.01);
    assert!((contrast(RGBI_PALETTE[9], RGBI_PALETTE[4]) - 1.01).abs() < 0.01);
    // The cards' inks on their white faces (docs/game.md#cards): red 7.99 and light red 4.0 on the
    // VIC-IIe, so red. On the VDC's white paper (c128-rt's `paper`): dark red 7.75 (light
    // red in a black window was 6.68), white on the dark blue cloth 13.29, against 3.11 on
    // dark green; dark yellow, the highlight, 5.24; dark green only 3.11, so wins are black.
    assert!((contrast(VICE_VIC[2].unwrap(), VICE_VIC[1].unwrap()) - 7.99).abs() < 0.01);
    assert!((contrast(VICE_VIC[10].unwrap(), VICE_VIC[1].unwrap()) - 4.0).abs() < 0.01);
    assert!((contrast(RGBI_PALETTE[9], RGBI_PALETTE[0]) - 6.68).abs() < 0.01);
    let white = RGBI_PALETTE[15];
    for (rgbi, ratio) in [(8, 7.75), (2, 13.29), (4, 3.11), (12, 5.24), (1, 7.46), (10, 6.38)] {
        assert!((contrast(RGBI_PALETTE[rgbi], white) - ratio).abs() < 0.01, "RGBI {rgbi} on white");
    }
}

#[test]
fn every_ink_reads_on_vices_palettes_in_both_widths() {
    for eighty in [false, true] {
        let screen = if eighty { Screen::Eighty } else { Screen::Forty };
        let mut g = boot(&built().image, eighty);
        g.fix_seed(built().ticks_routine, 0x0012_3456);
        let check = |g: &crate::built_game::Game, what: &str| {
            let bad = illegible(&g.m, screen);
            assert!(bad.is_empty(), "{what} ({screen:?}):\n{}\n{}", bad.join("\n"), g.text());
        };
        check(&g, "the title");
        g.keys("{RETURN}{RIGHT}{RIGHT}");
        check(&g, "the options");
        g.keys("{RETURN}ADA{RETURN}");
        check(&g, "the betting screen");
        // Coups on each spot, so that wins, losses, pushes and every bead show.
        for bet in ["5P", "1B", "1T", "1P", "1B", "1T", "1P", "1B"] {
            g.keys(&format!("{bet}{{RETURN}}"));
            check(&g, &format!("the coup after {bet}"));
            g.keys(" ");
        }
    }
}
