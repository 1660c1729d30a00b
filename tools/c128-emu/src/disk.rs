//! The disk drive as the KERNAL's file calls see it: a small [`Drive`] trait (read, write,
//! scratch whole files by name) and the 1581's DOS status messages. The machine depends only
//! on the trait; [`MemoryDrive`] keeps files in memory, and the `.d81` adapter lives in
//! [`crate::d81drive`].

use std::fmt;

use thiserror::Error;

/// CBM DOS file types: the disk library's, so that a file keeps its type between the
/// image and the machine.
pub use d81::FileType;

impl From<&d81::DosError> for DosStatus {
    fn from(e: &d81::DosError) -> Self {
        let s = e.status();
        DosStatus { code: s.code, track: s.track, sector: s.sector }
    }
}

/// A DOS error as the drive reports it on its command channel: `62,FILE NOT FOUND,00,00`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DosStatus {
    /// The error number (0 = OK, 1 = files scratched, 20 and up = errors).
    pub code: u8,
    /// The track field (for `01`, the number of files scratched).
    pub track: u8,
    /// The sector field.
    pub sector: u8,
}

impl DosStatus {
    /// `00, OK,00,00`.
    pub const OK: DosStatus = DosStatus::new(0);
    /// `26,WRITE PROTECT ON`.
    pub const WRITE_PROTECT: DosStatus = DosStatus::new(26);
    /// `30,SYNTAX ERROR`.
    pub const SYNTAX: DosStatus = DosStatus::new(30);
    /// `31,SYNTAX ERROR` (unknown command).
    pub const INVALID_COMMAND: DosStatus = DosStatus::new(31);
    /// `33,SYNTAX ERROR` (bad file name or pattern where one is not allowed).
    pub const INVALID_NAME: DosStatus = DosStatus::new(33);
    /// `34,SYNTAX ERROR` (no file name).
    pub const NO_NAME: DosStatus = DosStatus::new(34);
    /// `62,FILE NOT FOUND`.
    pub const NOT_FOUND: DosStatus = DosStatus::new(62);
    /// `63,FILE EXISTS`.
    pub const EXISTS: DosStatus = DosStatus::new(63);
    /// `64,FILE TYPE MISMATCH`.
    pub const TYPE_MISMATCH: DosStatus = DosStatus::new(64);
    /// `72,DISK FULL`.
    pub const DISK_FULL: DosStatus = DosStatus::new(72);
    /// `73,COPYRIGHT CBM DOS V10 1581`: the power-on message.
    pub const POWER_ON: DosStatus = DosStatus::new(73);

    /// A status with zero track and sector.
    pub const fn new(code: u8) -> Self {
        DosStatus { code, track: 0, sector: 0 }
    }

    /// The message the 1581 gives for this code.
    pub fn message(&self) -> &'static str {
        match self.code {
            0 => " OK",
            1 => " FILES SCRATCHED",
            20..=24 | 27 => "READ ERROR",
            25 => "WRITE ERROR",
            26 => "WRITE PROTECT ON",
            30..=34 => "SYNTAX ERROR",
            60 => "WRITE FILE OPEN",
            61 => "FILE NOT OPEN",
            62 => "FILE NOT FOUND",
            63 => "FILE EXISTS",
            64 => "FILE TYPE MISMATCH",
            70 => "NO CHANNEL",
            72 => "DISK FULL",
            73 => "COPYRIGHT CBM DOS V10 1581",
            74 => "DRIVE NOT READY",
            _ => "UNKNOWN ERROR",
        }
    }

    /// Whether this is an error (codes 20 and up, except the power-on message).
    pub fn is_error(&self) -> bool {
        self.code >= 20 && self.code != 73
    }
}

impl fmt::Display for DosStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02},{},{:02},{:02}", self.code, self.message(), self.track, self.sector)
    }
}

/// A disk that cannot be attached.
#[derive(Debug, Error)]
pub enum DiskError {
    /// The image is not a usable `.d81`.
    #[error("disk image {path}: {reason}")]
    BadImage {
        /// Where it came from.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Booting needs a disk in device 8.
    #[error("there is no disk in device 8 to boot")]
    NoDisk,
    /// There is nothing to boot on the disk.
    #[error("disk image {path}: no boot sector and no program file to run")]
    NothingToBoot {
        /// Where it came from.
        path: String,
    },
}

/// A disk drive (device 8) as the KERNAL's file calls need it. File names are PETSCII bytes
/// without drive prefix or type suffix; patterns may use `*` and `?` when reading.
pub trait Drive: Send {
    /// Reads a whole file.
    fn read(&mut self, pattern: &[u8]) -> Result<(FileType, Vec<u8>), DosStatus>;
    /// Writes a whole file; with `replace` an existing file of that name is replaced
    /// (`@0:`), otherwise it is an error 63.
    fn write(&mut self, name: &[u8], file_type: FileType, data: &[u8], replace: bool) -> Result<(), DosStatus>;
    /// Scratches the files matching `pattern`; returns how many.
    fn scratch(&mut self, pattern: &[u8]) -> Result<u8, DosStatus>;
    /// The names of the files in directory order (for booting the first program).
    fn names(&mut self) -> Vec<(Vec<u8>, FileType)>;
    /// The boot sector (track 1 sector 0) if it holds a C128 boot header ("CBM").
    fn boot_sector(&mut self) -> Option<[u8; 256]> {
        None
    }
    /// Track 1 sector `sector`: the boot sector's extra blocks, which the KERNAL reads from
    /// sector 1 on as the boot sector's header asks.
    fn boot_block(&mut self, sector: u8) -> Option<[u8; 256]> {
        let _ = sector;
        None
    }
    /// Runs a DOS command from channel 15 (`S0:NAME`, `R0:NEW=OLD`, ...) if this drive
    /// understands commands itself; `None` lets the KERNAL emulation handle the basic ones
    /// (scratch, initialize, reset).
    fn command(&mut self, command: &[u8]) -> Option<DosStatus> {
        let _ = command;
        None
    }
    /// The directory as the drive sends it for `LOAD"$",8` (a BASIC program, load address
    /// first), if this drive can produce one.
    fn directory(&mut self, pattern: Option<&[u8]>) -> Option<Vec<u8>> {
        let _ = pattern;
        None
    }
    /// Adds `data` to the end of an existing file (`OPEN` with `,A`).
    fn append(&mut self, name: &[u8], data: &[u8]) -> Result<(), DosStatus> {
        let (file_type, mut old) = self.read(name)?;
        old.extend_from_slice(data);
        self.write(name, file_type, &old, true)
    }
    /// The disk image as it is now, for drives backed by one (so a front end can save the
    /// files a program wrote).
    fn image(&self) -> Option<Vec<u8>> {
        None
    }
}

/// A drive whose files live in memory: for tests, and for running a `.prg` that uses the
/// disk without an image.
#[derive(Debug, Clone, Default)]
pub struct MemoryDrive {
    /// Files in directory order.
    pub files: Vec<(Vec<u8>, FileType, Vec<u8>)>,
    /// Free space in 254-byte blocks; `None` for unlimited.
    pub free_blocks: Option<usize>,
    /// Whether writes fail with `26,WRITE PROTECT ON`.
    pub write_protected: bool,
}

fn blocks(len: usize) -> usize {
    len.div_ceil(254).max(1)
}

impl Drive for MemoryDrive {
    fn read(&mut self, pattern: &[u8]) -> Result<(FileType, Vec<u8>), DosStatus> {
        self.files
            .iter()
            .find(|(n, ..)| d81::dir::matches(pattern, n))
            .map(|(_, t, d)| (*t, d.clone()))
            .ok_or(DosStatus::NOT_FOUND)
    }

    fn write(&mut self, name: &[u8], file_type: FileType, data: &[u8], replace: bool) -> Result<(), DosStatus> {
        if self.write_protected {
            return Err(DosStatus::WRITE_PROTECT);
        }
        let existing = self.files.iter().position(|(n, ..)| n == name);
        if existing.is_some() && !replace {
            return Err(DosStatus::EXISTS);
        }
        if let Some(free) = self.free_blocks {
            let freed = existing.map_or(0, |i| blocks(self.files[i].2.len()));
            if blocks(data.len()) > free + freed {
                return Err(DosStatus::DISK_FULL);
            }
            self.free_blocks = Some(free + freed - blocks(data.len()));
        }
        let entry = (name.to_vec(), file_type, data.to_vec());
        match existing {
            Some(i) => self.files[i] = entry,
            None => self.files.push(entry),
        }
        Ok(())
    }

    fn scratch(&mut self, pattern: &[u8]) -> Result<u8, DosStatus> {
        if self.write_protected {
            return Err(DosStatus::WRITE_PROTECT);
        }
        let before = self.files.len();
        let mut freed = 0;
        self.files.retain(|(n, _, d)| {
            let hit = d81::dir::matches(pattern, n);
            if hit {
                freed += blocks(d.len());
            }
            !hit
        });
        if let Some(f) = self.free_blocks.as_mut() {
            *f += freed;
        }
        Ok((before - self.files.len()) as u8)
    }

    fn names(&mut self) -> Vec<(Vec<u8>, FileType)> {
        self.files.iter().map(|(n, t, _)| (n.clone(), *t)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_drive_reports_dos_errors() {
        let mut d = MemoryDrive { free_blocks: Some(2), ..Default::default() };
        assert_eq!(d.read(b"X"), Err(DosStatus::NOT_FOUND));
        d.write(b"X", FileType::Seq, &[1; 300], false).unwrap();
        assert_eq!(d.write(b"X", FileType::Seq, &[1], false), Err(DosStatus::EXISTS));
        assert_eq!(d.write(b"Y", FileType::Seq, &[1; 300], false), Err(DosStatus::DISK_FULL));
        d.write(b"X", FileType::Seq, &[2; 10], true).unwrap();
        assert_eq!(d.read(b"X").unwrap().1, vec![2; 10]);
        assert_eq!(d.scratch(b"*"), Ok(1));
        d.write_protected = true;
        assert_eq!(d.write(b"Z", FileType::Seq, &[], false), Err(DosStatus::WRITE_PROTECT));
        assert_eq!(DosStatus::NOT_FOUND.to_string(), "62,FILE NOT FOUND,00,00");
    }
}
