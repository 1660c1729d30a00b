//! The benchmark peer: the C port of the rules core in `emulator-tests/cc65/`, built by
//! Debian's cc65, and the harness that runs it (or any program keeping the same mailbox,
//! such as the translated Rust of `firmware/bench-prg`) and times and traces it. Its
//! tests are `tests/harness/cc65.rs` and `tests/harness/rust_bench.rs`; `bac bench` prints
//! its figures.

pub mod harness;
pub mod trace;
