//! The [`Disk`]: a whole 1581 image in memory, checked when read, written whole.
//!
//! The image bytes are the only state: the BAM, the directory and the files are read from
//! and written to them exactly as a 1581 would, so what [`Disk::write_to`] writes is what the
//! operations did. A `Disk` is always valid: it is either formatted here or read through
//! [`Disk::from_bytes`], and every operation keeps it valid.

use crate::bam;
use crate::chain;
use crate::dir::{self, DirEntry, FileType, NAME_LEN, PAD};
use crate::error::ImageError;
use crate::geometry::{FIRST_DIR, HEADER, IMAGE_SIZE, IMAGE_SIZE_WITH_ERRORS, SECTOR_SIZE, Ts};
use crate::petscii;
use crate::status::DosError;
use crate::validate;
use std::fmt;
use std::io::{self, Write};

/// A 1581 disk image.
#[derive(Clone, PartialEq, Eq)]
pub struct Disk {
    pub(crate) image: Vec<u8>,
    write_protect_tab: bool,
}

/// A file read from the disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    /// Its directory entry.
    pub entry: DirEntry,
    /// Its bytes (for a PRG, the load address first).
    pub data: Vec<u8>,
}

impl fmt::Debug for Disk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Disk")
            .field("name", &petscii::to_ascii(&self.name()))
            .field("id", &petscii::to_ascii(&self.id()))
            .field("files", &self.entries().len())
            .field("blocks_free", &self.blocks_free())
            .finish()
    }
}

impl Disk {
    /// A freshly formatted disk (what `HEADER"NAME",IID` gives on a 1581): empty directory
    /// at 40/3, both BAM sectors, 3160 blocks free. `name` is PETSCII, at most 16 bytes.
    pub fn new(name: &[u8], id: [u8; 2]) -> Result<Disk, DosError> {
        if name.len() > NAME_LEN {
            return Err(DosError::BadName {
                name: petscii::to_ascii(name),
                reason: "a disk name has at most 16 characters",
            });
        }
        let mut image = vec![0u8; IMAGE_SIZE];
        let header = chain::sector_mut(&mut image, HEADER);
        header[0] = FIRST_DIR.track;
        header[1] = FIRST_DIR.sector;
        header[2] = b'D';
        header[4..20].copy_from_slice(&dir::pad(name));
        header[0x14..0x16].fill(PAD);
        header[0x16..0x18].copy_from_slice(&id);
        header[0x18] = PAD;
        header[0x19..0x1b].copy_from_slice(b"3D");
        header[0x1b..0x1d].fill(PAD);
        let first_dir = chain::sector_mut(&mut image, FIRST_DIR);
        first_dir[1] = 0xff;
        bam::format(&mut image, id);
        Ok(Disk { image, write_protect_tab: false })
    }

    /// Reads and checks an image: 819,200 bytes, or 822,400 with an error table (dropped).
    /// Any structural damage (see [`ImageError`]) is refused.
    pub fn from_bytes(bytes: &[u8]) -> Result<Disk, ImageError> {
        if bytes.len() != IMAGE_SIZE && bytes.len() != IMAGE_SIZE_WITH_ERRORS {
            return Err(ImageError::WrongSize { len: bytes.len() });
        }
        let image = bytes[..IMAGE_SIZE].to_vec();
        validate::validate(&image)?;
        Ok(Disk { image, write_protect_tab: false })
    }

    /// The image's 819,200 bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.image
    }

    /// Writes the image's 819,200 bytes.
    pub fn write_to(&self, mut out: impl Write) -> io::Result<()> {
        out.write_all(&self.image)
    }

    /// Writes the image to `path` through a temporary file in the same folder, renamed into
    /// place when complete, so a failed or interrupted write never leaves half an image.
    pub fn save(&self, path: &std::path::Path) -> io::Result<()> {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => std::path::Path::new("."),
        };
        let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
        self.write_to(tmp.as_file_mut())?;
        tmp.as_file().sync_all()?;
        tmp.persist(path).map_err(|e| e.error)?;
        Ok(())
    }

    /// One sector's 256 bytes, for tools that look at raw sectors (`None` off the disk).
    pub fn sector(&self, ts: Ts) -> Option<&[u8]> {
        let at = ts.offset()?;
        Some(&self.image[at..at + SECTOR_SIZE])
    }

    /// The disk name (PETSCII, without padding).
    pub fn name(&self) -> Vec<u8> {
        dir::unpad(&chain::sector(&self.image, HEADER)[4..20])
    }

    /// The two-byte disk ID.
    pub fn id(&self) -> [u8; 2] {
        let h = chain::sector(&self.image, HEADER);
        [h[0x16], h[0x17]]
    }

    /// Blocks free as the directory listing shows them (track 40 not counted).
    pub fn blocks_free(&self) -> u16 {
        bam::blocks_free(&self.image)
    }

    /// Whether the BAM marks a sector free (`false` off the disk).
    pub fn is_free(&self, ts: Ts) -> bool {
        ts.is_on_disk() && bam::is_free(&self.image, ts)
    }

    /// Sets the write-protect tab. It is not stored in the image (it is a property of the
    /// physical disk); every writing operation then fails with 26 WRITE PROTECT ON.
    pub fn set_write_protected(&mut self, on: bool) {
        self.write_protect_tab = on;
    }

    /// Whether writes are refused: the tab is set, or the header's DOS version byte is not
    /// `'D'` (the 1581's "soft" write protection).
    pub fn is_write_protected(&self) -> bool {
        self.write_protect_tab || chain::sector(&self.image, HEADER)[2] != b'D'
    }

    /// The directory in order, scratched slots left out. A `Disk` is valid, so this is
    /// always the whole directory.
    pub fn entries(&self) -> Vec<DirEntry> {
        validate::scan_directory(&self.image).unwrap_or_default()
    }

    /// The first entry whose name matches `pattern` (with `*` and `?`, see
    /// [`dir::matches`]); scratched and DEL entries are skipped, as the drive skips them.
    pub fn find(&self, pattern: &[u8]) -> Option<DirEntry> {
        self.entries().into_iter().find(|e| e.file_type != FileType::Del && dir::matches(pattern, &e.name))
    }

    /// Reads the first file matching `pattern`, whatever its type (what LOAD does).
    /// Fails with 62 FILE NOT FOUND, 60 WRITE FILE OPEN for an unclosed file, or 64 FILE
    /// TYPE MISMATCH for a REL file or a partition.
    pub fn read(&self, pattern: &[u8]) -> Result<File, DosError> {
        if pattern.is_empty() {
            return Err(DosError::NoName);
        }
        let entry = self.find(pattern).ok_or_else(|| DosError::FileNotFound { pattern: petscii::to_ascii(pattern) })?;
        if !entry.closed {
            return Err(DosError::WriteFileOpen { name: entry.quoted_name() });
        }
        if !matches!(entry.file_type, FileType::Prg | FileType::Seq | FileType::Usr) {
            return Err(DosError::FileTypeMismatch {
                name: entry.quoted_name(),
                found: entry.file_type.as_str(),
                wanted: "PRG, SEQ or USR",
            });
        }
        let data = if entry.first.track == 0 {
            // A directory line without data: empty if it says so, else its blocks are lost.
            if entry.blocks > 0 {
                return Err(DosError::Damaged(ImageError::TruncatedFile {
                    file: entry.quoted_name(),
                    listed: entry.blocks,
                    found: 0,
                }));
            }
            Vec::new()
        } else {
            let chain = chain::follow(&self.image, entry.first, &entry.quoted_name())?;
            chain::read(&self.image, &chain)
        };
        Ok(File { entry, data })
    }

    /// Reads the first file matching `pattern` and checks its type, as `OPEN
    /// 2,8,2,"NAME,S,R"` does: 64 FILE TYPE MISMATCH if it is of another type.
    pub fn read_as(&self, pattern: &[u8], file_type: FileType) -> Result<File, DosError> {
        let file = self.read(pattern)?;
        if file.entry.file_type != file_type {
            return Err(DosError::FileTypeMismatch {
                name: file.entry.quoted_name(),
                found: file.entry.file_type.as_str(),
                wanted: file_type.as_str(),
            });
        }
        Ok(file)
    }

    /// Directory sectors in chain order.
    pub(crate) fn directory_sectors(&self) -> Result<Vec<Ts>, ImageError> {
        chain::directory(&self.image)
    }

    pub(crate) fn check_writable(&self) -> Result<(), DosError> {
        if self.is_write_protected() { Err(DosError::WriteProtect) } else { Ok(()) }
    }
}
