//! Decompression: an LZ77 stream of literal runs and back references, the kind a game
//! unpacks its levels from, decoded into a 1 KB buffer.
//!
//! A token below $80 is a run of token + 1 literal bytes that follow it; any other is a
//! copy of (token & $7F) + 3 bytes from next byte + 1 bytes back, which may overlap what
//! it writes.

use crate::rng::Rng;
use crate::sum::Sum;

/// Why a stream could not be decoded.
#[derive(Debug, PartialEq, Eq)]
pub enum Error {
    /// The stream ends inside a token.
    Truncated,
    /// A copy reaches back before the start.
    BadOffset,
    /// The output does not fit.
    Full,
}

/// Decodes `input` into `out`; the bytes written.
pub fn decompress(input: &[u8], out: &mut [u8]) -> Result<usize, Error> {
    let mut i = 0;
    let mut o = 0;
    while i < input.len() {
        let token = input[i];
        i += 1;
        if token < 0x80 {
            let len = usize::from(token) + 1;
            let literals = input.get(i..i + len).ok_or(Error::Truncated)?;
            out.get_mut(o..o + len).ok_or(Error::Full)?.copy_from_slice(literals);
            i += len;
            o += len;
        } else {
            let len = usize::from(token & 0x7F) + 3;
            let offset = usize::from(*input.get(i).ok_or(Error::Truncated)?) + 1;
            i += 1;
            if offset > o {
                return Err(Error::BadOffset);
            }
            if o + len > out.len() {
                return Err(Error::Full);
            }
            for k in o..o + len {
                out[k] = out[k - offset];
            }
            o += len;
        }
    }
    Ok(o)
}

/// A stream from `seed` that decodes to 900 to 933 bytes: a quarter of the tokens are
/// runs of 1 to 8 literals, the rest copies of 3 to 34 bytes; the stream's length.
pub fn make_stream(seed: u16, stream: &mut [u8; 512]) -> usize {
    let mut rng = Rng::new(seed);
    let mut n = 0;
    let mut produced = 0;
    while produced < 900 && n < 500 {
        let r = rng.next_u16();
        if produced == 0 || r & 3 == 0 {
            let len = 1 + usize::from(r >> 8) % 8;
            stream[n] = (len - 1) as u8;
            n += 1;
            for _ in 0..len {
                stream[n] = rng.byte();
                n += 1;
            }
            produced += len;
        } else {
            let len = 3 + usize::from(r >> 8) % 32;
            let offset = 1 + usize::from(rng.next_u16()) % produced.min(256);
            stream[n] = 0x80 | (len - 3) as u8;
            stream[n + 1] = (offset - 1) as u8;
            n += 2;
            produced += len;
        }
    }
    n
}

/// The kernel: makes a stream from `seed` and decodes it; the output's checksum and its
/// length (all ones if it would not decode).
pub fn run(seed: u16) -> u32 {
    let mut stream = [0u8; 512];
    let len = make_stream(seed, &mut stream);
    let mut out = [0u8; 1024];
    match decompress(&stream[..len], &mut out) {
        Ok(n) => {
            let mut sum = Sum::default();
            sum.bytes(&out[..n]);
            sum.value() ^ n as u32
        }
        Err(_) => 0xFFFF_FFFF,
    }
}

#[cfg(test)]
mod tests {
    use super::{Error, decompress};

    #[test]
    fn runs_and_copies() {
        let mut out = [0u8; 16];
        assert_eq!(decompress(&[1, b'a', b'b', 0x81, 1], &mut out), Ok(6));
        assert_eq!(&out[..6], b"ababab");
        assert_eq!(decompress(&[0x80, 0], &mut out), Err(Error::BadOffset));
        assert_eq!(decompress(&[3, 1], &mut out), Err(Error::Truncated));
        assert_eq!(decompress(&[0, 1, 0xFF, 0], &mut out), Err(Error::Full));
    }

    #[test]
    fn every_seed_decodes() {
        for seed in 1..200 {
            assert_ne!(super::run(seed), 0xFFFF_FFFF);
        }
    }
}
