//! Code generation: the runtime routines, the interpreter and its stubs, and every AVR
//! instruction lowered, as chunks of symbolic 6502 code ready for [`mos_asm::link`].
//!
//! Assumes the settings were checked (a bank-1 file only in the all-RAM mode and with
//! interpreted functions) and the lowering's context ([`Ctx`]) planned. Guarantees: one
//! chunk per AVR instruction, in order, each opening with the instruction's label (an
//! instruction folded into the one before it gets an empty chunk with its label); an
//! interpreted function is one chunk, its stub, under its first instruction's label;
//! runtime routines that nothing calls are left out; the bank-1 copies fit below
//! [`BANK1_END`]; at the optimising level, subroutines outlined from cold code
//! ([`crate::mos_rewrites::outline`]) follow the instructions' chunks.

use crate::error::TranslateError;
use crate::lower::{Ctx, insn_label, save_copy};
use crate::mmap::{BANK1_END, BANK1_START};
use crate::runtime::interp;
use crate::runtime::{self, Routine};
use crate::{OptLevel, Options};
use mos_asm::asm::Locals;
use mos_asm::asm::{Item, Label, Part, Sym};
use mos_asm::link::{Chunk, Owner};

/// The generated code.
pub struct Code {
    /// The chunks: runtime routines, the interpreter, then the program's instructions.
    pub chunks: Vec<Chunk>,
    /// Operands of the interpreter's tables and of the interpreted copies, resolved once
    /// everything is placed.
    pub patches: Vec<interp::Patch>,
    /// The first instruction of each interpreted function.
    pub interp_chunks: Vec<usize>,
    /// The interpreted copies that go to bank 1: each one's label and bytes, one after
    /// another from [`BANK1_START`].
    pub far_copies: Vec<(Label, Vec<u8>)>,
    /// The bytes of the start-up's save area when it goes after `.bss` and the frames,
    /// not in the program's file (codegen takes it out of the code).
    pub save_area: Option<u16>,
    /// The registers whose zero-page byte does not hold the AVR's value at the start of
    /// each instruction, though they are live there: the value passes in A
    /// ([`crate::mos_rewrites::dead_stores::run`]).
    pub stale: Vec<crate::analysis::callgraph::RegSet>,
}

/// Generates the code of the program `ctx` describes, starting at instruction `entry`;
/// the start-up code sets the AVR stack to `stack_top`. Repeated runs of code that is not
/// hot ([`Ctx::heat`]) are outlined; [`crate::mos_rewrites::dead_stores`] reads the
/// registers live after each instruction in [`Ctx::live_abi`].
pub fn generate(ctx: &Ctx, opts: &Options, entry: usize, stack_top: u16) -> Result<Code, TranslateError> {
    let insns = ctx.insns;
    // The registers live where each chunk's code leaves, by the chunk's last instruction:
    // after it, or for instructions lowered as one chunk, at every instruction outside
    // them that theirs go to (`brne .+2; rjmp far` leaves to both; a variable shift's loop
    // leaves only by falling into the next instruction, where its count is dead).
    let mut live = ctx.live_abi.live_out.clone();
    let place = match opts.bank1 {
        Some(_) => interp::CopyPlace::Bank1 { home: opts.memory.mmu_config() },
        None => interp::CopyPlace::Inline,
    };
    let mut far_copies: Vec<(Label, Vec<u8>)> = Vec::new();
    let mut far_at = u32::from(BANK1_START);

    let mut chunks = Vec::new();
    let mut loc = Locals::default();
    for (routine, mut a) in runtime::emit(
        insn_label(entry),
        &mut loc,
        opts.memory,
        opts.bank1.as_deref(),
        stack_top,
        ctx.zp_homes.end(),
        opts.key_buffer,
        opts.fastload,
        opts.packer,
        crate::runtime::divide::SmallDivisors {
            narrow: ctx.divisors_all_small(false),
            wide: ctx.divisors_all_small(true),
        },
    ) {
        a.items.insert(0, Item::Label(routine.label()));
        chunks.push(Chunk { owner: Owner::Runtime(routine.name()), items: a.items });
    }
    let mut patches = Vec::new();
    let mut interp_uses = Vec::new();
    let mut interp_chunks = Vec::new();
    if ctx.interp.iter().any(|&b| b) {
        let (a, p) = interp::emit(&mut loc, place);
        chunks.push(Chunk { owner: Owner::Runtime("rt_interp".into()), items: a.items });
        patches.extend(p);
    }
    let mut i = 0;
    let mut cpu_carry = false;
    // The instructions whose code is in the chunk of the one before.
    let mut folded = vec![false; insns.len()];
    // The registers each instruction's chunk restores for a save moved off the prologue.
    let pinned: Vec<crate::analysis::callgraph::RegSet> =
        ctx.saves.sunk.iter().map(|cs| cs.iter().filter(|c| !c.save).fold(0, |acc, c| acc | 1 << c.reg)).collect();
    while i < insns.len() {
        if let Some(f) = ctx.flow.func_of[i]
            && ctx.interp[f]
        {
            // The whole function: a stub, then its AVR bytes for the interpreter.
            let end = (i..insns.len()).find(|&j| ctx.flow.func_of[j] != Some(f)).unwrap_or(insns.len());
            let copy = interp::copy_function(ctx, f, i, end)?;
            interp_chunks.push(i);
            let jsr = Item::Ins(mos_asm::asm::op::JSR, mos_asm::asm::Arg::Sym(Sym::Code(interp::ENTER), Part::Word, 0));
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
        let last = i + lowered.consumed;
        if lowered.consumed > 0 {
            live[last] = live_on_leaving(ctx, i, last);
        }
        let (before, after): (Vec<_>, Vec<_>) =
            ctx.saves.sunk[i].iter().partition(|c| c.place == crate::frames::sink_saves::Place::Before);
        // Both the saves moved and the lowering keep to crate::analysis::fusion's map.
        debug_assert!(
            (i + 1..=i + lowered.consumed).all(|m| ctx.saves.sunk[m].is_empty())
                && (lowered.consumed == 0 || after.is_empty()),
            "a moved save inside the sequence fused at instruction {i}"
        );
        let mut items = vec![Item::Label(insn_label(i))];
        items.extend(
            before
                .into_iter()
                .flat_map(|c: &crate::frames::sink_saves::Copy| save_copy(ctx.zp_homes, c.slot, c.reg, c.save)),
        );
        items.extend(lowered.asm.items);
        items.extend(
            after
                .into_iter()
                .flat_map(|c: &crate::frames::sink_saves::Copy| save_copy(ctx.zp_homes, c.slot, c.reg, c.save)),
        );
        if ctx.optimise {
            crate::mos_rewrites::dead_stores::prune(&mut items, live[last], pinned[i]);
        }
        chunks.push(Chunk { owner: Owner::Insn(i), items });
        for f in 1..=lowered.consumed {
            folded[i + f] = true;
            chunks.push(Chunk { owner: Owner::Insn(i + f), items: vec![Item::Label(insn_label(i + f))] });
        }
        cpu_carry = lowered.carry_out;
        i += 1 + lowered.consumed;
    }

    drop_unused_routines(&mut chunks, &interp_uses);
    let save_area = if opts.stack.is_none() && opts.bank1.is_none() { save_area_apart(&mut chunks) } else { None };
    let mut stale = vec![0; insns.len()];
    if opts.opt_level == OptLevel::Full {
        let stores = crate::mos_rewrites::dead_stores::stores(&chunks);
        let joins = joins(&chunks, &ctx.flow.is_target);
        crate::mos_rewrites::peephole::run(&mut chunks, &joins);
        crate::mos_rewrites::joins::run(&mut chunks, &ctx.flow.entries);
        crate::mos_rewrites::nz_reuse::run(&mut chunks, &joins);
        let hidden_reads: Vec<crate::analysis::callgraph::RegSet> = (0..insns.len())
            .map(|i| match ctx.copies[i] {
                crate::avr_rewrites::ptr_copies::Copy::Drop { .. } => 0b11 << insns[i].r,
                _ => 0,
            })
            .collect();
        let facts = crate::mos_rewrites::dead_stores::Facts {
            live: &live,
            folded: &folded,
            is_target: &ctx.flow.is_target,
            pinned: &pinned,
            hidden_reads: &hidden_reads,
        };
        stale = crate::mos_rewrites::dead_stores::run(&mut chunks, &facts, &stores);
        crate::mos_rewrites::dead_loads::run(&mut chunks);
        crate::mos_rewrites::tail_calls::run(&mut chunks, &joins);
        crate::mos_rewrites::outline::run(&mut chunks, ctx.heat, &joins);
        crate::mos_rewrites::branch_chain::run(&mut chunks);
        // An argument copy that only fed a multiply made inline left no code: its pair
        // holds the old value up to the call.
        for i in 0..insns.len() {
            if let Some(call) = ctx.feeds_inline_multiply(i) {
                for held in &mut stale[i + 1..=call] {
                    *held |= 0b11 << insns[i].d;
                }
            }
        }
    }
    Ok(Code { chunks, patches, interp_chunks, far_copies, save_area, stale })
}

/// The registers live where the code of instructions `first..=last`, lowered as one chunk,
/// leaves it: live at each instruction outside them that one of them goes to. Where one of
/// them calls, returns or jumps through a pointer, those live after any of them.
fn live_on_leaving(ctx: &Ctx, first: usize, last: usize) -> crate::analysis::callgraph::RegSet {
    use crate::input::decode::Op;
    let group = first..=last;
    let plain = group.clone().all(|m| {
        let op = ctx.insns[m].op;
        let direct_jump = matches!(op, Op::Jmp | Op::Rjmp);
        (direct_jump || !crate::lower::transfers_control(op)) && !ctx.flow.succs[m].is_empty()
    });
    let live = ctx.live_abi;
    match plain {
        true => group
            .clone()
            .flat_map(|m| ctx.flow.succs[m].iter().copied())
            .filter(|t| !group.contains(t))
            .fold(0, |acc, t| acc | live.live_in[t]),
        false => group.fold(0, |acc, m| acc | live.live_out[m]),
    }
}

/// The AVR instructions whose code can be entered other than by falling in from the code
/// before it: the AVR's own jump targets, and every instruction the 6502 code branches or
/// jumps to. A fused sequence may branch to an instruction no AVR instruction reaches (an
/// equality compare chain leaves at the first difference for the instruction after its
/// branch): the passes that carry what A holds from one instruction's code into the next
/// must not carry it there (`cp r12, r14; cpc r13, r15; breq; mov r24, r13` left the
/// `mov` as `STA r24`, with r12 in A on the early way in: fuzzer seed 0x75bcd76).
fn joins(chunks: &[Chunk], is_target: &[bool]) -> Vec<bool> {
    let mut out = is_target.to_vec();
    for it in chunks.iter().flat_map(|c| &c.items) {
        let l = match it {
            Item::Branch(_, l) | Item::Ins(_, mos_asm::asm::Arg::Sym(Sym::Code(l), _, _)) => l,
            _ => continue,
        };
        if let Some(t) = out.get_mut(l.0 as usize) {
            *t = true;
        }
    }
    out
}

/// Takes the start-up's save area (BASIC's zero page while the program runs: bytes that
/// start as nothing) out of the code, and gives its size: [`crate::emit::image`] places it after
/// `.bss` and the frames, so the file does not carry it. Not under a high stack, where
/// `.bss` and the frames may have the low area and the room after the image is the
/// stack's; nor with a bank-1 file: the unpacker reads the loaded file's end from the save
/// area with bank 1 mapped ([`c128_loader::unpack`]), and only the bottom 16 KB, where the area
/// is as code, is the same RAM in both banks (after `.bss` it read bank 1's bytes, a
/// garbage trailer, and the start-up never finished: the hang of `harness -- bank1::`).
fn save_area_apart(chunks: &mut Vec<Chunk>) -> Option<u16> {
    let at = chunks.iter().position(|c| c.items.first() == Some(&Item::Label(Routine::Save.label())))?;
    let len = chunks[at].items.iter().map(|it| if let Item::Bytes(b) = it { b.len() } else { 0 }).sum::<usize>();
    chunks.remove(at);
    Some(len as u16)
}

/// Leaves out runtime routines that nothing calls (the wide multiplies are large and
/// most programs never use them).
fn drop_unused_routines(chunks: &mut Vec<Chunk>, extra: &[mos_asm::asm::Label]) {
    use mos_asm::asm::{Arg, Label, Sym};
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
    // Every label a routine's chunk defines: a routine may have a second entry inside
    // ([`Routine::INNER`]), and its local labels are used nowhere else.
    let own = |c: &Chunk| -> Vec<Label> {
        c.items
            .iter()
            .filter_map(|it| match it {
                Item::Label(l) => Some(*l),
                _ => None,
            })
            .collect()
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
            if own(c).iter().any(|l| used.contains(l)) {
                used.extend(uses(c));
            }
        }
        if used.len() == before {
            break;
        }
    }
    chunks.retain(|c| matches!(c.owner, Owner::Insn(_)) || own(c).iter().any(|l| used.contains(l)));
}
