//! The benchmark suite's kernels (`emulator-tests/kernels`, see its README) on the C128:
//! each built from its Rust module by the translator and from its C file by cc65, run in
//! the emulator on two seeds, and held to the Rust module run on the host. The figures
//! come from the same runs and are printed, never asserted (`bac bench` reports them).

use bac_harness::kernels::{self, EMPTY, SEED};
use std::path::PathBuf;
use std::sync::OnceLock;

/// Every kernel's program and `empty`'s, in the suite's order with `empty` first.
type Programs = Vec<(&'static str, Vec<u8>)>;

fn scratch(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name)
}

fn build_all(build: impl Fn(&str) -> Result<Vec<u8>, kernels::KernelError>) -> Programs {
    std::iter::once(EMPTY)
        .chain(kernels::names())
        .map(|name| (name, build(name).unwrap_or_else(|e| panic!("building kernel {name}: {e}"))))
        .collect()
}

/// The translated programs, built once per test binary.
fn rust() -> &'static Programs {
    static PROGRAMS: OnceLock<Programs> = OnceLock::new();
    PROGRAMS.get_or_init(|| build_all(|name| kernels::build_rust(name, &scratch("kernels"))))
}

/// The programs translated with `--opt-level 0`, built once per test binary.
fn rust_o0() -> &'static Programs {
    static PROGRAMS: OnceLock<Programs> = OnceLock::new();
    PROGRAMS
        .get_or_init(|| build_all(|name| kernels::build_rust_at(name, &scratch("kernels"), avr2mos::OptLevel::Plain)))
}

/// The cc65 programs, built once per test binary.
fn cc65() -> &'static Programs {
    static PROGRAMS: OnceLock<Programs> = OnceLock::new();
    PROGRAMS.get_or_init(|| build_all(|name| kernels::build_c(name, &scratch("kernels-cc65"))))
}

/// Runs every kernel of `programs` on each seed; each must give the host's result.
fn agree(programs: &Programs, side: &str) {
    for seed in [SEED, 7] {
        for (name, prg) in programs.iter().filter(|(name, _)| *name != EMPTY) {
            let run = kernels::run(prg, seed).unwrap_or_else(|e| panic!("{side} kernel {name}, seed {seed}: {e}"));
            let host = kernels::host(name, seed).unwrap();
            assert_eq!(run.result, host, "{side} kernel {name}, seed {seed}: the C128 against the host");
            assert!(run.cycles > 0, "{side} kernel {name} marks its phase");
        }
    }
}

#[test]
fn the_translated_kernels_compute_what_the_host_computes() {
    agree(rust(), "rust");
}

#[test]
fn the_kernels_translated_without_optimisation_compute_what_the_host_computes() {
    agree(rust_o0(), "rust --opt-level 0");
}

#[test]
fn the_cc65_kernels_compute_what_the_host_computes() {
    agree(cc65(), "cc65");
}

#[test]
fn empty_returns_its_seed() {
    for programs in [rust(), cc65()] {
        let run = kernels::run(&programs[0].1, 1234).unwrap();
        assert_eq!(run.result, 1234);
    }
}

/// The figures (`cargo test -p emulator-tests --test harness -- kernels:: --nocapture`).
#[test]
fn kernel_figures() {
    let (rust, rust_o0, cc65) = (rust(), rust_o0(), cc65());
    let empty = |p: &Programs| kernels::program_bytes(&p[0].1);
    let mut figures = Vec::new();
    for (((name, r), (_, o0)), (_, c)) in rust.iter().zip(rust_o0).zip(cc65).skip(1) {
        let (rr, cr) = (kernels::run(r, SEED).unwrap(), kernels::run(c, SEED).unwrap());
        let o0 = kernels::run(o0, SEED).unwrap();
        figures.push(kernels::Figures {
            name,
            result: rr.result,
            rust_cycles: rr.cycles,
            cc65_cycles: cr.cycles,
            rust_o0_cycles: o0.cycles,
            rust_bytes: kernels::program_bytes(r) - empty(rust),
            cc65_bytes: kernels::program_bytes(c) - empty(cc65),
        });
    }
    let suite =
        kernels::Suite { kernels: figures, rust_empty_bytes: empty(rust), cc65_empty_bytes: empty(cc65), seed: SEED };
    for k in &suite.kernels {
        eprintln!(
            "{:<11} cycles {:>9} / {:>9} = {:.2} (-O0 {:>9}{})   bytes {:>5} / {:>5} = {:.2}",
            k.name,
            k.rust_cycles,
            k.cc65_cycles,
            k.cycles_ratio(),
            k.rust_o0_cycles,
            if k.slower_than_o0() { ", slower" } else { "" },
            k.rust_bytes,
            k.cc65_bytes,
            k.bytes_ratio()
        );
    }
    eprintln!("geometric means: cycles {:.2}, bytes {:.2}", suite.cycles_ratio(), suite.bytes_ratio());
}
