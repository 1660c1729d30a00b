//! Packed program files that unpack over themselves.
//!
//! A packed `.prg` is the usual two-byte load address, the stream, and a six-byte trailer:
//! where the output starts, where it ends (exclusive) and where the stream starts (the load
//! address again), each low byte first. The KERNAL's LOAD returns the address after the
//! last byte loaded, so the decoder finds the trailer without being told the file's size.
//!
//! The load address is chosen so that unpacking forward from the output's start is safe:
//! after each token the next stream byte to read lies at or beyond the next output byte to
//! write, so a write never lands on a byte still to be read. With the stream at
//! `start + lift`, that holds when `lift` is at least (output written) - (stream read)
//! after every token; the last token makes the stream end at or after the output's end, so
//! the trailer is never written over either. [`unpack_prg`] replays this in a 64 KB memory.
//!
//! Either format goes in such a file ([`Format`]); the file does not say which, the program
//! that unpacks it is built for one.

use crate::format::{self, Token};
use crate::{dense, dense_parse, parse};
use thiserror::Error;

/// Bytes of the trailer.
pub const TRAILER: usize = 6;

/// A packed program file and what it says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedPrg {
    /// The whole file: load address, stream, trailer.
    pub file: Vec<u8>,
    /// Where it loads (the stream's first byte).
    pub load: u16,
    /// Where the output starts.
    pub start: u16,
    /// The address after the output's last byte.
    pub end: u16,
}

/// Which stream a packed file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// Byte-aligned tokens ([`crate::format`]): the faster decoder, about 32 cycles a byte.
    #[default]
    Bytes,
    /// Bits and gamma codes ([`crate::dense`]): fewer bytes, a decoder about three times
    /// slower.
    Dense,
}

/// A file that cannot be packed where it must go, or a packed file that is not sound.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum InPlaceError {
    /// The packed file would reach `limit` (or past 64 KB).
    #[error(
        "packed file for ${start:04X}-${end:04X} would load at ${load:04X} and end at ${file_end:05X}, past ${limit:04X}"
    )]
    TooHigh {
        /// Output start.
        start: u16,
        /// Output end.
        end: u32,
        /// Its load address.
        load: u32,
        /// The address after its last byte.
        file_end: u32,
        /// The first address it may not reach.
        limit: u16,
    },
    /// Shorter than a load address and a trailer.
    #[error("packed file of {0} bytes is shorter than a load address and a trailer")]
    Short(usize),
    /// The trailer disagrees with the load address or the file's size.
    #[error("packed file's trailer {0}")]
    Trailer(String),
    /// The stream does not decode.
    #[error(transparent)]
    Stream(#[from] format::UnpackError),
    /// A dense stream does not decode.
    #[error(transparent)]
    Dense(#[from] dense::DenseError),
    /// Unpacking in place read a byte it had already written over.
    #[error("unpacking in place writes over the stream at ${at:04X} before reading it")]
    Overlap {
        /// Where.
        at: u16,
    },
}

/// Packs `data`, which must run from `start`, into a program file that unpacks in place
/// and ends below `limit`, its stream in `format`.
pub fn pack_prg(data: &[u8], start: u16, limit: u16, format: Format) -> Result<PackedPrg, InPlaceError> {
    let (stream, lift) = match format {
        Format::Bytes => bytes_stream(data),
        Format::Dense => {
            let stream = dense_parse::pack(data);
            let lift = dense::unpack(&stream, data.len())?.lift;
            (stream, lift)
        }
    };
    let end = u32::from(start) + data.len() as u32;
    let load = u32::from(start) + lift as u32;
    let file_end = load + (stream.len() + TRAILER) as u32;
    if file_end > u32::from(limit) || end > 0xFFFF {
        return Err(InPlaceError::TooHigh { start, end, load, file_end, limit });
    }
    let mut file = (load as u16).to_le_bytes().to_vec();
    file.extend(&stream);
    for word in [start, end as u16, load as u16] {
        file.extend(word.to_le_bytes());
    }
    Ok(PackedPrg { file, load: load as u16, start, end: end as u16 })
}

/// A byte-aligned stream and the lift it needs.
fn bytes_stream(data: &[u8]) -> (Vec<u8>, usize) {
    let tokens = parse::tokens(data);
    let (mut written, mut read, mut lift) = (0usize, 0usize, 0usize);
    for t in &tokens {
        let len = match *t {
            Token::Literals { len } | Token::Copy { len, .. } => len,
        };
        written += len;
        read += t.size();
        lift = lift.max(written.saturating_sub(read));
    }
    (parse::write(data, &tokens), lift)
}

/// Unpacks a packed program file as the 6502 decoder does, in one 64 KB memory: loads it
/// at its address, reads the trailer, decodes forward from the output's start. Returns
/// the output's start and bytes; fails on a bad trailer, a bad stream, or a write over a
/// stream byte not yet read. The stream is in `format`.
pub fn unpack_prg(file: &[u8], format: Format) -> Result<(u16, Vec<u8>), InPlaceError> {
    if file.len() < 2 + TRAILER {
        return Err(InPlaceError::Short(file.len()));
    }
    let word = |at: usize| u16::from_le_bytes([file[at], file[at + 1]]);
    let load = word(0);
    let t = file.len() - TRAILER;
    let (start, end, stream_at) = (word(t), word(t + 2), word(t + 4));
    if stream_at != load {
        return Err(InPlaceError::Trailer(format!(
            "says the stream is at ${stream_at:04X}, the file loads at ${load:04X}"
        )));
    }
    let stream = &file[2..t];
    let stream_end = usize::from(load) + stream.len();
    if stream_end + TRAILER > 0x10000 {
        return Err(InPlaceError::Trailer(format!(
            "puts the file past 64 KB (load ${load:04X}, {} bytes)",
            file.len() - 2
        )));
    }
    if end < start || usize::from(end) > stream_end {
        return Err(InPlaceError::Trailer(format!(
            "says the output is ${start:04X}-${end:04X}, the stream ends at ${stream_end:04X}"
        )));
    }
    if format == Format::Dense {
        // The reference decoder counts what it has fetched at every write: the lift it
        // reports is what a forward decode in place needs.
        let decoded = dense::unpack(stream, usize::from(end - start))?;
        if usize::from(load) < usize::from(start) + decoded.lift {
            return Err(InPlaceError::Overlap { at: load });
        }
        return Ok((start, decoded.out));
    }
    // The output by the reference decoder first (a bad stream says what is wrong with it),
    // then the same tokens replayed in memory, writes checked against unread stream bytes.
    let out = format::unpack(stream, usize::from(end - start))?;
    let mut mem = vec![0u8; 0x10000];
    mem[usize::from(load)..stream_end].copy_from_slice(stream);
    let (mut src, mut dst) = (usize::from(load), usize::from(start));
    while dst < usize::from(end) {
        let (token, next) = format::read_token(&mem[..stream_end], src, usize::from(end) - dst)?;
        src = next;
        let (len, from) = match token {
            Token::Literals { len } => (len, None),
            Token::Copy { len, distance } => (len, Some(dst - distance)),
        };
        for k in 0..len {
            let byte = match from {
                None => mem[src + k],
                Some(f) => mem[f + k],
            };
            // A write at or past the next unread stream byte clobbers it.
            let unread = if from.is_none() { src + k + 1 } else { src };
            if dst + k >= unread && dst + k < stream_end {
                return Err(InPlaceError::Overlap { at: (dst + k) as u16 });
            }
            mem[dst + k] = byte;
        }
        if from.is_none() {
            src += len;
        }
        dst += len;
    }
    debug_assert_eq!(&mem[usize::from(start)..usize::from(end)], &out[..]);
    Ok((start, mem[usize::from(start)..usize::from(end)].to_vec()))
}
