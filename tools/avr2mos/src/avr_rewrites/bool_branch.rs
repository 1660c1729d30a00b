//! A condition made a byte and then tested: LLVM's AVR back end often materialises a
//! comparison as 0 or 1 before branching on it (`ldi b, 1; <compare>; brXX .+2; mov b,
//! r1; andi b, 1; cpi b, 0; breq T`): the byte is 1 when the compare's branch is taken
//! and 0 when it falls through to the `mov`. Where the byte dies at the last branch, the
//! first branch can go to `T` itself, on the opposite condition for `breq` (the same for
//! `brne`), and the four instructions after it become `nop`s (no code): about 16 bytes
//! and 15 cycles each time (a loop's exit test in crc32 and gcd, money's checks).
//!
//! Assumes: `preds` counts every way into each instruction (the one before it included);
//! `r1_zero` is [`crate::analysis::zero_reg`]'s; `live_regs` and `live_flags` are the
//! registers and flags live after each instruction; the lowering emits no code for a
//! `nop`; [`defs_of`] and [`reads_of`] name every register an instruction writes and
//! reads.
//!
//! Guarantees: a sequence is rewritten only when its first branch skips exactly the
//! `mov` (its only other way in is that branch), nothing else jumps into it, r1 is zero
//! at the `mov`, the byte and every flag are dead after the last branch, the first
//! branch follows no skip, and no other pass changes any of the five instructions; each
//! path then reaches the place the sequence sent it, with every live register as the AVR
//! code leaves it. The `ldi b, 1` goes too when only straight code that neither reads nor
//! writes the byte lies between it and the first branch: what it loaded was read only by
//! the `andi` and the `cpi`. Not under the lockstep setting, which compares the dead byte too.

use crate::analysis::liveness::{defs_of, reads_of};
use crate::input::decode::{Insn, Op};

/// What the rewrite may not touch, and what it must know, per instruction.
#[derive(Debug, Clone, Copy)]
pub struct Facts<'a> {
    /// How many ways lead into each instruction.
    pub preds: &'a [u32],
    /// Whether r1 is zero before each instruction.
    pub r1_zero: &'a [bool],
    /// Registers live after each instruction.
    pub live_regs: &'a [u32],
    /// Flags live after each instruction.
    pub live_flags: &'a [u8],
    /// Instructions another pass changes.
    pub changed: &'a [bool],
}

/// Rewrites the sequences in `range` (one translated function) of `insns`, whose byte
/// addresses are `addrs`. Returns how many it rewrote.
pub fn rewrite(insns: &mut [Insn], addrs: &[u32], range: std::ops::Range<usize>, facts: Facts<'_>) -> usize {
    let mut n = 0;
    for b in range.start..range.end.saturating_sub(4) {
        let [br, mov, andi, cpi, test] = [b, b + 1, b + 2, b + 3, b + 4].map(|m| insns[m]);
        let byte = mov.d;
        let shape = matches!(br.op, Op::Brbs | Op::Brbc)
            && br.k == addrs[b + 2]
            && mov.op == Op::Mov
            && mov.r == 1
            && byte != 1
            && andi.op == Op::Andi
            && andi.d == byte
            && andi.k == 1
            && cpi.op == Op::Cpi
            && cpi.d == byte
            && cpi.k == 0
            && matches!(test.op, Op::Brbs | Op::Brbc)
            && test.r == 1;
        if !shape {
            continue;
        }
        let alone =
            facts.preds[b + 1] == 1 && facts.preds[b + 2] == 2 && facts.preds[b + 3] == 1 && facts.preds[b + 4] == 1;
        let dead = facts.live_regs[b + 4] & (1 << byte) == 0 && facts.live_flags[b + 4] == 0;
        let untouched = (b..=b + 4).all(|m| !facts.changed[m]);
        let after_skip = b > range.start && insns[b - 1].op.skips();
        if !alone || !dead || !untouched || after_skip || !facts.r1_zero[b + 1] {
            continue;
        }
        // The byte is 1 where the first branch is taken: `breq T` (Z set, the byte 0) goes
        // to T where it is not, `brne T` where it is.
        let taken_to_t = test.op == Op::Brbc;
        insns[b].op = match (br.op, taken_to_t) {
            (op, true) => op,
            (Op::Brbs, false) => Op::Brbc,
            _ => Op::Brbs,
        };
        insns[b].k = test.k;
        for insn in &mut insns[b + 1..=b + 4] {
            *insn = Insn { op: Op::Nop, d: 0, r: 0, k: 0, len: insn.len };
        }
        // The `ldi b, 1` before the compare, if only straight code that leaves the byte
        // alone lies between: nothing reads what it loads any more.
        let mut j = b;
        while j > range.start && j + 8 > b {
            j -= 1;
            let insn = insns[j];
            if insn.op == Op::Ldi && insn.d == byte {
                if !facts.changed[j] && !(j > range.start && insns[j - 1].op.skips()) {
                    insns[j] = Insn { op: Op::Nop, d: 0, r: 0, k: 0, len: insn.len };
                }
                break;
            }
            let touches = (reads_of(&insn) | defs_of(&insn)) & (1 << byte) != 0;
            if touches || insn.op.jumps() || facts.changed[j] || matches!(insn.op, Op::Call | Op::Rcall | Op::Icall) {
                break;
            }
        }
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::decode::decode_with_addrs;

    // ldi r24, 1; cp r22, r23; brbs c, .+2; mov r24, r1; andi r24, 1; cpi r24, 0;
    // brbs z, T; ldi r25, 7; T: ret; ret.
    const WORDS: [u16; 10] = [0xE081, 0x1767, 0xF008, 0x2D81, 0x7081, 0x3080, 0xF009, 0xE097, 0x9508, 0x9508];

    /// The rewrite of `words` with `preds` ways into each instruction (straight flow and
    /// the two branches unless told), r1 zero everywhere, `live_regs` after the test.
    fn run(words: &[u16], live_regs: u32, live_flags: u8, changed: &[usize]) -> (Vec<Insn>, usize) {
        let (mut insns, addrs) = decode_with_addrs(words);
        let n = insns.len();
        let mut preds = vec![1u32; n];
        preds[4] = 2; // the andi: from the mov and from the first branch
        preds[8] = 2; // T
        let r1_zero = vec![true; n];
        let mut regs = vec![0u32; n];
        regs[6] = live_regs;
        let mut flags = vec![0u8; n];
        flags[6] = live_flags;
        let changed: Vec<bool> = (0..n).map(|i| changed.contains(&i)).collect();
        let facts = Facts { preds: &preds, r1_zero: &r1_zero, live_regs: &regs, live_flags: &flags, changed: &changed };
        let count = rewrite(&mut insns, &addrs, 0..n, facts);
        (insns, count)
    }

    #[test]
    fn the_first_branch_goes_to_the_tests_target_on_the_condition_that_leads_there() {
        let (insns, n) = run(&WORDS, 0, 0, &[]);
        assert_eq!(n, 1);
        // brcs was "the byte is 1"; breq T is "the byte is 0": brcc T.
        assert_eq!((insns[2].op, insns[2].r, insns[2].k), (Op::Brbc, 0, 16));
        assert!(insns[3..7].iter().all(|i| i.op == Op::Nop));
        assert_eq!(insns[0].op, Op::Nop, "the ldi of the byte, read by nothing now");
        // brne T: the same condition.
        let mut words = WORDS;
        words[6] = 0xF409; // brbc z, T
        let (insns, n) = run(&words, 0, 0, &[]);
        assert_eq!((n, insns[2].op, insns[2].k), (1, Op::Brbs, 16));
        // A compare that reads the byte keeps its ldi.
        let mut words = WORDS;
        words[1] = 0x1786; // cp r24, r22
        let (insns, n) = run(&words, 0, 0, &[]);
        assert_eq!((n, insns[0].op), (1, Op::Ldi));
    }

    #[test]
    fn a_live_byte_or_flag_or_a_changed_instruction_keeps_the_sequence() {
        assert_eq!(run(&WORDS, 1 << 24, 0, &[]).1, 0);
        assert_eq!(run(&WORDS, 0, 0x02, &[]).1, 0);
        assert_eq!(run(&WORDS, 0, 0, &[5]).1, 0);
        // Without the andi, or with another mask, not this shape.
        let mut words = WORDS;
        words[4] = 0x7082; // andi r24, 2
        assert_eq!(run(&words, 0, 0, &[]).1, 0);
        // A branch that skips more than the mov.
        let mut words = WORDS;
        words[2] = 0xF010; // brbs c, .+4
        assert_eq!(run(&words, 0, 0, &[]).1, 0);
    }
}
