//! Changing files on a [`Disk`]: save, save-with-replace (`@0:`), scratch and rename, with
//! the checks and status codes of the 1581.
//!
//! Each operation checks everything (write protection, the name, room for the data and for
//! a directory entry) before it touches the image, so a failed operation leaves the disk as
//! it was. Space comes from [`crate::alloc`], in the order a 1581 uses.

use crate::alloc;
use crate::bam;
use crate::boot::{BootInfo, BootSector};
use crate::chain;
use crate::dir::{self, DirEntry, ENTRIES_PER_SECTOR, FileType, NAME_LEN, Slot};
use crate::disk::Disk;
use crate::geometry::{BOOT, BYTES_PER_BLOCK, Ts};
use crate::petscii;
use crate::status::DosError;
use crate::validate;

/// Where a new file's sectors go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Placement {
    /// As the 1581's DOS places them (every save, and a manifest's files by default).
    #[default]
    Dos,
    /// The first sectors on the directory's side of track 40, for a file loaded right after
    /// the drive has read it (the game's files at boot; see `alloc::plan_beside_directory`).
    BesideDirectory,
}

/// Blocks a file of `len` bytes takes (an empty file still takes one).
pub fn blocks_for(len: usize) -> usize {
    len.div_ceil(BYTES_PER_BLOCK).max(1)
}

/// Checks a name to save under: 1-16 bytes, none of the characters the DOS gives a meaning
/// (`*?,:="` and CR), and no trailing `$A0` (it would read back as padding).
pub fn check_name(name: &[u8]) -> Result<(), DosError> {
    let bad = |reason| DosError::BadName { name: petscii::to_ascii(name), reason };
    if name.is_empty() {
        return Err(DosError::NoName);
    }
    if name.len() > NAME_LEN {
        return Err(bad("a file name has at most 16 characters"));
    }
    if dir::has_wildcard(name) {
        return Err(bad("a saved name cannot hold * or ?"));
    }
    if name.last() == Some(&dir::PAD) {
        return Err(bad("a file name cannot end in a shifted space ($A0), the directory's padding"));
    }
    if name.iter().any(|b| b",:=\"\r".contains(b)) {
        return Err(bad("a file name cannot hold , : = \" or RETURN"));
    }
    Ok(())
}

impl Disk {
    /// Saves a new file (SAVE, or OPEN for writing and CLOSE): 63 FILE EXISTS if the name is
    /// taken, 72 DISK FULL if the blocks or a directory entry do not fit, 26 WRITE PROTECT
    /// ON, 33/34 SYNTAX ERROR for a bad name. Only PRG, SEQ and USR files can be written.
    pub fn write_file(&mut self, name: &[u8], file_type: FileType, data: &[u8]) -> Result<DirEntry, DosError> {
        self.write_file_placed(name, file_type, data, Placement::Dos)
    }

    /// [`Disk::write_file`] with the file's sectors placed as `placement` says.
    pub fn write_file_placed(
        &mut self,
        name: &[u8],
        file_type: FileType,
        data: &[u8],
        placement: Placement,
    ) -> Result<DirEntry, DosError> {
        self.check_writable()?;
        check_name(name)?;
        if let Some(existing) = self.find_exact(name) {
            return Err(DosError::FileExists { name: existing.quoted_name() });
        }
        self.store(name, file_type, data, None, placement)
    }

    /// Saves with replace (`SAVE"@0:NAME",8`): like [`Disk::write_file`], but an existing
    /// file of that name is replaced in its directory slot. As on the drive, the new file is
    /// written before the old one is freed, so the disk needs room for both.
    pub fn replace_file(&mut self, name: &[u8], file_type: FileType, data: &[u8]) -> Result<DirEntry, DosError> {
        self.check_writable()?;
        check_name(name)?;
        let old = self.find_exact(name);
        self.store(name, file_type, data, old, Placement::Dos)
    }

    /// Scratches every unlocked file matching `pattern` (`S0:PATTERN`) and returns how many;
    /// the status is then 01 FILES SCRATCHED with that count (also when it is 0).
    pub fn scratch(&mut self, pattern: &[u8]) -> Result<u8, DosError> {
        self.check_writable()?;
        if pattern.is_empty() {
            return Err(DosError::NoName);
        }
        let victims: Vec<DirEntry> =
            self.entries().into_iter().filter(|e| !e.locked && dir::matches(pattern, &e.name)).collect();
        let mut freed = Vec::new();
        for entry in &victims {
            if entry.closed {
                freed.extend(validate::file_sectors(&self.image, entry)?);
            }
        }
        for ts in freed {
            bam::set_free(&mut self.image, ts, true);
        }
        for entry in &victims {
            let at = entry.slot.offset_in_sector() + 2;
            chain::sector_mut(&mut self.image, entry.slot.sector)[at] = 0;
        }
        Ok(victims.len().min(255) as u8)
    }

    /// Renames a file (`R0:NEW=OLD`): 62 FILE NOT FOUND if `old` is missing, 63 FILE EXISTS
    /// if `new` is taken.
    pub fn rename(&mut self, old: &[u8], new: &[u8]) -> Result<DirEntry, DosError> {
        self.check_writable()?;
        check_name(new)?;
        if let Some(existing) = self.find_exact(new) {
            return Err(DosError::FileExists { name: existing.quoted_name() });
        }
        let mut entry =
            self.find_exact(old).ok_or_else(|| DosError::FileNotFound { pattern: petscii::to_ascii(old) })?;
        entry.name = new.to_vec();
        self.put_entry(&entry);
        Ok(entry)
    }

    /// Adds `data` to the end of an existing file (`OPEN` with `,A`): the last sector is
    /// filled, then the chain grows as a save would. 62 FILE NOT FOUND if there is no such
    /// file (wildcards are not taken), 64 FILE TYPE MISMATCH for anything but PRG, SEQ and
    /// USR, 72 DISK FULL (nothing changed) if the new blocks do not fit.
    pub fn append_file(&mut self, name: &[u8], data: &[u8]) -> Result<DirEntry, DosError> {
        self.check_writable()?;
        let mut entry =
            self.find_exact(name).ok_or_else(|| DosError::FileNotFound { pattern: petscii::to_ascii(name) })?;
        if !entry.closed {
            return Err(DosError::WriteFileOpen { name: entry.quoted_name() });
        }
        if !matches!(entry.file_type, FileType::Prg | FileType::Seq | FileType::Usr) || entry.first.track == 0 {
            return Err(DosError::FileTypeMismatch {
                name: entry.quoted_name(),
                found: entry.file_type.as_str(),
                wanted: "PRG, SEQ or USR",
            });
        }
        let chain = chain::follow(&self.image, entry.first, &entry.quoted_name())?;
        let last = *chain.sectors.last().unwrap_or(&entry.first);
        let used = usize::from(chain.last_byte).saturating_sub(1);
        let room = BYTES_PER_BLOCK - used.min(BYTES_PER_BLOCK);
        let (head, tail) = data.split_at(room.min(data.len()));
        let more = tail.len().div_ceil(BYTES_PER_BLOCK);
        let mut free = bam::free_map(&self.image);
        let sectors = alloc::plan_after(&mut free, Some(last), more)
            .ok_or(DosError::DiskFull { needed: more.min(usize::from(u16::MAX)) as u16, free: self.blocks_free() })?;

        // It fits: fill the last sector, then chain the new ones after it.
        let raw = chain::sector_mut(&mut self.image, last);
        raw[2 + used..2 + used + head.len()].copy_from_slice(head);
        match sectors.first() {
            Some(next) => {
                raw[0] = next.track;
                raw[1] = next.sector;
            }
            None => raw[1] = (used + head.len() + 1) as u8,
        }
        if !sectors.is_empty() {
            self.write_chain(&sectors, tail);
        }
        entry.blocks = entry.blocks.saturating_add(sectors.len() as u16);
        self.put_entry(&entry);
        Ok(entry)
    }

    /// Writes a C128 boot sector to track 1 sector 0, and its stage's blocks (if any) to the
    /// sectors after it, where the KERNAL reads them, and allocates them all in the BAM, so
    /// that no later file takes them. Fails if a file already uses one of those sectors.
    pub fn install_boot_sector(&mut self, boot: &BootSector) -> Result<(), DosError> {
        self.check_writable()?;
        let bytes = boot.to_bytes()?;
        let blocks = boot.stage.as_ref().map(|s| s.blocks()).unwrap_or_default();
        let places: Vec<Ts> = (0..=blocks.len() as u8).map(|s| Ts::new(BOOT.track, BOOT.sector + s)).collect();
        for entry in self.entries().into_iter().filter(|e| e.closed) {
            let used = validate::file_sectors(&self.image, &entry)?;
            if let Some(&sector) = places.iter().find(|p| used.contains(p)) {
                return Err(DosError::BootSectorInUse { sector, owner: entry.quoted_name() });
            }
        }
        let contents = std::iter::once(&bytes).chain(&blocks);
        for (&place, block) in places.iter().zip(contents) {
            chain::sector_mut(&mut self.image, place).copy_from_slice(block);
            bam::set_free(&mut self.image, place, false);
        }
        Ok(())
    }

    /// The boot sector's contents, if track 1 sector 0 is allocated and starts with "CBM".
    pub fn boot_info(&self) -> Option<BootInfo> {
        if bam::is_free(&self.image, BOOT) {
            return None;
        }
        BootInfo::parse(chain::sector(&self.image, BOOT))
    }

    /// The entry with exactly this name (no wildcards), of any type.
    fn find_exact(&self, name: &[u8]) -> Option<DirEntry> {
        self.entries().into_iter().find(|e| e.name == name)
    }

    fn put_entry(&mut self, entry: &DirEntry) {
        let at = entry.slot.offset_in_sector();
        let sector = chain::sector_mut(&mut self.image, entry.slot.sector);
        entry.encode(&mut sector[at..at + dir::ENTRY_SIZE]);
    }

    /// Writes `data` as a new chain and points an entry at it: `old`'s slot (whose chain is
    /// freed afterwards) or a free slot, adding a directory sector if needed.
    fn store(
        &mut self,
        name: &[u8],
        file_type: FileType,
        data: &[u8],
        old: Option<DirEntry>,
        placement: Placement,
    ) -> Result<DirEntry, DosError> {
        if !matches!(file_type, FileType::Prg | FileType::Seq | FileType::Usr) {
            return Err(DosError::FileTypeMismatch {
                name: format!("\"{}\"", petscii::to_ascii(name)),
                found: file_type.as_str(),
                wanted: "PRG, SEQ or USR",
            });
        }
        let old_sectors = match &old {
            Some(e) if e.closed => validate::file_sectors(&self.image, e)?,
            _ => Vec::new(),
        };
        let mut free = bam::free_map(&self.image);
        let dir_sectors = self.directory_sectors()?;
        let (slot, new_dir_sector) = match &old {
            Some(e) => (e.slot, None),
            None => match self.free_slot(&dir_sectors) {
                Some(slot) => (slot, None),
                None => {
                    let last = *dir_sectors.last().unwrap_or(&crate::geometry::FIRST_DIR);
                    let ts = alloc::plan_directory(&mut free, last).ok_or(DosError::DirectoryFull)?;
                    (Slot { sector: ts, index: 0 }, Some((last, ts)))
                }
            },
        };
        let blocks = blocks_for(data.len());
        let plan = match placement {
            Placement::Dos => alloc::plan_file(&mut free, blocks),
            Placement::BesideDirectory => alloc::plan_beside_directory(&mut free, blocks),
        };
        let sectors = plan
            .ok_or(DosError::DiskFull { needed: blocks.min(usize::from(u16::MAX)) as u16, free: self.blocks_free() })?;

        // Everything fits: from here on nothing can fail.
        if let Some((last, ts)) = new_dir_sector {
            let raw = chain::sector_mut(&mut self.image, ts);
            raw.fill(0);
            raw[1] = 0xff;
            let prev = chain::sector_mut(&mut self.image, last);
            prev[0] = ts.track;
            prev[1] = ts.sector;
            bam::set_free(&mut self.image, ts, false);
        }
        self.write_chain(&sectors, data);
        for &ts in &old_sectors {
            bam::set_free(&mut self.image, ts, true);
        }
        let entry = DirEntry {
            name: name.to_vec(),
            file_type,
            closed: true,
            locked: false,
            first: sectors[0],
            blocks: blocks as u16,
            slot,
        };
        self.put_entry(&entry);
        Ok(entry)
    }

    fn free_slot(&self, dir_sectors: &[Ts]) -> Option<Slot> {
        dir_sectors.iter().find_map(|&ts| {
            let raw = chain::sector(&self.image, ts);
            (0..ENTRIES_PER_SECTOR)
                .map(|index| Slot { sector: ts, index })
                .find(|slot| raw[slot.offset_in_sector() + 2] == 0)
        })
    }

    fn write_chain(&mut self, sectors: &[Ts], data: &[u8]) {
        let mut chunks = data.chunks(BYTES_PER_BLOCK);
        for (i, &ts) in sectors.iter().enumerate() {
            let chunk = chunks.next().unwrap_or(&[]);
            let raw = chain::sector_mut(&mut self.image, ts);
            raw.fill(0);
            match sectors.get(i + 1) {
                Some(next) => {
                    raw[0] = next.track;
                    raw[1] = next.sector;
                }
                None => {
                    raw[0] = 0;
                    raw[1] = (chunk.len() + 1) as u8;
                }
            }
            raw[2..2 + chunk.len()].copy_from_slice(chunk);
            bam::set_free(&mut self.image, ts, false);
        }
    }
}
