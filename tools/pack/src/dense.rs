//! The dense format, and its reference decoder (what the 6502 decoder in
//! `tools/loader/src/unpack_dense.rs` does, bit for bit).
//!
//! Who uses it: `bac prg`'s `packer = "dense"` setting, for a program that would rather
//! load a fifth fewer bytes than decode fast. The game does not: its files are in the
//! byte-aligned format, since the dense decoder's work between the burst load's bytes held
//! the drive up (docs/disk-and-loading.md#tried-and-left-out). The tests keep it working
//! (`tools/pack/tests`, the loader's stage tests, the harness's `packed::`).
//!
//! Why a second format: the byte-aligned one ([`crate::format`]) costs a whole byte for
//! every length and up to two for every distance, and AVR code (the bank-1 file) is full of
//! short copies at the same distance as the one before. The game's files are loaded
//! through the drive's burst protocol with the decoding done between bytes, while the
//! drive fetches the next one, so a decoder that works bit by bit costs no time at all and
//! every byte saved on the disk is about 160 microseconds less to wait.
//!
//! The stream ([`crate::bits`]: flag bits, interlaced gamma numbers, whole bytes) is a
//! sequence of three tokens:
//!
//! | token | coded as | means |
//! | --- | --- | --- |
//! | literals | `gamma(n)`, then n bytes | the next n bytes of the stream |
//! | copy | `gamma(h + 1)`, byte l, `gamma(n - 1)` | n bytes (2 or more) from `256h + l + 1` back |
//! | repeat | `gamma(n)` | n bytes from the same distance as the copy before |
//!
//! The stream starts with literals. After literals a flag says what follows: 0 a repeat, 1
//! a copy. After a copy or a repeat: 0 literals, 1 a copy. Before the first copy a repeat
//! takes a distance of 1. A copy reads the output already written, one byte at a time
//! from its start, so a copy longer than its distance repeats. There is no end marker:
//! the decoder stops when the output has the length it was told, at a token's end.

use crate::bits::{BitReader, BitWriter, Ended, gamma_bits};
use thiserror::Error;

/// Farthest distance a copy can say (a high byte of 255 and a low byte of 255).
pub const MAX_DISTANCE: usize = 65_536;
/// Longest run one token says (the decoder counts in 16 bits).
pub const MAX_LEN: usize = 65_535;

/// One token of the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token {
    /// The next `len` bytes of the stream.
    Literals {
        /// 1 to [`MAX_LEN`].
        len: usize,
    },
    /// `len` bytes from `distance` back.
    Copy {
        /// 2 to [`MAX_LEN`].
        len: usize,
        /// 1 to [`MAX_DISTANCE`].
        distance: usize,
    },
    /// `len` bytes from the distance of the copy before.
    Repeat {
        /// 1 to [`MAX_LEN`].
        len: usize,
    },
}

impl Token {
    /// Output bytes the token gives.
    pub fn out_len(self) -> usize {
        match self {
            Token::Literals { len } | Token::Copy { len, .. } | Token::Repeat { len } => len,
        }
    }

    /// Bits the token takes after its flag (literals' bytes included).
    pub fn bits(self) -> usize {
        match self {
            Token::Literals { len } => gamma_bits(len) + 8 * len,
            Token::Copy { len, distance } => copy_bits(len, distance),
            Token::Repeat { len } => gamma_bits(len),
        }
    }
}

/// Bits of a copy after its flag.
pub fn copy_bits(len: usize, distance: usize) -> usize {
    gamma_bits((distance - 1) / 256 + 1) + 8 + gamma_bits(len - 1)
}

/// A stream that does not decode.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DenseError {
    /// The stream ended inside a token, or before the output was complete.
    #[error("packed stream ends at byte {at} with {missing} byte(s) of output still to come")]
    Truncated {
        /// Stream bytes read.
        at: usize,
        /// Output bytes not yet written.
        missing: usize,
    },
    /// A copy reaches back before the start of the output.
    #[error("copy near stream byte {at} reaches {distance} bytes back, but only {written} are written")]
    BeforeStart {
        /// Stream bytes read.
        at: usize,
        /// Its distance.
        distance: usize,
        /// Output bytes written before it.
        written: usize,
    },
    /// A token writes past the output's length.
    #[error("token near stream byte {at} writes {len} byte(s) at output {written}, past its length {out_len}")]
    Overrun {
        /// Stream bytes read.
        at: usize,
        /// Bytes it writes.
        len: usize,
        /// Output bytes written before it.
        written: usize,
        /// The output's length.
        out_len: usize,
    },
    /// Bytes are left in the stream once the output is complete.
    #[error("packed stream has {0} byte(s) after the output is complete")]
    Trailing(usize),
}

/// Writes tokens as a stream, taking their literals from `data`.
pub fn write(data: &[u8], tokens: &[Token]) -> Vec<u8> {
    let mut w = BitWriter::default();
    let mut at = 0;
    let mut after_literals = false;
    for (i, &t) in tokens.iter().enumerate() {
        match t {
            Token::Literals { len } => {
                if i > 0 {
                    debug_assert!(!after_literals, "literals after literals");
                    w.bit(false);
                }
                w.gamma(len);
                for &b in &data[at..at + len] {
                    w.byte(b);
                }
            }
            Token::Copy { len, distance } => {
                w.bit(true);
                let d = distance - 1;
                w.gamma(d / 256 + 1);
                w.byte(d as u8);
                w.gamma(len - 1);
            }
            Token::Repeat { len } => {
                debug_assert!(after_literals, "a repeat must follow literals");
                w.bit(false);
                w.gamma(len);
            }
        }
        after_literals = matches!(t, Token::Literals { .. });
        at += t.out_len();
    }
    w.finish()
}

/// What a decode gives: the output, and the lift an in-place decode needs (the most the
/// output written ever ran ahead of the stream fetched, so a stream placed that many bytes
/// above the output's start is never written over before it is read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The output.
    pub out: Vec<u8>,
    /// See the type's doc.
    pub lift: usize,
}

/// Decodes a whole stream into `out_len` bytes, as the 6502 decoder does.
pub fn unpack(stream: &[u8], out_len: usize) -> Result<Decoded, DenseError> {
    let mut r = BitReader::new(stream);
    let mut out: Vec<u8> = Vec::with_capacity(out_len);
    let mut lift = 0usize;
    let mut distance = 1usize;
    let mut literals_next = true;
    while out.len() < out_len {
        let missing = out_len - out.len();
        let ended = |r: &BitReader| DenseError::Truncated { at: r.at, missing };
        let (len, from) = if literals_next {
            let len = r.gamma(MAX_LEN).map_err(|Ended| ended(&r))?;
            check_len(&r, len, out.len(), out_len)?;
            for _ in 0..len {
                out.push(r.byte().map_err(|Ended| ended(&r))?);
                // A literal is fetched before it is written, so the write sits at most
                // at the stream's next byte to read.
                lift = lift.max(out.len().saturating_sub(r.at));
            }
            let after = if out.len() == out_len { None } else { Some(r.bit().map_err(|Ended| ended(&r))?) };
            match after {
                None => break,
                Some(true) => {
                    let (len, d) = copy(&mut r, missing)?;
                    distance = d;
                    (len, distance)
                }
                Some(false) => (r.gamma(MAX_LEN).map_err(|Ended| ended(&r))?, distance),
            }
        } else {
            let (len, d) = copy(&mut r, missing)?;
            distance = d;
            (len, distance)
        };
        check_len(&r, len, out.len(), out_len)?;
        if from > out.len() {
            return Err(DenseError::BeforeStart { at: r.at, distance: from, written: out.len() });
        }
        for _ in 0..len {
            out.push(out[out.len() - from]);
        }
        lift = lift.max(out.len().saturating_sub(r.at));
        if out.len() == out_len {
            break;
        }
        literals_next = !r.bit().map_err(|Ended| DenseError::Truncated { at: r.at, missing: out_len - out.len() })?;
    }
    if r.at != stream.len() {
        return Err(DenseError::Trailing(stream.len() - r.at));
    }
    Ok(Decoded { out, lift })
}

/// Reads a copy's distance and length (its flag already read).
fn copy(r: &mut BitReader, missing: usize) -> Result<(usize, usize), DenseError> {
    let ended = |r: &BitReader| DenseError::Truncated { at: r.at, missing };
    let high = r.gamma(256).map_err(|Ended| ended(r))? - 1;
    let low = r.byte().map_err(|Ended| ended(r))?;
    let len = r.gamma(MAX_LEN - 1).map_err(|Ended| ended(r))? + 1;
    Ok((len, high * 256 + usize::from(low) + 1))
}

fn check_len(r: &BitReader, len: usize, written: usize, out_len: usize) -> Result<(), DenseError> {
    if written + len > out_len {
        return Err(DenseError::Overrun { at: r.at, len, written, out_len });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_token_reads_back_as_written() {
        let data = b"abcabcabcXbcXabcY";
        let tokens = [
            Token::Literals { len: 3 },
            Token::Copy { len: 6, distance: 3 },
            Token::Literals { len: 1 },
            Token::Repeat { len: 3 },
            Token::Copy { len: 3, distance: 7 },
            Token::Literals { len: 1 },
        ];
        let stream = write(data, &tokens);
        let bits: usize = tokens.iter().map(|t| t.bits()).sum::<usize>() + tokens.len() - 1;
        assert!(stream.len() <= bits.div_ceil(8) + 1, "{} bytes for {bits} bits", stream.len());
        assert_eq!(unpack(&stream, data.len()).unwrap().out, data);
    }

    #[test]
    fn a_repeat_before_any_copy_repeats_the_last_byte() {
        let stream = write(b"zzzz", &[Token::Literals { len: 1 }, Token::Repeat { len: 3 }]);
        assert_eq!(unpack(&stream, 4).unwrap().out, b"zzzz");
    }

    #[test]
    fn broken_streams_say_what_is_wrong() {
        let stream = write(b"abcabc", &[Token::Literals { len: 3 }, Token::Copy { len: 3, distance: 3 }]);
        assert!(matches!(unpack(&stream[..stream.len() - 1], 6), Err(DenseError::Truncated { .. })));
        assert!(matches!(unpack(&stream, 5), Err(DenseError::Overrun { .. })));
        let mut longer = stream.clone();
        longer.push(0);
        assert_eq!(unpack(&longer, 6), Err(DenseError::Trailing(1)));
        let far = write(b"abcabc", &[Token::Literals { len: 3 }, Token::Copy { len: 3, distance: 4 }]);
        assert!(matches!(unpack(&far, 6), Err(DenseError::BeforeStart { distance: 4, .. })));
    }
}
