//! Branches over a jump: the AVR's conditional branches reach only 64 words, so LLVM
//! writes a far conditional jump as `brbs c, 1f; rjmp far; 1:`, a branch on the opposite
//! condition over an unconditional jump. The 6502 lowering's branches are relaxable
//! ([`mos_asm::asm::Asm::br`]: a short branch when the target is in reach, an inverted
//! branch over a `JMP` when not), so the pair becomes one branch on the jump's condition
//! straight to the jump's target (`brbc c, far`) and the jump becomes a `nop` (no code):
//! 2 bytes instead of 5 where the target is near, and the far case is the code it had.
//!
//! Assumes: `is_target` marks every instruction reached other than from the one before
//! (skip and branch targets included); the lowering emits no code for a `nop`.
//!
//! Guarantees: a pair is rewritten only when the branch's target is the instruction right
//! after the jump, the jump is no jump target, not after a skip (which could skip the
//! branch and land on the jump), stays inside its function (no tail call), and no other
//! pass changes either instruction (frame slots, saves moved there, copies); the rewritten
//! branch goes where the pair went on both outcomes, so the flags and registers each
//! path sees are those of the AVR code.

use crate::input::decode::{Insn, Op};

/// What the rewrite may not touch, per instruction.
#[derive(Debug, Clone, Copy)]
pub struct Fences<'a> {
    /// Instructions reached other than from the one before.
    pub is_target: &'a [bool],
    /// Instructions another pass changes (a frame action, a save or restore moved there,
    /// a copy that goes or a use of one).
    pub changed: &'a [bool],
}

/// Rewrites the branches over jumps in `range` (one translated function) of `insns`,
/// whose byte addresses are `addrs`; `local(k)` says whether the address `k` is an
/// instruction of the function that is not a function's start (a jump there is no tail
/// call). Returns how many it rewrote.
pub fn rewrite(
    insns: &mut [Insn],
    addrs: &[u32],
    range: std::ops::Range<usize>,
    fences: Fences<'_>,
    local: impl Fn(u32) -> bool,
) -> usize {
    let mut n = 0;
    for i in range.start..range.end.saturating_sub(2) {
        let (br, jmp) = (insns[i], insns[i + 1]);
        let over = matches!(br.op, Op::Brbs | Op::Brbc) && br.k == addrs[i + 2];
        if !over || !matches!(jmp.op, Op::Rjmp | Op::Jmp) || !local(jmp.k) || jmp.k == addrs[i + 2] {
            continue;
        }
        if fences.is_target[i + 1] || fences.changed[i] || fences.changed[i + 1] {
            continue;
        }
        if i > range.start && insns[i - 1].op.skips() {
            continue;
        }
        insns[i].op = if br.op == Op::Brbs { Op::Brbc } else { Op::Brbs };
        insns[i].k = jmp.k;
        insns[i + 1] = Insn { op: Op::Nop, d: 0, r: 0, k: 0, len: jmp.len };
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::decode::decode_with_addrs;

    /// `ldi r24, 1; brbs z, .+2 (over the rjmp); rjmp back to 0; ret` and variants.
    fn run(words: &[u16], targets: &[usize], changed: &[usize]) -> (Vec<Insn>, usize) {
        let (mut insns, addrs) = decode_with_addrs(words);
        let n = insns.len();
        let is_target: Vec<bool> = (0..n).map(|i| targets.contains(&i)).collect();
        let changed: Vec<bool> = (0..n).map(|i| changed.contains(&i)).collect();
        let fences = Fences { is_target: &is_target, changed: &changed };
        let end: u32 = insns.iter().map(|i| u32::from(i.len)).sum();
        let count = rewrite(&mut insns, &addrs, 0..n, fences, |k| k < end && k != 0x100);
        (insns, count)
    }

    const LDI: u16 = 0xE081; // ldi r24, 1
    const BREQ_OVER: u16 = 0xF009; // brbs z, .+2
    const RJMP_BACK: u16 = 0xCFFD; // rjmp to address 0 from address 4
    const RET: u16 = 0x9508;

    #[test]
    fn a_branch_over_a_jump_becomes_the_opposite_branch_to_the_jumps_target() {
        let (insns, n) = run(&[LDI, BREQ_OVER, RJMP_BACK, RET], &[0, 3], &[]);
        assert_eq!(n, 1);
        assert_eq!((insns[1].op, insns[1].r, insns[1].k), (Op::Brbc, 1, 0));
        assert_eq!(insns[2].op, Op::Nop);
        assert_eq!(insns[3].op, Op::Ret);
    }

    #[test]
    fn a_jump_that_is_a_target_or_changed_stays() {
        let (insns, n) = run(&[LDI, BREQ_OVER, RJMP_BACK, RET], &[0, 2, 3], &[]);
        assert_eq!((n, insns[2].op), (0, Op::Rjmp));
        let (_, n) = run(&[LDI, BREQ_OVER, RJMP_BACK, RET], &[0, 3], &[2]);
        assert_eq!(n, 0);
    }

    #[test]
    fn a_branch_after_a_skip_or_over_something_else_stays() {
        // sbrc r24, 0 before the branch.
        let (_, n) = run(&[0xFD80, BREQ_OVER, RJMP_BACK, RET], &[0, 3], &[]);
        assert_eq!(n, 0);
        // brbs z, .+4 skips two instructions, not just the jump.
        let (_, n) = run(&[LDI, 0xF011, RJMP_BACK, LDI, RET], &[0, 4], &[]);
        assert_eq!(n, 0);
    }

    #[test]
    fn a_tail_call_stays() {
        // rjmp to a function's start (the closure says 0x100 is not local).
        let (_, n) = run(&[LDI, BREQ_OVER, 0xC07D, RET], &[3], &[]);
        assert_eq!(n, 0);
    }
}
