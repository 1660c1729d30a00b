//! One differential run: a program assembled, translated at an optimisation level, run on
//! the `mos6502` CPU of the tests and on the reference AVR simulator (`avr2mos::avrsim`)
//! from the same registers and memory, and the compared memory checked byte for byte.

use avr2mos::avrsim::{Avr, Stop};
use avr2mos::input::program::{AvrProgram, Function};
use avr2mos::{OptLevel, Options};

/// How the program is translated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Config {
    /// The default, everything the translator knows.
    Full,
    /// `--opt-level 0`.
    Plain,
    /// Every function run by the interpreter of AVR code (`interpret = ["*"]`).
    Interpreted,
}

impl Config {
    /// Every configuration, in the order the fuzzer tries them.
    pub const ALL: [Config; 3] = [Config::Full, Config::Plain, Config::Interpreted];

    fn options(self) -> Options {
        match self {
            Config::Full => Options::default(),
            Config::Plain => Options { opt_level: OptLevel::Plain, ..Default::default() },
            Config::Interpreted => Options { interpret: vec!["*".into()], ..Default::default() },
        }
    }

    /// How a report names it.
    pub fn name(self) -> &'static str {
        match self {
            Config::Full => "--opt-level 1",
            Config::Plain => "--opt-level 0",
            Config::Interpreted => "interpreted",
        }
    }
}

use crate::common;
use crate::program::{self, COMPARED, Program};

/// Cycles the 6502 may take, and AVR instructions the simulator may run: far more than
/// any generated program needs (loops are at most 8 turns, nested twice).
const BUDGET: u64 = 5_000_000;

/// How a run went wrong, with what a reader needs to see why.
pub struct Failure {
    /// What differed (or what stopped a side).
    pub what: String,
    /// The AVR listing.
    pub avr: String,
    /// The translator's listing (empty when it refused the program).
    pub mos: String,
}

/// The AVR program the translator reads: `main` and the functions.
pub fn avr_program(p: &Program) -> Result<(AvrProgram, program::Image, Vec<program::Summary>), String> {
    let sums = program::check(p)?;
    let image = program::assemble(p, &sums);
    let mut functions = vec![Function { name: "main".into(), addr: 0 }];
    functions.extend((0..p.funcs.len()).map(|f| Function { name: format!("f{f}"), addr: image.starts[f + 1] }));
    let prog = AvrProgram {
        text: image.words.iter().flat_map(|w| w.to_le_bytes()).collect(),
        data_base: 0x200,
        functions,
        entry: 0,
        // As the pipeline's linker script defines them.
        absolute: avr2mos::runtime::NATIVE.iter().map(|&(n, a, _)| (a, n.to_string())).collect(),
        ..Default::default()
    };
    Ok((prog, image, sums))
}

/// Runs `p` both ways in `config`; `Err` describes the first difference.
pub fn run(p: &Program, config: Config) -> Result<(), Failure> {
    let (prog, image, sums) = avr_program(p).map_err(|e| Failure {
        what: format!("invalid program: {e}"),
        avr: String::new(),
        mos: String::new(),
    })?;
    let fail = |what: String, mos: &str| Failure { what, avr: image.listing.clone(), mos: mos.to_string() };
    let t = avr2mos::translate_with(&prog, &config.options())
        .map_err(|e| fail(format!("the translator refused it: {e}"), ""))?;
    if t.stats.end_addr as usize + 0x100 > COMPARED.start {
        return Err(fail(format!("the image reaches ${:04X}, into the compared memory", t.stats.end_addr), &t.listing));
    }
    // The compared memory past the image: patched into the file, as it loads.
    let load = 0x1C01usize;
    let mut prg = t.prg.clone();
    prg.resize(COMPARED.start - load + 2, 0);
    prg.extend_from_slice(&p.mem);
    let run = common::run(&prg, BUDGET).map_err(|e| fail(format!("6502: {e}"), &t.listing))?;
    if !run.returned {
        return Err(fail("the 6502 did not return within its budget".into(), &t.listing));
    }
    let mut avr = Avr::new(t.relocated_text.clone(), 0, avr2mos::mmap::STACK_TOP - 2);
    avr.mem[COMPARED].copy_from_slice(&p.mem);
    match avr.run(BUDGET) {
        Some(Stop::Exit(_)) => {}
        other => return Err(fail(format!("the AVR simulator stopped with {other:?}"), &t.listing)),
    }
    let diffs: Vec<String> = program::compared(&sums)
        .into_iter()
        .filter(|&(a, mask)| (run.mem[a] ^ avr.mem[a]) & mask != 0)
        .map(|(a, mask)| format!("${a:04X}{}: 6502 {:02x} avr {:02x}", describe(a, mask), run.mem[a], avr.mem[a]))
        .collect();
    if diffs.is_empty() {
        return Ok(());
    }
    Err(fail(
        format!("{} bytes differ: {}", diffs.len(), diffs.iter().take(12).cloned().collect::<Vec<_>>().join(", ")),
        &t.listing,
    ))
}

/// What a compared byte is: a function's register or flags, or window memory.
fn describe(a: usize, mask: u8) -> String {
    let dumps = usize::from(program::DUMPS);
    if a < dumps {
        return String::new();
    }
    let (f, k) = ((a - dumps) / 34, (a - dumps) % 34);
    if k == 32 { format!(" (f{f} SREG, flags {mask:#04x})") } else { format!(" (f{f} r{k})") }
}
