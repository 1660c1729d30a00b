//! c128-loader: the code a bac128 program runs to get itself into the C128's memory, and
//! the memory map it loads into ([`mmap`]).
//!
//! In the order a player meets it:
//! - [`boot_stage`]: the file the boot sector loads; it streams the packed program in over
//!   the 1581's burst protocol and unpacks it as it arrives;
//! - [`first_stage`]: the same for a program started with `RUN` instead of booted;
//! - [`stream`]: the burst-protocol receiver both stages and the program's own start-up
//!   use, and [`fastload`], the 1581 drive routine that start-up can try for bank 1;
//! - [`selfextract`], [`unpack`], [`unpack_dense`] and [`pull_unpack`]: the 6502 decoders of
//!   bac-pack's formats (in place, from memory, or pulling bytes from the stream);
//! - [`basic_stub`]: the BASIC line every program starts with.
//!
//! It sits below the translator: avr2mos's start-up code ([`avr2mos::runtime`] there)
//! emits this crate's receiver and decoders into the programs it builds, and both share the
//! assembler in mos-asm. Nothing here knows AVR code.

pub mod boot_stage;
pub mod fastload;
pub mod first_stage;
pub mod mmap;
pub mod pull_unpack;
pub mod selfextract;
pub mod stream;
pub mod unpack;
pub mod unpack_dense;

use mmap::{CODE_START, LOAD_ADDR};

/// Why a loader or decoder could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoaderError {
    /// Settings that contradict each other (input problem: a file name, a packing format
    /// or a place that cannot work).
    #[error("settings: {0}")]
    Settings(String),
    /// The code or the packed data does not fit where it must go (an implementation
    /// limit of the program's size).
    #[error("image does not fit: {what} ends at {end:#06x}, {over} bytes over the limit {limit:#06x}", over = .end.saturating_sub(*.limit))]
    TooLarge {
        /// Which part overflowed.
        what: String,
        /// Where it ends.
        end: u32,
        /// The highest address allowed.
        limit: u32,
    },
    /// The assembler could not place or encode the code.
    #[error(transparent)]
    Link(#[from] mos_asm::LinkError),
}

/// The BASIC 7.0 stub at $1C01: `10 SYS 7181`, then the end-of-program link.
pub fn basic_stub() -> Vec<u8> {
    let next = LOAD_ADDR + 10;
    let mut s = vec![next as u8, (next >> 8) as u8, 10, 0, 0x9E];
    s.extend(CODE_START.to_string().bytes());
    s.extend([0, 0, 0]);
    debug_assert_eq!(LOAD_ADDR as usize + s.len(), CODE_START as usize);
    s
}
