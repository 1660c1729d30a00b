//! Interpreted functions kept in RAM bank 1 (`[package.metadata.c128] bank1`): the test
//! programs translated in the all-RAM mode, then with every function (and with every other
//! function) interpreted from a second file that the start-up code loads into bank 1 and
//! unpacks there (bac-pack). The
//! output and exit code must be the same three ways, the machine must come back to BASIC
//! with its RAM configuration, and a missing bank-1 file is reported, not run.

use avr2mos::input::program::AvrProgram;
use avr2mos::mmap::{BANK1_START, MemoryMode};
use avr2mos::pipeline::translate_elf_with;
use avr2mos::{Options, Translation};
use c128_emu::disk::{FileType, MemoryDrive};
use c128_emu::{ExitKind, Program, RunOptions, start};

use crate::build;

/// The bank-1 file's name on the test drive.
const NAME: &[u8] = b"CODE";

fn translate(elf: &std::path::Path, interpret: Vec<String>, bank1: bool) -> Translation {
    let options =
        Options { memory: MemoryMode::AllRam, interpret, bank1: bank1.then(|| NAME.to_vec()), ..Options::default() };
    translate_elf_with(elf, &options).unwrap_or_else(|e| panic!("{e}: {:?}", std::error::Error::source(&e)))
}

/// Runs a translation with its bank-1 file (if any) on device 8: output, exit code, and
/// $D506 after the run.
fn run(t: &Translation, budget: u64) -> (String, u8, ExitKind, u8) {
    let mut drive = MemoryDrive::default();
    if let Some(file) = &t.bank1 {
        drive.files.push((NAME.to_vec(), FileType::Prg, file.clone()));
    }
    let mut options = RunOptions { drive: Some(Box::new(drive)), ..RunOptions::default() };
    options.config.max_cycles = budget;
    let mut m = start(Program::Prg(&t.prg), options).unwrap();
    let exit = m.run().unwrap_or_else(|e| panic!("{e}\n{}", m.output_text()));
    let rcr = m.bus().mmu.rcr;
    (m.output_text(), exit.code, exit.kind, rcr)
}

/// Every other function, by demangled name.
fn half(elf: &std::path::Path) -> Vec<String> {
    let prog = AvrProgram::from_elf(&std::fs::read(elf).unwrap()).unwrap();
    prog.functions.iter().skip(1).step_by(2).map(|f| avr2mos::runtime::interp::demangle(&f.name)).collect()
}

fn same_three_ways(name: &str, budget: u64) -> String {
    let report = build::program(&format!("emulator-tests/programs/{name}"), &format!("bank1-{name}"));
    let translated = translate(&report.elf, vec![], false);
    assert!(translated.bank1.is_none());
    let want = run(&translated, budget);
    for (how, interpret) in [("interpreted", vec!["*".to_string()]), ("mixed", half(&report.elf))] {
        let t = translate(&report.elf, interpret, true);
        let file = t.bank1.as_ref().expect("a bank-1 file");
        // Packed: it unpacks in place to the interpreted code at $4000.
        let (start, code) =
            bac_pack::unpack_prg(file, bac_pack::Format::Bytes).unwrap_or_else(|e| panic!("{name} {how}: {e}"));
        assert_eq!(start, BANK1_START, "{name} {how}: unpacks to $4000");
        assert_eq!(code.len(), t.stats.bank1_bytes);
        assert!(t.stats.bank1_bytes > 0, "{name} {how}: {}", t.stats);
        let got = run(&t, budget);
        assert_eq!(
            (&got.0, got.1, got.2),
            (&want.0, want.1, want.2),
            "{name} {how} in bank 1 differs from the translation"
        );
        assert_eq!(got.3 & 0x0F, 0x04, "{name} {how}: $D506 is BASIC's again");
    }
    want.0
}

#[test]
fn hello_from_bank_1() {
    let out = same_three_ways("hello", 40_000_000);
    assert!(out.starts_with("HELLO, C128!"), "{out:?}");
}

#[test]
fn features_from_bank_1() {
    let out = same_three_ways("features", 1_000_000_000);
    assert!(out.contains("PANIC: INDEX OUT OF BOUNDS"), "{out:?}");
}

#[test]
fn abort_from_bank_1() {
    let out = same_three_ways("abort", 40_000_000);
    assert!(out.starts_with("BEFORE"), "{out:?}");
}

#[test]
fn a_missing_bank_1_file_is_reported_and_nothing_runs() {
    let report = build::program("emulator-tests/programs/hello", "bank1-missing");
    let mut t = translate(&report.elf, vec!["*".into()], true);
    t.bank1 = None;
    let (out, code, kind, rcr) = run(&t, 40_000_000);
    assert!(out.contains("?CANNOT LOAD CODE"), "{out:?}");
    assert!(!out.contains("HELLO"), "{out:?}");
    assert_eq!((code, kind), (0, ExitKind::ReturnedToBasic));
    assert_eq!(rcr & 0x0F, 0x04);
}

#[test]
fn the_packed_bank_1_file_unpacks_to_the_interpreted_code() {
    // The 6502 decoder in the start-up code against bac-pack's: after a run, bank 1 from
    // $4000 holds exactly the bytes the reference unpacks (the packed file was smaller).
    let report = build::program("emulator-tests/programs/hello", "bank1-unpacked");
    let t = translate(&report.elf, vec!["*".into()], true);
    let file = t.bank1.as_ref().expect("a bank-1 file");
    let (at, want) = bac_pack::unpack_prg(file, bac_pack::Format::Bytes).unwrap();
    assert!(file.len() < want.len(), "packed {} bytes, unpacked {}", file.len(), want.len());
    let mut drive = MemoryDrive::default();
    drive.files.push((NAME.to_vec(), FileType::Prg, file.clone()));
    let mut options = RunOptions { drive: Some(Box::new(drive)), ..RunOptions::default() };
    options.config.max_cycles = 40_000_000;
    let mut m = start(Program::Prg(&t.prg), options).unwrap();
    let exit = m.run().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(exit.code, 42, "hello's exit code (it writes 42 to $D7FF)");
    let got: Vec<u8> = (0..want.len()).map(|i| m.bus().ram_peek(1, at + i as u16)).collect();
    let first = (0..want.len()).find(|&i| got[i] != want[i]);
    assert_eq!(first, None, "bank 1 differs from the unpacked file at ${:04X}", usize::from(at) + first.unwrap_or(0));
}

#[test]
fn the_fast_loader_falls_back_to_the_kernal_on_a_drive_that_is_no_1581() {
    // Our emulator's drive answers M-R with 31,SYNTAX ERROR, as a drive without that
    // command would: the start-up code must load the file the KERNAL's way and run the
    // program as without the fast loader, and report a missing file the same way.
    let report = build::program("emulator-tests/programs/hello", "bank1-fastload");
    let plain = translate(&report.elf, vec!["*".into()], true);
    let options = Options {
        memory: MemoryMode::AllRam,
        interpret: vec!["*".into()],
        bank1: Some(NAME.to_vec()),
        fastload: true,
        ..Options::default()
    };
    let mut fast = translate_elf_with(&report.elf, &options).unwrap_or_else(|e| panic!("{e}"));
    assert!(fast.symbol("rt_fastload").is_some(), "the fast loader is in the program");
    assert!(plain.symbol("rt_fastload").is_none(), "and only where asked for");
    let want = run(&plain, 40_000_000);
    let got = run(&fast, 40_000_000);
    assert_eq!(got, want, "with the fast loader tried first");
    assert!(got.0.starts_with("HELLO, C128!"), "{:?}", got.0);
    fast.bank1 = None;
    let (out, code, kind, rcr) = run(&fast, 40_000_000);
    assert!(out.contains("?CANNOT LOAD CODE") && !out.contains("HELLO"), "{out:?}");
    assert_eq!((code, kind, rcr & 0x0F), (0, ExitKind::ReturnedToBasic, 0x04));
}

#[test]
fn the_start_up_tries_the_burst_stream_and_our_emulator_gets_the_kernal_s_load() {
    // Our emulator's KERNAL has no fast serial bus, so the drive never answers the burst
    // handshake: the streaming load (tools/loader/src/stream.rs) must give up at once, and the
    // start-up code load the file the KERNAL's way and unpack it in place, as on a 1541.
    let report = build::program("emulator-tests/programs/hello", "bank1-stream");
    let t = translate(&report.elf, vec!["*".into()], true);
    let stream = t.symbol("rt_stream").expect("a program with a bank-1 file has the streaming load");
    let unpack = t.symbol("rt_unpack").expect("and the in-place unpacker for the fall-back");
    let mut drive = MemoryDrive::default();
    drive.files.push((NAME.to_vec(), FileType::Prg, t.bank1.clone().unwrap()));
    let mut options = RunOptions { drive: Some(Box::new(drive)), ..RunOptions::default() };
    options.config.max_cycles = 40_000_000;
    let mut m = start(Program::Prg(&t.prg), options).unwrap();
    for (at, what) in [(stream, "the streaming load"), (unpack, "then the in-place unpacking of the KERNAL's load")] {
        assert_eq!(m.run_to(&[at], 20_000_000).unwrap(), None);
        assert_eq!(m.cpu.registers.program_counter, at, "{what} runs");
    }
    let exit = m.run().unwrap_or_else(|e| panic!("{e}\n{}", m.output_text()));
    assert!(m.output_text().starts_with("HELLO, C128!"), "{:?}", m.output_text());
    assert_eq!(exit.code, 42, "hello's exit code (it writes 42 to $D7FF)");
}
