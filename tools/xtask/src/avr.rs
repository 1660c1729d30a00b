//! The rules crate built for AVR, the 8-bit target the 6502 translation starts from, and a
//! look at what its object code calls: the proof that `std`, floating point and 64-bit
//! division stay out of the firmware.

use crate::{cargo, workspace_root};
use anyhow::{Context, Result, bail};
use object::read::archive::ArchiveFile;
use object::{Object, ObjectSymbol};

/// Runtime helpers that mean floating point or 64-bit multiply/divide reached the code
/// (libgcc/compiler-builtins names).
const FORBIDDEN: &[&str] = &[
    "__addsf3",
    "__subsf3",
    "__mulsf3",
    "__divsf3",
    "__adddf3",
    "__subdf3",
    "__muldf3",
    "__divdf3",
    "__floatsisf",
    "__floatunsisf",
    "__fixsfsi",
    "__fixunssfsi",
    "__muldi3",
    "__divdi3",
    "__udivdi3",
    "__moddi3",
    "__umoddi3",
    "__udivmoddi4",
    "__divmoddi4",
];

/// Builds the rules crate's AVR probe (`firmware/rules/examples/avr_probe.rs`) for
/// `avr-none` and checks what its code calls.
pub fn check() -> Result<()> {
    cargo(&[
        "build",
        "--package",
        "bac-rules",
        "--example",
        "avr_probe",
        "--release",
        "--target",
        "avr-none",
        "-Z",
        "build-std=core",
        "--target-dir",
        "target/avr",
        "--config",
        "target.avr-none.rustflags=[\"-C\", \"target-cpu=atmega328p\", \"-C\", \"panic=abort\"]",
    ])?;
    // The probe is a static library: its own object holds every monomorphised rules
    // function it uses; the members it calls into (core, compiler_builtins) are skipped.
    let rlib = workspace_root().join("target/avr/avr-none/release/examples/libavr_probe.a");
    let data = std::fs::read(&rlib).with_context(|| format!("reading {}", rlib.display()))?;
    let archive = ArchiveFile::parse(&*data).with_context(|| format!("{} is not an archive", rlib.display()))?;
    let mut found = Vec::new();
    let mut objects = 0;
    for member in archive.members() {
        let member = member.context("reading an archive member")?;
        let name = String::from_utf8_lossy(member.name()).to_string();
        if !name.ends_with(".o") || !name.starts_with("avr_probe") {
            continue;
        }
        let bytes = member.data(&*data).with_context(|| format!("reading {name}"))?;
        let file = object::File::parse(bytes).with_context(|| format!("{name} is not an object file"))?;
        objects += 1;
        for symbol in file.symbols().filter(|s| s.is_undefined()) {
            let symbol = symbol.name().unwrap_or_default();
            if FORBIDDEN.contains(&symbol) || symbol.contains("std::") {
                found.push(format!("{name}: {symbol}"));
            }
        }
    }
    if objects == 0 {
        bail!("{} holds no object code", rlib.display());
    }
    if !found.is_empty() {
        bail!("the AVR build of bac-rules calls helpers the firmware must not need:\n  {}", found.join("\n  "));
    }
    eprintln!("bac-rules for avr-none: {objects} object file(s), no floating-point or 64-bit division helpers");
    Ok(())
}
