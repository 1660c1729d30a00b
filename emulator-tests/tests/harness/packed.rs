//! Programs that unpack themselves (`[package.metadata.c128] pack = true`,
//! `c128_loader::selfextract`): the packed `.prg` of a test program is smaller, prints the same
//! and ends the same as the unpacked one, and leaves the same program bytes in memory.

use avr2mos::mmap::{CODE_START, MemoryMode};
use avr2mos::pipeline::translate_elf_with;
use avr2mos::{Options, Translation};
use bac_pack::Format;
use c128_emu::{Program, RunOptions, start};
use c128_loader::selfextract::pack_program;

use crate::build;

fn translate(elf: &std::path::Path) -> Translation {
    let options = Options { memory: MemoryMode::AllRam, ..Options::default() };
    translate_elf_with(elf, &options).unwrap_or_else(|e| panic!("{e}"))
}

/// Runs a `.prg`: its output, exit code, and RAM 0 from CODE_START for `len` bytes.
fn run(prg: &[u8], len: usize) -> (String, u8, Vec<u8>) {
    let mut options = RunOptions::default();
    options.config.max_cycles = 1_000_000_000;
    let mut m = start(Program::Prg(prg), options).unwrap();
    let exit = m.run().unwrap_or_else(|e| panic!("{e}\n{}", m.output_text()));
    let ram = (0..len).map(|i| m.bus().ram_peek(0, CODE_START + i as u16)).collect();
    (m.output_text(), exit.code, ram)
}

#[test]
fn a_packed_program_runs_as_the_unpacked_one() {
    for (name, format) in [("hello", Format::Bytes), ("features", Format::Bytes), ("features", Format::Dense)] {
        let report = build::program(&format!("emulator-tests/programs/{name}"), &format!("packed-{name}"));
        let t = translate(&report.elf);
        let packed = pack_program(&t.prg, format).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(packed.len() < t.prg.len(), "{name}: packed {} bytes, unpacked {}", packed.len(), t.prg.len());
        // The program's code and data after both runs: the same bytes.
        let code_len = t.prg.len() - 2 - usize::from(CODE_START - avr2mos::mmap::LOAD_ADDR);
        let (want_out, want_code, want_ram) = run(&t.prg, code_len);
        let (out, code, ram) = run(&packed, code_len);
        assert_eq!((&out, code), (&want_out, want_code), "{name} {format:?}: the packed program differs");
        let first = (0..code_len).find(|&i| ram[i] != want_ram[i]);
        assert_eq!(first, None, "{name} {format:?}: memory differs from the unpacked run's at +{first:?}");
    }
}

#[test]
fn what_is_not_a_translated_program_is_refused() {
    let e = pack_program(&[0x01, 0x08, 0xEA], Format::Dense).unwrap_err();
    assert!(e.to_string().contains("no BASIC stub"), "{e}");
}

#[test]
fn a_disk_with_a_boot_stage_boots_through_it_and_our_emulator_gets_the_kernal_s_load() {
    // Our emulator's KERNAL has no fast serial bus: the boot stage (c128_loader::boot_stage),
    // read with the boot sector as its extra blocks, must run, give up at once, and leave
    // the boot sector to RUN the packed program the KERNAL's way, as from a 1541.
    let report = build::program("emulator-tests/programs/hello", "packed-boot");
    let t = translate(&report.elf);
    let packed = c128_loader::selfextract::pack_program_parts(&t.prg, Format::Bytes).unwrap();
    let stage = c128_loader::boot_stage::build(b"BAC", &packed).unwrap();
    let stage = d81::BootStage::from_prg(&stage).unwrap();
    let boot = d81::BootSector::new(b"BAC128", b"BAC").unwrap().with_fast(true).unwrap().with_stage(stage).unwrap();
    let mut disk = d81::Disk::new(b"BAC128", *b"B1").unwrap();
    disk.install_boot_sector(&boot).unwrap();
    disk.write_file(b"BAC", d81::FileType::Prg, &packed.file).unwrap();
    let mut image = Vec::new();
    disk.write_to(&mut image).unwrap();
    let mut options = RunOptions::default();
    options.config.max_cycles = 1_000_000_000;
    let mut m = start(Program::D81 { image: &image, origin: "boot-stage.d81" }, options).unwrap();
    let at = c128_loader::boot_stage::STAGE_AT;
    assert_eq!(m.run_to(&[at], 1_000_000).unwrap(), None);
    assert_eq!(m.cpu.registers.program_counter, at, "the boot sector calls the stage");
    let exit = m.run().unwrap_or_else(|e| panic!("{e}\n{}", m.output_text()));
    assert!(m.output_text().starts_with("HELLO, C128!"), "{:?}", m.output_text());
    assert_eq!(exit.code, 42, "hello's exit code (it writes 42 to $D7FF)");
}
