//! Text encoding: 190 bytes to Base64 (RFC 4648, with padding) and back.

use crate::rng::Rng;
use crate::sum::Sum;

/// The digits.
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Bytes to encode.
const N: usize = 190;
/// Their text: four characters for every three bytes or part of three.
const TEXT: usize = N.div_ceil(3) * 4;

/// Encodes `input` into `out`; the characters written.
pub fn encode(input: &[u8], out: &mut [u8]) -> usize {
    let mut o = 0;
    for chunk in input.chunks(3) {
        let b0 = chunk[0];
        let b1 = chunk.get(1).copied().unwrap_or(0);
        let b2 = chunk.get(2).copied().unwrap_or(0);
        out[o] = ALPHABET[usize::from(b0 >> 2)];
        out[o + 1] = ALPHABET[usize::from(((b0 & 3) << 4) | (b1 >> 4))];
        out[o + 2] = if chunk.len() > 1 { ALPHABET[usize::from(((b1 & 15) << 2) | (b2 >> 6))] } else { b'=' };
        out[o + 3] = if chunk.len() > 2 { ALPHABET[usize::from(b2 & 63)] } else { b'=' };
        o += 4;
    }
    o
}

/// The value of a Base64 digit.
fn value(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Decodes `text` into `out`; the bytes written, or `None` for text that is not Base64.
pub fn decode(text: &[u8], out: &mut [u8]) -> Option<usize> {
    if !text.len().is_multiple_of(4) {
        return None;
    }
    let mut o = 0;
    for quad in text.chunks(4) {
        let a = value(quad[0])?;
        let b = value(quad[1])?;
        out[o] = (a << 2) | (b >> 4);
        o += 1;
        if quad[2] == b'=' {
            break;
        }
        let c = value(quad[2])?;
        out[o] = (b << 4) | (c >> 2);
        o += 1;
        if quad[3] == b'=' {
            break;
        }
        let d = value(quad[3])?;
        out[o] = (c << 6) | d;
        o += 1;
    }
    Some(o)
}

/// The kernel: 190 bytes from `seed`, encoded and decoded; the text's checksum, with the
/// top bit set if the round trip lost anything.
pub fn run(seed: u16) -> u32 {
    let mut rng = Rng::new(seed);
    let mut data = [0u8; N];
    for b in data.iter_mut() {
        *b = rng.byte();
    }
    let mut text = [0u8; TEXT];
    let len = encode(&data, &mut text);
    let mut back = [0u8; N];
    let same = decode(&text[..len], &mut back) == Some(N) && back == data;
    let mut sum = Sum::default();
    sum.bytes(&text[..len]);
    sum.value() ^ if same { 0 } else { 0x8000_0000 }
}

#[cfg(test)]
mod tests {
    use super::{decode, encode};

    #[test]
    fn rfc_4648_vectors() {
        let mut out = [0u8; 8];
        for (plain, coded) in [(&b"f"[..], &b"Zg=="[..]), (b"fo", b"Zm8="), (b"foo", b"Zm9v"), (b"foobar", b"Zm9vYmFy")]
        {
            let n = encode(plain, &mut out);
            assert_eq!(&out[..n], coded);
            let mut back = [0u8; 6];
            assert_eq!(decode(coded, &mut back), Some(plain.len()));
            assert_eq!(&back[..plain.len()], plain);
        }
        assert_eq!(super::run(3) >> 31, 0);
    }
}
