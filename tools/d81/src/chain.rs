//! Following linked sector chains (files and the directory) without trusting them.
//!
//! Every walk stops at a loop or a link off the disk with an [`ImageError`] naming the file
//! and the sector, so a broken image can never make a reader hang.

use crate::error::ImageError;
use crate::geometry::{BYTES_PER_BLOCK, TOTAL_SECTORS, Ts};

/// The sector at `ts` (which must be on the disk).
pub(crate) fn sector(image: &[u8], ts: Ts) -> &[u8] {
    let at = ts.offset().unwrap_or(0);
    &image[at..at + 256]
}

/// The sector at `ts` (which must be on the disk), writable.
pub(crate) fn sector_mut(image: &mut [u8], ts: Ts) -> &mut [u8] {
    let at = ts.offset().unwrap_or(0);
    &mut image[at..at + 256]
}

/// A file's chain: its sectors in order and the last-byte index of the last one.
pub(crate) struct Chain {
    pub sectors: Vec<Ts>,
    pub last_byte: u8,
}

/// Walks a file chain from `first`, named `file` in errors.
pub(crate) fn follow(image: &[u8], first: Ts, file: &str) -> Result<Chain, ImageError> {
    let mut seen = vec![false; TOTAL_SECTORS];
    let mut sectors = Vec::new();
    let mut at = first;
    loop {
        let index = at.index().ok_or(ImageError::LinkOffDisk {
            file: file.to_string(),
            from: *sectors.last().unwrap_or(&Ts::new(0, 0)),
            track: at.track,
            sector: at.sector,
        })?;
        if std::mem::replace(&mut seen[index], true) {
            return Err(ImageError::ChainLoop { file: file.to_string(), at });
        }
        sectors.push(at);
        let raw = sector(image, at);
        if raw[0] == 0 {
            if raw[1] == 0 {
                return Err(ImageError::BadLastByte { file: file.to_string(), at });
            }
            return Ok(Chain { sectors, last_byte: raw[1] });
        }
        let next = Ts::new(raw[0], raw[1]);
        if !next.is_on_disk() {
            return Err(ImageError::LinkOffDisk {
                file: file.to_string(),
                from: at,
                track: next.track,
                sector: next.sector,
            });
        }
        at = next;
    }
}

/// The bytes a chain holds: 254 from each sector, and up to the last-byte index in the last.
pub(crate) fn read(image: &[u8], chain: &Chain) -> Vec<u8> {
    let mut out = Vec::with_capacity(chain.sectors.len() * BYTES_PER_BLOCK);
    let last = chain.sectors.len() - 1;
    for (i, &ts) in chain.sectors.iter().enumerate() {
        let raw = sector(image, ts);
        let end = if i == last { usize::from(chain.last_byte) + 1 } else { 256 };
        out.extend_from_slice(&raw[2..end.max(2)]);
    }
    out
}

/// The sectors of the directory from 40/3, in order.
pub(crate) fn directory(image: &[u8]) -> Result<Vec<Ts>, ImageError> {
    let mut seen = vec![false; TOTAL_SECTORS];
    let mut out = Vec::new();
    let mut at = crate::geometry::FIRST_DIR;
    loop {
        let index = at.index().unwrap_or(0);
        if std::mem::replace(&mut seen[index], true) {
            return Err(ImageError::DirectoryLoop { at });
        }
        out.push(at);
        let raw = sector(image, at);
        if raw[0] == 0 {
            return Ok(out);
        }
        let next = Ts::new(raw[0], raw[1]);
        if !next.is_on_disk() {
            return Err(ImageError::DirectoryLinkOffDisk { from: at, track: next.track, sector: next.sector });
        }
        at = next;
    }
}
