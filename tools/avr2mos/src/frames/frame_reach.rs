//! How low the pointers into a static frame can reach: the frame's slots below that are
//! reached only by the function's own `ldd`/`std` through Y ([`crate::frames::frame_slots`]), so
//! [`crate::frames::zp_slots`] may give them a home elsewhere.
//!
//! A pointer into the frame (a copy of Y, [`Action::Pointer`]) points into some object of
//! the frame, and the code does not say where that object begins or ends. But if every use
//! of the pointer and of what is computed from it only goes up from where it points, no
//! byte below the lowest such pointer is ever read or written through one. [`floor`]
//! follows the copies of Y through the function, forward over its control flow, and
//! accepts as uses that only go up: copies (`movw`) and increments (`adiw`) of the pair,
//! loads and stores through it with a displacement or a post-increment, compares, and the
//! pointer arguments of the native `memcpy`, `memmove`, `memset`, `memcmp` and `bcmp`
//! ([`crate::runtime`]: they touch the bytes from the pointer up, and keep nothing).
//! Anything else that reads a register holding such a pointer (a call of a Rust function
//! that takes it as an argument, a store of the pointer itself, even to a slot of the
//! frame, arithmetic, a
//! pre-decrement, a return with it in a result register, a push) lets it escape, and then
//! nothing is known.
//!
//! Assumes the actions of a folded frame ([`crate::frames::frame_slots`], with
//! [`crate::frames::frame_steps`]): a pointer's offset already includes any constant step folded
//! into it, and dropped instructions do not run. A register stays "may hold a pointer"
//! until an instruction that is no call writes it (a call may leave it as it was), and
//! paths that meet join what each knows.
//!
//! Guarantees: [`floor`] returns `Some(o)` only if no code of the function, nor any
//! routine it hands a pointer to, reaches a byte of the frame below offset `o` through a
//! pointer; `None` if a pointer may escape.

use std::ops::Range;

use crate::analysis::callgraph::RegSet;
use crate::analysis::liveness::{Callee, RETURNS, defs_of, reads_of};
use crate::frames::frame_slots::{Action, Half};
use crate::input::decode::{Insn, Mode, Op, Ptr};

/// What [`floor`] needs of the program around one function.
pub struct Code<'a> {
    /// The instructions.
    pub insns: &'a [Insn],
    /// Each instruction's successors inside its function.
    pub succs: &'a [Vec<usize>],
    /// What each instruction calls.
    pub callees: &'a [Callee],
    /// Whether the call at an instruction is one of the native memory routines, which
    /// touch only the bytes from their pointer arguments up.
    pub mem_call: &'a dyn Fn(usize) -> bool,
    /// The registers each function reads before writing them ([`crate::analysis::liveness`]).
    pub args: &'a [RegSet],
}

/// The pair starting at register `r`.
fn pair(r: u8) -> RegSet {
    3 << r
}

/// The lowest frame offset a pointer into the frame of function `range` (its
/// instructions' `actions`) can reach, or `None` if one may escape. Without pointers,
/// `Some(u16::MAX)`.
pub fn floor(code: &Code, range: Range<usize>, actions: &[Action]) -> Option<u16> {
    let first = range.start;
    let mut low = u16::MAX;
    let mut at: Vec<Option<RegSet>> = vec![None; range.len()];
    let mut work = Vec::new();
    if !range.is_empty() {
        at[0] = Some(0);
        work.push(first);
    }
    while let Some(i) = work.pop() {
        let mut ptrs = at[i - first].expect("a visited instruction has a state");
        let insn = code.insns[i];
        match actions[i - first] {
            // A pointer stored in a slot of the frame would come back from it through a load
            // the walk does not follow.
            Action::Slot(_) if matches!(insn.op, Op::St(..)) && ptrs & (1 << insn.d) != 0 => return None,
            Action::Drop | Action::Slot(_) => {}
            // An offset past half the address space is the frame's start less something
            // (`movw r24, r28` before any step): below every slot.
            Action::Pointer(off, Half::Word) if off < 0x8000 => {
                low = low.min(off);
                ptrs |= pair(insn.d);
            }
            Action::Pointer(..) => return None,
            Action::Keep => ptrs = step(code, i, &insn, ptrs)?,
        }
        for &t in code.succs[i].iter().filter(|t| range.contains(t)) {
            let known = at[t - first].unwrap_or(0);
            if at[t - first].is_none() || known | ptrs != known {
                at[t - first] = Some(known | ptrs);
                work.push(t);
            }
        }
    }
    Some(low)
}

/// The registers that may hold a pointer after instruction `i`, given those before it, or
/// `None` if it lets one escape.
fn step(code: &Code, i: usize, insn: &Insn, ptrs: RegSet) -> Option<RegSet> {
    let reads = match code.callees[i] {
        Callee::None if matches!(insn.op, Op::Ret | Op::Reti) => RETURNS,
        Callee::None => reads_of(insn),
        // They touch the bytes from their pointer arguments up and keep nothing.
        Callee::Native { .. } if (code.mem_call)(i) => return Some(ptrs),
        Callee::Native { reads, .. } => reads,
        // A Rust function reads its arguments (and saves and restores what it keeps).
        Callee::Function { f, .. } => code.args[f],
        Callee::Indirect | Callee::Unknown => !0,
    };
    if reads & ptrs == 0 {
        let defs = if code.callees[i] == Callee::None { defs_of(insn) } else { 0 };
        return Some(ptrs & !defs);
    }
    match insn.op {
        Op::Movw if pair(insn.r) & ptrs == pair(insn.r) => Some(ptrs | pair(insn.d)),
        Op::Adiw if pair(insn.d) & ptrs == pair(insn.d) => Some(ptrs),
        Op::Cp | Op::Cpc | Op::Cpi | Op::Cpse => Some(ptrs),
        Op::Ld(p, mode) | Op::St(p, mode) if mode != Mode::PreDec && p != Ptr::Y => {
            let through = pair(p.reg());
            let stored = if matches!(insn.op, Op::St(..)) { 1 << insn.d } else { 0 };
            if (reads & !through) & ptrs != 0 || stored & ptrs != 0 {
                return None;
            }
            let loaded = if matches!(insn.op, Op::Ld(..)) { 1 << insn.d } else { 0 };
            Some(ptrs & !loaded)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::decode::decode_words as insns;

    /// Runs [`floor`] on straight-line code with a pointer `Pointer(off)` at instruction 0
    /// (its word is `movw r24, r28`); `natives` are the instructions that call a native
    /// routine reading r25:r22, `mem` whether those are memory routines, `rust` those that
    /// call function 0, which reads `args`.
    fn run(words: &[u16], off: u16, natives: &[usize], mem: bool, rust: &[usize], args: RegSet) -> Option<u16> {
        let code = insns(words);
        let n = code.len();
        let succs: Vec<Vec<usize>> = (0..n).map(|i| if i + 1 < n { vec![i + 1] } else { vec![] }).collect();
        let callees: Vec<Callee> = (0..n)
            .map(|i| match i {
                _ if natives.contains(&i) => Callee::Native { reads: 0xF << 22, writes: 0 },
                _ if rust.contains(&i) => Callee::Function { f: 0, tail: false },
                _ => Callee::None,
            })
            .collect();
        let mut actions = vec![Action::Keep; n];
        actions[0] = Action::Pointer(off, Half::Word);
        let mem_call = move |_: usize| mem;
        let c = Code { insns: &code, succs: &succs, callees: &callees, mem_call: &mem_call, args: &[args] };
        floor(&c, 0..n, &actions)
    }

    // movw r24, r28 (the pointer); movw r30, r24; adiw r30, 2; ldd r18, Z+3; st Z+, r18;
    // cp r30, r24; clr r24; clr r25; ret
    const UPWARD: [u16; 9] = [0x01CE, 0x01FC, 0x9632, 0x8123, 0x9321, 0x17E8, 0x2788, 0x2799, 0x9508];

    #[test]
    fn copies_increments_loads_stores_and_compares_go_only_up() {
        assert_eq!(run(&UPWARD, 15, &[], false, &[], 0), Some(15));
        let mut returned = UPWARD;
        returned[7] = 0x0000; // nop: r25 still holds half the pointer at the return
        assert_eq!(run(&returned, 15, &[], false, &[], 0), None, "the caller may read it");
    }

    #[test]
    fn a_pre_decrement_a_stored_pointer_or_arithmetic_lets_it_escape() {
        let mut down = UPWARD;
        down[4] = 0x9322; // st -Z, r18
        assert_eq!(run(&down, 15, &[], false, &[], 0), None);
        let mut stored = UPWARD;
        stored[4] = 0x9381; // st Z+, r24: the pointer's own byte goes to memory
        assert_eq!(run(&stored, 15, &[], false, &[], 0), None);
        let mut arithmetic = UPWARD;
        arithmetic[2] = 0x0FE2; // add r30, r18
        assert_eq!(run(&arithmetic, 15, &[], false, &[], 0), None);
        let mut back = UPWARD;
        back[2] = 0x9732; // sbiw r30, 2
        assert_eq!(run(&back, 15, &[], false, &[], 0), None);
    }

    #[test]
    fn a_pointer_stored_in_a_slot_of_the_frame_escapes() {
        // movw r24, r28 (the pointer); std Y+1, r24 (slot 0); ldd r30, Y+1; clr r24;
        // clr r25; ret. The load gives back a byte of the pointer, which the walk would not
        // follow from there.
        let words = [0x01CE, 0x8389, 0x81E9, 0x2788, 0x2799, 0x9508];
        let code = insns(&words);
        let n = code.len();
        let succs: Vec<Vec<usize>> = (0..n).map(|i| if i + 1 < n { vec![i + 1] } else { vec![] }).collect();
        let mut actions = vec![Action::Keep; n];
        actions[0] = Action::Pointer(4, Half::Word);
        actions[1] = Action::Slot(0);
        actions[2] = Action::Slot(0);
        let no_mem = |_: usize| false;
        let c = Code { insns: &code, succs: &succs, callees: &vec![Callee::None; n], mem_call: &no_mem, args: &[] };
        assert_eq!(floor(&c, 0..n, &actions), None);
        // The same store of a byte that holds no pointer (r22) is only a slot's store.
        let mut other = words;
        other[1] = 0x8369; // std Y+1, r22
        let code = insns(&other);
        let c = Code { insns: &code, ..c };
        assert_eq!(floor(&c, 0..n, &actions), Some(4));
    }

    #[test]
    fn only_the_memory_routines_and_functions_that_do_not_take_it_may_be_called() {
        // movw r24, r28; call (reads r22-r25); clr r24; clr r25; ret
        let words = [0x01CE, 0x940E, 0x0000, 0x2788, 0x2799, 0x9508];
        assert_eq!(run(&words, 4, &[1], true, &[], 0), Some(4));
        assert_eq!(run(&words, 4, &[1], false, &[], 0), None, "a multiply or a division of a pointer");
        assert_eq!(run(&words, 4, &[], false, &[1], 3 << 24), None, "a function that takes it");
        assert_eq!(run(&words, 4, &[], false, &[1], 3 << 20), Some(4), "one that takes r21:r20");
        // The frame's start less one, before any step: below every slot.
        assert_eq!(run(&words, u16::MAX, &[1], true, &[], 0), None);
    }
}
