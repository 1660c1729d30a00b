//! PETSCII conversions: to UTF-8 for the output log, and to screen codes for the screens.

/// Converts one printable PETSCII code to text, as the C128 would show it in the given
/// character set (`lower` = the lower/upper-case set selected by CHR$(14)).
/// Control codes give `None`, except RETURN which gives a newline.
pub fn to_char(code: u8, lower: bool) -> Option<char> {
    let c = match code {
        0x0D | 0x8D => '\n',
        0x20..=0x40 => char::from(code),
        0x41..=0x5A if lower => char::from(code + 0x20),
        0x41..=0x5A => char::from(code),
        0x5B => '[',
        0x5C => '£',
        0x5D => ']',
        0x5E => '↑',
        0x5F => '←',
        0x61..=0x7A | 0xC1..=0xDA if lower => char::from((code & 0x1F) + 0x40),
        0x60..=0x7F | 0xA0..=0xBF | 0xC0..=0xFF => graphic(code),
        _ => return None,
    };
    Some(c)
}

/// The Unicode stand-in for a PETSCII graphics character of the upper-case set.
fn graphic(code: u8) -> char {
    // $60-$7F and $C0-$DF show the same glyphs; $E0-$FE those of $A0-$BE.
    let code = match code {
        0x60..=0x7F => code + 0x60,
        0xE0..=0xFE => code - 0x40,
        0xFF => 0xDE,
        _ => code,
    };
    match code {
        0xC0 | 0xC3 => '─',
        0xDD | 0xC2 => '│',
        0xC1 => '♠',
        0xD3 => '♥',
        0xD8 => '♣',
        0xDA => '♦',
        0xD1 => '●',
        0xD7 => '○',
        0xDB => '┼',
        0xD5 => '╭',
        0xC9 => '╮',
        0xCA => '╰',
        0xCB => '╯',
        0xCD => '╲',
        0xCE => '╱',
        0xD6 => '╳',
        0xDE => 'π',
        0xA0 => '\u{a0}',
        0xA6 | 0xDF => '▒',
        _ => '▒',
    }
}

/// Converts a PETSCII byte stream to UTF-8 text, following CHR$(14)/CHR$(142) charset
/// switches and dropping the other control codes (colours, cursor moves, clear screen).
pub fn to_utf8(bytes: &[u8]) -> String {
    let mut lower = false;
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            0x0E => lower = true,
            0x8E => lower = false,
            _ => out.extend(to_char(b, lower)),
        }
    }
    out
}

/// The screen code the editor stores for a printable PETSCII code, or `None` for a
/// control code.
pub fn to_screen_code(code: u8) -> Option<u8> {
    Some(match code {
        0x20..=0x3F => code,
        0x40..=0x5F => code - 0x40,
        0x60..=0x7F => code - 0x20,
        0xA0..=0xBF => code - 0x40,
        0xC0..=0xFE => code - 0x80,
        0xFF => 0x5E,
        _ => return None,
    })
}

/// The PETSCII code for an ASCII character typed by a key script, if it has one.
pub fn from_ascii(c: char) -> Option<u8> {
    Some(match c {
        ' '..='@' | '[' | ']' => c as u8,
        'A'..='Z' => c as u8,
        'a'..='z' => c as u8 - 0x20,
        '\n' => 0x0D,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_through_the_log() {
        assert_eq!(to_utf8(b"HELLO, 42!\r"), "HELLO, 42!\n");
        assert_eq!(to_utf8(&[0x93, 0x05, b'A']), "A");
        assert_eq!(to_utf8(&[0x0E, b'A', 0xC1, 0x8E, b'A']), "aAA");
        assert_eq!(to_utf8(&[0x61, 0x73]), "♠♥");
    }

    #[test]
    fn screen_codes_follow_the_editor() {
        assert_eq!(to_screen_code(b'A'), Some(1));
        assert_eq!(to_screen_code(b'@'), Some(0));
        assert_eq!(to_screen_code(b'1'), Some(0x31));
        assert_eq!(to_screen_code(0xC1), Some(0x41));
        assert_eq!(to_screen_code(0x93), None);
    }
}
