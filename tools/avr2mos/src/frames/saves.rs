//! Saving only what a caller needs: a function's prologue pushes the callee-saved registers
//! it writes and its epilogues pop them back, as the AVR calling convention asks; when no
//! caller reads such a register after the call, the push and every pop of it go.
//!
//! A register r must be kept across a call of f from g when r is live after that call
//! ([`crate::analysis::liveness`], with g's returns reading only r1 and the return registers), or when
//! g does not keep r itself and r must be kept across calls of g (the caller of g may read
//! it). A tail call (`jmp f` after g's epilogue) passes everything g's callers need on to
//! f. This is a fixed point over the call graph: the sets only grow.
//!
//! Assumes the call graph of [`crate::analysis::callgraph`] and liveness computed with the exits of
//! [`exits`]. A call from an interpreted function counts like any other: the interpreter
//! runs the same AVR instructions and keeps its own state outside the registers
//! ([`crate::runtime::interp`]), so the liveness of its code holds. A function is vouched for (its saves may go) when the call graph has no
//! reason against it but that it is the program's entry (the start-up code reads no
//! register after it but r24) or that it reads SP for a static frame ([`crate::frames::static_frames`]:
//! its Y slots are all inside the frame, so no stack argument moves with fewer pushes),
//! no code falls or jumps into it but calls and tail calls of its start, and it falls or
//! jumps into no other function. A register's save goes only when the prologue's push is the only push of it in
//! the function and every pop of it is in an epilogue (followed by nothing but pops up to
//! a `ret` or a tail call): then the remaining pushes and pops still pair up, and the
//! frame and anything pushed later sit where they did relative to SP.
//!
//! A save that stays goes to a static slot instead of the AVR stack when the function
//! cannot be active twice (the conditions of [`crate::frames::static_frames`]), with the same conditions
//! on its pushes and pops.
//!
//! Guarantees: for each function, the set of prologue pushes (and matching epilogue pops)
//! that may be left out, and of those that stay the ones that may use a static slot, such that every caller still finds in every register it reads
//! after a call the value it had before; and for the listing, why each other save stayed.

use crate::analysis::callgraph::{Reason, RegSet, Summary};
use crate::analysis::liveness::{CALLEE_SAVED, Callee, RETURNS, ZERO_REG};
use crate::input::decode::{Insn, Op};

/// Why a callee-saved register's save stayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kept {
    /// It is live after the call at this instruction.
    LiveAfter(usize),
    /// The callers of this function need it, and the function does not keep it itself.
    Through(usize),
    /// It is pushed or popped elsewhere than in the prologue and the epilogues.
    Shape,
    /// It could go, but it lies in a gap of one or two registers between saves that stay:
    /// leaving it out would split one run of pushes (one `rt_pushrun` call) in two, which
    /// costs 7 bytes in the prologue and in each epilogue and about as many cycles as the
    /// two registers' 17 each.
    Bridge,
}

/// The registers of `free` that lie in gaps of at most two registers between registers
/// of `kept`.
pub fn bridges(kept: RegSet, free: RegSet) -> RegSet {
    let mut out = 0;
    for lo in 0..32u32 {
        if kept & (1 << lo) == 0 {
            continue;
        }
        for len in 1..=2u32 {
            let hi = lo + len + 1;
            if hi >= 32 || kept & (1 << hi) == 0 {
                continue;
            }
            let gap = ((1u32 << len) - 1) << (lo + 1);
            if free & gap == gap {
                out |= gap;
            }
        }
    }
    out
}

/// The plan for one function.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// Whether the function is vouched for (see the module doc).
    pub vouched: bool,
    /// The registers whose saves go.
    pub dropped: RegSet,
    /// The callee-saved registers its prologue saves that stay, each with why.
    pub kept: Vec<(u8, Kept)>,
    /// Of those, the ones saved in static slots (the function cannot be active twice): a
    /// load and a store each way (7 cycles) instead of `rt_pushrun`'s 17 a register.
    pub in_slots: RegSet,
    /// Of those, the ones whose save and restore moved off the paths that never write
    /// them ([`crate::frames::sink_saves`]).
    pub sunk: RegSet,
}

/// What the pass needs to know about the program.
#[derive(Debug)]
pub struct Program<'a> {
    /// The instructions.
    pub insns: &'a [Insn],
    /// Each function's instructions.
    pub ranges: &'a [std::ops::Range<usize>],
    /// The call graph's summaries.
    pub sums: &'a [Summary],
    /// Which functions have a static frame.
    pub static_frame: &'a [bool],
    /// Which functions read SP themselves (not only keep the stack footprint for the
    /// lockstep setting).
    pub reads_sp: &'a [bool],
    /// What each instruction calls.
    pub callees: &'a [Callee],
    /// Each instruction's successors inside its function (as [`crate::analysis::liveness`] has
    /// them).
    pub succs: &'a [Vec<usize>],
    /// Each instruction's function.
    pub func_of: &'a [Option<usize>],
    /// Which functions can never be active twice (as for [`crate::frames::static_frames`]): their saves
    /// may go to static slots.
    pub once: &'a [bool],
}

/// Whether function `f` is vouched for (see the module doc).
pub fn vouched(p: &Program, f: usize) -> bool {
    let s = &p.sums[f];
    let reasons_ok = s.reasons.iter().all(|r| match r {
        Reason::Entry => true,
        Reason::ReadsSp => p.static_frame[f] || !p.reads_sp[f],
        _ => false,
    });
    if !reasons_ok || p.ranges[f].is_empty() {
        return false;
    }
    // No edge but calls and tail calls (which are not successors) enters or leaves it; the
    // fall-through after a call at a function's end (a call that does not return) counts
    // as none.
    let inside = |i: usize| p.func_of[i] == Some(f);
    !p.succs.iter().enumerate().any(|(i, succs)| {
        let call = matches!(p.insns[i].op, Op::Call | Op::Rcall | Op::Icall | Op::Eicall);
        !call && succs.iter().any(|&t| inside(t) != inside(i))
    })
}

/// The registers whose prologue push is the only push of them in `range`, whose every
/// pop there is in an epilogue, and which every epilogue pops. A jump ends an epilogue
/// only when it leaves the function (a tail call, `callees` says): a pop before a jump
/// inside the function restores something else, such as a push in the body (the
/// fuzzer's seed 0xbac0139 at opt-level 1). A leading push that no epilogue pops is no
/// save: the body pops it into another register (seed 0xbac0180). Nor is a second push of
/// a register in the leading run: the body's first instruction may be a push (seed
/// 0xf4492: `push r5; push r13; push r13; pop r5`).
fn droppable(insns: &[Insn], callees: &[Callee], range: std::ops::Range<usize>, saves: RegSet) -> RegSet {
    let mut ok = saves & CALLEE_SAVED;
    let body = (range.clone()).find(|&i| insns[i].op != Op::Push).unwrap_or(range.end);
    let exit = |n: usize| match insns[n].op {
        Op::Ret => true,
        Op::Jmp | Op::Rjmp => callees[n] != Callee::None,
        _ => false,
    };
    let mut pushed: RegSet = 0;
    for i in range.clone() {
        let insn = &insns[i];
        match insn.op {
            Op::Push if i >= body || pushed & (1 << insn.d) != 0 => ok &= !(1 << insn.d),
            Op::Push => pushed |= 1 << insn.d,
            Op::Pop => {
                let rest = (i + 1..range.end).find(|&n| insns[n].op != Op::Pop);
                if !rest.is_some_and(exit) {
                    ok &= !(1 << insn.d);
                }
            }
            _ if exit(i) => {
                let popped = insns[range.start..i].iter().rev().take_while(|n| n.op == Op::Pop);
                ok &= popped.fold(0, |acc, n| acc | 1 << n.d);
            }
            _ => {}
        }
    }
    ok
}

/// Registers live at each function's returns for the liveness this pass reads: r1 and the
/// return registers for a vouched function (what its callers need beyond them is worked
/// out here), every callee-saved register too for the others.
pub fn exits(vouched: &[bool]) -> Vec<RegSet> {
    vouched.iter().map(|&v| if v { ZERO_REG | RETURNS } else { ZERO_REG | RETURNS | CALLEE_SAVED }).collect()
}

/// Records `reason` for the registers of `set` that have none yet.
fn note(why: &mut [Option<Kept>; 32], set: RegSet, reason: Kept) {
    for (r, w) in why.iter_mut().enumerate() {
        if set & (1 << r) != 0 && w.is_none() {
            *w = Some(reason);
        }
    }
}

/// Plans every function's saves. `vouched` comes from [`vouched`], `live_out` from the
/// liveness computed with [`exits`] of it.
pub fn plan(p: &Program, vouched: &[bool], live_out: &[RegSet]) -> Vec<Plan> {
    let n = p.sums.len();
    // need[f]: the callee-saved registers calls of f must keep, with the first reason.
    let mut need: Vec<RegSet> = (0..n).map(|f| if vouched[f] { 0 } else { CALLEE_SAVED }).collect();
    let mut why: Vec<[Option<Kept>; 32]> = vec![[None; 32]; n];
    loop {
        let mut changed = false;
        for (i, c) in p.callees.iter().enumerate() {
            let Callee::Function { f, tail } = *c else { continue };
            if !vouched[f] {
                continue;
            }
            let (add, reason) = match p.func_of[i] {
                None => (CALLEE_SAVED, Kept::LiveAfter(i)),
                Some(g) if tail => (need[g], Kept::Through(g)),
                Some(g) => {
                    let live = live_out[i] & CALLEE_SAVED;
                    let through = need[g] & !p.sums[g].saves & !live;
                    note(&mut why[f], through, Kept::Through(g));
                    (live | through, Kept::LiveAfter(i))
                }
            };
            let new = add & !need[f];
            if new != 0 {
                note(&mut why[f], new, reason);
                need[f] |= new;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    (0..n)
        .map(|f| {
            let saves = p.sums[f].saves & CALLEE_SAVED;
            if !vouched[f] {
                return Plan::default();
            }
            let shape_ok = droppable(p.insns, p.callees, p.ranges[f].clone(), saves);
            let free = saves & shape_ok & !need[f];
            let in_slots = if p.once[f] { saves & shape_ok & need[f] } else { 0 };
            let bridged = if in_slots != 0 { 0 } else { bridges(saves & !free, free) };
            let dropped = free & !bridged;
            let kept = (0..32u8)
                .filter(|&r| (saves & !dropped) & (1 << r) != 0)
                .map(|r| {
                    let bit = 1 << r;
                    let reason = if bridged & bit != 0 {
                        Kept::Bridge
                    } else if need[f] & bit != 0 {
                        why[f][usize::from(r)].unwrap_or(Kept::Shape)
                    } else {
                        Kept::Shape
                    };
                    (r, reason)
                })
                .collect();
            Plan { vouched: true, dropped, kept, in_slots, sunk: 0 }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::decode::decode_words as insns;

    #[test]
    fn gaps_of_one_or_two_between_kept_saves_are_bridged() {
        let kept = 0b1111 << 4 | 0b1111 << 10;
        assert_eq!(bridges(kept, 0b11 << 8 | 0b11 << 2), 0b11 << 8, "r8, r9 between; r2, r3 at the edge");
        assert_eq!(bridges(1 << 4 | 1 << 8, 0b111 << 5), 0, "a gap of three is worth a second run");
        assert_eq!(bridges(1 << 4 | 1 << 7, 1 << 5), 0, "r6 is no save: two runs anyway");
    }

    #[test]
    fn only_prologue_pushes_with_epilogue_pops_may_go() {
        // push r16; push r17; ldi r16, 1; push r17; pop r17; pop r17; pop r16; ret
        let none = [Callee::None; 8];
        let code = insns(&[0x930F, 0x931F, 0xE001, 0x931F, 0x911F, 0x911F, 0x910F, 0x9508]);
        let saves = 1 << 16 | 1 << 17;
        assert_eq!(droppable(&code, &none, 0..code.len(), saves), 1 << 16, "r17 is pushed and popped in the body");
        // push r16; ldi r16, 1; pop r16; inc r24; ret: the pop is not in an epilogue.
        let code = insns(&[0x930F, 0xE001, 0x910F, 0x9583, 0x9508]);
        assert_eq!(droppable(&code, &none, 0..code.len(), 1 << 16), 0);
        // A tail call ends an epilogue too: push r16; ldi r16, 1; pop r16; rjmp .+0
        let code = insns(&[0x930F, 0xE001, 0x910F, 0xC000]);
        let mut tail = none;
        tail[3] = Callee::Function { f: 1, tail: true };
        assert_eq!(droppable(&code, &tail, 0..code.len(), 1 << 16), 1 << 16);
        // A jump inside the function does not: push r16; push r24; pop r16; rjmp .+0; pop r16;
        // ret (the fuzzer's seed 0xbac0139: the first pop is the body's, of r24's value).
        let code = insns(&[0x930F, 0x938F, 0x910F, 0xC000, 0x910F, 0x9508]);
        assert_eq!(droppable(&code, &none, 0..code.len(), 1 << 16), 0);
        // Nor a push the body repeats at its start: push r5; push r13; push r13; pop r5;
        // ldi r16, 1; pop r13; pop r5; ret (seed 0xf4492).
        let code = insns(&[0x925F, 0x92DF, 0x92DF, 0x905F, 0xE001, 0x90DF, 0x905F, 0x9508]);
        assert_eq!(droppable(&code, &none, 0..code.len(), 1 << 5 | 1 << 13), 0);
        // Nor is a push that no epilogue pops: push r12; pop r22; ret (seed 0xbac0180).
        let code = insns(&[0x92CF, 0x916F, 0x9508]);
        assert_eq!(droppable(&code, &none, 0..code.len(), 1 << 12), 0);
    }

    #[test]
    fn a_register_live_after_any_call_is_kept_and_passes_through_callers_that_do_not_save_it() {
        // f0: call f1; ret / f1: call f2; ret / f2: push r16; ldi r16, 1; pop r16; ret
        let code = insns(&[0x940E, 0x0003, 0x9508, 0x940E, 0x0006, 0x9508, 0x930F, 0xE001, 0x910F, 0x9508]);
        let ranges = [0..2, 2..4, 4..8];
        let func_of: Vec<Option<usize>> =
            (0..8).map(|i| Some(ranges.iter().position(|r| r.contains(&i)).unwrap())).collect();
        let succs: Vec<Vec<usize>> =
            (0..8).map(|i| if [1, 3, 7].contains(&i) { vec![] } else { vec![i + 1] }).collect();
        let mut callees = vec![Callee::None; 8];
        callees[0] = Callee::Function { f: 1, tail: false };
        callees[2] = Callee::Function { f: 2, tail: false };
        let mut sums = vec![Summary::default(); 3];
        sums[0].reasons.push(Reason::Entry);
        sums[2].saves = 1 << 16;
        let p = Program {
            insns: &code,
            ranges: &ranges,
            sums: &sums,
            static_frame: &[false; 3],
            reads_sp: &[false; 3],
            callees: &callees,
            succs: &succs,
            func_of: &func_of,
            once: &[false; 3],
        };
        let vouched: Vec<bool> = (0..3).map(|f| super::vouched(&p, f)).collect();
        assert_eq!(vouched, [true; 3]);
        let mut live_out = vec![ZERO_REG; 8];
        let plans = plan(&p, &vouched, &live_out);
        assert_eq!(plans[2].dropped, 1 << 16, "nobody reads r16 after a call");
        live_out[0] |= 1 << 16;
        let plans = plan(&p, &vouched, &live_out);
        assert_eq!(plans[2].dropped, 0);
        assert_eq!(plans[2].kept, vec![(16, Kept::Through(1))], "f0 reads it after f1, which does not save it");
        let mut taken = sums.clone();
        taken[1].reasons.push(Reason::AddressTaken);
        let p = Program { sums: &taken, ..p };
        assert!(!super::vouched(&p, 1), "called through a pointer: callers unknown");
    }
}
