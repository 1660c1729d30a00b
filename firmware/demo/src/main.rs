//! A C128 program of our own that touches everything a game needs from the machine: it
//! writes to the 40-column (VIC-IIe) and 80-column (VDC) screens directly, waits for a key
//! through GETIN, plays a note on the SID, and writes, reads back and scratches files on
//! drive 8. `emulator-tests/tests/demo.rs` runs it and checks each of those effects.
//!
//! Exit codes: 0 all went well; 10 + n a disk step n failed (see `disk_round_trip`).
#![no_std]
#![no_main]

use c128_rt::{hw, kernal, print};

/// The 40-column screen and its colour RAM in bank 0, where the VIC looks by default.
const VIC_SCREEN: usize = 0x0400;
const VIC_COLOURS: usize = 0xD800;

/// Screen codes for the text we draw ourselves ([`bac_glyphs::screen_code`]); the demo's
/// text has no character the set lacks, so one would show as a space.
fn screen_code(c: u8) -> u8 {
    bac_glyphs::screen_code(c).unwrap_or(b' ')
}

/// Puts screen codes on the 40-column screen at `row`, `col` in `colour`.
fn vic_codes(row: usize, col: usize, codes: impl IntoIterator<Item = u8>, colour: u8) {
    for (i, code) in codes.into_iter().enumerate() {
        let cell = row * 40 + col + i;
        if cell >= 1000 {
            return;
        }
        // SAFETY: screen and colour RAM cells inside the 1,000-cell screen.
        unsafe {
            core::ptr::write_volatile((VIC_SCREEN + cell) as *mut u8, code);
            core::ptr::write_volatile((VIC_COLOURS + cell) as *mut u8, colour);
        }
    }
}

/// Writes `text` on the 40-column screen at `row`, `col` in `colour`.
fn vic_text(row: usize, col: usize, text: &[u8], colour: u8) {
    vic_codes(row, col, text.iter().map(|&c| screen_code(c)), colour);
}

/// Writes `text` on the 80-column screen at `row`, `col` with attribute `attr` (RGBI
/// colour in the low nibble), through the VDC's update address (registers 18 and 19) and
/// its data register (31), which advances by itself.
fn vdc_text(row: u16, col: u16, text: &[u8], attr: u8) {
    let at = |addr: u16| {
        hw::vdc_write(18, (addr >> 8) as u8);
        hw::vdc_write(19, addr as u8);
    };
    let cell = row * 80 + col;
    at(cell);
    for &c in text {
        hw::vdc_write(31, screen_code(c));
    }
    // The attributes start at $0800 by default (register 20/21).
    at(0x0800 + cell);
    for _ in text {
        hw::vdc_write(31, attr);
    }
}

/// Plays middle C on voice 1: volume, envelope, frequency, gate on, a short wait, gate off.
fn play_note() {
    let sid = |reg: u16, value: u8| hw::Reg8::at(0xD400 + reg).write(value);
    sid(0x18, 0x0F);
    sid(0x05, 0x09);
    sid(0x06, 0x00);
    // Middle C on a PAL machine: 261.6 Hz * 16,777,216 / 985,248 = 4455.
    sid(0x00, (4455 & 0xFF) as u8);
    sid(0x01, (4455 >> 8) as u8);
    sid(0x04, 0x21);
    for _ in 0..2000u16 {
        core::hint::black_box(());
    }
    sid(0x04, 0x20);
}

const SAVED: &[u8] = b"HELLO FROM RUST\r";

/// Opens `name` on drive 8 as logical file `file` with secondary address `secondary`.
fn open(file: u8, secondary: u8, name: &[u8]) -> Result<(), u8> {
    kernal::setbnk(0, 0);
    kernal::setlfs(file, 8, secondary);
    kernal::setnam(name);
    kernal::open()
}

/// Writes a SEQ file, reads it back and compares, then writes a second file and scratches
/// it through the command channel. The error is the step that failed.
fn disk_round_trip() -> Result<(), u8> {
    open(2, 2, b"@0:DEMO FILE,S,W").map_err(|_| 1)?;
    kernal::chkout(2).map_err(|_| 2)?;
    for &b in SAVED {
        kernal::chrout(b);
    }
    kernal::clrchn();
    kernal::close(2);

    open(2, 2, b"DEMO FILE,S,R").map_err(|_| 3)?;
    kernal::chkin(2).map_err(|_| 4)?;
    let mut read = [0u8; 32];
    let mut n = 0;
    while n < read.len() {
        read[n] = kernal::chrin();
        n += 1;
        if kernal::readst() & 0x40 != 0 {
            break;
        }
    }
    kernal::clrchn();
    kernal::close(2);
    if &read[..n] != SAVED {
        return Err(5);
    }

    open(3, 3, b"@0:SCRATCH ME,S,W").map_err(|_| 6)?;
    kernal::chkout(3).map_err(|_| 7)?;
    kernal::chrout(b'X');
    kernal::clrchn();
    kernal::close(3);
    open(15, 15, b"S0:SCRATCH ME").map_err(|_| 8)?;
    kernal::close(15);
    Ok(())
}

/// Blanks both screens: spaces in every cell (the VDC's with its block fill, register 30
/// counting the cells written after the first).
fn clear_screens() {
    vic_codes(0, 0, core::iter::repeat_n(0x20, 1000), 1);
    hw::vdc_write(18, 0);
    hw::vdc_write(19, 0);
    hw::vdc_write(24, hw::vdc_read(24) & 0x7F);
    hw::vdc_write(31, 0x20);
    for _ in 0..7 {
        hw::vdc_write(30, 0xFF);
    }
    hw::vdc_write(30, 0xCF);
}

/// Draws both screens, waits for a key, plays a note, exercises the disk.
#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    clear_screens();
    hw::VIC_BORDER.write(6);
    hw::VIC_BACKGROUND.write(0);
    vic_text(0, 0, b"BAC128 DEMO: 40 COLUMNS", 1);
    // The four suits of the upper-case character set: spade, heart, club, diamond.
    vic_codes(2, 0, [0x41, 0x20, 0x53, 0x20, 0x58, 0x20, 0x5A], 2);
    vdc_text(0, 0, b"BAC128 DEMO: 80 COLUMNS", 0x0F);
    vdc_text(2, 0, b"RED", 0x08);
    vdc_text(2, 4, b"GREEN", 0x04);
    vdc_text(2, 10, b"BLUE", 0x02);

    kernal::plot_set(6, 0);
    print(b"PRESS A KEY\r");
    let key = loop {
        let k = kernal::getin();
        if k != 0 {
            break k;
        }
    };
    vic_text(4, 0, b"KEY:", 7);
    vic_text(4, 5, &[key], 7);
    vdc_text(4, 0, b"KEY:", 0x0E);
    vdc_text(4, 5, &[key], 0x0E);

    play_note();
    match disk_round_trip() {
        Ok(()) => {
            print(b"DISK OK\r");
            0
        }
        Err(step) => {
            print(b"DISK FAILED\r");
            10 + step
        }
    }
}
