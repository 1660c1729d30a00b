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

/// An amount in at most `width` characters, for a column of the seats' grid, so that
/// neighbouring columns never run into each other whatever the amounts (issue 31: at 40
/// columns `+100,000` filled a stake's column and `100,0001,000,000` ran together at 80).
/// The exact form when it fits; else the whole units without their cents; else thousands
/// (`K`) or millions (`M`) with as many decimals as fit. Every shortening rounds down, so a
/// column never shows more money than there is. Out of line: `draw_seats` calls it for
/// every column, and each inlined copy would cost bank 0 of the C128 its bytes.
#[inline(never)]
pub fn fitted(amount: Money, sign: u8, width: u8, lang: Lang) -> Digits {
    let exact = signed(amount, sign, lang);
    if exact.len() <= width {
        return exact;
    }
    let units = amount.whole_units();
    let whole = signed(Money::units(units), sign, lang);
    if whole.len() <= width {
        return whole;
    }
    crate::compact::abbreviated(units, sign, width, lang)
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

    #[test]
    fn fitted_amounts_keep_to_their_column_and_never_round_up() {
        let f = |cents: u32, sign: u8, width: u8| s(fitted(Money::cents(cents), sign, width, Lang::English));
        // What fits stays exact.
        assert_eq!(f(1_000_000, b'+', 7), "+10,000");
        assert_eq!(f(995, 0, 6), "9.95");
        // Then the cents go, rounded down.
        assert_eq!(f(999_995, b'-', 6), "-9,999");
        // Then thousands and millions, rounded down, trailing zeros dropped.
        assert_eq!(f(1_000_000, b'+', 6), "+10K");
        assert_eq!(f(10_000_000, b'+', 6), "+100K");
        assert_eq!(f(12_345_600, 0, 6), "123.4K");
        assert_eq!(f(12_399_900, b'-', 6), "-123K");
        assert_eq!(f(100_000_000, 0, 6), "1M");
        assert_eq!(f(123_456_789, 0, 6), "1.23M");
        assert_eq!(f(1_234_567_800, 0, 6), "12.34M");
        assert_eq!(f(1_234_567_800, b'+', 6), "+12.3M");
        assert_eq!(s(fitted(Money::MAX, 0, 9, Lang::English)), "42.94M");
        assert_eq!(s(fitted(Money::cents(1_234_567_800), 0, 6, Lang::French)), "12,34M");
        // Every amount the game can hold fits the narrowest column (a sign and five).
        for cents in (0..=u32::MAX).step_by(9_999_991).chain([u32::MAX, 99_999_999, 999_999, 100_000_000 - 1]) {
            for sign in [0, b'+'] {
                let t = fitted(Money::cents(cents), sign, 6, Lang::English);
                assert!(t.len() <= 6, "{} is {} wide", s(t), t.len());
            }
        }
    }
}
