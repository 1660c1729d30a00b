//! End to end: test programs from `emulator-tests/programs/` built through the pipeline
//! (cargo for avr-none, rust-lld, translation) and run on the `mos6502` CPU.

mod common;

use std::path::PathBuf;

use avr2mos::pipeline::{BuildOptions, build_prg};

#[allow(dead_code)] // Only the digests and pair counts are used here; the program prints them.
#[path = "../../../emulator-tests/programs/arith/src/ops.rs"]
mod ops;

#[path = "../../../emulator-tests/programs/natives/src/cases.rs"]
mod natives;

fn build(name: &str, bin: Option<&str>) -> (Vec<u8>, avr2mos::pipeline::BuildReport) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../emulator-tests/programs");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("avr-programs");
    let opts = BuildOptions {
        manifest_path: root.join(name).join("Cargo.toml"),
        bin: bin.map(str::to_string),
        out: Some(out.join(format!("{}.prg", bin.unwrap_or(name)))),
        target_dir: Some(common::shared_target(&root.join(name).join("Cargo.toml"))),
        quiet: true,
        ..Default::default()
    };
    let report = build_prg(&opts).unwrap_or_else(|e| panic!("building {name}: {e}"));
    (std::fs::read(&report.prg).unwrap(), report)
}

#[test]
fn hello_prints_formats_and_exits() {
    let (prg, report) = build("hello", None);
    let run = common::run(&prg, 2_000_000).unwrap();
    assert_eq!(String::from_utf8_lossy(&run.output), "HELLO, C128!\rN=86415 Q=4115 R=345\r");
    assert_eq!(run.exit, Some(42));
    assert!(run.returned, "returns to BASIC");
    assert_eq!(&prg[..2], &[0x01, 0x1C], "loads at $1C01");
    let map = std::fs::read_to_string(&report.map).unwrap();
    assert!(map.contains(" main\n"), "{map}");
    let lst = std::fs::read_to_string(&report.listing).unwrap();
    assert!(lst.contains("\nmain:\n"));
    eprintln!(
        "hello: {} AVR instructions -> {} bytes ({:.2} bytes/insn), {} cycles",
        report.stats.avr_insns,
        report.stats.code_bytes,
        report.stats.bytes_per_insn(),
        run.cycles
    );
}

/// Cycle budget of one arithmetic program (the 64-bit ones take about 12 billion).
const ARITH_BUDGET: u64 = 40_000_000_000;

fn arith(width: u32, pairs: u32, run_ops: fn(&mut ops::Rng, u32) -> [u64; 2]) {
    let bin = format!("arith{width}");
    let (prg, report) = build("arith", Some(&bin));
    let run = common::run(&prg, ARITH_BUDGET).unwrap();
    let text = String::from_utf8_lossy(&run.output).into_owned();
    let [u, i] = run_ops(&mut ops::Rng(0x1234_5678), pairs);
    assert_eq!(text, format!("U{width} {u:016X}\rI{width} {i:016X}\r"), "C128 vs host");
    assert_eq!(run.exit, Some(0));
    eprintln!(
        "{bin}: {} AVR instructions -> {} bytes ({:.2} bytes/insn), {} cycles",
        report.stats.avr_insns,
        report.stats.code_bytes,
        report.stats.bytes_per_insn(),
        run.cycles
    );
}

#[test]
fn arithmetic_on_8_bits_matches_the_host() {
    arith(8, ops::PAIRS_8, |r, n| [ops::ops_u8(r, n), ops::ops_i8(r, n)]);
}

#[test]
fn arithmetic_on_16_bits_matches_the_host() {
    arith(16, ops::PAIRS_16, |r, n| [ops::ops_u16(r, n), ops::ops_i16(r, n)]);
}

#[test]
fn arithmetic_on_32_bits_matches_the_host() {
    arith(32, ops::PAIRS_32, |r, n| [ops::ops_u32(r, n), ops::ops_i32(r, n)]);
}

fn arith64(name: &str, run_ops: fn(&mut ops::Rng, u32) -> u64) {
    let bin = format!("arith_{}", name.to_lowercase());
    let (prg, report) = build("arith", Some(&bin));
    let run = common::run(&prg, ARITH_BUDGET).unwrap();
    let d = run_ops(&mut ops::Rng(0x1234_5678), ops::PAIRS_64);
    assert_eq!(String::from_utf8_lossy(&run.output), format!("{name} {d:016X}\r"), "C128 vs host");
    assert_eq!(run.exit, Some(0));
    eprintln!(
        "{bin}: {} AVR instructions -> {} bytes, {} cycles",
        report.stats.avr_insns, report.stats.code_bytes, run.cycles
    );
}

#[test]
fn arithmetic_on_u64_matches_the_host() {
    arith64("U64", ops::ops_u64);
}

#[test]
fn arithmetic_on_i64_matches_the_host() {
    arith64("I64", ops::ops_i64);
}

#[test]
fn native_memory_functions_and_divisions_match_the_host() {
    let (prg, report) = build("natives", None);
    let run = common::run(&prg, 200_000_000).unwrap();
    let mut expected = String::new();
    let mut line = |v: u32| expected.push_str(&format!("{v:08X}\r"));
    let mut buf = [0u8; natives::BUF];
    natives::memory(&mut buf, &mut line);
    natives::division(500, &mut line);
    natives::multiplication(500, &mut line);
    assert_eq!(String::from_utf8_lossy(&run.output), expected, "C128 vs host");
    assert_eq!(run.exit, Some(0));
    let map = std::fs::read_to_string(&report.map).unwrap();
    for native in ["rt_memcpy", "rt_memmove", "rt_memset", "rt_udivmodsi4", "rt_divmodsi4", "rt_mulsi3"] {
        assert!(map.contains(native), "{native} in use: {map}");
    }
    for gone in ["u32_div_rem", "3mem6memcpy", "3mem7memmove", "3mem6memset"] {
        assert!(!map.contains(gone), "compiler_builtins' {gone} is not linked: {map}");
    }
    eprintln!("natives: {} cycles", run.cycles);
}

#[test]
fn dyn_traits_recursion_frames_and_panics() {
    let (prg, _) = build("features", None);
    let run = common::run(&prg, 50_000_000).unwrap();
    let text = String::from_utf8_lossy(&run.output).into_owned();
    let expected = "RECT 12\rSQUARE 25\rRECT 25000\rFIB 610\rSUM 7260\r";
    assert!(text.starts_with(expected), "{text:?}");
    let frame: u32 = (0..200u32).map(|i| u32::from((i as u8).wrapping_mul(13).wrapping_add(7))).sum::<u32>()
        + u32::from(199u8.wrapping_mul(13).wrapping_add(7)) * 1000;
    let many = 3u32 ^ 5 ^ 4u32.rotate_left(5) ^ 5u32.wrapping_sub(6) ^ 7;
    let rest = format!("FRAME {frame}\rMANY {many}\rSORTED [0, 1, 2, 3] EVENS 200\r[    42] [AB  ] [  MID  ] 0XFF\r");
    assert_eq!(&text[expected.len()..expected.len() + rest.len()], rest);
    assert!(text.contains("PANIC: INDEX OUT OF BOUNDS"), "{text:?}");
    assert_eq!(run.exit, Some(101), "a panic ends with exit code 101");
    assert!(run.returned, "even a panic returns to BASIC");
}

#[test]
fn translation_and_reference_interpreter_agree_register_for_register() {
    // Every function keeps the AVR stack footprint here, so SP and every pointer into the
    // stack are equal on both sides; the live registers must agree at every instruction.
    for name in ["hello", "features"] {
        let (_, report) = build(name, None);
        let elf = std::fs::read(&report.elf).unwrap();
        let (out, divergences) = common::lockstep(&elf, 50_000_000).unwrap();
        assert!(divergences.is_empty(), "{name}: {}", divergences.join("\n"));
        assert!(!out.is_empty());
    }
}

#[test]
fn left_out_saves_leave_the_live_registers_as_the_reference_interpreter_has_them() {
    // The precise-output case of `saves.rs`: mid's and leaf's left-out saves leave r16 and
    // r17 changed where nothing reads them; the lockstep compares the live registers.
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/filetests/saves.avr");
    let (prog, _) = common::parse_avr(&path, &std::fs::read_to_string(&path).unwrap()).unwrap();
    let opts = avr2mos::Options { adjust_all: true, ..Default::default() };
    let t = avr2mos::translate_with(&prog, &opts).unwrap();
    assert_eq!(t.listing.matches("saves left out").count(), 2, "{}", t.listing);
    let (_, divergences) = common::lockstep_program(&prog, 100_000, avr2mos::OptLevel::Full).unwrap();
    assert!(divergences.is_empty(), "{}", divergences.join("\n"));
}

#[test]
fn soft_float_matches_the_host() {
    let (prg, _) = build("float", None);
    let run = common::run(&prg, 20_000_000).unwrap();
    let (a, b): (f32, f32) = (std::hint::black_box(3.75), std::hint::black_box(-1.25));
    let c = a * b + a / b - (a - b);
    let third = std::hint::black_box(7u32) as f32 / 3.0;
    let mut x = 1.0f32;
    for _ in 0..6 {
        x = 0.5 * (x + 2.0 / x);
    }
    let expected =
        format!("{} {} {} {} TRUE\r", (a * 1000.0) as i32, (c * 1000.0) as i32, (third * 1e6) as u32, (x * 1e6) as u32);
    assert_eq!(String::from_utf8_lossy(&run.output), expected);
    assert_eq!(run.exit, Some(0));
}

#[test]
fn immediate_abort_ends_a_panic_with_its_exit_code_and_no_fmt() {
    let (prg, report) = build("abort", None);
    let run = common::run(&prg, 2_000_000).unwrap();
    assert_eq!(String::from_utf8_lossy(&run.output), "BEFORE\r");
    assert_eq!(run.exit, Some(101));
    let map = std::fs::read_to_string(&report.map).unwrap();
    assert!(!map.contains("core3fmt"), "no core::fmt in a program that cannot print a panic");
    assert!(map.contains(" abort\n"), "c128-rt's abort: {map}");
}

#[test]
fn an_unknown_panic_setting_is_an_error_naming_the_manifest() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bad-metadata");
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = dir.join("Cargo.toml");
    std::fs::write(&manifest, "[package]\nname = \"x\"\n[package.metadata.c128]\npanic = \"unwind\"\n").unwrap();
    let error = avr2mos::pipeline::panic_strategy(&manifest).unwrap_err().to_string();
    assert!(error.contains("Cargo.toml") && error.contains("unwind"), "{error}");
}

/// The hello program as a crate of its own at `dir`, with `placement.toml` beside it
/// holding `placement`.
fn placed_hello(dir: &std::path::Path, placement: &str) -> BuildOptions {
    let programs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../emulator-tests/programs");
    let rt = std::fs::canonicalize(programs.join("../../firmware/c128-rt")).unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::copy(programs.join("hello/src/main.rs"), dir.join("src/main.rs")).unwrap();
    let manifest = format!(
        "[package]\nname = \"placed\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\
         [package.metadata.c128]\nplacement = \"placement.toml\"\n\
         [dependencies]\nc128-rt = {{ path = {:?} }}\n\
         [profile.release]\nopt-level = \"s\"\npanic = \"abort\"\nlto = true\ncodegen-units = 1\n[workspace]\n",
        rt.display().to_string()
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("placement.toml"), placement).unwrap();
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("avr-programs");
    BuildOptions {
        manifest_path: dir.join("Cargo.toml"),
        out: Some(out.join("placed.prg")),
        target_dir: Some(out.join("target")),
        quiet: true,
        ..Default::default()
    }
}

#[test]
fn a_placement_entry_that_places_nothing_stops_the_build_naming_it() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("placed");
    // A prefix and a whole name that match nothing, and an exception under no interpreted
    // function: each is named with its list.
    let stale = "interpret = [\"core::fmt::\", \"c128_rt::renamed::\", \"core::fmt::writ$\"]\n\
                 translate = [\"core::fmt::write\", \"main\"]\n";
    let error = build_prg(&placed_hello(&dir, stale)).unwrap_err();
    match &error {
        avr2mos::PipelineError::StalePlacement { file, entries, .. } => {
            assert!(file.ends_with("placed/placement.toml"), "{}", file.display());
            let entries: Vec<(&str, &str)> = entries.iter().map(|(l, p)| (*l, p.as_str())).collect();
            assert_eq!(
                entries,
                [("interpret", "c128_rt::renamed::"), ("interpret", "core::fmt::writ$"), ("translate", "main")]
            );
        }
        other => panic!("{other}"),
    }
    let message = error.to_string();
    assert!(message.contains("placement.toml") && message.contains("interpret \"c128_rt::renamed::\""), "{message}");
    // Without them the same program builds, with core::fmt interpreted but for `write`,
    // and runs as the translated one does.
    let fine = "interpret = [\"core::fmt::\"]\ntranslate = [\"core::fmt::write\"]\n";
    let report = build_prg(&placed_hello(&dir, fine)).unwrap_or_else(|e| panic!("{e}"));
    let run = common::run(&std::fs::read(&report.prg).unwrap(), 4_000_000).unwrap();
    assert_eq!(String::from_utf8_lossy(&run.output), "HELLO, C128!\rN=86415 Q=4115 R=345\r");
    assert_eq!(run.exit, Some(42));
}

#[test]
fn a_placement_list_left_in_the_manifest_or_misspelt_is_an_error() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bad-placement");
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = dir.join("Cargo.toml");
    std::fs::write(&manifest, "[package]\nname = \"x\"\n[package.metadata.c128]\ninterpret = [\"x::\"]\n").unwrap();
    let error = avr2mos::pipeline::placement_setting(&manifest).unwrap_err().to_string();
    assert!(error.contains("Cargo.toml") && error.contains("placement file"), "{error}");
    std::fs::write(&manifest, "[package]\nname = \"x\"\n[package.metadata.c128]\nplacement = \"p.toml\"\n").unwrap();
    for (text, says) in [
        ("interpret = [\"x::\"]\ntranslated = [\"x::y\"]\n", "translated"),
        ("interpret = [\"x::\", \"!x::y\"]\n", "\"!x::y\""),
        ("interpret = \"x::\"\n", "a list of strings"),
    ] {
        std::fs::write(dir.join("p.toml"), text).unwrap();
        let error = avr2mos::pipeline::placement_setting(&manifest).unwrap_err().to_string();
        assert!(error.contains("p.toml") && error.contains(says), "{error}");
    }
    std::fs::write(dir.join("p.toml"), "interpret = [\"x::\"]\ntranslate = [\"x::y$\"]\n").unwrap();
    let placement = avr2mos::pipeline::placement_setting(&manifest).unwrap();
    assert_eq!(placement.setting(), ["x::", "!x::y$"]);
}

#[test]
fn translation_is_deterministic() {
    let (prg, report) = build("features", None);
    for _ in 0..3 {
        let t = avr2mos::pipeline::translate_elf(&report.elf).unwrap();
        assert_eq!(t.prg, prg);
        assert_eq!(t.listing, std::fs::read_to_string(&report.listing).unwrap());
        assert_eq!(t.map, std::fs::read_to_string(&report.map).unwrap());
    }
}

#[test]
fn the_plain_translation_runs_every_program_as_the_optimised_one_does() {
    // `--opt-level 0` is the reference for hunting a miscompile: it must behave the same,
    // and it must really be the other translation (larger, since nothing is fused across
    // instructions or specialised).
    for (name, budget) in
        [("hello", 2_000_000), ("features", 50_000_000), ("natives", 200_000_000), ("float", 20_000_000)]
    {
        let (prg, report) = build(name, None);
        let full = common::run(&prg, budget).unwrap();
        let plain_opts = avr2mos::Options { opt_level: avr2mos::OptLevel::Plain, ..Default::default() };
        let plain = avr2mos::pipeline::translate_elf_with(&report.elf, &plain_opts).unwrap();
        assert!(
            plain.stats.code_bytes > report.stats.code_bytes,
            "{name}: plain {} bytes, optimised {}",
            plain.stats.code_bytes,
            report.stats.code_bytes
        );
        let run = common::run(&plain.prg, budget * 2).unwrap();
        assert_eq!(run.output, full.output, "{name}: output at both levels");
        assert_eq!(run.exit, full.exit, "{name}: exit code at both levels");
        eprintln!(
            "{name}: plain {} bytes {} cycles, optimised {} bytes {} cycles",
            plain.stats.code_bytes, run.cycles, report.stats.code_bytes, full.cycles
        );
    }
}

#[test]
fn the_plain_translation_agrees_with_the_reference_interpreter_register_for_register() {
    for name in ["hello", "features"] {
        let (_, report) = build(name, None);
        let elf = std::fs::read(&report.elf).unwrap();
        let (out, divergences) = common::lockstep_at(&elf, 50_000_000, avr2mos::OptLevel::Plain).unwrap();
        assert!(divergences.is_empty(), "{name}: {}", divergences.join("\n"));
        assert!(!out.is_empty());
    }
}
