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

impl Drive for D81Drive {
    fn read(&mut self, pattern: &[u8]) -> Result<(FileType, Vec<u8>), DosStatus> {
        let f = self.disk.read(pattern).map_err(|e| DosStatus::from(&e))?;
        Ok((f.entry.file_type, f.data))
    }

    fn write(&mut self, name: &[u8], file_type: FileType, data: &[u8], replace: bool) -> Result<(), DosStatus> {
        let t = file_type;
        let r = if replace { self.disk.replace_file(name, t, data) } else { self.disk.write_file(name, t, data) };
        r.map(|_| ()).map_err(|e| DosStatus::from(&e))
    }

    fn scratch(&mut self, pattern: &[u8]) -> Result<u8, DosStatus> {
        self.disk.scratch(pattern).map_err(|e| DosStatus::from(&e))
    }

    fn names(&mut self) -> Vec<(Vec<u8>, FileType)> {
        self.disk
            .entries()
            .into_iter()
            .filter(|e| e.closed && e.file_type != d81::FileType::Del)
            .map(|e| (e.name, e.file_type))
            .collect()
    }

    fn boot_sector(&mut self) -> Option<[u8; 256]> {
        let s = self.disk.sector(d81::Ts::new(1, 0))?;
        if !s.starts_with(b"CBM") {
            return None;
        }
        s.try_into().ok()
    }

    fn boot_block(&mut self, sector: u8) -> Option<[u8; 256]> {
        self.disk.sector(d81::Ts::new(1, sector))?.try_into().ok()
    }

    fn command(&mut self, command: &[u8]) -> Option<DosStatus> {
        Some(match self.disk.command(command) {
            Ok(s) => DosStatus { code: s.code, track: s.track, sector: s.sector },
            Err(e) => DosStatus::from(&e),
        })
    }

    fn directory(&mut self, pattern: Option<&[u8]>) -> Option<Vec<u8>> {
        Some(self.disk.directory_listing(pattern))
    }

    fn append(&mut self, name: &[u8], data: &[u8]) -> Result<(), DosStatus> {
        self.disk.append_file(name, data).map(|_| ()).map_err(|e| DosStatus::from(&e))
    }

    fn image(&self) -> Option<Vec<u8>> {
        Some(self.disk.as_bytes().to_vec())
    }
}
