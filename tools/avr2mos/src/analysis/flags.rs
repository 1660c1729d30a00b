//! AVR flag liveness: which flags a later instruction can read after each instruction.
//!
//! The lowering computes a flag only where it is live, which removes most flag work (most
//! arithmetic is followed by more arithmetic that overwrites the flags). The analysis is a
//! backward data-flow over all instructions, iterated to a fixed point. Calls clobber
//! every flag (the AVR ABI does not preserve SREG), and no flag is live at a function
//! entry, so returns and tail calls end the flow.

use crate::input::decode::{Insn, Op};

/// What the later stages know of the flags: the flags live after each instruction
/// ([`live_out`]), and the SREG saves and restores that change nothing
/// ([`crate::avr_rewrites::sreg_saves`]), where flags are neither computed nor stored.
#[derive(Debug, Clone, Default)]
pub struct FlagFacts {
    /// Flags live after each instruction.
    pub live_out: Vec<FlagSet>,
    /// Whether each instruction is half of an inert SREG save and restore.
    pub inert: Vec<bool>,
}

/// A set of AVR flags, using the bit positions of the 6502 `P` register where the flag
/// has a 6502 counterpart (so the lowering can store `P` directly).
pub type FlagSet = u8;
/// Carry.
pub const C: FlagSet = 0x01;
/// Zero.
pub const Z: FlagSet = 0x02;
/// The T bit (`bst`/`bld`), kept in its own byte.
pub const T: FlagSet = 0x04;
/// Two's-complement overflow.
pub const V: FlagSet = 0x40;
/// Negative.
pub const N: FlagSet = 0x80;
/// The flags kept in the flags byte.
pub const CZNV: FlagSet = C | Z | N | V;
/// Every tracked flag.
pub const ALL: FlagSet = CZNV | T;

/// The flag an SREG bit number (as in `brbs`) stands for; S reads N and V. H and I are not
/// tracked (`None`).
pub fn sreg_bit(s: u8) -> Option<FlagSet> {
    match s {
        0 => Some(C),
        1 => Some(Z),
        2 => Some(N),
        3 => Some(V),
        4 => Some(N | V),
        6 => Some(T),
        _ => None,
    }
}

/// Flags the instruction reads, given the flags live after it: `cpc`, `sbc` and `sbci`
/// read the old Z only to and it into the new one, so only when the new Z is live.
pub fn uses(i: &Insn, live_after: FlagSet) -> FlagSet {
    match i.op {
        Op::Adc | Op::Ror => C,
        Op::Sbc | Op::Cpc | Op::Sbci => C | (live_after & Z),
        Op::Brbs | Op::Brbc => sreg_bit(i.r).unwrap_or(0),
        Op::Bld => T,
        Op::In if i.k == 0x3F => ALL,
        _ => 0,
    }
}

/// Flags the instruction writes (or clobbers, for calls).
pub fn defs(i: &Insn) -> FlagSet {
    match i.op {
        Op::Add
        | Op::Adc
        | Op::Sub
        | Op::Sbc
        | Op::Cp
        | Op::Cpc
        | Op::Cpi
        | Op::Subi
        | Op::Sbci
        | Op::Neg
        | Op::Com
        | Op::Lsr
        | Op::Asr
        | Op::Ror
        | Op::Adiw
        | Op::Sbiw => CZNV,
        Op::And | Op::Andi | Op::Or | Op::Ori | Op::Eor | Op::Inc | Op::Dec => Z | N | V,
        Op::Mul | Op::Muls | Op::Mulsu | Op::Fmul | Op::Fmuls | Op::Fmulsu => C | Z,
        Op::Bst => T,
        Op::Bset | Op::Bclr => match i.r {
            4 => N | V,
            s => sreg_bit(s).unwrap_or(0),
        },
        Op::Call | Op::Rcall | Op::Icall | Op::Eicall => ALL,
        Op::Out if i.k == 0x3F => ALL,
        _ => 0,
    }
}

/// Computes the flags live after each instruction, given each instruction's successors
/// (indices into the same slice). Instructions marked in `inert` (SREG saves and
/// restores with no flag change between, see [`crate::avr_rewrites::sreg_saves`]) neither read nor write
/// flags.
pub fn live_out(insns: &[Insn], succs: &[Vec<usize>], inert: &[bool]) -> Vec<FlagSet> {
    let n = insns.len();
    let mut live_in = vec![0u8; n];
    let mut out = vec![0u8; n];
    let mut changed = true;
    while changed {
        changed = false;
        for i in (0..n).rev() {
            let o = succs[i].iter().fold(0, |acc, &s| acc | live_in[s]);
            let (u, d) = if inert[i] { (0, 0) } else { (uses(&insns[i], o), defs(&insns[i])) };
            let li = u | (o & !d);
            if o != out[i] || li != live_in[i] {
                out[i] = o;
                live_in[i] = li;
                changed = true;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn insn(op: Op, r: u8) -> Insn {
        Insn { op, d: 24, r, k: 0, len: 2 }
    }

    #[test]
    fn compare_chain_keeps_carry_and_zero_live_into_the_branch() {
        // cp; cpc; brne; add -> after cp, C and Z are read by cpc; after cpc only Z.
        let insns = [insn(Op::Cp, 22), insn(Op::Cpc, 23), insn(Op::Brbc, 1), insn(Op::Add, 22)];
        let succs = vec![vec![1], vec![2], vec![3], vec![]];
        let live = live_out(&insns, &succs, &[false; 4]);
        assert_eq!(live, vec![C | Z, Z, 0, 0]);
        // Without a Z reader at the end, the chain only carries C.
        let insns = [insn(Op::Sub, 22), insn(Op::Sbc, 23), insn(Op::Brbs, 0)];
        let live = live_out(&insns, &[vec![1], vec![2], vec![]], &[false; 3]);
        assert_eq!(live, vec![C, C, 0]);
    }

    #[test]
    fn signed_branch_reads_n_and_v_and_calls_clobber() {
        let insns = [insn(Op::Sub, 22), insn(Op::Call, 0), insn(Op::Brbs, 4)];
        let succs = vec![vec![1], vec![2], vec![]];
        assert_eq!(live_out(&insns, &succs, &[false; 3]), vec![0, N | V, 0]);
    }

    #[test]
    fn loops_reach_a_fixed_point() {
        // 0: lsr (defs CZNV); 1: bst; 2: brbc T -> 0 ; 3: ror (reads C)
        let insns = [insn(Op::Lsr, 0), insn(Op::Bst, 0), insn(Op::Brbc, 6), insn(Op::Ror, 0)];
        let succs = vec![vec![1], vec![2], vec![3, 0], vec![]];
        let live = live_out(&insns, &succs, &[false; 4]);
        assert_eq!(live[0], C, "carry of lsr is read by ror after the loop");
        assert_eq!(live[1], C | T);
    }
}
