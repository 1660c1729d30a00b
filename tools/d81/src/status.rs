//! The 1581's DOS status (what a program reads from the command channel, or the
//! emulator's KERNAL reports) and the errors of the file API.
//!
//! A real 1581 answers every command with `code,MESSAGE,track,sector`. [`DosError`] is the
//! Rust error of a failed operation; [`DosError::status`] gives the status line the drive
//! would report, so the emulator can hand it to the program unchanged.

use crate::boot::BootError;
use crate::error::ImageError;
use std::fmt;
use thiserror::Error;

/// A DOS status line: `code,MESSAGE,track,sector`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DosStatus {
    /// The error number (00 = OK; below 20 is not an error).
    pub code: u8,
    /// The message as the drive spells it.
    pub message: &'static str,
    /// Track field (the number of files for 01 FILES SCRATCHED).
    pub track: u8,
    /// Sector field.
    pub sector: u8,
}

impl DosStatus {
    /// `00, OK,00,00`.
    pub const OK: DosStatus = DosStatus::new(0, " OK");
    /// What a 1581 reports after power-on or reset (its DOS version message).
    pub const POWER_ON: DosStatus = DosStatus::new(73, "COPYRIGHT CBM DOS V10 1581");

    const fn new(code: u8, message: &'static str) -> DosStatus {
        DosStatus { code, message, track: 0, sector: 0 }
    }

    /// `01, FILES SCRATCHED,nn,00` after scratching `count` files.
    pub const fn files_scratched(count: u8) -> DosStatus {
        DosStatus { code: 1, message: " FILES SCRATCHED", track: count, sector: 0 }
    }

    /// Whether the status reports a failure (codes 20 and up, except the power-on 73).
    pub const fn is_error(&self) -> bool {
        self.code >= 20 && self.code != 73
    }
}

impl fmt::Display for DosStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02},{},{:02},{:02}", self.code, self.message, self.track, self.sector)
    }
}

/// A file operation the 1581 would refuse. Each variant maps to one DOS status code.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DosError {
    /// 26 WRITE PROTECT ON: the disk is write protected.
    #[error("26,WRITE PROTECT ON,00,00: the disk is write protected")]
    WriteProtect,
    /// 33 SYNTAX ERROR: a name that cannot be saved (wildcards, `,:="`, too long).
    #[error("33,SYNTAX ERROR,00,00: bad file name {name}: {reason}")]
    BadName {
        /// The name as ASCII.
        name: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// 31 SYNTAX ERROR: a command or `OPEN` option the drive does not know.
    #[error("31,SYNTAX ERROR,00,00: invalid command {command:?}")]
    InvalidCommand {
        /// The command as ASCII.
        command: String,
    },
    /// 34 SYNTAX ERROR: no file name given.
    #[error("34,SYNTAX ERROR,00,00: no file name given")]
    NoName,
    /// 60 WRITE FILE OPEN: the file was never closed (a "splat" file) and cannot be read.
    #[error("60,WRITE FILE OPEN,00,00: file {name} was not closed")]
    WriteFileOpen {
        /// The file.
        name: String,
    },
    /// 62 FILE NOT FOUND.
    #[error("62,FILE NOT FOUND,00,00: no file matches {pattern}")]
    FileNotFound {
        /// The name or pattern looked for.
        pattern: String,
    },
    /// 63 FILE EXISTS: a save or rename to a name already in the directory.
    #[error("63,FILE EXISTS,00,00: file {name} already exists")]
    FileExists {
        /// The name.
        name: String,
    },
    /// 64 FILE TYPE MISMATCH: the file is of another type than asked for.
    #[error("64,FILE TYPE MISMATCH,00,00: file {name} is {found}, not {wanted}")]
    FileTypeMismatch {
        /// The file.
        name: String,
        /// Its type.
        found: &'static str,
        /// The type asked for.
        wanted: &'static str,
    },
    /// 72 DISK FULL: not enough free blocks.
    #[error("72,DISK FULL,00,00: {needed} blocks needed, {free} free")]
    DiskFull {
        /// Blocks the file needs.
        needed: u16,
        /// Blocks free.
        free: u16,
    },
    /// 72 DISK FULL: no room on track 40 for another directory sector.
    #[error("72,DISK FULL,00,00: the directory is full")]
    DirectoryFull,
    /// 66 ILLEGAL TRACK OR SECTOR: the image's structure is broken where the operation went.
    #[error("66,ILLEGAL TRACK OR SECTOR: {0}")]
    Damaged(#[from] ImageError),
    /// The boot sector cannot be built (not a DOS error; reported as 66).
    #[error("cannot write the boot sector: {0}")]
    Boot(#[from] BootError),
    /// A sector the boot needs (track 1 sector 0, and its stage's after it) already belongs
    /// to a file.
    #[error("cannot write the boot sector: {sector} is used by {owner}")]
    BootSectorInUse {
        /// The sector.
        sector: crate::geometry::Ts,
        /// The file using it.
        owner: String,
    },
}

impl DosError {
    /// The status line a 1581 reports for this failure.
    pub fn status(&self) -> DosStatus {
        match self {
            DosError::WriteProtect => DosStatus::new(26, "WRITE PROTECT ON"),
            DosError::BadName { .. } => DosStatus::new(33, "SYNTAX ERROR"),
            DosError::InvalidCommand { .. } => DosStatus::new(31, "SYNTAX ERROR"),
            DosError::NoName => DosStatus::new(34, "SYNTAX ERROR"),
            DosError::WriteFileOpen { .. } => DosStatus::new(60, "WRITE FILE OPEN"),
            DosError::FileNotFound { .. } => DosStatus::new(62, "FILE NOT FOUND"),
            DosError::FileExists { .. } => DosStatus::new(63, "FILE EXISTS"),
            DosError::FileTypeMismatch { .. } => DosStatus::new(64, "FILE TYPE MISMATCH"),
            DosError::DiskFull { .. } | DosError::DirectoryFull => DosStatus::new(72, "DISK FULL"),
            DosError::Damaged(_) | DosError::Boot(_) | DosError::BootSectorInUse { .. } => {
                DosStatus::new(66, "ILLEGAL TRACK OR SECTOR")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_lines_are_formatted_like_the_drive() {
        assert_eq!(DosStatus::OK.to_string(), "00, OK,00,00");
        assert_eq!(DosStatus::files_scratched(3).to_string(), "01, FILES SCRATCHED,03,00");
        assert_eq!(DosError::FileNotFound { pattern: "X".into() }.status().to_string(), "62,FILE NOT FOUND,00,00");
        assert_eq!(DosError::WriteProtect.status().code, 26);
        assert_eq!(DosError::DirectoryFull.status().code, 72);
        assert!(DosError::NoName.status().is_error());
        assert!(!DosStatus::files_scratched(1).is_error());
        assert!(!DosStatus::POWER_ON.is_error());
    }
}
