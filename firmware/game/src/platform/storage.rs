//! Storage: whole SEQ files for the save and the seed, and the help text read as it is
//! shown.

use crate::text::Lang;

/// Why a file operation failed, as the 1581 reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiskError {
    /// 62 FILE NOT FOUND.
    NotFound,
    /// 26 WRITE PROTECT ON.
    WriteProtected,
    /// 72 DISK FULL.
    DiskFull,
    /// No drive answered.
    NoDevice,
    /// The file is longer than the buffer.
    TooLong,
    /// Any other DOS status.
    Dos(u8),
}

/// The disk drive.
pub trait Storage {
    /// Reads a whole SEQ file.
    fn read(&mut self, name: &[u8], buf: &mut [u8]) -> Result<usize, DiskError>;
    /// Writes a new SEQ file.
    fn write(&mut self, name: &[u8], data: &[u8]) -> Result<(), DiskError>;
    /// Scratches a file.
    fn scratch(&mut self, name: &[u8]) -> Result<(), DiskError>;
    /// Renames a file.
    fn rename(&mut self, from: &[u8], to: &[u8]) -> Result<(), DiskError>;
    /// Opens the help text in `lang` (the SEQ file [`crate::help_file::file_name`] names) for
    /// reading from its start. It is read as it is shown, so it may be longer than any
    /// buffer the game could spare.
    fn open_help(&mut self, lang: Lang) -> Result<(), DiskError>;
    /// The next byte of the help text (PETSCII), or `None` at its end or on an error.
    fn help_byte(&mut self) -> Option<u8>;
    /// The help text's next line: its characters, as [`crate::help_file::ascii`] gives them, into
    /// `line` (the first 80 of a longer one); returns how many, the bytes it took from the
    /// file (its RETURN or line feed included) and whether the text goes on after it.
    ///
    /// The default reads it with [`Storage::help_byte`]; the C128 reads it in one call,
    /// as its game's help pages run interpreted, about ten times slower than translated
    /// code: a byte at a time, a page took seven seconds to show.
    fn help_line(&mut self, line: &mut [u8; 80]) -> (u8, u16, bool) {
        let (mut len, mut used) = (0u8, 0u16);
        while let Some(byte) = self.help_byte() {
            used += 1;
            if byte == crate::help_file::RETURN || byte == crate::help_file::LINE_FEED {
                return (len, used, true);
            }
            if usize::from(len) < line.len() {
                line[usize::from(len)] = crate::help_file::ascii(byte);
                len += 1;
            }
        }
        (len, used, false)
    }
    /// Closes the help text.
    fn close_help(&mut self);
    /// How many bytes of memory the help pages may keep the text they have read in, so
    /// that paging back takes it from there rather than from the disk (0: none, and paging
    /// back reads the file again from its start). The C128 has bank 1's RAM above the
    /// game's code; a platform that reads its help file at once needs none.
    fn spare_len(&mut self) -> u16 {
        0
    }
    /// Copies `bytes` to that memory at offset `at` (`at + bytes.len()` at most
    /// [`Storage::spare_len`]).
    fn spare_store(&mut self, _at: u16, _bytes: &[u8]) {}
    /// Copies that memory's bytes at offset `at` into `bytes`.
    fn spare_load(&mut self, _at: u16, _bytes: &mut [u8]) {}
}
