//! PETSCII file names and texts to and from ASCII, for command lines and listings.
//!
//! Names are shown as a C128 shows them at power-on, in its upper-case/graphics character
//! set: PETSCII `$41-$5A` are the letters `A-Z`, and `$20-$5B` and `$5D` read the same as in
//! ASCII. Typing a name follows the same keyboard: ASCII letters of either case become
//! `$41-$5A`, so `bac` and `BAC` both name the file a user loads with `RUN"BAC"`. Every
//! other byte is written `{$hh}` (two hex digits), so any name converts both ways without
//! loss. (cc1541 and VICE's c1541 use the lower-case set instead, where `$41` shows as `a`;
//! they store the same bytes for the lower-case names they are given.)
//!
//! Texts (the help file) use the other convention, the one of a C128 text file written in
//! the lower/upper-case set: ASCII `a-z` become `$41-$5A`, `A-Z` become `$C1-$DA`, and a line
//! ends with a carriage return (`$0D`).

use thiserror::Error;

/// A string that cannot be turned into PETSCII.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PetsciiError {
    /// A character with no PETSCII equivalent here.
    #[error("character {ch:?} at position {at} of {text:?} has no PETSCII form (write bytes as {{$hh}})")]
    Unmappable {
        /// The whole input.
        text: String,
        /// Character index of the culprit.
        at: usize,
        /// The culprit.
        ch: char,
    },
    /// A `{` that does not start a well-formed `{$hh}` escape.
    #[error("bad escape at position {at} of {text:?}: expected {{$hh}} with two hex digits")]
    BadEscape {
        /// The whole input.
        text: String,
        /// Character index of the `{`.
        at: usize,
    },
}

/// Shows PETSCII bytes as ASCII in the upper-case set; bytes without a plain form become
/// `{$hh}`. [`from_ascii`] reverses it exactly.
pub fn to_ascii(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if (0x20..=0x5b).contains(&b) || b == 0x5d {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("{{${b:02X}}}"));
        }
    }
    out
}

/// Turns typed text into PETSCII as the C128 keyboard does in its power-on mode: letters of
/// either case become `$41-$5A`; `£`, `↑`, `←` and `π` become `$5C`, `$5E`, `$5F`, `$FF`;
/// `{$hh}` gives any byte.
pub fn from_ascii(text: &str) -> Result<Vec<u8>, PetsciiError> {
    convert(text, |c| match c {
        ' '..='[' | ']' => Some(c as u8),
        'a'..='z' => Some(c.to_ascii_uppercase() as u8),
        '£' => Some(0x5c),
        '↑' => Some(0x5e),
        '←' => Some(0x5f),
        'π' => Some(0xff),
        _ => None,
    })
}

/// Turns an ASCII text into a PETSCII text file for the lower/upper-case character set:
/// `a-z` to `$41-$5A`, `A-Z` to `$C1-$DA`, line feeds (and CR LF pairs) to `$0D`; tabs are
/// not accepted (PETSCII has none), and `{$hh}` gives any byte.
pub fn text_from_ascii(text: &str) -> Result<Vec<u8>, PetsciiError> {
    let unix = text.replace("\r\n", "\n");
    convert(&unix, |c| match c {
        '\n' => Some(0x0d),
        'a'..='z' => Some(c.to_ascii_uppercase() as u8),
        'A'..='Z' => Some(c as u8 | 0x80),
        ' '..='@' | '[' | ']' => Some(c as u8),
        '£' => Some(0x5c),
        _ => None,
    })
}

/// Shared loop: maps characters one by one and decodes `{$hh}` escapes.
fn convert(text: &str, map: impl Fn(char) -> Option<u8>) -> Result<Vec<u8>, PetsciiError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '{' {
            let escape: String = chars.iter().skip(i).take(5).collect();
            let byte = escape
                .strip_prefix("{$")
                .and_then(|rest| rest.strip_suffix('}'))
                .filter(|hex| hex.len() == 2)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok());
            match byte {
                Some(b) => out.push(b),
                None => {
                    return Err(PetsciiError::BadEscape { text: text.to_string(), at: i });
                }
            }
            i += 5;
            continue;
        }
        match map(c) {
            Some(b) => out.push(b),
            None => {
                return Err(PetsciiError::Unmappable { text: text.to_string(), at: i, ch: c });
            }
        }
        i += 1;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_fold_to_the_upper_case_set() {
        assert_eq!(from_ascii("bac help").unwrap(), b"BAC HELP");
        assert_eq!(from_ascii("BAC").unwrap(), vec![0x42, 0x41, 0x43]);
        assert_eq!(from_ascii("£↑←π").unwrap(), vec![0x5c, 0x5e, 0x5f, 0xff]);
    }

    #[test]
    fn every_byte_round_trips() {
        let all: Vec<u8> = (0..=255).collect();
        let shown = to_ascii(&all);
        assert!(shown.is_ascii());
        assert_eq!(from_ascii(&shown).unwrap(), all);
    }

    #[test]
    fn escapes_and_bad_characters_are_reported() {
        assert_eq!(from_ascii("A{$a0}B").unwrap(), vec![0x41, 0xa0, 0x42]);
        assert_eq!(from_ascii("AB{$g0}"), Err(PetsciiError::BadEscape { text: "AB{$g0}".into(), at: 2 }));
        assert!(matches!(from_ascii("x{$1"), Err(PetsciiError::BadEscape { at: 1, .. })));
        assert!(matches!(from_ascii("é"), Err(PetsciiError::Unmappable { ch: 'é', at: 0, .. })));
    }

    #[test]
    fn texts_use_the_lower_case_set_and_carriage_returns() {
        assert_eq!(text_from_ascii("Aa 1\r\nZ\n").unwrap(), vec![0xc1, 0x41, 0x20, 0x31, 0x0d, 0xda, 0x0d]);
        assert!(text_from_ascii("\t").is_err());
    }
}
