//! The C128 boot sector (track 1 sector 0) and its loader, which runs the game.
//!
//! At power-on (and on `BOOT`) the C128 KERNAL reads track 1 sector 0 of the drive to $0B00.
//! If it starts with "CBM" it prints `BOOTING` and the title, loads any extra blocks and the
//! named file, then calls the code that follows the two strings with JSR. Layout:
//!
//! | offset | contents |
//! | --- | --- |
//! | 0-2 | "CBM" |
//! | 3-4 | load address of extra boot blocks (low, high): the stage's, or 0 |
//! | 5 | bank of the extra blocks: 0 |
//! | 6 | number of extra blocks (read from 1/1 on): the stage's, or 0 |
//! | 7 | title, ending in $00 |
//! | then | name of a file to load, ending in $00: empty here |
//! | then | code, entered with JSR at $0B00 + offset |
//!
//! The loader builds the BASIC line `RUN"NAME",Un` (or `FAST:RUN"NAME",Un`, see
//! [`BootSector::fast`]; n = the device it booted from, read from
//! FA at $BA, so the disk boots from drive 8 or from any other unit) and hands it to BASIC 7's
//! "execute a line" routine at $AFA5, which takes the address of the text minus one in Y:X.
//! That entry point is the one published C128 boot sectors use; the KERNAL calls the loader
//! with BASIC in the memory map, and BASIC runs the command as if it had been typed. The
//! code, hand-assembled (C = offset of the code, which follows the title):
//!
//! ```text
//! C+0   A5 BA      LDA $BA        ; FA: the unit the KERNAL booted from
//! C+2   A2 2F      LDX #$2F       ; tens digit, counted up from "0"
//! C+4   38         SEC
//! C+5   E8   TENS: INX
//! C+6   E9 0A      SBC #10
//! C+8   B0 FB      BCS TENS       ; loop while no borrow
//! C+10  69 3A      ADC #$3A       ; carry clear: A = units + "0"
//! C+12  A0 00      LDY #0         ; Y = where the units digit goes
//! C+14  E0 30      CPX #$30
//! C+16  F0 04      BEQ UNITS      ; no tens digit below unit 10
//! C+18  8E ll hh   STX DIGITS
//! C+21  C8         INY
//! C+22  99 ll hh UNITS: STA DIGITS,Y
//! C+25  A2 ll      LDX #<(CMD-1)
//! C+27  A0 hh      LDY #>(CMD-1)
//! C+29  4C A5 AF   JMP $AFA5      ; BASIC: execute the line at (Y:X)+1
//! C+32  CMD:    'RUN"' NAME '",U'   ; with `fast`: 'FAST:RUN"' NAME '",U'
//!       DIGITS: 00 00 00           ; one or two digits, then the $00 that ends the line
//! ```
//!
//! With a [`BootStage`] (a loader of the program's build, read by the KERNAL as the extra
//! blocks), the code calls it first and runs the program with a plain `RUN` when it says
//! (carry clear) that it put the program in memory, as `LOAD` would have; otherwise the
//! loader above runs, unchanged:
//!
//! ```text
//! C+0   20 ll hh   JSR STAGE
//! C+3   B0 07      BCS LOADER     ; the stage could not: RUN"NAME" as without it
//! C+5   A2 ll      LDX #<(RUN-1)
//! C+7   A0 hh      LDY #>(RUN-1)
//! C+9   4C A5 AF   JMP $AFA5
//! C+12  LOADER:    ; the 32 bytes above, then CMD and DIGITS
//!       RUN:       'RUN' 00
//! ```

use crate::geometry::SECTOR_SIZE;
use thiserror::Error;

/// Where the KERNAL loads the boot sector.
pub const LOAD_ADDRESS: u16 = 0x0b00;
/// BASIC 7's "execute a line" entry, where the loader jumps.
pub const BASIC_EXECUTE_LINE: u16 = 0xafa5;

/// A boot sector that cannot be built.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum BootError {
    /// The program name cannot go into a `RUN"…"` line.
    #[error("boot program name {name}: {reason}")]
    BadProgram {
        /// The name as ASCII.
        name: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// The title holds a $00, which would end it early.
    #[error("boot title {0} holds a $00 byte")]
    BadTitle(String),
    /// Title, name and code do not fit in 256 bytes.
    #[error("boot sector needs {0} bytes, a sector has 256 (shorten the title)")]
    TooLong(usize),
    /// The stage is not a program that the boot can load.
    #[error("boot stage: {0}")]
    BadStage(String),
}

/// A loader the KERNAL reads with the boot sector (its extra blocks, from track 1 sector 1
/// on) and the boot sector calls before it falls back on `RUN"NAME"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BootStage {
    /// Where the KERNAL puts it in bank 0, and where it is called.
    pub address: u16,
    /// Its bytes.
    pub code: Vec<u8>,
}

/// The most blocks a stage may take: the KERNAL reads them before anything shows.
pub const MAX_STAGE_BLOCKS: usize = 16;

impl BootStage {
    /// A stage from a `.prg` (load address first), which must lie in bank 0's RAM between
    /// the boot sector's page and $D000 and take at most [`MAX_STAGE_BLOCKS`] sectors.
    pub fn from_prg(prg: &[u8]) -> Result<BootStage, BootError> {
        let bad = |why: String| BootError::BadStage(why);
        let [lo, hi, code @ ..] = prg else {
            return Err(bad(format!("{} bytes: a .prg starts with its 2-byte load address", prg.len())));
        };
        let address = u16::from_le_bytes([*lo, *hi]);
        if code.is_empty() || code.len() > MAX_STAGE_BLOCKS * SECTOR_SIZE {
            return Err(bad(format!("{} bytes of code (1 to {MAX_STAGE_BLOCKS} blocks)", code.len())));
        }
        let end = u32::from(address) + (code.len().div_ceil(SECTOR_SIZE) * SECTOR_SIZE) as u32;
        if address < LOAD_ADDRESS + SECTOR_SIZE as u16 || end > 0xD000 {
            let last = end - 1;
            return Err(bad(format!("its blocks would go to ${address:04X}-${last:04X} (only $0C00-$CFFF)")));
        }
        Ok(BootStage { address, code: code.to_vec() })
    }

    /// The sectors it takes on the disk, from track 1 sector 1 on, the last padded with 0.
    pub fn blocks(&self) -> Vec<[u8; SECTOR_SIZE]> {
        self.code
            .chunks(SECTOR_SIZE)
            .map(|c| {
                let mut block = [0u8; SECTOR_SIZE];
                block[..c.len()].copy_from_slice(c);
                block
            })
            .collect()
    }
}

/// A C128 boot sector that runs one program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BootSector {
    /// PETSCII title, printed after `BOOTING`.
    pub title: Vec<u8>,
    /// PETSCII name of the program to `RUN` (the disk's first file).
    pub program: Vec<u8>,
    /// Whether the line is `FAST:RUN"NAME",Un`: BASIC's FAST switches to 2 MHz (blanking
    /// the 40-column screen, as 2 MHz needs) before the LOAD, so the KERNAL's burst
    /// transfer from a 1571 or 1581 is not held back by the 1 MHz CPU. The program must
    /// set the clock and the screen it wants.
    pub fast: bool,
    /// A loader called first (see the module docs), or none.
    pub stage: Option<BootStage>,
}

/// What a boot sector read from a disk says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BootInfo {
    /// Load address of the extra blocks.
    pub extra_address: u16,
    /// Bank of the extra blocks.
    pub extra_bank: u8,
    /// Number of extra blocks (from track 1 sector 1 on).
    pub extra_blocks: u8,
    /// PETSCII title.
    pub title: Vec<u8>,
    /// PETSCII name of a file the KERNAL loads before the code runs (often empty).
    pub file: Vec<u8>,
    /// Offset of the code in the sector; it is entered at $0B00 plus this.
    pub code_offset: usize,
}

impl BootInfo {
    /// Parses a sector; `None` unless it starts with "CBM" and both strings end in it.
    pub fn parse(sector: &[u8]) -> Option<BootInfo> {
        if sector.len() < 8 || &sector[..3] != b"CBM" {
            return None;
        }
        let title_end = 7 + sector[7..].iter().position(|&b| b == 0)?;
        let file_start = title_end + 1;
        let file_end = file_start + sector.get(file_start..)?.iter().position(|&b| b == 0)?;
        Some(BootInfo {
            extra_address: u16::from_le_bytes([sector[3], sector[4]]),
            extra_bank: sector[5],
            extra_blocks: sector[6],
            title: sector[7..title_end].to_vec(),
            file: sector[file_start..file_end].to_vec(),
            code_offset: file_end + 1,
        })
    }
}

/// Length of the loader code before the command text.
const CODE_LEN: usize = 32;
/// Length of the call of the stage and the `RUN` after it, before the loader code.
const STAGE_CALL_LEN: usize = 12;
/// The line the boot sector runs after a stage put the program in memory.
const RUN: &[u8] = b"RUN";

impl BootSector {
    /// A boot sector titled `title` that runs `program`; both PETSCII.
    pub fn new(title: &[u8], program: &[u8]) -> Result<BootSector, BootError> {
        let boot = BootSector { title: title.to_vec(), program: program.to_vec(), fast: false, stage: None };
        boot.to_bytes()?;
        Ok(boot)
    }

    /// The same sector with [`BootSector::fast`] set or not.
    pub fn with_fast(self, fast: bool) -> Result<BootSector, BootError> {
        let boot = BootSector { fast, ..self };
        boot.to_bytes()?;
        Ok(boot)
    }

    /// The same sector calling `stage` first.
    pub fn with_stage(self, stage: BootStage) -> Result<BootSector, BootError> {
        let boot = BootSector { stage: Some(stage), ..self };
        boot.to_bytes()?;
        Ok(boot)
    }

    /// The 256 bytes of the sector.
    pub fn to_bytes(&self) -> Result<[u8; SECTOR_SIZE], BootError> {
        let shown = |b: &[u8]| format!("\"{}\"", crate::petscii::to_ascii(b));
        let bad = |reason| BootError::BadProgram { name: shown(&self.program), reason };
        if self.program.is_empty() {
            return Err(bad("it is empty"));
        }
        if self.program.len() > crate::dir::NAME_LEN {
            return Err(bad("it is longer than 16 characters"));
        }
        if self.program.iter().any(|&b| b == b'"' || b == 0) {
            return Err(bad("it holds a quote or a $00 byte"));
        }
        if self.title.contains(&0) {
            return Err(BootError::BadTitle(shown(&self.title)));
        }
        let mut out = Vec::with_capacity(SECTOR_SIZE);
        out.extend_from_slice(b"CBM");
        match &self.stage {
            Some(stage) => {
                out.extend_from_slice(&stage.address.to_le_bytes());
                out.extend_from_slice(&[0, stage.blocks().len() as u8]);
            }
            None => out.extend_from_slice(&[0, 0, 0, 0]),
        }
        out.extend_from_slice(&self.title);
        out.extend_from_slice(&[0, 0]);
        let code = out.len() + if self.stage.is_some() { STAGE_CALL_LEN } else { 0 };
        let cmd = code + CODE_LEN;
        let mut text = if self.fast { b"FAST:RUN\"".to_vec() } else { b"RUN\"".to_vec() };
        text.extend_from_slice(&self.program);
        text.extend_from_slice(b"\",U");
        let digits = cmd + text.len();
        let run = digits + 3;
        let total = run + if self.stage.is_some() { RUN.len() + 1 } else { 0 };
        if total > SECTOR_SIZE {
            return Err(BootError::TooLong(total));
        }
        let digits_at = (LOAD_ADDRESS + digits as u16).to_le_bytes();
        let cmd_minus_one = (LOAD_ADDRESS + cmd as u16 - 1).to_le_bytes();
        let [exec_lo, exec_hi] = BASIC_EXECUTE_LINE.to_le_bytes();
        #[rustfmt::skip]
        let loader: [u8; CODE_LEN] = [
            0xa5, 0xba,                         // LDA $BA
            0xa2, 0x2f,                         // LDX #$2F
            0x38,                               // SEC
            0xe8,                               // TENS: INX
            0xe9, 0x0a,                         // SBC #10
            0xb0, 0xfb,                         // BCS TENS
            0x69, 0x3a,                         // ADC #$3A
            0xa0, 0x00,                         // LDY #0
            0xe0, 0x30,                         // CPX #$30
            0xf0, 0x04,                         // BEQ UNITS
            0x8e, digits_at[0], digits_at[1],   // STX DIGITS
            0xc8,                               // INY
            0x99, digits_at[0], digits_at[1],   // UNITS: STA DIGITS,Y
            0xa2, cmd_minus_one[0],             // LDX #<(CMD-1)
            0xa0, cmd_minus_one[1],             // LDY #>(CMD-1)
            0x4c, exec_lo, exec_hi,             // JMP $AFA5
        ];
        if let Some(stage) = &self.stage {
            let [stage_lo, stage_hi] = stage.address.to_le_bytes();
            let run_minus_one = (LOAD_ADDRESS + run as u16 - 1).to_le_bytes();
            #[rustfmt::skip]
            let call: [u8; STAGE_CALL_LEN] = [
                0x20, stage_lo, stage_hi,           // JSR STAGE
                0xb0, 0x07,                         // BCS LOADER
                0xa2, run_minus_one[0],             // LDX #<(RUN-1)
                0xa0, run_minus_one[1],             // LDY #>(RUN-1)
                0x4c, exec_lo, exec_hi,             // JMP $AFA5
            ];
            out.extend_from_slice(&call);
        }
        out.extend_from_slice(&loader);
        out.extend_from_slice(&text);
        out.extend_from_slice(&[0, 0, 0]);
        if self.stage.is_some() {
            out.extend_from_slice(RUN);
            out.push(0);
        }
        out.resize(SECTOR_SIZE, 0);
        let mut sector = [0u8; SECTOR_SIZE];
        sector.copy_from_slice(&out);
        Ok(sector)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_parses_back() {
        let bytes = BootSector::new(b"BAC128", b"BAC").unwrap().to_bytes().unwrap();
        assert_eq!(&bytes[..7], b"CBM\0\0\0\0");
        let info = BootInfo::parse(&bytes).unwrap();
        assert_eq!(info.title, b"BAC128");
        assert!(info.file.is_empty());
        assert_eq!(info.code_offset, 7 + 6 + 2);
        assert_eq!(info.extra_blocks, 0);
        assert_eq!(BootInfo::parse(&[0u8; 256]), None);
    }

    #[test]
    fn bad_names_and_long_titles_are_refused() {
        assert!(matches!(BootSector::new(b"T", b"A\"B"), Err(BootError::BadProgram { .. })));
        assert!(matches!(BootSector::new(b"T", b""), Err(BootError::BadProgram { .. })));
        assert!(matches!(BootSector::new(b"T\0", b"A"), Err(BootError::BadTitle(_))));
        assert_eq!(BootSector::new(&[b'T'; 210], b"BAC"), Err(BootError::TooLong(7 + 210 + 2 + 32 + 10 + 3)));
        let fits = BootSector::new(&[b'T'; 200], b"BAC").unwrap();
        assert_eq!(fits.with_fast(true), Err(BootError::TooLong(7 + 200 + 2 + 32 + 15 + 3)));
    }
}
