//! Rewrites of the emitted 6502 code: local clean-ups, dead stores and loads, flags already
//! set, what A holds, shared long branches, calls before a return as jumps, outlining of
//! code that is not hot.

pub mod branch_chain;
pub mod dead_loads;
pub mod dead_stores;
pub mod joins;
pub mod nz_reuse;
pub mod outline;
pub mod peephole;
pub mod tail_calls;
pub mod values;
