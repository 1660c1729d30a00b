//! The bank-1 file's fast load from a 1581: a routine of ours that runs in the drive and
//! sends the file's sectors through the fast serial bus's shift register, and the
//! computer's side that uploads it, starts it and takes the bytes into bank 1. When the
//! drive does not answer as a 1581, or anything goes wrong, the caller falls back to the
//! KERNAL's LOAD.
//!
//! Why: the KERNAL's burst load from a 1581 waits for the computer's answer after every
//! byte (about 161 µs a byte at 2 MHz, 6.2 KB a second in VICE); without that handshake the
//! same sectors come at about 7.7 KB a second (docs/disk-and-loading.md#tried-and-left-out).
//!
//! What it gained, measured in VICE (x128, true drive emulation, the game's `BAC CODE`,
//! 28,584 bytes in 113 sectors on three tracks, the VICE check's `load-40` with the border
//! coloured at each step): the probe and the upload about 0.4 s, the file 4.0-4.1 s against
//! the KERNAL's 4.5 s, 7 jobs (the directory and one a side) where a job a sector took 113,
//! so about nothing in all: what is left is the drive reading each side of a track (a turn
//! of the disk, with the job's start, about 0.25 s) and the bytes at the DOS's shift clock
//! (about 75 µs each), which this routine does one after the other. So it is opt-in
//! (`[package.metadata.c128] fastload = true`) and the game does not use it (it would also
//! need the room: its 900 bytes do not fit in BAC's bank 0 under its high stack).

//! Assumes (computer side, `host`): called with JSR from the start-up code, below $4000
//! (the bottom 16 KB are made common while bank 1 is written), with the KERNAL mapped,
//! the clock at 2 MHz and the VIC-IIe's screen blanked; no logical file 15 open; the
//! file's name at most 16 characters. Uses T0-T5 (saved on the stack and put back), A, X
//! and Y. Guarantees: carry clear when the whole file is in bank 1 at its load address,
//! with the address after its last byte at `end` (as the KERNAL's LOAD returns it in X and
//! Y); carry set when it is not (then the caller loads it the KERNAL's way). Either way
//! the command channel is closed, SETBNK is 0, 0, $FF00, $D506 and the interrupt flag are
//! as they were, and CIA 1's serial port is left shifting in, as the KERNAL keeps it
//! between its own fast transfers. Every wait has a time-out: about 3.7 s for each byte,
//! and after a failure with the drive routine started, a pause of about 3 s so that the
//! routine's own time-out (below) has returned the drive to its DOS before the KERNAL
//! talks to it again.
//!
//! The drive is taken for a 1581 when `M-R` of $C160-$C162 gives one of the two known
//! DOS ROMs' bytes there (`JMP $C5AF` in the -02 ROM, `JMP ($0048)` in the -01: the byte
//! that tells them apart, as published); any other drive (a 1541 or 1571, a JiffyDOS 1581,
//! our emulator, which answers `M-R` with a syntax error) gets the KERNAL's LOAD.
//!
//! The drive routine ([`drive_code`], at [`DRIVE_ORIGIN`] in the drive's RAM, sent with
//! `M-W` and started with `M-E`) assumes the 1581 DOS of 1987: job 0 at $02 reads the
//! sector whose track and sector are at $0B and $0C into $0300 (through its track cache);
//! a result below 2 is good; its CIA at $4000 (port B bit 2 reads the bus's CLK line,
//! bit 5 turns the fast serial driver outward; the serial data register at $400C; bit 3
//! of $400D: a byte shifted; control A at $400E, bit 6: shift out). It finds the file in
//! the directory (track 40 from sector 3), then for each sector: reads it (a job when it
//! is on another side of a track than the last one read, and then only if the track
//! cache at $0C00 holds the same bytes as the job's buffer in that sector's page, which
//! the DOS of VICE's 1581 does; else a job for every sector), waits for the computer to
//! change the CLK line (its request; at most about 1.4 s, or it returns to the DOS), and
//! sends a count (1-254), then that many bytes (the sector without its link); after the
//! last sector, on the next request, 0; when the file is not there or a sector cannot be
//! read, $FF. Its shift clock is the DOS's own (timer A as the DOS set it: a bit each
//! 7 µs). The sends need no time-out: the drive's own timer clocks them. The next sector
//! is read while the computer stores the last one.

use crate::mmap::temp as t;
use crate::mmap::{MMU_CONFIG, MMU_CONFIG_BANK1, MMU_CR, MMU_RCR, RCR_COMMON_16K};
use c128_map::io::{CIA1_CRA, CIA1_ICR, CIA1_SDR, CIA2_PORT_A, MMU_MODE};
use c128_map::kernal::{CHKIN, CHRIN, CHROUT, CKOUT, CLOSE, CLRCH, OPEN, SETBNK, SETLFS, SETNAM};
use mos_asm::asm::Locals;
use mos_asm::asm::{Arg, Asm, Item, Label, Part, Sym, op::*};
use mos_asm::link;

/// Where the drive routine runs in the 1581's RAM (buffer 2's page, free between commands).
pub const DRIVE_ORIGIN: u16 = 0x0500;
/// How many bytes of the drive routine each `M-W` carries.
const CHUNK: u8 = 32;
/// The logical file and secondary address of the command channel.
const COMMAND: u8 = 15;
/// What is read with `M-R` to know a 1581, and what each of its DOS ROMs holds there.
const PROBE_AT: u16 = 0xC160;
const PROBES: [[u8; 3]; 2] = [[0x4C, 0xAF, 0xC5], [0x6C, 0x48, 0x00]];

/// The drive's job 0: its command byte, its track and sector, its buffer.
const JOB: u8 = 0x02;
const JOB_TRACK: u8 = 0x0B;
const JOB_SECTOR: u8 = 0x0C;
const BUFFER: u16 = 0x0300;
/// Job 0's command: read the sector.
const READ: u8 = 0x80;
/// The 1581's CIA: port B, serial data, interrupt flags, control A.
const DRIVE_PORT_B: u16 = 0x4001;
const DRIVE_SDR: u16 = 0x400C;
const DRIVE_ICR: u16 = 0x400D;
const DRIVE_CRA: u16 = 0x400E;
/// The 1581's track cache: the high byte of its first page. It holds the side of a track
/// the last job read, logical sector k of the side (0-19) in page `TRACK_CACHE + k`.
const TRACK_CACHE: u8 = 0x0C;
/// Logical sectors on each side of a track.
const SIDE_SECTORS: u8 = 20;
/// The directory's first sector on a 1581.
const DIRECTORY: (u8, u8) = (40, 3);
/// A closed PRG file's type byte in a directory entry.
const PRG: u8 = 0x82;
/// The counts the drive sends before a sector: the file's end, and a failure.
const END: u8 = 0;
const FAILED: u8 = 0xFF;

/// The file's name as a directory entry holds it: padded with shifted spaces to 16.
fn entry_name(name: &[u8]) -> Option<[u8; 16]> {
    let mut padded = [0xA0; 16];
    padded.get_mut(..name.len())?.copy_from_slice(name);
    Some(padded)
}

/// The drive routine for the file `name` (at most 16 bytes), assembled at [`DRIVE_ORIGIN`]
/// and padded to a whole number of `M-W` chunks; `None` for a longer name.
pub fn drive_code(name: &[u8]) -> Option<Vec<u8>> {
    let name = entry_name(name)?;
    let mut loc = Locals::default();
    let mut f = || loc.fresh();
    let (dir, entry, compare, skip_back, skip, file, full, last, failed, tail, out) =
        (f(), f(), f(), f(), f(), f(), f(), f(), f(), f(), f());
    let (side, job, have, verify, same, uncached, link_track, link_sector, byte) =
        (f(), f(), f(), f(), f(), f(), f(), f(), f());
    let (v_page, v_track, v_side, v_next, v_stop) = (f(), f(), f(), f(), f());
    let (read, read_wait, request, poll, got, send, shift, outward) = (f(), f(), f(), f(), f(), f(), f(), f());
    let (v_clk, v_base, v_len, v_wait, v_name) = (f(), f(), f(), f(), f());
    let var = |l: Label| Arg::Sym(Sym::Code(l), Part::Word, 0);
    let ins =
        |a: &mut Asm, op: u8, l: Label, off: i32| a.items.push(Item::Ins(op, Arg::Sym(Sym::Code(l), Part::Word, off)));
    let mut a = Asm::default();
    // The CLK line as the computer leaves it: each change from here on is a request.
    a.w(LDA_ABS, DRIVE_PORT_B).b(AND_IMM, 0x04);
    a.items.push(Item::Ins(STA_ABS, var(v_clk)));
    a.b(LDA_IMM, DIRECTORY.0).b(STA_ZP, JOB_TRACK).b(LDA_IMM, DIRECTORY.1).b(STA_ZP, JOB_SECTOR);
    // Each directory sector: eight entries of 32 bytes, the first two of the sector its link.
    a.label(dir).to(JSR, read).br(BCS, failed).b(LDY_IMM, 0);
    a.label(entry).w(LDA_ABY, BUFFER + 2).b(CMP_IMM, PRG).br(BNE, skip);
    a.items.push(Item::Ins(STY_ABS, var(v_base)));
    a.b(LDX_IMM, 0);
    a.label(compare).w(LDA_ABY, BUFFER + 5);
    ins(&mut a, CMP_ABX, v_name, 0);
    a.br(BNE, skip_back).i(INY).i(INX).b(CPX_IMM, 16).br(BNE, compare);
    ins(&mut a, LDY_ABS, v_base, 0);
    a.w(LDA_ABY, BUFFER + 3).b(STA_ZP, JOB_TRACK).w(LDA_ABY, BUFFER + 4).b(STA_ZP, JOB_SECTOR);
    a.to(JMP, file);
    a.label(skip_back);
    ins(&mut a, LDY_ABS, v_base, 0);
    a.label(skip).i(TYA).i(CLC).b(ADC_IMM, 32).i(TAY).br(BNE, entry);
    a.w(LDA_ABS, BUFFER).br(BEQ, failed).b(STA_ZP, JOB_TRACK).w(LDA_ABS, BUFFER + 1).b(STA_ZP, JOB_SECTOR);
    a.to(JMP, dir);

    // The file, a sector at a time: 254 bytes, or in the last (link track 0) up to the
    // byte its link's sector names.
    a.label(file);
    // Which side of its track the sector is on (logical sectors 0-19 and 20-39), and its
    // place on that side, k: in the track cache it is page TRACK_CACHE + k.
    a.b(LDA_ZP, JOB_SECTOR).b(LDX_IMM, 0).b(CMP_IMM, SIDE_SECTORS).br(BCC, side).b(SBC_IMM, SIDE_SECTORS).i(INX);
    a.label(side).i(CLC).b(ADC_IMM, TRACK_CACHE);
    ins(&mut a, STA_ABS, v_page, 0);
    a.b(LDA_ZP, JOB_TRACK);
    ins(&mut a, CMP_ABS, v_track, 0);
    a.br(BNE, job);
    ins(&mut a, CPX_ABS, v_side, 0);
    a.br(BNE, job);
    ins(&mut a, LDA_ABS, v_page, 0);
    a.to(JMP, have);
    // Another side: job 0 reads it into the cache and the sector into $0300. The cache is
    // used for the side's later sectors only if its page k holds the same bytes.
    a.label(job);
    ins(&mut a, STX_ABS, v_side, 0);
    a.b(LDA_ZP, JOB_TRACK);
    ins(&mut a, STA_ABS, v_track, 0);
    a.to(JSR, read).br(BCS, failed);
    ins(&mut a, LDA_ABS, v_page, 0);
    ins(&mut a, STA_ABS, same, 2);
    a.b(LDY_IMM, 0);
    a.label(verify).w(LDA_ABY, BUFFER);
    a.label(same).w(CMP_ABY, 0);
    a.br(BNE, uncached).i(INY).br(BNE, verify);
    ins(&mut a, LDA_ABS, v_page, 0);
    a.to(JMP, have);
    a.label(uncached).b(LDA_IMM, 0xFF);
    ins(&mut a, STA_ABS, v_track, 0);
    a.b(LDA_IMM, (BUFFER >> 8) as u8);
    // The sector's page in A: its link, then its bytes from there.
    a.label(have);
    ins(&mut a, STA_ABS, link_track, 2);
    ins(&mut a, STA_ABS, link_sector, 2);
    ins(&mut a, STA_ABS, byte, 2);
    a.label(link_track).w(LDA_ABS, 0);
    ins(&mut a, STA_ABS, v_next, 0);
    a.label(link_sector).w(LDA_ABS, 1);
    ins(&mut a, STA_ABS, v_next, 1);
    a.b(LDX_IMM, 254);
    ins(&mut a, LDA_ABS, v_next, 0);
    a.br(BNE, full);
    ins(&mut a, LDX_ABS, v_next, 1);
    a.i(DEX);
    a.label(full);
    a.items.push(Item::Ins(STX_ABS, var(v_len)));
    // Y stops at the count plus the link's two bytes (0 after a whole sector's 254).
    a.i(INX).i(INX);
    ins(&mut a, STX_ABS, v_stop, 0);
    a.to(JSR, request).br(BCS, out).to(JSR, outward);
    ins(&mut a, LDA_ABS, v_len, 0);
    a.to(JSR, send).b(LDY_IMM, 2);
    a.label(byte).w(LDA_ABY, 0).to(JSR, send).i(INY);
    ins(&mut a, CPY_ABS, v_stop, 0);
    a.br(BNE, byte);
    ins(&mut a, LDA_ABS, v_next, 0);
    a.br(BEQ, last).b(STA_ZP, JOB_TRACK);
    ins(&mut a, LDA_ABS, v_next, 1);
    a.b(STA_ZP, JOB_SECTOR).to(JMP, file);
    // One more request, answered with the count in A alone: 0 after the last sector, $FF
    // when the file is not there or a sector cannot be read.
    a.label(last).b(LDA_IMM, END).to(JMP, tail);
    a.label(failed).b(LDA_IMM, FAILED);
    a.label(tail).i(PHA).to(JSR, request).i(PLA).br(BCS, out).i(PHA).to(JSR, outward).i(PLA).to(JSR, send);
    // Back to the DOS: the bus's driver and the shift register inward, interrupts on.
    a.label(out).i(SEI).w(LDA_ABS, DRIVE_CRA).b(AND_IMM, 0xBF).w(STA_ABS, DRIVE_CRA);
    a.w(LDA_ABS, DRIVE_PORT_B).b(AND_IMM, 0xDF).w(STA_ABS, DRIVE_PORT_B).i(CLI).i(RTS);

    // Job 0 reads the sector at $0B/$0C; BRK has the controller run it at once, as the
    // DOS's own calls do. Carry set when it failed.
    a.label(read).i(CLI).b(LDA_IMM, READ).b(STA_ZP, JOB).b(BRK, 0xEA);
    a.label(read_wait).b(LDA_ZP, JOB).br(BMI, read_wait).b(CMP_IMM, 2).i(RTS);

    // A request: the CLK line changes; carry set when it did not within about 1.4 s
    // (three bytes of count, 21 cycles a turn at 2 MHz).
    a.label(request).b(LDA_IMM, 0);
    ins(&mut a, STA_ABS, v_wait, 0);
    ins(&mut a, STA_ABS, v_wait, 1);
    a.b(LDA_IMM, 2);
    ins(&mut a, STA_ABS, v_wait, 2);
    a.label(poll).w(LDA_ABS, DRIVE_PORT_B).b(AND_IMM, 0x04);
    ins(&mut a, CMP_ABS, v_clk, 0);
    a.br(BNE, got);
    ins(&mut a, INC_ABS, v_wait, 0);
    a.br(BNE, poll);
    ins(&mut a, INC_ABS, v_wait, 1);
    a.br(BNE, poll);
    ins(&mut a, DEC_ABS, v_wait, 2);
    a.br(BNE, poll).i(SEC).i(RTS);
    a.label(got);
    a.items.push(Item::Ins(STA_ABS, var(v_clk)));
    a.i(CLC).i(RTS);

    // A byte out through the shift register, at the DOS's shift clock.
    a.label(send).w(STA_ABS, DRIVE_SDR).b(LDA_IMM, 0x08);
    a.label(shift).w(BIT_ABS, DRIVE_ICR).br(BEQ, shift).i(RTS);

    // The bus's fast driver and the shift register outward, interrupts off while sending.
    a.label(outward).i(SEI).w(LDA_ABS, DRIVE_PORT_B).b(ORA_IMM, 0x20).w(STA_ABS, DRIVE_PORT_B);
    a.w(LDA_ABS, DRIVE_CRA).b(ORA_IMM, 0x40).w(STA_ABS, DRIVE_CRA).i(RTS);

    for (label, bytes) in [
        (v_clk, vec![0]),
        (v_base, vec![0]),
        (v_len, vec![0]),
        (v_wait, vec![0; 3]),
        (v_page, vec![0]),
        (v_track, vec![0xFF]),
        (v_side, vec![0]),
        (v_next, vec![0; 2]),
        (v_stop, vec![0]),
    ] {
        a.label(label).items.push(Item::Bytes(bytes));
    }
    a.label(v_name).items.push(Item::Bytes(name.to_vec()));
    let mut code = link::assemble("rt_fastload_drive", a, DRIVE_ORIGIN, &[]).ok()?;
    code.resize(code.len().next_multiple_of(usize::from(CHUNK)), 0);
    Some(code)
}

/// Zero-page bytes the computer's side uses (T0-T5): a byte's time-out (T0-T2), where the
/// next byte goes (T3/T4), the load address's bytes still to come (T5).
const ZP_USED: u8 = 6;

/// The computer's side (module docs): `code` is the label of the drive routine's bytes
/// ([`drive_code`], `code_len` of them), `probe` of the `M-R` command's, `execute` of the
/// `M-E` command's ([`commands`]); `end` where the file's end goes.
pub fn host(loc: &mut Locals, code: Label, code_len: usize, commands: Label, end: Arg) -> Asm {
    let mut f = || loc.fresh();
    let (drive, probe_next, probe_ok, chunk, byte, delay, sector, take, store, address, done) =
        (f(), f(), f(), f(), f(), f(), f(), f(), f(), f(), f());
    let (failed, pause, closed, give_up, get, poll, got, low, stored, restore, ok) =
        (f(), f(), f(), f(), f(), f(), f(), f(), f(), f(), f());
    let (wait, ptr, address_left) = (t(0), t(3), t(5));
    let cmd = |off: i32| Arg::Sym(Sym::Code(commands), Part::Word, off);
    let cmd_lo = |off: i32| Arg::Sym(Sym::Code(commands), Part::Lo, off);
    let cmd_hi = |off: i32| Arg::Sym(Sym::Code(commands), Part::Hi, off);
    let mut a = Asm::default();
    let save = f();
    a.b(LDX_IMM, ZP_USED - 1).label(save).b(LDA_ZPX, t(0)).i(PHA).i(DEX).br(BPL, save);

    // OPEN 15,drive,15,"M-R"+$C160+3, then the three bytes it answers.
    a.b(LDA_IMM, 0).b(LDX_IMM, 0).w(JSR, SETBNK);
    a.b(LDA_IMM, COMMAND).b(LDX_ZP, crate::mmap::FA).b(CPX_IMM, 8).br(BCS, drive).b(LDX_IMM, 8);
    a.label(drive).b(LDY_IMM, COMMAND).w(JSR, SETLFS);
    a.b(LDA_IMM, PROBE_COMMAND_LEN);
    a.items.push(Item::Ins(LDX_IMM, cmd_lo(0)));
    a.items.push(Item::Ins(LDY_IMM, cmd_hi(0)));
    a.w(JSR, SETNAM).w(JSR, OPEN).br(BCS, closed);
    a.b(LDX_IMM, COMMAND).w(JSR, CHKIN).br(BCS, give_up);
    a.b(LDX_IMM, 0).label(probe_next).w(JSR, CHRIN).b(STA_ZPX, t(0)).i(INX).b(CPX_IMM, 3).br(BNE, probe_next);
    a.w(JSR, CLRCH);
    for (i, rom) in PROBES.iter().enumerate() {
        let next = f();
        for (k, &b) in rom.iter().enumerate() {
            a.b(LDA_ZP, t(k as u8)).b(CMP_IMM, b).br(BNE, next);
        }
        a.to(JMP, probe_ok).label(next);
        if i == PROBES.len() - 1 {
            a.to(JMP, give_up);
        }
    }

    // The drive routine, CHUNK bytes an M-W: T0/T1 the drive's address, T3/T4 the bytes',
    // T5 the chunks left, T2 Y's place while the KERNAL sends a byte.
    let [origin_lo, origin_hi] = DRIVE_ORIGIN.to_le_bytes();
    a.label(probe_ok).b(LDA_IMM, origin_lo).b(STA_ZP, t(0)).b(LDA_IMM, origin_hi).b(STA_ZP, t(1));
    a.s(LDA_IMM, Sym::Code(code), Part::Lo).b(STA_ZP, t(3)).s(LDA_IMM, Sym::Code(code), Part::Hi).b(STA_ZP, t(4));
    a.b(LDA_IMM, (code_len / usize::from(CHUNK)) as u8).b(STA_ZP, t(5));
    a.label(chunk).b(LDX_IMM, COMMAND).w(JSR, CKOUT).br(BCS, give_up);
    a.b(LDA_IMM, b'M').w(JSR, CHROUT).b(LDA_IMM, b'-').w(JSR, CHROUT).b(LDA_IMM, b'W').w(JSR, CHROUT);
    a.b(LDA_ZP, t(0)).w(JSR, CHROUT).b(LDA_ZP, t(1)).w(JSR, CHROUT).b(LDA_IMM, CHUNK).w(JSR, CHROUT);
    a.b(LDY_IMM, 0).label(byte).b(LDA_IZY, t(3)).b(STY_ZP, t(2)).w(JSR, CHROUT).b(LDY_ZP, t(2)).i(INY);
    a.b(CPY_IMM, CHUNK).br(BNE, byte).w(JSR, CLRCH);
    for zp in [t(0), t(3)] {
        a.b(LDA_ZP, zp).i(CLC).b(ADC_IMM, CHUNK).b(STA_ZP, zp).b(BCC, 2).b(INC_ZP, zp + 1);
    }
    a.b(DEC_ZP, t(5)).br(BNE, chunk);
    // M-E: the drive runs it once this command ends (at CLRCHN's UNLISTEN).
    a.b(LDX_IMM, COMMAND).w(JSR, CKOUT).br(BCS, give_up);
    let exec_at = i32::from(PROBE_COMMAND_LEN);
    a.b(LDX_IMM, 0);
    let exec_byte = f();
    a.label(exec_byte);
    a.items.push(Item::Ins(LDA_ABX, cmd(exec_at)));
    a.w(JSR, CHROUT).i(INX).b(CPX_IMM, EXECUTE_COMMAND_LEN).br(BNE, exec_byte);
    a.w(JSR, CLRCH);

    // Receive, with interrupts off: the bottom 16 KB common, so that this code, the stack
    // and the zero page stay in view while $FF00 shows bank 1 for each store; CIA 1's
    // serial port and the bus's fast driver inward.
    a.i(SEI).w(LDA_ABS, MMU_CR).i(PHA).w(LDA_ABS, MMU_RCR).i(PHA);
    a.b(LDA_IMM, MMU_CONFIG).w(STA_ABS, MMU_CR).b(LDA_IMM, RCR_COMMON_16K).w(STA_ABS, MMU_RCR);
    a.w(LDA_ABS, CIA1_CRA).b(AND_IMM, 0xBF).w(STA_ABS, CIA1_CRA);
    a.w(LDA_ABS, MMU_MODE).b(AND_IMM, 0xF7).w(STA_ABS, MMU_MODE).w(LDA_ABS, CIA1_ICR);
    // About 20 ms for the drive to take the M-E and note the CLK line before the first
    // request changes it.
    a.b(LDY_IMM, 32).b(LDX_IMM, 0).label(delay).i(DEX).br(BNE, delay).i(DEY).br(BNE, delay);
    a.b(LDA_IMM, 2).b(STA_ZP, address_left);

    // Each sector: a request (CLK changed), its count, its bytes.
    a.label(sector).w(LDA_ABS, CIA2_PORT_A).b(EOR_IMM, 0x10).w(STA_ABS, CIA2_PORT_A);
    a.to(JSR, get).br(BCS, failed).b(CMP_IMM, END).br(BEQ, done).b(CMP_IMM, FAILED).br(BEQ, failed).i(TAX);
    a.label(take).to(JSR, get).br(BCS, failed).b(LDY_ZP, address_left).br(BNE, address);
    a.label(store).b(LDY_IMM, MMU_CONFIG_BANK1).w(STY_ABS, MMU_CR).b(LDY_IMM, 0).b(STA_IZY, ptr);
    a.b(LDY_IMM, MMU_CONFIG).w(STY_ABS, MMU_CR).b(INC_ZP, ptr).b(BNE, 2).b(INC_ZP, ptr + 1);
    a.label(stored).i(DEX).br(BNE, take).to(JMP, sector);
    // The file's first two bytes: its load address, low byte first.
    a.label(address).b(DEC_ZP, address_left).br(BNE, low).b(STA_ZP, ptr + 1).to(JMP, stored);
    a.label(low).b(STA_ZP, ptr).to(JMP, stored);

    a.label(done).b(LDA_ZP, address_left).br(BNE, failed);
    a.b(LDA_ZP, ptr);
    a.items.push(Item::Ins(STA_ABS, end));
    a.b(LDA_ZP, ptr + 1);
    a.items.push(Item::Ins(STA_ABS, shifted(end, 1)));
    a.i(CLC).to(JMP, restore);
    // A failure once the routine runs: wait until its request time-out has passed.
    a.label(failed).b(LDA_IMM, 20).b(STA_ZP, wait + 2).b(LDX_IMM, 0).b(LDY_IMM, 0);
    a.label(pause).i(DEX).br(BNE, pause).i(DEY).br(BNE, pause).b(DEC_ZP, wait + 2).br(BNE, pause).i(SEC);
    // The CLK line released, as the KERNAL leaves the idle bus; $D506, $FF00, interrupts.
    a.label(restore).w(LDA_ABS, CIA2_PORT_A).b(AND_IMM, 0xEF).w(STA_ABS, CIA2_PORT_A);
    a.i(PLA).w(STA_ABS, MMU_RCR).i(PLA).w(STA_ABS, MMU_CR).i(CLI).to(JMP, ok);
    a.label(give_up).w(JSR, CLRCH).i(SEC);
    a.label(ok).i(PHP).b(LDA_IMM, COMMAND).w(JSR, CLOSE).i(PLP);
    // T0-T5 back; the carry rides in Y's bit 0 past the loop's compare.
    a.label(closed).b(LDA_IMM, 0).i(ROL_A).i(TAY);
    let back = f();
    a.b(LDX_IMM, 0).label(back).i(PLA).b(STA_ZPX, t(0)).i(INX).b(CPX_IMM, ZP_USED).br(BNE, back);
    a.i(TYA).i(LSR_A).i(RTS);

    // One byte from the serial port: carry set when none came within about 3.7 s
    // (the count in T0-T2, about 14 cycles a turn at 2 MHz).
    a.label(get).b(LDA_IMM, 0).b(STA_ZP, wait).b(STA_ZP, wait + 1).b(LDA_IMM, 8).b(STA_ZP, wait + 2);
    a.label(poll).b(LDA_IMM, 0x08).w(BIT_ABS, CIA1_ICR).br(BNE, got);
    a.b(INC_ZP, wait).br(BNE, poll).b(INC_ZP, wait + 1).br(BNE, poll).b(DEC_ZP, wait + 2).br(BNE, poll);
    a.i(SEC).i(RTS);
    a.label(got).w(LDA_ABS, CIA1_SDR).i(CLC).i(RTS);
    a
}

/// `arg` plus `by` bytes.
fn shifted(arg: Arg, by: i32) -> Arg {
    match arg {
        Arg::Sym(s, p, off) => Arg::Sym(s, p, off + by),
        Arg::Word(w) => Arg::Word(w.wrapping_add(by as u16)),
        other => other,
    }
}

const PROBE_COMMAND_LEN: u8 = 6;
const EXECUTE_COMMAND_LEN: u8 = 5;

/// The two commands' bytes: `M-R` of the probe's three bytes, then `M-E` of the routine.
pub fn commands() -> Vec<u8> {
    let [p_lo, p_hi] = PROBE_AT.to_le_bytes();
    let [o_lo, o_hi] = DRIVE_ORIGIN.to_le_bytes();
    let bytes = vec![b'M', b'-', b'R', p_lo, p_hi, 3, b'M', b'-', b'E', o_lo, o_hi];
    debug_assert_eq!(bytes.len(), usize::from(PROBE_COMMAND_LEN + EXECUTE_COMMAND_LEN));
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use mos6502::cpu::CPU;
    use mos6502::instruction::Nmos6502;
    use mos6502::memory::Bus;
    use std::collections::HashMap;

    /// Where the routine returns to (its caller, the DOS, in the model).
    const BACK: u16 = 0xFFF0;

    /// A 1581 as the drive routine sees it: RAM, a disk of logical sectors, job 0 run at
    /// each BRK, a CLK line that the computer changes between any two reads of port B
    /// (so every request is granted), and the serial port's bytes kept as they go out.
    struct Drive {
        ram: Vec<u8>,
        sectors: HashMap<(u8, u8), [u8; 256]>,
        clk: u8,
        sent: Vec<u8>,
        jobs: usize,
        /// Whether a job fills the track cache with its side, as the 1581's DOS does.
        cache: bool,
    }

    impl Bus for Drive {
        fn get_byte(&mut self, address: u16) -> u8 {
            match address {
                DRIVE_PORT_B => {
                    self.clk ^= 0x04;
                    self.clk
                }
                DRIVE_ICR => 0x08,
                _ => self.ram[usize::from(address)],
            }
        }
        fn set_byte(&mut self, address: u16, value: u8) {
            if address == DRIVE_SDR {
                self.sent.push(value);
            }
            self.ram[usize::from(address)] = value;
        }
    }

    /// Runs the routine for `name` on `sectors`; the bytes it sent.
    fn run(name: &[u8], sectors: HashMap<(u8, u8), [u8; 256]>) -> Vec<u8> {
        run_counting(name, sectors, true).0
    }

    /// The same, with or without the track cache; also the number of jobs it ran.
    fn run_counting(name: &[u8], sectors: HashMap<(u8, u8), [u8; 256]>, cache: bool) -> (Vec<u8>, usize) {
        let code = drive_code(name).expect("the routine");
        let mut drive = Drive { ram: vec![0; 0x10000], sectors, clk: 0, sent: Vec::new(), jobs: 0, cache };
        let at = usize::from(DRIVE_ORIGIN);
        drive.ram[at..at + code.len()].copy_from_slice(&code);
        let [lo, hi] = (BACK - 1).to_le_bytes();
        drive.ram[0x1FF] = hi;
        drive.ram[0x1FE] = lo;
        let mut cpu = CPU::new(drive, Nmos6502);
        cpu.registers.stack_pointer = mos6502::registers::StackPointer(0xFD);
        cpu.registers.program_counter = DRIVE_ORIGIN;
        for _ in 0..2_000_000 {
            let pc = cpu.registers.program_counter;
            if pc == BACK {
                return (std::mem::take(&mut cpu.memory.sent), cpu.memory.jobs);
            }
            if cpu.memory.ram[usize::from(pc)] == BRK {
                // The controller runs job 0: the sector into $0300, the result in $02.
                let d = &mut cpu.memory;
                assert_eq!(d.ram[usize::from(JOB)], READ, "job 0 is a read");
                d.jobs += 1;
                let ts = (d.ram[usize::from(JOB_TRACK)], d.ram[usize::from(JOB_SECTOR)]);
                let result = match d.sectors.get(&ts) {
                    Some(sector) => {
                        let b = usize::from(BUFFER);
                        d.ram[b..b + 256].copy_from_slice(sector);
                        let first = ts.1 / SIDE_SECTORS * SIDE_SECTORS;
                        for k in 0..SIDE_SECTORS {
                            let page = usize::from(TRACK_CACHE + k) * 256;
                            let held = d.sectors.get(&(ts.0, first + k)).filter(|_| d.cache);
                            d.ram[page..page + 256].copy_from_slice(held.unwrap_or(&[0xEE; 256]));
                        }
                        1
                    }
                    None => 2,
                };
                d.ram[usize::from(JOB)] = result;
                cpu.registers.program_counter = pc + 2;
                continue;
            }
            cpu.single_step();
        }
        panic!("the drive routine did not return")
    }

    /// The file's first sector: the end of a track's first side, so that a longer file
    /// goes on to the second.
    const FIRST: u8 = 17;

    /// A directory sector at 40/3 linking to 40/4 and a file `data` from 1/17 on, sectors
    /// linked 1/17, 1/18, ... (other names and types first, `name` in the second sector).
    fn disk(name: &[u8], data: &[u8]) -> HashMap<(u8, u8), [u8; 256]> {
        let mut sectors = HashMap::new();
        let entry = |s: &mut [u8; 256], at: usize, kind: u8, name: &[u8], ts: (u8, u8)| {
            s[at + 2] = kind;
            s[at + 3] = ts.0;
            s[at + 4] = ts.1;
            s[at + 5..at + 21].copy_from_slice(&entry_name(name).unwrap());
        };
        let mut first = [0; 256];
        first[0] = 40;
        first[1] = 4;
        entry(&mut first, 0, PRG, b"BAC", (2, 0));
        entry(&mut first, 32, 0x81, name, (3, 0));
        entry(&mut first, 64, PRG, b"BAC CODEX", (4, 0));
        sectors.insert((40, 3), first);
        let mut second = [0; 256];
        second[1] = 0xFF;
        entry(&mut second, 96, PRG, name, (1, FIRST));
        sectors.insert((40, 4), second);
        let chunks: Vec<&[u8]> = data.chunks(254).collect();
        for (i, chunk) in chunks.iter().enumerate() {
            let mut s = [0; 256];
            if i + 1 < chunks.len() {
                s[0] = 1;
                s[1] = FIRST + i as u8 + 1;
            } else {
                s[1] = chunk.len() as u8 + 1;
            }
            s[2..2 + chunk.len()].copy_from_slice(chunk);
            sectors.insert((1, FIRST + i as u8), s);
        }
        sectors
    }

    /// The file as the computer rebuilds it from the counts and bytes; `None` when the
    /// drive said it failed.
    fn received(stream: &[u8]) -> Option<Vec<u8>> {
        let mut file = Vec::new();
        let mut rest = stream;
        loop {
            let (&count, after) = rest.split_first().expect("a count");
            match count {
                END => {
                    assert!(after.is_empty(), "nothing after the end");
                    return Some(file);
                }
                FAILED => return None,
                n => {
                    file.extend(&after[..usize::from(n)]);
                    rest = &after[usize::from(n)..];
                }
            }
        }
    }

    #[test]
    fn the_drive_routine_sends_the_file_it_finds_in_the_directory() {
        for len in [1, 253, 254, 255, 508, 1_000] {
            let data: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
            let stream = run(b"BAC CODE", disk(b"BAC CODE", &data));
            assert_eq!(received(&stream).as_deref(), Some(&data[..]), "a file of {len} bytes");
        }
    }

    #[test]
    fn a_side_of_a_track_takes_one_job_and_the_rest_comes_from_the_track_cache() {
        // Sectors 17-19 on the first side, 20 on the second: two jobs for the file (and two
        // for the directory); without a cache whose pages match, a job for each sector.
        let data: Vec<u8> = (0..1_000).map(|i| (i % 251) as u8).collect();
        let (stream, jobs) = run_counting(b"BAC CODE", disk(b"BAC CODE", &data), true);
        assert_eq!(received(&stream).as_deref(), Some(&data[..]));
        assert_eq!(jobs, 2 + 2);
        let (stream, jobs) = run_counting(b"BAC CODE", disk(b"BAC CODE", &data), false);
        assert_eq!(received(&stream).as_deref(), Some(&data[..]), "without the cache");
        assert_eq!(jobs, 2 + 4);
    }

    #[test]
    fn a_missing_file_or_a_bad_sector_is_a_failure_not_a_hang() {
        let data = vec![0x55; 600];
        assert_eq!(received(&run(b"OTHER", disk(b"BAC CODE", &data))), None, "no such file");
        let mut broken = disk(b"BAC CODE", &data);
        broken.remove(&(1, FIRST + 1));
        assert_eq!(received(&run(b"BAC CODE", broken)), None, "its second sector unreadable");
        let mut no_directory = disk(b"BAC CODE", &data);
        no_directory.remove(&(40, 3));
        assert_eq!(received(&run(b"BAC CODE", no_directory)), None, "no directory");
    }

    #[test]
    fn the_routine_fits_whole_m_w_commands_and_names_fit_an_entry() {
        let code = drive_code(b"BAC CODE").unwrap();
        assert_eq!(code.len() % usize::from(CHUNK), 0);
        assert!(code.len() <= 0x0800 - usize::from(DRIVE_ORIGIN), "below the 1581's buffer at $0800");
        assert!(code.windows(16).any(|w| w == entry_name(b"BAC CODE").unwrap()), "the name, padded");
        assert!(drive_code(b"SEVENTEEN LETTERS").is_none(), "no entry holds 17 letters");
        assert_eq!(commands().len(), usize::from(PROBE_COMMAND_LEN + EXECUTE_COMMAND_LEN));
    }
}
