//! The harness's tests, one binary: the repository's real C128 programs built through the
//! translator and run in the emulated C128. The game on its real disk (`c128_game`, and what
//! its quit leaves BASIC, `quit`), the benchmark against the host and against cc65
//! (`rust_bench`, `cc65`), the benchmark suite's kernels on both sides (`kernels`), and the
//! test programs of `emulator-tests/programs` (`allram`, `bank1`, `demo`, `platform`, and the
//! table of what each must print, `programs`), and the coach's probe (`coach`).
//!
//! `cargo test -p emulator-tests --test harness -- c128_game::` runs one part.

mod build;
mod built_game;
mod golden;

mod allram;
mod bank1;
mod c128_game;
mod cc65;
mod coach;
mod contrast;
mod demo;
mod kernels;
mod packed;
mod platform;
mod profile;
mod programs;
mod quit;
mod rust_bench;
