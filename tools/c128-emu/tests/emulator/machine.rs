//! The machine with hand-assembled programs: output, exit codes, the MMU, and every way a
//! run can fail.

use crate::asm::{Asm, ORIGIN};
use c128_emu::bus::power_on_byte;
use c128_emu::{Config, Error, ExitKind, LoadError, RunError, RunOptions, SourceMap, run_until_exit};

fn run(asm: &Asm) -> Result<c128_emu::RunReport, Error> {
    run_until_exit(&asm.prg(), RunOptions::default())
}

fn run_error(asm: &Asm, options: RunOptions) -> RunError {
    match run_until_exit(&asm.prg(), options) {
        Err(Error::Run { error, .. }) => error,
        other => panic!("expected a run error, got {other:?}"),
    }
}

#[test]
fn chrout_text_reaches_the_log_and_the_exit_code_is_returned() {
    let mut a = Asm::new();
    a.print(b"HELLO, C128!\r").exit(42);
    let r = run(&a).unwrap();
    assert_eq!(r.output(), "HELLO, C128!\n");
    assert_eq!(r.exit.code, 42);
    assert_eq!(r.exit.kind, ExitKind::DebugCartridge);
    assert!(r.exit.cycles > 13 * 6);
}

#[test]
fn returning_to_basic_without_an_exit_code_is_reported() {
    let mut a = Asm::new();
    a.print(b"X").op(&[0x60]);
    let r = run(&a).unwrap();
    assert_eq!(r.exit.kind, ExitKind::ReturnedToBasic);
    assert_eq!(r.exit.code, 0);
    assert_eq!(r.output(), "X");
}

#[test]
fn primm_prints_the_inline_string_and_returns_after_it() {
    let mut a = Asm::new();
    a.op(&[0x20, 0x7D, 0xFF]).op(b"INLINE\0").print(b"!").exit(1);
    let r = run(&a).unwrap();
    assert_eq!(r.output(), "INLINE!");
}

#[test]
fn bank_switching_keeps_the_banks_apart() {
    let mut a = Asm::new();
    a.op(&[0xA9, 0x07, 0x8D, 0x06, 0xD5]) // 16 KB common RAM at the bottom: the code stays
        .op(&[0xA9, 0x3F, 0x8D, 0x00, 0xFF]) // all RAM 0
        .op(&[0xA9, 0x55, 0x8D, 0x00, 0x40]) // $4000 = $55 in bank 0
        .op(&[0xA9, 0x7F, 0x8D, 0x00, 0xFF]) // all RAM 1
        .op(&[0xA9, 0xAA, 0x8D, 0x00, 0x40]) // $4000 = $AA in bank 1
        .op(&[0xA9, 0x3F, 0x8D, 0x00, 0xFF]) // back to bank 0
        .op(&[0xAD, 0x00, 0x40]) // LDA $4000
        .op(&[0xA2, 0x0E, 0x8E, 0x00, 0xFF]) // $0E: I/O back
        .op(&[0x8D, 0xFF, 0xD7, 0x60]); // exit with it
    let r = run(&a).unwrap();
    assert_eq!(r.exit.code, 0x55);
    assert_eq!(r.machine.bus().ram_peek(1, 0x4000), 0xAA);
    assert_eq!(r.machine.bus().ram_peek(0, 0x4000), 0x55);
}

#[test]
fn preconfiguration_registers_switch_banks() {
    // $FF02 loads PCR B ($7F: RAM 1 everywhere) and $FF01 PCR A ($3F: RAM 0).
    let mut a = Asm::new();
    a.op(&[0xA9, 0x07, 0x8D, 0x06, 0xD5]) // 16 KB common RAM at the bottom
        .op(&[0xA9, 0x77, 0x8D, 0x02, 0xFF]) // STA $FF02: any value selects PCR B
        .op(&[0xA9, 0x66, 0x8D, 0x00, 0x50]) // $5000 = $66 in bank 1
        .op(&[0x8D, 0x01, 0xFF]) // $FF01: PCR A = bank 0
        .op(&[0xAD, 0x00, 0x50]) // LDA $5000 (bank 0: as it came up)
        .op(&[0xA2, 0x0E, 0x8E, 0x00, 0xFF])
        .op(&[0x8D, 0xFF, 0xD7, 0x60]);
    let r = run(&a).unwrap();
    assert_eq!(r.exit.code, power_on_byte(0x5000));
    assert_eq!(r.machine.bus().ram_peek(1, 0x5000), 0x66);
}

#[test]
fn common_ram_is_shared_between_banks() {
    let mut a = Asm::new();
    a.op(&[0xA9, 0x0E, 0x8D, 0x00, 0xFF])
        .op(&[0xA9, 0x07, 0x8D, 0x06, 0xD5]) // $D506: 16 KB common RAM at the bottom
        .op(&[0xA9, 0x7F, 0x8D, 0x00, 0xFF]) // RAM 1
        .op(&[0xA9, 0x99, 0x8D, 0x00, 0x38]) // $3800 (common) = $99
        .op(&[0xA9, 0x3F, 0x8D, 0x00, 0xFF]) // RAM 0
        .op(&[0xAD, 0x00, 0x38]) // LDA $3800
        .op(&[0xA2, 0x0E, 0x8E, 0x00, 0xFF])
        .op(&[0x8D, 0xFF, 0xD7, 0x60]);
    let r = run(&a).unwrap();
    assert_eq!(r.exit.code, 0x99);
    assert_eq!(r.machine.bus().ram_peek(1, 0x3800), power_on_byte(0x1_3800), "bank 1's own $3800 untouched");
}

#[test]
fn code_outside_common_ram_vanishes_when_the_bank_changes() {
    // Switching to RAM 1 with only 1 KB of common RAM swaps the running code out: the CPU
    // then fetches what bank 1 holds right after the STA, its power-on pattern: $FF there,
    // an undocumented opcode.
    let mut a = Asm::new();
    a.op(&[0xA9, 0x7F, 0x8D, 0x00, 0xFF]);
    assert_eq!(power_on_byte(0x1_0000 | usize::from(ORIGIN + 5)), 0xFF);
    let e = run_error(&a, RunOptions::default());
    assert!(matches!(&e, RunError::Undocumented(w) if w.cpu.pc == ORIGIN + 5 && w.cpu.mmu == 0x7F), "{e}");
}

#[test]
fn runs_are_deterministic() {
    let mut a = Asm::new();
    a.op(&[0xA2, 0x00]).label("l").op(&[0xCA]).branch(0xD0, "l").print(b"OK").exit(3);
    let one = run(&a).unwrap();
    let two = run(&a).unwrap();
    assert_eq!(one.exit, two.exit);
}

#[test]
fn brk_stops_with_the_registers_and_the_source_description() {
    let mut a = Asm::new();
    a.op(&[0xA9, 0x12, 0xA2, 0x34, 0xA0, 0x56, 0x00]);
    let brk_at = ORIGIN + 6;
    let map: SourceMap = Box::new(move |pc| (pc == brk_at).then(|| "avr: ret in main+0x10".to_string()));
    let e = run_error(&a, RunOptions { source_map: Some(map), ..RunOptions::default() });
    let RunError::Brk(w) = &e else { panic!("{e}") };
    assert_eq!((w.cpu.pc, w.cpu.opcode, w.cpu.a, w.cpu.x, w.cpu.y), (brk_at, 0, 0x12, 0x34, 0x56));
    let o = ORIGIN;
    assert_eq!(w.trail, [o, o + 2, o + 4]);
    let text = e.to_string();
    assert!(text.contains("PC=$1C13") && text.contains("avr: ret in main+0x10"), "{text}");
    assert!(text.contains("(BRK)") && text.contains("before: $1C0D $1C0F $1C11"), "{text}");
}

#[test]
fn jam_and_undocumented_opcodes_stop_the_run() {
    let mut a = Asm::new();
    a.op(&[0xEA, 0x02]);
    assert!(matches!(run_error(&a, RunOptions::default()), RunError::Jam(w) if w.cpu.opcode == 2));
    let mut a = Asm::new();
    a.op(&[0xA7, 0x10]); // LAX $10
    let e = run_error(&a, RunOptions::default());
    assert!(matches!(&e, RunError::Undocumented(w) if w.cpu.opcode == 0xA7), "{e}");
    let allowed =
        RunOptions { config: Config { allow_undocumented: true, ..Config::default() }, ..RunOptions::default() };
    let mut a = Asm::new();
    a.op(&[0xA7, 0x10]).exit(5);
    assert_eq!(run_until_exit(&a.prg(), allowed).unwrap().exit.code, 5);
}

#[test]
fn a_jump_to_itself_is_a_stuck_pc() {
    let mut a = Asm::new();
    a.op(&[0x78]).label("self").abs(0x4C, "self");
    let e = run_error(&a, RunOptions::default());
    assert!(matches!(&e, RunError::Stuck { at, .. } if at.cpu.pc == ORIGIN + 1), "{e}");
}

#[test]
fn jumping_into_rom_or_io_leaves_the_program() {
    let mut a = Asm::new();
    a.op(&[0x4C, 0x00, 0xE0]); // JMP $E000 with the KERNAL mapped
    let e = run_error(&a, RunOptions::default());
    assert!(matches!(&e, RunError::OutsideProgram { at, .. } if at.cpu.pc == 0xE000), "{e}");
    let mut a = Asm::new();
    a.op(&[0x4C, 0x00, 0x40]); // BASIC ROM in bank 15
    let e = run_error(&a, RunOptions::default());
    assert!(e.to_string().contains("BasicLow"), "{e}");
    let mut a = Asm::new();
    a.op(&[0x4C, 0x00, 0xD0]);
    let e = run_error(&a, RunOptions::default());
    assert!(e.to_string().contains("I/O"), "{e}");
}

#[test]
fn code_ranges_catch_a_jump_into_data() {
    let mut a = Asm::new();
    a.print(b"A").op(&[0x4C, 0x00, 0x20]); // JMP $2000: RAM, zeros
    let end = a.here();
    let opts = RunOptions {
        config: Config { code_ranges: std::iter::once(ORIGIN..end).collect(), ..Config::default() },
        ..RunOptions::default()
    };
    let e = run_error(&a, opts);
    assert!(
        matches!(&e, RunError::OutsideProgram { region, at } if at.cpu.pc == 0x2000
            && region.contains("$1C0D-$1C14")),
        "{e}"
    );
}

#[test]
fn kernal_entries_need_the_kernal_mapped() {
    // With all RAM ($3F) a JSR $FFD2 runs whatever is in RAM there: zeros, a BRK.
    let mut a = Asm::new();
    a.op(&[0xA9, 0x3F, 0x8D, 0x00, 0xFF, 0x20, 0xD2, 0xFF]);
    assert!(matches!(run_error(&a, RunOptions::default()), RunError::Brk(w) if w.cpu.pc == 0xFFD2));
}

#[test]
fn unemulated_kernal_calls_are_named() {
    let mut a = Asm::new();
    a.op(&[0x20, 0x50, 0xFF]);
    let e = run_error(&a, RunOptions::default());
    assert!(matches!(e, RunError::UnsupportedKernal { name: "DMA_CALL", addr: 0xFF50, .. }));
}

#[test]
fn jsrfar_calls_a_routine_in_bank_1_and_returns_its_registers() {
    // Bank 1 holds, at $4000, `LDA $4010 / LDX #$77 / RTS`; $4010 (bank 1) = $5A.
    let mut m = c128_emu::machine_for(RunOptions::default()).unwrap();
    for (i, b) in [0xAD, 0x10, 0x40, 0xA2, 0x77, 0x60].into_iter().enumerate() {
        m.bus_mut().ram_poke(1, 0x4000 + i as u16, b);
    }
    m.bus_mut().ram_poke(1, 0x4010, 0x5A);
    let mut a = Asm::new();
    a.op(&[0xA9, 0x01, 0x85, 0x02, 0xA9, 0x40, 0x85, 0x03, 0xA9, 0x00, 0x85, 0x04])
        .op(&[0x20, 0x6E, 0xFF]) // JSRFAR
        .op(&[0xA5, 0x06, 0x18, 0x65, 0x07]) // A + X as returned
        .op(&[0x8D, 0xFF, 0xD7, 0x60]);
    m.load_prg(&a.prg()).unwrap();
    let exit = m.run_basic().unwrap();
    assert_eq!(exit.code, 0x5Au8.wrapping_add(0x77));
    assert_eq!(m.bus().mmu.cr, 0x00, "bank 15 restored");
}

#[test]
fn the_cycle_budget_ends_a_busy_loop() {
    let mut a = Asm::new();
    a.label("l").op(&[0xE6, 0xFB]).abs(0x4C, "l");
    let opts = RunOptions { config: Config { max_cycles: 100_000, ..Config::default() }, ..RunOptions::default() };
    let e = run_error(&a, opts);
    assert!(matches!(&e, RunError::CycleBudget { limit: 100_000, at } if at.cpu.cycles >= 100_000));
}

#[test]
fn run_errors_keep_the_output_printed_before() {
    let mut a = Asm::new();
    a.print(b"PANIC").op(&[0x00]);
    match run_until_exit(&a.prg(), RunOptions::default()) {
        Err(Error::Run { output, .. }) => assert_eq!(output, "PANIC"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn bad_prg_files_are_load_errors() {
    let load = |bytes: &[u8]| run_until_exit(bytes, RunOptions::default()).unwrap_err();
    assert!(matches!(load(&[1]), Error::Load(LoadError::Truncated { len: 1 })));
    assert!(matches!(load(&[0x01, 0x08, 0, 0]), Error::Load(LoadError::WrongLoadAddress { found: 0x0801, .. })));
    let mut big = vec![0x01, 0x1C];
    big.resize(0xD000 - 0x1C01 + 3, 0);
    assert!(matches!(load(&big), Error::Load(LoadError::TooLong { .. })));
    assert!(matches!(load(&[0x01, 0x1C, 0, 0]), Error::Load(LoadError::NoSys { .. })));
}
