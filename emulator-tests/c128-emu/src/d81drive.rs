//! Device 8 backed by a `.d81` image through the `d81` crate: the adapter between its file
//! API and the machine's [`Drive`] trait, so that the KERNAL emulation never sees the disk
//! format.

use crate::disk::{DiskError, DosStatus, Drive, FileType};

/// A 1581 with a disk in it.
#[derive(Debug, Clone)]
pub struct D81Drive {
    /// The disk; changed in place by writes and scratches.
    pub disk: d81::Disk,
}

impl D81Drive {
    /// Inserts an image read from bytes; `origin` names it in errors.
    pub fn from_bytes(bytes: &[u8], origin: &str) -> Result<Self, DiskError> {
        let disk = d81::Disk::from_bytes(bytes)
            .map_err(|e| DiskError::BadImage { path: origin.to_string(), reason: e.to_string() })?;
        Ok(D81Drive { disk })
    }
}

fn status(e: &d81::DosError) -> DosStatus {
    let s = e.status();
    DosStatus { code: s.code, track: s.track, sector: s.sector }
}

fn to_ours(t: d81::FileType) -> FileType {
    match t {
        d81::FileType::Prg => FileType::Prg,
        d81::FileType::Usr => FileType::Usr,
        d81::FileType::Rel => FileType::Rel,
        _ => FileType::Seq,
    }
}

fn to_theirs(t: FileType) -> d81::FileType {
    match t {
        FileType::Prg => d81::FileType::Prg,
        FileType::Seq => d81::FileType::Seq,
        FileType::Usr => d81::FileType::Usr,
        FileType::Rel => d81::FileType::Rel,
    }
}

impl Drive for D81Drive {
    fn read(&mut self, pattern: &[u8]) -> Result<(FileType, Vec<u8>), DosStatus> {
        let f = self.disk.read(pattern).map_err(|e| status(&e))?;
        Ok((to_ours(f.entry.file_type), f.data))
    }

    fn write(&mut self, name: &[u8], file_type: FileType, data: &[u8], replace: bool) -> Result<(), DosStatus> {
        let t = to_theirs(file_type);
        let r = if replace { self.disk.replace_file(name, t, data) } else { self.disk.write_file(name, t, data) };
        r.map(|_| ()).map_err(|e| status(&e))
    }

    fn scratch(&mut self, pattern: &[u8]) -> Result<u8, DosStatus> {
        self.disk.scratch(pattern).map_err(|e| status(&e))
    }

    fn names(&mut self) -> Vec<(Vec<u8>, FileType)> {
        self.disk
            .entries()
            .into_iter()
            .filter(|e| e.closed && e.file_type != d81::FileType::Del)
            .map(|e| (e.name, to_ours(e.file_type)))
            .collect()
    }

    fn boot_sector(&mut self) -> Option<[u8; 256]> {
        let s = self.disk.sector(d81::Ts::new(1, 0))?;
        if !s.starts_with(b"CBM") {
            return None;
        }
        s.try_into().ok()
    }

    fn command(&mut self, command: &[u8]) -> Option<DosStatus> {
        Some(match self.disk.command(command) {
            Ok(s) => DosStatus { code: s.code, track: s.track, sector: s.sector },
            Err(e) => status(&e),
        })
    }

    fn directory(&mut self, pattern: Option<&[u8]>) -> Option<Vec<u8>> {
        Some(self.disk.directory_listing(pattern))
    }

    fn append(&mut self, name: &[u8], data: &[u8]) -> Result<(), DosStatus> {
        self.disk.append_file(name, data).map(|_| ()).map_err(|e| status(&e))
    }

    fn image(&self) -> Option<Vec<u8>> {
        Some(self.disk.as_bytes().to_vec())
    }
}
