//! The benchmark suite (`emulator-tests/kernels`, see its README): each kernel built as a
//! C128 program twice, from its Rust module (`bac-kernels`, through the translator's
//! pipeline) and from its C file (by cc65, as the benchmark peer is), run in the emulator
//! on one seed, timed, and checked against the same Rust module on the host.
//!
//! Both programs keep the cc65 benchmark's mailbox and go through its run loop
//! ([`crate::cc65::harness`]): the harness writes the seed at $0B04, the program shows
//! phase 1 at $0B00 while its kernel runs (the cycles counted) and leaves the result at
//! $0B10. A kernel's bytes are its program's less those of `empty`, the same program
//! without a kernel, so that neither side's start-up, runtime set-up and exit count; the
//! library and runtime routines a kernel pulls in do.

use std::fmt;
use std::path::{Path, PathBuf};

use avr2mos::OptLevel;
use avr2mos::error::PipelineError;

use crate::cc65::harness::{self as cc65, Cc65Error, MAILBOX, PRG_OVERHEAD, Peek};

/// The Rust programs' crate: a bin a kernel, and `empty`.
pub const RUST_CRATE: &str = "emulator-tests/kernels/prg";
/// The program without a kernel, on both sides (`empty.rs`, `empty.c`).
pub const EMPTY: &str = "empty";
/// The seed `bac bench` measures with.
pub const SEED: u16 = 2026;
/// The phase the programs show while their kernel runs.
const TIMED: usize = 1;
/// Where the harness writes the seed (u16).
const SEED_AT: u16 = MAILBOX + 0x04;
/// Where the program leaves the kernel's result (u32).
const RESULT_AT: u16 = MAILBOX + 0x10;

/// The C sources: one file a kernel, `main.c`, `empty.c` and the headers.
pub fn c_dir() -> PathBuf {
    crate::build::repo_root().join("emulator-tests/kernels/c")
}

/// The kernels' names, in the suite's order.
pub fn names() -> impl Iterator<Item = &'static str> {
    bac_kernels::KERNELS.iter().map(|&(name, _)| name)
}

/// What kernel `name` gives for `seed` on the host: the answer both C128 programs must give.
pub fn host(name: &str, seed: u16) -> Option<u32> {
    bac_kernels::KERNELS.iter().find(|&&(n, _)| n == name).map(|&(_, kernel)| kernel(seed))
}

/// Why the suite could not be measured.
#[derive(Debug)]
pub enum KernelError {
    /// Building or running a C program (see [`Cc65Error`]).
    Cc65(Cc65Error),
    /// Building a Rust program through the pipeline.
    Rust(PipelineError),
    /// Reading a built program.
    Io(PathBuf, std::io::Error),
    /// A program's result is not the host's: a miscompile in the translator or in cc65,
    /// or a C port that differs from the Rust.
    Wrong {
        /// The kernel.
        kernel: String,
        /// `"rust"` or `"cc65"`.
        side: &'static str,
        /// What the C128 program left.
        c128: u32,
        /// What the host computed.
        host: u32,
    },
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KernelError::Cc65(e) => write!(f, "{e}"),
            KernelError::Rust(e) => write!(f, "{e}"),
            KernelError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            KernelError::Wrong { kernel, side, c128, host } => {
                write!(f, "kernel {kernel}: the {side} program gave {c128:#010x} on the C128, the host {host:#010x}")
            }
        }
    }
}

impl std::error::Error for KernelError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            KernelError::Cc65(e) => Some(e),
            KernelError::Rust(e) => Some(e),
            KernelError::Io(_, e) => Some(e),
            KernelError::Wrong { .. } => None,
        }
    }
}

impl From<Cc65Error> for KernelError {
    fn from(e: Cc65Error) -> Self {
        KernelError::Cc65(e)
    }
}

impl From<PipelineError> for KernelError {
    fn from(e: PipelineError) -> Self {
        KernelError::Rust(e)
    }
}

/// Builds kernel `name` (or [`EMPTY`]) with cc65 into `dir/NAME.prg` and returns the
/// program.
pub fn build_c(name: &str, dir: &Path) -> Result<Vec<u8>, KernelError> {
    let from = c_dir();
    let listing = std::fs::read_dir(&from).map_err(|e| KernelError::Io(from.clone(), e))?;
    let mut sources = Vec::new();
    for entry in listing {
        let entry = entry.map_err(|e| KernelError::Io(from.clone(), e))?;
        let file = entry.file_name().to_string_lossy().into_owned();
        if file.ends_with(".c") || file.ends_with(".h") {
            sources.push(file);
        }
    }
    let sources: Vec<&str> = sources.iter().map(String::as_str).collect();
    let (file, prg) = (format!("{name}.c"), format!("{name}.prg"));
    cc65::cl65_from(&from, &sources, dir, &["main.c", &file], &["-o", &prg])?;
    Ok(cc65::read(dir, &prg)?)
}

/// Builds kernel `name` (or [`EMPTY`]) through the translator into
/// `target/kernel-NAME.prg`, beside its map and listing, and returns the program.
pub fn build_rust(name: &str, target: &Path) -> Result<Vec<u8>, KernelError> {
    build_rust_at(name, target, OptLevel::Full)
}

/// [`build_rust`] translated at `opt_level`: `--opt-level 0` goes to
/// `target/kernel-NAME-o0.prg`, so that both stay side by side for comparing listings.
pub fn build_rust_at(name: &str, target: &Path, opt_level: OptLevel) -> Result<Vec<u8>, KernelError> {
    let out = match opt_level {
        OptLevel::Full => format!("kernel-{name}"),
        OptLevel::Plain => format!("kernel-{name}-o0"),
    };
    let report = crate::build::bin_at(RUST_CRATE, Some(name), &out, target, opt_level)?;
    std::fs::read(&report.prg).map_err(|e| KernelError::Io(report.prg.clone(), e))
}

/// A kernel's run on the C128.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// What it returned.
    pub result: u32,
    /// The cycles of the kernel alone: from the store that opens the timed phase (not
    /// counted) to the one that closes it (counted), interrupts included as they fall.
    pub cycles: u64,
}

/// Runs a built kernel program (either side's) on `seed`.
pub fn run(prg: &[u8], seed: u16) -> Result<Run, Cc65Error> {
    run_observed(prg, seed, &mut |_, _, _, _| {})
}

/// [`run`], with `observe` called after each instruction with the machine, the
/// instruction's address, the phase it ran in and its cycles (for a profile).
pub fn run_observed(
    prg: &[u8],
    seed: u16,
    observe: &mut dyn FnMut(&c128_emu::Machine, u16, usize, u64),
) -> Result<Run, Cc65Error> {
    let pokes: [(u16, &[u8]); 2] = [(MAILBOX, &[0]), (SEED_AT, &seed.to_le_bytes())];
    let finished = cc65::run_program(prg, &pokes, observe)?;
    Ok(Run { result: Peek(&finished.machine).long(RESULT_AT), cycles: finished.phase_cycles[TIMED] })
}

/// Program bytes: the `.prg` without its load address and BASIC stub (the same 14 bytes
/// on both sides).
pub fn program_bytes(prg: &[u8]) -> usize {
    prg.len().saturating_sub(PRG_OVERHEAD)
}

/// One kernel's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Figures {
    /// The kernel.
    pub name: &'static str,
    /// Its result, the same on the host and on both sides.
    pub result: u32,
    /// Cycles of the translated Rust.
    pub rust_cycles: u64,
    /// Cycles of the same Rust translated at `--opt-level 0`: the optimised translation
    /// should never be slower (issue 30).
    pub rust_o0_cycles: u64,
    /// Cycles of the C built by cc65.
    pub cc65_cycles: u64,
    /// Bytes of the translated Rust: its program's less `empty`'s.
    pub rust_bytes: usize,
    /// Bytes of the C: its program's less `empty`'s.
    pub cc65_bytes: usize,
}

impl Figures {
    /// Rust's cycles over cc65's.
    pub fn cycles_ratio(&self) -> f64 {
        self.rust_cycles as f64 / self.cc65_cycles as f64
    }

    /// Rust's bytes over cc65's.
    pub fn bytes_ratio(&self) -> f64 {
        self.rust_bytes as f64 / self.cc65_bytes as f64
    }

    /// Whether the optimised translation took more cycles than `--opt-level 0`'s.
    pub fn slower_than_o0(&self) -> bool {
        self.rust_cycles > self.rust_o0_cycles
    }
}

/// The whole suite's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Suite {
    /// Each kernel, in the suite's order.
    pub kernels: Vec<Figures>,
    /// Program bytes of the Rust `empty`.
    pub rust_empty_bytes: usize,
    /// Program bytes of the C `empty`.
    pub cc65_empty_bytes: usize,
    /// The seed measured with.
    pub seed: u16,
}

/// The geometric mean of `values` (1 for none).
pub fn geometric_mean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (sum, n) = values.into_iter().fold((0.0, 0u32), |(sum, n), v| (sum + v.ln(), n + 1));
    if n == 0 { 1.0 } else { (sum / f64::from(n)).exp() }
}

impl Suite {
    /// The geometric mean of the kernels' cycle ratios, Rust over cc65.
    pub fn cycles_ratio(&self) -> f64 {
        geometric_mean(self.kernels.iter().map(Figures::cycles_ratio))
    }

    /// The geometric mean of the kernels' byte ratios, Rust over cc65.
    pub fn bytes_ratio(&self) -> f64 {
        geometric_mean(self.kernels.iter().map(Figures::bytes_ratio))
    }
}

/// Builds every kernel on both sides (the C in `c_scratch`, the Rust in `rust_target`,
/// translated with and without optimisation), runs each on `seed`, checks each result against the host's and returns the figures.
pub fn measure(c_scratch: &Path, rust_target: &Path, seed: u16) -> Result<Suite, KernelError> {
    let rust_empty = program_bytes(&build_rust(EMPTY, rust_target)?);
    let cc65_empty = program_bytes(&build_c(EMPTY, c_scratch)?);
    let mut kernels = Vec::new();
    for &(name, kernel) in bac_kernels::KERNELS.iter() {
        let expected = kernel(seed);
        let rust = build_rust(name, rust_target)?;
        let rust_o0 = build_rust_at(name, rust_target, OptLevel::Plain)?;
        let c = build_c(name, c_scratch)?;
        let mut cycles = [0; 3];
        for (i, (side, prg)) in
            [("rust", &rust), ("cc65", &c), ("rust --opt-level 0", &rust_o0)].into_iter().enumerate()
        {
            let run = run(prg, seed)?;
            if run.result != expected {
                return Err(KernelError::Wrong { kernel: name.to_string(), side, c128: run.result, host: expected });
            }
            cycles[i] = run.cycles;
        }
        kernels.push(Figures {
            name,
            result: expected,
            rust_cycles: cycles[0],
            cc65_cycles: cycles[1],
            rust_o0_cycles: cycles[2],
            rust_bytes: program_bytes(&rust).saturating_sub(rust_empty),
            cc65_bytes: program_bytes(&c).saturating_sub(cc65_empty),
        });
    }
    Ok(Suite { kernels, rust_empty_bytes: rust_empty, cc65_empty_bytes: cc65_empty, seed })
}
