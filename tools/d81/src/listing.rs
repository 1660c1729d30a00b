//! The directory as the drive sends it for `LOAD"$",8`: a BASIC program whose line numbers
//! are block counts, loaded at $0401.

use crate::dir;
use crate::disk::Disk;
use crate::geometry::HEADER;

/// Where the drive says the listing loads (the KERNAL relocates BASIC programs anyway).
pub const LISTING_LOAD_ADDRESS: u16 = 0x0401;

/// Appends one BASIC line: a dummy link (BASIC relinks after loading), the line number, the
/// text and its $00.
fn line(out: &mut Vec<u8>, number: u16, text: &[u8]) {
    out.extend_from_slice(&[0x01, 0x01]);
    out.extend_from_slice(&number.to_le_bytes());
    out.extend_from_slice(text);
    out.push(0);
}

impl Disk {
    /// The directory listing program, load address first: the header line (`0`, reverse
    /// on, the quoted name padded to 16, the ID and "3D"), one line per file whose name
    /// matches `pattern` (every file when `None`), and `BLOCKS FREE.`.
    pub fn directory_listing(&self, pattern: Option<&[u8]>) -> Vec<u8> {
        let mut out = LISTING_LOAD_ADDRESS.to_le_bytes().to_vec();
        let header = self.sector(HEADER).unwrap_or(&[0; 256]);
        let mut text = vec![0x12, b'"'];
        text.extend(header[4..20].iter().map(|&b| if b == dir::PAD { b' ' } else { b }));
        text.extend_from_slice(b"\" ");
        text.extend(header[0x16..0x1b].iter().map(|&b| if b == dir::PAD { b' ' } else { b }));
        line(&mut out, 0, &text);
        for entry in self.entries() {
            if pattern.is_some_and(|p| !dir::matches(p, &entry.name)) {
                continue;
            }
            let digits = entry.blocks.to_string().len();
            let mut text = vec![b' '; 4usize.saturating_sub(digits)];
            text.push(b'"');
            text.extend_from_slice(&entry.name);
            text.push(b'"');
            text.resize(text.len() + dir::NAME_LEN - entry.name.len().min(dir::NAME_LEN), b' ');
            text.push(if entry.closed { b' ' } else { b'*' });
            text.extend_from_slice(entry.file_type.as_str().as_bytes());
            text.push(if entry.locked { b'<' } else { b' ' });
            line(&mut out, entry.blocks, &text);
        }
        let mut text = b"BLOCKS FREE.".to_vec();
        text.resize(text.len() + 13, b' ');
        line(&mut out, self.blocks_free(), &text);
        out.extend_from_slice(&[0, 0]);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FileType;

    #[test]
    fn the_listing_is_a_basic_program() {
        let mut d = Disk::new(b"BAC128", *b"B1").unwrap();
        d.write_file(b"BAC", FileType::Prg, &[0; 3000]).unwrap();
        d.write_file(b"BAC HELP", FileType::Seq, b"x").unwrap();
        let all = d.directory_listing(None);
        assert_eq!(&all[..2], &[0x01, 0x04]);
        let mut header = vec![0x01, 0x01, 0, 0, 0x12];
        header.extend_from_slice(b"\"BAC128          \" B1 3D\0");
        assert!(all[2..].starts_with(&header));
        let lines: Vec<&[u8]> = all[2..].split(|&b| b == 0).collect();
        assert!(all.windows(24).any(|w| w == b"  \"BAC\"              PRG"), "{lines:?}");
        assert!(all.windows(12).any(|w| w == b"BLOCKS FREE."));
        // Line numbers are block counts: 12 for BAC, 3147 free.
        let twelve = [0x01, 0x01, 12, 0, b' ', b' ', b'"', b'B'];
        assert!(all.windows(8).any(|w| w == twelve));
        let free = 3147u16.to_le_bytes();
        assert!(all.windows(5).any(|w| w == [0x01, 0x01, free[0], free[1], b'B']));
        assert!(all.ends_with(&[0, 0, 0]));
        let help_only = d.directory_listing(Some(b"BAC H*"));
        assert!(help_only.len() < all.len());
        assert!(!help_only.windows(5).any(|w| w == b"\"BAC\""));
    }
}
