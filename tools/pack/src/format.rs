//! The token stream, and its reference decoder (what the 6502 decoder in
//! `tools/loader/src/unpack.rs` does, byte for byte).
//!
//! | token | then | means |
//! | --- | --- | --- |
//! | `0nnnnnnn` | n + 1 bytes | copy those n + 1 bytes (1 to 128) |
//! | `10nnnnnn` | one byte d | copy n + 2 bytes (2 to 65) from d + 1 bytes back (1 to 256) |
//! | `11nnnnnn` | two bytes d (low, high) | copy n + 3 bytes (3 to 66) from d + 1 bytes back (1 to 65,536) |
//!
//! A copy reads the output already written, one byte at a time from its start, so a copy
//! longer than its distance repeats (d = 0 fills with the last byte). The stream has no end
//! marker: the decoder stops when the output has the length it was told.

use thiserror::Error;

/// Longest literal run of one token.
pub const MAX_LITERALS: usize = 128;
/// Shortest and longest copy with a one-byte distance.
pub const NEAR_MIN: usize = 2;
/// See [`NEAR_MIN`].
pub const NEAR_MAX: usize = 65;
/// Farthest distance of a one-byte copy.
pub const NEAR_DISTANCE: usize = 256;
/// Shortest and longest copy with a two-byte distance.
pub const FAR_MIN: usize = 3;
/// See [`FAR_MIN`].
pub const FAR_MAX: usize = 66;
/// Farthest distance of a two-byte copy.
pub const FAR_DISTANCE: usize = 65_536;

/// One token of the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token {
    /// Copy the next `len` bytes of the stream.
    Literals {
        /// 1 to [`MAX_LITERALS`].
        len: usize,
    },
    /// Copy `len` bytes of the output from `distance` bytes back.
    Copy {
        /// [`NEAR_MIN`] to [`FAR_MAX`].
        len: usize,
        /// 1 to [`FAR_DISTANCE`].
        distance: usize,
    },
}

/// Whether a copy fits the one-byte-distance token (the shorter one).
fn near(len: usize, distance: usize) -> bool {
    distance <= NEAR_DISTANCE && (NEAR_MIN..=NEAR_MAX).contains(&len)
}

impl Token {
    /// Bytes the token takes in the stream, its literals included.
    pub fn size(self) -> usize {
        match self {
            Token::Literals { len } => 1 + len,
            Token::Copy { len, distance } if near(len, distance) => 2,
            Token::Copy { .. } => 3,
        }
    }

    /// Whether the format can say this token.
    pub fn valid(self) -> bool {
        match self {
            Token::Literals { len } => (1..=MAX_LITERALS).contains(&len),
            Token::Copy { len, distance } => {
                distance >= 1
                    && (near(len, distance) || (distance <= FAR_DISTANCE && (FAR_MIN..=FAR_MAX).contains(&len)))
            }
        }
    }

    /// Appends the token's bytes (not its literals) to `out`.
    pub fn encode(self, out: &mut Vec<u8>) {
        debug_assert!(self.valid(), "{self:?}");
        match self {
            Token::Literals { len } => out.push((len - 1) as u8),
            Token::Copy { len, distance } if near(len, distance) => {
                out.extend([0x80 | (len - NEAR_MIN) as u8, (distance - 1) as u8]);
            }
            Token::Copy { len, distance } => {
                let d = (distance - 1) as u16;
                out.extend([0xC0 | (len - FAR_MIN) as u8]);
                out.extend(d.to_le_bytes());
            }
        }
    }
}

/// A stream that does not decode.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum UnpackError {
    /// The stream ended inside a token, or before the output was complete.
    #[error("packed stream ends at byte {at} with {missing} byte(s) of output still to come")]
    Truncated {
        /// Offset in the stream.
        at: usize,
        /// Output bytes not yet written.
        missing: usize,
    },
    /// A copy reaches back before the start of the output.
    #[error("token at stream byte {at} copies from {distance} bytes back, but only {written} are written")]
    BeforeStart {
        /// Offset of the token in the stream.
        at: usize,
        /// Its distance.
        distance: usize,
        /// Output bytes written before it.
        written: usize,
    },
    /// A token writes past the output's length.
    #[error("token at stream byte {at} writes {len} byte(s) at output {written}, past its length {out_len}")]
    Overrun {
        /// Offset of the token in the stream.
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

/// Reads the token at `stream[at..]`: the token and the offset after its own bytes (before
/// its literals).
pub fn read_token(stream: &[u8], at: usize, missing: usize) -> Result<(Token, usize), UnpackError> {
    let truncated = || UnpackError::Truncated { at: stream.len(), missing };
    let t = *stream.get(at).ok_or_else(truncated)?;
    let n = usize::from(t & 0x3F);
    Ok(match t >> 6 {
        0 | 1 => (Token::Literals { len: usize::from(t) + 1 }, at + 1),
        2 => {
            let d = *stream.get(at + 1).ok_or_else(truncated)?;
            (Token::Copy { len: n + NEAR_MIN, distance: usize::from(d) + 1 }, at + 2)
        }
        _ => {
            let d = stream.get(at + 1..at + 3).ok_or_else(truncated)?;
            (Token::Copy { len: n + FAR_MIN, distance: usize::from(u16::from_le_bytes([d[0], d[1]])) + 1 }, at + 3)
        }
    })
}

/// Decodes a whole stream into `out_len` bytes.
pub fn unpack(stream: &[u8], out_len: usize) -> Result<Vec<u8>, UnpackError> {
    let mut out = Vec::with_capacity(out_len);
    let mut at = 0;
    while out.len() < out_len {
        let (token, next) = read_token(stream, at, out_len - out.len())?;
        let len = match token {
            Token::Literals { len } | Token::Copy { len, .. } => len,
        };
        if out.len() + len > out_len {
            return Err(UnpackError::Overrun { at, len, written: out.len(), out_len });
        }
        match token {
            Token::Literals { len } => {
                let bytes = stream
                    .get(next..next + len)
                    .ok_or(UnpackError::Truncated { at: stream.len(), missing: out_len - out.len() })?;
                out.extend_from_slice(bytes);
                at = next + len;
            }
            Token::Copy { len, distance } => {
                if distance > out.len() {
                    return Err(UnpackError::BeforeStart { at, distance, written: out.len() });
                }
                for _ in 0..len {
                    out.push(out[out.len() - distance]);
                }
                at = next;
            }
        }
    }
    if at != stream.len() {
        return Err(UnpackError::Trailing(stream.len() - at));
    }
    Ok(out)
}
