//! Drives every platform driver of `c128-rt` the way the game does, with interrupts off,
//! and reports through CHROUT (the 40-column editor screen at $0400, which is not shown)
//! so that `emulator-tests/tests/platform.rs` can check each step:
//!
//! 1. draws on the 40-column screen, then on the 80-column one (text, the suits, a card
//!    frame, a card back, every glyph), times a full 80 x 25 redraw, and prints `DRAWN`;
//! 2. echoes each key [`keyboard::poll`] reports as `K<code> ` (and `STOP DOWN` while
//!    RUN/STOP is held) until Q, then `KEYS DONE`;
//! 3. plays every effect, ticking it each frame, then `SOUND DONE`;
//! 4. writes, reads, renames and scratches files, printing each result (`OK`, or the
//!    error's short name), then `DISK DONE`;
//! 5. waits for a key, closes the screens and ends with exit code 0.
#![no_std]
#![no_main]

use c128_rt::disk::{self, DiskError};
use c128_rt::screen::{self, Width, colour};
use c128_rt::sound::wave::{NOISE, PULSE, TRIANGLE};
use c128_rt::sound::{self, Effect, Step};
use c128_rt::{frame, hw::Reg8, keyboard, print};

/// Prints `n` in decimal.
fn print_number(n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    print(&digits[i..]);
}

/// A card seen from the front: a rounded frame, the rank top left, the suit in the middle.
fn card(x: u8, y: u8, rank: &[u8], suit: u8, ink: u8) {
    use c128_rt::screen::put;
    put(x, y, 0x55, colour::WHITE);
    screen::fill(x + 1, y, 3, 1, 0x40, colour::WHITE);
    put(x + 4, y, 0x49, colour::WHITE);
    screen::fill(x, y + 1, 1, 3, 0x5D, colour::WHITE);
    screen::fill(x + 4, y + 1, 1, 3, 0x5D, colour::WHITE);
    put(x, y + 4, 0x4A, colour::WHITE);
    screen::fill(x + 1, y + 4, 3, 1, 0x40, colour::WHITE);
    put(x + 4, y + 4, 0x4B, colour::WHITE);
    screen::put_text(x + 1, y + 1, rank, ink);
    put(x + 2, y + 2, suit, ink);
}

/// Everything a table shows, on the screen `open` selected.
fn draw(title: &[u8]) {
    screen::put_text(0, 0, title, colour::YELLOW);
    screen::put_text(0, 1, b"Lower case shows as CAPITALS: 0123456789 @[\\]^_ !\"#$%&'()*+,-./:;<=>?", colour::WHITE);
    let suits = [(0x41, colour::WHITE), (0x53, colour::LIGHT_RED), (0x58, colour::WHITE), (0x5A, colour::LIGHT_RED)];
    for (i, &(code, ink)) in suits.iter().enumerate() {
        screen::put(2 * i as u8, 3, code, ink);
    }
    card(10, 3, b"10", 0x53, colour::LIGHT_RED);
    card(16, 3, b"K", 0x41, colour::BLACK);
    // A card back: checkerboard inside a frame.
    card(22, 3, b"", 0x66, colour::BLUE);
    screen::fill(23, 4, 3, 3, 0x66, colour::BLUE);
    // Every glyph, 32 to a row, normal then reverse.
    for code in 0..=255u8 {
        screen::put(code % 32, 10 + code / 32, code, colour::LIGHT_GREEN);
    }
    // Clipping: none of these may crash or wrap.
    screen::put_text(screen::columns() - 4, 20, b"CLIPPED TEXT", colour::CYAN);
    screen::put(200, 3, 0x41, colour::RED);
    screen::put(0, 25, 0x41, colour::RED);
    screen::fill(screen::columns() - 2, 23, 10, 10, 0xA0, colour::ORANGE);
}

/// Cycles of a full redraw of 80 x 25 (text runs and fills), measured by CIA 1 timer A.
fn redraw_cycles() -> u32 {
    let timer_lo = Reg8::at(0xDC04);
    let timer_hi = Reg8::at(0xDC05);
    let control = Reg8::at(0xDC0E);
    // Frames counted too, since the timer's 16 bits wrap.
    control.write(0x00);
    timer_lo.write(0xFF);
    timer_hi.write(0xFF);
    control.write(0x11);
    let mut wraps = 0u32;
    let mut last = 0xFFFFu16;
    let mut sample = || {
        let now = u16::from(timer_lo.read()) | u16::from(timer_hi.read()) << 8;
        if now > last {
            wraps += 1;
        }
        last = now;
    };
    let line = [b'X'; 80];
    for row in 0..25u8 {
        screen::put_text(0, row, &line, colour::WHITE);
        sample();
    }
    screen::fill(0, 0, 80, 25, 0x20, colour::WHITE);
    sample();
    let end = last;
    control.write(0x00);
    wraps * 0x1_0000 + u32::from(0xFFFF - end)
}

/// Echoes keys until Q (or about a minute without one).
fn echo_keys() {
    let mut idle = 0u16;
    while idle < 3000 {
        frame::wait();
        let Some(key) = keyboard::poll() else {
            idle += 1;
            continue;
        };
        idle = 0;
        print(b"K");
        print_number(u32::from(key));
        print(b" ");
        if key == 3 && keyboard::stop_down() {
            print(b"STOP DOWN ");
        }
        if key == b'Q' {
            break;
        }
    }
    print(b"\rKEYS DONE\r");
}

/// Effects of every shape the player steps through: one note, a run of notes, notes with
/// rests between them, and none.
static ONE_NOTE: Effect = Effect { steps: &[Step::note(0x6000, NOISE, 2)], attack_decay: 0x00, sustain_release: 0x84 };
static RUN: Effect = Effect {
    steps: &[Step::note(8911, PULSE, 4), Step::note(11227, PULSE, 4), Step::note(13351, TRIANGLE, 10)],
    attack_decay: 0x08,
    sustain_release: 0xA6,
};
static WITH_RESTS: Effect = Effect {
    steps: &[Step::note(0x3000, NOISE, 2), Step::rest(2), Step::note(0x3800, NOISE, 2), Step::rest(1)],
    attack_decay: 0x00,
    sustain_release: 0x83,
};
static NOTHING: Effect = Effect { steps: &[], attack_decay: 0x00, sustain_release: 0x00 };

fn play_all() {
    for effect in [&ONE_NOTE, &RUN, &WITH_RESTS, &NOTHING, &ONE_NOTE] {
        sound::play(effect);
        for _ in 0..45 {
            frame::wait();
            sound::tick();
        }
    }
    sound::silence();
    print(b"SOUND DONE\r");
}

fn report(step: &[u8], result: Result<(), DiskError>) {
    print(step);
    print(b":");
    match result {
        Ok(()) => print(b"OK"),
        Err(DiskError::NotFound) => print(b"NOTFOUND"),
        Err(DiskError::WriteProtected) => print(b"PROTECTED"),
        Err(DiskError::DiskFull) => print(b"FULL"),
        Err(DiskError::NoDevice) => print(b"NODEVICE"),
        Err(DiskError::TooLong) => print(b"TOOLONG"),
        Err(DiskError::Dos(code)) => {
            print(b"DOS");
            print_number(u32::from(code));
        }
    }
    print(b" ");
}

const SAVED: &[u8] = b"BANKROLL 1000000\rRULES PUNTO BANCO\r";

fn disk_steps() {
    let mut buf = [0u8; 64];
    report(b"W", disk::write(b"PLATFORM", SAVED));
    let read = disk::read(b"PLATFORM", &mut buf);
    report(b"R", read.map(|n| if &buf[..n] == SAVED { Ok(()) } else { Err(DiskError::Dos(255)) }).and_then(|r| r));
    report(b"W2", disk::write(b"PLATFORM", SAVED));
    report(b"SHORT", disk::read(b"PLATFORM", &mut buf[..8]).map(|_| ()));
    report(b"MV", disk::rename(b"PLATFORM", b"RENAMED"));
    report(b"R2", disk::read(b"PLATFORM", &mut buf).map(|_| ()));
    report(b"R3", disk::read(b"RENAMED", &mut buf).map(|_| ()));
    report(b"RM", disk::scratch(b"RENAMED"));
    report(b"RM2", disk::scratch(b"RENAMED"));
    report(b"NAME", disk::write(b"A NAME OF 17 CHAR", SAVED));
    // No drive 9.
    let fa = Reg8::at(0x00BA);
    fa.write(9);
    report(b"DEV9", disk::read(b"PLATFORM", &mut buf).map(|_| ()));
    fa.write(8);
    print(b"\rDISK DONE\r");
}

/// The VIC-IIe's interrupt mask and latch, and CIA 1's interrupt control.
const VIC_IRQ_MASK: Reg8 = Reg8::at(0xD01A);
const VIC_IRQ_LATCH: Reg8 = Reg8::at(0xD019);
const CIA1_ICR: Reg8 = Reg8::at(0xDC0D);

/// Runs with no interrupt, as the game does: the sources are masked (the translator gives
/// the AVR's interrupt flag no meaning, so `cli` would not do it). Returns the VIC's mask
/// for [`unmask_interrupts`].
fn mask_interrupts() -> u8 {
    let mask = VIC_IRQ_MASK.read() & 0x0F;
    VIC_IRQ_MASK.write(0);
    VIC_IRQ_LATCH.write(0x0F);
    CIA1_ICR.write(0x7F);
    mask
}

fn unmask_interrupts(mask: u8) {
    VIC_IRQ_LATCH.write(0x0F);
    VIC_IRQ_MASK.write(mask);
}

/// Runs the steps in order.
#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    let irq_mask = mask_interrupts();
    print(if frame::is_pal() { b"PAL\r" } else { b"NTSC\r" });
    print(match screen::key_40_80() {
        Width::Forty => b"KEY 40\r",
        Width::Eighty => b"KEY 80\r",
    });
    screen::open(Width::Eighty, colour::BLACK, colour::BLACK);
    print(b"REDRAW ");
    print_number(redraw_cycles());
    print(b"\r");
    screen::open(Width::Forty, colour::GREEN, colour::BLACK);
    draw(b"BAC128 PLATFORM: 40 COLUMNS");
    screen::open(Width::Eighty, colour::GREEN, colour::BLACK);
    draw(b"BAC128 PLATFORM: 80 COLUMNS");
    print(b"DRAWN\r");
    echo_keys();
    play_all();
    disk_steps();
    // The test looks at the screens, then presses a key to go on.
    while keyboard::poll().is_none() {
        frame::wait();
    }
    screen::close();
    unmask_interrupts(irq_mask);
    print(b"CLOSED\r");
    0
}
