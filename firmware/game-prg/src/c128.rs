//! [`Platform`] on the C128's hardware, through c128-rt's drivers.

use bac_game::help;
use bac_game::platform::{self, Colour, DiskError, Sound};
use bac_game::text::Lang;
use c128_rt::disk;
use c128_rt::hw::Reg8;
use c128_rt::kernal::{self, addr};
use c128_rt::{frame, keyboard, screen, sound};

/// Where each settled coup is posted for the keyboard fuzz test (the cassette buffer,
/// which nothing uses once the boot sector has run): coups (2 bytes), money before and
/// after the coup (4 bytes each, cents), little-endian.
const MAILBOX: u16 = c128_map::test::MAILBOX;
/// The raster line, for a seed that depends on when the player pressed a key.
const RASTER: Reg8 = Reg8::at(c128_map::io::VIC_RASTER);
/// Logical file and secondary address the help text is read on.
const HELP_FILE: u8 = 3;
/// The help files with their type and mode, by language (`bac_game::help::file_name`).
const HELP_NAMES: [&[u8]; 2] = [b"BAC HELP,S,R", b"BAC AIDE,S,R"];
/// READST: end of file or an error.
const ST_END: u8 = 0x40 | 0x80 | 0x02;
/// ST, the KERNAL's I/O status, which READST returns.
const ST: Reg8 = Reg8::at(c128_map::zp::STATUS);

/// The 80-column table's cloth, under the VDC's white paper (`c128_rt::paper`): dark
/// blue, on which white reads at 13.3:1 on VICE's VDC palette (dark red 7.8, dark grey 7.5,
/// dark purple 6.4, dark green only 3.1). Not red, which would make the whole table look
/// like a Banker's mark or a loss; the Player's blue never meets it, its words and marks
/// being on white. The game's own background (black) stays the 40-column cloth.
const CLOTH_80: Colour = screen::colour::BLUE;

// The game's colour flags are the driver's.
const _: () = assert!(
    bac_game::platform::colour::ON_PAPER == screen::ON_PAPER && bac_game::platform::colour::MARK == screen::ALTERNATE
);

/// The C128 under the game.
pub struct C128 {
    frames: u32,
    help_open: bool,
}

impl C128 {
    /// The machine, nothing open yet.
    pub fn new() -> C128 {
        post(MAILBOX, &[0; 10]);
        C128 { frames: 0, help_open: false }
    }
}

fn disk_error(e: disk::DiskError) -> DiskError {
    match e {
        disk::DiskError::NotFound => DiskError::NotFound,
        disk::DiskError::WriteProtected => DiskError::WriteProtected,
        disk::DiskError::DiskFull => DiskError::DiskFull,
        disk::DiskError::NoDevice => DiskError::NoDevice,
        disk::DiskError::TooLong => DiskError::TooLong,
        disk::DiskError::Dos(n) => DiskError::Dos(n),
    }
}

fn post(at: u16, bytes: &[u8]) {
    for (i, &b) in bytes.iter().enumerate() {
        Reg8::at(at + i as u16).write(b);
    }
}

// Every method stays a function of its own (never inlined into the game's code): the game's
// code is interpreted from bank 1, and what it calls here (screen, keys, raster, SID, disk)
// must run as translated 6502 at full speed.
impl platform::Screen for C128 {
    #[inline(never)]
    fn columns(&self) -> u8 {
        screen::columns()
    }

    #[inline(never)]
    fn set_columns(&mut self, columns: u8, background: Colour) {
        if columns == 80 {
            screen::open(screen::Width::Eighty, screen::colour::WHITE, CLOTH_80);
        } else {
            screen::open(screen::Width::Forty, background, background);
        }
    }

    #[inline(never)]
    fn put(&mut self, x: u8, y: u8, code: u8, colour: Colour) {
        screen::put(x, y, code, colour);
    }

    #[inline(never)]
    fn put_text(&mut self, x: u8, y: u8, text: &[u8], reverse: bool, colour: Colour) -> u8 {
        screen::put_row(x, y, text, bac_game::draw::glyph::SPACE, reverse, colour)
    }

    #[inline(never)]
    fn fill(&mut self, x: u8, y: u8, w: u8, h: u8, code: u8, colour: Colour) {
        screen::fill(x, y, w, h, code, colour);
    }

    #[inline(never)]
    fn card_paper(&mut self, slot: u8, at: Option<(u8, u8)>) {
        screen::card_paper(slot, at);
    }

    #[inline(never)]
    fn hold(&mut self) -> bool {
        c128_rt::held::hold();
        true
    }

    #[inline(never)]
    fn show(&mut self) {
        c128_rt::held::show();
    }
}

impl platform::Keys for C128 {
    #[inline(never)]
    fn key(&mut self) -> Option<u8> {
        keyboard::poll()
    }

    #[inline(never)]
    fn hurry(&mut self) -> bool {
        keyboard::take_space()
    }
}

impl platform::Clock for C128 {
    #[inline(never)]
    fn frame(&mut self) {
        frame::wait();
        sound::tick();
        self.frames = self.frames.wrapping_add(1);
    }

    #[inline(never)]
    fn clock(&self) -> u8 {
        frame::count()
    }

    #[inline(never)]
    fn ticks(&self) -> u32 {
        (self.frames << 8) ^ u32::from(RASTER.read())
    }
}

impl platform::Speaker for C128 {
    #[inline(never)]
    fn sound(&mut self, s: Sound) {
        sound::play(crate::sounds::effect(s));
    }
}

impl platform::Storage for C128 {
    #[inline(never)]
    fn read(&mut self, name: &[u8], buf: &mut [u8]) -> Result<usize, DiskError> {
        disk::read(name, buf).map_err(disk_error)
    }

    #[inline(never)]
    fn write(&mut self, name: &[u8], data: &[u8]) -> Result<(), DiskError> {
        disk::write(name, data).map_err(disk_error)
    }

    #[inline(never)]
    fn scratch(&mut self, name: &[u8]) -> Result<(), DiskError> {
        disk::scratch(name).map_err(disk_error)
    }

    #[inline(never)]
    fn rename(&mut self, from: &[u8], to: &[u8]) -> Result<(), DiskError> {
        disk::rename(from, to).map_err(disk_error)
    }

    #[inline(never)]
    fn open_help(&mut self, lang: Lang) -> Result<(), DiskError> {
        self.close_help();
        let device = disk::device();
        kernal::call(addr::SETBNK, 0, 0, 0, false);
        kernal::call(addr::SETLFS, HELP_FILE, device, HELP_FILE, false);
        let file = HELP_NAMES[lang as usize];
        let name = file.as_ptr() as usize as u16;
        kernal::call(addr::SETNAM, file.len() as u8, name as u8, (name >> 8) as u8, false);
        if kernal::call(addr::OPEN, 0, 0, 0, false).carry {
            kernal::call(addr::CLOSE, HELP_FILE, 0, 0, false);
            return Err(DiskError::NoDevice);
        }
        self.help_open = true;
        // The drive says "file not found" only when the first byte is read. The file
        // stays the input channel until it is closed: the help pages make no other KERNAL
        // call, and each CHKIN and CLRCH is a TALK or UNTALK on the serial bus, which per
        // byte made a page take seconds.
        if kernal::call(addr::CHKIN, 0, HELP_FILE, 0, false).carry {
            self.close_help();
            return Err(DiskError::NoDevice);
        }
        Ok(())
    }

    #[inline]
    fn help_byte(&mut self) -> Option<u8> {
        if !self.help_open {
            return None;
        }
        let byte = kernal::call(addr::CHRIN, 0, 0, 0, false).a;
        // READST's answer, read where the KERNAL keeps it.
        let status = ST.read();
        if status & (0x80 | 0x02) != 0 {
            // Not there, or the drive stopped answering: no byte.
            self.close_help();
            return None;
        }
        if status & ST_END != 0 {
            // The last byte comes with end-of-file set.
            self.close_help();
        }
        Some(byte)
    }

    /// The line in one translated loop (the default's `help_byte` a byte at a time from the
    /// interpreted help pages took seven seconds a page).
    #[inline(never)]
    fn help_line(&mut self, line: &mut [u8; 80]) -> (u8, u16, bool) {
        let (mut len, mut used) = (0u8, 0u16);
        while let Some(byte) = self.help_byte() {
            used += 1;
            if byte == help::RETURN || byte == help::LINE_FEED {
                return (len, used, true);
            }
            if let Some(cell) = line.get_mut(usize::from(len)) {
                *cell = help::ascii(byte);
                len += 1;
            }
        }
        (len, used, false)
    }

    /// RAM under the KERNAL ROM and above the game's code in bank 1 (`c128_rt::spare`):
    /// about 7 KB, nearly a whole help file.
    #[inline(never)]
    fn spare_len(&mut self) -> u16 {
        c128_rt::spare::len()
    }

    #[inline(never)]
    fn spare_store(&mut self, at: u16, bytes: &[u8]) {
        c128_rt::spare::store(at, bytes);
    }

    #[inline(never)]
    fn spare_load(&mut self, at: u16, bytes: &mut [u8]) {
        c128_rt::spare::load(at, bytes);
    }

    #[inline(never)]
    fn close_help(&mut self) {
        if self.help_open {
            kernal::call(addr::CLRCH, 0, 0, 0, false);
            kernal::call(addr::CLOSE, HELP_FILE, 0, 0, false);
            self.help_open = false;
        }
    }
}

impl platform::Witness for C128 {
    #[inline(never)]
    fn settled(&mut self, coups: u16, before: u32, after: u32) {
        post(MAILBOX, &coups.to_le_bytes());
        post(MAILBOX + 2, &before.to_le_bytes());
        post(MAILBOX + 6, &after.to_le_bytes());
    }
}
