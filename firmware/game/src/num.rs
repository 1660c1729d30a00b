//! Numbers and money as text, without `core::fmt` (which would cost the C128 several
//! kilobytes): digits are produced right to left into a small buffer.

use bac_rules::Money;

use crate::text::Lang;

/// Text of a number: at most 16 characters, kept right-aligned in its buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Digits {
    buf: [u8; 16],
    start: usize,
}

impl Digits {
    fn new() -> Digits {
        Digits { buf: [b' '; 16], start: 16 }
    }

    fn push_front(&mut self, c: u8) {
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
fn decimal(out: &mut Digits, mut n: u32, separator: u8) {
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

/// A plain number: `412`.
pub fn number(n: u32) -> Digits {
    let mut out = Digits::new();
    decimal(&mut out, n, 0);
    out
}

/// An amount as each language writes it: `100,000` and `4.75` in English, `100 000` and
/// `4,75` in French. Whole amounts show no cents, as on the chips.
pub fn money(amount: Money, lang: Lang) -> Digits {
    signed(amount, 0, lang)
}

/// An amount with a leading sign (`b'+'` or `b'-'`), or none when `sign` is 0.
pub fn signed(amount: Money, sign: u8, lang: Lang) -> Digits {
    let (thousands, point) = match lang {
        Lang::English => (b',', b'.'),
        Lang::French => (b' ', b','),
    };
    let cents = amount.in_cents();
    let mut out = Digits::new();
    if !cents.is_multiple_of(100) {
        let c = cents % 100;
        out.push_front(b'0' + (c % 10) as u8);
        out.push_front(b'0' + (c / 10) as u8);
        out.push_front(point);
    }
    decimal(&mut out, cents / 100, thousands);
    if sign != 0 {
        out.push_front(sign);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(d: Digits) -> std::string::String {
        std::string::String::from_utf8(d.as_bytes().to_vec()).unwrap()
    }

    #[test]
    fn numbers_and_money_in_both_languages() {
        assert_eq!(s(number(0)), "0");
        assert_eq!(s(number(4_294_967_295)), "4294967295");
        assert_eq!(s(money(Money::units(100_000), Lang::English)), "100,000");
        assert_eq!(s(money(Money::units(100_000), Lang::French)), "100 000");
        assert_eq!(s(money(Money::cents(475), Lang::English)), "4.75");
        assert_eq!(s(money(Money::cents(1_000_005), Lang::French)), "10 000,05");
        assert_eq!(s(signed(Money::cents(950), b'+', Lang::English)), "+9.50");
        assert_eq!(s(money(Money::MAX, Lang::English)), "42,949,672.95");
        assert_eq!(money(Money::ZERO, Lang::English).len(), 1);
    }
}
