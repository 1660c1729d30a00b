//! Data copy propagation: `movw r19:r18, r25:r24` whose copy is then only read, as data,
//! before it dies is, on the 6502, four zero-page moves (8 bytes, 12 cycles) that name a
//! value zero page already holds. The `movw` goes and each read of the copy reads the
//! source pair instead: the instructions that read it are renamed (`add r22, r18` is
//! lowered as `add r22, r24`), so every lowering, fused or not, sees the source.
//!
//! This is [`crate::avr_rewrites::ptr_copies`] for copies used as values rather than pointers, and it
//! runs after it, on what it left: it never touches an instruction that pass changed.
//!
//! Assumes: `live_out` is the whole-program register liveness of [`crate::analysis::liveness`] (a
//! register not in it is never read before it is written again); `is_target` marks every
//! instruction reached other than from the one before; the lowering reads each register
//! an instruction names from that register's zero-page byte, whatever the register
//! (renaming a read to a register that holds the same value keeps the meaning of any AVR
//! instruction, also of `eor r24, r24`-like forms a rename may create).
//!
//! Guarantees: a copy goes only when all of these hold, so each renamed read sees the very
//! value the copy held:
//! - the copy is a `movw` between two distinct pairs of r2..r25 (never r0:r1, which `mul`
//!   and the zero register use, nor X, Y or Z, which pointers, frames and the pointer
//!   copies use), not after a skip (which could skip the copy and not its uses);
//! - the instructions after it up to its last use are straight-line code: no jump
//!   target, jump, branch, skip, call or return, no push or pop, no save or restore moved
//!   there ([`crate::frames::sink_saves`]), no frame action but a slot's load or store, no change
//!   by the pointer copies; the one call allowed is of a native routine that reads
//!   neither half of the copy's pair and writes neither pair ([`CallEffect`]): the
//!   runtime's routines change only their results ([`crate::analysis::liveness::native_writes`]),
//!   so rustc's copy of an argument into a callee-saved pair around `memset` or
//!   `__mulsi3` may go;
//! - each of them that names the copy's pair names it only as a register it reads and
//!   does not write, in an operand the renaming replaces (the checks below rename first
//!   and then require that the copy's pair is no longer named at all);
//! - none of them but the last use writes the source pair (an AVR instruction reads its
//!   operands before it writes);
//! - the copy's pair is dead after the last use, so its stale zero-page bytes are never
//!   read; [`crate::avr_rewrites::ptr_copies::elsewhere`] tells the lockstep comparison so.

use crate::analysis::callgraph::{RegSet, writes_of};
use crate::avr_rewrites::ptr_copies::{Copy, mentions};
use crate::frames::frame_slots::Action;
use crate::input::decode::{Insn, Op};

/// What the pass may not look through, per instruction, besides the code itself.
#[derive(Debug, Clone, Copy)]
pub struct Fences<'a> {
    /// Jump targets.
    pub is_target: &'a [bool],
    /// The frame-slot action of each instruction ([`crate::frames::frame_slots`]).
    pub slots: &'a [Action],
    /// Whether a save or restore was moved to the instruction ([`crate::frames::sink_saves`]).
    pub sunk: &'a [bool],
    /// Prologue subtractions of static frames.
    pub frame_set_up: &'a [bool],
    /// For each call a copy may live across (a native routine's), what it does to
    /// registers; `None` for every other instruction.
    pub calls: &'a [Option<CallEffect>],
}

/// What a call of a native routine does to registers: a copy lives across it only when
/// it reads neither half of the copy's pair and writes neither pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallEffect {
    /// The registers it reads (its operands, and r1).
    pub reads: RegSet,
    /// The registers it may leave changed ([`crate::analysis::liveness::native_writes`]).
    pub writes: RegSet,
}

/// `i` with every read of the pair at `from` in an operand that is only read replaced by
/// the pair at `to`; `None` when it names `from`'s pair in any other way (a write, an
/// implicit read, a pointer).
pub fn rename(i: &Insn, from: u8, to: u8) -> Option<Insn> {
    let pair = 0b11u32 << from;
    if mentions(i) & pair == 0 {
        return Some(*i);
    }
    if writes_of(i) & pair != 0 {
        return None;
    }
    let swap = |reg: u8| if reg & !1 == from { to | (reg & 1) } else { reg };
    let mut out = *i;
    let (d_read, r_read) = match i.op {
        Op::Add | Op::Adc | Op::Sub | Op::Sbc | Op::And | Op::Or | Op::Eor | Op::Mov => (false, true),
        Op::Cp | Op::Cpc | Op::Mul | Op::Muls | Op::Mulsu => (true, true),
        Op::St(..) | Op::Sts | Op::Bst => (true, false),
        Op::Movw => {
            out.r = swap(i.r);
            return (mentions(&out) & pair == 0).then_some(out);
        }
        _ => return None,
    };
    if d_read {
        out.d = swap(i.d);
    }
    if r_read {
        out.r = swap(i.r);
    }
    (mentions(&out) & pair == 0).then_some(out)
}

/// Whether control can leave or skip from `i` other than to the next instruction, or `i`
/// is lowered by a path of its own (the stack).
fn breaks_flow(i: &Insn) -> bool {
    i.op.jumps()
        || matches!(
            i.op,
            Op::Rcall | Op::Call | Op::Icall | Op::Eicall | Op::Lpm | Op::Elpm | Op::Spm | Op::Push | Op::Pop
        )
}

/// Whether the pair at `low` may be a copy's source or target.
fn plain_pair(low: u8) -> bool {
    (2..=24).contains(&low) && low.is_multiple_of(2)
}

/// Plans the data copies of `range` (one translated function): marks each copy that goes
/// as [`Copy::Drop`] in `copies` and renames its uses in `insns` (the instructions the
/// lowering reads). `live_out` are the registers live after each instruction.
pub fn plan(
    insns: &mut [Insn],
    range: std::ops::Range<usize>,
    live_out: &[u32],
    fences: Fences<'_>,
    copies: &mut [Copy],
) {
    let fenced = |m: usize, copies: &[Copy]| {
        fences.is_target[m]
            || fences.sunk[m]
            || fences.frame_set_up[m]
            || !matches!(fences.slots[m], Action::Keep | Action::Slot(_))
            || copies[m] != Copy::Keep
    };
    for c in range.clone() {
        let mv = insns[c];
        let (dst, src) = (mv.d, mv.r);
        if mv.op != Op::Movw || !plain_pair(dst) || !plain_pair(src) || src == dst {
            continue;
        }
        if copies[c] != Copy::Keep
            || fences.sunk[c]
            || fences.slots[c] != Action::Keep
            || (c > range.start && insns[c - 1].op.skips())
        {
            continue;
        }
        let (dst_pair, src_pair) = (0b11u32 << dst, 0b11u32 << src);
        let mut uses = Vec::new();
        for (m, &insn) in insns.iter().enumerate().take(range.end).skip(c + 1) {
            if fenced(m, copies) {
                break;
            }
            if let Some(call) = fences.calls[m] {
                // The callee must neither see the copy's pair (whose zero-page bytes no
                // longer hold the copy) nor change either pair.
                if call.reads & dst_pair != 0 || call.writes & (dst_pair | src_pair) != 0 {
                    break;
                }
                continue;
            }
            if breaks_flow(&insn) {
                break;
            }
            let Some(renamed) = rename(&insn, dst, src) else { break };
            if mentions(&insn) & dst_pair != 0 {
                uses.push((m, renamed));
            }
            if writes_of(&insn) & src_pair != 0 {
                break;
            }
        }
        let Some(&(last, _)) = uses.last() else { continue };
        if live_out[last] & dst_pair != 0 {
            continue;
        }
        copies[c] = Copy::Drop { pair: dst, last };
        for (m, renamed) in uses {
            insns[m] = renamed;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::decode::decode_words;

    fn run(words: &[u16], live_after: &[(usize, u32)]) -> (Vec<Insn>, Vec<Copy>) {
        run_with_call(words, live_after, None)
    }

    /// As [`run`], with `call` the effect of every call in `words`.
    fn run_with_call(words: &[u16], live_after: &[(usize, u32)], call: Option<CallEffect>) -> (Vec<Insn>, Vec<Copy>) {
        let mut insns = decode_words(words);
        let n = insns.len();
        let mut live = vec![0u32; n];
        for &(i, set) in live_after {
            live[i] = set;
        }
        let (targets, sunk, set_up) = (vec![false; n], vec![false; n], vec![false; n]);
        let slots = vec![Action::Keep; n];
        let calls: Vec<Option<CallEffect>> =
            insns.iter().map(|i| if matches!(i.op, Op::Call) { call } else { None }).collect();
        let fences = Fences { is_target: &targets, slots: &slots, sunk: &sunk, frame_set_up: &set_up, calls: &calls };
        let mut copies = vec![Copy::Keep; n];
        plan(&mut insns, 0..n, &live, fences, &mut copies);
        (insns, copies)
    }

    const MOVW_R18_R24: u16 = 0x019C; // movw r18, r24
    const ADD_R22_R18: u16 = 0x0F62; // add r22, r18
    const ADC_R23_R19: u16 = 0x1F73; // adc r23, r19
    const RET: u16 = 0x9508;

    #[test]
    fn a_copy_read_only_as_data_goes_and_its_reads_read_the_source() {
        let (insns, copies) = run(&[MOVW_R18_R24, ADD_R22_R18, ADC_R23_R19, RET], &[]);
        assert_eq!(copies[0], Copy::Drop { pair: 18, last: 2 });
        assert_eq!((insns[1].d, insns[1].r), (22, 24));
        assert_eq!((insns[2].d, insns[2].r), (23, 25));
        assert_eq!(copies[1..], [Copy::Keep; 3]);
    }

    #[test]
    fn a_copy_live_after_its_uses_stays() {
        let (insns, copies) = run(&[MOVW_R18_R24, ADD_R22_R18, ADC_R23_R19, RET], &[(2, 1 << 19)]);
        assert_eq!(copies, vec![Copy::Keep; 4]);
        assert_eq!(insns[1].r, 18, "nothing renamed");
    }

    #[test]
    fn a_copy_that_is_written_stays() {
        // movw r18, r24; inc r18: the copy changes, it is no longer the source.
        let (_, copies) = run(&[MOVW_R18_R24, 0x9523, RET], &[(1, 1 << 18)]);
        assert_eq!(copies, vec![Copy::Keep; 3]);
        // add r18, r22 reads and writes it.
        let (_, copies) = run(&[MOVW_R18_R24, 0x0F26, RET], &[(1, 1 << 18)]);
        assert_eq!(copies, vec![Copy::Keep; 3]);
    }

    #[test]
    fn the_source_written_before_a_later_use_keeps_the_copy() {
        // movw r18, r24; inc r24; add r22, r18: the add needs the old r24.
        let (_, copies) = run(&[MOVW_R18_R24, 0x9583, ADD_R22_R18, RET], &[(1, 1 << 18)]);
        assert_eq!(copies, vec![Copy::Keep; 4]);
        // The last use may write the source: add r24, r18 reads both first.
        let (insns, copies) = run(&[MOVW_R18_R24, 0x0F82, RET], &[]);
        assert_eq!(copies[0], Copy::Drop { pair: 18, last: 1 });
        assert_eq!((insns[1].d, insns[1].r), (24, 24));
    }

    #[test]
    fn a_call_or_branch_before_the_last_use_keeps_the_copy() {
        // movw r18, r24; call 0; add r22, r18.
        let (_, copies) = run(&[MOVW_R18_R24, 0x940E, 0x0000, ADD_R22_R18, RET], &[(1, 1 << 18)]);
        assert_eq!(copies, vec![Copy::Keep; 4]);
        // movw r18, r24; breq .+0; add r22, r18.
        let (_, copies) = run(&[MOVW_R18_R24, 0xF001, ADD_R22_R18, RET], &[(1, 1 << 18)]);
        assert_eq!(copies, vec![Copy::Keep; 4]);
    }

    #[test]
    fn copies_of_pointers_and_of_r0_stay() {
        // movw r30, r24 (Z) and movw r24, r0.
        let (_, copies) = run(&[0x01FC, 0x8160, RET], &[]);
        assert_eq!(copies, vec![Copy::Keep; 3]);
        let (_, copies) = run(&[0x01C0, 0x0F68, RET], &[]);
        assert_eq!(copies, vec![Copy::Keep; 3]);
    }

    #[test]
    fn stores_and_moves_of_the_copy_are_renamed() {
        // movw r18, r24; st Z, r18; mov r20, r19; movw r22, r18.
        let (insns, copies) = run(&[MOVW_R18_R24, 0x8320, 0x2F43, 0x01B9, RET], &[]);
        assert_eq!(copies[0], Copy::Drop { pair: 18, last: 3 });
        assert_eq!(insns[1].d, 24);
        assert_eq!(insns[2].r, 25);
        assert_eq!(insns[3].r, 24);
    }

    #[test]
    fn a_copy_lives_across_a_native_call_that_leaves_both_pairs_alone() {
        // movw r17:r16, r25:r24; call memset; add r18, r16; adc r19, r17.
        let words = [0x018C, 0x940F, 0xF81A, 0x0F20, 0x1F31, RET];
        let memset = CallEffect { reads: 0x03F0_0002, writes: 0 };
        let (insns, copies) = run_with_call(&words, &[], Some(memset));
        assert_eq!(copies[0], Copy::Drop { pair: 16, last: 3 });
        assert_eq!((insns[2].r, insns[3].r), (24, 25));
        // A call that writes the source, or reads the copy, keeps it.
        let mulsi3 = CallEffect { reads: 0x03FC_0002, writes: 0x03C0_0000 };
        let (_, copies) = run_with_call(&words, &[(1, 0b11 << 16)], Some(mulsi3));
        assert_eq!(copies[0], Copy::Keep);
        let reads_copy = CallEffect { reads: 0b11 << 16, writes: 0 };
        let (_, copies) = run_with_call(&words, &[(1, 0b11 << 16)], Some(reads_copy));
        assert_eq!(copies[0], Copy::Keep);
        // Without a known effect a call is a fence.
        let (_, copies) = run_with_call(&words, &[(1, 0b11 << 16)], None);
        assert_eq!(copies[0], Copy::Keep);
    }
}
