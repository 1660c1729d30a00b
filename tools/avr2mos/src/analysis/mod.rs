//! Analyses of the whole AVR program that the later stages ask for by name: the call graph,
//! how often each instruction runs, live flags, live registers, where r1 is zero, where
//! the lowering may fuse instructions.

pub mod callgraph;
pub mod cold;
pub mod flags;
pub mod fusion;
pub mod liveness;
pub mod zero_reg;
