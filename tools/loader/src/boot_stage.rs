//! The boot stage of a packed program (`[package.metadata.c128] boot = "NAME"`): a loader
//! the disk's boot sector brings in as its extra blocks, so that at power-on the program
//! NAME streams in through the drive's burst FASTLOAD and unpacks as it comes
//! ([`crate::stream`]) before BASIC ever runs. The build writes it beside the
//! `.prg` ([`crate::pipeline::boot_path`]); the disk builder puts it on track 1 from sector
//! 1 on and has the boot sector call it (tools/d81, `[boot] stage_suffix`).
//!
//! Why: BASIC's `RUN"NAME"` from the boot sector loads the packed program whole (the
//! KERNAL's burst load, about 6 KB a second at 2 MHz, after 1.2 s of finding the file and
//! the drive's first reads) and only then can it move and unpack itself (0.9 s for the
//! game). The KERNAL reads the boot sector's extra blocks along with the boot sector (the
//! drive has that track in its cache), so the stage costs no file search of its own, and
//! the program's unpacking is done while the drive sends the next byte. A first stage in a
//! file of its own ([`crate::first_stage`]) gained nothing, as `RUN` of even a small file
//! took 1.6 s.
//!
//! Assumes: called with JSR by the boot sector's code, which the KERNAL's BOOT_CALL runs
//! with BASIC and the KERNAL in view and BASIC ready to run a line; loaded at [`STAGE_AT`]
//! in bank 0, where nothing that matters lies at boot time (the C128's room for machine
//! code below BASIC's text); NAME is [`crate::selfextract::pack_program`]'s file for the
//! program, on the drive the machine booted from.
//!
//! Guarantees: carry clear when the program lies in memory exactly as `LOAD"NAME"` and its
//! own unpacking would have left it at its start: the BASIC stub at $1C01, the program
//! from [`CODE_START`] unpacked, and BASIC's end of text where `LOAD` would have set it, so
//! that the boot sector's `RUN` starts it as `RUN"NAME"` would have; the machine at 2 MHz
//! with the 40-column screen blanked, as `FAST` leaves it. Carry set when the drive is not
//! a fast one or the stream failed ([`crate::stream`]'s guarantees: every wait has
//! a time-out, the command channel is closed): then the boot sector runs
//! `FAST:RUN"NAME"` as it did without a stage, which loads the program the KERNAL's way.

use crate::LoaderError;
use crate::mmap::{CODE_START, LOAD_ADDR};
use crate::selfextract::PackedProgram;
use crate::stream;
use c128_map::io::{VIC_CLOCK, VIC_CONTROL};
use mos_asm::asm::Locals;
use mos_asm::asm::{Arg, Asm, Item, Part, Sym, op::*};
use mos_asm::link;

/// Where the stage is loaded and entered: the C128's room for machine code below BASIC's
/// text, free at boot time and below the program's output.
pub const STAGE_AT: u16 = 0x1300;
/// The most blocks it may take: the room up to the AVR stack's floor at $1C00 would allow
/// more, but every block is a sector the KERNAL reads before the boot.
const STAGE_BLOCKS: usize = 3;
/// BASIC 7's end of program text (TEXT_TOP), which `LOAD` sets to the loaded file's end.
const TEXT_TOP: u16 = 0x1210;

/// The stage's `.prg` (load address first) for the program `main` (as `selfextract`
/// packed it), which is on the disk as `name`.
pub fn build(name: &[u8], main: &PackedProgram) -> Result<Vec<u8>, LoaderError> {
    let mut loc = Locals::default();
    let (routine, command, stub_at, copy, failed, end) =
        (loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh());
    let output = stream::Output::program(main, end, "boot")?;
    let stub = &main.file[2..2 + usize::from(CODE_START - LOAD_ADDR)];
    // Where LOAD would end: the packed file's last byte, plus one.
    let text_top = u32::from(LOAD_ADDR) + main.file.len() as u32 - 2;
    let text_top = u16::try_from(text_top)
        .map_err(|_| LoaderError::Settings(format!("boot: the packed program ends at ${text_top:X}")))?;

    let command_bytes = stream::command(name);
    let mut a = Asm::default();
    // What BASIC's FAST does: the 40-column screen off, then 2 MHz.
    a.w(LDA_ABS, VIC_CONTROL).b(AND_IMM, 0xEF).w(STA_ABS, VIC_CONTROL);
    a.w(LDA_ABS, VIC_CLOCK).b(ORA_IMM, 0x01).w(STA_ABS, VIC_CLOCK);
    a.to(JSR, routine).br(BCS, failed);
    // The stub (the stream starts after it), and BASIC's end of text as LOAD sets it.
    a.b(LDX_IMM, (stub.len() - 1) as u8).label(copy);
    a.items.push(Item::Ins(LDA_ABX, Arg::Sym(Sym::Code(stub_at), Part::Word, 0)));
    a.w(STA_ABX, LOAD_ADDR).i(DEX).br(BPL, copy);
    let [top_lo, top_hi] = text_top.to_le_bytes();
    a.b(LDA_IMM, top_lo).w(STA_ABS, TEXT_TOP).b(LDA_IMM, top_hi).w(STA_ABS, TEXT_TOP + 1).i(CLC);
    a.label(failed).i(RTS);
    a.label(routine);
    a.items.extend(stream::routine(&mut loc, command, command_bytes.len(), output).items);
    a.label(command).items.push(Item::Bytes(command_bytes));
    a.label(stub_at).items.push(Item::Bytes(stub.to_vec()));

    let code = link::assemble("rt_boot_stage", a, STAGE_AT, &[(end, main.end)])?;
    if code.len() > STAGE_BLOCKS * 256 {
        return Err(LoaderError::TooLarge {
            what: "the boot stage".into(),
            end: u32::from(STAGE_AT) + code.len() as u32,
            limit: u32::from(STAGE_AT) + (STAGE_BLOCKS * 256) as u32,
        });
    }
    let mut file = STAGE_AT.to_le_bytes().to_vec();
    file.extend(code);
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfextract::pack_program_parts;
    use crate::stream::model::{C128, burst, call, program};
    use bac_pack::Format;
    use mos6502::registers::Status;

    /// Where the boot sector's call to the stage is, and where it returns to.
    const CALLER: u16 = 0x0B20;
    const NAME: &[u8] = b"BAC";

    /// Runs the stage as the boot sector calls it, with a drive that answers as a fast one
    /// or not; returns whether carry was set on the return, and the machine.
    fn run(main: &PackedProgram, fast: bool) -> (bool, C128) {
        let stage = build(NAME, main).unwrap();
        let mut m = C128::new(burst(&main.file));
        let at = usize::from(STAGE_AT);
        m.bank0[at..at + stage.len() - 2].copy_from_slice(&stage[2..]);
        call(m, CALLER, STAGE_AT, fast, 50_000_000, |cpu| {
            (cpu.registers.program_counter == CALLER + 3).then(|| {
                assert_eq!(cpu.registers.stack_pointer.0, 0xF0, "the stack as it was");
                cpu.registers.status.contains(Status::PS_CARRY)
            })
        })
    }

    #[test]
    fn the_stage_streams_the_program_to_where_load_and_its_unpacking_would_leave_it() {
        let prg = program(9000);
        for format in [Format::Bytes, Format::Dense] {
            let main = pack_program_parts(&prg, format).unwrap();
            let (carry, m) = run(&main, true);
            assert!(!carry, "{format:?}: success");
            let at = usize::from(LOAD_ADDR);
            assert!(m.bank0[at..at + prg.len() - 2] == prg[2..], "{format:?}: the stub and the program");
            let top = u16::from_le_bytes([m.bank0[usize::from(TEXT_TOP)], m.bank0[usize::from(TEXT_TOP) + 1]]);
            assert_eq!(usize::from(top), at + main.file.len() - 2, "{format:?}: TEXT_TOP where LOAD sets it");
            assert_eq!((m.sent, m.mmu), (m.bytes.len(), 0x00), "{format:?}: every byte; the boot's $FF00 back");
            assert_eq!(m.io[usize::from(VIC_CLOCK - 0xD000)] & 1, 1, "{format:?}: 2 MHz, as FAST leaves it");
        }
    }

    #[test]
    fn the_stage_leaves_the_boot_sector_to_run_the_program_the_kernal_s_way_from_any_other_drive() {
        let main = pack_program_parts(&program(3000), Format::Bytes).unwrap();
        let (carry, m) = run(&main, false);
        assert!(carry, "failure: the boot sector runs FAST:RUN\"BAC\"");
        assert_eq!(m.sent, 0, "no burst request");
        assert_eq!(m.bank0[usize::from(TEXT_TOP)], 0, "BASIC's end of text untouched");
    }

    #[test]
    fn a_stream_that_starts_too_far_into_the_file_is_refused() {
        let mut main = pack_program_parts(&program(3000), Format::Bytes).unwrap();
        main.stream_at = 300;
        let err = build(NAME, &main).unwrap_err();
        assert!(err.to_string().contains("starts 298 bytes in"), "{err}");
    }
}
