//! Logical files and channels: OPEN, CLOSE, CHKIN, CKOUT and what CHRIN, GETIN and CHROUT
//! read and write through them (the keyboard, the screen, disk files and the command
//! channel of device 8), and LOAD and SAVE. Names are parsed as the 1581 parses them
//! (`d81::command`); the drive itself is the [`Drive`] trait.

use super::banks::bank_of;
use super::{Cpu, Kernal, Outcome, Trap, fail, ok, or_status};
use crate::disk::{DosStatus, Drive, FileType};
use c128_map::zp::STATUS;
use d81::command::{Mode, OpenRequest, parse_open};

/// What an open logical file is connected to.
#[derive(Debug)]
pub(super) enum Channel {
    /// Device 0, the keyboard.
    Keyboard,
    /// Device 3, the screen.
    Screen,
    /// A disk file being read, or the command channel's status text.
    Read { data: Vec<u8>, pos: usize },
    /// A disk file being written (or appended to); written out on CLOSE.
    Write { name: Vec<u8>, file_type: FileType, replace: bool, append: bool, data: Vec<u8> },
    /// A disk file the drive refused to open (its error is on the command channel): as on
    /// the serial bus, bytes sent to it are lost and reading it gives end of file.
    Refused,
    /// The command channel (secondary address 15): commands written, status read.
    Command { command: Vec<u8>, status: Option<Vec<u8>> },
}

#[derive(Debug)]
pub(super) struct OpenFile {
    pub(super) lfn: u8,
    pub(super) device: u8,
    pub(super) channel: Channel,
}

/// An OPEN's (or LOAD's, SAVE's) name as the 1581 parses it ([`parse_open`]); a name it
/// refuses is the DOS status it reports.
fn open_request(raw: &[u8], sa: u8) -> Result<OpenRequest, DosStatus> {
    parse_open(raw, sa).map_err(|e| DosStatus::from(&e))
}

/// Reads what a request names for reading: a file, or the directory listing.
fn read_request(request: &OpenRequest, drive: &mut dyn Drive) -> Result<(FileType, Vec<u8>), DosStatus> {
    match request {
        OpenRequest::Directory { pattern } => {
            drive.directory(pattern.as_deref()).map(|d| (FileType::Prg, d)).ok_or(DosStatus::NOT_FOUND)
        }
        OpenRequest::File { name, .. } => drive.read(name),
        OpenRequest::Buffer => Err(DosStatus::INVALID_COMMAND),
    }
}

impl Kernal {
    pub(super) fn file(&mut self, lfn: u8) -> Option<&mut OpenFile> {
        self.files.iter_mut().find(|f| f.lfn == lfn)
    }

    /// CHKIN (`input`) and CKOUT: logical file X becomes the input or output channel, if it
    /// reads or writes that way.
    pub(super) fn set_channel(&mut self, cpu: &mut Cpu, input: bool) -> Trap {
        let x = cpu.registers.index_x;
        // Which directions the file allows: (can read, can write).
        let dirs = self.file(x).map(|f| match f.channel {
            Channel::Write { .. } | Channel::Screen => (false, true),
            Channel::Read { .. } | Channel::Keyboard => (true, false),
            Channel::Command { .. } | Channel::Refused => (true, true),
        });
        match dirs {
            None => fail(cpu, 3),
            Some((false, _)) if input => fail(cpu, 6),
            Some((_, false)) if !input => fail(cpu, 7),
            Some(_) => {
                if input {
                    self.input = Some(x);
                } else {
                    self.output_lfn = Some(x);
                }
                ok(cpu);
            }
        }
        Trap::Done(Outcome::Return, 60)
    }

    /// CLOSE_ALL: closes every file of a device.
    pub(super) fn close_device(&mut self, device: u8) -> Trap {
        let lfns: Vec<u8> = self.files.iter().filter(|f| f.device == device).map(|f| f.lfn).collect();
        for l in lfns {
            self.close(l);
        }
        Trap::Done(Outcome::Return, 100)
    }

    pub(super) fn clall(&mut self) {
        let lfns: Vec<u8> = self.files.iter().map(|f| f.lfn).collect();
        for l in lfns {
            self.close(l);
        }
        self.input = None;
        self.output_lfn = None;
    }

    pub(super) fn chrout(&mut self, cpu: &mut Cpu, c: u8) {
        ok(cpu);
        let Some(lfn) = self.output_lfn else {
            self.print(&mut cpu.memory, c);
            return;
        };
        match self.file(lfn).map(|f| &mut f.channel) {
            Some(Channel::Screen) | None => self.print(&mut cpu.memory, c),
            Some(Channel::Refused) => or_status(cpu, 0x80),
            Some(Channel::Write { data, .. }) => data.push(c),
            Some(Channel::Command { command, .. }) => {
                if c == 0x0D {
                    let cmd = std::mem::take(command);
                    self.command(&cmd);
                } else {
                    command.push(c);
                }
            }
            Some(_) => or_status(cpu, 0x01),
        }
    }

    /// CHRIN from the keyboard: the screen editor collects a line (echoing it) and hands it
    /// out a character at a time, ending with RETURN. `None` while the line is incomplete.
    pub(super) fn chrin_keyboard(&mut self, cpu: &mut Cpu) -> Option<u8> {
        if let Some(c) = self.line.pop_front() {
            return Some(c);
        }
        loop {
            let c = Self::take_key(&mut cpu.memory);
            match c {
                0 => return None,
                0x0D => {
                    self.print(&mut cpu.memory, 0x0D);
                    self.line.extend(std::mem::take(&mut self.typed));
                    self.line.push_back(0x0D);
                    return self.line.pop_front();
                }
                0x14 => {
                    if self.typed.pop().is_some() {
                        self.editor.print(&mut cpu.memory, 0x14);
                    }
                }
                _ if crate::petscii::to_screen_code(c).is_some() => {
                    self.typed.push(c);
                    self.editor.print(&mut cpu.memory, c);
                }
                _ => {}
            }
        }
    }

    pub(super) fn read_file(&mut self, cpu: &mut Cpu, lfn: u8) -> u8 {
        let dos_text = self.dos_status.to_string();
        let Some(f) = self.file(lfn) else {
            or_status(cpu, 0x42);
            return 0x0D;
        };
        let mut status_read = false;
        let (c, st) = match &mut f.channel {
            Channel::Keyboard => (Self::take_key(&mut cpu.memory), 0),
            Channel::Read { data, pos } => match data.get(*pos) {
                Some(&c) => {
                    *pos += 1;
                    (c, if *pos == data.len() { 0x40 } else { 0 })
                }
                None => (0x0D, 0x42),
            },
            Channel::Command { status, .. } => {
                let text = status.get_or_insert_with(|| {
                    let mut t: Vec<u8> = dos_text.into_bytes();
                    t.push(0x0D);
                    t.reverse();
                    t
                });
                let c = text.pop().unwrap_or(0x0D);
                if text.is_empty() {
                    *status = None;
                    status_read = true;
                    (c, 0x40)
                } else {
                    (c, 0)
                }
            }
            Channel::Screen | Channel::Write { .. } | Channel::Refused => (0x0D, 0x42),
        };
        if status_read {
            self.dos_status = DosStatus::OK;
        }
        if st != 0 {
            or_status(cpu, st);
        }
        c
    }

    pub(super) fn open(&mut self, cpu: &mut Cpu) {
        let (lfn, device, sa) = (self.lfn, self.device, self.sa);
        cpu.memory.ram_poke(0, STATUS, 0);
        if self.file(lfn).is_some() {
            return fail(cpu, 2);
        }
        if self.files.len() >= 10 {
            return fail(cpu, 1);
        }
        let channel = match device {
            0 => Channel::Keyboard,
            3 => Channel::Screen,
            8 if self.drive.is_some() => {
                if sa == 15 {
                    let name = self.name.clone();
                    if !name.is_empty() {
                        self.command(&name);
                    }
                    Channel::Command { command: Vec::new(), status: None }
                } else {
                    self.open_disk_file(sa)
                }
            }
            _ => {
                or_status(cpu, 0x80);
                return fail(cpu, 5);
            }
        };
        self.files.push(OpenFile { lfn, device, channel });
        ok(cpu);
    }

    pub(super) fn open_disk_file(&mut self, sa: u8) -> Channel {
        let Some(drive) = self.drive.as_mut() else {
            return Channel::Refused;
        };
        let (channel, status) = match open_request(&self.name, sa) {
            Err(status) => (Channel::Refused, status),
            Ok(OpenRequest::File { name, replace, file_type, mode: Mode::Write }) => {
                let exists = drive.read(&name).is_ok();
                if exists && !replace {
                    (Channel::Refused, DosStatus::EXISTS)
                } else if name.iter().any(|&c| c == b'*' || c == b'?') {
                    (Channel::Refused, DosStatus::INVALID_NAME)
                } else {
                    let file_type = file_type.unwrap_or(FileType::Seq);
                    (Channel::Write { name, file_type, replace, append: false, data: Vec::new() }, DosStatus::OK)
                }
            }
            Ok(OpenRequest::File { name, mode: Mode::Append, .. }) => match drive.read(&name) {
                Ok((file_type, _)) => {
                    (Channel::Write { name, file_type, replace: false, append: true, data: Vec::new() }, DosStatus::OK)
                }
                Err(e) => (Channel::Refused, e),
            },
            Ok(request) => {
                let wanted = match &request {
                    OpenRequest::File { file_type, .. } => *file_type,
                    _ => None,
                };
                match read_request(&request, drive.as_mut()) {
                    Ok((t, data)) if wanted.is_none_or(|want| want == t) => {
                        (Channel::Read { data, pos: 0 }, DosStatus::OK)
                    }
                    Ok(_) => (Channel::Refused, DosStatus::TYPE_MISMATCH),
                    Err(e) => (Channel::Refused, e),
                }
            }
        };
        self.dos_status = status;
        channel
    }

    /// Runs a DOS command sent to the command channel.
    pub(super) fn command(&mut self, cmd: &[u8]) {
        let Some(drive) = self.drive.as_mut() else { return };
        if let Some(status) = drive.command(cmd) {
            self.dos_status = status;
            return;
        }
        let cmd: Vec<u8> = cmd.iter().copied().filter(|&c| c != 0x0D).collect();
        self.dos_status = match cmd.first() {
            Some(b'S') => {
                let Some(colon) = cmd.iter().position(|&c| c == b':') else {
                    self.dos_status = DosStatus::NO_NAME;
                    return;
                };
                let mut total = 0u8;
                let mut result = Ok(());
                for pattern in cmd[colon + 1..].split(|&c| c == b',') {
                    match drive.scratch(pattern) {
                        Ok(n) => total = total.saturating_add(n),
                        Err(e) => {
                            result = Err(e);
                            break;
                        }
                    }
                }
                match result {
                    Ok(()) => DosStatus { code: 1, track: total, sector: 0 },
                    Err(e) => e,
                }
            }
            Some(b'I') => DosStatus::OK,
            Some(b'U') if matches!(cmd.get(1), Some(b'J' | b'9' | b':')) => DosStatus::POWER_ON,
            Some(_) => DosStatus::INVALID_COMMAND,
            None => DosStatus::OK,
        };
    }

    pub(super) fn close(&mut self, lfn: u8) {
        let Some(i) = self.files.iter().position(|f| f.lfn == lfn) else { return };
        let f = self.files.remove(i);
        if self.input == Some(lfn) {
            self.input = None;
        }
        if self.output_lfn == Some(lfn) {
            self.output_lfn = None;
        }
        match f.channel {
            Channel::Write { name, file_type, replace, append, data } => {
                if let Some(drive) = self.drive.as_mut() {
                    let written =
                        if append { drive.append(&name, &data) } else { drive.write(&name, file_type, &data, replace) };
                    self.dos_status = match written {
                        Ok(()) => DosStatus::OK,
                        Err(e) => e,
                    };
                }
            }
            Channel::Command { command, .. } if !command.is_empty() => self.command(&command),
            _ => {}
        }
    }

    pub(super) fn load(&mut self, cpu: &mut Cpu) {
        let (a, x, y) = (cpu.registers.accumulator, cpu.registers.index_x, cpu.registers.index_y);
        cpu.memory.ram_poke(0, STATUS, 0);
        if a != 0 {
            return fail(cpu, 9);
        }
        if self.device != 8 || self.drive.is_none() {
            or_status(cpu, 0x80);
            return fail(cpu, 5);
        }
        let Some(drive) = self.drive.as_mut() else { return fail(cpu, 5) };
        match open_request(&self.name, 0).and_then(|request| read_request(&request, drive.as_mut())) {
            Ok((_, data)) if data.len() >= 2 => {
                let start =
                    if self.sa == 0 { u16::from_le_bytes([x, y]) } else { u16::from_le_bytes([data[0], data[1]]) };
                let mut end = start;
                for &b in &data[2..] {
                    cpu.memory.ram_poke(bank_of(self.data_bank), end, b);
                    end = end.wrapping_add(1);
                }
                self.dos_status = DosStatus::OK;
                cpu.registers.index_x = end as u8;
                cpu.registers.index_y = (end >> 8) as u8;
                ok(cpu);
            }
            Ok(_) => {
                self.dos_status = DosStatus::OK;
                or_status(cpu, 0x40);
                fail(cpu, 4)
            }
            Err(e) => {
                self.dos_status = e;
                or_status(cpu, 0x02);
                fail(cpu, 4)
            }
        }
    }

    pub(super) fn save(&mut self, cpu: &mut Cpu) {
        let (a, x, y) = (cpu.registers.accumulator, cpu.registers.index_x, cpu.registers.index_y);
        cpu.memory.ram_poke(0, STATUS, 0);
        if self.device != 8 || self.drive.is_none() {
            or_status(cpu, 0x80);
            return fail(cpu, 5);
        }
        let zp = u16::from(a);
        let start = u16::from_le_bytes([cpu.memory.ram_peek(0, zp), cpu.memory.ram_peek(0, (zp + 1) & 0xFF)]);
        let end = u16::from_le_bytes([x, y]);
        let mut data = start.to_le_bytes().to_vec();
        let mut p = start;
        while p != end {
            data.push(cpu.memory.ram_peek(bank_of(self.data_bank), p));
            p = p.wrapping_add(1);
        }
        let Some(drive) = self.drive.as_mut() else { return fail(cpu, 5) };
        let written = match open_request(&self.name, 1) {
            Ok(OpenRequest::File { name, replace, .. }) => drive.write(&name, FileType::Prg, &data, replace),
            Ok(_) => Err(DosStatus::INVALID_NAME),
            Err(status) => Err(status),
        };
        match written {
            Ok(()) => {
                self.dos_status = DosStatus::OK;
                ok(cpu)
            }
            Err(e) => {
                self.dos_status = e;
                ok(cpu)
            }
        }
    }
}
