//! The characters of a number, right-aligned in a small buffer, and the decimal writer
//! that fills it: what [`crate::num`] (translated, drawn every coup) and
//! [`crate::compact`] (interpreted, for amounts too wide for their column) both build on,
//! in a module of its own so that neither imports the other's.

use crate::text::Lang;

/// Text of a number: at most 16 characters, kept right-aligned in its buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Digits {
    buf: [u8; 16],
    start: usize,
}

impl Digits {
    pub(crate) fn new() -> Digits {
        Digits { buf: [b' '; 16], start: 16 }
    }

    pub(crate) fn push_front(&mut self, c: u8) {
        if self.start > 0 {
            self.start -= 1;
            self.buf[self.start] = c;
        }
    }

    /// The characters.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    /// Number of characters.
    pub fn len(&self) -> u8 {
        (16 - self.start) as u8
    }

    /// True for no characters (never produced by the functions here).
    pub fn is_empty(&self) -> bool {
        self.start == 16
    }
}

/// `n` in decimal, with a thousands separator every three digits if `separator` is not 0.
pub(crate) fn decimal(out: &mut Digits, mut n: u32, separator: u8) {
    let mut count = 0;
    loop {
        if count == 3 && separator != 0 {
            out.push_front(separator);
            count = 0;
        }
        // 16-bit division once the number fits: on the C128 a 32-bit division is a
        // 32-step loop, and most figures on the screen are small.
        let digit = match u16::try_from(n) {
            // And 8-bit once it fits that: the translator divides a byte by 10 by
            // subtraction, where a 16-bit division is a 16-step loop (700 cycles).
            Ok(small) if small < 256 => {
                let small = small as u8;
                n = u32::from(small / 10);
                small % 10
            }
            Ok(small) => {
                n = u32::from(small / 10);
                (small % 10) as u8
            }
            Err(_) => {
                let digit = (n % 10) as u8;
                n /= 10;
                digit
            }
        };
        out.push_front(b'0' + digit);
        count += 1;
        if n == 0 {
            break;
        }
    }
}

/// The thousands separator and the decimal point of `lang`: `100,000.50` in English,
/// `100 000,50` in French.
pub(crate) fn separators(lang: Lang) -> (u8, u8) {
    match lang {
        Lang::English => (b',', b'.'),
        Lang::French => (b' ', b','),
    }
}
