//! What can be wrong with an image read from bytes.
//!
//! Every variant names where the damage is (a track and sector, a file) so that a user can
//! find it with a sector editor. All of these are problems of the input, never bugs here.

use crate::geometry::Ts;
use thiserror::Error;

/// A `.d81` image that cannot be used safely.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ImageError {
    /// The input is not 819,200 bytes (or 822,400 with an error table).
    #[error("a .d81 image is 819200 bytes (822400 with error bytes), this one is {len}")]
    WrongSize {
        /// Length of the input.
        len: usize,
    },
    /// A fixed byte of the header or of a BAM sector has the wrong value.
    #[error("{what} at {at} byte ${offset:02X} is ${found:02X}, expected ${expected:02X}")]
    BadHeader {
        /// Which field.
        what: &'static str,
        /// The sector holding it.
        at: Ts,
        /// Byte offset in the sector.
        offset: usize,
        /// The byte found.
        found: u8,
        /// The byte a 1581 writes there.
        expected: u8,
    },
    /// The directory chain comes back to a sector it already visited.
    #[error("directory chain loops at {at}")]
    DirectoryLoop {
        /// The sector visited twice.
        at: Ts,
    },
    /// A directory sector links to a sector that does not exist.
    #[error("directory sector {from} links to track {track} sector {sector}, off the disk")]
    DirectoryLinkOffDisk {
        /// The directory sector with the bad link.
        from: Ts,
        /// Linked track.
        track: u8,
        /// Linked sector.
        sector: u8,
    },
    /// A directory entry that cannot be a file.
    #[error("directory entry {slot} at {at} ({name}): {reason}")]
    BadEntry {
        /// The directory sector.
        at: Ts,
        /// Entry number in the sector (0-7).
        slot: u8,
        /// The entry's name as ASCII.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// A file's sector chain comes back to a sector of the same file.
    #[error("file {file}: sector chain loops at {at}")]
    ChainLoop {
        /// The file.
        file: String,
        /// The sector visited twice.
        at: Ts,
    },
    /// A file sector links to a sector that does not exist.
    #[error("file {file}: {from} links to track {track} sector {sector}, off the disk")]
    LinkOffDisk {
        /// The file.
        file: String,
        /// The sector with the bad link.
        from: Ts,
        /// Linked track.
        track: u8,
        /// Linked sector.
        sector: u8,
    },
    /// The last sector of a file claims no data position (its second byte must be 1-255).
    #[error("file {file}: last sector {at} has last-byte index 0")]
    BadLastByte {
        /// The file.
        file: String,
        /// The last sector.
        at: Ts,
    },
    /// A file's chain ends before the block count in its directory entry.
    #[error("file {file} is truncated: the directory says {listed} blocks, the chain has {found}")]
    TruncatedFile {
        /// The file.
        file: String,
        /// Blocks in the directory entry.
        listed: u16,
        /// Sectors in the chain.
        found: u16,
    },
    /// A file's chain is longer than the block count in its directory entry.
    #[error("file {file}: the directory says {listed} blocks, the chain has {found}")]
    BlockCountMismatch {
        /// The file.
        file: String,
        /// Blocks in the directory entry.
        listed: u16,
        /// Sectors in the chain.
        found: u16,
    },
    /// Two files, or a file and the directory, use the same sector.
    #[error("{at} is used by both {first} and {second}")]
    CrossLinked {
        /// The shared sector.
        at: Ts,
        /// The earlier owner.
        first: String,
        /// The later owner.
        second: String,
    },
    /// A sector in use is marked free in the BAM, so the next save would overwrite it.
    #[error("the BAM marks {at} free, but {owner} uses it")]
    BamFreeButUsed {
        /// The sector.
        at: Ts,
        /// What uses it.
        owner: String,
    },
    /// A track's free count in the BAM differs from its bitmap.
    #[error("the BAM says track {track} has {count} free sectors, its bitmap has {bitmap}")]
    BamCountMismatch {
        /// The track.
        track: u8,
        /// The count byte.
        count: u8,
        /// Free sectors in the bitmap.
        bitmap: u8,
    },
}
