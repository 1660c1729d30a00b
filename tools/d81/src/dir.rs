//! Directory entries: the 32-byte records in the directory sectors, and file types.

use crate::geometry::Ts;
use crate::petscii;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Bytes in a directory entry.
pub const ENTRY_SIZE: usize = 32;
/// Entries in a directory sector.
pub const ENTRIES_PER_SECTOR: u8 = 8;
/// Longest file or disk name.
pub const NAME_LEN: usize = 16;
/// The byte that pads names ("shifted space").
pub const PAD: u8 = 0xa0;

/// A CBM DOS file type (the low bits of the entry's type byte).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileType {
    /// Deleted (type 0); only shown when its entry is still marked closed.
    Del,
    /// Sequential data.
    Seq,
    /// Program: the first two bytes are the load address.
    Prg,
    /// User file, laid out like SEQ.
    Usr,
    /// Relative file (read and listed only; side sectors are not written here).
    Rel,
    /// 1581 partition: a run of sectors without links.
    Cbm,
}

impl FileType {
    /// The type code (0-5).
    pub const fn code(self) -> u8 {
        match self {
            FileType::Del => 0,
            FileType::Seq => 1,
            FileType::Prg => 2,
            FileType::Usr => 3,
            FileType::Rel => 4,
            FileType::Cbm => 5,
        }
    }

    /// The type for a code (0-5).
    pub const fn from_code(code: u8) -> Option<FileType> {
        Some(match code {
            0 => FileType::Del,
            1 => FileType::Seq,
            2 => FileType::Prg,
            3 => FileType::Usr,
            4 => FileType::Rel,
            5 => FileType::Cbm,
            _ => return None,
        })
    }

    /// The three letters a directory listing shows.
    pub const fn as_str(self) -> &'static str {
        match self {
            FileType::Del => "DEL",
            FileType::Seq => "SEQ",
            FileType::Prg => "PRG",
            FileType::Usr => "USR",
            FileType::Rel => "REL",
            FileType::Cbm => "CBM",
        }
    }

    /// Whether files of this type are a linked sector chain holding bytes.
    pub const fn has_data_chain(self) -> bool {
        !matches!(self, FileType::Cbm)
    }
}

impl fmt::Display for FileType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A file type name that is not one of `prg`, `seq`, `usr`, `del`, `rel`, `cbm`.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("unknown file type {0:?} (expected prg, seq or usr)")]
pub struct UnknownFileType(pub String);

impl FromStr for FileType {
    type Err = UnknownFileType;

    fn from_str(s: &str) -> Result<FileType, UnknownFileType> {
        match s.to_ascii_lowercase().as_str() {
            "prg" | "p" => Ok(FileType::Prg),
            "seq" | "s" => Ok(FileType::Seq),
            "usr" | "u" => Ok(FileType::Usr),
            "del" => Ok(FileType::Del),
            "rel" | "l" => Ok(FileType::Rel),
            "cbm" => Ok(FileType::Cbm),
            _ => Err(UnknownFileType(s.to_string())),
        }
    }
}

/// Where an entry sits in the directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The directory sector.
    pub sector: Ts,
    /// Entry number in the sector (0-7).
    pub index: u8,
}

impl Slot {
    /// Byte offset of the entry within its sector.
    pub const fn offset_in_sector(self) -> usize {
        self.index as usize * ENTRY_SIZE
    }
}

/// A file in the directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirEntry {
    /// PETSCII name without its `$A0` padding.
    pub name: Vec<u8>,
    /// The file type.
    pub file_type: FileType,
    /// Closed properly (bit 7); an unclosed file lists as `*PRG` and cannot be read.
    pub closed: bool,
    /// Locked (bit 6): scratch skips it; lists as `PRG<`.
    pub locked: bool,
    /// First sector of the file (a partition's first sector for CBM).
    pub first: Ts,
    /// Size in blocks, as the directory states it.
    pub blocks: u16,
    /// Where the entry is.
    pub slot: Slot,
}

impl DirEntry {
    /// The name as ASCII (see [`petscii::to_ascii`]), quoted as a listing shows it.
    pub fn quoted_name(&self) -> String {
        format!("\"{}\"", petscii::to_ascii(&self.name))
    }

    /// The type column of a listing: `PRG`, `*SEQ` for unclosed, `PRG<` for locked.
    pub fn type_column(&self) -> String {
        format!("{}{}{}", if self.closed { "" } else { "*" }, self.file_type, if self.locked { "<" } else { "" })
    }

    /// Decodes the 32 bytes of an entry; `Ok(None)` for an empty (scratched) slot and
    /// `Err(reason)` for a type byte no DOS writes.
    pub(crate) fn decode(raw: &[u8], slot: Slot) -> Result<Option<DirEntry>, String> {
        let type_byte = raw[2];
        if type_byte == 0 {
            return Ok(None);
        }
        let file_type = FileType::from_code(type_byte & 0x0f)
            .ok_or_else(|| format!("type byte ${type_byte:02X} is not a file type"))?;
        Ok(Some(DirEntry {
            name: unpad(&raw[5..5 + NAME_LEN]),
            file_type,
            closed: type_byte & 0x80 != 0,
            locked: type_byte & 0x40 != 0,
            first: Ts::new(raw[3], raw[4]),
            blocks: u16::from_le_bytes([raw[0x1e], raw[0x1f]]),
            slot,
        }))
    }

    /// Writes the entry's fields into its 32 bytes (bytes 0-1, the sector link in the first
    /// entry, are left alone).
    pub(crate) fn encode(&self, raw: &mut [u8]) {
        raw[2] = self.file_type.code() | if self.closed { 0x80 } else { 0 } | if self.locked { 0x40 } else { 0 };
        raw[3] = self.first.track;
        raw[4] = self.first.sector;
        raw[5..5 + NAME_LEN].copy_from_slice(&pad(&self.name));
        raw[0x15..0x1e].fill(0);
        raw[0x1e..0x20].copy_from_slice(&self.blocks.to_le_bytes());
    }
}

/// A name padded to 16 bytes with `$A0` (longer names are cut, callers check first).
pub(crate) fn pad(name: &[u8]) -> [u8; NAME_LEN] {
    let mut out = [PAD; NAME_LEN];
    let n = name.len().min(NAME_LEN);
    out[..n].copy_from_slice(&name[..n]);
    out
}

/// A name without its trailing `$A0` padding.
pub(crate) fn unpad(raw: &[u8]) -> Vec<u8> {
    let end = raw.iter().rposition(|&b| b != PAD).map_or(0, |i| i + 1);
    raw[..end].to_vec()
}

/// Whether `name` matches a DOS pattern: `?` matches any one character, `*` matches the rest
/// of the name (the 1581, like earlier CBM drives, ignores whatever follows the `*`), and
/// without a `*` the lengths must agree.
pub fn matches(pattern: &[u8], name: &[u8]) -> bool {
    let mut name_chars = name.iter();
    for &p in pattern {
        if p == b'*' {
            return true;
        }
        match name_chars.next() {
            Some(&c) if p == b'?' || p == c => {}
            _ => return false,
        }
    }
    name_chars.next().is_none()
}

/// Whether a pattern holds a wildcard.
pub fn has_wildcard(pattern: &[u8]) -> bool {
    pattern.iter().any(|&b| b == b'*' || b == b'?')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_match_like_the_drive() {
        assert!(matches(b"BAC", b"BAC"));
        assert!(!matches(b"BAC", b"BAC HELP"));
        assert!(!matches(b"BAC HELP", b"BAC"));
        assert!(matches(b"BAC*", b"BAC HELP"));
        assert!(matches(b"BAC*", b"BAC"));
        assert!(matches(b"*", b"ANYTHING"));
        assert!(matches(b"B?C", b"BAC"));
        assert!(!matches(b"B?C", b"BC"));
        assert!(matches(b"B*XYZ", b"BAC"), "text after * is ignored");
        assert!(!matches(b"", b"BAC"));
    }

    #[test]
    fn entries_round_trip() {
        let slot = Slot { sector: Ts::new(40, 3), index: 2 };
        let entry = DirEntry {
            name: b"BAC HELP".to_vec(),
            file_type: FileType::Seq,
            closed: true,
            locked: true,
            first: Ts::new(39, 7),
            blocks: 300,
            slot,
        };
        let mut raw = [0u8; ENTRY_SIZE];
        entry.encode(&mut raw);
        assert_eq!(raw[2], 0xc1);
        assert_eq!(&raw[5..13], b"BAC HELP");
        assert_eq!(raw[13], PAD);
        assert_eq!(DirEntry::decode(&raw, slot), Ok(Some(entry.clone())));
        assert_eq!(entry.type_column(), "SEQ<");
        raw[2] = 0x87;
        assert!(DirEntry::decode(&raw, slot).is_err());
        raw[2] = 0;
        assert_eq!(DirEntry::decode(&raw, slot), Ok(None));
    }

    #[test]
    fn type_names_parse() {
        assert_eq!("PRG".parse::<FileType>(), Ok(FileType::Prg));
        assert_eq!("seq".parse::<FileType>(), Ok(FileType::Seq));
        assert!("exe".parse::<FileType>().is_err());
    }
}
