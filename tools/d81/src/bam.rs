//! The block availability map on 40/1 (tracks 1-40) and 40/2 (tracks 41-80).
//!
//! Each track has six bytes from offset `$10`: the number of free sectors, then a 40-bit map
//! where a set bit means free and the lowest bit of the first byte is sector 0. These
//! functions work on the raw image so that the image bytes stay the only state.

use crate::geometry::{BAM1, BAM2, DIR_TRACK, SECTORS_PER_TRACK, TRACKS, Ts};

/// Offset in the image of the six-byte BAM entry of `track` (1-80).
fn entry_offset(track: u8) -> usize {
    let (sector, index) = if track <= 40 { (BAM1, track - 1) } else { (BAM2, track - 41) };
    sector.offset().unwrap_or(0) + 0x10 + index as usize * 6
}

/// Whether the BAM marks a sector (on the disk) free.
pub(crate) fn is_free(image: &[u8], ts: Ts) -> bool {
    let at = entry_offset(ts.track) + 1 + ts.sector as usize / 8;
    image[at] & (1 << (ts.sector % 8)) != 0
}

/// Marks a sector used or free, keeping the track's free count in step.
pub(crate) fn set_free(image: &mut [u8], ts: Ts, free: bool) {
    if is_free(image, ts) == free {
        return;
    }
    let entry = entry_offset(ts.track);
    let at = entry + 1 + ts.sector as usize / 8;
    image[at] ^= 1 << (ts.sector % 8);
    image[entry] = if free { image[entry].wrapping_add(1) } else { image[entry].wrapping_sub(1) };
}

/// The free-count byte of a track.
pub(crate) fn count_byte(image: &[u8], track: u8) -> u8 {
    image[entry_offset(track)]
}

/// Free sectors according to a track's bitmap.
pub(crate) fn bitmap_free(image: &[u8], track: u8) -> u8 {
    (0..SECTORS_PER_TRACK).filter(|&s| is_free(image, Ts::new(track, s))).count() as u8
}

/// "Blocks free" as a directory listing shows it: every free sector off the directory track.
pub(crate) fn blocks_free(image: &[u8]) -> u16 {
    (1..=TRACKS).filter(|&t| t != DIR_TRACK).map(|t| u16::from(bitmap_free(image, t))).sum()
}

/// A free map of the whole disk indexed by [`Ts::index`], for planning allocations.
pub(crate) fn free_map(image: &[u8]) -> Vec<bool> {
    (0..crate::geometry::TOTAL_SECTORS).map(|i| is_free(image, Ts::from_index(i))).collect()
}

/// Writes both BAM sectors of a freshly formatted disk: headers, every sector free except the
/// header, the BAM sectors and the first directory sector.
pub(crate) fn format(image: &mut [u8], id: [u8; 2]) {
    for (sector, link) in [(BAM1, [DIR_TRACK, 2]), (BAM2, [0, 0xff])] {
        let at = sector.offset().unwrap_or(0);
        let raw = &mut image[at..at + 256];
        raw.fill(0);
        raw[0..2].copy_from_slice(&link);
        raw[2] = b'D';
        raw[3] = !b'D';
        raw[4..6].copy_from_slice(&id);
        // I/O byte: verify on, check header CRC (what a 1581 writes when it formats).
        raw[6] = 0xc0;
        for t in 0..40 {
            let e = 0x10 + t * 6;
            raw[e] = SECTORS_PER_TRACK;
            raw[e + 1..e + 6].fill(0xff);
        }
    }
    for s in 0..4 {
        set_free(image, Ts::new(DIR_TRACK, s), false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::IMAGE_SIZE;

    #[test]
    fn a_formatted_bam_has_3160_blocks_free() {
        let mut image = vec![0u8; IMAGE_SIZE];
        format(&mut image, *b"B1");
        assert_eq!(blocks_free(&image), 3160);
        assert_eq!(count_byte(&image, 40), 36);
        assert!(!is_free(&image, Ts::new(40, 3)));
        assert!(is_free(&image, Ts::new(40, 4)));
        set_free(&mut image, Ts::new(1, 9), false);
        assert_eq!(count_byte(&image, 1), 39);
        assert_eq!(bitmap_free(&image, 1), 39);
        // Track 1's bitmap starts at 40/1 + $11; sector 9 is bit 1 of its second byte.
        assert_eq!(image[BAM1.offset().unwrap() + 0x12], 0xfd);
        set_free(&mut image, Ts::new(1, 9), false);
        assert_eq!(count_byte(&image, 1), 39, "marking twice changes nothing");
        set_free(&mut image, Ts::new(80, 39), false);
        assert_eq!(image[BAM2.offset().unwrap() + 0x10 + 39 * 6 + 5], 0x7f);
        assert_eq!(blocks_free(&image), 3158);
    }
}
