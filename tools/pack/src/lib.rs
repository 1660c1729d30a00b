//! bac-pack: the packer of the game's files. A C128 loads a file from a 1581 at about 6 KB
//! a second, so fewer bytes on the disk are a shorter wait at power-on; the 6502 then
//! unpacks them where they will run, in place, at about 40 cycles a byte.
//!
//! The format is a byte-aligned LZ77 of three kinds of token, chosen so that the 6502
//! decoder is small and needs no bit reader ([`mod@format`]); the packer parses optimally for
//! it (the fewest bytes over every choice of tokens, [`parse`]). A packed program file
//! ([`in_place`]) is placed so that the decoder, writing forward from the start of the
//! output, never overtakes the bytes it has still to read: it unpacks over itself with no
//! second buffer.
//!
//! A second format ([`dense`], packed by [`dense_parse`]) spends bits rather than bytes on
//! lengths and distances and repeats the last distance for free: about a sixth fewer bytes
//! (a fifth for 6502 code) for a 6502 decoder about three times as slow. It pays only where
//! the decoding does not hold the load up, which the burst load's one byte in flight does
//! not allow yet (docs/disk-and-loading.md#tried-and-left-out).

pub mod bits;
pub mod dense;
pub mod dense_parse;
pub mod format;
pub mod in_place;
pub mod parse;

pub use format::{UnpackError, unpack};
pub use in_place::{Format, InPlaceError, PackedPrg, pack_prg, unpack_prg};
pub use parse::pack;
