//! Where r1, the AVR's zero register, is known to hold zero. LLVM's AVR back end keeps r1
//! at zero and compares with it (`cp r24, r1; cpc r25, r1` is "r25:r24 == 0"); only a
//! multiply writes it (the product's high byte), and an `eor r1, r1` right after puts the
//! zero back. A compare with a register the translator knows is zero can drop that byte's
//! `CMP`, and a run of them becomes one `LDA`/`ORA` chain ([`crate::lower`]).
//!
//! A forward "must" data-flow over each function: r1 is zero where a function starts
//! (the calling convention; not in a function that ends in `reti`, an interrupt handler,
//! which clears r1 itself), after a call (every callee, translated or native, returns it
//! zero), and after `eor r1, r1`; anything else that writes r1 makes it unknown, and a
//! join is zero only when every path into it is.
//!
//! Assumes: `succs` lists every successor of each instruction inside its function (a call
//! returns to the next instruction) and `entries` marks every instruction reached from
//! outside that flow; the AVR calling convention for r1 at function starts and returns.
//! Guarantees: `zero[i]` is true only when r1 is zero before instruction `i` on every
//! path that reaches it; an entry other than a function's start (a relocated code
//! address inside a function) and an instruction no entry reaches are never known zero.

use std::collections::HashMap;
use std::ops::Range;

use crate::input::decode::{Insn, Op};

/// Whether r1 is zero after instruction `i` given that it is (`zero`) before it.
fn after(i: &Insn, zero: bool) -> bool {
    match i.op {
        Op::Call | Op::Rcall | Op::Icall | Op::Eicall => true,
        Op::Eor if i.d == 1 && i.r == 1 => true,
        _ if crate::analysis::liveness::defs_of(i) & crate::analysis::liveness::ZERO_REG != 0 => false,
        _ => zero,
    }
}

/// For each instruction, whether r1 is zero before it on every path (see the module doc).
pub fn known_zero(
    insns: &[Insn],
    addrs: &[u32],
    succs: &[Vec<usize>],
    entries: &[bool],
    func_starts: &HashMap<u32, usize>,
    ranges: &[Range<usize>],
) -> Vec<bool> {
    let n = insns.len();
    let handler: Vec<bool> = ranges.iter().map(|r| insns[r.clone()].iter().any(|i| i.op == Op::Reti)).collect();
    // Entries seed the data-flow; everything else starts "not reached" and is lowered to
    // the meet of what reaches it, so unreached code is never known zero.
    let mut reached = vec![false; n];
    let mut zero = vec![false; n];
    let mut work = Vec::new();
    for i in 0..n {
        if entries[i] {
            reached[i] = true;
            zero[i] = func_starts.get(&addrs[i]).is_some_and(|&f| !handler[f]);
            work.push(i);
        }
    }
    while let Some(i) = work.pop() {
        let out = after(&insns[i], zero[i]);
        for &s in &succs[i] {
            let inner_entry = entries[s] && !func_starts.contains_key(&addrs[s]);
            let z = out && !inner_entry && (!reached[s] || zero[s]);
            if !reached[s] || z != zero[s] {
                reached[s] = true;
                zero[s] = z;
                work.push(s);
            }
        }
    }
    zero
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The data-flow of one function made of `words`, falling straight through except
    /// for the extra edges in `jumps` (from, to).
    fn run(words: &[u16], jumps: &[(usize, usize)], extra_entries: &[usize]) -> Vec<bool> {
        let (insns, succs) = crate::analysis::straight_flow(words, jumps);
        let addrs: Vec<u32> = insns.iter().scan(0u32, |a, i| Some(std::mem::replace(a, *a + i.len as u32))).collect();
        let n = insns.len();
        let mut entries = vec![false; n];
        entries[0] = true;
        for &e in extra_entries {
            entries[e] = true;
        }
        let starts = HashMap::from([(0u32, 0usize)]);
        let ranges: Vec<Range<usize>> = std::iter::once(0..n).collect();
        known_zero(&insns, &addrs, &succs, &entries, &starts, &ranges)
    }

    const MUL_R24_R22: u16 = 0x9f86;
    const CLR_R1: u16 = 0x2411;
    const CP_R24_R1: u16 = 0x1581;
    const MOV_R1_R24: u16 = 0x2e18;
    const RET: u16 = 0x9508;
    const RETI: u16 = 0x9518;

    #[test]
    fn a_multiply_spoils_r1_until_it_is_cleared() {
        assert_eq!(
            run(&[CP_R24_R1, MUL_R24_R22, CP_R24_R1, CLR_R1, CP_R24_R1, RET], &[], &[]),
            [true, true, false, false, true, true]
        );
    }

    #[test]
    fn any_other_write_to_r1_spoils_it() {
        assert_eq!(run(&[MOV_R1_R24, CP_R24_R1, RET], &[], &[]), [true, false, false]);
    }

    #[test]
    fn a_join_is_zero_only_when_every_path_is() {
        // 0: cp; 1: mul; 2: cp (also reached from 0, before the mul); 3: clr; 4: ret.
        let z = run(&[CP_R24_R1, MUL_R24_R22, CP_R24_R1, CLR_R1, RET], &[(0, 2)], &[]);
        assert_eq!(z, [true, true, false, false, true]);
        // A loop back from after the clear keeps the head zero.
        let z = run(&[CP_R24_R1, MUL_R24_R22, CLR_R1, CP_R24_R1, RET], &[(3, 0)], &[]);
        assert_eq!(z, [true, true, false, true, true]);
        // A loop back from before the clear spoils the head.
        let z = run(&[CP_R24_R1, MUL_R24_R22, CP_R24_R1, CLR_R1, RET], &[(1, 0)], &[]);
        assert_eq!(z, [false, false, false, false, true]);
    }

    #[test]
    fn an_interrupt_handler_and_an_inner_entry_start_unknown() {
        assert_eq!(run(&[CP_R24_R1, CLR_R1, CP_R24_R1, RETI], &[], &[]), [false, false, true, true]);
        assert_eq!(run(&[CP_R24_R1, CP_R24_R1, RET], &[], &[1]), [true, false, false]);
    }

    #[test]
    fn unreached_code_is_never_known_zero() {
        // 0: ret; 1: cp (no path reaches it).
        assert_eq!(run(&[RET, CP_R24_R1], &[], &[]), [true, false]);
    }
}
