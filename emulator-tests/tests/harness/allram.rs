//! The translator's all-RAM memory mode (`memory = "all-ram"`) in the emulated C128: a
//! program whose data passes $C000, which runs 6502 code at $E000 (RAM under the KERNAL
//! ROM), writes and reads back a disk file through the KERNAL trampoline, and returns to
//! BASIC with $FF00, interrupts, zero page and the RAM vectors as it found them.

use c128_emu::disk::MemoryDrive;
use c128_emu::{ExitKind, Program, RunOptions, start};

#[allow(dead_code)] // The test uses the table's bytes and digest, not every item.
#[path = "../../programs/allram/src/table.rs"]
mod table;

use crate::build;

fn build() -> (Vec<u8>, avr2mos::pipeline::BuildReport) {
    let report = build::program("emulator-tests/programs/allram", "allram");
    (build::bytes(&report), report)
}

#[test]
fn all_ram_program_uses_memory_above_c000_and_the_kernal_and_returns_to_basic() {
    let (prg, report) = build();
    assert!(report.stats.end_addr > 0xC000, "the image passes $C000: {}", report.stats);
    assert!(report.stats.end_addr <= 0xD000 && report.stats.limit == 0xD000, "{}", report.stats);
    assert!(0x1C01 + prg.len() - 2 <= 0xD000, "the file ends below $D000");

    let options = RunOptions { drive: Some(Box::new(MemoryDrive::default())), ..RunOptions::default() };
    let mut machine = start(Program::Prg(&prg), options).unwrap();
    // What the real KERNAL keeps in RAM at $FFFA-$FFFF: its interrupt entries.
    let vectors = [0x05, 0xFF, 0x3D, 0xFF, 0x17, 0xFF];
    for (i, &v) in vectors.iter().enumerate() {
        machine.bus_mut().ram_poke(0, 0xFFFA + i as u16, v);
    }
    let zero_page: Vec<u8> = (0x10..0x60).map(|a| machine.bus().ram_peek(0, a)).collect();
    let exit = machine.run().unwrap_or_else(|e| panic!("{e}\n{}", machine.output_text()));
    let text = machine.output_text().replace('\n', "\r");
    let sum = format!("SUM {:08X}\r", table::digest((0..table::LEN).map(table::byte)));
    assert!(text.starts_with(&sum) && text.ends_with("\rHIGH C128\rDISK OK\r"), "{text:?}");
    let end = text.split("END ").nth(1).and_then(|t| u32::from_str_radix(&t[..4], 16).ok()).unwrap_or(0);
    assert!(end > 0xC000 && end <= report.stats.end_addr, "the table ends at ${end:04X}, above $C000");
    assert_eq!((exit.code, exit.kind), (7, ExitKind::DebugCartridge), "{}", machine.output_text());
    // While the program ran, the MMU was at $3E; the file it wrote holds the table's end.
    let written = machine.kernal.drive.as_mut().unwrap().read(b"ALLRAM").unwrap().1;
    let tail: Vec<u8> = (table::LEN - table::FILE_LEN..table::LEN).map(table::byte).collect();
    assert_eq!(written, tail);

    // Past the exit port write: the return to BASIC.
    machine.bus_mut().exit_code = None;
    let back = machine.run().unwrap();
    assert_eq!(back.kind, ExitKind::ReturnedToBasic);
    assert_eq!(machine.bus().mmu.cr, 0x00, "$FF00 as BASIC had it");
    assert!(!machine.cpu.registers.status.contains(mos6502::registers::Status::PS_DISABLE_INTERRUPTS), "CLI");
    let after: Vec<u8> = (0x10..0x60).map(|a| machine.bus().ram_peek(0, a)).collect();
    assert_eq!(after, zero_page, "zero page restored");
    let restored: Vec<u8> = (0..6).map(|i| machine.bus().ram_peek(0, 0xFFFA + i)).collect();
    assert_eq!(restored, vectors, "BASIC's RAM vectors restored");
}

#[test]
fn the_same_program_does_not_fit_the_default_mode() {
    let (_, report) = build();
    let error = avr2mos::pipeline::translate_elf(&report.elf).unwrap_err();
    let text = format!("{:#}", anyhow_like(&error));
    assert!(text.contains("bytes over the limit 0xc000"), "{text}");
}

/// The error and its sources on one line.
fn anyhow_like(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cause = c.source();
    }
    s
}
