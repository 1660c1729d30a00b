//! The translator's driver: decode, analyse flags, lower, lay out, and produce the `.prg`
//! image with its symbol map and listing.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::asm::{Item, Part, Sym};
use crate::callgraph::RegSet;
use crate::decode::{self, DecodeError, Insn, Op};
use crate::error::TranslateError;
use crate::flags;
use crate::frames::FrameBase;
use crate::interp;
use crate::link::{self, Chunk, DataPlacement, Owner};
use crate::lower::{Ctx, insn_label};
use crate::mmap::{
    BANK1_END, BANK1_START, CODE_START, COMMON_END, IMAGE_END_ALL_RAM, LOAD_ADDR, LOW_BSS_END, LOW_BSS_START,
    MemoryMode, STACK_LIMIT, STACK_TOP,
};
use crate::program::{AvrProgram, RelocKind, Target};
use crate::runtime::{self, Locals, Routine};

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
    /// The translated functions with symbolic operands ([`crate::symbolic`]): what the
    /// precise-output tests compare.
    pub symbolic: String,
    /// The registers live before each AVR instruction, by address, sorted
    /// ([`crate::liveness`], after [`crate::saves`]), less a pointer copy's pair where its
    /// uses read the source instead ([`crate::ptr_copies`]): the lockstep compares only these.
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
    /// Functions to interpret rather than translate ([`crate::interp`]): prefixes of
    /// demangled names (`"bac_game::"`), or `"*"` for all. Empty: translate everything.
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

/// The BASIC 7.0 stub at $1C01: `10 SYS 7181`, then the end-of-program link.
pub fn basic_stub() -> Vec<u8> {
    let next = LOAD_ADDR + 10;
    let mut s = vec![next as u8, (next >> 8) as u8, 10, 0, 0x9E];
    s.extend(CODE_START.to_string().bytes());
    s.extend([0, 0, 0]);
    debug_assert_eq!(LOAD_ADDR as usize + s.len(), CODE_START as usize);
    s
}

fn decode_all(prog: &AvrProgram) -> Result<(Vec<u32>, Vec<Insn>), TranslateError> {
    let mut addrs = Vec::new();
    let mut insns = Vec::new();
    let mut at = 0usize;
    while at + 1 < prog.text.len() {
        match decode::decode(&prog.text, at, 0) {
            Ok(i) => {
                addrs.push(at as u32);
                at += usize::from(i.len);
                insns.push(i);
            }
            Err(e) => {
                let n = if e == DecodeError::Truncated { prog.text.len() - at } else { 2 };
                let bytes = prog.text[at..at + n].iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ");
                return Err(TranslateError::UnknownInstruction { at: prog.locate(at as u32), bytes });
            }
        }
    }
    Ok((addrs, insns))
}

/// Instructions reachable other than by falling through: they start new blocks, and
/// nothing may be folded across them.
fn targets(prog: &AvrProgram, addrs: &[u32], insns: &[Insn], index: &HashMap<u32, usize>) -> Vec<bool> {
    let mut is_target = vec![false; insns.len()];
    let mut mark = |a: u32| {
        if let Some(&t) = index.get(&a) {
            is_target[t] = true;
        }
    };
    for f in &prog.functions {
        mark(f.addr);
    }
    mark(prog.entry);
    for (i, insn) in insns.iter().enumerate() {
        match insn.op {
            Op::Brbs | Op::Brbc | Op::Rjmp | Op::Jmp | Op::Call | Op::Rcall => mark(insn.k),
            Op::Cpse | Op::Sbrc | Op::Sbrs | Op::Sbic | Op::Sbis => {
                if let Some(&a) = addrs.get(i + 2) {
                    mark(a);
                }
            }
            _ => {}
        }
    }
    for rel in prog.text_relocs.values().chain(&prog.data_relocs) {
        if let Target::Code(a) = rel.target {
            mark(a);
        }
    }
    is_target
}

/// Leaves out runtime routines that nothing calls (the wide multiplies are large and
/// most programs never use them).
fn drop_unused_routines(chunks: &mut Vec<Chunk>, extra: &[crate::asm::Label]) {
    use crate::asm::{Arg, Label, Sym};
    use std::collections::HashSet;
    let uses = |c: &Chunk| -> Vec<Label> {
        c.items
            .iter()
            .filter_map(|it| match it {
                Item::Ins(_, Arg::Sym(Sym::Code(l), _, _)) | Item::Branch(_, l) => Some(*l),
                _ => None,
            })
            .collect()
    };
    let own = |c: &Chunk| match c.items.first() {
        Some(Item::Label(l)) => Some(*l),
        _ => None,
    };
    let mut used: HashSet<Label> = extra.iter().copied().collect();
    for c in chunks.iter().filter(|c| matches!(c.owner, Owner::Insn(_))) {
        used.extend(uses(c));
    }
    for r in [Routine::Start, Routine::Exit, Routine::Save] {
        used.insert(r.label());
    }
    loop {
        let before = used.len();
        for c in chunks.iter().filter(|c| matches!(c.owner, Owner::Runtime(_))) {
            if own(c).is_some_and(|l| used.contains(&l)) {
                used.extend(uses(c));
            }
        }
        if used.len() == before {
            break;
        }
    }
    chunks.retain(|c| matches!(c.owner, Owner::Insn(_)) || own(c).is_some_and(|l| used.contains(&l)));
}

/// Local clean-ups on straight-line code (nothing crosses a label that can be jumped
/// to): a `LDA zp` that reloads what was just stored there is removed when the next
/// instruction sets N and Z itself; a `LDY #q` becomes `INY`/`DEY` or disappears when Y
/// already holds q-1, q+1 or q (consecutive `ldd`/`std` through one pointer).
fn peephole(chunks: &mut [Chunk], is_target: &[bool]) {
    use crate::asm::{Arg, op::*};
    let sets_nz = |it: Option<&Item>| match it {
        Some(Item::Ins(o, _)) => matches!(
            *o,
            ADC_IMM
                | ADC_ZP
                | SBC_IMM
                | SBC_ZP
                | AND_IMM
                | AND_ZP
                | ORA_IMM
                | ORA_ZP
                | EOR_IMM
                | EOR_ZP
                | CMP_IMM
                | CMP_ZP
                | ASL_A
                | LSR_A
                | ROL_A
                | ROR_A
        ),
        _ => false,
    };
    // Whether the N and Z a removed load would set are never read: later in the chunk an
    // instruction sets them again, or the chunk ends, before anything (a branch, PHP, a
    // call or jump) could read them. Only instructions that neither read N/Z nor change A
    // may come first. (N and Z never pass from one AVR instruction's code to the next:
    // flags that outlive an instruction go to the flags byte, and fused branches and
    // compare chains are in their setter's chunk. Only the carry passes, which LDA keeps.)
    let nz_dead = |rest: &[Item]| {
        for it in rest {
            if sets_nz(Some(it)) {
                return true;
            }
            match it {
                Item::Ins(LDA_IMM | LDA_ZP | LDX_IMM | LDX_ZP | LDY_IMM | LDY_ZP | INX | INY | DEX | DEY, _) => {
                    return true;
                }
                Item::Ins(STA_ZP | STX_ZP | STY_ZP | STA_ABS | CLC | SEC | CLV, _) => {}
                _ => return false,
            }
        }
        true
    };
    let mut stored: Option<u8> = None;
    let mut y: Option<u8> = None;
    let mut a_value = crate::values::AValue::default();
    // The zero-page byte the last instruction incremented or decremented.
    let mut counted: Option<u8> = None;
    for c in chunks.iter_mut() {
        let entry = match c.owner {
            Owner::Insn(i) => is_target[i],
            Owner::Runtime(_) => true,
        };
        if entry {
            stored = None;
            y = None;
            counted = None;
        }
        a_value.enter_chunk(&c.items, entry, matches!(c.owner, Owner::Runtime(_)));
        let mut k = 0;
        while k < c.items.len() {
            if a_value.redundant(&c.items[k]) && nz_dead(&c.items[k + 1..]) {
                c.items.remove(k);
                continue;
            }
            a_value.step(&c.items[k]);
            let prev = counted.take();
            match c.items[k] {
                Item::Ins(INC_ZP | DEC_ZP, Arg::Byte(z)) => counted = Some(z),
                Item::Label(crate::asm::Label(l)) if l < 0x4000_0000 => counted = prev,
                _ => {}
            }
            match c.items[k] {
                Item::Ins(STA_ZP, Arg::Byte(z)) => stored = Some(z),
                Item::Ins(CLC | SEC | CLV, Arg::None) => {}
                Item::Ins(LDA_ZP, Arg::Byte(z)) if stored == Some(z) && nz_dead(&c.items[k + 1..]) => {
                    c.items.remove(k);
                    continue;
                }
                // `dec rX` / `cpi rX, 0` / branch: DEC already set N and Z from rX (A is
                // not used after the branch: every instruction's code loads what it needs).
                Item::Ins(LDA_ZP, Arg::Byte(z))
                    if prev == Some(z)
                        && matches!(c.items.get(k + 1), Some(Item::Branch(BNE | BEQ | BMI | BPL, _)))
                        && !matches!(c.items.get(k + 2), Some(Item::Ins(..) | Item::Branch(..))) =>
                {
                    c.items.remove(k);
                    stored = None;
                    continue;
                }
                Item::Ins(LDY_IMM, Arg::Byte(q)) => {
                    stored = None;
                    let known = y;
                    y = Some(q);
                    if known == Some(q) {
                        c.items.remove(k);
                        continue;
                    } else if known == Some(q.wrapping_sub(1)) {
                        c.items[k] = Item::Ins(INY, Arg::None);
                    } else if known == Some(q.wrapping_add(1)) {
                        c.items[k] = Item::Ins(DEY, Arg::None);
                    }
                }
                Item::Ins(LDA_IZY | STA_IZY | LDA_IMM | LDA_ZP | AND_IMM | ORA_IMM | EOR_IMM, _) => stored = None,
                Item::Ins(STA_ABS | LDA_ABS, _) => stored = None,
                Item::Label(crate::asm::Label(l)) if l >= 0x4000_0000 => {
                    stored = None;
                    y = None;
                }
                Item::Label(_) => {}
                Item::Branch(..) => stored = None,
                _ => {
                    stored = None;
                    y = None;
                }
            }
            k += 1;
        }
    }
}

/// Translates a linked AVR program into a C128 program.
pub fn translate(prog: &AvrProgram) -> Result<Translation, TranslateError> {
    translate_with(prog, &Options::default())
}

/// Translates with explicit [`Options`]. Saves in static slots ([`crate::saves`]) make
/// code faster and larger: when the program with them does not fit, or they would push
/// `.bss` out of the low area it has below the program, it is translated without them.
pub fn translate_with(prog: &AvrProgram, opts: &Options) -> Result<Translation, TranslateError> {
    match translate_once(prog, opts, true) {
        Ok(Some(t)) => Ok(t),
        Ok(None) | Err(TranslateError::TooLarge { .. }) => {
            translate_once(prog, opts, false)?.ok_or_else(|| TranslateError::BadElf("no layout".into()))
        }
        Err(e) => Err(e),
    }
}

/// One translation, with static save slots or without; `None` when the slots would move
/// `.bss` out of the low area it fits in without them.
fn translate_once(
    prog: &AvrProgram,
    opts: &Options,
    save_slots_on: bool,
) -> Result<Option<Translation>, TranslateError> {
    let (addrs, insns) = decode_all(prog)?;
    let index: HashMap<u32, usize> = addrs.iter().enumerate().map(|(i, &a)| (a, i)).collect();
    let func_starts: HashMap<u32, usize> = prog.functions.iter().enumerate().map(|(i, f)| (f.addr, i)).collect();
    let func_of: Vec<Option<usize>> =
        addrs.iter().map(|&a| prog.functions.partition_point(|f| f.addr <= a).checked_sub(1)).collect();
    let mut reads_sp = vec![false; prog.functions.len()];
    for (i, insn) in insns.iter().enumerate() {
        if insn.op == Op::In
            && (insn.k == 0x3D || insn.k == 0x3E)
            && let Some(f) = func_of[i]
        {
            reads_sp[f] = true;
        }
    }
    let mut adjusts: Vec<bool> = reads_sp.iter().map(|&r| r || opts.adjust_all).collect();
    let succs: Vec<Vec<usize>> = insns
        .iter()
        .enumerate()
        .map(|(i, insn)| {
            let next = (i + 1 < insns.len()).then_some(i + 1);
            let at = |a: u32| index.get(&a).copied();
            let v: Vec<Option<usize>> = match insn.op {
                Op::Ret | Op::Reti | Op::Ijmp | Op::Eijmp => vec![],
                Op::Rjmp | Op::Jmp if func_starts.contains_key(&insn.k) => vec![],
                Op::Rjmp | Op::Jmp => vec![at(insn.k)],
                Op::Brbs | Op::Brbc => vec![next, at(insn.k)],
                Op::Cpse | Op::Sbrc | Op::Sbrs | Op::Sbic | Op::Sbis => {
                    vec![next, (i + 2 < insns.len()).then_some(i + 2)]
                }
                _ => vec![next],
            };
            v.into_iter().flatten().collect()
        })
        .collect();
    let is_target = targets(prog, &addrs, &insns, &index);
    let inert = flags::inert_sreg_pairs(&insns, &is_target);
    let live_out = flags::live_out(&insns, &succs, &inert);
    let interp_fn: Vec<bool> = prog.functions.iter().map(|f| interp::selected(&opts.interpret, &f.name)).collect();
    let summaries = crate::callgraph::analyse(prog, &insns, &func_of, &interp_fn, &adjusts);
    // Static frames need SP-relative code to be only where the AVR has it; the lockstep
    // setting (every function keeps the footprint, Y compared with the simulator's) and
    // the plain level keep frames on the stack.
    let ranges: Vec<std::ops::Range<usize>> = (0..prog.functions.len())
        .map(|f| {
            let start = func_of.partition_point(|g| g.is_none_or(|g| g < f));
            start..func_of.partition_point(|g| g.is_none_or(|g| g <= f))
        })
        .collect();
    let static_frames = opts.opt_level == OptLevel::Full && !opts.adjust_all;
    let shapes = if static_frames {
        crate::frames::shapes(&insns, &ranges, &summaries)
    } else {
        vec![None; prog.functions.len()]
    };
    // Y followed through each framed function: its slots become absolute addresses.
    let relocated = |i: usize| prog.text_relocs.contains_key(&addrs[i]);
    let slot_actions: Vec<Result<Vec<crate::frame_slots::Action>, crate::frame_slots::Why>> = shapes
        .iter()
        .enumerate()
        .map(|(f, shape)| {
            let shape = shape.as_ref().ok_or("no frame")?;
            crate::frame_slots::fold(
                &insns,
                ranges[f].clone(),
                shape.size,
                &succs,
                &live_out,
                &inert,
                &is_target,
                &relocated,
            )
        })
        .collect();
    let folded: Vec<bool> = slot_actions.iter().map(Result::is_ok).collect();
    let mut frames = crate::frames::plan(&shapes, &folded, &summaries);
    let avr_stack_top = if opts.stack.is_some() { IMAGE_END_ALL_RAM - 1 } else { STACK_TOP };
    let stack_bottom = match opts.stack {
        Some(n) => IMAGE_END_ALL_RAM - n,
        None => STACK_LIMIT,
    };
    // The entry's frame, and those of the functions only the entry calls, go where their
    // stack frames would have been, at the top of the AVR stack: they cost no RAM of
    // their own (`overlay::at_stack_top`).
    let entry_fn = func_starts.get(&prog.entry).copied();
    let on_top = match entry_fn {
        // They were on the stack before; still, leave it 256 bytes at least.
        Some(e) => {
            let limit = u32::from(avr_stack_top - stack_bottom).saturating_sub(256);
            crate::overlay::at_stack_top(&mut frames, &summaries, e, limit)
        }
        None => Vec::new(),
    };
    let stack_top = avr_stack_top - on_top.iter().map(|&(_, depth, _)| depth).max().unwrap_or(0) as u16;
    let (frames_len, frames_unshared) = crate::overlay::overlay(&mut frames, &summaries);
    let frames_base = prog.data_base + prog.data.len() as u32 + prog.bss_len;
    let mut frame_starts: Vec<Option<FrameBase>> =
        frames.iter().map(|fr| fr.as_ref().map(|fr| FrameBase::Bss(frames_base + fr.offset))).collect();
    for (f, depth, fr) in &on_top {
        frame_starts[*f] = Some(FrameBase::Fixed(avr_stack_top + 1 - *depth as u16));
        frames[*f] = Some(fr.clone());
    }
    let mut slots = vec![crate::frame_slots::Action::Keep; insns.len()];
    for (f, fr) in frames.iter().enumerate() {
        if let (Some(fr), Ok(actions)) = (fr, &slot_actions[f])
            && fr.folded
        {
            slots[ranges[f].clone()].copy_from_slice(actions);
        }
    }
    let mut frame_set_up = vec![false; insns.len()];
    for fr in frames.iter().flatten().filter(|fr| !fr.folded) {
        // Only when no flag it sets is read after it and nothing jumps into it.
        let last = fr.subtract.end - 1;
        if live_out[last] & flags::defs(&insns[last]) == 0 && !fr.subtract.clone().any(|j| is_target[j]) {
            frame_set_up[fr.subtract.clone()].fill(true);
        }
    }
    for (f, fr) in frames.iter().enumerate() {
        if fr.is_some() {
            adjusts[f] = false;
        }
    }
    let (save_plans, live) = plan_saves(
        prog,
        &Flow { addrs: &addrs, insns: &insns, succs: &succs, func_of: &func_of, ranges: &ranges },
        &summaries,
        &frames,
        &reads_sp,
        opts.opt_level == OptLevel::Full,
        save_slots_on && !opts.adjust_all,
    );
    let mut dropped_saves = vec![false; insns.len()];
    // Static save slots follow the static frames.
    let mut save_slots: Vec<Option<u32>> = vec![None; insns.len()];
    let bodies = crate::liveness::bodies(&insns, &func_of, prog.functions.len());
    let mut slots_len = 0;
    for (f, plan) in save_plans.iter().enumerate() {
        let mut slot_of = [None; 32];
        for r in (0..32).filter(|r| plan.in_slots & (1 << r) != 0) {
            slot_of[r] = Some(frames_base + frames_len + slots_len);
            slots_len += 1;
        }
        for i in ranges[f].clone() {
            let push = insns[i].op == Op::Push && i < bodies[f];
            if !(push || insns[i].op == Op::Pop) {
                continue;
            }
            let r = usize::from(insns[i].d);
            if plan.dropped & (1 << r) != 0 {
                dropped_saves[i] = true;
            }
            save_slots[i] = slot_of[r];
        }
    }
    let frames_len = frames_len + slots_len;
    let bss_len = prog.bss_len + frames_len;
    let mut copies = vec![crate::ptr_copies::Copy::Keep; insns.len()];
    if opts.opt_level == OptLevel::Full {
        for (range, _) in ranges.iter().zip(&interp_fn).filter(|&(_, &interp)| !interp) {
            crate::ptr_copies::plan(&insns, range.clone(), &live.live_out, &is_target, &mut copies);
        }
    }
    let ctx = Ctx {
        prog,
        addrs: &addrs,
        insns: &insns,
        index: &index,
        func_of: &func_of,
        func_starts: &func_starts,
        adjusts: &adjusts,
        live_out: &live_out,
        is_target: &is_target,
        inert: &inert,
        interp: &interp_fn,
        optimise: opts.opt_level == OptLevel::Full,
        frames: &frame_starts,
        frame_set_up: &frame_set_up,
        slots: &slots,
        dropped_saves: &dropped_saves,
        save_slots: &save_slots,
        keep_stack: opts.adjust_all,
        copies: &copies,
    };
    let entry = *index.get(&prog.entry).ok_or(TranslateError::NoEntry)?;

    let any_interpreted = interp_fn.iter().any(|&b| b);
    if let Some(name) = &opts.bank1 {
        if opts.memory != MemoryMode::AllRam {
            return Err(TranslateError::Settings("bank1 needs memory = \"all-ram\"".into()));
        }
        if !any_interpreted {
            return Err(TranslateError::Settings("bank1 needs interpreted functions (interpret = [...])".into()));
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
    let place = match opts.bank1 {
        Some(_) => interp::CopyPlace::Bank1 { home: opts.memory.mmu_config() },
        None => interp::CopyPlace::Inline,
    };
    // Bank-1 copies: (label, bytes), placed one after another from BANK1_START.
    let mut far_copies: Vec<(crate::asm::Label, Vec<u8>)> = Vec::new();
    let mut far_at = u32::from(BANK1_START);

    let mut chunks = Vec::new();
    let mut loc = Locals::default();
    for (routine, mut a) in
        runtime::emit(insn_label(entry), &mut loc, opts.memory, opts.bank1.as_deref(), stack_top, opts.key_buffer)
    {
        a.items.insert(0, Item::Label(routine.label()));
        chunks.push(Chunk { owner: Owner::Runtime(routine.name()), items: a.items });
    }
    let mut patches = Vec::new();
    let mut interp_uses = Vec::new();
    let mut interp_chunks = Vec::new();
    if any_interpreted {
        let (a, p) = interp::emit(&mut loc, place);
        chunks.push(Chunk { owner: Owner::Runtime("rt_interp".into()), items: a.items });
        patches.extend(p);
    }
    let mut i = 0;
    let mut cpu_carry = false;
    while i < insns.len() {
        if let Some(f) = func_of[i]
            && interp_fn[f]
        {
            // The whole function: a stub, then its AVR bytes for the interpreter.
            let end = (i..insns.len()).find(|&j| func_of[j] != Some(f)).unwrap_or(insns.len());
            let copy = interp::copy_function(&ctx, f, i, end)?;
            interp_chunks.push(i);
            let jsr = Item::Ins(crate::asm::op::JSR, crate::asm::Arg::Sym(Sym::Code(interp::ENTER), Part::Word, 0));
            let items = if opts.bank1.is_some() {
                // The stub names the copy's bank-1 address.
                let at = far_at as u16;
                far_at += copy.bytes.len() as u32;
                if far_at > u32::from(BANK1_END) {
                    return Err(TranslateError::TooLarge {
                        what: "interpreted functions in bank 1".into(),
                        end: far_at,
                        limit: u32::from(BANK1_END),
                    });
                }
                far_copies.push((interp::copy_label(f), copy.bytes));
                vec![Item::Label(insn_label(i)), jsr, Item::Bytes(at.to_le_bytes().to_vec())]
            } else {
                vec![Item::Label(insn_label(i)), jsr, Item::Label(interp::copy_label(f)), Item::Bytes(copy.bytes)]
            };
            chunks.push(Chunk { owner: Owner::Insn(i), items });
            patches.extend(copy.patches);
            interp_uses.extend(copy.uses);
            cpu_carry = false;
            i = end;
            continue;
        }
        let lowered = ctx.lower(i, cpu_carry)?;
        let mut items = vec![Item::Label(insn_label(i))];
        items.extend(lowered.asm.items);
        chunks.push(Chunk { owner: Owner::Insn(i), items });
        for f in 1..=lowered.consumed {
            chunks.push(Chunk { owner: Owner::Insn(i + f), items: vec![Item::Label(insn_label(i + f))] });
        }
        cpu_carry = lowered.carry_out;
        i += 1 + lowered.consumed;
    }

    drop_unused_routines(&mut chunks, &interp_uses);
    if opts.opt_level == OptLevel::Full {
        peephole(&mut chunks, &is_target);
    }
    let link::Layout { labels, long, size: code_len } = link::layout(&chunks, CODE_START)?;
    let data_addr = u32::from(CODE_START) + code_len;
    let data_end = data_addr + prog.data.len() as u32;
    let low_room = u32::from(LOW_BSS_END - LOW_BSS_START);
    let low_bss = opts.stack.is_some() && bss_len <= low_room;
    if opts.stack.is_some() && !low_bss && bss_len - slots_len <= low_room {
        return Ok(None);
    }
    let (bss_addr, end) = if low_bss { (u32::from(LOW_BSS_START), data_end) } else { (data_end, data_end + bss_len) };
    let limit = match opts.stack {
        Some(_) => u32::from(stack_bottom),
        None => u32::from(opts.memory.image_end()),
    };
    if end > limit {
        let what = match opts.memory {
            MemoryMode::Kernal => "code, data and .bss (memory = \"all-ram\" would allow up to $CFFF)",
            MemoryMode::AllRam if opts.stack.is_some() => "code and data (below the high stack)",
            MemoryMode::AllRam => "code, data and .bss (memory = \"all-ram\")",
        };
        return Err(TranslateError::TooLarge { what: what.into(), end, limit });
    }
    let dp = DataPlacement {
        data_addr: data_addr as u16,
        data_base: prog.data_base,
        bss_addr: bss_addr as u16,
        bss_base: prog.data_base + prog.data.len() as u32,
        // The start-up zeroes `.bss` only: a static frame, like a stack frame, starts
        // undefined (zeroing the game's 633 bytes of frames cost 24,000 cycles).
        bss_len: prog.bss_len as u16,
    };
    let mut placed = link::encode(&chunks, CODE_START, labels, &long, &dp)?;
    // Bank-1 copies: their labels, and the interpreter below the end of common RAM.
    let mut bank1_image = Vec::new();
    let mut far_offset = HashMap::new();
    for (label, bytes) in &far_copies {
        let at = BANK1_START + bank1_image.len() as u16;
        placed.labels.insert(*label, at);
        far_offset.insert(*label, bank1_image.len());
        bank1_image.extend_from_slice(bytes);
    }
    if opts.bank1.is_some()
        && let Some(ci) = chunks.iter().position(|c| matches!(&c.owner, Owner::Runtime(n) if n == "rt_interp"))
    {
        let (start, len, _) = placed.spans[ci];
        let end = u32::from(start) + u32::from(len);
        if end > u32::from(COMMON_END) {
            return Err(TranslateError::TooLarge {
                what: "the runtime and interpreter (they must be in common RAM)".into(),
                end,
                limit: u32::from(COMMON_END),
            });
        }
    }
    // The interpreter's tables and the interpreted copies' relocated operands.
    for p in &patches {
        let base = placed.labels.get(&p.base).copied();
        let v = link::resolve(p.sym, p.part, p.off, &placed.labels, &dp);
        let (Some(base), Some(v)) = (base, v) else {
            return Err(TranslateError::BadElf(format!("unresolved interpreter patch {p:?}")));
        };
        match far_offset.get(&p.base) {
            Some(&o) => p.write(&mut bank1_image, o + p.at, v),
            None => p.write(&mut placed.code, usize::from(base - CODE_START) + p.at, v),
        }
    }

    // Data relocations: pointers to data and code (vtables) become 6502 addresses.
    let mut data = prog.data.clone();
    for rel in &prog.data_relocs {
        let at = || prog.locate(rel.offset);
        let bad = |why: String| TranslateError::Relocation { at: at(), kind: rel.kind.name(), why };
        let value = match (&rel.target, rel.kind) {
            (Target::Code(a), RelocKind::R16 | RelocKind::R16Pm) => {
                let i = index.get(a).ok_or_else(|| bad(format!("code address {a:#x} is not an instruction")))?;
                *placed.labels.get(&insn_label(*i)).ok_or_else(|| {
                    bad(format!("code address {a:#x} is inside an interpreted function (only its start has one)"))
                })?
            }
            (Target::Data(x), RelocKind::R16) => dp.map(*x),
            (Target::Bss(x), RelocKind::R16) => dp.map_bss(*x),
            (Target::Absolute { name, value }, RelocKind::R16 | RelocKind::R16Pm) => match Routine::for_symbol(name) {
                Some(rt) => placed.labels[&rt.label()],
                None => *value as u16,
            },
            (_, kind) => return Err(bad(format!("{} in data is not supported", kind.name()))),
        };
        let o = rel.offset as usize;
        if o + 2 > data.len() {
            return Err(bad("outside the initialised data".into()));
        }
        data[o..o + 2].copy_from_slice(&value.to_le_bytes());
    }

    // The AVR code as the C128 sees its addresses, for the reference interpreter.
    let mut relocated_text = prog.text.clone();
    for (i, insn) in insns.iter().enumerate() {
        let a = addrs[i] as usize;
        let imm = matches!(insn.op, Op::Ldi | Op::Subi | Op::Sbci | Op::Cpi | Op::Ori | Op::Andi);
        let abs = matches!(insn.op, Op::Lds | Op::Sts);
        let at = if abs { addrs[i] + 2 } else { addrs[i] };
        if !(imm || abs) {
            continue;
        }
        if let Some((sym, part)) = ctx.reloc_sym(i, at)? {
            let v = link::resolve(sym, part, 0, &placed.labels, &dp).unwrap_or(0);
            if abs {
                relocated_text[a + 2..a + 4].copy_from_slice(&v.to_le_bytes());
            } else {
                let w = u16::from_le_bytes([relocated_text[a], relocated_text[a + 1]]);
                let w = (w & 0xF0F0) | ((v & 0xF0) << 4) | (v & 0x0F);
                relocated_text[a..a + 2].copy_from_slice(&w.to_le_bytes());
            }
        }
    }

    let mut prg = LOAD_ADDR.to_le_bytes().to_vec();
    prg.extend(basic_stub());
    prg.extend(&placed.code);
    prg.extend(&data);
    // Packed to unpack in place (bac-pack), below the MMU registers.
    let bank1 = match opts.bank1 {
        Some(_) => Some(
            bac_pack::pack_prg(&bank1_image, BANK1_START, BANK1_END)
                .map_err(|e| TranslateError::Settings(format!("bank-1 file: {e}")))?
                .file,
        ),
        None => None,
    };

    // Map, listing, statistics.
    let mut symbols = Vec::new();
    for (ci, c) in chunks.iter().enumerate() {
        if let Owner::Runtime(name) = &c.owner {
            symbols.push((name.clone(), placed.spans[ci].0));
        }
    }
    for f in &prog.functions {
        if let Some(&i) = index.get(&f.addr)
            && let Some(&at) = placed.labels.get(&insn_label(i))
        {
            symbols.push((f.name.clone(), at));
        }
    }
    if let Some(&at) = placed.labels.get(&interp::NEXT) {
        symbols.push(("rt_interp_next".into(), at));
    }
    let notes: HashMap<usize, String> = summaries
        .iter()
        .enumerate()
        .filter_map(|(f, s)| {
            let mut lines: Vec<String> = match frames[f] {
                Some(ref fr) if on_top.iter().any(|&(g, _, _)| g == f) => {
                    vec![format!(
                        "static frame: {} bytes at the top of the AVR stack, slots at fixed addresses",
                        fr.size
                    )]
                }
                Some(ref fr) => {
                    let how = match &slot_actions[f] {
                        Ok(_) => ", slots at fixed addresses".to_string(),
                        Err(why) => format!(", reached through Y ({why})"),
                    };
                    vec![format!("static frame: {} bytes at frames+{}{how}", fr.size, fr.offset)]
                }
                None if !s.safe() => vec![format!("not optimised across functions: {}", s.why())],
                None => vec![],
            };
            lines.extend(save_notes(prog, &addrs, &save_plans[f]));
            (!lines.is_empty()).then(|| (f, lines.join("\n  ; ")))
        })
        .collect();
    let mut pc_map = Vec::new();
    let mut listing = String::new();
    let mut code_bytes = 0usize;
    let mut runtime_bytes = 0usize;
    let mut interpreted_bytes = 0usize;
    let mut interpreter_bytes = 0usize;
    for (ci, c) in chunks.iter().enumerate() {
        let (start, len, cycles) = placed.spans[ci];
        if matches!(&c.owner, Owner::Runtime(n) if n == "rt_interp") {
            interpreter_bytes = usize::from(len);
        }
        if let Owner::Insn(i) = c.owner
            && interp_chunks.contains(&i)
        {
            interpreted_bytes += usize::from(len);
            code_bytes += usize::from(len);
            pc_map.push((start, addrs[i]));
            let f = func_of[i].map_or("?", |f| prog.functions[f].name.as_str());
            match placed.labels.get(&interp::copy_label(func_of[i].unwrap_or(0))).filter(|_| opts.bank1.is_some()) {
                Some(far) => {
                    let _ = writeln!(
                        listing,
                        "\n{f}:\n  interpreted: stub ${start:04x}, AVR code and trampolines at bank 1 ${far:04x}"
                    );
                }
                None => {
                    let _ = writeln!(
                        listing,
                        "\n{f}:\n  interpreted: ${start:04x}  {len} bytes (stub, AVR code, trampolines)"
                    );
                }
            }
            continue;
        }
        let off = usize::from(start - CODE_START);
        let bytes: Vec<String> = placed.code[off..off + usize::from(len)].iter().map(|b| format!("{b:02x}")).collect();
        match c.owner {
            Owner::Runtime(ref name) => {
                runtime_bytes += usize::from(len);
                let _ = writeln!(listing, "{name}:  ${start:04x}  {len} bytes");
            }
            Owner::Insn(i) => {
                code_bytes += usize::from(len);
                let a = addrs[i];
                if len > 0 {
                    pc_map.push((start, a));
                }
                if let Some(&f) = func_starts.get(&a) {
                    let _ = writeln!(listing, "\n{}:", prog.functions[f].name);
                    if let Some(why) = notes.get(&f) {
                        let _ = writeln!(listing, "  ; {why}");
                    }
                }
                let loc = prog.locate(a);
                let avr: Vec<String> = prog.text[a as usize..a as usize + usize::from(insns[i].len)]
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect();
                let _ = writeln!(
                    listing,
                    "  +{:<5x} {a:05x}  {:<11}  {:<26} ${start:04x}  {:>3}c  {}",
                    loc.offset,
                    avr.join(" "),
                    insns[i].to_string(),
                    cycles,
                    bytes.join(" ")
                );
            }
        }
    }
    let stats = Stats {
        avr_insns: insns.len(),
        avr_bytes: prog.text.len(),
        code_bytes,
        runtime_bytes,
        data_bytes: data.len(),
        bss_bytes: bss_len as usize,
        end_addr: end,
        limit,
        interpreted_bytes,
        interpreter_bytes,
        bank1_bytes: bank1_image.len(),
    };
    let mut map = String::new();
    let _ = writeln!(map, "# avr2mos symbol map (6502 addresses)");
    let _ = writeln!(map, "{LOAD_ADDR:04x} basic_stub");
    let mut sorted = symbols.clone();
    sorted.sort_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)));
    for (n, a) in &sorted {
        let _ = writeln!(map, "{a:04x} {n}");
    }
    let _ = writeln!(map, "{data_addr:04x} data ({} bytes, AVR data address {:#06x})", data.len(), prog.data_base);
    let _ = writeln!(map, "{bss_addr:04x} bss ({} bytes)", prog.bss_len);
    if frames_len > 0 {
        let _ = writeln!(
            map,
            "{:04x} static frames ({frames_len} bytes, overlaid along the call graph; {frames_unshared} one after \
             another)",
            bss_addr + prog.bss_len
        );
    }
    let _ = writeln!(map, "{end:04x} end");
    if stack_top != avr_stack_top {
        let _ = writeln!(
            map,
            "{:04x} the static frames of the entry and what only it calls ({} bytes)",
            stack_top + 1,
            avr_stack_top - stack_top
        );
    }
    let _ = writeln!(map, "{stack_top:04x} avr_stack_top (grows down to {stack_bottom:04x})");
    let _ = writeln!(
        map,
        "# {} AVR instructions -> {} bytes ({:.2} bytes/instruction), runtime {} bytes",
        stats.avr_insns,
        stats.code_bytes,
        stats.bytes_per_insn(),
        stats.runtime_bytes
    );
    let symbolic = crate::symbolic::render(
        &chunks,
        &crate::symbolic::Source { prog, addrs: &addrs, insns: &insns, spans: &placed.spans, notes: &notes },
    );
    let elsewhere = crate::ptr_copies::elsewhere(&copies);
    let live_in = addrs.iter().zip(&live.live_in).zip(&elsewhere).map(|((&a, &l), &e)| (a, l & !e)).collect();
    Ok(Some(Translation { prg, bank1, map, listing, stats, pc_map, symbols, relocated_text, symbolic, live_in }))
}

/// The decoded program's control flow, as the whole-program passes need it.
struct Flow<'a> {
    addrs: &'a [u32],
    insns: &'a [Insn],
    succs: &'a [Vec<usize>],
    func_of: &'a [Option<usize>],
    ranges: &'a [std::ops::Range<usize>],
}

/// Runs [`crate::liveness`] and [`crate::saves`]: which prologue saves go (none unless
/// `optimise`) and which use static slots (none unless `slots`; the lockstep setting keeps
/// every save on the AVR stack, as the simulator has it), and the registers live before
/// each instruction once they have gone.
fn plan_saves(
    prog: &AvrProgram,
    flow: &Flow,
    summaries: &[crate::callgraph::Summary],
    frames: &[Option<crate::frames::Frame>],
    reads_sp: &[bool],
    optimise: bool,
    slots: bool,
) -> (Vec<crate::saves::Plan>, crate::liveness::Liveness) {
    use crate::liveness::{self, Input};
    let n = prog.functions.len();
    let starts: HashMap<u32, usize> = prog.functions.iter().enumerate().map(|(i, f)| (f.addr, i)).collect();
    let code: std::collections::HashSet<u32> = flow.addrs.iter().copied().collect();
    let callees = liveness::callees(flow.insns, &starts, &prog.absolute, |a| code.contains(&a));
    let bodies = liveness::bodies(flow.insns, flow.func_of, n);
    let kills = liveness::kills(summaries);
    let static_frame: Vec<bool> = frames.iter().map(Option::is_some).collect();
    let once: Vec<bool> = summaries.iter().map(|s| slots && crate::frames::once(s)).collect();
    let once = &once;
    let program = crate::saves::Program {
        insns: flow.insns,
        ranges: flow.ranges,
        sums: summaries,
        static_frame: &static_frame,
        reads_sp,
        once,
        callees: &callees,
        succs: flow.succs,
        func_of: flow.func_of,
    };
    let vouched: Vec<bool> = (0..n).map(|f| optimise && crate::saves::vouched(&program, f)).collect();
    let exits = crate::saves::exits(&vouched);
    let input = Input {
        insns: flow.insns,
        succs: flow.succs,
        callees: &callees,
        func_of: flow.func_of,
        bodies: &bodies,
        kills: &kills,
        exits: &exits,
    };
    let live = liveness::analyse(&input);
    let plans = crate::saves::plan(&program, &vouched, &live.live_out);
    (plans, live)
}

/// The listing's lines on a function's saves: which went, and why the others stayed.
fn save_notes(prog: &AvrProgram, addrs: &[u32], plan: &crate::saves::Plan) -> Vec<String> {
    use crate::saves::Kept;
    let mut lines = Vec::new();
    if plan.dropped != 0 {
        lines.push(format!("saves left out: {} (no caller reads them after the call)", reg_list(plan.dropped)));
    }
    if plan.in_slots != 0 {
        lines.push(format!("saves in static slots: {} (never active twice)", reg_list(plan.in_slots)));
    }
    // Group the kept registers by reason, in register order of each reason's first.
    let mut groups: Vec<(Kept, RegSet)> = Vec::new();
    for &(r, why) in &plan.kept {
        match groups.iter_mut().find(|(w, _)| *w == why) {
            Some((_, set)) => *set |= 1 << r,
            None => groups.push((why, 1 << r)),
        }
    }
    for (why, set) in groups {
        let because = match why {
            Kept::LiveAfter(i) => {
                let at = prog.locate(addrs[i]);
                format!("live after the call at {at}")
            }
            Kept::Through(g) => format!("the callers of {} need them", prog.functions[g].name),
            Kept::Shape => "pushed or popped outside the prologue and epilogues".into(),
            Kept::Bridge => "between kept saves: one run of pushes is cheaper than two".into(),
        };
        lines.push(format!("saves kept: {} ({because})", reg_list(set)));
    }
    lines
}

/// A register set as `r2-r17, r28, r29`.
fn reg_list(set: RegSet) -> String {
    let mut parts = Vec::new();
    let mut r = 0;
    while r < 32 {
        if set & (1 << r) == 0 {
            r += 1;
            continue;
        }
        let mut end = r;
        while end + 1 < 32 && set & (1 << (end + 1)) != 0 {
            end += 1;
        }
        parts.push(if end > r + 1 {
            format!("r{r}-r{end}")
        } else if end == r + 1 {
            format!("r{r}, r{end}")
        } else {
            format!("r{r}")
        });
        r = end + 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asm::op;
    use crate::mmap::KEY_LINES;
    use crate::program::{Function, Reloc};
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
    fn bss_follows_the_data_without_a_high_stack() {
        let t = translate_with(&bss_program(), &Options::default()).unwrap();
        let data = t.map.lines().find(|l| l.contains(" data (")).unwrap();
        let data_addr = u16::from_str_radix(&data[..4], 16).unwrap();
        assert_eq!(operand_of(&t, op::LDA_ABS), data_addr + 5);
    }
}
