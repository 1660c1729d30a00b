//! Analyses of the whole AVR program that the later stages ask for by name: the call graph,
//! how often each instruction runs, live flags, live registers, where r1 is zero, where
//! the lowering may fuse instructions; and, on the instructions as the frame plan
//! rewrote them, which registers hold known constants.

pub mod callgraph;
pub mod cold;
pub mod constants;
pub mod div_products;
pub mod flags;
pub mod fusion;
pub mod liveness;
pub mod zero_reg;

/// Test support: the decoded `words` as one function's straight-line flow, falling through
/// to the next instruction (but after a return) and along the extra edges `jumps` (from,
/// to), with its successors.
#[cfg(test)]
pub(crate) fn straight_flow(
    words: &[u16],
    jumps: &[(usize, usize)],
) -> (Vec<crate::input::decode::Insn>, Vec<Vec<usize>>) {
    use crate::input::decode::{Op, decode_words};
    let insns = decode_words(words);
    let n = insns.len();
    let ends = |i: usize| matches!(insns[i].op, Op::Ret | Op::Reti);
    let mut succs: Vec<Vec<usize>> = (0..n).map(|i| if i + 1 < n && !ends(i) { vec![i + 1] } else { vec![] }).collect();
    for &(f, t) in jumps {
        succs[f].push(t);
    }
    (insns, succs)
}
