//! The first stage of a program kept in a second file (`[package.metadata.c128] main =
//! "NAME"`): the small `.prg` that BASIC's `RUN` loads, which streams the program from the
//! file NAME through the drive's burst FASTLOAD and unpacks it as it comes
//! ([`crate::stream`]), then starts it; on any other drive (or our emulator), or
//! when the stream fails, it loads NAME with the KERNAL's LOAD and starts that, a packed
//! program that unpacks itself ([`crate::selfextract`]).
//!
//! Why: BASIC's `RUN` of the packed program loads it whole and only then can it move and
//! unpack itself (0.9 s for the game at 2 MHz); streamed, the unpacking is done while the
//! drive sends, and the program never lies packed in memory.
//!
//! What it gained, measured in VICE (x128, true drive emulation of the 1581, the VICE
//! check's `load-40` with the border coloured at each step): nothing at the game's sizes,
//! 15.0 s from the start-up screen to the title with it and without. The game's 25.8 KB
//! came in 3.8 s (147 µs a byte, the KERNAL's load about 160) and its unpacking was
//! hidden, but `RUN` of the first stage still took 1.6 s (the first file after the boot:
//! the directory search and the drive's first reads) and the burst command 0.5 s more to
//! its first byte (the drive finding the second file). So the game does not use it (no
//! `main` in `firmware/game-prg/Cargo.toml`); it would pay with the first stage in the
//! boot sector's blocks (no `RUN` of a file) or with a decoder too slow to run after the
//! load.
//!
//! Assumes: started by BASIC's `RUN` (or `LOAD` and `RUN`) from the drive NAME is on, with
//! BASIC's configuration and interrupts on; NAME is [`crate::selfextract::pack_program`]'s
//! file for the program; $1300-$15FF (in the C128's room for machine code below BASIC's
//! text) holds nothing that matters until the program starts. Guarantees: the program
//! starts at [`CODE_START`] with BASIC's $FF00, zero page and stack as `RUN` left them,
//! exactly as if `RUN` had loaded it whole (its BASIC stub is this file's, byte for byte,
//! so BASIC's `SYS` returns into the same line); if NAME cannot be loaded, `?CANNOT LOAD
//! NAME` and a return to BASIC.
//!
//! How: the file is the BASIC stub `10 SYS 7181`, a mover at [`CODE_START`] that copies
//! the loader to [`LOADER_AT`] (out of the program's way) and jumps there, and the loader:
//! the streaming routine, its command, and the KERNAL's LOAD as the fall-back.

use crate::LoaderError;
use crate::mmap::{CODE_START, FA, LOAD_ADDR};
use crate::selfextract::PackedProgram;
use crate::stream;
use c128_map::kernal::{CHROUT, LOAD, SETBNK, SETLFS, SETNAM};
use mos_asm::asm::Locals;
use mos_asm::asm::{Asm, Item, Part, Sym, op::*};
use mos_asm::link;

/// Where the loader runs: the C128's room for machine code, below BASIC's text at $1C01.
pub const LOADER_AT: u16 = 0x1300;
/// The pages the mover copies: the most the loader may take.
const LOADER_PAGES: u16 = 3;
const LOADER_MAX: usize = LOADER_PAGES as usize * 0x100;

/// The first stage's `.prg` for the program `main` (as `selfextract` packed it), which is
/// on the disk as `name`.
pub fn build(name: &[u8], main: &PackedProgram) -> Result<Vec<u8>, LoaderError> {
    let mut loc = Locals::default();
    let (command, message, end) = (loc.fresh(), loc.fresh(), loc.fresh());
    let output = stream::Output::program(main, end, "main")?;
    let command_bytes = stream::command(name);
    let routine = loc.fresh();
    let mut a = Asm::default();
    let (kernal, drive, failed, letter) = (loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh());
    a.to(JSR, routine).br(BCS, kernal).w(JMP, CODE_START);
    // The KERNAL's LOAD of NAME to its own address ($1C01, over this file's stub, the same
    // bytes): a program that unpacks itself.
    a.label(kernal).b(LDA_IMM, 0).b(LDX_IMM, 0).w(JSR, SETBNK);
    a.b(LDA_IMM, 1).b(LDX_ZP, FA).b(CPX_IMM, 8).br(BCS, drive).b(LDX_IMM, 8);
    a.label(drive).b(LDY_IMM, 1).w(JSR, SETLFS);
    a.b(LDA_IMM, name.len() as u8);
    a.items.push(Item::Ins(LDX_IMM, mos_asm::asm::Arg::Sym(Sym::Code(command), Part::Lo, 3)));
    a.items.push(Item::Ins(LDY_IMM, mos_asm::asm::Arg::Sym(Sym::Code(command), Part::Hi, 3)));
    a.w(JSR, SETNAM).b(LDA_IMM, 0).w(JSR, LOAD).br(BCS, failed).w(JMP, CODE_START);
    // ?CANNOT LOAD NAME, and back to BASIC.
    a.label(failed).b(LDX_IMM, 0).label(letter);
    a.items.push(Item::Ins(LDA_ABX, mos_asm::asm::Arg::Sym(Sym::Code(message), Part::Word, 0)));
    a.w(JSR, CHROUT).i(INX).b(CPX_IMM, (MESSAGE.len() + name.len() + 1) as u8).br(BNE, letter).i(RTS);
    a.label(routine);
    a.items.extend(stream::routine(&mut loc, command, command_bytes.len(), output).items);
    a.label(command).items.push(Item::Bytes(command_bytes));
    a.label(message).items.push(Item::Bytes([MESSAGE, name, b"\r"].concat()));

    let loader = link::assemble("rt_first_stage", a, LOADER_AT, &[(end, main.end)])?;
    if loader.len() > LOADER_MAX {
        return Err(LoaderError::TooLarge {
            what: "the first stage's loader".into(),
            end: u32::from(LOADER_AT) + loader.len() as u32,
            limit: u32::from(LOADER_AT) + LOADER_MAX as u32,
        });
    }

    // The mover: LOADER_PAGES pages from after itself to LOADER_AT, then the jump there.
    let mover_len = 8 + 6 * LOADER_PAGES;
    let from = CODE_START + mover_len;
    let mut m = Asm::default();
    let byte = loc.fresh();
    m.b(LDX_IMM, 0).label(byte);
    for page in 0..LOADER_PAGES {
        m.w(LDA_ABX, from + page * 0x100).w(STA_ABX, LOADER_AT + page * 0x100);
    }
    m.i(INX).br(BNE, byte).w(JMP, LOADER_AT);
    let mover = link::assemble("rt_first_stage_mover", m, CODE_START, &[])?;
    debug_assert_eq!(mover.len(), usize::from(mover_len));

    let mut file = main.file[..2 + usize::from(CODE_START - LOAD_ADDR)].to_vec();
    file.extend(mover);
    file.extend(loader);
    Ok(file)
}

/// The message before the name when NAME cannot be loaded.
const MESSAGE: &[u8] = b"\r?CANNOT LOAD ";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfextract::pack_program_parts;
    use crate::stream::model::{C128, burst, call, program};
    use bac_pack::Format;

    const CALLER: u16 = 0x1000;
    const NAME: &[u8] = b"BAC MAIN";

    /// How the first stage ended: the program started (at CODE_START after the loader
    /// ran, with the stack as `SYS` left it) or the KERNAL's LOAD called, with the name
    /// SETNAM was given.
    enum End {
        Started,
        Load(Vec<u8>),
    }

    fn run(prg: &[u8], fast: bool, format: Format) -> (End, C128) {
        let main = pack_program_parts(prg, format).unwrap();
        let first = build(NAME, &main).unwrap();
        let mut m = C128::new(burst(&main.file));
        let at = usize::from(LOAD_ADDR);
        m.bank0[at..at + first.len() - 2].copy_from_slice(&first[2..]);
        let (mut loader_ran, mut name) = (false, Vec::new());
        call(m, CALLER, CODE_START, fast, 50_000_000, |cpu| {
            let pc = cpu.registers.program_counter;
            loader_ran |= pc == LOADER_AT;
            if pc == CODE_START && loader_ran {
                assert_eq!(cpu.registers.stack_pointer.0, 0xEE, "SYS's return address on the stack");
                return Some(End::Started);
            }
            if pc == SETNAM {
                let r = &cpu.registers;
                let from = usize::from(u16::from_le_bytes([r.index_x, r.index_y]));
                name = cpu.memory.bank0[from..from + usize::from(r.accumulator)].to_vec();
            }
            (pc == LOAD).then(|| End::Load(name.clone()))
        })
    }

    #[test]
    fn the_first_stage_streams_the_program_from_a_fast_drive_and_starts_it() {
        let prg = program(9000);
        for format in [Format::Bytes, Format::Dense] {
            let (end, m) = run(&prg, true, format);
            assert!(matches!(end, End::Started), "{format:?}");
            let at = usize::from(CODE_START);
            assert!(m.bank0[at..at + 9000] == prg[14..], "{format:?}: the program, unpacked where it runs");
            assert_eq!((m.sent, m.mmu), (m.bytes.len(), 0x00), "{format:?}: every byte; BASIC's $FF00 back");
        }
    }

    #[test]
    fn the_first_stage_loads_the_program_the_kernal_s_way_from_any_other_drive() {
        let (end, m) = run(&program(9000), false, Format::Dense);
        assert!(matches!(end, End::Load(ref n) if n == NAME), "the KERNAL's LOAD of BAC MAIN");
        assert_eq!(m.sent, 0, "no burst request");
    }
}
