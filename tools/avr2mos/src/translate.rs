//! The translator's driver: runs the passes in order (see [`translate_with`]) and holds
//! what they produce, [`Translation`], and how they are asked, [`Options`].

use crate::analysis::callgraph::{self, RegSet, Summary};
use crate::analysis::cold::{self, Heat};
use crate::analysis::constants::{self, Constants, Reach};
use crate::analysis::div_products::{self, Products};
use crate::analysis::flags::{self, FlagFacts};
use crate::analysis::fusion::{self, Fusion};
use crate::analysis::zero_reg;
use crate::avr_rewrites::{bool_branch, held_loads, sreg_saves};
use crate::emit::{image, report};
use crate::error::TranslateError;
use crate::frames::frame_plan::{self, FramePlan, Settings};
use crate::input::decode::{Insn, Op};
use crate::input::flow::Flow;
use crate::input::program::AvrProgram;
use crate::lower::Ctx;
use crate::lower::codegen::{self, Code};
use crate::mmap::{BANK1_START, MemoryMode};
use crate::mos_rewrites::dead_stores;
use crate::runtime::{Routine, interp};

/// Sizes of a translation, for reports and benchmarks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Number of AVR instructions translated.
    pub avr_insns: usize,
    /// Bytes of AVR code.
    pub avr_bytes: usize,
    /// Bytes of 6502 code translated from AVR instructions.
    pub code_bytes: usize,
    /// Bytes of runtime routines (start-up, helpers, save area).
    pub runtime_bytes: usize,
    /// Bytes of initialised data.
    pub data_bytes: usize,
    /// Bytes of `.bss`.
    pub bss_bytes: usize,
    /// First address after code, data and `.bss`.
    pub end_addr: u32,
    /// First address the image may not reach in the program's memory mode ($C000, or
    /// $D000 in the all-RAM mode).
    pub limit: u32,
    /// Bytes of interpreted functions (stubs, AVR bytes and trampolines), included in
    /// `code_bytes`.
    pub interpreted_bytes: usize,
    /// Bytes of the interpreter, included in `runtime_bytes` (0 if nothing is interpreted).
    pub interpreter_bytes: usize,
    /// Bytes of interpreted copies in the bank-1 file (0 without [`Options::bank1`]); the
    /// stubs that stay in the image are in `interpreted_bytes`.
    pub bank1_bytes: usize,
}

impl Stats {
    /// Average 6502 bytes per AVR instruction.
    pub fn bytes_per_insn(&self) -> f64 {
        self.code_bytes as f64 / self.avr_insns.max(1) as f64
    }
}

/// The one-line summary both `avr2mos` and `bac prg` print after a build.
impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} AVR instructions ({} bytes) became {} bytes of 6502 code ({:.2} bytes each), plus {} bytes of \
             runtime, {} of data and {} of .bss; the program ends at ${:04X} ({} bytes free below ${:04X})",
            self.avr_insns,
            self.avr_bytes,
            self.code_bytes,
            self.bytes_per_insn(),
            self.runtime_bytes,
            self.data_bytes,
            self.bss_bytes,
            self.end_addr,
            self.limit.saturating_sub(self.end_addr),
            self.limit
        )?;
        if self.interpreter_bytes > 0 {
            write!(
                f,
                "; {} bytes of it are interpreted functions and {} the interpreter",
                self.interpreted_bytes, self.interpreter_bytes
            )?;
        }
        if self.bank1_bytes > 0 {
            write!(
                f,
                "; {} bytes of AVR code in bank 1 (${:04X}-${:04X})",
                self.bank1_bytes,
                BANK1_START,
                usize::from(BANK1_START) + self.bank1_bytes - 1
            )?;
        }
        Ok(())
    }
}

/// The result of a translation.
#[derive(Debug, Clone)]
pub struct Translation {
    /// The `.prg` file: load address $1C01 (little-endian), BASIC stub, code, data.
    pub prg: Vec<u8>,
    /// With [`Options::bank1`]: the bank-1 file, load address [`crate::mmap::BANK1_START`]
    /// and the interpreted copies.
    pub bank1: Option<Vec<u8>>,
    /// Symbol map: one line per function, routine and region, sorted by address.
    pub map: String,
    /// Listing: every AVR instruction with its 6502 address, bytes and base cycles.
    pub listing: String,
    /// Sizes.
    pub stats: Stats,
    /// 6502 address of each AVR instruction that became code, sorted:
    /// `(6502 address, AVR address)` (instructions folded into others are left out).
    pub pc_map: Vec<(u16, u32)>,
    /// 6502 address of every function and runtime routine, by name.
    pub symbols: Vec<(String, u16)>,
    /// The AVR code with every relocated immediate and address rewritten to its C128
    /// value: what [`crate::avrsim`] runs to compare with the translation.
    pub relocated_text: Vec<u8>,
    /// The translated functions with symbolic operands ([`crate::emit::symbolic`]): what the
    /// precise-output tests compare.
    pub symbolic: String,
    /// The registers live before each AVR instruction, by address, sorted
    /// ([`crate::analysis::liveness`], after [`crate::frames::saves`]), less a pointer copy's pair where its
    /// uses read the source instead ([`crate::avr_rewrites::ptr_copies`]), a register whose value passes
    /// in A ([`crate::mos_rewrites::dead_stores`]), and the callee-saved registers a function's saves
    /// hold between its start and their push and between their pop and its `ret`: the
    /// lockstep compares only these.
    pub live_in: Vec<(u32, RegSet)>,
}

/// How hard the translator works.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OptLevel {
    /// Each AVR instruction on its own, flags fused only with an adjacent branch or
    /// compare chain (`--opt-level 0`): the plain translation, for hunting a miscompile.
    Plain,
    /// Everything the translator knows (`--opt-level 1`, the default).
    #[default]
    Full,
}

impl OptLevel {
    /// The level of a command-line number (0 or 1).
    pub fn from_number(n: u8) -> Option<OptLevel> {
        match n {
            0 => Some(OptLevel::Plain),
            1 => Some(OptLevel::Full),
            _ => None,
        }
    }
}

/// Translation settings.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Give every function the 2-byte return address footprint on the AVR stack, not only
    /// those that read SP. Slower; makes SP equal to the AVR's at every instruction, which
    /// the lockstep comparison with [`crate::avrsim`] needs.
    pub adjust_all: bool,
    /// The memory mode (`[package.metadata.c128] memory`): what is mapped while the
    /// program runs and how far its image may reach ([`crate::mmap`]).
    pub memory: MemoryMode,
    /// Functions to interpret rather than translate ([`crate::runtime::interp::selected`]): prefixes
    /// of demangled names (`"bac_game::"`), or `"*"` for all; `!` before an entry keeps what
    /// it matches translated (a crate's placement file, [`crate::pipeline::Placement`]).
    /// Empty: translate everything. An entry that places nothing is an error
    /// ([`TranslateError::StalePlacement`]).
    pub interpret: Vec<String>,
    /// The PETSCII name of the file that carries the interpreted functions to RAM bank 1
    /// (`[package.metadata.c128] bank1`, all-RAM mode only): the image keeps only their
    /// stubs, and the start-up code loads the file ([`crate::mmap`]). `None`: the copies
    /// follow their stubs in the image.
    pub bank1: Option<Vec<u8>>,
    /// A high AVR stack of this many bytes below $D000 (`[package.metadata.c128] stack`,
    /// all-RAM mode only; see [`crate::mmap`]). `None`: the stack at `$1300-$1BFF`.
    pub stack: Option<u16>,
    /// Run with interrupts on and keep the key buffer (`[package.metadata.c128]
    /// key_buffer = true`, all-RAM mode only; see [`crate::mmap`]).
    pub key_buffer: bool,
    /// Load the bank-1 file through a drive routine of our own when the drive is a 1581,
    /// the KERNAL's LOAD otherwise (`[package.metadata.c128] fastload = true`, with a
    /// bank-1 file only; see [`c128_loader::fastload`]).
    pub fastload: bool,
    /// The packed files' format (`[package.metadata.c128] packer`): the bank-1 file, and
    /// what the start-up code and the streaming load decode.
    pub packer: bac_pack::Format,
    /// How much to optimise.
    pub opt_level: OptLevel,
}

impl Translation {
    /// The AVR instruction address whose translation contains the 6502 address `pc`, if
    /// `pc` is in translated code (for error messages of the runner).
    pub fn avr_address_of(&self, pc: u16) -> Option<u32> {
        let i = self.pc_map.partition_point(|&(a, _)| a <= pc);
        (i > 0).then(|| self.pc_map[i - 1].1)
    }

    /// The registers live before the AVR instruction at `addr` (all of them for an
    /// address that is no instruction).
    pub fn live_at(&self, addr: u32) -> RegSet {
        self.live_in.binary_search_by_key(&addr, |&(a, _)| a).map_or(!0, |k| self.live_in[k].1)
    }

    /// The 6502 address of a symbol.
    pub fn symbol(&self, name: &str) -> Option<u16> {
        self.symbols.iter().find(|(n, _)| n == name).map(|&(_, a)| a)
    }
}

/// Translates a linked AVR program into a C128 program.
pub fn translate(prog: &AvrProgram) -> Result<Translation, TranslateError> {
    translate_with(prog, &Options::default())
}

/// Translates with explicit [`Options`]. The stages, in order, each a call that takes what
/// it reads and gives one named result (`docs/translator.md` describes them):
///
/// 1. input: the decoded code and where control goes ([`crate::input::flow`]), which
///    functions the interpreter runs ([`crate::runtime::interp`]), and, at the full level,
///    the frame bytes reloaded into a register that holds them left out ([`held_loads`]),
///    so that every analysis sees the code without them;
/// 2. analyses of the AVR code, each once ([`Analyses`]);
/// 3. frames, saves and copies at the AVR level ([`crate::frames::frame_plan`]), the
///    lowering with the 6502-level passes ([`crate::lower::codegen`]) and the layout
///    ([`crate::emit::image::layout`]), under the size policy ([`fastest_that_fits`]);
/// 4. the image ([`crate::emit::image::place`]) and its description
///    ([`crate::emit::report`]).
pub fn translate_with(prog: &AvrProgram, opts: &Options) -> Result<Translation, TranslateError> {
    let mut flow = Flow::new(prog)?;
    let interpreted = interpreted_functions(prog, &opts.interpret)?;
    if opts.opt_level == OptLevel::Full {
        drop_held_loads(prog, &mut flow, &interpreted);
    }
    let entry = *flow.index.get(&prog.entry).ok_or(TranslateError::NoEntry)?;
    check_settings(opts, interpreted.iter().any(|&b| b))?;
    let analyses = Analyses::of(prog, &flow, &interpreted, opts);
    let stage = Stage { prog, opts, flow: &flow, interpreted: &interpreted, analyses: &analyses, entry };
    let Built { plan, consts, products, code, layout } = fastest_that_fits(&stage)?;
    let image = image::place(prog, &flow, &stage.lowering(&plan, &consts, &products), &code, layout, opts)?;
    let analysed = report::Analysed { summaries: &analyses.summaries, abi_live_in: &analyses.live_abi.live_in };
    Ok(report::translation(prog, &flow, analysed, &plan, &code, image, opts.bank1.is_some()))
}

/// The loads of a frame byte that the register already holds, left out of the translated
/// functions before any analysis reads the code ([`held_loads`]).
fn drop_held_loads(prog: &AvrProgram, flow: &mut Flow, interpreted: &[bool]) {
    let native = |i: &Insn| prog.native_call(i);
    for (range, _) in flow.ranges.iter().zip(interpreted).filter(|&(_, &interp)| !interp) {
        held_loads::rewrite(&mut flow.insns, &flow.succs, &flow.entries, &flow.is_target, &native, range.clone());
    }
}

/// Which functions the interpreter runs, by [`Options::interpret`]; an entry that places
/// no function is an error.
fn interpreted_functions(prog: &AvrProgram, interpret: &[String]) -> Result<Vec<bool>, TranslateError> {
    let names: Vec<&str> = prog.functions.iter().map(|f| f.name.as_str()).collect();
    let stale = interp::unmatched(interpret, &names);
    if !stale.is_empty() {
        return Err(TranslateError::StalePlacement { patterns: stale });
    }
    Ok(prog.functions.iter().map(|f| interp::selected(interpret, &f.name)).collect())
}

/// The analyses of the AVR code that the later stages read, each made once, whatever the
/// plan.
struct Analyses {
    /// The live flags and the SREG saves and restores that change nothing.
    flags: FlagFacts,
    /// Whether each function keeps the 2-byte return-address footprint on the AVR stack
    /// before any gets a static frame: those that read SP, or all with
    /// [`Options::adjust_all`].
    adjusts: Vec<bool>,
    /// Each function's summary in the call graph ([`crate::analysis::callgraph`]).
    summaries: Vec<Summary>,
    /// How often each instruction runs ([`crate::analysis::cold::heat`]).
    heat: Vec<Heat>,
    /// The instructions that run a bounded number of times ([`Heat::Cold`]).
    cold: Vec<bool>,
    /// The functions whose calls can afford a few cycles for bytes ([`cold::amortised`]).
    amortised: Vec<bool>,
    /// Where r1 is known to be zero ([`crate::analysis::zero_reg`]).
    r1_zero: Vec<bool>,
    /// Where the lowering may fuse instructions ([`crate::analysis::fusion`]).
    fusion: Fusion,
    /// The registers live before and after each instruction under the calling convention
    /// ([`dead_stores::abi_liveness`]), for [`crate::mos_rewrites::dead_stores`] and the
    /// lockstep comparison.
    live_abi: crate::analysis::liveness::Liveness,
}

impl Analyses {
    fn of(prog: &AvrProgram, flow: &Flow, interpreted: &[bool], opts: &Options) -> Analyses {
        let inert = sreg_saves::inert_sreg_pairs(&flow.insns, &flow.succs, &flow.is_target, &flow.entries);
        let flags = FlagFacts { live_out: flags::live_out(&flow.insns, &flow.succs, &inert), inert };
        let adjusts: Vec<bool> = flow.reads_sp.iter().map(|&r| r || opts.adjust_all).collect();
        let summaries = callgraph::analyse(prog, &flow.insns, &flow.func_of, interpreted, &adjusts);
        let heat = cold::heat(prog, flow);
        let cold = heat.iter().map(|&h| h == Heat::Cold).collect();
        let amortised = cold::amortised(prog, flow);
        let r1_zero =
            zero_reg::known_zero(&flow.insns, &flow.addrs, &flow.succs, &flow.entries, &flow.func_starts, &flow.ranges);
        let fusion = fusion::analyse(&flow.insns, &flow.addrs, &flow.is_target, &flags.live_out);
        let live_abi = dead_stores::abi_liveness(prog, flow, &summaries);
        Analyses { flags, adjusts, summaries, heat, cold, amortised, r1_zero, fusion, live_abi }
    }
}

/// What every plan of one program is made from.
struct Stage<'a> {
    prog: &'a AvrProgram,
    opts: &'a Options,
    flow: &'a Flow,
    interpreted: &'a [bool],
    analyses: &'a Analyses,
    /// The entry's instruction.
    entry: usize,
}

/// A program planned, lowered and laid out.
struct Built {
    plan: FramePlan,
    /// The known constants of the plan's instructions.
    consts: Constants,
    /// The multiplies that reuse a division's product.
    products: Products,
    code: Code,
    layout: image::Layout,
}

/// Whether the saves that stay go to static slots ([`Settings::save_slots`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SaveSlots {
    /// In static slots where the function can never be active twice: faster, larger.
    Static,
    /// On the AVR stack, as the AVR code has them: smaller.
    Stack,
}

/// The translator's one size-against-speed policy. Saves in static slots make calls faster
/// and the code larger (an `LDA`/`STA` pair per register where a run of pushes is one
/// call). A program gets them when it fits with them, and is planned and lowered again
/// without them when only that fits (the game). The measure is the layout itself, not an
/// estimate made up front: an estimate would have to follow every pass that changes the
/// code's size, and near the limit it would choose wrong both ways. (Under a high stack
/// the plan itself also leaves them out where they would push `.bss` out of the low area
/// it has without them: [`crate::frames::frame_plan`].)
///
/// When even that does not fit, the last resort leaves out the inline code of constants
/// from before a loop ([`constants::Reach::Run`]): a multiply, a division or a `memset`
/// by a constant is inline only where an `ldi` or a move just before it loads the
/// constant (the game: its drawing multiplies inside loops, by constants loaded outside).
fn fastest_that_fits(stage: &Stage) -> Result<Built, TranslateError> {
    let fast = stage.build(SaveSlots::Static, Reach::Flow)?;
    if fast.layout.fits() {
        return Ok(fast);
    }
    let stack = match fast.plan.saves.slots_len {
        0 => fast,
        _ => stage.build(SaveSlots::Stack, Reach::Flow)?,
    };
    if stack.layout.fits() || stage.opts.opt_level != OptLevel::Full {
        return Ok(stack);
    }
    stage.build(SaveSlots::Stack, Reach::Run)
}

impl Stage<'_> {
    /// Plans the frames and saves, lowers the program and lays it out.
    fn build(&self, save_slots: SaveSlots, reach: Reach) -> Result<Built, TranslateError> {
        let (prog, opts, a) = (self.prog, self.opts, self.analyses);
        let mut plan = frame_plan::plan(
            prog,
            self.flow,
            &a.flags,
            &a.fusion,
            &a.summaries,
            self.interpreted,
            &a.cold,
            a.adjusts.clone(),
            self.settings(save_slots),
        );
        let flow = self.flow;
        if opts.opt_level == OptLevel::Full && !opts.adjust_all {
            self.bool_branches(&mut plan);
        }
        let consts = constants::analyse(&plan.insns, &flow.succs, &flow.entries, &flow.is_target, reach, |m| {
            prog.text_relocs.contains_key(&flow.addrs[m])
        });
        let products = div_products::find(
            &plan.insns,
            &flow.is_target,
            &flow.entries,
            |m| match plan.insns[m].op {
                Op::Call => prog.native_at(plan.insns[m].k).and_then(Routine::for_symbol),
                _ => None,
            },
            |m, r| if r == 1 && a.r1_zero[m] { Some(0) } else { consts.before(m, r) },
            |m| prog.text_relocs.contains_key(&flow.addrs[m]),
        );
        let code =
            codegen::generate(&self.lowering(&plan, &consts, &products), opts, self.entry, plan.frames.stack_top)?;
        let layout = image::layout(prog, &code, opts, prog.bss_len + plan.frames_len, plan.frames.stack_bottom)?;
        Ok(Built { plan, consts, products, code, layout })
    }

    /// The conditions made a byte and then tested, in the translated functions of `plan`
    /// ([`bool_branch`]), where no other pass changed them.
    fn bool_branches(&self, plan: &mut FramePlan) {
        let flow = self.flow;
        let n = plan.insns.len();
        let mut preds = vec![0u32; n];
        for (i, succs) in flow.succs.iter().enumerate() {
            for &t in succs {
                preds[t] += 1;
            }
            preds[i] += u32::from(flow.entries[i]);
        }
        let changed = frame_plan::changed_by_plan(&plan.saves, &plan.frames.slots, &plan.frames.set_up, &plan.copies);
        let facts = bool_branch::Facts {
            preds: &preds,
            r1_zero: &self.analyses.r1_zero,
            live_regs: &plan.saves.live.live_out,
            live_flags: &self.analyses.flags.live_out,
            changed: &changed,
        };
        for (range, _) in flow.ranges.iter().zip(self.interpreted).filter(|&(_, &interp)| !interp) {
            bool_branch::rewrite(&mut plan.insns, &flow.addrs, range.clone(), facts);
        }
    }

    /// What the frame plan may do. Static frames need SP-relative code to be only where
    /// the AVR has it; the lockstep setting (every function keeps the footprint, Y compared
    /// with the simulator's) and the plain level keep frames on the stack, and the lockstep
    /// setting every save on the AVR stack, as the simulator has it.
    fn settings(&self, save_slots: SaveSlots) -> Settings {
        let optimise = self.opts.opt_level == OptLevel::Full;
        Settings {
            static_frames: optimise && !self.opts.adjust_all,
            optimise,
            save_slots: save_slots == SaveSlots::Static && !self.opts.adjust_all,
            high_stack: self.opts.stack,
        }
    }

    /// The lowering's view of the program under `plan`.
    fn lowering<'p>(&'p self, plan: &'p FramePlan, consts: &'p Constants, products: &'p Products) -> Ctx<'p> {
        let (prog, opts, flow, a) = (self.prog, self.opts, self.flow, self.analyses);
        Ctx {
            prog,
            flow,
            insns: &plan.insns,
            flags: &a.flags,
            interp: self.interpreted,
            optimise: opts.opt_level == OptLevel::Full,
            frames: &plan.frames,
            saves: &plan.saves,
            keep_stack: opts.adjust_all,
            copies: &plan.copies,
            r1_zero: &a.r1_zero,
            consts,
            products,
            zp_homes: &plan.zp_homes,
            fusion: &a.fusion,
            amortised: &a.amortised,
            heat: &a.heat,
            live_abi: &a.live_abi,
        }
    }
}

/// The settings that only make sense together: a bank-1 file and a high stack need the
/// all-RAM mode, and a bank-1 file interpreted functions and a name the disk can hold.
fn check_settings(opts: &Options, any_interpreted: bool) -> Result<(), TranslateError> {
    if let Some(name) = &opts.bank1 {
        if opts.memory != MemoryMode::AllRam {
            return Err(TranslateError::Settings("bank1 needs memory = \"all-ram\"".into()));
        }
        if !any_interpreted {
            return Err(TranslateError::Settings("bank1 needs interpreted functions (a placement file)".into()));
        }
        if name.is_empty() || name.len() > 16 {
            return Err(TranslateError::Settings(format!(
                "bank1 file name must have 1 to 16 characters, not {}",
                name.len()
            )));
        }
    }
    if let Some(n) = opts.stack
        && (opts.memory != MemoryMode::AllRam || !(256..=0x8000).contains(&n))
    {
        return Err(TranslateError::Settings(format!(
            "stack = {n}: a high stack needs memory = \"all-ram\" and 256 to 32768 bytes"
        )));
    }
    if opts.key_buffer && opts.memory != MemoryMode::AllRam {
        return Err(TranslateError::Settings("key_buffer needs memory = \"all-ram\"".into()));
    }
    if opts.fastload && (opts.bank1.is_none() || opts.memory != MemoryMode::AllRam) {
        return Err(TranslateError::Settings(
            "fastload needs a bank-1 file (bank1 = \"NAME\", memory = \"all-ram\")".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::program::{Function, Reloc, RelocKind, Target};
    use crate::mmap::{KEY_LINES, LOAD_ADDR, LOW_BSS_START};
    use mos_asm::asm::op;
    use std::collections::BTreeMap;

    /// `lds r24, BSS+1; sts DATA_END, r24; ret` with 4 bytes of data and 2 of `.bss`.
    fn bss_program() -> AvrProgram {
        let words: [u16; 5] = [0x9180, 0x0000, 0x9380, 0x0000, 0x9508];
        let mut text_relocs = BTreeMap::new();
        // The first `.bss` byte is at data address 0x204, the address just past the data.
        for (at, target) in [(2, Target::Bss(0x205)), (6, Target::Data(0x204))] {
            text_relocs.insert(at, Reloc { offset: at, kind: RelocKind::LdsSts16, target });
        }
        AvrProgram {
            text: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
            data: vec![1, 2, 3, 4],
            data_base: 0x200,
            bss_len: 2,
            functions: vec![Function { name: "main".into(), addr: 0 }],
            entry: 0,
            text_relocs,
            ..Default::default()
        }
    }

    /// The operand of the first `opcode` (an absolute one) in `main`'s translation.
    fn operand_of(t: &Translation, opcode: u8) -> u16 {
        let main = usize::from(t.symbol("main").unwrap() - LOAD_ADDR) + 2;
        let at = t.prg[main..].iter().position(|&b| b == opcode).expect("the access") + main;
        u16::from_le_bytes([t.prg[at + 1], t.prg[at + 2]])
    }

    #[test]
    fn bss_accesses_follow_bss_where_a_high_stack_moves_it() {
        let opts = Options { memory: MemoryMode::AllRam, stack: Some(4096), ..Options::default() };
        let t = translate_with(&bss_program(), &opts).unwrap();
        assert!(t.map.contains(&format!("{LOW_BSS_START:04x} bss (2 bytes)")), "{}", t.map);
        assert_eq!(operand_of(&t, op::LDA_ABS), LOW_BSS_START + 1, "lds from .bss reads the moved .bss");
        let data = t.map.lines().find(|l| l.contains(" data (")).unwrap();
        let data_addr = u16::from_str_radix(&data[..4], 16).unwrap();
        assert_eq!(operand_of(&t, op::STA_ABS), data_addr + 4, "just past the data stays with the data");
    }

    #[test]
    fn the_fast_loader_needs_a_bank_1_file_and_comes_only_when_asked_for() {
        let opts = Options { fastload: true, memory: MemoryMode::AllRam, ..Options::default() };
        let e = translate_with(&bss_program(), &opts).unwrap_err();
        assert!(e.to_string().contains("fastload needs a bank-1 file"), "{e}");
        let bank1 = Options {
            memory: MemoryMode::AllRam,
            interpret: vec!["main".into()],
            bank1: Some(b"CODE".to_vec()),
            ..Options::default()
        };
        let plain = translate_with(&bss_program(), &bank1).unwrap();
        let fast = translate_with(&bss_program(), &Options { fastload: true, ..bank1 }).unwrap();
        assert!(plain.symbol("rt_fastload").is_none());
        let host = fast.symbol("rt_fastload").expect("the loader's computer side");
        let drive = fast.symbol("rt_fastloaddrive").expect("the drive routine's bytes");
        // It maps bank 1 for each byte it stores: it must run in the RAM both banks share.
        assert!(host < crate::mmap::COMMON_END && drive < crate::mmap::COMMON_END, "${host:04X} ${drive:04X}");
    }

    #[test]
    fn the_key_buffer_needs_the_all_ram_mode_and_brings_its_handler() {
        let opts = Options { key_buffer: true, ..Options::default() };
        let e = translate_with(&bss_program(), &opts).unwrap_err();
        assert!(e.to_string().contains("key_buffer needs memory = \"all-ram\""), "{e}");
        let opts = Options { key_buffer: true, memory: MemoryMode::AllRam, ..Options::default() };
        let t = translate_with(&bss_program(), &opts).unwrap();
        let lines = t.symbol("rt_keylines").expect("the matrix line table");
        let at = usize::from(lines - LOAD_ADDR) + 2;
        let selects = &t.prg[at..at + 2 * usize::from(KEY_LINES)];
        assert_eq!(selects[..8], [0xFE, 0xFD, 0xFB, 0xF7, 0xEF, 0xDF, 0xBF, 0x7F], "port A, lines 0-7");
        assert_eq!(selects[19..], [0xFE, 0xFD, 0xFB], "$D02F, lines 8-10");
        let plain =
            translate_with(&bss_program(), &Options { memory: MemoryMode::AllRam, ..Options::default() }).unwrap();
        assert_eq!(plain.symbol("rt_keylines"), None, "no key buffer unless asked for");
    }

    #[test]
    fn the_save_area_follows_bss_and_is_not_in_the_file_without_a_high_stack_or_bank_1() {
        let t = translate_with(&bss_program(), &Options::default()).unwrap();
        let line = t.map.lines().find(|l| l.contains("rt_save, the start-up's save area")).expect("the save area");
        let at = u16::from_str_radix(&line[..4], 16).unwrap();
        let bss = t.map.lines().find(|l| l.contains(" bss (")).unwrap();
        assert_eq!(at, u16::from_str_radix(&bss[..4], 16).unwrap() + 2, "after the 2 bytes of .bss");
        assert_eq!(t.stats.end_addr, u32::from(at) + 2 + u32::from(crate::mmap::ZP_SAVE_LEN));
        // The start-up keeps the 6502 SP in its second byte: `STX at+1`.
        let [lo, hi] = (at + 1).to_le_bytes();
        assert!(t.prg.windows(3).any(|w| w == [op::STX_ABS, lo, hi]), "the start-up writes there");
        let file_end = u32::from(LOAD_ADDR) + t.prg.len() as u32 - 2;
        assert!(file_end <= u32::from(at), "the file ends before it");
        let high = Options { memory: MemoryMode::AllRam, stack: Some(4096), ..Options::default() };
        let t = translate_with(&bss_program(), &high).unwrap();
        assert!(!t.map.contains("save area"), "under a high stack the save area stays in the code");
        // The unpacker reads the bank-1 file's end from the area with bank 1 mapped: it
        // must stay in the RAM both banks share.
        let bank1 = Options {
            memory: MemoryMode::AllRam,
            interpret: vec!["main".into()],
            bank1: Some(b"CODE".to_vec()),
            ..Options::default()
        };
        let t = translate_with(&bss_program(), &bank1).unwrap();
        assert!(!t.map.contains("save area"), "with a bank-1 file the save area stays in the code");
        let save = t.symbol("rt_save").expect("the save area in the code");
        assert!(save < crate::mmap::COMMON_END, "below the common RAM's end");
    }

    #[test]
    fn bss_follows_the_data_without_a_high_stack() {
        let t = translate_with(&bss_program(), &Options::default()).unwrap();
        let data = t.map.lines().find(|l| l.contains(" data (")).unwrap();
        let data_addr = u16::from_str_radix(&data[..4], 16).unwrap();
        assert_eq!(operand_of(&t, op::LDA_ABS), data_addr + 5);
    }
}
