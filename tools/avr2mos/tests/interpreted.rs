//! The 6502 interpreter of AVR code (`avr2mos::runtime::interp`) on whole programs: each test
//! program of `emulator-tests/programs/` runs translated, fully interpreted (`["*"]`) and
//! mixed (every other function interpreted, so that calls cross between translated and
//! interpreted code in both directions, through vtables and function pointers too); the
//! output and the exit code must be the same. What the interpreter refuses is a typed
//! error naming the function.

mod common;

use std::path::PathBuf;

use avr2mos::input::program::{AvrProgram, Function};
use avr2mos::pipeline::{BuildOptions, build_prg, translate_elf_with};
use avr2mos::{Options, TranslateError};

fn elf(name: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../emulator-tests/programs");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("avr-programs");
    let opts = BuildOptions {
        manifest_path: root.join(name).join("Cargo.toml"),
        bin: None,
        out: Some(out.join(format!("{name}.prg"))),
        target_dir: Some(common::shared_target(&root.join(name).join("Cargo.toml"))),
        quiet: true,
        ..Default::default()
    };
    build_prg(&opts).unwrap_or_else(|e| panic!("building {name}: {e}")).elf
}

/// Every other function of the program, as exact name prefixes (demangled).
fn half(elf: &std::path::Path) -> Vec<String> {
    let prog = AvrProgram::from_elf(&std::fs::read(elf).unwrap()).unwrap();
    prog.functions.iter().skip(1).step_by(2).map(|f| avr2mos::runtime::interp::demangle(&f.name)).collect()
}

/// Runs a fully interpreted program to its end: its cycles and the number of AVR
/// instructions the interpreter fetched.
fn interpreted_instructions(t: &avr2mos::Translation, budget: u64) -> (u64, u64) {
    let next = t.symbol("rt_interp_next").expect("the interpreter's loop is in the map");
    let mut m = common::Machine::new(&t.prg);
    let mut insns = 0u64;
    while m.cpu.cycles < budget {
        if m.cpu.registers.program_counter == next {
            insns += 1;
        }
        match m.step() {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => panic!("{}", e.chars().take(300).collect::<String>()),
        }
    }
    (m.cpu.cycles, insns)
}

/// Runs `name` translated, fully interpreted and mixed; all three must agree.
fn same_three_ways(name: &str, budget: u64) -> (String, Option<u8>) {
    let elf = elf(name);
    let mut results = Vec::new();
    for (how, interpret) in [("translated", vec![]), ("interpreted", vec!["*".to_string()]), ("mixed", half(&elf))] {
        let t = translate_elf_with(&elf, &Options { interpret, ..Options::default() }).unwrap_or_else(|e| {
            panic!("{name} {how}: {e}: {:?}", std::error::Error::source(&e).map(|s| s.to_string()))
        });
        let run = common::run(&t.prg, budget).unwrap_or_else(|e| panic!("{name} {how}: {e}"));
        eprintln!(
            "{name} {how}: {} bytes of .prg ({} interpreted, interpreter {}), {} cycles",
            t.prg.len(),
            t.stats.interpreted_bytes,
            t.stats.interpreter_bytes,
            run.cycles
        );
        assert!(run.returned, "{name} {how}: returns to BASIC");
        if how == "interpreted" {
            let (cycles, insns) = interpreted_instructions(&t, budget);
            assert_eq!(cycles, run.cycles);
            eprintln!(
                "{name} {how}: {insns} AVR instructions interpreted, {:.1} cycles each (native routines included)",
                cycles as f64 / insns.max(1) as f64
            );
        }
        results.push((how, String::from_utf8_lossy(&run.output).into_owned(), run.exit));
    }
    let (_, out, exit) = results[0].clone();
    for (how, o, e) in &results[1..] {
        assert_eq!((o, e), (&out, &exit), "{name} {how} differs from the translation");
    }
    (out, exit)
}

#[test]
fn hello_interpreted() {
    let (out, exit) = same_three_ways("hello", 40_000_000);
    assert_eq!(out, "HELLO, C128!\rN=86415 Q=4115 R=345\r");
    assert_eq!(exit, Some(42));
}

#[test]
fn features_interpreted() {
    let (out, exit) = same_three_ways("features", 1_000_000_000);
    assert!(out.starts_with("RECT 12\rSQUARE 25\r"), "{out:?}");
    assert!(out.contains("PANIC: INDEX OUT OF BOUNDS"), "{out:?}");
    assert_eq!(exit, Some(101));
}

#[test]
fn float_interpreted() {
    let (_, exit) = same_three_ways("float", 400_000_000);
    assert_eq!(exit, Some(0));
}

#[test]
fn abort_interpreted() {
    let (out, exit) = same_three_ways("abort", 40_000_000);
    assert_eq!(out, "BEFORE\r");
    assert_eq!(exit, Some(101));
}

fn prog_of(words: &[u16], functions: &[(&str, u32)]) -> AvrProgram {
    AvrProgram {
        text: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
        data_base: 0x200,
        functions: functions.iter().map(|&(n, a)| Function { name: n.into(), addr: a }).collect(),
        entry: 0,
        absolute: avr2mos::runtime::NATIVE.iter().map(|&(n, a, _)| (a, n.to_string())).collect(),
        ..Default::default()
    }
}

#[test]
fn a_call_into_the_middle_of_an_interpreted_function_is_a_typed_error() {
    // main: rcall inner+2; ret.  inner: nop; ret.
    let prog = prog_of(&[0xD002, 0x9508, 0x0000, 0x9508], &[("main", 0), ("inner", 4)]);
    let opts = Options { interpret: vec!["inner".into()], ..Options::default() };
    match avr2mos::translate_with(&prog, &opts) {
        Err(TranslateError::Unsupported { at, why, .. }) => {
            assert_eq!(at.function, "main");
            assert!(why.contains("interpreted"), "{why}");
        }
        other => panic!("{other:?}"),
    }
    // Interpreted, main may not call inner's middle either.
    let opts = Options { interpret: vec!["*".into()], ..Options::default() };
    assert!(matches!(avr2mos::translate_with(&prog, &opts), Err(TranslateError::Unsupported { .. })));
    // Translated, it is fine.
    assert!(avr2mos::translate(&prog).is_ok());
}

#[test]
fn what_the_translator_refuses_the_interpreter_refuses() {
    // lpm r0, Z in an interpreted function.
    let prog = prog_of(&[0x9004, 0x9508], &[("main", 0)]);
    let opts = Options { interpret: vec!["*".into()], ..Options::default() };
    match avr2mos::translate_with(&prog, &opts) {
        Err(TranslateError::Unsupported { at, .. }) => assert_eq!((at.function.as_str(), at.offset), ("main", 0)),
        other => panic!("{other:?}"),
    }
}
