//! 32-bit arithmetic: Euclid's greatest common divisor of 40 pairs of 32-bit numbers, a
//! remainder by a large divisor at every step.

use crate::rng::Rng;

/// The greatest common divisor of `a` and `b` (`a` if `b` is 0).
pub fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        let r = a % b;
        a = b;
        b = r;
    }
    a
}

/// A 32-bit number from two of the generator's.
fn long(rng: &mut Rng) -> u32 {
    let high = rng.next_u16();
    let low = rng.next_u16();
    (u32::from(high) << 16) | u32::from(low)
}

/// The kernel: 40 pairs, the second shifted right by 0 to 15 bits; the sum of the
/// divisors, with the coprime pairs counted in the top byte.
pub fn run(seed: u16) -> u32 {
    let mut rng = Rng::new(seed);
    let mut total = 0u32;
    let mut coprime = 0u32;
    for _ in 0..40 {
        let a = long(&mut rng);
        let b = long(&mut rng) >> (rng.next_u16() % 16);
        let d = gcd(a, b);
        total = total.wrapping_add(d);
        if d == 1 {
            coprime += 1;
        }
    }
    total ^ (coprime << 24)
}

#[cfg(test)]
mod tests {
    #[test]
    fn divisors() {
        assert_eq!(super::gcd(0, 5), 5);
        assert_eq!(super::gcd(5, 0), 5);
        assert_eq!(super::gcd(3_000_000_000, 1_200_000_000), 600_000_000);
        assert_eq!(super::gcd(4_294_967_291, 4_294_967_279), 1);
    }
}
