//! Dead moves: an `ldi`, `mov` or `movw` whose registers no later instruction reads
//! before writing them again is left out (on the 6502 each is a load and one or two
//! stores for nothing). Register allocation leaves such moves behind once the
//! whole-program passes have changed what callers need ([`crate::saves`]).
//!
//! Assumes: `live_out` is the whole-program register liveness of [`crate::liveness`]: a
//! register not in it is never read, on any path, before it is written.
//! Guarantees: only moves go (they set no flag and touch no memory), and only when no
//! register they write is live after them, so no later instruction can tell.

use crate::callgraph::writes_of;
use crate::decode::{Insn, Op};

/// Marks, for each instruction of `range`, whether it is a move whose result is dead.
pub fn plan(insns: &[Insn], range: std::ops::Range<usize>, live_out: &[u32], out: &mut [bool]) {
    for i in range {
        let insn = &insns[i];
        if matches!(insn.op, Op::Ldi | Op::Mov | Op::Movw) && writes_of(insn) & live_out[i] == 0 {
            out[i] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_words;

    #[test]
    fn a_move_goes_only_when_what_it_writes_is_dead() {
        // ldi r24, 1; mov r25, r24; movw r30, r24; add r24, r25 (not a move); ret
        let insns = decode_words(&[0xE081, 0x2F98, 0x01FC, 0x0F89, 0x9508]);
        let r = |n: u32| 1u32 << n;
        // After the movw only r24 and r25 are live: the copy into Z is dead.
        let live = [r(24), r(24) | r(25), r(24) | r(25), 0, 0];
        let mut out = vec![false; insns.len()];
        plan(&insns, 0..insns.len(), &live, &mut out);
        assert_eq!(out, vec![false, false, true, false, false]);
        // One half of the movw live: it stays.
        let live = [r(24), r(24) | r(25), r(24) | r(25) | r(31), 0, 0];
        let mut out = vec![false; insns.len()];
        plan(&insns, 0..insns.len(), &live, &mut out);
        assert_eq!(out, vec![false; 5]);
        // Nothing live after the ldi: it goes; an add stays whatever is live (it sets flags).
        let mut out = vec![false; insns.len()];
        plan(&insns, 0..insns.len(), &[0; 5], &mut out);
        assert_eq!(out, vec![true, true, true, false, false]);
    }
}
