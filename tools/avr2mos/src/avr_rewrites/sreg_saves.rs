//! SREG saves and restores that change nothing: `in r0, SREG` ... `out SREG, r0` where
//! no flag changes on any path between them, so restoring SREG gives back the flags it
//! already holds. LLVM wraps every stack-pointer update and every access beyond Y+63 in
//! such a pair; at the end of a branch of a `match` it often jumps from the middle of one
//! pair to the end of another (`in r0; subi r28; std Y+62; rjmp` into the `subi r28;
//! sbci r29; out` of the next arm), which is why this is a data-flow over the function
//! rather than a look at straight-line code.
//!
//! A forward analysis finds, before each instruction, whether on every path reaching it
//! an `in r0, SREG` came last with nothing since that writes or reads r0, reads or
//! writes a flag (other than the 16-bit steps of Y, `subi r28`/`sbci r29` and
//! `adiw`/`sbiw r28`), calls or leaves the function ("clean"). A restore reached clean is
//! inert; a step of Y, and a save, is inert when every path from it reaches an inert
//! restore while clean, so the flags it would set are never seen. Inert instructions
//! neither read nor write flags in [`crate::analysis::flags::live_out`] and cost no code.
//!
//! Assumes: `succs` lists every successor of each instruction inside its function (a
//! call returns to the next instruction), and `entries` marks every instruction reached
//! from outside that flow (function starts, the program entry, relocated code
//! addresses, call targets); the AVR calling convention (r0 is the scratch register: no
//! function reads it as an argument or return value); I and H are not modelled by the
//! translation, so a restore's only observable effect is on C, Z, N, V, S and T.
//! Guarantees: at an inert restore the flags equal those it would restore; an inert step
//! of Y only sets flags that an inert restore overwrites before anything reads them; an
//! inert save's r0 is read by nothing but inert restores (r0 read after a restore makes
//! that restore real); an instruction reached by no path from an entry is never inert.

use crate::analysis::flags::{ALL, defs, uses};
use crate::input::decode::{Insn, Op};

fn is_save(i: &Insn) -> bool {
    i.op == Op::In && i.k == 0x3F && i.d == 0
}

fn is_restore(i: &Insn) -> bool {
    i.op == Op::Out && i.k == 0x3F && i.d == 0
}

/// Whether instruction `j` is a 16-bit step of Y: `adiw`/`sbiw r28`, or either half of
/// `subi r28; sbci r29` (the carry passes between them in the 6502 carry, so the second
/// half must not be reachable other than by falling in from the first).
fn is_y_step(insns: &[Insn], is_target: &[bool], j: usize) -> bool {
    let n = insns[j];
    match n.op {
        Op::Adiw | Op::Sbiw => n.d == 28,
        Op::Subi => {
            n.d == 28
                && is_target.get(j + 1) == Some(&false)
                && insns.get(j + 1).is_some_and(|m| m.op == Op::Sbci && m.d == 29)
        }
        Op::Sbci => n.d == 29 && j > 0 && !is_target[j] && insns[j - 1].op == Op::Subi && insns[j - 1].d == 28,
        _ => false,
    }
}

/// Whether the instruction reads r0, and whether it writes it.
fn r0_access(i: &Insn) -> (bool, bool) {
    let (d0, r0) = (i.d == 0, i.r == 0);
    match i.op {
        Op::Mov => (r0, d0),
        Op::Movw => (r0, d0),
        Op::Add | Op::Adc | Op::Sub | Op::Sbc | Op::And | Op::Or | Op::Eor => (d0 || r0, d0),
        Op::Cp | Op::Cpc | Op::Cpse => (d0 || r0, false),
        // The multiplies write r1:r0; their operands are r16 and up except `mul`'s.
        Op::Mul => (d0 || r0, true),
        Op::Muls | Op::Mulsu | Op::Fmul | Op::Fmuls | Op::Fmulsu => (false, true),
        // `lpm`/`elpm` without operands load r0; `spm` stores r1:r0.
        Op::Lpm | Op::Elpm => (false, true),
        Op::Spm => (true, false),
        Op::Ld(..) | Op::Lds | Op::Pop | Op::In => (false, d0),
        Op::St(..) | Op::Sts | Op::Push | Op::Out | Op::Bst | Op::Sbrc | Op::Sbrs => (d0, false),
        Op::Com | Op::Neg | Op::Swap | Op::Inc | Op::Dec | Op::Asr | Op::Lsr | Op::Ror | Op::Bld => (d0, d0),
        // r0 is the scratch register: a callee neither reads it nor gives it back.
        Op::Call | Op::Rcall | Op::Icall | Op::Eicall => (false, true),
        _ => (false, false),
    }
}

/// Whether the clean state survives instruction `j` (a save starts it afresh and a
/// restore ends it; those are handled by the caller).
fn keeps_clean(insns: &[Insn], is_target: &[bool], j: usize) -> bool {
    let n = insns[j];
    if is_y_step(insns, is_target, j) {
        return true;
    }
    let (reads, writes) = r0_access(&n);
    let leaves =
        matches!(n.op, Op::Call | Op::Rcall | Op::Icall | Op::Eicall | Op::Ret | Op::Reti | Op::Ijmp | Op::Eijmp);
    // `cli` and `sei` touch only I; any other `bset`/`bclr` changes a flag (H included).
    let other_bit = matches!(n.op, Op::Bset | Op::Bclr) && n.r != 7;
    !(reads || writes || leaves || other_bit || defs(&n) & ALL != 0 || uses(&n, ALL) != 0)
}

/// Marks the inert SREG saves, restores and steps of Y between them. `succs` are each
/// instruction's successors inside its function, `is_target` whether it is reached other
/// than by falling in, `entries` the instructions reached from outside that flow.
pub fn inert_sreg_pairs(insns: &[Insn], succs: &[Vec<usize>], is_target: &[bool], entries: &[bool]) -> Vec<bool> {
    let n = insns.len();
    // Clean on entry: None until reached; Some(false) on any path not clean.
    let mut clean: Vec<Option<bool>> = vec![None; n];
    let mut work: Vec<usize> = Vec::new();
    for (i, &e) in entries.iter().enumerate() {
        if e {
            clean[i] = Some(false);
            work.push(i);
        }
    }
    while let Some(i) = work.pop() {
        let here = clean[i] == Some(true);
        let after = if is_save(&insns[i]) {
            true
        } else if is_restore(&insns[i]) {
            false
        } else {
            here && keeps_clean(insns, is_target, i)
        };
        for &s in &succs[i] {
            let joined = Some(clean[s].unwrap_or(true) && after);
            if clean[s] != joined {
                clean[s] = joined;
                work.push(s);
            }
        }
    }
    // r0 read after an instruction before anything writes it (r0 alone; nothing reads it
    // after a call or at a return).
    let mut r0_live = vec![false; n];
    let mut changed = true;
    while changed {
        changed = false;
        for i in (0..n).rev() {
            let out = succs[i].iter().any(|&s| r0_live_in(&insns[s], r0_live[s]));
            if out != r0_live[i] {
                r0_live[i] = out;
                changed = true;
            }
        }
    }
    let restores: Vec<bool> = (0..n).map(|i| is_restore(&insns[i]) && clean[i] == Some(true) && !r0_live[i]).collect();
    // Every path from the instruction (before it runs) stays clean until an inert restore.
    let mut reaches = restores.clone();
    let mut changed = true;
    while changed {
        changed = false;
        for i in (0..n).rev() {
            if reaches[i] || clean[i] != Some(true) || !keeps_clean(insns, is_target, i) {
                continue;
            }
            if !succs[i].is_empty() && succs[i].iter().all(|&s| clean[s] == Some(true) && reaches[s]) {
                reaches[i] = true;
                changed = true;
            }
        }
    }
    (0..n)
        .map(|i| {
            let insn = &insns[i];
            if is_save(insn) {
                // Its r0 read only by inert restores: every path reaches one, and one
                // that is inert has no r0 reader after it.
                !succs[i].is_empty() && succs[i].iter().all(|&s| clean[s] == Some(true) && reaches[s])
            } else if is_restore(insn) {
                restores[i]
            } else {
                is_y_step(insns, is_target, i) && clean[i] == Some(true) && reaches[i]
            }
        })
        .collect()
}

/// Whether r0 is live before instruction `i`, given whether it is live after.
fn r0_live_in(i: &Insn, live_after: bool) -> bool {
    let (reads, writes) = r0_access(i);
    reads || (live_after && !writes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn io(op: Op, d: u8, k: u32) -> Insn {
        Insn { op, d, r: 0, k, len: 2 }
    }
    fn save() -> Insn {
        io(Op::In, 0, 0x3F)
    }
    fn restore() -> Insn {
        io(Op::Out, 0, 0x3F)
    }
    fn step() -> [Insn; 2] {
        [Insn { op: Op::Subi, d: 28, r: 0, k: 0x65, len: 2 }, Insn { op: Op::Sbci, d: 29, r: 0, k: 0xFE, len: 2 }]
    }
    fn straight(n: usize) -> Vec<Vec<usize>> {
        (0..n).map(|i| if i + 1 < n { vec![i + 1] } else { vec![] }).collect()
    }
    fn first(n: usize) -> Vec<bool> {
        (0..n).map(|i| i == 0).collect()
    }
    /// The inert instructions, with targets where the flow does not fall in.
    fn inert(seq: &[Insn], succs: &[Vec<usize>], entries: &[bool]) -> Vec<bool> {
        let mut is_target = entries.to_vec();
        for (i, ss) in succs.iter().enumerate() {
            for &s in ss.iter().filter(|&&s| s != i + 1) {
                is_target[s] = true;
            }
        }
        inert_sreg_pairs(seq, succs, &is_target, entries)
    }

    #[test]
    fn prologue_sreg_save_and_restore_is_inert() {
        // nop; in r0, SREG; cli; out SPH, r29; out SREG, r0; ret
        let seq = [
            io(Op::Nop, 0, 0),
            save(),
            Insn { op: Op::Bclr, d: 0, r: 7, k: 0, len: 2 },
            io(Op::Out, 29, 0x3E),
            restore(),
            io(Op::Ret, 0, 0),
        ];
        let got = inert(&seq, &straight(6), &first(6));
        assert_eq!(got, vec![false, true, false, false, true, false]);
        // A flag change in between (other than a step of Y) makes it real.
        let mut real = seq;
        real[2] = Insn { op: Op::Inc, d: 24, r: 0, k: 0, len: 2 };
        assert_eq!(inert(&real, &straight(6), &first(6)), vec![false; 6]);
        // So does a read of r0 in between.
        let mut read = seq;
        read[2] = Insn { op: Op::Mov, d: 24, r: 0, k: 0, len: 2 };
        assert_eq!(inert(&read, &straight(6), &first(6)), vec![false; 6]);
    }

    #[test]
    fn a_jump_from_one_pair_into_the_end_of_another_keeps_both_inert() {
        // 0 nop; 1 in; 2-3 step; 4 std Y+62; 5 rjmp 9; 6 in; 7-8 step; 9 std Y+62;
        // 10-11 step back; 12 out; 13 ret. 5 jumps to 9, the middle of the second pair.
        let [s, c] = step();
        let std = Insn {
            op: Op::St(crate::input::decode::Ptr::Y, crate::input::decode::Mode::Disp),
            d: 24,
            r: 0,
            k: 62,
            len: 2,
        };
        let seq = [
            io(Op::Nop, 0, 0),
            save(),
            s,
            c,
            std,
            io(Op::Rjmp, 0, 0),
            save(),
            s,
            c,
            std,
            s,
            c,
            restore(),
            io(Op::Ret, 0, 0),
        ];
        let mut succs = straight(seq.len());
        succs[5] = vec![9];
        let mut entries = first(seq.len());
        entries[6] = true;
        let got = inert(&seq, &succs, &entries);
        let want: Vec<bool> = (0..seq.len()).map(|i| [1, 2, 3, 6, 7, 8, 10, 11, 12].contains(&i)).collect();
        assert_eq!(got, want);
        // The other way into the join not clean (a flag changed before it): all real,
        // but for the saves' frame steps nothing: the restore is real, so is every save.
        let mut dirty = seq;
        dirty[4] = Insn { op: Op::Inc, d: 24, r: 0, k: 0, len: 2 };
        let got = inert(&dirty, &succs, &entries);
        assert_eq!(got, vec![false; seq.len()]);
    }

    #[test]
    fn r0_read_after_the_restore_keeps_the_save_real() {
        // in r0, SREG; out SREG, r0; push r0; ret
        let seq = [save(), restore(), io(Op::Push, 0, 0), io(Op::Ret, 0, 0)];
        let mut entries = vec![false; 4];
        entries[0] = true;
        // The save is the function's first instruction: an entry, but what it starts is
        // clean after it.
        assert_eq!(inert(&seq, &straight(4), &entries), vec![false; 4]);
        let seq = [save(), restore(), io(Op::Ret, 0, 0)];
        assert_eq!(inert(&seq, &straight(3), &first(3)), vec![true, true, false]);
    }

    #[test]
    fn a_branch_or_a_call_between_makes_the_pair_real() {
        let branch = Insn { op: Op::Brbs, d: 0, r: 1, k: 0, len: 2 };
        let seq = [save(), branch, restore(), io(Op::Ret, 0, 0)];
        let mut succs = straight(4);
        succs[1] = vec![2, 3];
        assert_eq!(inert(&seq, &succs, &first(4)), vec![false; 4]);
        let call = io(Op::Call, 0, 0x100);
        let seq = [save(), call, restore(), io(Op::Ret, 0, 0)];
        assert_eq!(inert(&seq, &straight(4), &first(4)), vec![false; 4]);
        // Code no entry reaches is never inert.
        let seq = [save(), restore(), io(Op::Ret, 0, 0)];
        assert_eq!(inert(&seq, &straight(3), &[false; 3]), vec![false; 3]);
    }
}
