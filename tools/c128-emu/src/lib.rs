//! A Commodore 128 emulated far enough to run, test and screenshot bac128's programs, with
//! no Commodore ROM: the KERNAL's entry points are trapped and emulated in Rust.
//!
//! The 8502 is the `mos6502` crate's NMOS core on a bus ([`bus::C128Bus`]) that models RAM
//! banks 0 and 1, the MMU ($FF00, $D500-$D50B, pre-configurations, common RAM, zero page
//! and stack relocation), the $00/$01 port, the VIC-IIe, the VDC with its own RAM, both
//! CIAs (keyboard matrix with the C128's extra keys, joysticks, timers, TOD clock), the SID
//! (writes logged) and the 40/80 key and FAST mode. A write to $D7FF (VICE's debug
//! cartridge) ends a run with that exit code.
//!
//! # Running a program
//!
//! [`run_until_exit`] is the one helper tests and `bac run` use: load a `.prg` (loading at
//! $1C01 with a `SYS` stub), `RUN` it, and return its exit code and what it printed.
//!
//! ```
//! use c128_emu::{RunOptions, prg::with_basic_stub, run_until_exit};
//!
//! // LDA #'H' / JSR $FFD2 / LDA #'I' / JSR $FFD2 / LDA #7 / STA $D7FF / RTS
//! let code = [0xA9, b'H', 0x20, 0xD2, 0xFF, 0xA9, b'I', 0x20, 0xD2, 0xFF,
//!             0xA9, 7, 0x8D, 0xFF, 0xD7, 0x60];
//! let (prg, _) = with_basic_stub(&code);
//! let report = run_until_exit(&prg, RunOptions::default()).unwrap();
//! assert_eq!(report.exit.code, 7);
//! assert_eq!(report.output(), "HI");
//! ```
//!
//! A run that goes wrong is an [`Error`]: a BRK, a jammed or undocumented opcode, a PC that
//! stops moving, execution in ROM away from a trapped entry or in I/O, an unemulated KERNAL
//! call, or the cycle budget running out. Each shows PC, opcode, registers, $FF00 and the
//! cycle count, plus the caller's description of the address ([`RunOptions::source_map`]:
//! the translator names the AVR instruction).
//!
//! # For `bac run`, `bac play` and differential tests
//!
//! - [`start`] builds the machine for a [`Program`] (`.prg`, or `.d81` to boot) without
//!   running it: [`Machine::run`] runs to the end within the budget, [`Machine::run_frame`]
//!   one frame at a time (`bac play`), and the machine stays there after a failure for
//!   [`Machine::save_screenshot`], [`Machine::screen_text`] ([`text::cells`] with colours),
//!   [`Machine::output_text`], [`Machine::disk_image`] and [`Machine::bus`] (RAM, chips,
//!   the SID log, the keyboard: [`keys::Keyboard::press_now`] with [`keys::named`]).
//! - [`Config`] holds the budget, the 40/80 key, PAL/NTSC, VDC RAM size, the program's
//!   code ranges (a jump outside them is an error), the TOD start, and
//!   [`Config::stop_frames_after_keys`] to end an endless program after its key script.
//! - [`keys::parse_keys`] reads `--keys` scripts: text, `{RETURN}`, `{F1}`, `{DOWN}`,
//!   `{WAIT 50}` (frames); unknown names are a [`keys::KeysError`].
//! - [`disk::Drive`] is what the KERNAL's file calls (OPEN, CHKIN, CHKOUT, CHRIN, CHROUT,
//!   READST, CLOSE, LOAD, SAVE, the command channel) use; [`disk::MemoryDrive`] keeps files
//!   in memory. The DOS status reads as a 1581's (`62,FILE NOT FOUND,00,00`).
//! - [`run_disk_until_exit`] boots a `.d81` ([`d81drive::D81Drive`]) the way the real machine
//!   does: the boot sector's loader runs and its `RUN"NAME"` is honoured; without a boot
//!   sector the first program file runs.
//! - [`screenshot::compare_golden`] compares a screenshot with a golden PNG (`BLESS=1`
//!   rewrites it; a mismatch writes the actual picture and a difference image).
//! - [`bench::measure`] reports emulated cycles per second for `bac bench`.
//!
//! # The machine a program finds
//!
//! The state the KERNAL leaves after power-on, at the READY prompt: $FF00 = $00 (bank 15)
//! when `SYS` starts the program, interrupts enabled, SP = $F8 below the return to BASIC,
//! 1 KB of common RAM at the bottom ($D506 = $04), cleared 40- and 80-column screens with
//! the cursor at home (80 columns active when [`Config::eighty_columns`], the 40/80 key),
//! the VIC raster interrupt on line 251 driving the editor's frame interrupt (50 Hz PAL by
//! default), the IRQ vector $0314 = $FA65, the function keys' texts at $1000 (F5 is
//! `DSAVE"`: the keyboard scan starts a function key's text, which GETIN hands out before
//! the keyboard buffer), the VDC character set copied to $2000 from the
//! built-in font, and no Commodore ROM: reads of ROM give $FF (the character ROM gives the
//! built-in font, the KERNAL vectors at $FFFA-$FFFF point at the trapped entries).
//!
//! Trapped KERNAL entries (JSR with the KERNAL ROM mapped; cycle costs are estimates):
//! CHROUT, CHRIN (a line from the keyboard, or a file), GETIN, PLOT, PRIMM, SCNKEY, STOP,
//! SETBNK, SETLFS, SETNAM, OPEN, CLOSE, CHKIN, CKOUT, CLRCH, READST, CLALL, CLOSE_ALL, LOAD,
//! SAVE, RDTIM, SETTIM, UDTIM, SCRORG, IOBASE, SETMSG, SWAPPER, DLCHR, INDFET, INDSTA, INDCMP,
//! GETCFG, JSRFAR, JMPFAR;
//! and the interrupt path: $FF17 (IRQ entry, dispatching through $0314/$0316), $FA65 (the
//! editor's frame work: shadow registers such as $0A2C into the VIC, jiffy clock, keyboard
//! scan) and $FF33 (return from interrupt), $FF05 (NMI). Any other jump-table entry is
//! [`RunError::UnsupportedKernal`]. BASIC's "execute a line" ($AFA5) understands
//! `RUN"NAME"`, for boot sectors.
//!
//! Not modelled: sprite collisions, VIC bad-line cycle stealing, the VIC's garbage while in
//! FAST mode (screenshots show the screen as if in 1 MHz mode), the VDC's exact timing (its ready
//! bit drops only during block fills and copies, for an estimated time), the SID's sound, the CIA serial port and TOD alarm, the
//! RS-232 and cassette KERNAL calls.
//!
//! Runs are deterministic: the same program, keys and disk give the same cycles, output and
//! screen. The TOD clocks start at 00:00:00.0 at power-on.

pub mod bench;
pub mod boot;
pub mod bus;
pub mod chips;
pub mod d81drive;
pub mod disk;
pub mod editor;
pub mod error;
pub mod font;
pub mod kernal;
pub mod keys;
pub mod machine;
pub mod mmu;
pub mod petscii;
pub mod prg;
pub mod screenshot;
pub mod text;

use std::path::Path;

pub use error::{CpuState, Error, LoadError, RunError, Where};
pub use machine::{Config, Exit, ExitKind, Machine, SourceMap};
pub use screenshot::Screen;

/// Everything a run needs besides the program.
#[derive(Default)]
pub struct RunOptions {
    /// Machine configuration and cycle budget.
    pub config: Config,
    /// A key script typed while the program runs.
    pub keys: Option<String>,
    /// Device 8 (replaced by the disk when a `.d81` is booted).
    pub drive: Option<Box<dyn disk::Drive>>,
    /// Describes program addresses in error reports.
    pub source_map: Option<SourceMap>,
}

/// A finished run.
#[derive(Debug)]
pub struct RunReport {
    /// How it ended.
    pub exit: Exit,
    /// The machine as the program left it (screens, RAM, SID log, drive).
    pub machine: Machine,
}

impl RunReport {
    /// What the program printed through CHROUT, as UTF-8.
    pub fn output(&self) -> String {
        self.machine.output_text()
    }
}

impl Machine {
    /// Draws a screen.
    pub fn screenshot(&self, screen: Screen) -> image::RgbaImage {
        screenshot::render(self.bus(), screen)
    }

    /// The disk in device 8 as the program left it (its bytes, for drives backed by an
    /// image such as a `.d81`), so that a front end can save what the program wrote.
    pub fn disk_image(&self) -> Option<Vec<u8>> {
        self.kernal.drive.as_ref().and_then(|d| d.image())
    }

    /// A screen as text, one line per row (see [`text::cells`] for colours).
    pub fn screen_text(&self, screen: Screen) -> String {
        text::text(self.bus(), screen)
    }

    /// The screen the program shows (MODE bit 7).
    pub fn active_screen(&self) -> Screen {
        if self.eighty_active() { Screen::Eighty } else { Screen::Forty }
    }

    /// Writes a PNG screenshot of `screen` (or the active one) to `path`.
    pub fn save_screenshot(&self, screen: Option<Screen>, path: &Path) -> Result<(), screenshot::ScreenshotError> {
        let img = self.screenshot(screen.unwrap_or(self.active_screen()));
        screenshot::save_png(&img, path)
    }
}

/// Builds a machine for `options` (keys typed, drive attached, source map installed).
pub fn machine_for(options: RunOptions) -> Result<Machine, Error> {
    let mut m = Machine::new(options.config);
    if let Some(keys) = &options.keys {
        m.type_keys(keys)?;
    }
    m.kernal.drive = options.drive;
    if let Some(map) = options.source_map {
        m.set_source_map(map);
    }
    Ok(m)
}

/// What to run: a `.prg`, or a `.d81` to boot.
#[derive(Debug, Clone, Copy)]
pub enum Program<'a> {
    /// A program file loading at $1C01 with a `SYS` line.
    Prg(&'a [u8]),
    /// A disk image, booted from device 8; `origin` names it in errors.
    D81 {
        /// The image bytes.
        image: &'a [u8],
        /// Its path or name.
        origin: &'a str,
    },
}

impl<'a> Program<'a> {
    /// Chooses by file name: `.d81` (any case) is a disk, anything else a program.
    pub fn from_file(path: &'a str, bytes: &'a [u8]) -> Self {
        if path.to_ascii_lowercase().ends_with(".d81") {
            Program::D81 { image: bytes, origin: path }
        } else {
            Program::Prg(bytes)
        }
    }
}

/// Builds the machine, loads `program` and sets up its start (`RUN` of a `.prg`, or the
/// boot of a `.d81`, which becomes device 8), without running it: call [`Machine::run`]
/// (to the end, within the budget) or [`Machine::run_frame`] (interactive). The machine
/// stays available when the run fails, for screenshots and output (`bac run`).
pub fn start(program: Program<'_>, mut options: RunOptions) -> Result<Machine, Error> {
    if let Program::D81 { image, origin } = program {
        options.drive = Some(Box::new(d81drive::D81Drive::from_bytes(image, origin)?));
    }
    let mut machine = machine_for(options)?;
    match program {
        Program::Prg(bytes) => {
            machine.load_prg(bytes)?;
            let entry = machine.sys_address()?;
            machine.start(entry);
        }
        Program::D81 { .. } => machine.start_boot()?,
    }
    Ok(machine)
}

/// Loads a `.prg`, `RUN`s it and runs it to its end: the single helper every test uses.
///
/// On a run error the output printed so far is part of the error.
pub fn run_until_exit(prg: &[u8], options: RunOptions) -> Result<RunReport, Error> {
    finish(start(Program::Prg(prg), options)?)
}

fn finish(mut machine: Machine) -> Result<RunReport, Error> {
    match machine.run() {
        Ok(exit) => Ok(RunReport { exit, machine }),
        Err(error) => Err(Error::Run { error, output: machine.output_text() }),
    }
}

/// Inserts a `.d81` image (read from `image`; `origin` names it in errors) as device 8,
/// boots it as the C128 does at power-on, and runs the program to its end. The disk as the
/// program left it is `report.machine.kernal.drive` ([`disk::Drive::image`] gives its bytes).
pub fn run_disk_until_exit(image: &[u8], origin: &str, mut options: RunOptions) -> Result<RunReport, Error> {
    let drive = d81drive::D81Drive::from_bytes(image, origin)?;
    options.drive = Some(Box::new(drive));
    let mut machine = machine_for(options)?;
    let exit = machine.boot()?;
    Ok(RunReport { exit, machine })
}
