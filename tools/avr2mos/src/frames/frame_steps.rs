//! Constant steps of a frame address: in a function whose Y is folded
//! ([`crate::frames::frame_slots`]), a copy of Y (`movw r24, r28`) is a constant, the frame's
//! first byte plus an offset. LLVM follows such a copy with a constant step to reach a
//! local past the first 64 bytes or the middle of one (`subi r24, lo; sbci r25, hi`, or
//! `adiw r24, k` / `sbiw r24, k`); the step is then a constant too, so it folds into the
//! copy's offset and costs nothing at run time (the pair of `LDA #`/`STA` the copy already
//! is stores the stepped address).
//!
//! Assumes: the actions come from [`crate::frames::frame_slots::fold`] for the function `range`;
//! `live_out` says which flags are read after each instruction.
//! Guarantees: a step folds only when it follows the copy directly, in the same function,
//! targets the copy's very pair (`subi` on the low byte and `sbci` on the high one, or
//! the word of `adiw`/`sbiw`), nothing jumps to it, its immediates are no relocations, and
//! no flag it sets is read afterwards (the pair's `subi` flags feed only its `sbci`, which
//! sets them all again). The registers then hold after the step exactly what the AVR code
//! leaves there; only the flags differ, and nothing reads them.

use std::ops::Range;

use crate::analysis::flags::{self, FlagSet};
use crate::frames::frame_slots::{Action, Half};
use crate::input::decode::{Insn, Op};

/// Folds the constant steps after each copy of Y in `actions` (indexed from
/// `range.start`): the copy's offset takes the step and the step becomes
/// [`Action::Drop`]. `relocated` says whether an instruction's immediate is a relocation.
pub fn fold(
    insns: &[Insn],
    range: Range<usize>,
    actions: &mut [Action],
    live_out: &[FlagSet],
    is_target: &[bool],
    relocated: &dyn Fn(usize) -> bool,
) {
    let first = range.start;
    let usable = |actions: &[Action], j: usize| {
        range.contains(&j) && !is_target[j] && !relocated(j) && actions[j - first] == Action::Keep
    };
    let quiet = |j: usize| live_out[j] & flags::defs(&insns[j]) == 0;
    let mut i = first;
    while i < range.end {
        let Action::Pointer(off, Half::Word) = actions[i - first] else {
            i += 1;
            continue;
        };
        let d = insns[i].d;
        let (lo, hi) = (i + 1, i + 2);
        let step = if usable(actions, lo)
            && insns[lo].op == Op::Subi
            && insns[lo].d == d
            && usable(actions, hi)
            && insns[hi].op == Op::Sbci
            && insns[hi].d == d + 1
            && quiet(hi)
        {
            let k = (((insns[hi].k & 0xFF) << 8) | (insns[lo].k & 0xFF)) as u16;
            Some((0u16.wrapping_sub(k), hi))
        } else if usable(actions, lo) && matches!(insns[lo].op, Op::Adiw | Op::Sbiw) && insns[lo].d == d && quiet(lo) {
            let k = insns[lo].k as u16;
            Some((if insns[lo].op == Op::Adiw { k } else { 0u16.wrapping_sub(k) }, lo))
        } else {
            None
        };
        match step {
            Some((delta, last)) => {
                actions[i - first] = Action::Pointer(off.wrapping_add(delta), Half::Word);
                for a in &mut actions[i + 1 - first..=last - first] {
                    *a = Action::Drop;
                }
                i = last + 1;
            }
            None => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::decode::decode_words as insns;

    fn run(words: &[u16], first: Action, live: &[FlagSet], targets: &[bool]) -> Vec<Action> {
        let code = insns(words);
        let n = code.len();
        let mut actions = vec![Action::Keep; n];
        actions[0] = first;
        fold(&code, 0..n, &mut actions, live, targets, &|_| false);
        actions
    }

    // movw r24, r28; subi r24, 0x28; sbci r25, 0xfe (r24 += 0x1d8); ret
    const SUB: [u16; 4] = [0x01CE, 0x5288, 0x4F9E, 0x9508];

    #[test]
    fn a_subtraction_after_a_copy_of_y_folds_into_its_offset() {
        let a = run(&SUB, Action::Pointer(0xFFFF, Half::Word), &[0; 4], &[false; 4]);
        assert_eq!(a, [Action::Pointer(0x1D7, Half::Word), Action::Drop, Action::Drop, Action::Keep]);
    }

    #[test]
    fn an_addition_of_a_word_folds_too() {
        // movw r24, r28; adiw r24, 16; sbiw r24, 1; ret: one step folds, the next is
        // lowered as it is (it follows no copy).
        let a = run(&[0x01CE, 0x9640, 0x9701, 0x9508], Action::Pointer(3, Half::Word), &[0; 4], &[false; 4]);
        assert_eq!(a, [Action::Pointer(19, Half::Word), Action::Drop, Action::Keep, Action::Keep]);
    }

    #[test]
    fn a_step_whose_flags_are_read_or_that_is_jumped_to_or_on_another_pair_stays() {
        let copy = Action::Pointer(0, Half::Word);
        let kept = [copy, Action::Keep, Action::Keep, Action::Keep];
        let read = [0, 0, flags::C, 0];
        assert_eq!(run(&SUB, copy, &read, &[false; 4]), kept, "the carry of sbci is read");
        assert_eq!(run(&SUB, copy, &[0; 4], &[false, false, true, false]), kept, "a jump to the sbci");
        // movw r24, r28; subi r26, 0x28; sbci r27, 0xfe: another pair.
        assert_eq!(run(&[0x01CE, 0x52A8, 0x4FBE, 0x9508], copy, &[0; 4], &[false; 4]), kept);
        // A copy of one byte only never takes a step.
        let half = Action::Pointer(0, Half::Lo);
        assert_eq!(run(&SUB, half, &[0; 4], &[false; 4])[1], Action::Keep);
    }
}
