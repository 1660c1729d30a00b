//! The errors of loading and running a program. A run error always carries where the CPU was
//! ([`Where`]): PC, opcode, registers, the MMU configuration, the cycle count, and what the
//! caller knows about that address (the translator names the AVR instruction).

use std::fmt;

use thiserror::Error;

use crate::keys::KeysError;

/// The CPU's state when a run went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpuState {
    /// Program counter.
    pub pc: u16,
    /// The byte at PC as the CPU would fetch it.
    pub opcode: u8,
    /// Accumulator.
    pub a: u8,
    /// X register.
    pub x: u8,
    /// Y register.
    pub y: u8,
    /// Stack pointer.
    pub sp: u8,
    /// Status register.
    pub p: u8,
    /// The MMU configuration ($FF00).
    pub mmu: u8,
    /// Cycles executed so far.
    pub cycles: u64,
}

impl fmt::Display for CpuState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let flags: String = "NV-BDIZC"
            .chars()
            .enumerate()
            .map(|(i, c)| if self.p & (0x80 >> i) != 0 { c } else { c.to_ascii_lowercase() })
            .collect();
        write!(
            f,
            "PC=${:04X} opcode=${:02X} ({}) A=${:02X} X=${:02X} Y=${:02X} SP=${:02X} P={} \
             $FF00=${:02X} after {} cycles",
            self.pc,
            self.opcode,
            mnemonic(self.opcode),
            self.a,
            self.x,
            self.y,
            self.sp,
            flags,
            self.mmu,
            self.cycles
        )
    }
}

/// The NMOS mnemonic of an opcode (`JAM` for the halting ones), for error reports.
pub fn mnemonic(opcode: u8) -> String {
    use mos6502::Variant as _;
    match mos6502::instruction::Nmos6502::decode(opcode) {
        Some((instruction, _)) => format!("{instruction:?}"),
        None => "???".to_string(),
    }
}

/// Where a run stopped: the CPU state, the addresses of the instructions run just before,
/// and, when the caller can tell, what that address is in the source program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Where {
    /// Registers and PC.
    pub cpu: CpuState,
    /// The caller's description of PC (for translated code, the AVR instruction).
    pub source: Option<String>,
    /// PCs of the last instructions executed before this one, oldest first.
    pub trail: Vec<u16>,
}

impl fmt::Display for Where {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.cpu)?;
        if let Some(s) = &self.source {
            write!(f, " [{s}]")?;
        }
        if !self.trail.is_empty() {
            write!(f, "; before:")?;
            for pc in &self.trail {
                write!(f, " ${pc:04X}")?;
            }
        }
        Ok(())
    }
}

/// A `.prg` that cannot be loaded.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum LoadError {
    /// Fewer than three bytes: no load address and no content.
    #[error("the .prg is {len} bytes long: too short to hold a load address and a program")]
    Truncated {
        /// Its length.
        len: usize,
    },
    /// A load address other than BASIC 7.0's start of program text.
    #[error("the .prg loads at ${found:04X}; a C128 BASIC program must load at ${expected:04X}")]
    WrongLoadAddress {
        /// The address in the file.
        found: u16,
        /// The address required.
        expected: u16,
    },
    /// The program runs past the end of BASIC's program area.
    #[error("the .prg does not fit: {len} bytes from ${load:04X} end at ${end:05X}, past ${limit:04X}")]
    TooLong {
        /// Load address.
        load: u16,
        /// Bytes after the load address.
        len: usize,
        /// First address past the program.
        end: u32,
        /// First address it may not reach.
        limit: u16,
    },
    /// The first BASIC line is not a `SYS` with a number.
    #[error("cannot RUN: the BASIC line at ${line:04X} is not `SYS <address>` ({reason})")]
    NoSys {
        /// Address of the line.
        line: u16,
        /// What was wrong.
        reason: &'static str,
    },
}

/// Why a run ended without a clean exit. The [`Where`] is boxed to keep results small.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RunError {
    /// The CPU executed BRK (opcode $00), which bac128 programs never do on purpose.
    #[error("BRK executed at {0}")]
    Brk(Box<Where>),
    /// One of the NMOS opcodes that halt the CPU.
    #[error("the CPU jammed at {0}")]
    Jam(Box<Where>),
    /// An undocumented opcode, which no bac128 toolchain emits (see
    /// [`crate::Config::allow_undocumented`]).
    #[error("undocumented opcode at {0}")]
    Undocumented(Box<Where>),
    /// A jump to itself repeated far past any plausible wait loop.
    #[error("the PC stopped moving ({count} jumps to itself) at {at}")]
    Stuck {
        /// How many times the instruction ran.
        count: u32,
        /// Where.
        at: Box<Where>,
    },
    /// Execution reached an address that holds no code: ROM without a trapped entry, the I/O
    /// block or the MMU registers.
    #[error("execution left the program into {region} at {at}")]
    OutsideProgram {
        /// What is at PC.
        region: String,
        /// Where.
        at: Box<Where>,
    },
    /// A KERNAL entry point this emulator does not implement.
    #[error("KERNAL call {name} (${addr:04X}) is not emulated; called at {at}")]
    UnsupportedKernal {
        /// The entry's name.
        name: &'static str,
        /// The entry's address.
        addr: u16,
        /// Where (PC is the entry, the caller is on the stack).
        at: Box<Where>,
    },
    /// BASIC was asked for something the trapped interpreter cannot do, or failed as BASIC
    /// would (`?FILE NOT FOUND ERROR`).
    #[error("BASIC: {message}; at {at}")]
    Basic {
        /// What BASIC would say.
        message: String,
        /// Where.
        at: Box<Where>,
    },
    /// The run used up its cycle budget.
    #[error("the budget of {limit} cycles ran out at {at}")]
    CycleBudget {
        /// The budget.
        limit: u64,
        /// Where.
        at: Box<Where>,
    },
}

impl RunError {
    /// Where the run stopped.
    pub fn location(&self) -> &Where {
        match self {
            RunError::Brk(w) | RunError::Jam(w) | RunError::Undocumented(w) => w,
            RunError::Stuck { at, .. }
            | RunError::OutsideProgram { at, .. }
            | RunError::UnsupportedKernal { at, .. }
            | RunError::Basic { at, .. }
            | RunError::CycleBudget { at, .. } => at,
        }
    }
}

/// Anything [`crate::run_until_exit`] can fail with.
#[derive(Debug, Error)]
pub enum Error {
    /// The program could not be loaded.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The run went wrong; `output` is what the program printed before.
    #[error("{error}\noutput so far: {output:?}")]
    Run {
        /// What went wrong.
        error: RunError,
        /// The program's CHROUT output up to then.
        output: String,
    },
    /// The key script is malformed.
    #[error(transparent)]
    Keys(#[from] KeysError),
    /// The disk image could not be used.
    #[error(transparent)]
    Disk(#[from] crate::disk::DiskError),
}
