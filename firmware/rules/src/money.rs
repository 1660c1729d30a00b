//! Money, in cents.
//!
//! Every payout in the seeds is exact in cents on a whole-unit stake: 5% commission (19:20)
//! and the no-commission banker six (1:2) both divide 100. So stakes are whole units (the
//! chips are whole), balances are cents, and nothing is ever rounded.

use core::fmt;

/// An amount of money in cents. `u32` holds up to 42,949,672.95 units, more than any table
/// here (the Loadstar bank is 1,000,000).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Money(u32);

impl Money {
    /// Nothing.
    pub const ZERO: Money = Money(0);
    /// The largest amount.
    pub const MAX: Money = Money(u32::MAX);
    /// Cents in one unit (a dollar, a franc: the games never name the currency).
    pub const CENTS_PER_UNIT: u32 = 100;

    /// An amount in cents.
    pub const fn cents(cents: u32) -> Money {
        Money(cents)
    }

    /// `units` whole units, saturating at [`Money::MAX`].
    pub const fn units(units: u32) -> Money {
        Money(units.saturating_mul(Self::CENTS_PER_UNIT))
    }

    /// The amount in cents.
    pub const fn in_cents(self) -> u32 {
        self.0
    }

    /// Whole units, rounded down.
    pub const fn whole_units(self) -> u32 {
        self.0 / Self::CENTS_PER_UNIT
    }

    /// True for a whole number of units: every stake must be.
    pub const fn is_whole(self) -> bool {
        self.0.is_multiple_of(Self::CENTS_PER_UNIT)
    }

    /// `self + other`, or `None` on overflow.
    pub const fn checked_add(self, other: Money) -> Option<Money> {
        match self.0.checked_add(other.0) {
            Some(sum) => Some(Money(sum)),
            None => None,
        }
    }

    /// `self - other`, or `None` if `other` is larger.
    pub const fn checked_sub(self, other: Money) -> Option<Money> {
        match self.0.checked_sub(other.0) {
            Some(difference) => Some(Money(difference)),
            None => None,
        }
    }

    /// `self - other`, or zero.
    pub const fn saturating_sub(self, other: Money) -> Money {
        Money(self.0.saturating_sub(other.0))
    }

    /// `self * num / den`, exact or `None` (overflow, a zero denominator, or a remainder).
    pub const fn ratio(self, num: u32, den: u32) -> Option<Money> {
        if den == 0 {
            return None;
        }
        match self.0.checked_mul(num) {
            Some(product) if product % den == 0 => Some(Money(product / den)),
            _ => None,
        }
    }
}

/// `1234.50`, or `1234` for a whole amount, as the game prints it.
impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (units, cents) = (self.0 / Self::CENTS_PER_UNIT, self.0 % Self::CENTS_PER_UNIT);
        if cents == 0 { write!(f, "{units}") } else { write!(f, "{units}.{cents:02}") }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_is_checked_and_exact() {
        assert_eq!(Money::units(3).in_cents(), 300);
        assert_eq!(Money::units(20).ratio(19, 20), Some(Money::units(19)));
        assert_eq!(Money::units(1).ratio(19, 20), Some(Money::cents(95)));
        assert_eq!(Money::cents(1).ratio(19, 20), None, "a remainder is refused, not rounded");
        assert_eq!(Money::MAX.checked_add(Money::cents(1)), None);
        assert_eq!(Money::ZERO.checked_sub(Money::cents(1)), None);
        assert_eq!(Money::units(7).ratio(1, 0), None);
        assert_eq!(Money::units(u32::MAX), Money::MAX);
    }

    #[test]
    fn prints_like_a_cashier() {
        assert_eq!(format!("{}", Money::units(100_000)), "100000");
        assert_eq!(format!("{}", Money::cents(1905)), "19.05");
    }
}
