//! The keyboard without the KERNAL: the whole key matrix scanned directly (CIA 1's ports
//! for the 64 keys of the C64 matrix, VIC-IIe $D02F for the C128's 24 extra keys), so it
//! works with interrupts off and no keyboard buffer.
//!
//! A program built with `[package.metadata.c128] key_buffer = true` runs with interrupts
//! on, and the runtime's frame interrupt reads the matrix into a ring once a frame
//! (avr2mos's `mmap`, `KEYS_*`): [`poll`] then takes the readings from the ring in order,
//! so a key pressed and let go while the program was drawing still counts. Without it,
//! [`poll`] reads the matrix itself.
//!
//! [`poll`] reports each key once when it goes down (edge detection), however often it is
//! called; a held key does not repeat. Keys that go down together come out one per call.
//! With more than two keys down (besides SHIFT, CTRL, C= and ALT) the matrix can show
//! phantom keys, so no new key is reported until fewer are down: several keys never
//! produce a key that was not pressed.

use crate::global::Global;
use crate::hw::Reg8;

/// CIA 1 port A: the columns (write 0 to select).
const PORT_A: Reg8 = Reg8::at(c128_map::io::CIA1_PORT_A);
/// CIA 1 port B: the rows (0 = a key down in a selected column).
const PORT_B: Reg8 = Reg8::at(c128_map::io::CIA1_PORT_B);
const DDR_A: Reg8 = Reg8::at(c128_map::io::CIA1_DDR_A);
const DDR_B: Reg8 = Reg8::at(c128_map::io::CIA1_DDR_B);
/// The VIC-IIe's extra keyboard lines K0-K2 (write 0 to select).
const EXTRA_LINES: Reg8 = Reg8::at(c128_map::io::KEY_EXTRA_LINES);

/// Lines of the matrix: 8 columns of CIA 1, then the 3 extra lines.
const LINES: usize = 11;

/// Key codes by line and row (line * 8 + row); 0 for a key that gives nothing.
#[rustfmt::skip]
const PLAIN: [u8; LINES * 8] = [
    // DEL, RETURN, right, F7, F1, F3, F5, down
    20, 13, 29, 136, 133, 134, 135, 17,
    // 3 W A 4 Z S E (left SHIFT)
    b'3', b'W', b'A', b'4', b'Z', b'S', b'E', 0,
    b'5', b'R', b'D', b'6', b'C', b'F', b'T', b'X',
    b'7', b'Y', b'G', b'8', b'B', b'H', b'U', b'V',
    b'9', b'I', b'J', b'0', b'M', b'K', b'O', b'N',
    b'+', b'P', b'L', b'-', b'.', b':', b'@', b',',
    // pound, *, ;, HOME, (right SHIFT), =, up arrow, /
    92, b'*', b';', 19, 0, b'=', 94, b'/',
    // 1, left arrow, (CTRL), 2, space, (C=), Q, STOP
    b'1', 95, 0, b'2', b' ', 0, b'Q', 3,
    // HELP, keypad 8 5, TAB, keypad 2 4 7 1
    132, b'8', b'5', 9, b'2', b'4', b'7', b'1',
    // ESC, keypad + -, LINE FEED, ENTER, keypad 6 9 3
    27, b'+', b'-', 10, 13, b'6', b'9', b'3',
    // (ALT), keypad 0 ., the four arrow keys (up, down, left, right), (NO SCROLL)
    0, b'0', b'.', 145, 17, 157, 29, 0,
];

/// Key codes with SHIFT, where they differ from [`PLAIN`]: 0 means "as without SHIFT"
/// (letters stay capitals; keys whose shifted code is a graphics character keep their
/// plain code).
#[rustfmt::skip]
const SHIFTED: [u8; LINES * 8] = [
    // INST, RETURN, left, F8, F2, F4, F6, up
    148, 0, 157, 140, 137, 138, 139, 145,
    b'#', 0, 0, b'$', 0, 0, 0, 0,
    b'%', 0, 0, b'&', 0, 0, 0, 0,
    b'\'', 0, 0, b'(', 0, 0, 0, 0,
    b')', 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, b'>', b'[', 0, b'<',
    // CLR on HOME
    0, 0, b']', 147, 0, 0, 0, b'?',
    b'!', 0, 0, b'"', 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0,
];

/// SHIFT, CTRL, C= and ALT, by line: rows that are modifiers, not keys.
const MODIFIERS: [u8; LINES] = [0, 0x80, 0, 0, 0, 0, 0x10, 0x24, 0, 0, 0x01];
/// Where the two SHIFT keys are: (line, row bit).
const SHIFT_LEFT: (usize, u8) = (1, 0x80);
const SHIFT_RIGHT: (usize, u8) = (6, 0x10);

/// The most keys (besides modifiers) that may be down for a new one to count.
const MAX_KEYS_DOWN: u8 = 2;

/// Keys already reported (or down when the program started), per line.
static SEEN: Global<[u8; LINES]> = Global::new([0xFF; LINES]);

/// Reads which rows are down on every line, then leaves both port A and $D02F idle.
fn scan() -> [u8; LINES] {
    DDR_A.write(0xFF);
    DDR_B.write(0x00);
    let mut down = [0u8; LINES];
    for (line, rows) in down.iter_mut().enumerate() {
        if line < 8 {
            PORT_A.write(!(1u8 << line));
        } else {
            PORT_A.write(0xFF);
            EXTRA_LINES.write(!(1u8 << (line - 8)));
        }
        *rows = !PORT_B.read();
    }
    PORT_A.write(0xFF);
    EXTRA_LINES.write(0xFF);
    down
}

/// The runtime's key buffer, where `key_buffer = true` keeps one (its layout:
/// `c128_map::key_buffer`).
mod buffer {
    use super::LINES;
    use crate::hw::Reg8;
    use c128_map::key_buffer::{MAGIC_ON, NOW, RING, SLOT};

    const MAGIC: Reg8 = Reg8::at(c128_map::key_buffer::MAGIC);
    const HEAD: Reg8 = Reg8::at(c128_map::key_buffer::HEAD);
    const TAIL: Reg8 = Reg8::at(c128_map::key_buffer::TAIL);

    /// Whether the runtime keeps the buffer.
    pub fn kept() -> bool {
        MAGIC.read() == MAGIC_ON
    }

    /// The oldest reading not yet taken, left in the ring.
    pub fn peek() -> Option<[u8; LINES]> {
        let tail = TAIL.read();
        if tail == HEAD.read() {
            return None;
        }
        let mut down = [0u8; LINES];
        for (i, rows) in down.iter_mut().enumerate() {
            *rows = Reg8::at(RING + u16::from(tail) + i as u16).read();
        }
        Some(down)
    }

    /// The handler's newest reading: the keys down now, full ring or not. The interrupt may
    /// rewrite it between two of these reads, so a line may come from the frame before
    /// the others; [`super::poll`] only forgets keys by it, and a key held through both
    /// frames is down in either.
    pub fn now() -> [u8; LINES] {
        let mut down = [0u8; LINES];
        for (i, rows) in down.iter_mut().enumerate() {
            *rows = Reg8::at(NOW + i as u16).read();
        }
        down
    }

    /// Whether row `bit` of `line` is down now or in a reading waiting in the ring; if so,
    /// sets it down in every waiting reading, so that taking them shows that key held from
    /// the first to the last.
    pub fn mark_if_down(line: usize, bit: u8) -> bool {
        let (tail, head) = (TAIL.read(), HEAD.read());
        let byte = |at: u8| Reg8::at(RING + u16::from(at) + line as u16);
        let mut down = Reg8::at(NOW + line as u16).read() & bit != 0;
        let mut at = tail;
        while at != head {
            down |= byte(at).read() & bit != 0;
            at = at.wrapping_add(SLOT);
        }
        at = tail;
        while down && at != head {
            byte(at).write(byte(at).read() | bit);
            at = at.wrapping_add(SLOT);
        }
        down
    }

    /// Takes the oldest reading out of the ring.
    pub fn take() {
        // The ring is one page: the offset wraps by itself.
        TAIL.write(TAIL.read().wrapping_add(SLOT));
    }
}

/// Whether any key at all is down: every line selected at once, one read of the rows.
fn any_down() -> bool {
    DDR_A.write(0xFF);
    DDR_B.write(0x00);
    PORT_A.write(0x00);
    EXTRA_LINES.write(0xF8);
    let rows = PORT_B.read();
    PORT_A.write(0xFF);
    EXTRA_LINES.write(0xFF);
    rows != 0xFF
}

/// A key that went down since the last call, as PETSCII (see the module docs for which
/// keys give what); `None` if there is none.
///
/// With no key down (nearly every call) it costs one read of the matrix instead of a scan
/// of all 88 keys, which takes most of a frame in translated code.
pub fn poll() -> Option<u8> {
    if buffer::kept() {
        // A reading stays in the ring until it gives no more keys: two keys that went
        // down in the same frame come out one per call, as below.
        while let Some(down) = buffer::peek() {
            if let Some(code) = new_key(down) {
                return Some(code);
            }
            buffer::take();
        }
        // Nothing new: keys let go since are forgotten, as a direct read with no key down
        // does below (keys held when the program started count as reported until then).
        let mut seen = SEEN.get();
        if seen.iter().any(|&rows| rows != 0) {
            for (rows, now) in seen.iter_mut().zip(buffer::now()) {
                *rows &= now;
            }
            SEEN.set(seen);
        }
        return None;
    }
    if !any_down() {
        SEEN.set([0; LINES]);
        return None;
    }
    new_key(scan())
}

/// The first key down in `down` not reported yet (PETSCII), and it counts as reported;
/// keys let go may be reported again.
fn new_key(down: [u8; LINES]) -> Option<u8> {
    let mut seen = SEEN.get();
    let mut keys_down = 0u8;
    let mut new = None;
    for line in 0..LINES {
        // A key let go may be reported again when it next goes down.
        seen[line] &= down[line];
        let keys = down[line] & !MODIFIERS[line];
        for row in 0..8u8 {
            let bit = 1u8 << row;
            if keys & bit != 0 {
                keys_down += 1;
                if new.is_none() && seen[line] & bit == 0 {
                    new = Some((line, row));
                }
            }
        }
    }
    let Some((line, row)) = new else {
        SEEN.set(seen);
        return None;
    };
    if keys_down > MAX_KEYS_DOWN {
        SEEN.set(seen);
        return None;
    }
    seen[line] |= 1 << row;
    SEEN.set(seen);
    let index = line * 8 + usize::from(row);
    let shift = down[SHIFT_LEFT.0] & SHIFT_LEFT.1 != 0 || down[SHIFT_RIGHT.0] & SHIFT_RIGHT.1 != 0;
    let code = match SHIFTED[index] {
        s if shift && s != 0 => s,
        _ => PLAIN[index],
    };
    (code != 0).then_some(code)
}

/// Where SPACE is in the matrix: (line, row bit).
const SPACE: (usize, u8) = (7, 0x10);

/// Whether SPACE went down since the last call or is down now, taking those presses:
/// [`poll`] will not report them, and every other key stays for it, in order. For a game
/// that lets a player hurry it along with SPACE while it reads no other key.
///
/// With the key buffer, the readings still in the ring are marked with SPACE down from
/// the first one on (so [`poll`], going through them in order, sees SPACE held, never
/// going down), and SPACE counts as reported until a reading shows it up. The interrupt
/// writes only the slot at the ring's head, never one waiting to be taken, so marking
/// them needs no pause of it. SPACE down now is read from the interrupt's newest reading,
/// which it rewrites every frame even when the ring is full: a deal takes no key, so the
/// betting's readings may fill the ring, and a held SPACE must not wait for room in it.
pub fn take_space() -> bool {
    let (line, bit) = SPACE;
    let down = if buffer::kept() { buffer::mark_if_down(line, bit) } else { space_down() };
    if down {
        let mut seen = SEEN.get();
        seen[line] |= bit;
        SEEN.set(seen);
    }
    down
}

/// Whether SPACE is down now, read from the matrix.
fn space_down() -> bool {
    DDR_A.write(0xFF);
    DDR_B.write(0x00);
    PORT_A.write(!(1u8 << SPACE.0));
    let down = PORT_B.read() & SPACE.1 == 0;
    PORT_A.write(0xFF);
    down
}

/// Whether RUN/STOP is held down now.
pub fn stop_down() -> bool {
    DDR_A.write(0xFF);
    DDR_B.write(0x00);
    PORT_A.write(0x7F);
    let down = PORT_B.read() & 0x80 == 0;
    PORT_A.write(0xFF);
    down
}
