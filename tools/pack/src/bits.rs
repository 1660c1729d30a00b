//! The dense format's stream: bits and whole bytes interleaved in the order the decoder
//! takes them.
//!
//! A 6502 reads bits by shifting one byte in zero page, so the writer reserves a byte for
//! flag and number bits when the bits before it are used up, and puts whole bytes
//! (literals, an offset's low byte) straight after whatever the stream holds at that
//! point. The reader fetches in the same order: a new bit byte only when it needs a ninth
//! bit, a whole byte where the writer put one. Bits fill a byte from its top bit down.
//!
//! Numbers are interlaced Elias gamma codes: a value `v >= 1` with `k` bits after its
//! leading one is `k` pairs (a 1, then the next bit of `v`, highest first) and a final 0,
//! `2k + 1` bits in all, so the decoder builds `v` with one shift per pair and needs no
//! count.

/// Bits an interlaced gamma code of `v` takes.
pub fn gamma_bits(v: usize) -> usize {
    debug_assert!(v >= 1);
    2 * (usize::BITS - 1 - v.leading_zeros()) as usize + 1
}

/// Builds a stream.
#[derive(Default)]
pub struct BitWriter {
    out: Vec<u8>,
    /// The bit byte being filled, and how many of its bits are used.
    open: Option<(usize, u8)>,
}

impl BitWriter {
    /// One flag or number bit.
    pub fn bit(&mut self, one: bool) {
        let (at, used) = match self.open {
            Some((at, used)) if used < 8 => (at, used),
            _ => {
                self.out.push(0);
                (self.out.len() - 1, 0)
            }
        };
        if one {
            self.out[at] |= 0x80 >> used;
        }
        self.open = Some((at, used + 1));
    }

    /// A whole byte, where the stream is now.
    pub fn byte(&mut self, b: u8) {
        self.out.push(b);
    }

    /// An interlaced gamma code of `v >= 1`.
    pub fn gamma(&mut self, v: usize) {
        debug_assert!(v >= 1);
        let k = usize::BITS - 1 - v.leading_zeros();
        for i in (0..k).rev() {
            self.bit(true);
            self.bit(v >> i & 1 == 1);
        }
        self.bit(false);
    }

    /// The stream.
    pub fn finish(self) -> Vec<u8> {
        self.out
    }
}

/// A stream that ends in the middle of a code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ended;

/// Reads a stream as the 6502 decoder does, counting the bytes it has fetched.
pub struct BitReader<'a> {
    stream: &'a [u8],
    /// Bytes fetched so far.
    pub at: usize,
    /// The current bit byte and how many of its bits are left.
    bits: u8,
    left: u8,
}

impl<'a> BitReader<'a> {
    /// A reader at the stream's start.
    pub fn new(stream: &'a [u8]) -> Self {
        BitReader { stream, at: 0, bits: 0, left: 0 }
    }

    /// The next whole byte.
    pub fn byte(&mut self) -> Result<u8, Ended> {
        let b = *self.stream.get(self.at).ok_or(Ended)?;
        self.at += 1;
        Ok(b)
    }

    /// The next bit.
    pub fn bit(&mut self) -> Result<bool, Ended> {
        if self.left == 0 {
            self.bits = self.byte()?;
            self.left = 8;
        }
        let one = self.bits & 0x80 != 0;
        self.bits <<= 1;
        self.left -= 1;
        Ok(one)
    }

    /// An interlaced gamma code; values past `limit` end the read (a stream that says
    /// more than any output could hold is broken, and the decoder's registers are 16 bits).
    pub fn gamma(&mut self, limit: usize) -> Result<usize, Ended> {
        let mut v = 1usize;
        while self.bit()? {
            v = v << 1 | usize::from(self.bit()?);
            if v > limit {
                return Err(Ended);
            }
        }
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamma_codes_read_back_with_the_size_gamma_bits_gives() {
        let values = [1usize, 2, 3, 4, 7, 8, 255, 256, 257, 1000, 65_535];
        let mut w = BitWriter::default();
        let mut total = 0;
        for (i, &v) in values.iter().enumerate() {
            w.gamma(v);
            w.byte(i as u8);
            total += gamma_bits(v);
        }
        let stream = w.finish();
        assert_eq!(stream.len(), values.len() + total.div_ceil(8));
        let mut r = BitReader::new(&stream);
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(r.gamma(65_535), Ok(v));
            assert_eq!(r.byte(), Ok(i as u8));
        }
        assert_eq!(r.at, stream.len());
        assert_eq!(r.byte(), Err(Ended));
    }

    #[test]
    fn a_bit_byte_is_reserved_where_the_ninth_bit_is_written() {
        let mut w = BitWriter::default();
        for _ in 0..8 {
            w.bit(true);
        }
        w.byte(0x42);
        w.bit(true);
        assert_eq!(w.finish(), vec![0xFF, 0x42, 0x80]);
    }
}
