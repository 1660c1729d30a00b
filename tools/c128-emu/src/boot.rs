//! Booting from device 8 as the C128 does at power-on: the KERNAL reads track 1 sector 0 to
//! $0B00 and, if it starts with "CBM", calls the code after its title and file name. Boot
//! loaders hand a `RUN"NAME"` line to BASIC's "execute a line" routine at $AFA5; with no
//! BASIC ROM here, that routine is trapped and understands exactly that command. A disk
//! without a boot sector runs its first program file, as `RUN"*"` (or VICE's autostart) does.

use crate::disk::DiskError;
use crate::error::{Error, RunError};
use crate::machine::{Exit, Machine};
use crate::prg;
use c128_map::zp::{BOOT_SECTOR, FA};

impl Machine {
    /// Boots the disk in device 8 and runs until the program ends.
    pub fn boot(&mut self) -> Result<Exit, Error> {
        self.start_boot()?;
        self.run().map_err(|error| Error::Run { error, output: self.output_text() })
    }

    /// Prepares booting the disk in device 8 without running it (see [`Machine::run`] and
    /// [`Machine::run_frame`]).
    pub fn start_boot(&mut self) -> Result<(), Error> {
        let wrap = |m: &Machine, error| Error::Run { error, output: m.output_text() };
        let drive = self.kernal.drive.as_mut().ok_or(DiskError::NoDisk)?;
        let sector = drive.boot_sector();
        let first = drive.names().into_iter().find(|(_, t)| *t == crate::disk::FileType::Prg);
        self.cpu.memory.ram_poke(0, FA, 8);
        match sector {
            Some(sector) => {
                for (i, &b) in sector.iter().enumerate() {
                    self.cpu.memory.ram_poke(0, BOOT_SECTOR + i as u16, b);
                }
                let Some(info) = d81::BootInfo::parse(&sector) else {
                    return Err(DiskError::BadImage {
                        path: "device 8".into(),
                        reason: "the boot sector's title or file name is not terminated".into(),
                    }
                    .into());
                };
                // The extra blocks, from track 1 sector 1 on, where the header says.
                for n in 0..info.extra_blocks {
                    let missing = || DiskError::BadImage {
                        path: "device 8".into(),
                        reason: format!(
                            "the boot sector asks for {} extra blocks; track 1 sector {} is not there",
                            info.extra_blocks,
                            n + 1
                        ),
                    };
                    let block = drive.boot_block(n + 1).ok_or_else(missing)?;
                    for (i, &b) in block.iter().enumerate() {
                        let at = info.extra_address.wrapping_add(u16::from(n) * 256 + i as u16);
                        self.cpu.memory.ram_poke(info.extra_bank & 1, at, b);
                    }
                }
                self.start(BOOT_SECTOR + info.code_offset as u16);
            }
            None => {
                let Some((name, _)) = first else {
                    return Err(DiskError::NothingToBoot { path: "device 8".into() }.into());
                };
                if let Err(e) = self.run_file(&name) {
                    return Err(wrap(self, e));
                }
            }
        }
        Ok(())
    }

    /// BASIC's `RUN"NAME"`: loads a program from device 8 to the start of BASIC (relocating,
    /// as BASIC's LOAD does) and calls its `SYS` line with a fresh stack.
    pub(crate) fn run_file(&mut self, name: &[u8]) -> Result<(), RunError> {
        let basic = |m: &Machine, message: String| RunError::Basic { message, at: m.location() };
        let shown = crate::petscii::to_utf8(name);
        let read = match self.kernal.drive.as_mut() {
            Some(d) => d.read(name),
            None => return Err(basic(self, "?DEVICE NOT PRESENT ERROR".into())),
        };
        let data = match read {
            Ok((_, data)) => data,
            Err(status) => {
                self.kernal.dos_status = status;
                return Err(basic(self, format!("?FILE NOT FOUND ERROR loading \"{shown}\" ({status})")));
            }
        };
        let mut relocated = prg::BASIC_START.to_le_bytes().to_vec();
        relocated.extend_from_slice(data.get(2..).unwrap_or_default());
        if let Err(e) = self.load_prg(&relocated) {
            return Err(basic(self, format!("cannot load \"{shown}\": {e}")));
        }
        let entry = match self.sys_address() {
            Ok(a) => a,
            Err(e) => return Err(basic(self, format!("cannot RUN \"{shown}\": {e}"))),
        };
        self.cpu.registers.stack_pointer.0 = 0xFA;
        self.start(entry);
        Ok(())
    }

    /// The trapped "execute a line" routine: runs `[FAST:]RUN"NAME"[,U8|,D0,U8]`.
    pub(crate) fn basic_execute_line(&mut self) -> Result<(), RunError> {
        let r = &self.cpu.registers;
        let at = u16::from_le_bytes([r.index_x, r.index_y]).wrapping_add(1);
        let line: Vec<u8> =
            (0..160u16).map(|i| self.cpu.memory.ram_peek(0, at.wrapping_add(i))).take_while(|&b| b != 0).collect();
        let text = crate::petscii::to_utf8(&line);
        let unsupported = |m: &Machine| RunError::Basic {
            message: format!("only RUN\"NAME\" is emulated, the line was {text:?}"),
            at: m.location(),
        };
        let trimmed: Vec<u8> = line.iter().copied().filter(|&b| b != b' ').collect();
        // FAST: first (2 MHz for the load), as a boot sector may have it.
        let trimmed = match trimmed.strip_prefix(b"FAST:") {
            Some(rest) => {
                self.bus_mut().vic.write(0x30, 0x01);
                rest.to_vec()
            }
            None => trimmed,
        };
        let Some(rest) = trimmed.strip_prefix(b"RUN\"") else { return Err(unsupported(self)) };
        let Some(close) = rest.iter().position(|&b| b == b'"') else {
            return Err(unsupported(self));
        };
        let (name, options) = (&rest[..close], &rest[close + 1..]);
        for opt in options.split(|&b| b == b',').filter(|o| !o.is_empty()) {
            match opt {
                b"U8" | b"D0" => {}
                _ => return Err(unsupported(self)),
            }
        }
        self.run_file(name)
    }
}
