//! Number formatting: unsigned and signed numbers in decimal with a comma every three
//! digits ("4,294,967,295", "-32,768"), as a score or a bank balance is shown.

use crate::rng::Rng;
use crate::sum::Sum;

/// Room for the longest: 10 digits, 3 commas and a sign.
pub const WIDTH: usize = 14;

/// Writes `n` with its commas at the end of `buf`, a `-` before it if `negative`, and
/// returns the text.
pub fn thousands(mut n: u32, negative: bool, buf: &mut [u8; WIDTH]) -> &[u8] {
    let mut i = buf.len();
    let mut digits = 0;
    loop {
        if digits == 3 {
            i -= 1;
            buf[i] = b',';
            digits = 0;
        }
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        digits += 1;
        if n == 0 {
            break;
        }
    }
    if negative {
        i -= 1;
        buf[i] = b'-';
    }
    &buf[i..]
}

/// Formats a signed number.
pub fn signed(n: i16, buf: &mut [u8; WIDTH]) -> &[u8] {
    thousands(u32::from(n.unsigned_abs()), n < 0, buf)
}

/// The kernel: 48 unsigned numbers of every length and 48 signed ones, formatted; the
/// checksum of the text and its length.
pub fn run(seed: u16) -> u32 {
    let mut rng = Rng::new(seed);
    let mut sum = Sum::default();
    let mut buf = [0u8; WIDTH];
    let mut length = 0u16;
    for _ in 0..48 {
        let high = rng.next_u16();
        let low = rng.next_u16();
        let shift = rng.next_u16() % 32;
        let n = ((u32::from(high) << 16) | u32::from(low)) >> shift;
        let text = thousands(n, false, &mut buf);
        length += text.len() as u16;
        sum.bytes(text);
        let text = signed(rng.next_u16() as i16, &mut buf);
        length += text.len() as u16;
        sum.bytes(text);
    }
    sum.value() ^ u32::from(length)
}

#[cfg(test)]
mod tests {
    use super::{WIDTH, signed, thousands};

    #[test]
    fn commas() {
        let mut buf = [0u8; WIDTH];
        assert_eq!(thousands(0, false, &mut buf), b"0");
        assert_eq!(thousands(999, false, &mut buf), b"999");
        assert_eq!(thousands(1000, false, &mut buf), b"1,000");
        assert_eq!(thousands(u32::MAX, true, &mut buf), b"-4,294,967,295");
        assert_eq!(signed(i16::MIN, &mut buf), b"-32,768");
        assert_eq!(signed(-5, &mut buf), b"-5");
    }
}
