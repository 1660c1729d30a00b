//! The emulator's tests, one binary: the public API (`api`), the chips (`chips`), the CPU,
//! MMU and error reports (`machine`), the KERNAL's disk calls (`disk`), random code that must
//! never panic or hang it (`robustness`) and its speed benchmark (`bench`). The programs are
//! assembled by hand (`asm`): nothing here needs the translator.

mod asm;

mod api;
mod bench;
mod chips;
mod disk;
mod machine;
mod robustness;
