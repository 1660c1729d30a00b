//! Numbers and money as text, without `core::fmt` (which would cost the C128 several
//! kilobytes): digits are produced right to left into a small buffer.

use bac_rules::Money;

pub use crate::digits::Digits;
use crate::digits::{decimal, separators};
use crate::text::Lang;

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
    let (thousands, point) = separators(lang);
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
