//! Typed errors of the translator and the pipeline.
//!
//! Every variant names where the problem is (function, offset, instruction) so a user can
//! find it in the listing or in the AVR disassembly. The docs of each variant say whether it
//! is a limit of this implementation or a problem with the input.

use std::path::PathBuf;

/// Where in the AVR code something happened: the function, the byte offset from its start,
/// and the absolute `.text` address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// Name of the enclosing function (ELF symbol), or `<text>` if none covers the address.
    pub function: String,
    /// Byte offset of the instruction from the start of that function.
    pub offset: u32,
    /// Absolute byte address in the AVR `.text` section.
    pub address: u32,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}+{:#x} (text {:#06x})", self.function, self.offset, self.address)
    }
}

/// Errors from reading the ELF file and translating it.
#[derive(Debug, thiserror::Error)]
pub enum TranslateError {
    /// The input is not a usable `elf32-avr` executable (input problem).
    #[error("not a usable AVR ELF file: {0}")]
    BadElf(String),
    /// The bytes at this address are not an avr5 instruction this translator knows
    /// (input problem, or an instruction LLVM emits that is not yet supported).
    #[error("unknown AVR instruction {bytes} at {at}")]
    UnknownInstruction {
        /// Where the bytes are.
        at: Location,
        /// The instruction bytes, hex, in file order.
        bytes: String,
    },
    /// A known instruction that has no meaning on the C128 or is not supported
    /// (implementation limit: `lpm`, `sleep`, I/O ports other than SP and SREG, ...).
    #[error("unsupported AVR instruction `{insn}` at {at}: {why}")]
    Unsupported {
        /// Where the instruction is.
        at: Location,
        /// Its disassembly.
        insn: String,
        /// Why it cannot be translated.
        why: String,
    },
    /// A relocation whose type or target the translator cannot place (input problem or
    /// implementation limit).
    #[error("cannot place relocation {kind} at {at}: {why}")]
    Relocation {
        /// Where the relocated field is (for data, the function is the data section).
        at: Location,
        /// The relocation type, e.g. `R_AVR_16`.
        kind: String,
        /// What is wrong with it.
        why: String,
    },
    /// A branch or call whose target is not the start of an instruction (input problem).
    #[error("branch target {target:#06x} of `{insn}` at {at} is not an instruction start")]
    BadTarget {
        /// Where the branch is.
        at: Location,
        /// Its disassembly.
        insn: String,
        /// The AVR byte address it jumps to.
        target: u32,
    },
    /// Code, data and `.bss` do not fit in C128 bank 0 below $C000 (or $D000 in the
    /// all-RAM memory mode): the program is too large.
    #[error("image does not fit: {what} ends at {end:#06x}, {over} bytes over the limit {limit:#06x}", over = .end.saturating_sub(*.limit))]
    TooLarge {
        /// Which part overflowed.
        what: String,
        /// Where it ends.
        end: u32,
        /// The highest address allowed.
        limit: u32,
    },
    /// Translation settings that contradict each other (input problem: the crate's
    /// `[package.metadata.c128]`).
    #[error("settings: {0}")]
    Settings(String),
    /// Entries of the `interpret` setting ([`crate::Options::interpret`]) that place no
    /// function of the program (input problem: a function was renamed, inlined or
    /// removed; see [`crate::runtime::interp::unmatched`]).
    #[error("the interpret setting's {} place no function: {}", if patterns.len() == 1 { "entry" } else { "entries" }, quoted(patterns))]
    StalePlacement {
        /// The stale entries, in the setting's order (`!` marks an exception).
        patterns: Vec<String>,
    },
    /// The program has no entry point (`_start` or `main`).
    #[error("no entry point: the ELF file defines neither `_start` nor `main`")]
    NoEntry,
}

/// Errors from building a crate into a `.prg` (see [`crate::pipeline`]). Messages name
/// the file; the cause follows in the error's source chain (`{:#}` with anyhow).
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// The crate's `[package.metadata.c128]` table says something the pipeline does not
    /// understand.
    #[error("{manifest}: [package.metadata.c128] {why}")]
    Metadata {
        /// The manifest read.
        manifest: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The crate's placement file ([`crate::pipeline::Placement`]) is not two lists of
    /// names (input problem).
    #[error("{file}: {why}")]
    PlacementFile {
        /// The placement file.
        file: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// Entries of the crate's placement file that place no function of the program
    /// (input problem: a function was renamed, inlined or removed, and the entry would
    /// silently stop placing it; see [`crate::runtime::interp::unmatched`]).
    #[error(
        "{file} (the placement of {manifest}): {} no function of the program: {}; a function was renamed, \
         inlined or removed, so change or delete the entry",
        if entries.len() == 1 { "this entry places" } else { "these entries place" },
        entries.iter().map(|(list, p)| format!("{list} {p:?}")).collect::<Vec<_>>().join(", ")
    )]
    StalePlacement {
        /// The manifest built.
        manifest: PathBuf,
        /// Its placement file.
        file: PathBuf,
        /// The stale entries, in the file's order within each list: the list's name
        /// (`interpret` or `translate`) and the entry.
        entries: Vec<(&'static str, String)>,
    },
    /// Cargo could not be started.
    #[error("could not run cargo: {0}")]
    CargoSpawn(#[source] std::io::Error),
    /// Cargo ran and failed; its diagnostics were printed to stderr.
    #[error("cargo build for avr-none failed ({status}) for {manifest}")]
    CargoFailed {
        /// The manifest that was built.
        manifest: PathBuf,
        /// Cargo's exit status.
        status: String,
    },
    /// Cargo finished but produced no executable for the requested bin.
    #[error("cargo produced no executable for {manifest} (bin {bin:?})")]
    NoExecutable {
        /// The manifest that was built.
        manifest: PathBuf,
        /// The bin that was asked for, if any.
        bin: Option<String>,
    },
    /// Reading an input or writing an output failed.
    #[error("{path}")]
    Io {
        /// The file concerned.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The translation failed.
    #[error("translating {elf}")]
    Translate {
        /// The ELF file being translated.
        elf: PathBuf,
        /// The translator's error.
        #[source]
        source: TranslateError,
    },
}

/// A link error keeps the meaning the translator gave it before the assembler was a crate
/// of its own: a program past the address space is [`TranslateError::TooLarge`] (which
/// `translate_with` answers by translating again without static saves); a label or symbol
/// left unplaced is reported as the input it came from.
impl From<mos_asm::LinkError> for TranslateError {
    fn from(e: mos_asm::LinkError) -> Self {
        match e {
            mos_asm::LinkError::TooLarge { what, end, limit } => TranslateError::TooLarge { what, end, limit },
            mos_asm::LinkError::UnplacedLabel(l) => TranslateError::BadElf(format!("label {l:?} is never placed")),
            mos_asm::LinkError::Unresolved(s) => TranslateError::BadElf(format!("unresolved {s:?}")),
        }
    }
}

/// The loader's errors keep the meaning they had when its code was part of the translator.
impl From<c128_loader::LoaderError> for TranslateError {
    fn from(e: c128_loader::LoaderError) -> Self {
        match e {
            c128_loader::LoaderError::Settings(s) => TranslateError::Settings(s),
            c128_loader::LoaderError::TooLarge { what, end, limit } => TranslateError::TooLarge { what, end, limit },
            c128_loader::LoaderError::Link(e) => e.into(),
        }
    }
}

/// `"a", "b"`: names quoted as TOML writes them, for messages.
pub(crate) fn quoted(names: &[String]) -> String {
    names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ")
}
