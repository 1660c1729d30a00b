//! What a translation tells its reader: the symbol map, the listing (every AVR
//! instruction with its 6502 address, bytes and cycles, and under each function what the
//! whole-program passes did to it and why), the sizes, and the symbolic rendering the
//! precise-output tests compare.
//!
//! Assumes the placed image of [`crate::emit::image`], the chunks of [`crate::lower::codegen`] it was
//! placed from and the plan of [`crate::frames::frame_plan`]. Guarantees: nothing here changes a
//! byte of the program; the map's lines are sorted by address; every translated
//! instruction with code appears in the pc map, in address order.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::analysis::callgraph::{RegSet, Summary};
use crate::emit::image::Image;
use crate::frames::frame_plan::FramePlan;
use crate::input::flow::Flow;
use crate::input::program::AvrProgram;
use crate::lower::codegen::Code;
use crate::lower::insn_label;
use crate::mmap::{CODE_START, LOAD_ADDR};
use crate::runtime::interp;
use crate::{Stats, Translation};
use mos_asm::link::Owner;

/// What the analyses tell the description of a translation.
#[derive(Debug, Clone, Copy)]
pub struct Analysed<'a> {
    /// The call graph's summaries (the listing's reasons per function).
    pub summaries: &'a [Summary],
    /// The registers live before each instruction under the calling convention
    /// ([`crate::mos_rewrites::dead_stores::abi_liveness`]), which the dead stores read: a
    /// register dead there may hold anything, and the lockstep does not compare it.
    pub abi_live_in: &'a [crate::analysis::callgraph::RegSet],
}

/// Renders the translation's map, listing and statistics around its image.
pub fn translation(
    prog: &AvrProgram,
    flow: &Flow,
    analysed: Analysed,
    plan: &FramePlan,
    code: &Code,
    image: Image,
    far: bool,
) -> Translation {
    let chunks = &code.chunks;
    let placed = &image.placed;
    let mut symbols = Vec::new();
    for (ci, c) in chunks.iter().enumerate() {
        if let Owner::Runtime(name) = &c.owner {
            symbols.push((name.clone(), placed.spans[ci].0));
        }
    }
    for f in &prog.functions {
        if let Some(&i) = flow.index.get(&f.addr)
            && let Some(&at) = placed.labels.get(&insn_label(i))
        {
            symbols.push((f.name.clone(), at));
        }
    }
    for r in crate::runtime::Routine::INNER {
        if let Some(&at) = placed.labels.get(&r.label()) {
            symbols.push((r.name(), at));
        }
    }
    if let Some(&at) = placed.labels.get(&interp::NEXT) {
        symbols.push(("rt_interp_next".into(), at));
    }
    let notes = function_notes(prog, flow, analysed.summaries, plan);
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
            && code.interp_chunks.contains(&i)
        {
            interpreted_bytes += usize::from(len);
            code_bytes += usize::from(len);
            pc_map.push((start, flow.addrs[i]));
            let f = flow.func_of[i].map_or("?", |f| prog.functions[f].name.as_str());
            match placed.labels.get(&interp::copy_label(flow.func_of[i].unwrap_or(0))).filter(|_| far) {
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
                // Outlined subroutines are the functions' code, not the runtime's.
                if crate::mos_rewrites::outline::is_outlined(&c.owner) {
                    code_bytes += usize::from(len);
                } else {
                    runtime_bytes += usize::from(len);
                }
                let _ = writeln!(listing, "{name}:  ${start:04x}  {len} bytes");
            }
            Owner::Insn(i) => {
                code_bytes += usize::from(len);
                let a = flow.addrs[i];
                if len > 0 {
                    pc_map.push((start, a));
                }
                if let Some(&f) = flow.func_starts.get(&a) {
                    let _ = writeln!(listing, "\n{}:", prog.functions[f].name);
                    if let Some(why) = notes.get(&f) {
                        let _ = writeln!(listing, "  ; {why}");
                    }
                }
                let loc = prog.locate(a);
                let avr: Vec<String> = prog.text[a as usize..a as usize + usize::from(flow.insns[i].len)]
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect();
                let _ = writeln!(
                    listing,
                    "  +{:<5x} {a:05x}  {:<11}  {:<26} ${start:04x}  {:>3}c  {}",
                    loc.offset,
                    avr.join(" "),
                    crate::emit::symbolic::shown(prog, a, &flow.insns[i]),
                    cycles,
                    bytes.join(" ")
                );
            }
        }
    }
    let bss_len = prog.bss_len + plan.frames_len;
    let stats = Stats {
        avr_insns: flow.insns.len(),
        avr_bytes: prog.text.len(),
        code_bytes,
        runtime_bytes,
        data_bytes: image.data.len(),
        bss_bytes: bss_len as usize,
        end_addr: image.end,
        limit: image.limit,
        interpreted_bytes,
        interpreter_bytes,
        bank1_bytes: image.bank1_image.len(),
    };
    let save_area = code.save_area.and_then(|n| Some((*placed.labels.get(&crate::runtime::Routine::Save.label())?, n)));
    let map = symbol_map(prog, plan, &image, &symbols, &stats, save_area);
    let symbolic = crate::emit::symbolic::render(
        chunks,
        &crate::emit::symbolic::Source {
            prog,
            addrs: &flow.addrs,
            insns: &flow.insns,
            spans: &placed.spans,
            notes: &notes,
        },
    );
    // Where a copy's uses read its source pair, the copy's pair is not live, and where a
    // value passes in A after its store went ([`crate::mos_rewrites::dead_stores`]) the register's byte
    // is stale: the lockstep must not compare them.
    let elsewhere = crate::avr_rewrites::ptr_copies::elsewhere(&plan.copies);
    let saved = saves_in_transit(prog, flow);
    let live_in = flow
        .addrs
        .iter()
        .zip(plan.saves.live.live_in.iter().zip(analysed.abi_live_in))
        .zip(elsewhere.iter().zip(&code.stale))
        .zip(&saved)
        .map(|(((&a, (&l, &abi)), (&gone, &stale)), &saved)| (a, l & abi & !gone & !stale & !saved))
        .collect();
    Translation {
        prg: image.prg,
        bank1: image.bank1,
        map,
        listing,
        stats,
        pc_map,
        symbols,
        relocated_text: image.relocated_text,
        symbolic,
        live_in,
    }
}

/// The callee-saved registers a function's saves hold in transit, per instruction: from
/// the function's start to the push that saves each one, and from the pop that restores
/// it to the `ret` after. A save reads a register only to give it back, and what the
/// caller left in it may be a value the caller no longer needs, whose store
/// [`crate::mos_rewrites::dead_stores`] left out (the calling convention's liveness does
/// not count a save as a read): the two sides may differ there, harmlessly, and the
/// lockstep comparison leaves them out. Where the caller does need one, it is compared
/// in the caller after the call.
fn saves_in_transit(prog: &AvrProgram, flow: &Flow) -> Vec<u32> {
    use crate::input::decode::Op;
    let mut out = vec![0u32; flow.insns.len()];
    let bodies = crate::analysis::liveness::bodies(&flow.insns, &flow.func_of, prog.functions.len());
    for (range, &body) in flow.ranges.iter().zip(&bodies) {
        let body = body.clamp(range.start, range.end);
        let mut saved = 0u32;
        for i in range.start..body {
            if flow.insns[i].op == Op::Push {
                saved |= 1 << flow.insns[i].d;
                for held in &mut out[range.start..=i] {
                    *held |= 1 << flow.insns[i].d;
                }
            }
        }
        for r in (body..range.end).filter(|&r| flow.insns[r].op == Op::Ret) {
            let mut p = r;
            while p > body && flow.insns[p - 1].op == Op::Pop && saved & (1 << flow.insns[p - 1].d) != 0 {
                p -= 1;
                for held in &mut out[p + 1..=r] {
                    *held |= 1 << flow.insns[p].d;
                }
            }
        }
    }
    out
}

/// The map: every symbol by address, then the data, `.bss`, frames, the save area (when
/// it is not in the file) and stack.
fn symbol_map(
    prog: &AvrProgram,
    plan: &FramePlan,
    image: &Image,
    symbols: &[(String, u16)],
    stats: &Stats,
    save_area: Option<(u16, u16)>,
) -> String {
    let (data_addr, bss_addr, end) = (image.data_addr, image.bss_addr, image.end);
    let (stack_top, avr_stack_top, stack_bottom) =
        (plan.frames.stack_top, plan.frames.avr_stack_top, plan.frames.stack_bottom);
    let frames_len = plan.frames_len;
    let mut map = String::new();
    let _ = writeln!(map, "# avr2mos symbol map (6502 addresses)");
    let _ = writeln!(map, "{LOAD_ADDR:04x} basic_stub");
    let mut sorted = symbols.to_vec();
    sorted.sort_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)));
    for (n, a) in &sorted {
        let _ = writeln!(map, "{a:04x} {n}");
    }
    let _ =
        writeln!(map, "{data_addr:04x} data ({} bytes, AVR data address {:#06x})", image.data.len(), prog.data_base);
    let _ = writeln!(map, "{bss_addr:04x} bss ({} bytes)", prog.bss_len);
    if frames_len > 0 {
        let _ = writeln!(
            map,
            "{:04x} static frames ({frames_len} bytes, overlaid along the call graph; {} one after another)",
            bss_addr + prog.bss_len,
            plan.frames.unshared
        );
    }
    if let Some((at, n)) = save_area {
        let _ = writeln!(map, "{at:04x} rt_save, the start-up's save area ({n} bytes, not in the file)");
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
    map
}

/// The lines under each function's name in the listing: its frame, why it is not
/// optimised across functions, its saves.
fn function_notes(prog: &AvrProgram, flow: &Flow, summaries: &[Summary], plan: &FramePlan) -> HashMap<usize, String> {
    summaries
        .iter()
        .enumerate()
        .filter_map(|(f, s)| {
            let mut lines: Vec<String> = match plan.frames.each[f] {
                Some(ref fr) if plan.frames.on_top.contains(&f) => {
                    vec![format!(
                        "static frame: {} bytes at the top of the AVR stack, slots at fixed addresses",
                        fr.size
                    )]
                }
                Some(ref fr) => {
                    let how = match &plan.frames.slot_actions[f] {
                        Ok(_) => ", slots at fixed addresses".to_string(),
                        Err(why) => format!(", reached through Y ({why})"),
                    };
                    vec![format!("static frame: {} bytes at frames+{}{how}", fr.size, fr.offset)]
                }
                None if !s.safe() => vec![format!("not optimised across functions: {}", s.why())],
                None => vec![],
            };
            lines.extend(save_notes(prog, &flow.addrs, &plan.saves.plans[f]));
            lines.extend(zero_page_note(flow, plan, f));
            (!lines.is_empty()).then(|| (f, lines.join("\n  ; ")))
        })
        .collect()
}

/// The listing's line on the slots of function `f` that live in zero page
/// ([`crate::frames::zp_slots`]): each slot, its home and how many instructions reach it.
fn zero_page_note(flow: &Flow, plan: &FramePlan, f: usize) -> Option<String> {
    use crate::frames::zp_slots::Slot;
    let homes: Vec<String> = plan
        .zp_homes
        .homes
        .iter()
        .filter(|h| h.func == f)
        .map(|h| {
            let what = match h.slot {
                Slot::Frame { offset, .. } => format!("frame+{offset}"),
                Slot::Save(addr) => {
                    let reg =
                        flow.ranges[f].clone().find(|&i| plan.saves.slot_of[i] == Some(addr)).map(|i| flow.insns[i].d);
                    reg.map_or_else(|| "a save".into(), |r| format!("r{r}'s save"))
                }
            };
            format!("{what} at ${:02x} ({} accesses)", h.zp, h.uses)
        })
        .collect();
    (!homes.is_empty()).then(|| format!("in zero page: {}", homes.join(", ")))
}

/// The listing's lines on a function's saves: which went, and why the others stayed.
fn save_notes(prog: &AvrProgram, addrs: &[u32], plan: &crate::frames::saves::Plan) -> Vec<String> {
    use crate::frames::saves::Kept;
    let mut lines = Vec::new();
    if plan.dropped != 0 {
        lines.push(format!("saves left out: {} (no caller reads them after the call)", reg_list(plan.dropped)));
    }
    if plan.in_slots != 0 {
        lines.push(format!("saves in static slots: {} (never active twice)", reg_list(plan.in_slots)));
    }
    if plan.sunk != 0 {
        lines.push(format!("saves moved to the paths that write them: {}", reg_list(plan.sunk)));
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
