//! Bignum arithmetic: n! for n from 60 to 67 in base-256 limbs, then its decimal digits by
//! repeated division by 10.

/// Limbs: room for 80! (399 bits).
const LIMBS: usize = 50;

/// An unsigned number of up to `LIMBS` bytes, least significant first.
pub struct BigUint {
    limbs: [u8; LIMBS],
    len: usize,
}

impl BigUint {
    /// The number `n`.
    pub fn new(n: u8) -> Self {
        let mut limbs = [0; LIMBS];
        limbs[0] = n;
        BigUint { limbs, len: usize::from(n != 0) }
    }

    /// Multiplies by `m`.
    pub fn mul_small(&mut self, m: u8) {
        let mut carry = 0u16;
        for limb in self.limbs[..self.len].iter_mut() {
            let p = u16::from(*limb) * u16::from(m) + carry;
            *limb = p as u8;
            carry = p >> 8;
        }
        if carry != 0 {
            self.limbs[self.len] = carry as u8;
            self.len += 1;
        }
    }

    /// Divides by `d` and returns the remainder.
    pub fn div_small(&mut self, d: u8) -> u8 {
        let mut rem = 0u16;
        for limb in self.limbs[..self.len].iter_mut().rev() {
            let cur = (rem << 8) | u16::from(*limb);
            *limb = (cur / u16::from(d)) as u8;
            rem = cur % u16::from(d);
        }
        while self.len > 0 && self.limbs[self.len - 1] == 0 {
            self.len -= 1;
        }
        rem as u8
    }

    /// Whether it is 0.
    pub fn is_zero(&self) -> bool {
        self.len == 0
    }
}

/// The kernel: n! for n = 60 + `seed % 8`; its digit count in the high half, the sum of
/// its digits in the low.
pub fn run(seed: u16) -> u32 {
    let n = 60 + (seed % 8) as u8;
    let mut f = BigUint::new(1);
    for k in 2..=n {
        f.mul_small(k);
    }
    let mut digits = 0u32;
    let mut digit_sum = 0u32;
    while !f.is_zero() {
        digit_sum += u32::from(f.div_small(10));
        digits += 1;
    }
    (digits << 16) | digit_sum
}

#[cfg(test)]
mod tests {
    use super::BigUint;

    #[test]
    fn factorials() {
        // 20! = 2,432,902,008,176,640,000: 19 digits summing to 54.
        let mut f = BigUint::new(1);
        for k in 2..=20 {
            f.mul_small(k);
        }
        let (mut digits, mut sum) = (0, 0);
        while !f.is_zero() {
            sum += u32::from(f.div_small(10));
            digits += 1;
        }
        assert_eq!((digits, sum), (19, 54));
        // 67! has 95 digits.
        assert_eq!(super::run(7) >> 16, 95);
    }
}
