//! Checks a whole image before anything uses it.
//!
//! Every sector in use (header, BAM, directory, every closed file's chain, partitions) gets
//! one owner; a second owner, a loop, a link off the disk, a chain that disagrees with its
//! block count, or a used sector that the BAM calls free is an error. Sectors the BAM marks
//! used without an owner are accepted: the C128 boot sector and blocks reserved with the
//! DOS's block-allocate command look exactly like that on real disks. Unclosed ("splat")
//! files are listed but not followed, as the 1581's own validate would drop them.
//!
//! The BAM sectors must carry the links and the `'D'`, `$BB` version bytes that a 1581
//! writes: an image without them was not written by a 1581 or a tool that imitates one, and
//! its BAM is not trusted. The header's own version byte is not checked: a 1581 reads any
//! value there and only refuses to write (see [`crate::Disk::is_write_protected`]).

use crate::bam;
use crate::chain;
use crate::dir::{DirEntry, ENTRIES_PER_SECTOR, ENTRY_SIZE, FileType, Slot};
use crate::error::ImageError;
use crate::geometry::{BAM1, BAM2, DIR_TRACK, HEADER, TOTAL_SECTORS, TRACKS, Ts};
use crate::petscii;

/// Every directory entry in order (scratched slots skipped), or the first damage found.
pub(crate) fn scan_directory(image: &[u8]) -> Result<Vec<DirEntry>, ImageError> {
    let mut out = Vec::new();
    for ts in chain::directory(image)? {
        let raw = chain::sector(image, ts);
        for index in 0..ENTRIES_PER_SECTOR {
            let slot = Slot { sector: ts, index };
            let bytes = &raw[slot.offset_in_sector()..slot.offset_in_sector() + ENTRY_SIZE];
            match DirEntry::decode(bytes, slot) {
                Ok(Some(entry)) => out.push(entry),
                Ok(None) => {}
                Err(reason) => {
                    return Err(ImageError::BadEntry {
                        at: ts,
                        slot: index,
                        name: format!("\"{}\"", petscii::to_ascii(&crate::dir::unpad(&bytes[5..21]))),
                        reason,
                    });
                }
            }
        }
    }
    Ok(out)
}

/// The sectors a closed entry's data occupies, checked against its block count.
pub(crate) fn file_sectors(image: &[u8], entry: &DirEntry) -> Result<Vec<Ts>, ImageError> {
    let name = entry.quoted_name();
    let bad_entry = |reason: String| ImageError::BadEntry {
        at: entry.slot.sector,
        slot: entry.slot.index,
        name: name.clone(),
        reason,
    };
    if entry.first.track == 0 {
        // A directory line without data (directory art, often with a made-up block count):
        // nothing to follow and nothing allocated.
        return Ok(Vec::new());
    }
    if !entry.first.is_on_disk() {
        return Err(bad_entry(format!(
            "its first sector, track {} sector {}, is off the disk",
            entry.first.track, entry.first.sector
        )));
    }
    if entry.file_type == FileType::Cbm {
        let start = entry.first.index().unwrap_or(0);
        let end = start + usize::from(entry.blocks);
        if end > TOTAL_SECTORS {
            return Err(bad_entry(format!("the partition of {} blocks runs off the disk", entry.blocks)));
        }
        return Ok((start..end).map(Ts::from_index).collect());
    }
    let chain = chain::follow(image, entry.first, &name)?;
    let found = chain.sectors.len().min(usize::from(u16::MAX)) as u16;
    if found < entry.blocks {
        return Err(ImageError::TruncatedFile { file: name, listed: entry.blocks, found });
    }
    if found > entry.blocks {
        return Err(ImageError::BlockCountMismatch { file: name, listed: entry.blocks, found });
    }
    Ok(chain.sectors)
}

/// Validates the structure of a 819,200-byte image.
pub(crate) fn validate(image: &[u8]) -> Result<(), ImageError> {
    for (what, at, link) in [("BAM sector 1", BAM1, [DIR_TRACK, 2]), ("BAM sector 2", BAM2, [0, 0xff])] {
        let raw = chain::sector(image, at);
        for (offset, expected) in [(0, link[0]), (1, link[1]), (2, b'D'), (3, !b'D')] {
            if raw[offset] != expected {
                return Err(ImageError::BadHeader { what, at, offset, found: raw[offset], expected });
            }
        }
    }
    for track in 1..=TRACKS {
        let (count, bitmap) = (bam::count_byte(image, track), bam::bitmap_free(image, track));
        if count != bitmap {
            return Err(ImageError::BamCountMismatch { track, count, bitmap });
        }
    }

    let mut owner: Vec<Option<String>> = vec![None; TOTAL_SECTORS];
    let mut claim = |ts: Ts, who: &str| -> Result<(), ImageError> {
        let slot = &mut owner[ts.index().unwrap_or(0)];
        if let Some(first) = slot {
            return Err(ImageError::CrossLinked { at: ts, first: first.clone(), second: who.to_string() });
        }
        *slot = Some(who.to_string());
        if bam::is_free(image, ts) {
            return Err(ImageError::BamFreeButUsed { at: ts, owner: who.to_string() });
        }
        Ok(())
    };
    claim(HEADER, "the disk header")?;
    claim(BAM1, "the BAM")?;
    claim(BAM2, "the BAM")?;
    for ts in chain::directory(image)? {
        claim(ts, "the directory")?;
    }
    for entry in scan_directory(image)? {
        if !entry.closed {
            continue;
        }
        let who = format!("file {}", entry.quoted_name());
        for ts in file_sectors(image, &entry)? {
            claim(ts, &who)?;
        }
    }
    Ok(())
}
