//! The Rust half of bac128's benchmark suite (`emulator-tests/kernels`, see its README):
//! everyday kernels of embedded and retro code, written once here as a Rust programmer
//! would write them and once in C for cc65 (`../c`). Bounds checks stay in, and nothing is
//! tuned for a compiler. The kernels are frozen: the translator is measured against them,
//! never the other way round.
//!
//! Each kernel is `run(seed) -> u32`: it makes its input from `seed` and returns a
//! checksum of what it computed. The host runs this crate to know the answer; the C128
//! runs it translated (`../prg`), and the C port must give the same.
#![no_std]

pub mod base64;
pub mod bfs;
pub mod bignum;
pub mod crc32;
pub mod fnv;
pub mod format;
pub mod gcd;
pub mod life;
pub mod lz;
pub mod mandelbrot;
pub mod rng;
pub mod sort;
pub mod sum;
pub mod vm;

/// A kernel: its input from a seed, its result as a checksum.
pub type Kernel = fn(u16) -> u32;

/// Every kernel of the suite with its name, which is also its C file's (`../c/NAME.c`)
/// and its C128 program's (`../prg/src/bin/NAME.rs`).
pub const KERNELS: [(&str, Kernel); 12] = [
    ("crc32", crc32::run),
    ("fnv", fnv::run),
    ("sort", sort::run),
    ("format", format::run),
    ("mandelbrot", mandelbrot::run),
    ("vm", vm::run),
    ("lz", lz::run),
    ("life", life::run),
    ("bfs", bfs::run),
    ("gcd", gcd::run),
    ("bignum", bignum::run),
    ("base64", base64::run),
];
