//! Where each function's frame, frame slots and saves go, and which pointer and data copies
//! go: runs [`crate::frames::static_frames`], [`crate::frames::frame_slots`] (with [`crate::frames::frame_steps`]),
//! [`crate::frames::overlay`], [`crate::analysis::liveness`], [`crate::frames::saves`], [`crate::avr_rewrites::ptr_copies`] and
//! [`crate::avr_rewrites::data_copies`] over the whole program and turns their
//! answers into the per-instruction facts the lowering reads ([`crate::lower::Ctx`]).
//!
//! Assumes the call graph's summaries ([`crate::analysis::callgraph`]) and the flag liveness
//! ([`crate::analysis::flags`]) of the same decoded program ([`Flow`]). Guarantees:
//! - without static frames ([`Settings::static_frames`] off: the plain level, or the
//!   lockstep setting) every function keeps its frame on the AVR stack, and without
//!   [`Settings::optimise`] every save stays;
//! - the frames placed after `.bss` (at `frames_base`) and the save slots after them take
//!   [`FramePlan::frames_len`] bytes; the entry's frame and those of the functions only it
//!   calls sit at the top of the AVR stack, which starts below them ([`Frames::stack_top`]);
//! - with a high stack, save slots are planned only when `.bss`, the frames and the slots
//!   fit the low area together or `.bss` and the frames alone do not fit it either: slots
//!   never move `.bss` out of the low area it has without them;
//! - pointer and data copies are planned only with [`Settings::optimise`], only in
//!   translated functions, and on the liveness left once the saves have gone
//!   ([`Saves::live`]); data copies after pointer copies and save sinking, never
//!   through an instruction either of them changed.

use std::collections::HashMap;

use crate::analysis::callgraph::Summary;
use crate::analysis::flags::{self, FlagFacts};
use crate::analysis::liveness::Liveness;
use crate::frames::frame_slots::{Action, Why};
use crate::frames::static_frames::{Frame, FrameBase};
use crate::input::decode::Op;
use crate::input::flow::Flow;
use crate::input::program::AvrProgram;
use crate::mmap::{IMAGE_END_ALL_RAM, LOW_BSS_END, LOW_BSS_START, STACK_LIMIT, STACK_TOP};

/// What the plan may do.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Give functions that cannot be active twice static frames.
    pub static_frames: bool,
    /// Leave out the saves no caller needs.
    pub optimise: bool,
    /// Move the saves that stay to static slots where the function can never be active twice.
    pub save_slots: bool,
    /// A high AVR stack of this many bytes ([`crate::Options::stack`]).
    pub high_stack: Option<u16>,
}

/// The plan: the static frames, the saves, the copies that go, and the instructions as
/// the lowering reads them.
pub struct FramePlan {
    /// The static frames and the AVR stack around them.
    pub frames: Frames,
    /// The saves: which went, which use static slots, which moved.
    pub saves: Saves,
    /// Bytes of the static frames after `.bss` and the save slots after them.
    pub frames_len: u32,
    /// What becomes of each instruction as a pointer copy or a use of one, or a data copy
    /// ([`crate::avr_rewrites::data_copies`]).
    pub copies: Vec<crate::avr_rewrites::ptr_copies::Copy>,
    /// The instructions as the lowering reads them: the program's, with the reads of data
    /// copies that went renamed to their sources ([`crate::avr_rewrites::data_copies`]).
    pub insns: Vec<crate::input::decode::Insn>,
    /// The static slots that live in zero page instead ([`crate::frames::zp_slots`]; none unless
    /// [`Settings::optimise`]).
    pub zp_homes: crate::frames::zp_slots::Homes,
}

/// The static frames ([`crate::frames::static_frames`]) and what becomes of the
/// instructions that reach them, with the AVR stack's bounds around them.
#[derive(Debug)]
pub struct Frames {
    /// Whether each function keeps the 2-byte return address footprint on the AVR stack.
    pub adjusts: Vec<bool>,
    /// Each function's static frame, if it has one (those at the top of the stack too).
    pub each: Vec<Option<Frame>>,
    /// Where each static frame starts.
    pub starts: Vec<Option<FrameBase>>,
    /// Each function's frame slots as fixed addresses, or why Y is kept.
    pub slot_actions: Vec<Result<Vec<Action>, Why>>,
    /// The functions whose frames are at the top of the AVR stack.
    pub on_top: Vec<usize>,
    /// The AVR stack's first byte above which nothing is placed ($1BFF, or the high
    /// stack's top).
    pub avr_stack_top: u16,
    /// The address the stack starts at: below the frames at its top.
    pub stack_top: u16,
    /// The lowest address the stack may reach.
    pub stack_bottom: u16,
    /// What becomes of each instruction of a function whose slots are fixed addresses.
    pub slots: Vec<Action>,
    /// The prologue subtractions of static frames, which have nothing left to do.
    pub set_up: Vec<bool>,
    /// Bytes the frames after `.bss` would take one after another, not overlaid.
    pub unshared: u32,
}

/// Plans the frames, saves and pointer copies of `prog`. `adjusts` says which functions
/// keep the stack footprint before any gets a static frame (those that read SP, or all of
/// them); `interp_fn` which functions run interpreted (their AVR code stays as it is);
/// `cold` which instructions run a bounded number of times ([`crate::analysis::cold`]);
/// `fusion` where the lowering may fuse instructions, where no moved save may go.
#[allow(clippy::too_many_arguments)] // One plan over the program's facts: each is a different analysis.
pub fn plan(
    prog: &AvrProgram,
    flow: &Flow,
    facts: &FlagFacts,
    fusion: &crate::analysis::fusion::Fusion,
    summaries: &[Summary],
    interp_fn: &[bool],
    cold: &[bool],
    mut adjusts: Vec<bool>,
    s: Settings,
) -> FramePlan {
    let shapes = if s.static_frames {
        crate::frames::static_frames::shapes(&flow.insns, &flow.ranges, summaries)
    } else {
        vec![None; prog.functions.len()]
    };
    // Y followed through each framed function: its slots become absolute addresses.
    let relocated = |i: usize| prog.text_relocs.contains_key(&flow.addrs[i]);
    let slot_actions: Vec<Result<Vec<Action>, Why>> = shapes
        .iter()
        .enumerate()
        .map(|(f, shape)| {
            let shape = shape.as_ref().ok_or("no frame")?;
            let mut actions = crate::frames::frame_slots::fold(
                &flow.insns,
                flow.ranges[f].clone(),
                shape.size,
                &flow.succs,
                &facts.live_out,
                &facts.inert,
                &flow.is_target,
                &relocated,
            )?;
            if s.optimise {
                let range = flow.ranges[f].clone();
                crate::frames::frame_steps::fold(
                    &flow.insns,
                    range,
                    &mut actions,
                    &facts.live_out,
                    &flow.is_target,
                    &relocated,
                );
            }
            Ok(actions)
        })
        .collect();
    let folded: Vec<bool> = slot_actions.iter().map(Result::is_ok).collect();
    let mut frames = crate::frames::static_frames::plan(&shapes, &folded, summaries);
    let avr_stack_top = if s.high_stack.is_some() { IMAGE_END_ALL_RAM - 1 } else { STACK_TOP };
    let stack_bottom = match s.high_stack {
        Some(n) => IMAGE_END_ALL_RAM - n,
        None => STACK_LIMIT,
    };
    // The entry's frame, and those of the functions only the entry calls, go where their
    // stack frames would have been, at the top of the AVR stack: they cost no RAM of
    // their own (`overlay::at_stack_top`).
    let on_top = match flow.func_starts.get(&prog.entry).copied() {
        // They were on the stack before; still, leave it 256 bytes at least.
        Some(e) => {
            let limit = u32::from(avr_stack_top - stack_bottom).saturating_sub(256);
            crate::frames::overlay::at_stack_top(&mut frames, summaries, e, limit)
        }
        None => Vec::new(),
    };
    let stack_top = avr_stack_top - on_top.iter().map(|&(_, depth, _)| depth).max().unwrap_or(0) as u16;
    let (frames_len, frames_unshared) = crate::frames::overlay::overlay(&mut frames, summaries);
    let frames_base = prog.data_base + prog.data.len() as u32 + prog.bss_len;
    let mut frame_starts: Vec<Option<FrameBase>> =
        frames.iter().map(|fr| fr.as_ref().map(|fr| FrameBase::Bss(frames_base + fr.offset))).collect();
    for (f, depth, fr) in &on_top {
        frame_starts[*f] = Some(FrameBase::Fixed(avr_stack_top + 1 - *depth as u16));
        frames[*f] = Some(fr.clone());
    }
    let mut slots = vec![Action::Keep; flow.insns.len()];
    for (f, fr) in frames.iter().enumerate() {
        if let (Some(fr), Ok(actions)) = (fr, &slot_actions[f])
            && fr.folded
        {
            slots[flow.ranges[f].clone()].copy_from_slice(actions);
        }
    }
    let mut frame_set_up = vec![false; flow.insns.len()];
    for fr in frames.iter().flatten().filter(|fr| !fr.folded) {
        // Only when no flag it sets is read after it and nothing jumps into it.
        let last = fr.subtract.end - 1;
        if facts.live_out[last] & flags::defs(&flow.insns[last]) == 0 && !fr.subtract.clone().any(|j| flow.is_target[j])
        {
            frame_set_up[fr.subtract.clone()].fill(true);
        }
    }
    for (f, fr) in frames.iter().enumerate() {
        if fr.is_some() {
            adjusts[f] = false;
        }
    }
    let saves_at = |slots_on: bool| {
        let mut saves = place_saves(prog, flow, summaries, &frames, s.optimise, slots_on, frames_base + frames_len);
        // Saves in static slots move off the paths that never write them.
        if slots_on {
            sink_saves(flow, facts, fusion, summaries, interp_fn, cold, &mut saves);
        }
        saves
    };
    let mut saves = saves_at(s.save_slots);
    if s.high_stack.is_some() {
        let low_room = u32::from(LOW_BSS_END - LOW_BSS_START);
        let without = prog.bss_len + frames_len;
        if without + saves.slots_len > low_room && without <= low_room {
            saves = saves_at(false);
        }
    }
    let mut copies = plan_copies(flow, &saves.live, interp_fn, s.optimise);
    let insns = plan_data_copies(flow, &saves, &slots, &frame_set_up, interp_fn, s.optimise, &mut copies);
    let zp_homes = if s.optimise {
        let folded: Vec<bool> = frames.iter().map(|fr| fr.as_ref().is_some_and(|fr| fr.folded)).collect();
        let floors = frame_floors(prog, flow, &saves, &slots, &folded);
        let sunk: Vec<Vec<u32>> = saves.sunk.iter().map(|cs| cs.iter().map(|c| c.slot).collect()).collect();
        let uses = crate::frames::zp_slots::Uses {
            ranges: &flow.ranges,
            folded: &folded,
            floors: &floors,
            slots: &slots,
            save_slots: &saves.slot_of,
            dropped: &saves.dropped,
            sunk: &sunk,
        };
        crate::frames::zp_slots::plan(&uses)
    } else {
        crate::frames::zp_slots::Homes::default()
    };
    let frames = Frames {
        adjusts,
        each: frames,
        starts: frame_starts,
        slot_actions,
        on_top: on_top.iter().map(|&(f, _, _)| f).collect(),
        avr_stack_top,
        stack_top,
        stack_bottom,
        slots,
        set_up: frame_set_up,
        unshared: frames_unshared,
    };
    FramePlan { frames, frames_len: frames_len + saves.slots_len, saves, copies, insns, zp_homes }
}

/// How low the pointers into each folded frame reach ([`crate::frames::frame_reach`]).
fn frame_floors(prog: &AvrProgram, flow: &Flow, saves: &Saves, slots: &[Action], folded: &[bool]) -> Vec<Option<u16>> {
    const MEMORY: [&str; 5] = ["memcpy", "memmove", "memset", "memcmp", "bcmp"];
    let mem_call = |i: usize| prog.native_call(&flow.insns[i]).is_some_and(|name| MEMORY.contains(&name));
    let code = crate::frames::frame_reach::Code {
        insns: &flow.insns,
        succs: &flow.succs,
        callees: &saves.callees,
        mem_call: &mem_call,
        args: &saves.live.args,
    };
    let each = flow.ranges.iter().zip(folded);
    each.map(|(range, &folded)| {
        folded.then(|| crate::frames::frame_reach::floor(&code, range.clone(), &slots[range.clone()])).flatten()
    })
    .collect()
}

/// Data copies whose uses can read the source pair instead ([`crate::avr_rewrites::data_copies`]), in
/// the translated functions, after the pointer copies, then the branches over jumps
/// ([`crate::avr_rewrites::branch_over`]) no other pass changed: the instructions as the lowering reads
/// them, with those uses renamed and those branches rewritten.
fn plan_data_copies(
    flow: &Flow,
    saves: &Saves,
    slots: &[Action],
    frame_set_up: &[bool],
    interp_fn: &[bool],
    optimise: bool,
    copies: &mut [crate::avr_rewrites::ptr_copies::Copy],
) -> Vec<crate::input::decode::Insn> {
    let mut insns = flow.insns.clone();
    if optimise {
        let sunk: Vec<bool> = saves.sunk.iter().map(|c| !c.is_empty()).collect();
        let calls = native_call_effects(saves);
        let fences = crate::avr_rewrites::data_copies::Fences {
            is_target: &flow.is_target,
            slots,
            sunk: &sunk,
            frame_set_up,
            calls: &calls,
        };
        for (range, _) in flow.ranges.iter().zip(interp_fn).filter(|&(_, &interp)| !interp) {
            crate::avr_rewrites::data_copies::plan(&mut insns, range.clone(), &saves.live.live_out, fences, copies);
        }
        let changed = changed_by_plan(saves, slots, frame_set_up, copies);
        let fences = crate::avr_rewrites::branch_over::Fences { is_target: &flow.is_target, changed: &changed };
        for (f, (range, _)) in flow.ranges.iter().zip(interp_fn).enumerate().filter(|&(_, (_, &interp))| !interp) {
            let local = |k: u32| {
                !flow.func_starts.contains_key(&k) && flow.index.get(&k).is_some_and(|&t| flow.func_of[t] == Some(f))
            };
            crate::avr_rewrites::branch_over::rewrite(&mut insns, &flow.addrs, range.clone(), fences, local);
        }
    }
    insns
}

/// The instructions the plan changes, which the branch rewrites
/// ([`crate::avr_rewrites::branch_over`], [`crate::avr_rewrites::bool_branch`]) leave
/// alone: a save or restore moved there, a frame-slot action, a static frame's set-up, a
/// pointer or data copy that goes or a use of one, a save that goes or has a static slot.
pub fn changed_by_plan(
    saves: &Saves,
    slots: &[Action],
    set_up: &[bool],
    copies: &[crate::avr_rewrites::ptr_copies::Copy],
) -> Vec<bool> {
    (0..slots.len())
        .map(|i| {
            !saves.sunk[i].is_empty()
                || slots[i] != Action::Keep
                || set_up[i]
                || copies[i] != crate::avr_rewrites::ptr_copies::Copy::Keep
                || saves.dropped[i]
                || saves.slot_of[i].is_some()
        })
        .collect()
}

/// What each call of a native routine does to registers, for a data copy that lives
/// across it: it reads its operands and r1 and writes its results
/// ([`crate::analysis::liveness::native_writes`]). Other calls are fences (`None`): the lockstep
/// comparison checks registers at each translated instruction, and inside a callee the
/// copy's pair would still count as live.
fn native_call_effects(saves: &Saves) -> Vec<Option<crate::avr_rewrites::data_copies::CallEffect>> {
    use crate::analysis::liveness::{Callee, ZERO_REG};
    use crate::avr_rewrites::data_copies::CallEffect;
    saves
        .callees
        .iter()
        .map(|c| match *c {
            Callee::Native { reads, writes } => Some(CallEffect { reads: reads | ZERO_REG, writes }),
            _ => None,
        })
        .collect()
}

/// Pointer copies whose uses can read the source pair instead ([`crate::avr_rewrites::ptr_copies`]), in
/// the translated functions, on the liveness left once the saves have gone.
fn plan_copies(
    flow: &Flow,
    live: &Liveness,
    interp_fn: &[bool],
    optimise: bool,
) -> Vec<crate::avr_rewrites::ptr_copies::Copy> {
    let mut copies = vec![crate::avr_rewrites::ptr_copies::Copy::Keep; flow.insns.len()];
    if optimise {
        for (range, _) in flow.ranges.iter().zip(interp_fn).filter(|&(_, &interp)| !interp) {
            crate::avr_rewrites::ptr_copies::plan(
                &flow.insns,
                range.clone(),
                &live.live_out,
                &flow.is_target,
                &mut copies,
            );
        }
    }
    copies
}

/// The saves' part of the plan ([`crate::frames::saves`], [`crate::frames::sink_saves`]).
#[derive(Debug)]
pub struct Saves {
    /// Each function's saves: which went, which stayed and why.
    pub plans: Vec<crate::frames::saves::Plan>,
    /// The registers live around each instruction once the saves have gone.
    pub live: Liveness,
    /// Prologue pushes and epilogue pops of saves no caller needs.
    pub dropped: Vec<bool>,
    /// The static slot of a save's push or pop.
    pub slot_of: Vec<Option<u32>>,
    /// Bytes of the save slots.
    pub slots_len: u32,
    /// What each call calls.
    pub callees: Vec<crate::analysis::liveness::Callee>,
    /// The saves and restores moved to each instruction ([`crate::frames::sink_saves`]).
    pub sunk: Vec<Vec<crate::frames::sink_saves::Copy>>,
}

/// Moves the saves in static slots of the translated functions off the paths that never
/// write them ([`crate::frames::sink_saves`]), and notes which in each function's plan. Not in a
/// function entered a bounded number of times (`cold` at its start): there it would save
/// a few cycles once, and its copies may lengthen a branch.
fn sink_saves(
    flow: &Flow,
    facts: &FlagFacts,
    fusion: &crate::analysis::fusion::Fusion,
    summaries: &[Summary],
    interp_fn: &[bool],
    cold: &[bool],
    saves: &mut Saves,
) {
    let bodies = crate::analysis::liveness::bodies(&flow.insns, &flow.func_of, interp_fn.len());
    for (f, plan) in saves.plans.iter_mut().enumerate() {
        let range = &flow.ranges[f];
        if plan.in_slots == 0 || interp_fn[f] || range.is_empty() || cold[range.start] {
            continue;
        }
        let func = crate::frames::sink_saves::Function {
            insns: &flow.insns,
            range: flow.ranges[f].clone(),
            body: bodies[f],
            succs: &flow.succs,
            callees: &saves.callees,
            sums: summaries,
            args: &saves.live.args,
            live_regs: &saves.live.live_out,
            live_flags: &facts.live_out,
            slot_of: &saves.slot_of,
            fusion,
        };
        let mut done = Vec::new();
        for r in (0..32u8).filter(|r| plan.in_slots & (1 << r) != 0) {
            if let Some(sunk) = func.sink(r) {
                done.push((r, sunk));
            }
        }
        for (r, sunk) in done {
            plan.sunk |= 1 << r;
            for i in sunk.dropped {
                saves.dropped[i] = true;
            }
            for (i, c) in sunk.copies {
                saves.sunk[i].push(c);
            }
        }
    }
    for copies in &mut saves.sunk {
        copies.sort();
    }
}

/// Which prologue saves go and which use static slots (from `slots_base` on), and the
/// registers live around each instruction once they have gone.
fn place_saves(
    prog: &AvrProgram,
    flow: &Flow,
    summaries: &[Summary],
    frames: &[Option<Frame>],
    optimise: bool,
    slots_on: bool,
    slots_base: u32,
) -> Saves {
    let n = flow.insns.len();
    let (plans, live, callees) = plan_saves(prog, flow, summaries, frames, optimise, slots_on);
    let mut dropped = vec![false; n];
    let mut slot_of_insn: Vec<Option<u32>> = vec![None; n];
    let bodies = crate::analysis::liveness::bodies(&flow.insns, &flow.func_of, prog.functions.len());
    let mut slots_len = 0;
    for (f, plan) in plans.iter().enumerate() {
        let mut slot_of = [None; 32];
        for r in (0..32).filter(|r| plan.in_slots & (1 << r) != 0) {
            slot_of[r] = Some(slots_base + slots_len);
            slots_len += 1;
        }
        for i in flow.ranges[f].clone() {
            let push = flow.insns[i].op == Op::Push && i < bodies[f];
            if !(push || flow.insns[i].op == Op::Pop) {
                continue;
            }
            let r = usize::from(flow.insns[i].d);
            if plan.dropped & (1 << r) != 0 {
                dropped[i] = true;
            }
            slot_of_insn[i] = slot_of[r];
        }
    }
    Saves { plans, live, dropped, slot_of: slot_of_insn, slots_len, callees, sunk: vec![Vec::new(); n] }
}

/// Runs [`crate::analysis::liveness`] and [`crate::frames::saves`]: which prologue saves go (none unless
/// `optimise`) and which use static slots (none unless `slots`), and the registers live
/// before each instruction once they have gone.
fn plan_saves(
    prog: &AvrProgram,
    flow: &Flow,
    summaries: &[Summary],
    frames: &[Option<Frame>],
    optimise: bool,
    slots: bool,
) -> (Vec<crate::frames::saves::Plan>, Liveness, Vec<crate::analysis::liveness::Callee>) {
    use crate::analysis::liveness::{self, Input};
    let n = prog.functions.len();
    let code: std::collections::HashSet<u32> = flow.addrs.iter().copied().collect();
    let starts: &HashMap<u32, usize> = &flow.func_starts;
    let callees = liveness::callees(&flow.insns, starts, prog, |a| code.contains(&a));
    let bodies = liveness::bodies(&flow.insns, &flow.func_of, n);
    let kills = liveness::kills(summaries);
    let static_frame: Vec<bool> = frames.iter().map(Option::is_some).collect();
    let once: Vec<bool> = summaries.iter().map(|s| slots && crate::frames::static_frames::once(s)).collect();
    let program = crate::frames::saves::Program {
        insns: &flow.insns,
        ranges: &flow.ranges,
        sums: summaries,
        static_frame: &static_frame,
        reads_sp: &flow.reads_sp,
        once: &once,
        callees: &callees,
        succs: &flow.succs,
        func_of: &flow.func_of,
    };
    let vouched: Vec<bool> = (0..n).map(|f| optimise && crate::frames::saves::vouched(&program, f)).collect();
    let exits = crate::frames::saves::exits(&vouched);
    let input = Input {
        insns: &flow.insns,
        succs: &flow.succs,
        callees: &callees,
        func_of: &flow.func_of,
        bodies: &bodies,
        kills: &kills,
        exits: &exits,
    };
    let live = liveness::analyse(&input);
    let plans = crate::frames::saves::plan(&program, &vouched, &live.live_out);
    (plans, live, callees)
}
