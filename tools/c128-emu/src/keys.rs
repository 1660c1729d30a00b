//! The keyboard: the C128's key matrix (with its extra keys on $D02F), the joysticks, and the
//! `--keys` script that types into both the matrix and the KERNAL's keyboard buffer.
//!
//! A script is text with named keys in braces: `LOAD{RETURN}{WAIT 50}{F1}`. Each key is held
//! for [`HOLD_FRAMES`] frames then released for [`GAP_FRAMES`], so matrix-scanning programs see
//! it as a human key press; its PETSCII code is queued for the KERNAL's scan (the frame
//! interrupt or SCNKEY), which moves it into the buffer at $034A as the real KERNAL does.
//! A key held on the matrix directly ([`Keyboard::set_key`]) reaches the KERNAL only as on
//! the real machine: when its scan runs while the key is down ([`Keyboard::scanned_key`]).

use std::collections::VecDeque;

use thiserror::Error;

/// Frames a scripted key stays down.
pub const HOLD_FRAMES: u32 = 2;
/// Frames between scripted keys.
pub const GAP_FRAMES: u32 = 2;

/// A position in the key matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatrixKey {
    /// A key of the C64-compatible matrix: CIA 1 port A column and port B row.
    Main {
        /// Column (port A bit).
        col: u8,
        /// Row (port B bit).
        row: u8,
    },
    /// One of the C128's extra keys: a $D02F line and a port B row.
    Extra {
        /// Line (bit of $D02F, 0..=2).
        line: u8,
        /// Row (port B bit).
        row: u8,
    },
}

const LSHIFT: MatrixKey = MatrixKey::Main { col: 1, row: 7 };

/// The main matrix, by column then row, as key names.
const MAIN: [[&str; 8]; 8] = [
    ["DEL", "RETURN", "RIGHT", "F7", "F1", "F3", "F5", "DOWN"],
    ["3", "W", "A", "4", "Z", "S", "E", "LSHIFT"],
    ["5", "R", "D", "6", "C", "F", "T", "X"],
    ["7", "Y", "G", "8", "B", "H", "U", "V"],
    ["9", "I", "J", "0", "M", "K", "O", "N"],
    ["+", "P", "L", "-", ".", ":", "@", ","],
    ["£", "*", ";", "HOME", "RSHIFT", "=", "↑", "/"],
    ["1", "←", "CTRL", "2", "SPACE", "C=", "Q", "STOP"],
];

/// The C128's extra keys, by $D02F line then row.
const EXTRA: [[&str; 8]; 3] = [
    ["HELP", "KP8", "KP5", "TAB", "KP2", "KP4", "KP7", "KP1"],
    ["ESC", "KP+", "KP-", "LINEFEED", "ENTER", "KP6", "KP9", "KP3"],
    ["ALT", "KP0", "KP.", "UP-ARROW", "DOWN-ARROW", "LEFT-ARROW", "RIGHT-ARROW", "NOSCROLL"],
];

/// The keys that change what another key gives and give nothing themselves.
const MODIFIERS: [&str; 6] = ["LSHIFT", "RSHIFT", "CTRL", "C=", "ALT", "NOSCROLL"];

/// LSHIFT and RSHIFT.
const SHIFTS: [MatrixKey; 2] = [LSHIFT, MatrixKey::Main { col: 6, row: 4 }];

/// The name of the key at a matrix position.
fn name_of(key: MatrixKey) -> &'static str {
    match key {
        MatrixKey::Main { col, row } => MAIN[usize::from(col)][usize::from(row)],
        MatrixKey::Extra { line, row } => EXTRA[usize::from(line)][usize::from(row)],
    }
}

/// The code the KERNAL's scan decodes a key to, with SHIFT held or not: the named key's
/// (`RETURN`, `F5`, `INST`...) or the character's it types; a shifted key that types
/// nothing of its own gives its plain code. `None` for a modifier.
fn code_of(key: MatrixKey, shifted: bool) -> Option<u8> {
    let name = name_of(key);
    if MODIFIERS.contains(&name) {
        return None;
    }
    let with_shift = |shift: bool| {
        let named = NAMED.iter().find(|&&(_, k, s, _)| k == name && s == shift).and_then(|&(.., code)| code);
        named.or_else(|| {
            let keys = if shift { vec![LSHIFT, key] } else { vec![key] };
            (' '..='~').filter_map(char_press).find(|p| p.keys == keys).and_then(|p| p.petscii)
        })
    };
    if shifted { with_shift(true).or_else(|| with_shift(false)) } else { with_shift(false) }
}

fn find(name: &str) -> Option<MatrixKey> {
    for (col, keys) in MAIN.iter().enumerate() {
        if let Some(row) = keys.iter().position(|k| *k == name) {
            return Some(MatrixKey::Main { col: col as u8, row: row as u8 });
        }
    }
    for (line, keys) in EXTRA.iter().enumerate() {
        if let Some(row) = keys.iter().position(|k| *k == name) {
            return Some(MatrixKey::Extra { line: line as u8, row: row as u8 });
        }
    }
    None
}

/// One key press: the matrix keys held down (with SHIFT if needed) and the PETSCII code the
/// KERNAL would produce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyPress {
    /// Matrix positions held for the press.
    pub keys: Vec<MatrixKey>,
    /// The code GETIN returns for it, if any.
    pub petscii: Option<u8>,
}

/// One step of a key script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyEvent {
    /// Press and release a key.
    Press(KeyPress),
    /// Let this many frames pass.
    Wait(u32),
}

/// A key script that cannot be understood.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum KeysError {
    /// A `{NAME}` that names no key.
    #[error("unknown key name {{{name}}} at character {offset} of the key script")]
    UnknownKey {
        /// The name as written.
        name: String,
        /// Character offset of the opening brace.
        offset: usize,
    },
    /// A `{` without its `}`.
    #[error("unclosed '{{' at character {offset} of the key script")]
    Unclosed {
        /// Character offset of the opening brace.
        offset: usize,
    },
    /// A `{WAIT n}` whose count is not a number.
    #[error("bad frame count in {{WAIT {count}}} at character {offset} of the key script")]
    BadWait {
        /// The count as written.
        count: String,
        /// Character offset of the opening brace.
        offset: usize,
    },
    /// A character the C128 keyboard cannot type.
    #[error("character {ch:?} at character {offset} of the key script has no C128 key")]
    UntypableChar {
        /// The character.
        ch: char,
        /// Its offset.
        offset: usize,
    },
}

/// Named keys: name, matrix key, shifted, PETSCII.
const NAMED: &[(&str, &str, bool, Option<u8>)] = &[
    ("RETURN", "RETURN", false, Some(0x0D)),
    ("SPACE", "SPACE", false, Some(0x20)),
    ("DEL", "DEL", false, Some(0x14)),
    ("INST", "DEL", true, Some(0x94)),
    ("HOME", "HOME", false, Some(0x13)),
    ("CLR", "HOME", true, Some(0x93)),
    ("DOWN", "DOWN", false, Some(0x11)),
    ("UP", "DOWN", true, Some(0x91)),
    ("RIGHT", "RIGHT", false, Some(0x1D)),
    ("LEFT", "RIGHT", true, Some(0x9D)),
    ("F1", "F1", false, Some(0x85)),
    ("F3", "F3", false, Some(0x86)),
    ("F5", "F5", false, Some(0x87)),
    ("F7", "F7", false, Some(0x88)),
    ("F2", "F1", true, Some(0x89)),
    ("F4", "F3", true, Some(0x8A)),
    ("F6", "F5", true, Some(0x8B)),
    ("F8", "F7", true, Some(0x8C)),
    ("STOP", "STOP", false, Some(0x03)),
    ("RUN/STOP", "STOP", false, Some(0x03)),
    ("RUNSTOP", "STOP", false, Some(0x03)),
    ("ESC", "ESC", false, Some(0x1B)),
    ("TAB", "TAB", false, Some(0x09)),
    ("HELP", "HELP", false, Some(0x84)),
    ("LINEFEED", "LINEFEED", false, Some(0x0A)),
    ("ENTER", "ENTER", false, Some(0x0D)),
    ("ALT", "ALT", false, None),
    ("NOSCROLL", "NOSCROLL", false, None),
    ("CTRL", "CTRL", false, None),
    ("C=", "C=", false, None),
    ("SHIFT", "LSHIFT", false, None),
    ("POUND", "£", false, Some(0x5C)),
    // The C128's own keys: the four arrow keys above the keypad and the keypad.
    ("UP-ARROW", "UP-ARROW", false, Some(0x91)),
    ("DOWN-ARROW", "DOWN-ARROW", false, Some(0x11)),
    ("LEFT-ARROW", "LEFT-ARROW", false, Some(0x9D)),
    ("RIGHT-ARROW", "RIGHT-ARROW", false, Some(0x1D)),
    ("KP0", "KP0", false, Some(b'0')),
    ("KP1", "KP1", false, Some(b'1')),
    ("KP2", "KP2", false, Some(b'2')),
    ("KP3", "KP3", false, Some(b'3')),
    ("KP4", "KP4", false, Some(b'4')),
    ("KP5", "KP5", false, Some(b'5')),
    ("KP6", "KP6", false, Some(b'6')),
    ("KP7", "KP7", false, Some(b'7')),
    ("KP8", "KP8", false, Some(b'8')),
    ("KP9", "KP9", false, Some(b'9')),
    ("KP+", "KP+", false, Some(b'+')),
    ("KP-", "KP-", false, Some(b'-')),
    ("KP.", "KP.", false, Some(b'.')),
];

fn press(matrix_name: &str, shifted: bool, petscii: Option<u8>) -> KeyPress {
    let mut keys = Vec::with_capacity(2);
    if shifted {
        keys.push(LSHIFT);
    }
    keys.extend(find(matrix_name));
    KeyPress { keys, petscii }
}

/// The key press that types `c`, if the keyboard has one.
pub fn char_press(c: char) -> Option<KeyPress> {
    let upper = c.to_ascii_uppercase();
    let shifted_of = |base: &str| Some((base.to_string(), true));
    let (name, shifted) = match upper {
        'A'..='Z' | '0'..='9' | '+' | '-' | '.' | ':' | '@' | ',' | '*' | ';' | '=' | '/' => (upper.to_string(), false),
        ' ' => ("SPACE".to_string(), false),
        '\n' => ("RETURN".to_string(), false),
        '!' => shifted_of("1")?,
        '"' => shifted_of("2")?,
        '#' => shifted_of("3")?,
        '$' => shifted_of("4")?,
        '%' => shifted_of("5")?,
        '&' => shifted_of("6")?,
        '\'' => shifted_of("7")?,
        '(' => shifted_of("8")?,
        ')' => shifted_of("9")?,
        '[' => shifted_of(":")?,
        ']' => shifted_of(";")?,
        '<' => shifted_of(",")?,
        '>' => shifted_of(".")?,
        '?' => shifted_of("/")?,
        _ => return None,
    };
    let petscii = crate::petscii::from_ascii(c)?;
    Some(press(&name, shifted, Some(petscii)))
}

/// The press for a named key as the script writes it (`RETURN`, `F1`, `DOWN`, ...), for
/// interactive front ends that map their own keys.
pub fn named(name: &str) -> Option<KeyPress> {
    let upper = name.to_ascii_uppercase();
    NAMED.iter().find(|(n, ..)| *n == upper).map(|&(_, key, shifted, petscii)| press(key, shifted, petscii))
}

/// Parses a key script.
pub fn parse_keys(text: &str) -> Result<Vec<KeyEvent>, KeysError> {
    let mut events = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '{' {
            let close = chars[i..].iter().position(|&ch| ch == '}').ok_or(KeysError::Unclosed { offset: i })?;
            let inner: String = chars[i + 1..i + close].iter().collect();
            let inner = inner.trim().to_ascii_uppercase();
            if let Some(count) = inner.strip_prefix("WAIT") {
                let count = count.trim();
                let frames =
                    count.parse::<u32>().map_err(|_| KeysError::BadWait { count: count.to_string(), offset: i })?;
                events.push(KeyEvent::Wait(frames));
            } else if let Some(&(_, key, shifted, petscii)) = NAMED.iter().find(|(n, ..)| *n == inner) {
                events.push(KeyEvent::Press(press(key, shifted, petscii)));
            } else {
                return Err(KeysError::UnknownKey { name: inner, offset: i });
            }
            i += close + 1;
        } else {
            let p = char_press(c).ok_or(KeysError::UntypableChar { ch: c, offset: i })?;
            events.push(KeyEvent::Press(p));
            i += 1;
        }
    }
    Ok(events)
}

/// Joystick directions and fire, as bits of the port (set = pressed).
pub mod joy {
    /// Up.
    pub const UP: u8 = 0x01;
    /// Down.
    pub const DOWN: u8 = 0x02;
    /// Left.
    pub const LEFT: u8 = 0x04;
    /// Right.
    pub const RIGHT: u8 = 0x08;
    /// Fire.
    pub const FIRE: u8 = 0x10;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Idle,
    Holding(u32),
    Gap(u32),
    Waiting(u32),
}

/// The keyboard state: keys down, joysticks, and the script being typed.
#[derive(Debug, Clone)]
pub struct Keyboard {
    /// Rows held down, per main matrix column (bit set = down).
    pub main: [u8; 8],
    /// Rows held down, per extra $D02F line.
    pub extra: [u8; 3],
    /// Joystick ports 1 and 2 (bits from [`joy`], set = pressed).
    pub joystick: [u8; 2],
    script: VecDeque<KeyEvent>,
    held: Vec<MatrixKey>,
    phase: Phase,
    /// Codes waiting for the KERNAL's scan to put them in its buffer.
    pub kernal_queue: VecDeque<u8>,
}

impl Default for Keyboard {
    fn default() -> Self {
        Keyboard {
            main: [0; 8],
            extra: [0; 3],
            joystick: [0; 2],
            script: VecDeque::new(),
            held: Vec::new(),
            phase: Phase::Idle,
            kernal_queue: VecDeque::new(),
        }
    }
}

impl Keyboard {
    /// Appends events to the script.
    pub fn type_events(&mut self, events: impl IntoIterator<Item = KeyEvent>) {
        self.script.extend(events);
    }

    /// Whether the script has been typed out completely.
    pub fn script_done(&self) -> bool {
        self.script.is_empty() && self.phase == Phase::Idle
    }

    fn set(&mut self, key: MatrixKey, down: bool) {
        let (slot, bit) = match key {
            MatrixKey::Main { col, row } => (&mut self.main[usize::from(col)], row),
            MatrixKey::Extra { line, row } => (&mut self.extra[usize::from(line)], row),
        };
        if down {
            *slot |= 1 << bit;
        } else {
            *slot &= !(1 << bit);
        }
    }

    /// Types one key now, ahead of the script (for interactive front ends): it is held for
    /// [`HOLD_FRAMES`] and its code queued for the KERNAL.
    pub fn press_now(&mut self, press: KeyPress) {
        self.script.push_front(KeyEvent::Press(press));
    }

    /// Presses or releases a key directly (for interactive front ends).
    pub fn set_key(&mut self, key: MatrixKey, down: bool) {
        self.set(key, down);
    }

    /// Advances the script by one frame.
    pub fn frame(&mut self) {
        self.phase = match self.phase {
            Phase::Holding(1) => {
                for k in std::mem::take(&mut self.held) {
                    self.set(k, false);
                }
                Phase::Gap(GAP_FRAMES)
            }
            Phase::Holding(n) => Phase::Holding(n - 1),
            Phase::Gap(n) | Phase::Waiting(n) if n > 1 => Phase::Waiting(n - 1),
            _ => Phase::Idle,
        };
        if self.phase != Phase::Idle {
            return;
        }
        match self.script.pop_front() {
            Some(KeyEvent::Press(p)) => {
                for &k in &p.keys {
                    self.set(k, true);
                }
                self.held = p.keys;
                self.kernal_queue.extend(p.petscii);
                self.phase = Phase::Holding(HOLD_FRAMES);
            }
            Some(KeyEvent::Wait(n)) if n > 0 => self.phase = Phase::Waiting(n),
            _ => {}
        }
    }

    /// The key the KERNAL's keyboard scan finds down among the keys held directly
    /// ([`Keyboard::set_key`]: a front end's or a test's hand on the matrix), as its scan
    /// index (column * 8 + row, then 64 + line * 8 + row for the C128's extra keys) and the
    /// code it decodes to with SHIFT as held; the first in scan order if several are.
    /// Keys the script holds are left out: their codes reach the KERNAL through
    /// [`Keyboard::kernal_queue`].
    pub fn scanned_key(&self) -> Option<(u8, Option<u8>)> {
        let down = |key: MatrixKey| {
            let (rows, bit) = match key {
                MatrixKey::Main { col, row } => (self.main[usize::from(col)], row),
                MatrixKey::Extra { line, row } => (self.extra[usize::from(line)], row),
            };
            rows & (1 << bit) != 0
        };
        let shifted = SHIFTS.iter().any(|&k| down(k));
        let main = (0..8u8).flat_map(|col| (0..8u8).map(move |row| MatrixKey::Main { col, row }));
        let extra = (0..3u8).flat_map(|line| (0..8u8).map(move |row| MatrixKey::Extra { line, row }));
        main.chain(extra).enumerate().find_map(|(index, key)| {
            let by_hand = down(key) && !self.held.contains(&key) && !MODIFIERS.contains(&name_of(key));
            by_hand.then(|| (index as u8, code_of(key, shifted)))
        })
    }

    /// What CIA 1's port B reads for the columns selected on port A (active low) and the
    /// extra lines selected on $D02F: rows with a key down in a selected column read 0.
    pub fn rows(&self, port_a: u8, d02f: u8) -> u8 {
        let mut down = 0u8;
        for col in 0..8 {
            if port_a & (1 << col) == 0 {
                down |= self.main[col];
            }
        }
        for line in 0..3 {
            if d02f & (1 << line) == 0 {
                down |= self.extra[line];
            }
        }
        !down
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_parses_text_and_named_keys() {
        assert_eq!(parse_keys("{RUN/STOP}").unwrap(), parse_keys("{STOP}").unwrap());
        let events = parse_keys("A!{return}{WAIT 50}{F2}").unwrap();
        assert_eq!(events.len(), 5);
        assert_eq!(
            events[0],
            KeyEvent::Press(KeyPress { keys: vec![MatrixKey::Main { col: 1, row: 2 }], petscii: Some(0x41) })
        );
        assert_eq!(
            events[1],
            KeyEvent::Press(KeyPress { keys: vec![LSHIFT, MatrixKey::Main { col: 7, row: 0 }], petscii: Some(0x21) })
        );
        assert_eq!(events[3], KeyEvent::Wait(50));
        let KeyEvent::Press(f2) = &events[4] else { panic!("F2 is a press") };
        assert_eq!(f2.petscii, Some(0x89));
        assert_eq!(f2.keys, vec![LSHIFT, MatrixKey::Main { col: 0, row: 4 }]);
    }

    #[test]
    fn script_errors_name_the_problem_and_place() {
        assert_eq!(parse_keys("AB{FOO}"), Err(KeysError::UnknownKey { name: "FOO".into(), offset: 2 }));
        assert_eq!(parse_keys("{RETURN"), Err(KeysError::Unclosed { offset: 0 }));
        assert!(matches!(parse_keys("{WAIT x}"), Err(KeysError::BadWait { .. })));
        assert!(matches!(parse_keys("~"), Err(KeysError::UntypableChar { ch: '~', offset: 0 })));
        let msg = parse_keys("{NOPE}").unwrap_err().to_string();
        assert!(msg.contains("{NOPE}"), "{msg}");
    }

    #[test]
    fn keys_held_by_hand_decode_as_the_kernal_scan_does() {
        let mut kb = Keyboard::default();
        assert_eq!(kb.scanned_key(), None);
        let key = |name| find(name).unwrap();
        kb.set_key(key("LSHIFT"), true);
        assert_eq!(kb.scanned_key(), None, "SHIFT alone is no key");
        kb.set_key(key("F5"), true);
        assert_eq!(kb.scanned_key(), Some((6, Some(0x8B))), "SHIFT F5 is F6");
        kb.set_key(key("LSHIFT"), false);
        assert_eq!(kb.scanned_key(), Some((6, Some(0x87))));
        kb.set_key(key("F5"), false);
        kb.set_key(key("HELP"), true);
        assert_eq!(kb.scanned_key(), Some((64, Some(0x84))));
        kb.set_key(key("HELP"), false);
        for (name, code) in [("Y", b'Y'), ("1", b'1'), ("SPACE", b' '), ("RETURN", 13), ("STOP", 3)] {
            kb.set_key(key(name), true);
            assert_eq!(kb.scanned_key().map(|(_, c)| c), Some(Some(code)), "{name}");
            kb.set_key(key(name), false);
        }
        // A scripted key reaches the KERNAL through its queue only.
        kb.type_events(parse_keys("Z").unwrap());
        kb.frame();
        assert_eq!(kb.scanned_key(), None);
        assert_eq!(kb.kernal_queue, [b'Z']);
    }

    #[test]
    fn keys_are_held_then_released() {
        let mut kb = Keyboard::default();
        kb.type_events(parse_keys("{HELP}Z").unwrap());
        kb.frame();
        assert_eq!(kb.rows(0xFF, 0xFE), 0xFE);
        assert_eq!(kb.rows(0xFF, 0xFF), 0xFF);
        kb.frame();
        kb.frame();
        assert_eq!(kb.rows(0x00, 0x00), 0xFF);
        for _ in 0..GAP_FRAMES {
            kb.frame();
        }
        assert_eq!(kb.rows(!0x02, 0xFF), !0x10);
        assert_eq!(kb.kernal_queue, [0x84, 0x5A]);
    }
}
