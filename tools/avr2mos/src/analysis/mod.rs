//! Analyses of the whole AVR program that the later stages ask for by name: the call graph,
//! how often each instruction runs, live flags, live registers, where r1 is zero, where
//! the lowering may fuse instructions; and, on the instructions as the frame plan
//! rewrote them, which registers hold known constants.

pub mod callgraph;
pub mod cold;
pub mod constants;
pub mod flags;
pub mod fusion;
pub mod liveness;
pub mod zero_reg;
