//! The fixed geometry of a 1581 disk and the track/sector address type.
//!
//! A `.d81` file is the 1581's logical sectors in order: 80 tracks of 40 sectors of 256 bytes,
//! track 1 sector 0 first. Every other module turns a [`Ts`] into a byte offset through here,
//! so that no other code does address arithmetic on the image.

use std::fmt;

/// Number of tracks (numbered from 1).
pub const TRACKS: u8 = 80;
/// Sectors on every track (numbered from 0).
pub const SECTORS_PER_TRACK: u8 = 40;
/// Bytes in a sector.
pub const SECTOR_SIZE: usize = 256;
/// Logical sectors on one side of a track (0-19 on the first side, 20-39 on the second): the
/// 1581 reads a whole side into its track cache at once, so the sectors of one side cost one
/// read between them.
pub const SECTORS_PER_SIDE: u8 = 20;
/// Sectors on the disk.
pub const TOTAL_SECTORS: usize = TRACKS as usize * SECTORS_PER_TRACK as usize;
/// Size of a `.d81` image without an error table.
pub const IMAGE_SIZE: usize = TOTAL_SECTORS * SECTOR_SIZE;
/// Size of a `.d81` image followed by one error byte per sector (accepted when reading; the
/// error bytes are dropped because nothing here emulates read errors).
pub const IMAGE_SIZE_WITH_ERRORS: usize = IMAGE_SIZE + TOTAL_SECTORS;
/// The directory track: header, both BAM sectors and the directory live here.
pub const DIR_TRACK: u8 = 40;
/// Header sector (disk name and ID) on the directory track.
pub const HEADER: Ts = Ts::new(DIR_TRACK, 0);
/// BAM sector for tracks 1-40.
pub const BAM1: Ts = Ts::new(DIR_TRACK, 1);
/// BAM sector for tracks 41-80.
pub const BAM2: Ts = Ts::new(DIR_TRACK, 2);
/// First directory sector; a 1581 always starts here, whatever the header's link says.
pub const FIRST_DIR: Ts = Ts::new(DIR_TRACK, 3);
/// The C128 boot sector.
pub const BOOT: Ts = Ts::new(1, 0);
/// Data bytes in a file sector (the first two bytes are the link).
pub const BYTES_PER_BLOCK: usize = SECTOR_SIZE - 2;

/// A track and sector address, as stored in links and directory entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ts {
    /// Track, 1-80 on a valid address.
    pub track: u8,
    /// Sector, 0-39 on a valid address.
    pub sector: u8,
}

impl Ts {
    /// An address; it may be off the disk (check with [`Ts::is_on_disk`]).
    pub const fn new(track: u8, sector: u8) -> Ts {
        Ts { track, sector }
    }

    /// Whether the address names a sector of a 1581 disk.
    pub const fn is_on_disk(self) -> bool {
        self.track >= 1 && self.track <= TRACKS && self.sector < SECTORS_PER_TRACK
    }

    /// The sector's number in image order (0 for track 1 sector 0), if it is on the disk.
    pub const fn index(self) -> Option<usize> {
        if self.is_on_disk() {
            Some((self.track as usize - 1) * SECTORS_PER_TRACK as usize + self.sector as usize)
        } else {
            None
        }
    }

    /// Byte offset of the sector in the image, if it is on the disk.
    pub const fn offset(self) -> Option<usize> {
        match self.index() {
            Some(i) => Some(i * SECTOR_SIZE),
            None => None,
        }
    }

    /// The address of the sector with image-order number `index` (must be below
    /// [`TOTAL_SECTORS`]; larger values give an address off the disk).
    pub const fn from_index(index: usize) -> Ts {
        let per = SECTORS_PER_TRACK as usize;
        let track = index / per + 1;
        Ts::new(if track > 255 { 255 } else { track as u8 }, (index % per) as u8)
    }
}

impl fmt::Display for Ts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "track {} sector {}", self.track, self.sector)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_follow_the_d81_layout() {
        assert_eq!(Ts::new(1, 0).offset(), Some(0));
        assert_eq!(Ts::new(40, 0).offset(), Some(0x61800));
        assert_eq!(Ts::new(41, 0).offset(), Some(0x64000));
        assert_eq!(Ts::new(80, 39).offset(), Some(IMAGE_SIZE - SECTOR_SIZE));
        assert_eq!(Ts::new(0, 0).offset(), None);
        assert_eq!(Ts::new(81, 0).offset(), None);
        assert_eq!(Ts::new(1, 40).offset(), None);
    }

    #[test]
    fn index_round_trips() {
        for i in 0..TOTAL_SECTORS {
            assert_eq!(Ts::from_index(i).index(), Some(i));
        }
    }
}
