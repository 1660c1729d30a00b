//! The harness that runs bac128's C128 programs in the emulated machine ([`c128_emu`]):
//! it builds them through the translator's pipeline ([`build`]), plays the game through its
//! keyboard ([`game`]) and runs the cc65 benchmark peer beside the Rust build ([`cc65`]).
//!
//! The emulator itself knows nothing of the translator, the game or cc65; everything here
//! that needs one of them says so with a dependency, as agb keeps mgba apart from its test
//! runner. Its tests (`tests/harness`) play the real programs: the game on its real disk,
//! the benchmark against the host, the test programs in `emulator-tests/programs`.

pub mod build;
pub mod cc65;
pub mod game;
pub mod profile;
