//! bac-harness: runs bac128's C128 programs in the emulated machine ([`c128_emu`]). It
//! builds them through the translator's pipeline ([`build`]), plays the game through its
//! keyboard ([`game`]), profiles them ([`profile`]), runs the cc65 benchmark peer beside
//! the Rust build ([`cc65`]) and the benchmark suite's kernels on both sides ([`kernels`]).
//!
//! `bac` ships it (`bac play`, `bac bench`, `bac profile`), and `emulator-tests` holds the
//! tests that use it. The emulator itself knows nothing of the translator, the game or
//! cc65; everything that needs one of them lives here, as agb keeps mgba apart from its
//! test runner.

pub mod build;
pub mod cc65;
pub mod game;
pub mod kernels;
pub mod profile;
