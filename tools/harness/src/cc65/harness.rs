//! Builds the cc65 port of the rules core (`cc65/*.c`) with Debian's `cl65 -t c128 -Oirs`,
//! runs it in the emulator, reads its mailbox and times its phases: the cc65 column of
//! `bac bench` and the C side of the differential test.
//!
//! Timing: the program writes its phase (idle, shuffle, coup) to $0B00 and the harness
//! steps the 8502 one instruction at a time, adding each instruction's cycles to the phase
//! the mailbox showed before it ran. A store that changes the phase counts to the phase it
//! leaves, so each timed section includes its closing `LDA #0 / STA $0B00` (6 cycles) and
//! not its opening one. Interrupts stay on, as under BASIC: the KERNAL's 50 Hz IRQ (its
//! emulated cost) falls into whichever phase it interrupts. This module is the adapter to the
//! emulator's API ([`Machine::start`], [`Machine::run_until`], [`Machine::bus`]): nothing
//! else here depends on it.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

use c128_emu::{Config, LoadError, Machine, RunError};

use super::trace::{CoupRecord, FIRST_CARDS, Params, Policy, TRACE_MAX, Trace};

/// The C sources, copied to the scratch directory before a build.
pub const SOURCES: [&str; 5] = ["rules.h", "rules.c", "bench.c", "chance.c", "chance_check.c"];
/// The exact command line (after the file names are appended) that builds the program.
pub const CL65_FLAGS: [&str; 3] = ["-t", "c128", "-Oirs"];

/// The mailbox (`bench.c`).
pub const MAILBOX: u16 = c128_map::test::MAILBOX;
const PHASE: u16 = MAILBOX;
const SEED: u16 = MAILBOX + 0x04;
const COUPS: u16 = MAILBOX + 0x08;
const DECKS: u16 = MAILBOX + 0x0A;
const POLICY: u16 = MAILBOX + 0x0B;
const THRESHOLD: u16 = MAILBOX + 0x0C;
const BURN: u16 = MAILBOX + 0x0E;
const BANKROLL: u16 = MAILBOX + 0x10;
const TRACE: u16 = MAILBOX + 0x14;
const RECORDED: u16 = MAILBOX + 0x16;
const NEXT_WORD: u16 = MAILBOX + 0x18;
const REMAINING: u16 = MAILBOX + 0x1C;
const FIRST: u16 = MAILBOX + 0x20;

/// Phases the program reports at [`MAILBOX`].
pub mod phase {
    /// Between timed sections.
    pub const IDLE: usize = 0;
    /// `Shoe::shuffle` of the whole shoe.
    pub const SHUFFLE: usize = 1;
    /// One coup, from its first card to its settlement (after `begin_coup`, so end-of-shoe
    /// reshuffles are not in it).
    pub const COUP: usize = 2;
}

/// `.prg` bytes that are not the program: the load address and the BASIC `SYS` line
/// (cc65's EXEHDR segment, 12 bytes at $1C01).
pub const PRG_OVERHEAD: usize = 2 + 12;

/// Why the cc65 side could not produce a result.
#[derive(Debug)]
pub enum Cc65Error {
    /// `cl65` is not installed (an environment problem, not a bug).
    Cl65Missing(std::io::Error),
    /// `cl65` refused the sources (a bug in the C port or a cc65 version we do not know).
    Build {
        /// The command that failed.
        command: String,
        /// What it printed.
        output: String,
    },
    /// Copying sources or reading results.
    Io(PathBuf, std::io::Error),
    /// The map file lacks a segment we read.
    Map(String),
    /// The emulator could not load the program.
    Load(LoadError),
    /// The program crashed, hung or ran out of cycles.
    Run(RunError),
    /// The program did not end within the cycle budget.
    Budget(u64),
    /// The program ended with a non-zero exit code (a `SHOE_ERROR_` for bad parameters).
    Exit(u8),
}

impl fmt::Display for Cc65Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cc65Error::Cl65Missing(e) => write!(f, "cl65 not found ({e}): apt-get install cc65"),
            Cc65Error::Build { command, output } => write!(f, "{command} failed:\n{output}"),
            Cc65Error::Io(path, e) => write!(f, "{}: {e}", path.display()),
            Cc65Error::Map(why) => write!(f, "map file: {why}"),
            Cc65Error::Load(e) => write!(f, "loading the cc65 program: {e}"),
            Cc65Error::Run(e) => write!(f, "running the cc65 program: {e}"),
            Cc65Error::Budget(limit) => write!(f, "the cc65 program did not finish within {limit} cycles"),
            Cc65Error::Exit(code) => write!(f, "the cc65 program ended with exit code {code}"),
        }
    }
}

impl std::error::Error for Cc65Error {}

/// A built program.
#[derive(Debug, Clone)]
pub struct Build {
    /// The `.prg` file.
    pub prg: Vec<u8>,
    /// ld65's map file.
    pub map: String,
}

/// The directory that holds the C sources.
pub fn source_dir() -> PathBuf {
    crate::build::repo_root().join("emulator-tests/cc65")
}

/// Runs `cl65` in `dir` (created if missing) on `files`, with [`SOURCES`] copied there
/// first so that the objects cl65 leaves beside its sources stay out of the repository.
fn cl65(dir: &Path, files: &[&str], extra: &[&str]) -> Result<(), Cc65Error> {
    cl65_from(&source_dir(), &SOURCES, dir, files, extra)
}

/// Runs `cl65` with [`CL65_FLAGS`] and `extra` in `dir` (created if missing) on `files`,
/// after copying `sources` there from `from`: the one way the C programs are built.
pub(crate) fn cl65_from(
    from: &Path,
    sources: &[&str],
    dir: &Path,
    files: &[&str],
    extra: &[&str],
) -> Result<(), Cc65Error> {
    std::fs::create_dir_all(dir).map_err(|e| Cc65Error::Io(dir.to_path_buf(), e))?;
    for name in sources {
        let (from, to) = (from.join(name), dir.join(name));
        std::fs::copy(&from, &to).map_err(|e| Cc65Error::Io(from, e))?;
    }
    let mut command = Command::new("cl65");
    command.current_dir(dir).args(CL65_FLAGS).args(extra).args(files);
    let output = command.output().map_err(Cc65Error::Cl65Missing)?;
    if !output.status.success() {
        let text = String::from_utf8_lossy(&output.stderr).into_owned() + &String::from_utf8_lossy(&output.stdout);
        return Err(Cc65Error::Build { command: format!("{command:?}"), output: text });
    }
    Ok(())
}

/// Reads a file the build wrote.
pub(crate) fn read(dir: &Path, name: &str) -> Result<Vec<u8>, Cc65Error> {
    let path = dir.join(name);
    std::fs::read(&path).map_err(|e| Cc65Error::Io(path, e))
}

/// Builds the benchmark, `bench.prg` (and `bench.map`), in `dir`.
pub fn build(dir: &Path) -> Result<Build, Cc65Error> {
    cl65(dir, &["bench.c", "rules.c"], &["-m", "bench.map", "-o", "bench.prg"])?;
    let prg = read(dir, "bench.prg")?;
    let map = String::from_utf8_lossy(&read(dir, "bench.map")?).into_owned();
    Ok(Build { prg, map })
}

/// Builds `chance_check.prg` in `dir`: `rng_happens` (chance.c), which the benchmark does
/// not link, on its own.
pub fn build_chance_check(dir: &Path) -> Result<Vec<u8>, Cc65Error> {
    cl65(dir, &["chance_check.c", "chance.c", "rules.c"], &["-o", "chance_check.prg"])?;
    read(dir, "chance_check.prg")
}

/// Sizes in bytes from ld65's map file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sizes {
    /// The `.prg` minus its load address and BASIC stub: everything loaded and run.
    pub program: usize,
    /// CODE + RODATA + DATA of the whole program (cc65's runtime and start-up included;
    /// STARTUP, ONCE and BSS not).
    pub code_rodata_data: usize,
    /// CODE + RODATA + DATA of `rules.o` alone: the rules core without the runtime helpers
    /// it calls (32-bit shifts, multiply and divide, the software stack).
    pub rules_only: usize,
}

/// The size of segment `name` in the `Segment list` of a map file.
fn segment_size(map: &str, name: &str) -> Result<usize, Cc65Error> {
    let list = map.split("Segment list:").nth(1).ok_or_else(|| Cc65Error::Map("no segment list".into()))?;
    for line in list.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let [segment, _start, _end, size, ..] = words.as_slice()
            && *segment == name
        {
            return usize::from_str_radix(size, 16).map_err(|e| Cc65Error::Map(format!("{name} size {size:?}: {e}")));
        }
    }
    Err(Cc65Error::Map(format!("no segment {name}")))
}

/// The size of segment `name` contributed by `module` in the `Modules list` of a map file
/// (0 if the module has none).
fn module_segment_size(map: &str, module: &str, name: &str) -> Result<usize, Cc65Error> {
    let list = map.split("Modules list:").nth(1).ok_or_else(|| Cc65Error::Map("no modules list".into()))?;
    let list = list.split("Segment list:").next().unwrap_or(list);
    let mut in_module = false;
    for line in list.lines() {
        if !line.starts_with(' ') {
            in_module = line.trim_end().trim_end_matches(':') == module;
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if let [segment, _offs, size, ..] = words.as_slice()
            && in_module
            && *segment == name
        {
            let hex = size.trim_start_matches("Size=");
            return usize::from_str_radix(hex, 16).map_err(|e| Cc65Error::Map(format!("{module} {name}: {e}")));
        }
    }
    Ok(0)
}

impl Build {
    /// The program's sizes.
    pub fn sizes(&self) -> Result<Sizes, Cc65Error> {
        let sum = |f: &dyn Fn(&str) -> Result<usize, Cc65Error>| -> Result<usize, Cc65Error> {
            Ok(f("CODE")? + f("RODATA")? + f("DATA")?)
        };
        Ok(Sizes {
            program: self.prg.len().saturating_sub(PRG_OVERHEAD),
            code_rodata_data: sum(&|s| segment_size(&self.map, s))?,
            rules_only: sum(&|s| module_segment_size(&self.map, "rules.o", s))?,
        })
    }
}

/// A finished run: what the program played and where its cycles went.
#[derive(Debug, Clone)]
pub struct Run {
    /// What it played.
    pub trace: Trace,
    /// Cycles spent in each of [`phase`]'s phases.
    pub phase_cycles: [u64; 3],
    /// How many times the program entered [`phase::COUP`].
    pub coups_timed: u64,
    /// Cycles from `SYS` to the exit code.
    pub total_cycles: u64,
}

/// The cycle budget of one run: far more than 10,000 coups take.
pub const MAX_CYCLES: u64 = 2_000_000_000;

/// A program that ended with exit code 0, and the cycles it spent in each phase.
pub(crate) struct Finished {
    /// The machine as the program left it.
    pub(crate) machine: Machine,
    /// Cycles spent in each of [`phase`]'s phases.
    pub(crate) phase_cycles: [u64; 3],
    coups_timed: u64,
    total_cycles: u64,
}

/// Loads `prg`, writes `pokes` (address, bytes) into bank 0, `RUN`s it and steps it one
/// instruction at a time to its exit code, adding up the cycles of each [`phase`];
/// `observe` sees the machine after each instruction, the instruction's address, the phase
/// it ran in and its cycles.
pub(crate) fn run_program(
    prg: &[u8],
    pokes: &[(u16, &[u8])],
    observe: &mut dyn FnMut(&Machine, u16, usize, u64),
) -> Result<Finished, Cc65Error> {
    let mut m = Machine::new(Config::default());
    m.load_prg(prg).map_err(Cc65Error::Load)?;
    for &(at, bytes) in pokes {
        for (i, &b) in bytes.iter().enumerate() {
            m.bus_mut().ram_poke(0, at.wrapping_add(i as u16), b);
        }
    }
    let entry = m.sys_address().map_err(Cc65Error::Load)?;
    m.start(entry);
    let start = m.cpu.cycles;
    let mut phase_cycles = [0u64; 3];
    let mut coups_timed = 0;
    let exit = loop {
        let before = m.cpu.cycles;
        if before - start > MAX_CYCLES {
            return Err(Cc65Error::Budget(MAX_CYCLES));
        }
        let shown = usize::from(m.bus().ram_peek(0, PHASE));
        let pc = m.cpu.registers.program_counter;
        let ended = m.run_until(before + 1).map_err(Cc65Error::Run)?;
        if let Some(slot) = phase_cycles.get_mut(shown) {
            *slot += m.cpu.cycles - before;
        }
        observe(&m, pc, shown, m.cpu.cycles - before);
        if let Some(exit) = ended {
            break exit;
        }
        if shown != phase::COUP && usize::from(m.bus().ram_peek(0, PHASE)) == phase::COUP {
            coups_timed += 1;
        }
    };
    if exit.code != 0 {
        return Err(Cc65Error::Exit(exit.code));
    }
    let total_cycles = m.cpu.cycles - start;
    Ok(Finished { machine: m, phase_cycles, coups_timed, total_cycles })
}

/// Little-endian reads from bank 0.
pub(crate) struct Peek<'a>(pub(crate) &'a Machine);

impl Peek<'_> {
    pub(crate) fn byte(&self, at: u16) -> u8 {
        self.0.bus().ram_peek(0, at)
    }

    fn word(&self, at: u16) -> u16 {
        u16::from_le_bytes([self.byte(at), self.byte(at.wrapping_add(1))])
    }

    pub(crate) fn long(&self, at: u16) -> u32 {
        u32::from(self.word(at)) | (u32::from(self.word(at.wrapping_add(2))) << 16)
    }
}

/// Runs a built benchmark with `params` and reads back its trace and timings.
pub fn run(prg: &[u8], params: &Params) -> Result<Run, Cc65Error> {
    run_observed(prg, params, &mut |_, _, _, _| {})
}

/// [`run`], with `observe` called after each instruction with the machine, the
/// instruction's address, the [`phase`] it ran in and its cycles (for a profile).
pub fn run_observed(
    prg: &[u8],
    params: &Params,
    observe: &mut dyn FnMut(&Machine, u16, usize, u64),
) -> Result<Run, Cc65Error> {
    let (policy, threshold) = match params.policy {
        Policy::ReshuffleAt(k) => (0, k),
        Policy::CutCard(k) => (1, k),
    };
    let finished = run_program(
        prg,
        &[
            (PHASE, &[0]),
            (SEED, &params.seed.to_le_bytes()),
            (COUPS, &params.coups.to_le_bytes()),
            (DECKS, &[params.decks]),
            (POLICY, &[policy]),
            (THRESHOLD, &threshold.to_le_bytes()),
            (BURN, &[u8::from(params.burn)]),
        ],
        observe,
    )?;
    let peek = Peek(&finished.machine);
    let trace_at = peek.word(TRACE);
    let recorded = usize::from(peek.word(RECORDED)).min(TRACE_MAX);
    let coups = (0..recorded)
        .map(|i| {
            let at = trace_at.wrapping_add((i * 8) as u16);
            CoupRecord(std::array::from_fn(|b| peek.byte(at.wrapping_add(b as u16))))
        })
        .collect();
    let trace = Trace {
        first_cards: (0..FIRST_CARDS as u16).map(|i| peek.byte(FIRST + i)).collect(),
        coups,
        bankroll: peek.long(BANKROLL),
        next_word: peek.long(NEXT_WORD),
        remaining: peek.word(REMAINING),
    };
    Ok(Run {
        trace,
        phase_cycles: finished.phase_cycles,
        coups_timed: finished.coups_timed,
        total_cycles: finished.total_cycles,
    })
}

/// Runs a built `chance_check.prg` from `seed`: its answers (0 or 1 per draw, the chances
/// cycling through `chance_check.c`'s list) and the generator's next word after them.
pub fn run_chance_check(prg: &[u8], seed: u32) -> Result<(Vec<u8>, u32), Cc65Error> {
    let finished = run_program(prg, &[(PHASE, &[0]), (SEED, &seed.to_le_bytes())], &mut |_, _, _, _| {})?;
    let peek = Peek(&finished.machine);
    let at = peek.word(TRACE);
    let answers = (0..peek.word(RECORDED)).map(|i| peek.byte(at.wrapping_add(i))).collect();
    Ok((answers, peek.long(NEXT_WORD)))
}

/// The cc65 column of `bac bench`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figures {
    /// Cycles of one coup, first card to settlement, averaged over [`Figures::coups`].
    pub cycles_per_coup: f64,
    /// Cycles of one `Shoe::shuffle` of an eight-deck shoe.
    pub shuffle_cycles: u64,
    /// The program's sizes; `code_bytes` in the JSON is [`Sizes::program`].
    pub sizes: Sizes,
    /// Coups averaged over.
    pub coups: u16,
}

/// Builds the program in `dir` and measures it on the Punto Banco shoe (eight decks, cut
/// card 14) from `seed` over `coups` coups. `bac bench` calls this with 1,000 coups.
pub fn measure(dir: &Path, seed: u32, coups: u16) -> Result<(Figures, Run), Cc65Error> {
    let built = build(dir)?;
    let run = run(&built.prg, &Params::punto_banco(seed, coups))?;
    let timed = run.coups_timed.max(1);
    let figures = Figures {
        cycles_per_coup: run.phase_cycles[phase::COUP] as f64 / timed as f64,
        shuffle_cycles: run.phase_cycles[phase::SHUFFLE],
        sizes: built.sizes()?,
        coups,
    };
    Ok((figures, run))
}

/// What the reference program (`cc65/reference`: the Rust rules crate on the host) prints
/// for `args`, built in `target_dir`. Both benchmark tests hold their C128 runs to it.
pub fn reference(args: &[String], target_dir: &Path) -> Result<String, Cc65Error> {
    let manifest = source_dir().join("reference/Cargo.toml");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let command = format!("cargo run --manifest-path {} -- {}", manifest.display(), args.join(" "));
    let output = Command::new(cargo)
        .args(["run", "--quiet", "--locked", "--offline", "--manifest-path"])
        .arg(&manifest)
        .arg("--target-dir")
        .arg(target_dir)
        .arg("--")
        .args(args)
        .output()
        .map_err(|e| Cc65Error::Io(manifest.clone(), e))?;
    if !output.status.success() {
        return Err(Cc65Error::Build { command, output: String::from_utf8_lossy(&output.stderr).into_owned() });
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}
